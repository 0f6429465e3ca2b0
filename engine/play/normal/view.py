"""The claimer's view: what he sees at a node of the search, and nothing else.

Every licence, tie-break and "perceived master / loser" of the normal-play model reads this and only
this (issue 26, item 1). He sees his own hand and dummy (declarer both of his hands, a defender his own
and dummy), every card played (they are gone from the hands) and every show-out; he does not see the
other hands. Outstanding cards he is found unaware of (70C, White Book 8.70.4/8.70.6) are not in his
view at all: he does not know they exist until one is played. Hidden cards are exactly the cards of the
hands he does not see, less those.

Each seat of the claiming side reads its own view. Declarer plays dummy's cards too, so both read his. A defender's
partner reads his own: a claimer faces his hand (Law 68C), so partner sees his own hand, dummy and the claimer's
hand, every card played and every show-out; only declarer's hand is hidden from him. The claimer's unawareness of
cards (70C) is the claimer's alone: partner knows of every card out (``viewer``, ``view``'s ``own``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from claimlaw.facts import SEATS, Card, Seat, Suit

from ..bits import LANE, SUIT_NO, lane_cards, mask_of

if TYPE_CHECKING:
    from .node import Node
    from .question import Question

IDX = {s: i for i, s in enumerate(SEATS)}


@dataclass(frozen=True)
class View:
    """What the claimer sees at one node (masks hold a card at bit ``Card.code``)."""

    seen_seats: frozenset[Seat]       # hands he sees: his own and dummy
    mine: tuple[Seat, Seat]           # the claiming side's seats
    held: tuple[int, ...]             # every hand's cards, by SEATS order (read only for seen seats)
    hidden: int                       # outstanding cards he knows of, in hands he does not see
    voids: frozenset[tuple[Seat, Suit]]  # the show-outs he has seen
    # ``against`` and ``top_against`` of each suit (by suit number), worked out once: the licences, ties and stated
    # line ask them hundreds of thousands of times a search (issue 35: a fifth of a stated-line ruling's time)
    opp_lanes: tuple[int, ...] = field(init=False, repr=False, compare=False)
    opp_tops: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        theirs = 0
        for s in SEATS:
            if s.side != self.mine[0].side and s in self.seen_seats:
                theirs |= self.held[IDX[s]]
        lanes = tuple(((self.hidden | theirs) >> (16 * x)) & LANE for x in range(4))
        object.__setattr__(self, "opp_lanes", lanes)
        object.__setattr__(self, "opp_tops", tuple(lane.bit_length() - 1 if lane else 0 for lane in lanes))

    def lane(self, mask: int, suit: Suit) -> int:
        return (mask >> (16 * SUIT_NO[suit])) & LANE

    def hidden_in(self, suit: Suit) -> int:
        """The ranks (as a lane) of the hidden cards of ``suit``."""
        return self.lane(self.hidden, suit)

    def against(self, suit: Suit) -> int:
        """The ranks of ``suit`` that may be held by an opponent, as he sees it: the opponents' cards in hands he
        sees (dummy, for a defender) and every hidden card (a defender cannot tell partner's from declarer's)."""
        return self.opp_lanes[SUIT_NO[suit]]

    def top_against(self, suit: Suit) -> int:
        """The highest rank of ``suit`` an opponent may hold as he sees it (0: none)."""
        return self.opp_tops[SUIT_NO[suit]]

    def may_hold(self, seat: Seat, suit: Suit, above: int = 0) -> bool:
        """As he sees it, ``seat`` may hold a card of ``suit`` ranked above ``above``: for a hand in view, exactly;
        for a hidden hand, some hidden card of the suit is above it and the hand has not shown out."""
        if seat in self.seen_seats:
            return bool(self.lane(self.held[IDX[seat]], suit) >> (above + 1))
        return (seat, suit) not in self.voids and bool(self.hidden_in(suit) >> (above + 1))

    def must_hold(self, seat: Seat, suit: Suit, above: int = 0) -> bool:
        """He knows ``seat`` holds a card of ``suit`` above ``above``: a hand in view that does; a hidden hand when
        such a hidden card exists and every other hidden hand has shown out of the suit."""
        if seat in self.seen_seats:
            return self.may_hold(seat, suit, above)
        if not self.hidden_in(suit) >> (above + 1) or (seat, suit) in self.voids:
            return False
        return all((s, suit) in self.voids for s in SEATS if s != seat and s not in self.seen_seats)

    def known_void(self, seat: Seat, suit: Suit) -> bool:
        """He knows ``seat`` holds no card of ``suit``: a hand in view without one, or a show-out."""
        if seat in self.seen_seats:
            return not self.lane(self.held[IDX[seat]], suit)
        return (seat, suit) in self.voids or not self.hidden_in(suit)


def seen_seats(claimer: Seat, partner_is_dummy: bool, dummy: Seat | None) -> frozenset[Seat]:
    """The hands the claimer sees: declarer his own and dummy's; a defender his own and dummy (both opponents'
    hands when dummy is not known: the view the model had before it read the table)."""
    if partner_is_dummy:
        return frozenset({claimer, claimer.partner})
    if dummy is None:
        return frozenset({claimer, claimer.next, claimer.next.next.next})
    return frozenset({claimer, dummy})


def viewer(claimer: Seat, partner_is_dummy: bool, seat: Seat) -> Seat:
    """Whose view narrows ``seat``'s cards: a defender's partner his own; any other seat of the side (the claimer,
    or dummy, whose cards declarer plays) the claimer's."""
    return seat if not partner_is_dummy and seat == claimer.partner else claimer


def view(masks: tuple[int, ...], unaware: frozenset, voids: frozenset[tuple[Seat, Suit]], claimer: Seat,
         partner_is_dummy: bool = True, dummy: Seat | None = None, own: bool = False) -> View:
    """The claimer's view at a node: the hands (as masks), the cards he is unaware of, the show-outs so far. With
    ``own`` (a defender's claim), his partner's view instead: what the claimer sees and partner's own hand, every
    card out known of."""
    seen = seen_seats(claimer, partner_is_dummy, dummy)
    if own and not partner_is_dummy:
        seen, unaware = seen | {claimer.partner}, frozenset()
    hidden = 0
    for s in SEATS:
        if s not in seen:
            hidden |= masks[IDX[s]]
    if unaware:
        hidden &= ~mask_of(unaware)
    return View(seen, (claimer, claimer.partner), masks, hidden, voids)


# -- what the claimer perceives at a node of a question (``Question``): each reads the view of the seat whose card it
# narrows or licenses (``viewer``: a defender's partner his own, every other seat of the side the claimer's); ``seat``
# None is the claimer's, for what is about his claim itself (``guess_needed``, a stated line's conditions and state)

def unaware(q: Question, node: Node, seat: Seat | None) -> frozenset[Card]:
    """The cards out the viewer of ``seat`` does not know of: the claimer's (70C); his partner knows of all."""
    return frozenset() if seat is not None and seat == q.own_view else node.unaware


def seen_opp(q: Question, node: Node, suit: Suit, seat: Seat | None = None) -> list[Card]:
    """The cards of ``suit`` an opponent may hold as ``seat``'s viewer sees it (highest first)."""
    x = SUIT_NO[suit]
    return lane_cards(q.view(node, seat).against(suit), x)[::-1]


def hidden(q: Question, node: Node, suit: Suit, seat: Seat | None = None) -> list[Card]:
    """The cards of ``suit`` outside the viewer's view that he knows of (highest first)."""
    return lane_cards(q.view(node, seat).hidden_in(suit), SUIT_NO[suit])[::-1]


def seen_opp_top(q: Question, node: Node, x: int, seat: Seat | None = None) -> int:
    """The highest rank of suit number ``x`` an opponent may hold as the viewer sees it (0: none)."""
    return q.view(node, seat).opp_tops[x]


def perceived_master(q: Question, node: Node, card: Card, seat: Seat | None = None) -> bool:
    """``card`` is above every card of its suit an opponent may hold, as ``seat``'s viewer sees it."""
    return card.rank > seen_opp_top(q, node, card.code >> 4, seat)


def side_has_master(q: Question, node: Node, suit: Suit, seat: Seat | None = None) -> bool:
    a, b = (IDX[s] for s in q.side.seats)
    x = SUIT_NO[suit]
    lane = ((node.masks[a] | node.masks[b]) >> (16 * x)) & LANE
    return bool(lane) and lane.bit_length() - 1 > seen_opp_top(q, node, x, seat)


def shown_out(q: Question, node: Node, suit: Suit) -> bool:
    return any((s, suit) in node.voids for s in q.side.other.seats)


def perceived_equal(q: Question, node: Node, seat: Seat, card: Card) -> list[Card]:
    """Cards of ``seat`` in the suit with no card of another hand he knows of between them and ``card``."""
    blind = unaware(q, node, seat)
    others = sorted([c.rank for s in SEATS if s != seat for c in node.hand(s)
                     if c.suit == card.suit and c not in blind]
                    + [c.rank for c in node.trick if c.suit == card.suit])
    out = []
    for c in sorted(node.hand(seat), key=lambda c: (-(c.code >> 4), c.rank)):
        if c.suit != card.suit:
            continue
        lo, hi = sorted((c.rank, card.rank))
        if not any(lo < r < hi for r in others):
            out.append(c)
    return out
