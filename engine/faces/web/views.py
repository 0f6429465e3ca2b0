"""The page's JSON of a case and a ruling: a posted case read and checked, the ruling as ``claimlaw rule --json``
prints it, and what the page draws beside it. Pure functions, used by the server (engine/faces/web/app.py) and by the
workers that rule (engine/faces/web/rulings.py), so neither imports the other for them."""

from __future__ import annotations

import re
from typing import Any

from claimlaw.facts import Case, CaseError, Ruling, case_from_dict

_PATH = re.compile(r"(?:[A-Za-z]:\\|(?<![\w.])/)[^\s'\"():,;]*[/\\][^\s'\"():,;]*")


def no_paths(text: str, keep: str = "") -> str:
    """``text`` with every absolute file path replaced by ``…``: a message to a client never names the server's
    files. ``keep``: the client's own words, echoed as they are."""
    if keep:
        return keep.join(_PATH.sub("…", part) for part in text.split(keep))
    return _PATH.sub("…", text)


def error_body(e: CaseError) -> dict[str, Any]:
    """A case error as the page shows it at the field: the same one line as the CLI."""
    out: dict[str, Any] = {"field": e.field, "problem": e.problem, "message": str(e)}
    if e.cards:
        out["cards"] = list(e.cards)  # the cards it is about ("SA"), for the page to mark their hands
    if e.seats:
        out["seats"] = list(e.seats)
    return {"error": out}


def read_case(data: Any) -> Case:
    """Validate a case posted by the page (a JSON object, as a case file would hold it). Its ``regulations`` may
    name installed packs only: the server never reads a file, nor runs code, because a case names it."""
    from claimlaw.engine.packs import PackError, load_case_pack

    case = case_from_dict(data)
    for i, ref in enumerate(case.regulations):
        try:
            load_case_pack(ref, case_dir=None)
        except PackError as e:
            raise CaseError(f"regulations[{i}]", no_paths(str(e).removeprefix("regulations: "), keep=ref)) from None
    return case


def diagram(case: Case) -> dict[str, Any] | None:
    """The position at the claim for the page's diagram: each seat's cards, the trick in progress, the leader."""
    from claimlaw.facts.cards import SEATS, sort_cards

    pos = case.position()
    if pos is None:
        return None
    return {
        "hands": {s.value: [str(c) for c in sort_cards(pos.hands[s])] for s in SEATS},
        "trick": [str(c) for c in pos.trick],
        "leader": pos.leader.value,
        "won": {k.value: v for k, v in pos.won.items()},
        "trump": pos.trump.value if pos.trump else None,
    }


def ruling_json(case: Case, ruling: Ruling) -> dict[str, Any]:
    """The ruling as ``claimlaw rule --json`` prints it: the model, its law chain and the ``expect`` check."""
    from claimlaw.engine.api import check_expect

    return ruling.as_json(check_expect(case, ruling) if case.expect is not None else None)  # as without --edition


def view_extras(case: Case, ruling: Ruling) -> dict[str, Any]:
    """What the page draws beside the ruling: the diagram and our paraphrase of each clause in the trace (the
    guideline behind each marked card is the witness's own ``choices``)."""
    from claimlaw.rules.clauses import CLAUSES

    clauses = {c: {"title": CLAUSES[c].title, "paraphrase": CLAUSES[c].paraphrase}
               for c in ruling.laws if c in CLAUSES}
    return {"diagram": diagram(case), "clauses": clauses, "best": best_line(case, ruling)}


def best_line(case: Case, ruling: Ruling) -> dict[str, Any] | None:
    """For a ruling whose search was stopped (no tricks ruled): the tricks and score of the worst line for the
    claimer that the search found, as far as it got. The page marks them not proven."""
    from claimlaw.facts.cards import Side
    from claimlaw.facts.contract import score

    pos = case.position() if case.board else None
    if ruling.tricks or pos is None or not ruling.witnesses:
        return None
    w = ruling.witnesses[0]
    side = Side(w.side)
    other = Side.EW if side is Side.NS else Side.NS
    left = sum(len(h) for h in pos.hands.values()) // 4 + (1 if pos.trick else 0)
    tricks = {side.value: pos.won[side] + w.tricks, other.value: pos.won[other] + left - w.tricks}
    out: dict[str, Any] = {"tricks": {"NS": tricks["NS"], "EW": tricks["EW"]}, "score": None, "score_for": None}
    b = case.board
    if b is not None and b.contract is not None and b.declarer is not None:
        d = b.declarer.side
        out.update(score=score(b.contract, tricks[d.value], b.is_vulnerable(d)), score_for=d.value)
    return out
