"""What "normal" play means (the footnote to Laws 70 and 71), and the guidelines that apply it.

The footnote: "normal" includes careless or inferior play for the class of player involved
(1997 added "but not irrational" and also covered Law 69). The guidelines below are how
Directors apply it; each sets one switch of the play core's normal-play model and names its
source, so a Regulating-Authority pack can neutralise or replace it by rule name. The guidelines, their reasons
and sources come from the table of licences (engine/play/normal/licences.py).
"""

from __future__ import annotations

from typing import Any

from claimlaw.engine.play.normal.licences import CLASSES, LICENCES
from claimlaw.rules.common import ALL, E1997, SINCE_2007, Ctx, Facts
from claimlaw.rules.params import PARAMS
from claimlaw.rules.rulebook import Rule, fact, gt, one_of

# the class a case without the finding is ruled for, where no pack gives one (engine/api.py puts the packs' value of
# this parameter into the findings before the rules run)
DEFAULT_CLASS: str = PARAMS["class_of_player"].default


def _footnote(ctx: Ctx, m: Facts) -> None:
    cls = m["findings"]["class_of_player"]
    if cls == "unknown":
        cls = DEFAULT_CLASS
    off = [lic.name for lic in LICENCES if lic.rule is not None and cls not in lic.classes]
    ctx.assert_fact("switch", name="class_of_player", clause="70.footnote", value=cls,
                    source="Laws 70-71 footnote",
                    why=f"careless or inferior play for a {cls.replace('_', ' ')} player counts as normal"
                        + (f" (not normal for this class: {', '.join(n.replace('_', ' ') for n in off)})"
                           if off else ""))


FOOTNOTE = Rule(
    name="70.footnote.normal",
    clause="70.footnote",
    editions=SINCE_2007,
    reason="For Laws 70 and 71 normal play includes careless or inferior play for the class of player.",
    when=(fact("adjudicate", alias="adj"), fact("findings", alias="findings")),
    then=_footnote,
    priority=-2,
)

FOOTNOTE_71 = Rule(
    name="71.footnote.normal",
    clause="70.footnote",
    editions=SINCE_2007,
    reason="For Laws 70 and 71 normal play includes careless or inferior play for the class of player.",
    when=(fact("cancel_review", alias="review"), fact("findings", alias="findings")),
    then=_footnote,
    priority=-2,
)

FOOTNOTE_1997 = Rule(
    name="70.footnote.normal.1997",
    clause="70.footnote",
    editions=(E1997,),
    reason="1997: for Laws 69-71 normal play includes careless or inferior play, but not irrational play.",
    when=(fact("adjudicate", alias="adj"), fact("findings", alias="findings")),
    then=_footnote,
    priority=-2,
    text_verified=False,
)


def guideline(name: str, switch: str, reason: str, source: str, *, trigger: str = "adjudicate",
              editions: tuple[str, ...] = ALL, **where: Any) -> Rule:
    """A normal-play guideline: when a count is adjudicated, switch ``switch`` on, citing ``source``."""

    def act(ctx: Ctx, m: Facts) -> None:
        value: Any = True
        if switch == "unaware_winner":
            value = m["findings"]["unaware_of"]
        ctx.assert_fact("switch", name=switch, clause="70.footnote", value=value, source=source, why=reason)

    when = (fact(trigger, alias="adj"), fact("findings", alias="findings", **where))
    return Rule(name=f"guideline.{name}", clause="70.footnote", editions=editions, reason=reason, when=when,
                then=act, priority=-1, source=source)


def _both(name: str, switch: str, reason: str, source: str, **where: Any) -> list[Rule]:
    return [guideline(name, switch, reason, source, **where),
            guideline(f"{name}.71", switch, reason, source, trigger="cancel_review", **where)]


# extra conditions on the findings for a guideline's rules (the rest fire whenever a count is adjudicated)
WHERE: dict[str, dict[str, Any]] = {"unaware_winner": {"unaware_count": gt(0)}}


def _where(name: str, classes: tuple[str, ...]) -> dict[str, Any]:
    """A guideline's conditions: ``WHERE``'s, and, for one its sources give only some classes of player, that the
    player is of one (a case naming no class is ruled for ``DEFAULT_CLASS``): no step sets a switch that his class
    then drops."""
    where = dict(WHERE.get(name, {}))
    if set(classes) != set(CLASSES):
        where["class_of_player"] = one_of(*classes, *(("unknown",) if DEFAULT_CLASS in classes else ()))
    return where


# one pair of rules (Law 70 and Law 71) per general guideline of the table of licences, with its reason and source
GUIDELINES: list[Rule] = [rule for lic in LICENCES if lic.rule is not None
                          for rule in _both(lic.name, lic.name, lic.rule, lic.source, **_where(lic.name, lic.classes))]

RULES: list[Rule] = [FOOTNOTE, FOOTNOTE_71, FOOTNOTE_1997, *GUIDELINES]


