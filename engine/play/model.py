"""The normal-play model: which cards of the claiming side count as normal (no solver in here).

"Best play plus licensed deviations" (docs/design.md): at a node where the claiming side plays,
its normal cards are every double-dummy-optimal card, plus the cards an enabled guideline
licenses from the claimer's perception. The licences, each a named switch with its source:

* ``any_suit_order`` — on lead, cash any suit in which the leader (or his partner) holds a card he
  perceives as a master: the top card from the hand holding it, or a low card toward it (not a
  crossing that leaves his own winners with no way back, or blocking partner's longer run).
* ``continue_suit`` — having led a suit he still perceives winners in, he continues it: the other
  suit-order licences are withheld until it is exhausted (a restriction, not a licence).
* ``top_down`` — within a suit, the top of the perceived masters (part of ``any_suit_order``).
* ``equal_small_any`` — several small perceived masters (none above nine) in any order; cards
  with no perceived card of another hand between them are equal when following.
* ``ruff_low`` — void in the suit led while an opponent is winning: ruff with the lowest trump
  that wins (then small trumps in any order follows from ``equal_small_any``).
* ``finesse_or_drop`` — an unstated guess (70E1): lead low toward a tenace with a guess in it (the
  opponents hold a card of the suit besides the one inside it; not while his own masters would block
  partner's longer run) and, third hand, play either the finesse card or the top; withdrawn once an
  opponent has shown out of the suit.
* ``concede_now_or_end`` — lead a perceived loser now rather than at the end.
* ``unaware_trump`` / ``unaware_winner`` — the cards in ``unaware_of`` are invisible to him until
  played: masters and losers are judged without them (70C; White Book 8.70.4, 8.70.6).
* ``sees_played_cards`` — a card he was unaware of is seen once played; show-outs are noticed.
* ``safety_check_high_trump`` — a claimer unaware of an outstanding trump who holds a higher one is
  deemed to lead it first as a safety check (ACBL 1992 C; a restriction, off by default and in 2019).
* ``partner_restricted`` — a defender's claim: partner's cards are also only normal ones (70D2).

Perception is the claimer's view (engine/play/view.py): his hand and dummy, the cards played and the
show-outs, less the cards he is unaware of; every licence and tie-break reads it and nothing else. The
licences, the ties and the coherence check are described once, in words a Director can check, in
docs/design.md ("The normal-play model as the claimer sees it"). A tie is only narrowed, never emptied.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from claimlaw.facts import Card, Line, Seat


@dataclass(frozen=True)
class Guideline:
    name: str
    meaning: str
    source: str


GUIDELINES: dict[str, Guideline] = {g.name: g for g in [
    Guideline("any_suit_order", "cashes his suits in any order: the worst one is ruled",
              "EBU claims notes; ACBL LC 2019 #1"),
    Guideline("continue_suit", "having started a suit, continues it until exhausted", "EBU claims notes"),
    Guideline("top_down", "cashes a suit from the top", "White Book 8.70.5; ACBL LC 2019 #1"),
    Guideline("equal_small_any", "plays several small cards he sees as equal in any order", "White Book 8.70.5"),
    Guideline("ruff_low", "ruffs as low as possible", "ACBL LC 2019 #5; EBU claims notes"),
    Guideline("finesse_or_drop", "takes the losing option of an unstated finesse or drop", "Law 70E1"),
    Guideline("concede_now_or_end", "loses a conceded trick at once or at the end", "EBU claims notes"),
    Guideline("unaware_trump", "plays as if the outstanding trump were gone", "Law 70C; White Book 8.70.4"),
    Guideline("unaware_winner", "plays as if an outstanding winner were gone", "White Book 8.70.6"),
    Guideline("sees_played_cards", "sees the cards as they are played", "WBFLC 2001-10-30 #3"),
    Guideline("safety_check_high_trump", "checks with a high trump first, drawing the trump he forgot",
              "ACBL Tech Files 1992 C (the 2019 guidelines, #3, say the opposite)"),
    Guideline("partner_restricted", "a defender's partner also plays the least successful normal cards",
              "Law 70D2"),
]}

DEFAULT_SWITCHES = frozenset({"any_suit_order", "continue_suit", "top_down", "equal_small_any", "ruff_low",
                              "finesse_or_drop", "concede_now_or_end", "sees_played_cards"})


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
        """Every general guideline on, full knowledge, no stated line."""
        return cls(claimer, switches=DEFAULT_SWITCHES)

    def on(self, name: str) -> bool:
        return name in self.switches

    def with_switches(self, **flags: bool) -> NormalPlayModel:
        unknown = set(flags) - set(GUIDELINES)
        if unknown:
            raise ValueError(f"unknown normal-play switch(es): {', '.join(sorted(unknown))}")
        on = set(self.switches)
        for k, v in flags.items():
            (on.add if v else on.discard)(k)
        return replace(self, switches=frozenset(on))

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
        hand and ``dummy`` (engine/play/view.py)."""
        return replace(self, partner_is_dummy=False, dummy=dummy)

    def with_class(self, cls_: str) -> NormalPlayModel:
        return replace(self, class_of_player=cls_)
