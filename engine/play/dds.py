"""The bridge to DDS through endplay: the only place that builds endplay deals and calls the solver.

DDS writes ``dump.txt`` into the working directory on an error: every call runs with the working
directory set to a private temporary folder, so runs never litter the user's folder.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

import endplay._dds as _dds
from endplay.dds import solve_board
from endplay.types import Card as ECard
from endplay.types import Deal, Denom, Player

from claimlaw.facts import SEATS, SUITS, Card, Seat, Side, Suit
from claimlaw.facts.cards import deal_pbn

from .bits import CARD, SUIT_NO

try:  # our own solver for short endings (engine/play/_endings.c), built at install when a C compiler is there
    from . import _endings
except ImportError:  # pragma: no cover - without it every position goes to DDS
    _endings = None  # type: ignore[assignment]
else:
    _endings.set_cards([CARD.get(i) for i in range(64)])

ENDING_TRICKS = 7  # at most this many tricks left: our solver (in a search, faster than DDS's call up to 7)

_DENOM = {None: Denom.nt, Suit.S: Denom.spades, Suit.H: Denom.hearts, Suit.D: Denom.diamonds, Suit.C: Denom.clubs}
_PLAYER = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}
_TMP = tempfile.mkdtemp(prefix="claimlaw-dds-")


class SolverError(ValueError):
    """A position DDS cannot take (checked before calling it)."""


class Disagreement(RuntimeError):  # noqa: N818 - names what happened
    """Our solver's answer is not one the Python model (the reference) accepts: a defect of our solver."""


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
    return Card(SUITS[int(c.suit)], rank)


_TRUMP_NO: dict[Suit | None, int] = {x: n for x, n in SUIT_NO.items()}
_TRUMP_NO[None] = 4
_SEAT_NO = {s: n for n, s in enumerate(SEATS)}
_last_trump: list[int] = [-1]  # the trump of the previous call on DDS's thread 0


def card_values(hands: dict[Seat, frozenset[Card]] | tuple[int, ...], trump: Suit | None, leader: Seat,
                trick: tuple[Card, ...]) -> dict[Card, int]:
    """Every legal card of the seat to move, with the tricks its side then takes of those left.

    ``hands`` by seat, or as the search's four bit masks in seat order (a card at bit suit * 16 + rank,
    suits spades to clubs as DDS numbers them).

    Fills DDS's own deal structure from the cards (no PBN text, no endplay ``Deal``): the solver call
    is most of the play core's time, and building a ``Deal`` cost more than the solve itself. The
    position must be a consistent one (``engine.play.check`` refuses the others before a search).
    Endings of at most ``ENDING_TRICKS`` tricks go to our own solver (``_endings``), the rest to DDS."""
    if _endings is not None and isinstance(hands, tuple):
        n = hands[(_SEAT_NO[leader] + len(trick)) & 3].bit_count()
        if n <= ENDING_TRICKS:
            return _endings.values(*_ours_args(hands, trump, leader, trick))
    return _by_dds(hands, trump, leader, trick)


def _by_dds(hands: dict[Seat, frozenset[Card]] | tuple[int, ...], trump: Suit | None, leader: Seat,
            trick: tuple[Card, ...]) -> dict[Card, int]:
    """``card_values`` by DDS whatever the length."""
    dl = _dds.deal()
    dl.trump = _TRUMP_NO[trump]
    dl.first = _SEAT_NO[leader]
    for i in range(3):
        dl.currentTrickSuit[i] = SUIT_NO[trick[i].suit] if i < len(trick) else 0
        dl.currentTrickRank[i] = trick[i].rank if i < len(trick) else 0
    if isinstance(hands, tuple):
        for i, m in enumerate(hands):
            row = dl.remainCards[i]
            for n in range(4):
                row[n] = (m >> (16 * n)) & 0xFFFF
    else:
        for s in SEATS:
            row = dl.remainCards[_SEAT_NO[s]]
            for c in hands[s]:
                row[SUIT_NO[c.suit]] |= 1 << c.rank
    fut = _dds.futureTricks()
    # DDS's table entries record who holds each card they rest on, so they hold for any deal with the same
    # trump (DDS itself keeps them across "similar" deals): mode 2 keeps the table; a new trump clears it
    mode = 2 if dl.trump == _last_trump[0] else 1
    _last_trump[0] = dl.trump
    with _quiet_dir():
        _dds.SolveBoard(dl, -1, 3, mode, fut, 0)  # endplay's binding returns no status code
    if fut.cards <= 0:
        raise SolverError("DDS returned no card for the position")
    out: dict[Card, int] = {}
    for i in range(fut.cards):
        score = fut.score[i]
        if score < 0:
            continue
        n = fut.suit[i]
        held = (1 << fut.rank[i]) | fut.equals[i]
        for r in range(2, 15):
            if held >> r & 1:
                out[CARD[16 * n + r]] = score
    return out


def _ours_args(masks: tuple[int, ...], trump: Suit | None, leader: Seat, trick: tuple[Card, ...]
               ) -> tuple[int, int, int, int, int, int, tuple[int, ...]]:
    """A position as our solver takes it: the four masks, the trump (-1: none), the leader and the trick's codes."""
    m0, m1, m2, m3 = masks
    return (m0, m1, m2, m3, SUIT_NO[trump] if trump is not None else -1, _SEAT_NO[leader],
            tuple(c.code for c in trick))


def fewest(masks: tuple[int, ...], trump: Suit | None, leader: Seat, trick: tuple[Card, ...], side: Side,
           above: int = -1) -> int:
    """The fewest tricks ``side`` takes from here if every card of all four hands is played to that end, or, with
    ``above`` >= 0, whether that is more than ``above`` (our solver; the caller checks ``HAVE_FEWEST`` first)."""
    assert _endings is not None
    return _endings.fewest(*_ours_args(masks, trump, leader, trick), 0 if side == Side.NS else 1, above)


def floor_above(masks: tuple[int, ...], trump: Suit | None, leader: Seat, trick: tuple[Card, ...], side: Side,
                restricted: int, flags: int, above: int, limit: int = 0) -> bool:
    """Whether ``side`` takes more than ``above`` on every line where its ``restricted`` seats (a bit per seat,
    in SEATS order) play only double-dummy-optimal cards or cards a licence in ``flags`` (``worst_whole``'s) could
    give (our solver; for a claimer who sees every card and states no line). ``limit`` > 0: give up (False) after
    that many positions."""
    assert _endings is not None
    return _endings.floor(*_ours_args(masks, trump, leader, trick), 0 if side == Side.NS else 1, restricted, flags,
                          above, limit)


def worst_whole(masks: tuple[int, ...], trump: Suit | None, leader: Seat, trick: tuple[Card, ...],
                last: Suit | None, voids: frozenset[tuple[Seat, Suit]], side: Side, restricted: int, flags: int,
                below: int, dd: int, limit: int, unaware: int = 0) -> tuple[int, bool, list[Card]]:
    """W for a claimer who states no line, by our solver (see ``_endings.worst``; ``dd``: the side's double-dummy
    count; ``flags``: ``solver_flags`` of engine/play/normal/licences.py, the licences in force and the hands the
    claimer sees; ``unaware``: the cards he is unaware of, as a mask): the count, whether it is settled within
    ``limit`` positions, and the cards of a line giving at most it, up to where best play within the model takes
    over."""
    assert _endings is not None
    vbits = sum(1 << (4 * _SEAT_NO[s] + SUIT_NO[x]) for s, x in voids)
    count, settled, line = _endings.worst(*_ours_args(masks, trump, leader, trick),
                                          SUIT_NO[last] if last is not None else -1, vbits,
                                          0 if side == Side.NS else 1, restricted, flags, below, dd, limit, unaware)
    unknown = [c for c in line if c not in CARD]
    if unknown:
        raise Disagreement(f"our solver's line holds card code {unknown[0]}, not a card")
    return count, settled, [CARD[c] for c in line]


def take_work() -> int:
    """Positions our solver's searches have visited since the last call (0 without it)."""
    return _endings.take_work() if _endings is not None else 0


def new_question() -> None:
    """A new question begins: it reads nothing our solver's tables hold from earlier ones (its answer, budget-bound
    or not, depends on the case alone), and what they hold gives way first to what it stores."""
    if _endings is not None:
        _endings.new_question()


HAVE_FEWEST = _endings is not None

# From this many cards in the mover's hand, our W search asks DDS for a node's best-play cards (its table carries
# over from one position of the deal to the next) where our own solver, whose move ordering is weak in long
# positions, has not settled them within 1,500 positions (_endings.c ``long_cap``). Measured 2026-11-28 on the ten
# slowest benchmark positions: from 8 tricks no faster than from 10 (16.8 s against 15.5 s CPU in all)
LONG_TRICKS = 10


def _long_best(m0: int, m1: int, m2: int, m3: int, trump: int, leader: int, trick: tuple[int, ...]) -> tuple[int, int]:
    """Our W search's question to DDS (``_endings.set_long_solver``): the mover's side's tricks with best play, and
    its best-play cards as a mask of codes."""
    vals = _by_dds((m0, m1, m2, m3), SUITS[trump] if trump >= 0 else None, SEATS[leader], tuple(CARD[c] for c in trick))
    top = max(vals.values())
    return top, sum(1 << c.code for c, v in vals.items() if v == top)


if _endings is not None:
    _endings.set_long_solver(_long_best, LONG_TRICKS)


def card_values_via_deal(hands: dict[Seat, frozenset[Card]], trump: Suit | None, leader: Seat,
                         trick: tuple[Card, ...]) -> dict[Card, int]:
    """The same through endplay's ``Deal`` and ``solve_board``: the reference the fast path is tested against."""
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
    _last_trump[0] = -1  # that call may have left another trump's entries in the table
    return {_ours(c): n for c, n in solved}
