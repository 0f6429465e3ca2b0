"""Law 69 — agreed claim or concession: when agreement is established, and its withdrawal."""

from __future__ import annotations

from claimlaw.rules.common import ALL, E1997, SIDE_NAMES, SINCE_2007, Ctx, Facts, tricks_text
from claimlaw.rules.counting import RERUN, board_totals, need_count, proven, side_count
from claimlaw.rules.rulebook import Rule, fact, gt, no, one_of

LATE = ("after_next_call", "after_round_end")
IN_TIME = ("at_once", "before_next_call")

# ---------------------------------------------------------------------------------------
# Law 69A — agreement established
# ---------------------------------------------------------------------------------------


def _established(ctx: Ctx, m: Facts) -> None:
    a, b = m["agreed"], m["board"]
    ctx.assert_fact("established", side=a["side"], claimed=a["claimed"])
    totals = board_totals(b, a["side"], a["claimed"])
    ctx.conclude(outcome="agreed", tricks=totals,
                 next_step="The board is scored as though the tricks claimed or conceded had been won or lost in play.")


ESTABLISHED = Rule(
    name="69A.established",
    clause="69A",
    editions=SINCE_2007,
    reason="Agreement stands once the side assents and does not object before its next call or the round's end.",
    when=(fact("agreed", alias="agreed"), fact("board", alias="board"), no("doubted")),
    then=_established,
    priority=5,
)

ESTABLISHED_1997 = Rule(
    name="69A.acquiesced.1997",
    clause="69A",
    editions=(E1997,),
    reason="1997: acquiescence stands unless the side objects before its next call or the round's end.",
    when=(fact("agreed", alias="agreed"), fact("board", alias="board"), no("doubted")),
    then=_established,
    priority=5,
    text_verified=False,
)


def _objected_in_time(ctx: Ctx, m: Facts) -> None:
    a, t = m["agreed"], m["table"]
    ctx.assert_fact("doubted", side=a["side"], claimed=a["claimed"], by=[t["objection_by"]])
    ctx.conclude(summary=f"{t['objection_by']} objected before his side's next call: agreement was never established.")


OBJECTED_IN_TIME = Rule(
    name="69A.objection_in_time",
    clause="69A",
    editions=ALL,
    reason="An objection before the side's next call on a later board, or before the round ends, prevents agreement.",
    when=(fact("agreed", alias="agreed"),
          fact("table", alias="table", objection=one_of(*IN_TIME), objector_is_claimer_side=False)),
    then=_objected_in_time,
)

# ---------------------------------------------------------------------------------------
# Law 69B — agreement withdrawn within the correction period
# ---------------------------------------------------------------------------------------


def _withdrawal(ctx: Ctx, m: Facts) -> None:
    e, t = m["established"], m["table"]
    ctx.assert_fact("withdrawal", side=t["objector_side"], claimer_side=e["side"], claimed=e["claimed"])
    ctx.conclude(summary=f"{SIDE_NAMES.get(t['objector_side'])} withdrew its agreement within the correction period.")


WITHDRAWAL = Rule(
    name="69B.withdrawal",
    clause="69B",
    editions=ALL,
    reason="A side may withdraw its agreement within the correction period for the reasons in 69B1 and 69B2.",
    when=(fact("established", alias="established"),
          fact("table", alias="table", objection=one_of(*LATE), objector_is_claimer_side=False),
          fact("correction_period", alias="period", within="yes")),
    then=_withdrawal,
)


def _too_late(ctx: Ctx, m: Facts) -> None:
    t = m["table"]
    ctx.conclude(summary=f"{t['objection_by']} objected after the correction period had expired: the agreement "
                         "stands (79C).")


TOO_LATE = Rule(
    name="69B.too_late",
    clause="69B",
    editions=ALL,
    reason="Outside the correction period an established agreement can no longer be withdrawn.",
    when=(fact("established", alias="established"),
          fact("table", alias="table", objection=one_of(*LATE), objector_is_claimer_side=False),
          fact("correction_period", alias="period", within="no")),
    then=_too_late,
)


def _in_fact_won(ctx: Ctx, m: Facts) -> None:
    w, f, b = m["withdrawal"], m["findings"], m["board"]
    back = f["conceded_won_tricks"]
    claimed = max(0, w["claimed"] - back)
    ctx.assert_fact("restored", law="69B1", tricks=back)
    ctx.conclude(outcome="agreement_withdrawn", tricks=board_totals(b, w["claimer_side"], claimed),
                 summary=f"The side agreed to lose {tricks_text(back)} it had in fact won: they are given back.",
                 next_step="The board is rescored with the trick(s) awarded to the side that withdrew.")


IN_FACT_WON = Rule(
    name="69B1.trick_in_fact_won",
    clause="69B1",
    editions=ALL,
    reason="Agreement to lose a trick the side had actually won may be withdrawn; the trick goes back.",
    when=(fact("withdrawal", alias="withdrawal"), fact("findings", alias="findings", conceded_won_tricks=gt(0)),
          fact("board", alias="board")),
    then=_in_fact_won,
    priority=-5,
)


def _unproven(ctx: Ctx, found: int) -> None:
    ctx.record(proven=False, found=found)
    ctx.conclude(outcome="count_unproven", tricks=None,
                 summary="Law 69B cannot be applied yet: the search stopped before it settled the count the "
                         "withdrawal turns on.", next_step=RERUN)


def _likely(ctx: Ctx, m: Facts) -> None:
    w, f, b = m["withdrawal"], m["findings"], m["board"]
    remaining = b["remaining"]
    if f["would_likely_have_won"] >= 0:
        likely = f["would_likely_have_won"]
        ctx.record(standard="the Director's finding", would_likely_have_won=likely)
        claimer_tricks = remaining - likely
    else:
        count = side_count(ctx, w["claimer_side"], "likely")
        if count is None:
            need_count(ctx, "69B2 needs the tricks the claimer's side takes if play had continued")
            return
        if not proven(ctx, count):
            _unproven(ctx, count.tricks)
            return
        claimer_tricks = count.tricks
        ctx.record(standard="claimer follows his statement and otherwise plays best; defenders play best",
                   claimer_side_would_take=claimer_tricks)
    back = w["claimed"] - claimer_tricks
    if back <= 0:
        ctx.conclude(outcome="agreed", tricks=board_totals(b, w["claimer_side"], w["claimed"]),
                     summary="The side that withdrew would not likely have won any more tricks had play continued: "
                             "the agreed result stands.")
        return
    ctx.assert_fact("restored", law="69B2", tricks=back)
    ctx.conclude(outcome="agreement_withdrawn", tricks=board_totals(b, w["claimer_side"], claimer_tricks),
                 summary=f"The side that withdrew would likely have won {tricks_text(back)} more had play continued.",
                 next_step="The board is rescored with the trick(s) awarded to the side that withdrew.")


LIKELY_WON = Rule(
    name="69B2.would_likely_have_won",
    clause="69B2",
    editions=SINCE_2007,
    reason="Agreement may be withdrawn for a trick the side would likely have won had play gone on.",
    when=(fact("withdrawal", alias="withdrawal"), fact("findings", alias="findings"), fact("board", alias="board"),
          no("restored")),
    then=_likely,
)


def _normal_1997(ctx: Ctx, m: Facts) -> None:
    w, b = m["withdrawal"], m["board"]
    count = side_count(ctx, w["side"], "normal")
    if count is None:
        need_count(ctx, "1997 69B needs the tricks the withdrawing side could not lose by normal play")
        return
    if not proven(ctx, count):
        _unproven(ctx, count.tricks)
        return
    claimer_tricks = b["remaining"] - count.tricks
    back = w["claimed"] - claimer_tricks
    if back <= 0:
        ctx.conclude(outcome="agreed", tricks=board_totals(b, w["claimer_side"], w["claimed"]),
                     summary="Every trick the side agreed to lose could be lost by normal play: the result stands.")
        return
    ctx.conclude(outcome="agreement_withdrawn", tricks=board_totals(b, w["claimer_side"], claimer_tricks),
                 summary=f"The side agreed to lose {tricks_text(back)} it could not have lost by normal play.")


NORMAL_1997 = Rule(
    name="69B.normal.1997",
    clause="69B",
    editions=(E1997,),
    reason="1997 (reconstructed): acquiescence may be withdrawn for a trick that could not be lost by normal play.",
    when=(fact("withdrawal", alias="withdrawal"), fact("board", alias="board"), no("restored")),
    then=_normal_1997,
    text_verified=False,
)

RULES: list[Rule] = [ESTABLISHED, ESTABLISHED_1997, OBJECTED_IN_TIME, WITHDRAWAL, TOO_LATE, IN_FACT_WON, LIKELY_WON,
                     NORMAL_1997]
