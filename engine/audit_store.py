"""The audit's results store: one SQLite file, rows streaming in as claims finish.

SQLite because it is in the standard library (nothing to install on a laptop or a cluster's
client), one file a run can be resumed from, and one writer is all the audit has: the process
that drives the workers writes every row, so DuckDB's column store would add a dependency for no
gain at these sizes (a million rows of ~30 fields). Rows are committed as they arrive, at most
``COMMIT_EVERY`` seconds apart (WAL journal): a commit per row cost 0.57 ms, a ceiling of 1,750
claims a second for the one writer; a killed run loses at most that last fraction of a second of
rows (redone by the rerun), an interrupted or finished one nothing.

Rows are keyed by (file_hash, board, room, claim_index): a file copied under another name is the
same file. A store holds the results of one claimlaw version, code fingerprint, mode and budget
(``meta``); a run with other settings is refused (``StoreMismatch``) rather than mixed in.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import asdict, fields
from typing import Any

from claimlaw.engine.audit import AuditRow, Key
from claimlaw.engine.records import ReadProblem

SCHEMA = 1
COMMIT_EVERY = 0.5  # seconds
_COLS = [f.name for f in fields(AuditRow)]


class StoreError(ValueError):
    """A store that cannot be opened or read."""


class StoreMismatch(StoreError):
    """A store that holds results of other settings or another version."""


def describe(settings: dict[str, Any]) -> str:
    return (f"claimlaw {settings.get('claimlaw')} (code {settings.get('code')}, endplay {settings.get('endplay')}), "
            f"mode {settings.get('mode')}, budget {settings.get('budget')}")


class Store:
    """Open (creating if need be) the store at ``path``."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = str(path)
        self._committed = time.monotonic()
        if not create and not os.path.isfile(self.path):
            raise StoreError(f"{self.path}: no such results store")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self._schema()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a claimlaw results store ({e})") from None

    def _schema(self) -> None:
        cols = ", ".join(f'"{c}"' for c in _COLS)
        self.db.executescript(f"""
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, started TEXT, finished TEXT, paths TEXT,
                                             "where" TEXT, timeout REAL, new_rows INTEGER);
            CREATE TABLE IF NOT EXISTS rows ({cols}, run_id INTEGER,
                                             PRIMARY KEY (file_hash, board, room, claim_index));
            CREATE TABLE IF NOT EXISTS problems (source TEXT, board TEXT, room TEXT, kind TEXT, reason TEXT,
                                                 run_id INTEGER, PRIMARY KEY (source, board, room, reason));
        """)
        have = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if have is None:
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        elif have[0] != str(SCHEMA):
            raise StoreError(f"{self.path}: store schema {have[0]}, this claimlaw reads schema {SCHEMA}")

    # -- settings ----------------------------------------------------------------------------
    def settings(self) -> dict[str, Any] | None:
        row = self.db.execute("SELECT value FROM meta WHERE key='settings'").fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def bind(self, settings: dict[str, Any]) -> None:
        """Tie the store to ``settings``; refuse if it already holds results of other ones."""
        have = self.settings()
        if have is None:
            self.db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps(settings, sort_keys=True),))
        elif have != settings:
            raise StoreMismatch(f"{self.path} holds results of {describe(have)}; this run is {describe(settings)}: "
                                "results are never mixed, use another --out")

    # -- runs and rows -----------------------------------------------------------------------
    def begin_run(self, *, paths: list[str], where: str, timeout: float | None) -> int:
        cur = self.db.execute('INSERT INTO runs (started, paths, "where", timeout) VALUES (?, ?, ?, ?)',
                              (_now(), json.dumps(paths), where, timeout))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def end_run(self, run_id: int, new_rows: int) -> None:
        self.commit()
        self.db.execute("UPDATE runs SET finished=?, new_rows=? WHERE id=?", (_now(), new_rows, run_id))

    def add(self, row: AuditRow, run_id: int) -> None:
        """Write one row (a row with the same key is replaced: a retried failure); commit if it is time."""
        data = asdict(row)
        marks = ", ".join("?" for _ in range(len(_COLS) + 1))
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
        self.db.execute(f"INSERT OR REPLACE INTO rows VALUES ({marks})", [data[c] for c in _COLS] + [run_id])
        if time.monotonic() - self._committed >= COMMIT_EVERY:
            self.commit()

    def commit(self) -> None:
        if self.db.in_transaction:
            self.db.execute("COMMIT")
        self._committed = time.monotonic()

    def add_problems(self, problems: list[ReadProblem], run_id: int) -> None:
        self.db.executemany("INSERT OR REPLACE INTO problems VALUES (?, ?, ?, ?, ?, ?)",
                            [(p.source, p.board or "", p.room or "", p.kind, p.reason, run_id) for p in problems])

    def rows(self) -> list[AuditRow]:
        cols = ", ".join(f'"{c}"' for c in _COLS)
        out = []
        for values in self.db.execute(f"SELECT {cols} FROM rows ORDER BY source, board, room, claim_index"):
            data = dict(zip(_COLS, values, strict=True))
            for b in ("claimer_known", "disagrees", "proven"):
                data[b] = bool(data[b])
            out.append(AuditRow(**data))
        return out

    def rows_by_key(self) -> dict[Key, AuditRow]:
        return {r.key: r for r in self.rows()}

    def run_ids(self) -> dict[Key, int]:
        """Which run wrote each row."""
        q = "SELECT file_hash, board, room, claim_index, run_id FROM rows"
        return {(a, b, c, d): e for a, b, c, d, e in self.db.execute(q)}

    def problems(self) -> list[ReadProblem]:
        q = "SELECT source, board, room, kind, reason FROM problems ORDER BY source, board, room"
        return [ReadProblem(s, b or None, reason, kind, room or None)  # type: ignore[arg-type]
                for s, b, room, kind, reason in self.db.execute(q)]

    def runs(self) -> list[dict[str, Any]]:
        q = 'SELECT id, started, finished, paths, "where", timeout, new_rows FROM runs ORDER BY id'
        names = ("id", "started", "finished", "paths", "where", "timeout", "new_rows")
        return [dict(zip(names, r, strict=True)) for r in self.db.execute(q)]

    def close(self) -> None:
        """Commit what is pending and close."""
        self.commit()
        self.db.close()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


__all__ = ["Store", "StoreError", "StoreMismatch", "describe"]
