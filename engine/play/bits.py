"""Cards as bits: a hand is one int with a card at bit ``Card.code`` (suit number times sixteen plus rank,
suits numbered spades 0 to clubs 3, as DDS numbers them). Shared by the search and the solver bridge."""

from __future__ import annotations

from collections.abc import Iterable

from claimlaw.facts import SUITS, Card, Suit

SUIT_NO: dict[Suit, int] = {s: n for n, s in enumerate(SUITS)}  # as in Card.code
LANE = 0xFFFF  # one suit's sixteen bits of a mask, the rank's bit set
CARD: dict[int, Card] = {SUIT_NO[x] * 16 + r: Card(x, r) for x in SUITS for r in range(2, 15)}


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.code
    return m


def ranks_of(lane: int) -> list[int]:
    """The ranks set in a suit's lane, lowest first."""
    out = []
    while lane:
        low = lane & -lane
        out.append(low.bit_length() - 1)
        lane ^= low
    return out


def lane_cards(lane: int, x: int) -> list[Card]:
    """The cards of suit number ``x`` whose ranks are set in ``lane``, lowest first."""
    base = 16 * x
    return [CARD[base + r] for r in ranks_of(lane)]
