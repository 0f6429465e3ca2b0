"""The bridge to DDS through endplay: the only place that builds endplay deals and calls the solver.

DDS writes ``dump.txt`` into the working directory on an error: every call runs with the working
directory set to a private temporary folder, so runs never litter the user's folder.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

from endplay.dds import solve_board
from endplay.types import Card as ECard
from endplay.types import Deal, Denom, Player

from facts import SEATS, Card, Seat, Suit
from facts.cards import deal_pbn

_DENOM = {None: Denom.nt, Suit.S: Denom.spades, Suit.H: Denom.hearts, Suit.D: Denom.diamonds, Suit.C: Denom.clubs}
_PLAYER = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}
_SUITS = {0: Suit.S, 1: Suit.H, 2: Suit.D, 3: Suit.C}
_TMP = tempfile.mkdtemp(prefix="claimlaw-dds-")


class SolverError(ValueError):
    """A position DDS cannot take (checked before calling it)."""


@contextlib.contextmanager
def _quiet_dir() -> Iterator[None]:
    old = os.getcwd()
    os.chdir(_TMP)
    try:
        yield
    finally:
        os.chdir(old)


def _ours(c: ECard) -> Card:
    abbr = c.rank.abbr
    rank = _RANKS.get(abbr) or int(abbr)
    return Card(_SUITS[int(c.suit)], rank)


def card_values(hands: dict[Seat, frozenset[Card]], trump: Suit | None, leader: Seat,
                trick: tuple[Card, ...]) -> dict[Card, int]:
    """Every legal card of the seat to move, with the tricks its side then takes of those left."""
    full = {s: set(hands[s]) for s in SEATS}
    seat = leader
    for c in trick:
        full[seat].add(c)
        seat = seat.next
    sizes = {len(full[s]) for s in SEATS}
    if len(sizes) != 1 or 0 in sizes:
        raise SolverError(f"hands of unequal size or empty: {sorted(len(full[s]) for s in SEATS)}")
    deal = Deal(deal_pbn({s: sorted(full[s]) for s in SEATS}))
    deal.trump = _DENOM[trump]
    deal.first = _PLAYER[leader]
    for c in trick:
        deal.play(ECard(f"{c.suit.value}{'  23456789TJQKA'[c.rank]}"))
    with _quiet_dir():
        solved = solve_board(deal)
    return {_ours(c): n for c, n in solved}
