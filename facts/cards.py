"""Seats, sides, suits, ranks and cards: the smallest words of the vocabulary."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

SEAT_NAMES: dict[str, str] = {"N": "North", "E": "East", "S": "South", "W": "West"}  # by letter, in SEATS order
SIDE_NAMES: dict[str, str] = {"NS": "North-South", "EW": "East-West"}


class Seat(StrEnum):
    """A compass seat at the table."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def next(self) -> Seat:
        return _NEXT[self]

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    @property
    def side(self) -> Side:
        return _SIDE[self]

    @property
    def lho(self) -> Seat:
        return self.next

    @property
    def rho(self) -> Seat:
        return _SEATS[(_SEATS.index(self) + 3) % 4]

    @property
    def long_name(self) -> str:
        return SEAT_NAMES[self.value]

    @classmethod
    def parse(cls, text: str) -> Seat:
        t = str(text).strip().upper()
        names = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}
        t = names.get(t, t)
        try:
            return cls(t)
        except ValueError:
            raise ValueError(f"unknown seat {text!r} (use N, E, S or W)") from None


_SEATS = [Seat.N, Seat.E, Seat.S, Seat.W]
SEATS: tuple[Seat, ...] = tuple(_SEATS)
_NEXT = {s: _SEATS[(i + 1) % 4] for i, s in enumerate(_SEATS)}
_PARTNER = {s: _SEATS[(i + 2) % 4] for i, s in enumerate(_SEATS)}


class Side(StrEnum):
    """A partnership."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @property
    def long_name(self) -> str:
        return SIDE_NAMES[self.value]

    @classmethod
    def parse(cls, text: str) -> Side:
        t = str(text).strip().upper().replace("-", "").replace("/", "")
        t = {"NORTHSOUTH": "NS", "EASTWEST": "EW", "SN": "NS", "WE": "EW"}.get(t, t)
        try:
            return cls(t)
        except ValueError:
            raise ValueError(f"unknown side {text!r} (use NS or EW)") from None


_SIDE = {Seat.N: Side.NS, Seat.S: Side.NS, Seat.E: Side.EW, Seat.W: Side.EW}


class Suit(StrEnum):
    """A suit, listed high to low as in PBN."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self.value]

    @property
    def long_name(self) -> str:
        return {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        t = str(text).strip()
        t = _SYMBOL_TO_SUIT.get(t, t).upper()
        long = {"SPADES": "S", "SPADE": "S", "HEARTS": "H", "HEART": "H", "DIAMONDS": "D",
                "DIAMOND": "D", "CLUBS": "C", "CLUB": "C"}
        t = long.get(t, t)
        try:
            return cls(t)
        except ValueError:
            raise ValueError(f"unknown suit {text!r} (use S, H, D or C)") from None


SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.D, Suit.C)
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


class Strain(StrEnum):
    """A denomination of a contract: a suit or no trumps."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"
    NT = "NT"

    @property
    def trump(self) -> Suit | None:
        return None if self is Strain.NT else Suit(self.value)

    @property
    def symbol(self) -> str:
        return "NT" if self is Strain.NT else _SYMBOLS[self.value]

    @classmethod
    def parse(cls, text: str) -> Strain:
        t = str(text).strip()
        t = _SYMBOL_TO_SUIT.get(t, t).upper()
        if t in ("N", "NT", "NOTRUMP", "NOTRUMPS", "NO TRUMPS"):
            return cls.NT
        try:
            return cls(t)
        except ValueError:
            raise ValueError(f"unknown strain {text!r} (use C, D, H, S or NT)") from None


RANK_CHARS = "23456789TJQKA"


def rank_char(rank: int) -> str:
    return RANK_CHARS[rank - 2]


def parse_rank(text: str) -> int:
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANK_CHARS:
        raise ValueError(f"unknown rank {text!r} (use 2-9, T or 10, J, Q, K, A)")
    return RANK_CHARS.index(t) + 2


@dataclass(frozen=True, order=True)
class Card:
    """A playing card; ``rank`` runs 2..14 (ace high)."""

    suit: Suit
    rank: int

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14:
            raise ValueError(f"rank {self.rank} out of range 2..14")
        object.__setattr__(self, "_hash", "SHDC".index(self.suit.value) * 16 + self.rank)

    def __hash__(self) -> int:  # cards are hashed millions of times in a search: a small int, computed once
        return self._hash  # type: ignore[attr-defined]

    @property
    def code(self) -> int:
        """Suit (spades 0 … clubs 3) times 16 plus rank: orders cards by suit, then rank."""
        return self._hash  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``S3``, ``♠3``, ``s10``, ``3S`` or ``♠T``."""
        raw = str(text).strip()
        if len(raw) < 2:
            raise ValueError(f"unreadable card {text!r} (write it like S3, ♠3, HT or H10)")
        head, tail = raw[0], raw[1:]
        try:
            if head.upper() in "SHDC" or head in _SYMBOL_TO_SUIT:
                return cls(Suit.parse(head), parse_rank(tail))
            return cls(Suit.parse(raw[-1]), parse_rank(raw[:-1]))
        except ValueError:
            raise ValueError(f"unreadable card {text!r} (write it like S3, ♠3, HT or H10)") from None

    def __str__(self) -> str:
        return f"{self.suit.value}{rank_char(self.rank)}"

    @property
    def pretty(self) -> str:
        return f"{self.suit.symbol}{rank_char(self.rank)}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def sort_cards(cards: object) -> list[Card]:
    """Cards sorted as a player holds them: by suit (spades first), high to low."""
    order = {s: i for i, s in enumerate(SUITS)}
    return sorted(cards, key=lambda c: (order[c.suit], -c.rank))  # type: ignore[arg-type]


def hand_pbn(cards: object) -> str:
    """A hand as PBN suit groups ``AKQ.JT9.8.765``."""
    groups = {s: "" for s in SUITS}
    for c in sort_cards(cards):
        groups[c.suit] += rank_char(c.rank)
    return ".".join(groups[s] for s in SUITS)


def parse_hand(text: str) -> list[Card]:
    """Read a PBN hand ``AKQ.JT9.8.765`` (``-`` or empty for a void)."""
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise ValueError(f"hand {text!r} must have four suit groups separated by dots")
    cards: list[Card] = []
    for suit, grp in zip(SUITS, parts, strict=True):
        grp = grp.strip().replace("10", "T")
        if grp in ("-", "—"):
            continue
        for ch in grp:
            cards.append(Card(suit, parse_rank(ch)))
    return cards


def parse_pbn_deal(text: str) -> dict[Seat, list[Card]]:
    """Read a PBN deal ``N:hand hand hand hand`` (hands clockwise from the first seat)."""
    raw = text.strip().strip('"')
    if len(raw) < 2 or raw[1] != ":":
        raise ValueError(f"deal {text!r} must start with the first seat and a colon, e.g. 'N:AKQ...'")
    first = Seat.parse(raw[0])
    hands = raw[2:].split()
    if len(hands) != 4:
        raise ValueError(f"deal must list four hands, found {len(hands)}")
    out: dict[Seat, list[Card]] = {}
    seat = first
    for h in hands:
        try:
            out[seat] = parse_hand(h)
        except ValueError as e:
            raise ValueError(f"{seat.long_name}'s hand: {e}") from None
        seat = seat.next
    return out


def deal_pbn(hands: dict[Seat, object], first: Seat = Seat.N) -> str:
    """Write hands as a PBN deal string starting with ``first``."""
    seats = [first, first.next, first.next.next, first.rho]
    return f"{first.value}:" + " ".join(hand_pbn(hands.get(s, ())) for s in seats)
