"""A node of a W search: the cards, the trick in progress, and what the claimer perceives and has stated so far
(the suit his side led last, the show-outs, the steps of his stated line done). Every function of normal play reads
one."""

from __future__ import annotations

from dataclasses import dataclass, field

from claimlaw.facts import SEATS, Card, Seat, Suit

from ..bits import mask_of

IDX = {s: i for i, s in enumerate(SEATS)}


@dataclass(frozen=True)
class Node:
    """A search state: the cards, the trick in progress, and what the claimer perceives."""

    hands: tuple[frozenset[Card], ...]  # by SEATS order
    leader: Seat
    trick: tuple[Card, ...]
    unaware: frozenset[Card]            # outstanding cards the claimer has not seen
    last_led: Suit | None               # the suit the claiming side led last
    voids: frozenset[tuple[Seat, Suit]]
    line_done: frozenset[int] = frozenset()
    line_off: bool = False
    line_lead: frozenset[int] = frozenset()  # the steps the side's lead of the trick in progress followed
    masks: tuple[int, ...] = field(default=(), compare=False, repr=False)  # the hands as bit masks
    lost: int = 0  # tricks the opponents have won since the claim, counted up to those the claim concedes

    def __post_init__(self) -> None:
        if not self.masks:
            object.__setattr__(self, "masks", tuple(mask_of(h) for h in self.hands))

    @property
    def to_move(self) -> Seat:
        return SEATS[(IDX[self.leader] + len(self.trick)) & 3]

    def hand(self, seat: Seat) -> frozenset[Card]:
        return self.hands[IDX[seat]]


def tricks_left(node: Node) -> int:
    """Tricks left, the one in progress included."""
    return len(node.hand(node.leader)) + (1 if node.trick else 0)
