"""WBF Laws Committee minutes on claims, as interpretations applied on top of the Laws."""

from __future__ import annotations

from claimlaw.rules.common import ALL, E1997, Ctx, Facts
from claimlaw.rules.rulebook import Pack, Rule, fact, gt


def _no_claim_either(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("voided", by="68B.wbflc")
    ctx.conclude(
        outcome="no_concession",
        summary="A defender's partner objected at once to his concession: there is no concession, and by the same "
                "token no claim (WBFLC 2001-10-28 #10).",
        next_step="Summon the Director; play continues and Law 16 may apply to the information from the attempt.",
    )


NO_CLAIM_EITHER_1997 = Rule(
    name="wbflc.2001-10-28.10",
    clause="68B",
    editions=(E1997,),
    reason="Under 1997 68B, a defender's concession partner objects to is no concession and no claim either.",
    when=(fact("claim", alias="claim", role="defender", partner_objected=True),),
    then=_no_claim_either,
    priority=-20,
    overrides=("68B.partner_objects.1997",),
    source="WBFLC minutes, Paris 2001-10-28 #10",
)


def _revoke_not_established(ctx: Ctx, m: Facts) -> None:
    ctx.note("WBFLC 2000-01-12 #3: a defender's revoke followed by a disputed claim is not established; the "
             "Director allows it to be corrected and adjudicates, any margin of doubt against the revoker.")


REVOKE = Rule(
    name="wbflc.2000-01-12.3",
    clause="70A",
    editions=ALL,
    reason="A revoke followed by a disputed claim is not established: correct it, doubt against the revoker.",
    when=(fact("adjudicate", alias="adj"), fact("board", alias="board", revokes=gt(0))),
    then=_revoke_not_established,
    source="WBFLC minutes, Bermuda 2000-01-12 #3",
)


def _no_weight(ctx: Ctx, m: Facts) -> None:
    ctx.note("WBFLC 2009-09-04 #9: Law 69B2 never leads to a weighted score.")


NO_WEIGHTING = Rule(
    name="wbflc.2009-09-04.9",
    clause="69B2",
    editions=ALL,
    reason="A 69B2 withdrawal moves whole tricks; it never gives a weighted score.",
    when=(fact("withdrawal", alias="withdrawal"),),
    then=_no_weight,
    source="WBFLC minutes 2009-09-04 #9",
)

PACK = Pack(
    name="wbflc",
    title="WBF Laws Committee minutes on claims",
    source="WBFLC minutes 1997-2009",
    add=[REVOKE, NO_WEIGHTING],
    replace={"68B.partner_objects.1997": NO_CLAIM_EITHER_1997},
)
