"""The position at a claim: remaining hands, trick in progress, tricks won, play history.

Built either from the deal as dealt plus the play record, or from a Director's claim
diagram. Legality is checked here: a card not held or played out of turn is an input
error; failing to follow suit while able is not an error but a recorded revoke.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from claimlaw.facts.cards import SEATS, Card, Seat, Side, Suit, deal_pbn, sort_cards


class PlayError(ValueError):
    """A play record that cannot have happened (card not held, wrong hand...)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class Revoke:
    """A failure to follow suit found in the play record."""

    trick: int  # 1-based trick number of the board
    seat: Seat
    card: Card
    led: Suit

    def describe(self) -> str:
        return (f"{self.seat.long_name} played {self.card.pretty} to trick {self.trick} "
                f"holding a {self.led.long_name[:-1]}")


@dataclass(frozen=True)
class Trick:
    """A completed trick: its leader, the cards from the leader on, and the winner."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat


def trick_winner(leader: Seat, cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> Seat:
    """The seat that wins a (complete or partial) trick."""
    led = cards[0].suit
    best_i = 0
    for i, c in enumerate(cards[1:], start=1):
        b = cards[best_i]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best_i = i
        elif trump is not None and c.suit == trump:
            best_i = i
    seat = leader
    for _ in range(best_i):
        seat = seat.next
    del led
    return seat


@dataclass
class Position:
    """Remaining cards of the four hands and the state of play at one moment."""

    hands: dict[Seat, set[Card]]
    trump: Suit | None
    leader: Seat
    trick: list[Card] = field(default_factory=list)
    won: dict[Side, int] = field(default_factory=lambda: {Side.NS: 0, Side.EW: 0})
    history: list[Trick] = field(default_factory=list)
    revokes: list[Revoke] = field(default_factory=list)
    shown_out: dict[Seat, set[Suit]] = field(default_factory=lambda: {s: set() for s in SEATS})

    # -- reading the position ------------------------------------------------
    @property
    def to_move(self) -> Seat:
        seat = self.leader
        for _ in range(len(self.trick)):
            seat = seat.next
        return seat

    @property
    def tricks_left(self) -> int:
        """Tricks not yet completed, counting the one in progress."""
        return len(self.hands[self.leader]) + (1 if self.trick else 0)

    @property
    def tricks_played(self) -> int:
        return self.won[Side.NS] + self.won[Side.EW]

    @property
    def led_suit(self) -> Suit | None:
        return self.trick[0].suit if self.trick else None

    def legal(self, seat: Seat | None = None) -> list[Card]:
        seat = seat or self.to_move
        hand = self.hands[seat]
        led = self.led_suit
        if led is not None:
            follow = [c for c in hand if c.suit == led]
            if follow:
                return sort_cards(follow)
        return sort_cards(hand)

    def pbn(self) -> str:
        return deal_pbn(self.hands)

    def copy(self) -> Position:
        return Position(
            hands={s: set(h) for s, h in self.hands.items()},
            trump=self.trump,
            leader=self.leader,
            trick=list(self.trick),
            won=dict(self.won),
            history=list(self.history),
            revokes=list(self.revokes),
            shown_out={s: set(v) for s, v in self.shown_out.items()},
        )

    # -- playing a card ------------------------------------------------------
    def play(self, card: Card, *, where: str = "play", allow_revoke: bool = True) -> None:
        """Play ``card`` for the seat to move, recording a revoke instead of refusing it."""
        seat = self.to_move
        if card not in self.hands[seat]:
            holder = next((s for s in SEATS if card in self.hands[s]), None)
            if holder is None:
                raise PlayError(where, f"{card.pretty} was already played or is not in the deal")
            raise PlayError(where, f"{card.pretty} is in {holder.long_name}'s hand but it is "
                            f"{seat.long_name}'s turn to play")
        led = self.led_suit
        if led is not None and card.suit != led:
            if any(c.suit == led for c in self.hands[seat]):
                if not allow_revoke:
                    raise PlayError(where, f"{seat.long_name} must follow to {led.long_name}")
                self.revokes.append(Revoke(self.tricks_played + 1, seat, card, led))
            else:
                self.shown_out[seat].add(led)
        self.hands[seat].discard(card)
        self.trick.append(card)
        if len(self.trick) == 4:
            winner = trick_winner(self.leader, self.trick, self.trump)
            self.history.append(Trick(self.leader, tuple(self.trick), winner))
            self.won[winner.side] += 1
            self.leader = winner
            self.trick = []


def position_from_deal(
    hands: dict[Seat, list[Card]],
    trump: Suit | None,
    opening_leader: Seat,
    play: list[list[Card]],
) -> Position:
    """Replay ``play`` (tricks listed from their leader) from the deal as dealt."""
    pos = Position(hands={s: set(hands[s]) for s in SEATS}, trump=trump, leader=opening_leader)
    for t_i, trick in enumerate(play):
        if not trick:
            raise PlayError(f"board.play[{t_i}]", "a trick with no cards")
        if t_i < len(play) - 1 and len(trick) != 4:
            raise PlayError(f"board.play[{t_i}]",
                            f"only the last trick may be incomplete; this one has {len(trick)} cards")
        if len(trick) > 4:
            raise PlayError(f"board.play[{t_i}]", f"a trick has at most 4 cards, found {len(trick)}")
        for c_i, card in enumerate(trick):
            pos.play(card, where=f"board.play[{t_i}][{c_i}]")
    return pos
