"""Small rule sets for the engine tests (not the Laws: the engine must not depend on them)."""

from __future__ import annotations

from typing import Any

from claimlaw.rules.rulebook import Ctx, Pack, Rule, fact, gt, no, one_of

Facts = dict[str, dict[str, Any]]
ALL = ("2017", "2007", "1997")


def _claim_made(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("claim_made", side=m["claim"]["side"], tricks=m["claim"]["tricks"])
    ctx.conclude(outcome="claim", summary="a claim was made")


def _suspended(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("suspended", side=m["made"]["side"])
    ctx.conclude(next_step="play is suspended")


def _agreed(ctx: Ctx, m: Facts) -> None:
    ctx.conclude(outcome="agreed", tricks=m["made"]["tricks"], minutes=ctx.params["correction_minutes"])


def _current_trick(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("voided", by="preamble")
    ctx.conclude(outcome="not_a_claim")
    ctx.note("play proceeds")


def _old_claim(ctx: Ctx, m: Facts) -> None:
    ctx.conclude(outcome="claim_1997")


CLAIM = Rule(name="A.claim", clause="68A", editions=("2017", "2007"), reason="a statement of tricks is a claim",
             when=(fact("claim", says="claim", tricks=gt(0)), no("voided")), then=_claim_made)
CLAIM_1997 = Rule(name="A.claim.1997", clause="68A", editions=("1997",), reason="the 1997 wording",
                  when=(fact("claim", says="claim"),), then=_old_claim)
PREAMBLE = Rule(name="A.current_trick", clause="68.preamble", editions=ALL, reason="only the current trick",
                when=(fact("claim", current_trick_only=True),), then=_current_trick, priority=-20,
                overrides=("A.claim",))
SUSPENDED = Rule(name="D.suspended", clause="68D", editions=ALL, reason="play is suspended",
                 when=(fact("claim_made", alias="made"),), then=_suspended)
AGREED = Rule(name="69A.agreed", clause="69A", editions=ALL, reason="all agree",
              when=(fact("suspended"), fact("claim_made", alias="made"), fact("table", doubted=False)),
              then=_agreed, params={"correction_minutes": 30})
DOUBTED = Rule(name="D2.doubted", clause="68D2", editions=ALL, reason="someone doubts it",
               when=(fact("suspended"), fact("table", objection=one_of("at_once", "before_next_call"))),
               then=lambda ctx, m: ctx.conclude(outcome="director_rules"))

RULES = [PREAMBLE, CLAIM, CLAIM_1997, SUSPENDED, AGREED, DOUBTED]


def claim(**kw: Any) -> list[dict[str, Any]]:
    """The facts of a simple claim: a claim and the table's response."""
    c = {"kind": "claim", "says": "claim", "side": "NS", "tricks": 3, "current_trick_only": False}
    t = {"kind": "table", "doubted": False, "objection": "none"}
    for k, v in kw.items():
        (t if k in t else c)[k] = v
    return [c, t]


def _club_agreed(ctx: Ctx, m: Facts) -> None:
    ctx.conclude(outcome="agreed_by_club", minutes=ctx.params["correction_minutes"])


def _club_note(ctx: Ctx, m: Facts) -> None:
    ctx.note("club regulation 4 applies")


CLUB = Pack(
    name="club",
    title="A club's own regulations",
    source="Club handbook 2024",
    replace={"69A.agreed": Rule(name="club.agreed", clause="69A", editions=ALL, reason="the club's agreement rule",
                                when=AGREED.when, then=_club_agreed, source="Club handbook 2024, reg. 3")},
    neutralise=["D2.doubted"],
    add=[Rule(name="club.note", clause="68D", editions=ALL, reason="the club asks for a note",
              when=(fact("suspended"),), then=_club_note)],
    params={"correction_minutes": 20},
)
