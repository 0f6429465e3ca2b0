"""Contracts and duplicate scoring."""

from __future__ import annotations

import re
from dataclasses import dataclass

from claimlaw.facts.cards import Strain

_CONTRACT = re.compile(r"^\s*([1-7])\s*(NT|N|[CDHS♣♦♥♠])\s*(XX|X|R)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Contract:
    """A final contract: level, strain and doubling (0 none, 1 doubled, 2 redoubled)."""

    level: int
    strain: Strain
    doubled: int = 0

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Read ``4S``, ``3NTX``, ``6HXX`` or ``4♠``."""
        m = _CONTRACT.match(str(text))
        if not m:
            raise ValueError(f"unreadable contract {text!r} (write it like 4S, 3NTX or 6HXX)")
        dbl = (m.group(3) or "").upper()
        return cls(int(m.group(1)), Strain.parse(m.group(2)), {"": 0, "X": 1, "XX": 2, "R": 2}[dbl])

    @property
    def target(self) -> int:
        """Tricks declarer needs."""
        return self.level + 6

    def __str__(self) -> str:
        return f"{self.level}{self.strain.value}{'X' * self.doubled}"

    @property
    def pretty(self) -> str:
        return f"{self.level}{self.strain.symbol}{'X' * self.doubled}"


def score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """Duplicate score for declarer's side when declarer takes ``tricks`` tricks."""
    over = tricks - contract.target
    mult = (1, 2, 4)[contract.doubled]
    if over < 0:
        down = -over
        if contract.doubled == 0:
            return -(100 if vulnerable else 50) * down
        if vulnerable:
            pen = 200 + 300 * (down - 1)
        else:
            pen = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -pen * (contract.doubled)
    per = 20 if contract.strain.value in "CD" else 30
    base = per * contract.level + (10 if contract.strain is Strain.NT else 0)
    base *= mult
    total = base
    total += (500 if vulnerable else 300) if base >= 100 else 50
    if contract.level == 6:
        total += 750 if vulnerable else 500
    elif contract.level == 7:
        total += 1500 if vulnerable else 1000
    if contract.doubled == 0:
        total += over * per
    else:
        total += over * (200 if vulnerable else 100) * contract.doubled
        total += 50 * contract.doubled
    return total
