"""ACBL: the 1992 'Tech Files' claim guidelines (Directions, July/October 1992), the older variant."""

from __future__ import annotations

from dataclasses import replace

from claimlaw.rules.packs.acbl import PACK as ACBL_2019

SOURCE = "ACBL Tech Files, Directions July/October 1992"

PACK = replace(
    ACBL_2019,
    name="acbl1992",
    title="ACBL 1992 claim guidelines (older variant)",
    source=SOURCE,
    params={**ACBL_2019.params, "high_trump_safety_check_normal": True},  # 1992 C: a normal play
    cites={**ACBL_2019.cites, "high_trump_safety_check_normal": f"{SOURCE} C"},
    overrides=["acbl"],  # the older variant of the same guidelines: it may stand in for them
)
