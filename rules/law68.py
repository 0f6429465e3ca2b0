"""Law 68 — claim or concession of tricks: what counts as one, and what happens to play.

Each rule sits under its clause, in the law's order. Edition variants of a clause sit side by
side with the 2017 rule they replace. Reasons are our paraphrase, not the law's text.
"""

from __future__ import annotations

from typing import Any

from claimlaw.engine.readers.statement import parse_statement
from claimlaw.rules.common import ALL, E1997, E2007, E2017, SINCE_2007, Ctx, Facts, claimer_text
from claimlaw.rules.rulebook import Rule, fact, ge, gt, no

# ---------------------------------------------------------------------------------------
# Law 68, preamble — only tricks other than the one in progress (2007, 2017; absent in 1997)
# ---------------------------------------------------------------------------------------


def _trick_in_progress(ctx: Ctx, m: Facts) -> None:
    c = m["claim"]
    ctx.assert_fact("voided", by="68.preamble")
    ctx.conclude(
        outcome="not_a_claim",
        summary=f"{claimer_text(c)} spoke only of the trick in progress: that is neither a claim nor a concession.",
        next_step="Play proceeds regularly. Cards a defender exposed are not penalty cards; "
                  "Laws 16 and 57A may apply.",
    )


PREAMBLE = Rule(
    name="68.preamble.trick_in_progress",
    clause="68.preamble",
    editions=SINCE_2007,
    reason="A statement about the current trick only is not a claim or concession; play proceeds.",
    when=(fact("claim", current_trick_only=True),),
    then=_trick_in_progress,
    priority=-20,
)

# ---------------------------------------------------------------------------------------
# Law 68A — claim defined
# ---------------------------------------------------------------------------------------


def _law54_faced(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("voided", by="68A.law54")
    ctx.conclude(
        outcome="not_a_claim",
        summary="Declarer faced his cards after an opening lead out of turn: that is not a claim.",
        next_step="Law 54 (opening lead out of turn) applies, not Law 68.",
    )


LAW54_EXCEPTION = Rule(
    name="68A.lead_out_of_turn_faced",
    clause="68A",
    editions=SINCE_2007,
    reason="Declarer facing his hand after an opening lead out of turn falls under Law 54, not 68.",
    when=(fact("claim", after_lead_out_of_turn=True, shows_cards=True, role="declarer"),),
    then=_law54_faced,
    priority=-20,
    overrides=("68A.claim",),
)


def _not_intended(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("voided", by="68A.not_intended")
    ctx.conclude(
        outcome="not_a_claim",
        summary="The Director finds the player demonstrably did not intend to claim.",
        next_step="Play proceeds; cards shown may be dealt with under the laws on exposed cards.",
    )


NOT_INTENDED = Rule(
    name="68A.not_intended",
    clause="68A",
    editions=ALL,
    reason="Showing cards is no claim when the player demonstrably did not mean to claim.",
    when=(fact("claim", not_intended=True),),
    then=_not_intended,
    priority=-20,
    overrides=("68A.claim",),
)


def _claim(ctx: Ctx, m: Facts) -> None:
    c = m["claim"]
    how = [w for w, on in (("stated a number of tricks", True), ("suggested curtailing play", c["suggests_curtailing"]),
                           ("showed his cards", c["shows_cards"])) if on]
    ctx.assert_fact("claim_made", by=c["by"], side=c["side"], claimed=c["claimed_for_side"])
    ctx.assert_fact("claim_or_concession", side=c["side"], claimed=c["claimed_for_side"])
    n = c["claimed_for_side"]
    ctx.conclude(summary=f"{claimer_text(c)} claimed{' ' + _tricks(n) if n >= 0 else ''} ({', '.join(how)}).")


def _tricks(n: int) -> str:
    return f"{n} trick{'s' if n != 1 else ''}"


CLAIM = Rule(
    name="68A.claim",
    clause="68A",
    editions=SINCE_2007,
    reason="Saying the side will win a number of tricks, suggesting play stop, or showing the cards is a claim.",
    when=(fact("claim", says="claim", current_trick_only=False), no("voided")),
    then=_claim,
)

CLAIM_1997 = Rule(
    name="68A.claim.1997",
    clause="68A",
    editions=(E1997,),
    reason="1997: a contestant's statement of tricks to win, suggestion to stop, or showing his cards is a claim "
           "(no trick-in-progress preamble, no Law 54 example).",
    when=(fact("claim", says="claim"), no("voided")),
    then=_claim,
    text_verified=False,
)

# ---------------------------------------------------------------------------------------
# Law 68B — concession defined
# ---------------------------------------------------------------------------------------


def _concession(ctx: Ctx, m: Facts) -> None:
    c = m["claim"]
    lost = c["tricks"] if c["tricks"] >= 0 else c["remaining"]
    ctx.assert_fact("concession_made", by=c["by"], side=c["side"], claimed=c["claimed_for_side"], conceded=lost,
                    implied=False)
    ctx.assert_fact("claim_or_concession", side=c["side"], claimed=c["claimed_for_side"])
    if lost >= 0:
        ctx.conclude(summary=f"{claimer_text(c)} conceded {_tricks(lost)}.")
    else:
        ctx.conclude(summary=f"{claimer_text(c)} conceded.")


CONCESSION = Rule(
    name="68B1.concession",
    clause="68B1",
    editions=SINCE_2007,
    reason="Saying the side will lose a number of tricks concedes them.",
    when=(fact("claim", says="concede", current_trick_only=False, abandons_hand=False), no("voided")),
    then=_concession,
)

CONCESSION_1997 = Rule(
    name="68B1.concession.1997",
    clause="68B",
    editions=(E1997,),
    reason="1997: a contestant's statement of tricks to lose concedes them.",
    when=(fact("claim", says="concede", abandons_hand=False), no("voided")),
    then=_concession,
    text_verified=False,
)


def _remainder(ctx: Ctx, m: Facts) -> None:
    c, made = m["claim"], m["made"]
    rest = c["remaining"] - made["claimed"]
    if rest <= 0:
        return
    ctx.assert_fact("concession_made", by=c["by"], side=c["side"], claimed=made["claimed"], conceded=rest,
                    implied=True)


CLAIM_CONCEDES_REST = Rule(
    name="68B1.claim_concedes_rest",
    clause="68B1",
    editions=ALL,
    reason="A claim of some of the tricks concedes the rest.",
    when=(fact("claim", alias="claim", remaining=gt(0)), fact("claim_made", alias="made", claimed=ge(0))),
    then=_remainder,
)


def _abandons(ctx: Ctx, m: Facts) -> None:
    c = m["claim"]
    ctx.assert_fact("concession_made", by=c["by"], side=c["side"], claimed=0, conceded=c["remaining"],
                    implied=False)
    ctx.assert_fact("claim_or_concession", side=c["side"], claimed=0)
    ctx.conclude(summary=f"{claimer_text(c)} abandoned his hand: he conceded all the remaining tricks.")


ABANDONS = Rule(
    name="68B1.abandons_hand",
    clause="68B1",
    editions=ALL,
    reason="A player who abandons his hand concedes every remaining trick.",
    when=(fact("claim", abandons_hand=True, current_trick_only=False), no("voided")),
    then=_abandons,
)


def _partner_objects(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("voided", by="68B2")
    edition = ctx.edition
    info_law = "16C" if edition == E2017 else "16D"
    what = "neither a concession nor a claim" if edition == E2017 else "no concession"
    ctx.conclude(
        outcome="no_concession",
        summary=f"A defender's partner objected at once to his concession: there is {what}.",
        next_step=f"Summon the Director (unauthorised information may exist). Play continues; cards the defender "
                  f"exposed are not penalty cards, but Law {info_law} governs the information from them, which "
                  f"partner may not use.",
    )


PARTNER_OBJECTS = Rule(
    name="68B2.partner_objects",
    clause="68B2",
    editions=(E2017,),
    reason="A defender's concession that partner objects to at once is neither a concession nor a claim; play goes on.",
    when=(fact("claim", role="defender", partner_objected=True, current_trick_only=False),),
    then=_partner_objects,
    priority=-20,
    overrides=("68A.claim", "68B1.concession", "68D.suspended"),
)

PARTNER_OBJECTS_2007 = Rule(
    name="68B2.partner_objects.2007",
    clause="68B2",
    editions=(E2007,),
    reason="2007: a defender's concession that partner objects to at once is no concession; play goes on (16D).",
    when=(fact("claim", role="defender", partner_objected=True, current_trick_only=False),),
    then=_partner_objects,
    priority=-20,
    overrides=("68A.claim", "68B1.concession", "68D.ceases"),
)

PARTNER_OBJECTS_1997 = Rule(
    name="68B.partner_objects.1997",
    clause="68B",
    editions=(E1997,),
    reason="1997: a defender's concession that partner objects to at once is no concession.",
    when=(fact("claim", role="defender", partner_objected=True),),
    then=_partner_objects,
    priority=-20,
    overrides=("68A.claim.1997", "68B1.concession.1997", "68D.ceases.1997"),
    text_verified=False,
)

# ---------------------------------------------------------------------------------------
# Law 68C — clarification required
# ---------------------------------------------------------------------------------------


def _clarification(ctx: Ctx, m: Facts) -> None:
    c = m["claim"]
    case = ctx.case
    if case is not None and case.claim.statement.strip():
        board = case.board
        parsed = parse_statement(case.claim.statement, trump=board.trump if board else None, claimer=case.claim.by)
        ctx.record(parsed=parsed.describe())
        if parsed.unparsed:
            ctx.note(f"68C: words of the statement claimlaw could not read as a line: {'; '.join(parsed.unparsed)}")
    if c["has_statement"]:
        ctx.record(statement=c["statement"] or "(structured line only)")
        if ctx.edition == E2017:
            ctx.note("68C: the claimer faces his hand.")
    else:
        ctx.record(statement="(none)")
        ctx.note("68C: the claim came with no clarification statement; the Director treats every unstated "
                 "choice against the claimer (70D1, 70E1).")


CLARIFICATION = Rule(
    name="68C.clarification",
    clause="68C",
    editions=ALL,
    reason="A claim should come at once with a clear statement of the line, including the order of play.",
    when=(fact("claim_made", alias="made"), fact("claim", alias="claim")),
    then=_clarification,
)

# ---------------------------------------------------------------------------------------
# Law 68D — play suspended (2017) / ceases (2007) / ceases and is voided (1997)
# ---------------------------------------------------------------------------------------


def _suspend(what: str) -> Any:
    def act(ctx: Ctx, m: Facts) -> None:
        made = m["made"]
        ctx.assert_fact("suspended", side=made["side"], claimed=made["claimed"])
        ctx.conclude(next_step=f"Play is {what} while the claim or concession is considered.")
    return act


SUSPENDED = Rule(
    name="68D.suspended",
    clause="68D",
    editions=(E2017,),
    reason="After any claim or concession play is suspended.",
    when=(fact("claim_or_concession", alias="made"),),
    then=_suspend("suspended"),
)


CEASES_2007 = Rule(
    name="68D.ceases",
    clause="68D",
    editions=(E2007,),
    reason="2007: after any claim or concession play ceases (any later play may be evidence under 70D3).",
    when=(fact("claim_or_concession", alias="made"),),
    then=_suspend("over (it ceases)"),
)



def _void_play(ctx: Ctx, m: Facts) -> None:
    _suspend("over (it ceases)")(ctx, m)
    ctx.assert_fact("play_voided")
    ctx.note("1997 68D: any play after the claim or concession is voided by the Director.")


CEASES_1997 = Rule(
    name="68D.ceases.1997",
    clause="68D",
    editions=(E1997,),
    reason="1997: after any claim or concession play ceases, and any later play is voided.",
    when=(fact("claim_or_concession", alias="made"),),
    then=_void_play,
    text_verified=False,
)


# 68D1 — agreed: Law 69 applies.


def _agreed(ctx: Ctx, m: Facts) -> None:
    t = m["table"]
    s = m["suspended"]
    how = f"assented by {', '.join(t['assenters'])}" if t["assented"] else "no player objected"
    ctx.assert_fact("agreed", side=s["side"], claimed=s["claimed"], explicit=t["assented"])
    ctx.conclude(summary=f"The claim or concession was agreed ({how}).")
    ctx.record(assenters=t["assenters"])


AGREED = Rule(
    name="68D1.agreed",
    clause="68D1",
    editions=ALL,
    reason="A claim or concession nobody doubts is agreed, and Law 69 applies.",
    when=(fact("suspended", alias="suspended"), fact("table", alias="table", doubted=False)),
    then=_agreed,
)

# 68D2 — doubted by any player, dummy included.


def _doubted(ctx: Ctx, m: Facts) -> None:
    t = m["table"]
    s = m["suspended"]
    ctx.assert_fact("doubted", side=s["side"], claimed=s["claimed"], by=t["disputers"])
    ctx.record(disputers=t["disputers"])


DOUBTED = Rule(
    name="68D2.doubted",
    clause="68D2",
    editions=ALL,
    reason="A claim or concession doubted by any player, dummy included, is not agreed.",
    when=(fact("suspended", alias="suspended"), fact("table", alias="table", doubted=True)),
    then=_doubted,
)


def _play_on(ctx: Ctx, m: Facts) -> None:
    p = m["play_on"]
    ctx.assert_fact("play_on_agreed", requested_by=p["requested_by"])
    ctx.conclude(
        outcome="play_on_score_stands",
        summary=f"At the request of {p['requested_by']} (non-claiming side) all four players agreed to play on: "
                f"the claim is void and is not adjudicated.",
        next_step="The score obtained in the play stands.",
    )


PLAY_ON = Rule(
    name="68D2b.play_on",
    clause="68D2(b)",
    editions=(E2017,),
    reason="At the non-claimers' request, with all four agreeing, play continues; the claim is void and the result "
           "stands.",
    when=(fact("doubted", alias="doubted"),
          fact("play_on", alias="play_on", requested=True, by_non_claiming_side=True, all_concurred=True)),
    then=_play_on,
    priority=-10,
    overrides=("68D2a.director",),
    text_verified=False,
)


def _play_on_refused(ctx: Ctx, m: Facts) -> None:
    p = m["play_on"]
    why = ("the claiming side asked for it" if not p["by_non_claiming_side"] else "not all four players agreed")
    ctx.note(f"68D2(b)(i): play on was not valid ({why}); the Director adjudicates, and any play after the claim "
             "is evidence of the players' probable plays.")
    ctx.assert_fact("play_evidence", cards=p["cards_played"])


PLAY_ON_NOT_VALID = Rule(
    name="68D2b.play_on_not_valid",
    clause="68D2(b)",
    editions=(E2017,),
    reason="Play on needs the non-claimers' request and all four players' agreement; otherwise the Director rules.",
    when=(fact("doubted", alias="doubted"), fact("play_on", alias="play_on", requested=True), no("play_on_agreed")),
    then=_play_on_refused,
    text_verified=False,
)


def _director(ctx: Ctx, m: Facts) -> None:
    d = m["doubted"]
    ctx.assert_fact("contested", side=d["side"], claimed=d["claimed"])
    ctx.conclude(
        outcome="director_rules",
        summary=f"The claim or concession was doubted by {', '.join(d['by']) or 'a player'}; the Director "
                f"is summoned and adjudicates under Law 70.",
        next_step="No action is taken until the Director arrives.",
    )


DIRECTOR = Rule(
    name="68D2a.director",
    clause="68D2(a)",
    editions=(E2017,),
    reason="A doubted claim or concession goes to the Director, who rules under Law 70.",
    when=(fact("doubted", alias="doubted"), no("play_on_agreed")),
    then=_director,
    text_verified=False,
)

DIRECTOR_2007 = Rule(
    name="68D.director",
    clause="68D",
    editions=(E2007, E1997),
    reason="2007/1997: a doubted claim or concession goes to the Director, who rules under Law 70.",
    when=(fact("doubted", alias="doubted"),),
    then=_director,
)

RULES: list[Rule] = [
    PREAMBLE,
    LAW54_EXCEPTION, NOT_INTENDED, CLAIM, CLAIM_1997,
    CONCESSION, CONCESSION_1997, CLAIM_CONCEDES_REST, ABANDONS,
    PARTNER_OBJECTS, PARTNER_OBJECTS_2007, PARTNER_OBJECTS_1997,
    CLARIFICATION,
    SUSPENDED, CEASES_2007, CEASES_1997,
    AGREED, DOUBTED, PLAY_ON, PLAY_ON_NOT_VALID, DIRECTOR, DIRECTOR_2007,
]

__all__ = ["RULES"]
