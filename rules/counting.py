"""How the rules ask for trick counts: the play-core seam, models, and board totals.

The rules never talk to endplay: they build a normal-play model (engine.play.model, which has
no solver in it) and ask ``ctx.play`` — the seam the engine passes in — for a count.
"""

from __future__ import annotations

from typing import Any, Literal

from claimlaw.engine.play.model import GUIDELINES, NormalPlayModel  # no solver inside: the rules may build models
from claimlaw.engine.readers.facts_in import stated_line
from claimlaw.engine.readers.statement import parse_statement
from claimlaw.facts import Seat, Side
from claimlaw.rules.common import Ctx

Question = Literal["dd", "likely", "normal", "cannot_lose"]


def board_totals(board: dict[str, Any], side: str, claimed: int) -> dict[str, int] | None:
    """Total tricks of the board per side when ``side`` takes ``claimed`` of the remaining tricks."""
    if board.get("remaining", -1) < 0 or claimed < 0:
        return None
    other = "EW" if side == "NS" else "NS"
    remaining = board["remaining"]
    return {side: board[f"won_{side}"] + claimed, other: board[f"won_{other}"] + remaining - claimed}


def need_count(ctx: Ctx, why: str) -> None:
    """Say plainly that a count is needed and cannot be had, instead of guessing."""
    if ctx.position is None:
        ctx.conclude(next_step=f"{why}; the case gives no cards, so the Director must take the deal or a "
                               "claim diagram to count it.")
        ctx.note(f"{why}: no cards in the case, so no trick count was made.")
    else:
        ctx.conclude(outcome="needs_play_core", next_step=f"{why}; no play core is attached.")


RERUN = ("Rerun with a larger --budget, or with none: by default the search goes on until every count is "
         "proven.")


def proven(ctx: Ctx, *counts: Any) -> bool:
    """Were these counts, and every count the rules asked for before them, settled by their search? A search
    stopped by its budget or by the user is a doubtful point, and 70A resolves those against the claimer."""
    for c in counts:
        if c is not None and not (getattr(c, "exact", True) and getattr(c, "settled", True)):
            return False
    return ctx.play is None or bool(ctx.play.proven)


def claimer_seat(ctx: Ctx, side: str) -> Seat:
    case = ctx.case
    if case is not None and case.claim.by.side.value == side:
        return case.claim.by
    return Side.parse(side).seats[0]


def stated_line_for(ctx: Ctx, side: str) -> Any:
    """The line ``side`` stated with its claim or concession (structured, else read from the words), as the
    play core can follow it; None when ``side`` did not claim or concede or stated no line.

    The stated line governs every count of the claimer's side (70D1, 69B, 71: issue 26 item 5). A step
    that applies only under a condition ("if trumps are 3-1 ...") is passed on with it: the play core holds
    the claimer to it once he sees the condition hold (engine/play/search.py ``condition_seen``).
    """
    case = ctx.case
    if case is None or case.claim.by.side.value != side:
        return None
    # words added before the first objection are part of the clarification (70D1: the rule asserts the fact)
    added = bool(case.claim.added_statement.strip() and ctx.facts("clarification_added"))
    line, _ = stated_line(case, added=added)
    if case.claim.says == "concede" and case.claim.statement.strip():
        # 68C names the unread words of a claim; a concession's are named here, where its line is used
        unread = parse_statement(case.claim.statement, trump=case.board.trump if case.board else None,
                                 claimer=case.claim.by).unparsed
        if unread:
            ctx.note(f"words of the concession's statement claimlaw could not read as a line: {'; '.join(unread)}")
    if line is None or not line.steps:
        return None
    return line


def base_model(ctx: Ctx, side: str, question: Question) -> Any:
    """The model a question starts from: best play only, or the default normal lines, with the stated line."""
    seat = claimer_seat(ctx, side)
    if question in ("dd", "likely"):
        model = NormalPlayModel.dd_only(seat)
    else:
        model = NormalPlayModel.default(seat)
    case = ctx.case
    if case is not None and case.role_of(seat) == "defender":
        model = model.as_defender(case.board.dummy if case.board else None)
    if question in ("likely", "normal"):
        line = stated_line_for(ctx, side)
        if line is not None:
            model = model.with_line(line)
    return model


def side_count(ctx: Ctx, side: str, question: Question, model: Any = None) -> Any:
    """Ask the play core; None when there is no position or no core."""
    play = ctx.play
    pos = ctx.position
    if play is None or pos is None:
        return None
    s = Side.parse(side)
    if question == "dd":
        return play.double_dummy(pos, s)
    if question == "cannot_lose":
        return play.cannot_lose(pos, s)
    return play.worst_normal(pos, s, model if model is not None else base_model(ctx, side, question))


def model_from_switches(ctx: Ctx, side: str, *, exclude: tuple[str, ...] = (),
                        extra: list[dict[str, Any]] | None = None) -> Any:
    """The claimer's normal-play model: best play, plus every licence a fired rule switched on.

    Starts from best play only (no licences); each ``switch`` fact asserted by a clause or
    guideline rule adds its licence, so neutralising a rule withdraws its licence. Returns None
    when there are no cards to play.
    """
    if ctx.position is None:
        return None
    case = ctx.case
    seat = claimer_seat(ctx, side)
    model = NormalPlayModel.dd_only(seat)
    if case is not None and case.role_of(seat) == "defender":
        model = model.as_defender(case.board.dummy if case.board else None)
    switches = [s for s in ctx.facts("switch") if s["name"] not in exclude] + list(extra or [])
    on: dict[str, bool] = {}
    unaware: list[str] = []
    cls: str | None = None
    for s in switches:
        name, value = s["name"], s.get("value")
        if name == "line":
            line = stated_line_for(ctx, case.claim.by.side.value) if case is not None else None
            if line is not None:
                model = model.with_line(line)
        elif name == "played_after_claim":
            if case is not None and case.responses.play_after_claim:
                model = model.with_played_after_claim([c for t in case.responses.play_after_claim for c in t])
        elif name == "guess_order":
            model = model.with_guess_order(value)
        elif name == "class_of_player":
            cls = value
        elif name in ("unaware_trump", "unaware_winner"):
            unaware.extend(value if isinstance(value, list) else [])
            on[name] = True
        else:
            on[name] = bool(value)
    if case is not None and ctx.position is not None:
        remaining = ctx.position.tricks_left
        claimed = next((f["claimed"] for f in ctx.facts("adjudicate")), None)
        if claimed is not None and claimed >= 0:
            model = model.with_concedes(remaining - claimed if case.claim.says == "claim" else claimed)
    if cls is not None:  # before the switches: a licence not normal for his class is then never in force
        model = model.with_class(cls)
    if on:
        model = model.with_switches(**{k: v for k, v in on.items() if k in GUIDELINES})
    if unaware:
        model = model.with_unaware(unaware)
    return model
