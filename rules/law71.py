"""Law 71 — concession cancelled within the correction period.

2017 prints the two cases as A/B (some renderings 1/2); 2007 numbered them 1/2. We use
71A/71B for 2017 and 71.1/71.2 for 2007; 1997 had A, B and a timing clause C (reconstructed).
"""

from __future__ import annotations

from claimlaw.rules.common import E1997, E2007, E2017, SIDE_NAMES, Ctx, Facts, tricks_text
from claimlaw.rules.counting import RERUN, board_totals, need_count, proven, side_count
from claimlaw.rules.rulebook import Rule, fact, gt, no, one_of

RAISED = ("at_once", "before_next_call", "after_next_call", "after_round_end")


def _review(ctx: Ctx, m: Facts) -> None:
    c, t = m["concession"], m["table"]
    ctx.assert_fact("cancel_review", side=c["side"], claimed=c["claimed"])
    ctx.conclude(summary=f"{SIDE_NAMES.get(c['side'])} asked, within the correction period, for its concession to "
                         "be cancelled.")
    ctx.record(raised_by=t["objection_by"])


def _review_rule(name: str, clause: str, editions: tuple[str, ...], verified: bool = True) -> Rule:
    return Rule(
        name=name,
        clause=clause,
        editions=editions,
        reason="A concession stands once made, except that within the correction period the Director cancels it "
               "for the tricks in 71A/71B.",
        when=(fact("concession_made", alias="concession"), fact("established", alias="established"),
              fact("table", alias="table", objection=one_of(*RAISED), objector_is_claimer_side=True),
              fact("correction_period", alias="period", within="yes")),
        then=_review,
        text_verified=verified,
    )


REVIEW = _review_rule("71.review", "71", (E2017, E2007))
REVIEW_1997 = _review_rule("71.review.1997", "71", (E1997,), verified=False)


def _stands(ctx: Ctx, m: Facts) -> None:
    ctx.conclude(summary="The conceding side raised its concession only after the correction period: it stands (79C).")


STANDS = Rule(
    name="71.too_late",
    clause="71",
    editions=(E2017, E2007, E1997),
    reason="After the correction period a concession stands.",
    when=(fact("concession_made", alias="concession"), fact("established", alias="established"),
          fact("table", alias="table", objection=one_of(*RAISED), objector_is_claimer_side=True),
          fact("correction_period", alias="period", within="no")),
    then=_stands,
)


def _in_fact_won(ctx: Ctx, m: Facts) -> None:
    r, f, b = m["review"], m["findings"], m["board"]
    back = f["conceded_won_tricks"]
    ctx.assert_fact("restored", law="71A", tricks=back)
    ctx.conclude(outcome="concession_cancelled", tricks=board_totals(b, r["side"], r["claimed"] + back),
                 summary=f"The side conceded {tricks_text(back)} it had in fact won: the concession is cancelled.",
                 next_step="The board is rescored with the trick(s) awarded to the conceding side.")


def _won_rule(name: str, clause: str, editions: tuple[str, ...], verified: bool = True) -> Rule:
    return Rule(
        name=name,
        clause=clause,
        editions=editions,
        reason="A conceded trick the side had actually won is given back.",
        when=(fact("cancel_review", alias="review"), fact("findings", alias="findings", conceded_won_tricks=gt(0)),
              fact("board", alias="board")),
        then=_in_fact_won,
        priority=-5,
        text_verified=verified,
    )


def _could_not_lose(ctx: Ctx, m: Facts) -> None:
    r, b = m["review"], m["board"]
    count = side_count(ctx, r["side"], "normal")
    if count is None:
        need_count(ctx, "Law 71 needs the tricks the conceding side could not lose by any normal play")
        return
    settled = proven(ctx, count)
    ctx.record(conceding_side_worst_normal=count.tricks, kept_by_concession=r["claimed"], proven=settled)
    if count.witness is not None:
        ctx.conclude(witnesses=[count.witness])
    if not settled:
        ctx.conclude(outcome="count_unproven", tricks=None,
                     summary="Law 71 cannot be applied yet: the search stopped before it could show which conceded "
                             f"tricks no normal play could lose (the worst normal line it found keeps "
                             f"{tricks_text(count.tricks)}).",
                     next_step=RERUN)
        return
    if count.tricks <= r["claimed"]:
        ctx.conclude(outcome="concession_stands", tricks=board_totals(b, r["side"], r["claimed"]),
                     summary=f"Every conceded trick could be lost by some normal play "
                             f"({count.witness.words if count.witness else ''}): the concession stands.")
        return
    back = count.tricks - r["claimed"]
    ctx.assert_fact("restored", law="71B", tricks=back)
    ctx.conclude(outcome="concession_cancelled", tricks=board_totals(b, r["side"], count.tricks),
                 summary=f"{tricks_text(back).capitalize()} conceded could not be lost by any normal play: the "
                         "concession is cancelled for them.",
                 next_step="The board is rescored with the trick(s) awarded to the conceding side.")


def _normal_rule(name: str, clause: str, editions: tuple[str, ...], verified: bool = True) -> Rule:
    return Rule(
        name=name,
        clause=clause,
        editions=editions,
        reason="A conceded trick that no normal play of the remaining cards could lose is given back.",
        when=(fact("cancel_review", alias="review"), fact("board", alias="board"), no("restored")),
        then=_could_not_lose,
        text_verified=verified,
    )


IN_FACT_WON = _won_rule("71A.trick_in_fact_won", "71A", (E2017,))
COULD_NOT_LOSE = _normal_rule("71B.could_not_lose", "71B", (E2017,))
IN_FACT_WON_2007 = _won_rule("71.1.trick_in_fact_won", "71.1", (E2007,))
COULD_NOT_LOSE_2007 = _normal_rule("71.2.could_not_lose", "71.2", (E2007,))
IN_FACT_WON_1997 = _won_rule("71A.trick_in_fact_won.1997", "71A", (E1997,), verified=False)
COULD_NOT_LOSE_1997 = _normal_rule("71B.could_not_lose.1997", "71B", (E1997,), verified=False)


def _implausible_1997(ctx: Ctx, m: Facts) -> None:
    ctx.note("1997 71C (reconstructed; WBFLC Hammamet 1997 #6): an implausible concession is cancelled at any time "
             "within the correction period, not only before the next board starts.")


TIMING_1997 = Rule(
    name="71C.timing.1997",
    clause="71C",
    editions=(E1997,),
    reason="1997: an implausible concession may be cancelled at any time within the correction period.",
    when=(fact("cancel_review", alias="review"),),
    then=_implausible_1997,
    source="Laws of Duplicate Bridge 1997; WBFLC minutes 1997-10-19 #6",
    text_verified=False,
)

RULES: list[Rule] = [REVIEW, REVIEW_1997, STANDS, IN_FACT_WON_2007, COULD_NOT_LOSE_2007, IN_FACT_WON, IN_FACT_WON_1997,
                     COULD_NOT_LOSE, COULD_NOT_LOSE_1997, TIMING_1997]
