"""What "normal" play means (the footnote to Laws 70 and 71), and the guidelines that apply it.

The footnote: "normal" includes careless or inferior play for the class of player involved
(1997 added "but not irrational" and also covered Law 69). The guidelines below are how
Directors apply it; each sets one switch of the play core's normal-play model and names its
source, so a Regulating-Authority pack can neutralise or replace it by rule name.
"""

from __future__ import annotations

from typing import Any

from claimlaw.engine.rulebook import Rule, fact, gt
from claimlaw.rules.common import ALL, E1997, SINCE_2007, Ctx, Facts


def _footnote(ctx: Ctx, m: Facts) -> None:
    cls = m["findings"]["class_of_player"]
    ctx.assert_fact("switch", name="class_of_player", clause="70.footnote", value=cls if cls != "unknown" else "club",
                    source="Laws 70-71 footnote",
                    why=f"careless or inferior play for a {cls if cls != 'unknown' else 'club (default)'} player "
                        "counts as normal")


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


GUIDELINES: list[Rule] = [
    *_both("any_suit_order", "any_suit_order",
           "A claimer who thinks all his cards are good may cash his suits in any order: the worst one is ruled.",
           "EBU claims notes; ACBL Laws Commission 2019 guideline 1"),
    *_both("continue_suit", "continue_suit",
           "Having started to cash a suit he carries on with it until it is exhausted (no tortuous switching).",
           "EBU claims notes; EBU TD forum 2023"),
    *_both("top_down", "top_down",
           "Within a suit he plays from the top; several small equal cards in any order.",
           "White Book 8.70.5; ACBL Laws Commission 2019 guideline 1; 70E2 example"),
    *_both("equal_small_any", "equal_small_any",
           "Cards he sees as equal may be played in any order.",
           "White Book 8.70.5"),
    *_both("ruff_low", "ruff_low",
           "When ruffing he ruffs as low as possible, then plays small trumps in any order.",
           "ACBL Laws Commission 2019 guideline 5; EBU claims notes"),
    *_both("concede_now_or_end", "concede_now_or_end",
           "A trick he concedes without saying when is lost at once or at the end, whichever is worse for him.",
           "EBU claims notes"),
    *_both("sees_played_cards", "sees_played_cards",
           "He sees the cards as they are played: a show-out or a bad break is noticed when it happens.",
           "WBFLC 2001-10-30 #3 (as reported); EBU TD forum"),
    *_both("unaware_winner", "unaware_winner",
           "A claimer who has forgotten an outstanding winner may discard or lead as if it were gone.",
           "White Book 8.70.6", unaware_count=gt(0)),
]

RULES: list[Rule] = [FOOTNOTE, FOOTNOTE_71, FOOTNOTE_1997, *GUIDELINES]


