"""The Laws on claims and concessions as declarative rules, in statute order.

One module per Law (68, 69, 70, 71, 79) plus the footnote's normal-play guidelines; every rule
carries its clause id, the editions it is in force in, and a one-line reason in our words.
Regulating-Authority packs live in ``rules.packs``.
"""

from __future__ import annotations

from claimlaw.rules import law68, law69, law70, law71, law79, normal_play
from claimlaw.rules.rulebook import Rule

MODULES = (law68, law69, law70, normal_play, law71, law79)


def all_rules() -> list[Rule]:
    """Every rule of every edition, in statute order."""
    out: list[Rule] = []
    for mod in MODULES:
        out.extend(mod.RULES)
    return out


__all__ = ["all_rules", "MODULES"]
