"""The parameters a Regulating-Authority pack may set, with their type, range, default and the clause that reads
them; and the orders a Regulating Authority may specify under 70E2.

Every value a pack gives is checked here before any rule sees it (``check``); a pack naming a parameter not listed
here (nor declared by one of its own rules' ``params``) is refused with the closest valid name. The rules read the
values from the ``params`` fact, where ``<name>_cite`` carries the regulation and pack that set each one ("" for the
Laws' default).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_CORRECTION_MINUTES = 10_080  # a week: no correction period is longer; a bigger number is a typing slip


@dataclass(frozen=True)
class Order70E2:
    """An order a Regulating Authority may specify for a suit the claimer left unclarified (70E2)."""

    name: str
    words: str      # how the trace says it
    effect: str     # what the play core does under it
    source: str     # where the order comes from
    top_down: bool  # the play core's guess licence lapses: the suit is played from the top


ORDERS_70E2: dict[str, Order70E2] = {o.name: o for o in [
    Order70E2("top_down", "from the top down",
              "the suit is played from the top: 70E1's licence to take the losing option of a guess lapses, so a "
              "drop that works is credited (a finesse that would work is not, the top card being normal)",
              "Law 70E2's own example; ACBL Duplicate Decisions (trumps presumed played from the top down)", True),
    Order70E2("worst_for_claimer", "in the order worst for the claimer",
              "the suit is played in whichever normal way is worst for the claimer: the losing option of an unstated "
              "finesse or drop stays licensed (as 70E1 rules without an order)",
              "ACBL Laws Commission 2019 guideline 1; EBU practice (TD forum 2023)", False),
]}


@dataclass(frozen=True)
class Param:
    """One parameter: its kind, default, the clause that reads it and what it means."""

    name: str
    kind: str                            # "minutes", "flag" or "order"
    default: Any
    clause: str
    meaning: str
    check: Callable[[Any], str | None]   # None when the value is valid, else why not (after the shown value)


def _minutes(v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return "is not a number of minutes"
    if isinstance(v, int) and not -MAX_CORRECTION_MINUTES <= v <= MAX_CORRECTION_MINUTES:
        return f"is out of range: a correction period is more than 0 and at most {MAX_CORRECTION_MINUTES} minutes"
    if v != v or v in (float("inf"), float("-inf")):
        return "is not a number of minutes"
    if not 0 < v <= MAX_CORRECTION_MINUTES:
        return (f"is out of range: a correction period is more than 0 and at most {MAX_CORRECTION_MINUTES} minutes "
                "(a week)")
    return None


def _flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else "is not true or false (write it unquoted: true / false)"


def _order(v: Any) -> str | None:
    if isinstance(v, str) and v in ORDERS_70E2:
        return None
    return f"is not a 70E2 order: {suggest(str(v), ORDERS_70E2)}"


PLAYER_CLASSES = ("beginner", "club", "expert", "world_class")


def _class(v: Any) -> str | None:
    if isinstance(v, str) and v in PLAYER_CLASSES:
        return None
    return f"is not a class of player: {suggest(str(v), PLAYER_CLASSES)}"


PARAMS: dict[str, Param] = {p.name: p for p in [
    Param("correction_minutes", "minutes", 30.0, "79C",
          "the correction period in minutes (Law 79C: 30 unless the organiser sets another); read by 79C and "
          "through it by 69B and 71; a case's own timing.correction_period_minutes wins over it", _minutes),
    Param("order_70E2", "order", "none", "70E2",
          f"the order an unclarified suit is deemed played in: one of {', '.join(ORDERS_70E2)}", _order),
    Param("weighted_scores", "flag", False, "70A",
          "true: the Director's outcome_weights are shown as weighted rows beside the whole-trick ruling", _flag),
    Param("high_trump_safety_check_normal", "flag", False, "70C3",
          "true: a claimer unaware of a single outstanding trump who holds a higher one is deemed to draw it with a "
          "safety check (as ACBL Tech Files 1992 C); it never applies with two or more trumps out", _flag),
    Param("class_of_player", "class", "club", "70.footnote",
          "the class of player a case is ruled for when its findings name none (the footnote's 'class of player "
          f"involved'): one of {', '.join(PLAYER_CLASSES)}", _class),
]}


def suggest(name: str, valid: Any) -> str:
    """'did you mean X?' with the closest valid name, else the valid names."""
    names = list(valid)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    if close:
        return f"did you mean {close[0]!r}? (valid: {', '.join(names)})"
    return f"valid: {', '.join(names)}"


def shown(v: Any) -> str:
    """A value as an error shows it: short, never the whole of a huge one."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int) and abs(v) >= 10**30:
        return f"a {int(abs(v).bit_length() * 0.30103) + 1}-digit number"
    text = repr(v)
    return text if len(text) <= 40 else text[:39] + "…"


def check(name: str, value: Any) -> str | None:
    """Why ``value`` is not valid for the known parameter ``name`` (None when it is, or the name is not ours)."""
    p = PARAMS.get(name)
    if p is None:
        return None
    problem = p.check(value)
    return f"{shown(value)} {problem}" if problem else None


__all__ = ["MAX_CORRECTION_MINUTES", "ORDERS_70E2", "PARAMS", "PLAYER_CLASSES", "Order70E2", "Param", "check", "shown",
           "suggest"]
