"""Shared vocabulary of the rule modules: editions, the action signature, wording helpers."""

from __future__ import annotations

from typing import Any

from claimlaw.facts import EDITIONS, SEAT_NAMES, SIDE_NAMES
from claimlaw.rules.rulebook import Ctx

E2017, E2007, E1997 = EDITIONS
ALL: tuple[str, ...] = EDITIONS
SINCE_2007: tuple[str, ...] = (E2017, E2007)

LAWS = "Laws of Duplicate Bridge"

Facts = dict[str, dict[str, Any]]  # matched facts by alias

__all__ = ["ALL", "E1997", "E2007", "E2017", "SINCE_2007", "LAWS", "Facts", "Ctx", "SEAT_NAMES", "SIDE_NAMES",
           "claimer_text", "tricks_text"]



def claimer_text(claim: dict[str, Any]) -> str:
    """'West (declarer)' from a claim fact."""
    name = SEAT_NAMES.get(claim["by"], claim["by"])
    role = claim.get("role", "unknown")
    return f"{name} ({role})" if role != "unknown" else name


def tricks_text(n: int) -> str:
    return f"{n} trick{'s' if n != 1 else ''}"
