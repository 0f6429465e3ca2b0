"""The normal-play model: which cards of the claiming side count as normal (no solver in here).

"Best play plus licensed deviations" (docs/design.md): at a node where the claiming side plays,
its normal cards are every double-dummy-optimal card, plus the cards an enabled guideline
licenses from the claimer's perception. The licences, each a named switch, are listed once with their meaning,
source, clause, classes of player and solver bit in the table of licences (engine/play/normal/licences.py).

Perception is the claimer's view (engine/play/normal/view.py): his hand and dummy, the cards played and the
show-outs, less the cards he is unaware of; every licence and tie-break reads it and nothing else. The
licences, the ties and the coherence check are described once, in words a Director can check, in
docs/design.md ("The normal-play model as the claimer sees it"). A tie is only narrowed, never emptied.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from claimlaw.facts import Card, Line, Seat

from .normal.licences import LICENCES, Licence, covers

# the model's switches and those on by default, from the table of licences (engine/play/normal/licences.py)
GUIDELINES: dict[str, Licence] = {lic.name: lic for lic in LICENCES if lic.switch}

DEFAULT_SWITCHES = frozenset(lic.name for lic in LICENCES if lic.switch and lic.default)


@dataclass(frozen=True)
class NormalPlayModel:
    """The claimer's perception and the guidelines in force."""

    claimer: Seat
    switches: frozenset[str] = frozenset()
    unaware_of: frozenset[Card] = frozenset()
    line: Line | None = None
    played_after_claim: tuple[Card, ...] = ()
    guess_order: str | None = None
    class_of_player: str = "club"
    concedes: int = 0  # tricks the claim gives away: only then may a loser be led early
    partner_is_dummy: bool = True  # a declarer's claim covers dummy's cards; a defender's partner is his own player
    dummy: Seat | None = None  # a defender's claim: the dummy he sees (None: not known, both opponents in view)
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def dd_only(cls, claimer: Seat) -> NormalPlayModel:
        """Best play only, full knowledge: W equals double dummy."""
        return cls(claimer)

    @classmethod
    def default(cls, claimer: Seat) -> NormalPlayModel:
        """Every general guideline on, full knowledge, no stated line (a club player)."""
        return cls(claimer, switches=frozenset(n for n in DEFAULT_SWITCHES if covers(n, "club")))

    def on(self, name: str) -> bool:
        return name in self.switches

    def with_switches(self, **flags: bool) -> NormalPlayModel:
        unknown = set(flags) - set(GUIDELINES)
        if unknown:
            raise ValueError(f"unknown normal-play switch(es): {', '.join(sorted(unknown))}")
        on = set(self.switches)
        for k, v in flags.items():
            (on.add if v else on.discard)(k)
        return replace(self, switches=frozenset(n for n in on if covers(n, self.class_of_player)))

    def with_unaware(self, cards: list[str] | list[Card] | frozenset[Card]) -> NormalPlayModel:
        parsed = frozenset(c if isinstance(c, Card) else Card.parse(str(c)) for c in cards)
        return replace(self, unaware_of=self.unaware_of | parsed)

    def with_line(self, line: Line | None) -> NormalPlayModel:
        return replace(self, line=line)

    def with_played_after_claim(self, cards: list[Card]) -> NormalPlayModel:
        return replace(self, played_after_claim=tuple(cards))

    def top_down_order(self) -> bool:
        """A 70E2 order that plays an unclarified suit from the top (no finesse): the guess licence lapses."""
        text = (self.guess_order or "").lower().replace("-", " ").replace("_", " ")
        return "top" in text or "drop" in text

    def with_guess_order(self, order: str | None) -> NormalPlayModel:
        return replace(self, guess_order=order)

    def with_concedes(self, n: int) -> NormalPlayModel:
        return replace(self, concedes=max(0, n))

    def as_defender(self, dummy: Seat | None = None) -> NormalPlayModel:
        """The claimer is a defender: his partner's cards are normal-restricted only under 70D2; he sees his own
        hand and ``dummy`` (engine/play/normal/view.py)."""
        return replace(self, partner_is_dummy=False, dummy=dummy)

    def with_class(self, cls_: str) -> NormalPlayModel:
        """The model for a player of class ``cls_`` (the footnote's "class of player involved"): a licence whose
        sources say the carelessness is not normal for that class (the table's ``classes``) is not in force."""
        return replace(self, class_of_player=cls_,
                       switches=frozenset(n for n in self.switches if covers(n, cls_)))
