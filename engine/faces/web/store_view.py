"""An audit's results store as the web page browses it (``claimlaw serve --store a.db``): its rows filtered and paged
in SQL, the counts per verdict, and each row as the case the audit put to the rules, for the page to rule on.

The store is opened read-only (SQLite ``mode=ro``), one connection per request: nothing is written, and a large
store is never read into memory whole.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from claimlaw.engine.faces.audit.store import _COLS, check_store_file
from claimlaw.facts import CaseError
from claimlaw.facts.cards import Seat

PAGE = 50            # rows per page
FILTERS = ("verdict", "contract", "source", "board")
MAX_FILTER = 200     # characters of a filter's text


class StoreView:
    """Read-only queries over one results store."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.path.abspath(path)
        check_store_file(self.path, create=False)  # StoreError: one line naming the file
        self.name = Path(self.path).name
        with self._db() as db:  # an empty database is not a store to browse
            if not db.execute("SELECT name FROM sqlite_master WHERE name='rows'").fetchone():
                from claimlaw.engine.faces.audit.store import StoreError

                raise StoreError(f"{path}: no rows table (an empty store)")

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(f"file:{quote(self.path)}?mode=ro", uri=True, timeout=5)) as db:
            yield db

    @staticmethod
    def _where(filters: dict[str, str]) -> tuple[str, list[Any]]:
        parts, args = [], []
        for key in FILTERS:
            value = (filters.get(key) or "").strip()
            if not value:
                continue
            if len(value) > MAX_FILTER:
                raise CaseError(key, f"longer than {MAX_FILTER} characters")
            if key == "source":  # the event file: any part of its name
                parts.append("source LIKE ? ESCAPE '\\'")
                args.append("%" + value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
            else:
                parts.append(f'"{key}" = ? COLLATE NOCASE')
                args.append(value)
        return (" WHERE " + " AND ".join(parts)) if parts else "", args

    def summary(self) -> dict[str, Any]:
        """The store's name, the audit's settings and the count of rows per verdict (of the whole store)."""
        with self._db() as db:
            counts = dict(db.execute("SELECT verdict, COUNT(*) FROM rows GROUP BY verdict ORDER BY verdict"))
            settings = dict(db.execute("SELECT key, value FROM meta"))
        return {"name": self.name, "counts": counts, "total": sum(counts.values()),
                "settings": {k: v for k, v in settings.items() if k != "schema"}}

    def page(self, filters: dict[str, str], page: int) -> dict[str, Any]:
        """One page of the rows the filters keep, in the audit's order, with their count per verdict."""
        where, args = self._where(filters)
        cols = ", ".join(f'"{c}"' for c in _COLS)
        with self._db() as db:
            counts = dict(db.execute(f"SELECT verdict, COUNT(*) FROM rows{where} GROUP BY verdict", args))
            total = sum(counts.values())
            pages = max(1, -(-total // PAGE))
            page = min(max(1, page), pages)
            found = db.execute(f"SELECT {cols} FROM rows{where} ORDER BY source, board, room, claim_index "
                               "LIMIT ? OFFSET ?", [*args, PAGE, (page - 1) * PAGE]).fetchall()
        rows = [dict(zip(_COLS, values, strict=True)) for values in found]
        for r in rows:
            r["source"] = Path(str(r["source"])).name  # the event file, not where it lay on the auditor's disk
        return {"rows": rows, "counts": counts, "total": total, "page": page, "pages": pages}

    def row(self, key: dict[str, str]) -> dict[str, Any]:
        """One row by its key (file_hash, board, room, claim_index)."""
        cols = ", ".join(f'"{c}"' for c in _COLS)
        try:
            args = [str(key["file_hash"]), str(key["board"]), str(key["room"]), int(key["claim_index"])]
        except (KeyError, ValueError):
            raise CaseError("row", "name a row by file_hash, board, room and claim_index") from None
        with self._db() as db:
            found = db.execute(f"SELECT {cols} FROM rows WHERE file_hash=? AND board=? AND room=? AND claim_index=?",
                               args).fetchone()
            settings = dict(db.execute("SELECT key, value FROM meta"))
        if found is None:
            raise CaseError("row", "no such row in the store")
        return {"row": dict(zip(_COLS, found, strict=True)), "settings": settings}


def row_case(row: dict[str, Any], settings: dict[str, str]) -> dict[str, Any]:
    """The case the audit put to the rules for ``row``: the position at the claim, and the table situation its
    verdict rests on (a silent claim by declarer disputed at once, a defender's claim of the rest, or an agreed
    concession withdrawn). The store keeps no statement, vulnerability nor auction: the page shows the case as the
    audit ruled it."""
    import json

    if not row.get("position") or not row.get("declarer") or row.get("claimed_for_declarer") is None:
        raise CaseError("row", f"this row holds no position to rule on ({row.get('verdict')}: "
                               f"{row.get('message') or 'the record could not be read'})")
    declarer = Seat(row["declarer"])
    side = declarer.side
    remaining, c = int(row["remaining"]), int(row["claimed_for_declarer"])
    won_decl = int(row["claimed_total"]) - c
    won = {side.value: won_decl, side.other.value: 13 - remaining - won_decl}
    board = {"position": row["position"], "leader": row["leader"], "contract": row["contract"],
             "declarer": declarer.value, "won": {"NS": won["NS"], "EW": won["EW"]}}
    if row.get("trick"):
        board["trick"] = str(row["trick"]).split()
    try:
        how = dict(json.loads(settings.get("settings", "{}")))
    except (ValueError, TypeError):
        how = {}
    cls = how.get("class_of_player") or "world_class"
    defender = declarer.next
    line = str(row.get("line") or "")
    case: dict[str, Any] = {"title": f"{Path(str(row['source'])).name} board {row['board']}"
                                     f"{' ' + row['room'] + ' room' if row.get('room') else ''} ({row['verdict']})",
                            "board": board, "findings": {"class_of_player": cls}}
    if how.get("edition"):
        case["edition"] = str(how["edition"])
    if how.get("packs"):
        case["regulations"] = [str(p) for p in how["packs"]]
    if row["verdict"] == "over_concession":
        claimer, says, tricks, agreed = declarer, "concede", remaining - c, declarer
    elif row["verdict"] == "impossible" and not line.startswith("if declarer claimed"):
        claimer, says, tricks, agreed = declarer, "claim", c, defender  # agreed, then withdrawn by a defender
    elif line.startswith("if a defender claimed"):
        claimer, says, tricks, agreed = defender, "claim", remaining - c, None
    else:
        claimer, says, tricks, agreed = declarer, "claim", c, None
    case["claim"] = {"by": claimer.value, "tricks": tricks, **({"says": says} if says != "claim" else {})}
    if agreed is None:
        case["responses"] = {claimer.next.value: "disputes"}
    else:
        case["responses"] = {s.value: "agrees" for s in (claimer.next, claimer.partner.next)}
        case["timing"] = {"objection": "after_round_end", "objection_by": agreed.value,
                          "within_correction_period": True}
    return case
