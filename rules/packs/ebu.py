"""EBU (England): White Book guidance on claims, 8.68-8.70."""

from __future__ import annotations

from claimlaw.facts import CORRECTION_MINUTES
from claimlaw.rules.common import ALL, Ctx, Facts
from claimlaw.rules.normal_play import guideline
from claimlaw.rules.rulebook import Pack, Rule, fact, gt

SOURCE = "EBU White Book 2023"


def _revoke(ctx: Ctx, m: Facts) -> None:
    ctx.note("White Book 8.70.3: the non-claiming side revoked; the claim is assessed with any doubt going against "
             "the revoking side, and a revoke the non-claimers dispute is not established by the claim.")


REVOKE = Rule(
    name="ebu.8.70.3.revoke",
    clause="70A",
    editions=ALL,
    reason="When the non-claimers have revoked, doubt in the claim assessment goes against the revoking side.",
    when=(fact("adjudicate", alias="adj"), fact("board", alias="board", revokes=gt(0))),
    then=_revoke,
    source=f"{SOURCE} 8.70.3",
)


def _no_weight(ctx: Ctx, m: Facts) -> None:
    ctx.note("White Book 8.69.2 (WBFLC 2009-09-04 #9): a 69B2 withdrawal transfers whole tricks or none; never a "
             "weighted score.")


NO_WEIGHTING = Rule(
    name="ebu.8.69.2.no_weighting",
    clause="69B2",
    editions=ALL,
    reason="A trick withdrawn under 69B2 is transferred or not; the result is never weighted.",
    when=(fact("withdrawal", alias="withdrawal"),),
    then=_no_weight,
    source=f"{SOURCE} 8.69.2",
)

TOP_DOWN = guideline(
    "top_down", "top_down",
    "A declarer who says he is cashing a suit is taken to cash it from the top, above all with solidity; several "
    "small cards in any order.",
    f"{SOURCE} 8.70.5",
)

PACK = Pack(
    name="ebu",
    title="English Bridge Union: White Book guidance on claims",
    source=f"{SOURCE} 8.68.1-2, 8.69.2, 8.70.1-8.70.8",
    add=[REVOKE, NO_WEIGHTING],
    replace={"guideline.top_down": TOP_DOWN},
    params={"correction_minutes": CORRECTION_MINUTES, "weighted_scores": False},
    cites={"correction_minutes": f"{SOURCE} (Law 79C's {CORRECTION_MINUTES:g} minutes, unless the conditions of "
                                 "contest say otherwise)",
           "weighted_scores": f"{SOURCE} 8.70.1"},
)
