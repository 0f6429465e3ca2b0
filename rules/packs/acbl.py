"""ACBL: the Laws Commission's 2019 guidelines for adjudicating claims."""

from __future__ import annotations

from claimlaw.rules.normal_play import guideline
from claimlaw.rules.rulebook import Pack

SOURCE = "ACBL Laws Commission, Spring 2019: Guidelines for Adjudicating Claims"

ANY_SUIT_ORDER = guideline(
    "any_suit_order", "any_suit_order",
    "Non-trump suits are played in the order worst for the claimer, each from the top down.",
    f"{SOURCE} #1",
)

RUFF_LOW = guideline(
    "ruff_low", "ruff_low",
    "When ruffing, the claimer is presumed to ruff as low as possible.",
    f"{SOURCE} #5",
)

PACK = Pack(
    name="acbl",
    title="ACBL Laws Commission 2019 claim guidelines",
    source=SOURCE,
    replace={"guideline.any_suit_order": ANY_SUIT_ORDER, "guideline.ruff_low": RUFF_LOW},
    params={
        "high_trump_safety_check_normal": False,   # 2019 #3: not a normal play
        "weighted_scores": False,
    },
    cites={
        "high_trump_safety_check_normal": f"{SOURCE} #3",
        "weighted_scores": SOURCE,
    },
)
