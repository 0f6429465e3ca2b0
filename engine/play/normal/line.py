"""The stated-line follower (70D1): while it lasts the claimer is held to his stated line; a step is in force once its
condition is seen to hold. The side's lead records the steps it followed (``Node.line_lead``): the rest of that trick
reads them (third hand's card in a finesse, the ruff or discard of a ruffing finesse, the discard named on winners).
A step that can no longer be followed is done, and best play and the licences take over (WBFLC 2001-11-01 #3)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from claimlaw.facts import Card, Seat, Suit
from claimlaw.facts import Step as LineStep

from ..bits import SUIT_NO
from .licensing import equal_winners, finesse_card, tenace, wins_trick
from .node import Node
from .view import perceived_master, seen_opp_top, side_has_master

if TYPE_CHECKING:
    from .question import Question

WINNERS = ("cash", "draw_trumps", "play")  # steps whose winners a stated discard is made on


def step_bound(q: Question, i: int) -> int:
    """The step whose winners discard step ``i`` is made on: the nearest earlier cash, draw-trumps or play
    step ("discard X on the Ys" is read as cash the Ys, then discard X); -1 when there is none."""
    assert q.line is not None
    for j in range(i - 1, -1, -1):
        if q.line.steps[j].action in WINNERS:
            return j
    return -1


def condition_seen(q: Question, node: Node, st: LineStep) -> bool:
    """The step's condition is seen to hold: he has seen an opponent show out of the suit (or no card of it is
    hidden), so he knows how it lay, and it lay as stated ("4-1": the two opponents were dealt four and one), or,
    for a bad break stated, worse (5-0).
    No condition: True. A condition claimlaw cannot read (no suit, not two lengths), or one asked without the
    deal (``dealt``), is never seen."""
    cond = st.condition
    if cond is None:
        return True
    x = cond.suit
    if x is None or len(cond.lengths) != 2 or q.dealt is None:
        return False
    v = q.view(node)  # the claimer's: his own statement's condition, as he sees the play
    opps = q.side.other.seats
    if not any(v.known_void(o, x) for o in opps):
        return False
    dealt = sorted((q.dealt.get((o, x), 0) for o in opps), reverse=True)
    want = sorted(cond.lengths, reverse=True)
    if dealt == want:
        return True
    # a plan stated for a bad break (one opponent two or more cards longer) covers a worse one of the same suit:
    # "if 4-1, I ruff the fourth round" is his plan when they are 5-0 too (St Petersburg 2000, blakjak: the TD)
    return (sum(dealt) == sum(want) and want[0] - want[1] >= 2
            and dealt[0] - dealt[1] > want[0] - want[1])


def in_force(q: Question, node: Node) -> list[int]:
    """The steps the claimer is held to at ``node``: those not done whose condition he has seen hold; of an
    ordered line the first of them, with the discards made on its winners."""
    if q.line is None or node.line_off:
        return []
    steps = q.line.steps
    pending = [i for i in range(len(steps)) if i not in node.line_done and condition_seen(q, node, steps[i])]
    if not q.line.ordered or not pending:
        return pending
    first = pending[0]
    return [first] + [i for i in pending[1:] if steps[i].action == "discard" and step_bound(q, i) == first]


def led_steps(q: Question, node: Node, seat: Seat, card: Card) -> frozenset[int]:
    """The steps in force whose lead ``card`` is (``seat`` on lead at ``node``)."""
    return frozenset(i for i in in_force(q, node) if card in lead_cards(q, node, seat, i))


def line_moves(q: Question, node: Node, seat: Seat, legal: list[Card]) -> list[Card] | None:
    """Cards the stated line requires here, or None when it says nothing (or has broken down). On lead, the
    leads of the steps in force; in a trick the side led by one of them, partner's card the step names."""
    force = in_force(q, node)
    if not force:
        return None
    cards: list[Card] = []
    if not node.trick:
        for i in force:
            cards += lead_cards(q, node, seat, i)
    elif node.leader.side == q.side and seat == node.leader.partner:
        for i in force:
            cards += third_cards(q, node, seat, i, legal)
    legal_cards = [c for c in dict.fromkeys(cards) if c in legal]
    return legal_cards or None


def next_named(q: Question, node: Node, st: LineStep) -> Card | None:
    """The first card a step names that is still held."""
    return next((c for c in st.cards if any(c in h for h in node.hands)), None)


def lead_cards(q: Question, node: Node, seat: Seat, i: int) -> list[Card]:
    """The leads step ``i`` allows ``seat`` (on lead)."""
    assert q.line is not None
    st = q.line.steps[i]
    hand = node.hand(seat)
    if st.action in ("cash", "play") and st.cards:
        # named cards, in the order named: the next one from this hand; a cash step's ("a heart to the king
        # and ace": the honours take the suit named next to them) also by a low card of its suit to it in
        # partner's hand. A play step names the cards a hand plays ("the ♦A, throwing the ♣K"): no crossing
        nxt = next_named(q, node, st)
        if nxt is None:
            return []
        if nxt in hand:
            return [nxt]
        low = [c for c in hand if c.suit == nxt.suit]
        if st.action == "cash" and nxt in node.hand(seat.partner) and low:
            return [min(low, key=lambda c: c.rank)]
        return []
    if st.action in ("cash", "draw_trumps"):
        x = q.trump if st.action == "draw_trumps" else st.suit
        mine = sorted((c for c in hand if c.suit == x), key=lambda c: -c.rank)
        if mine and perceived_master(q, node, mine[0], seat):
            out = [mine[0]]
            masters = [c for c in mine if perceived_master(q, node, c, seat)]
            if q.model.on("equal_small_any") and equal_winners(q, node, seat, masters, mine):
                out.extend(masters[1:])  # several small cards he sees as equal: any order
            return out
        if mine and any(c.suit == x and perceived_master(q, node, c, seat) for c in node.hand(seat.partner)):
            return [mine[-1]]
        return []
    if st.action == "finesse" and st.suit is not None:
        mine = sorted((c for c in hand if c.suit == st.suit), key=lambda c: c.rank)
        return [mine[0]] if mine and tenace(q, node, node.hand(seat.partner), st.suit, seat) else []
    if st.action == "ruffing_finesse":
        return ruffing_lead(q, node, seat, st)
    if st.action == "ruff":
        x = ruff_suit(q, st)
        mine = [c for c in hand if c.suit == x]
        if x is None or not mine or not can_ruff(q, node, seat.partner, x, st):
            return []  # partner cannot ruff it from here: the line waits (he crosses by best play or licence)
        return [min(mine, key=lambda c: c.rank)]
    return []


def ruff_suit(q: Question, st: LineStep) -> Suit | None:
    """The suit a ruff step ruffs: its own, else its condition's ("if clubs are 4-1 I ruff the fourth round")."""
    if st.suit is not None:
        return st.suit
    return st.condition.suit if st.condition is not None else None


def can_ruff(q: Question, node: Node, seat: Seat, x: Suit, st: LineStep) -> bool:
    """``seat`` is the hand the ruff step names (or any of the side's), void in ``x``, with a trump."""
    if not q.trump or x == q.trump or (st.hand is not None and st.hand != seat):
        return False
    hand = node.hand(seat)
    return not any(c.suit == x for c in hand) and any(c.suit == q.trump for c in hand)


def ruff_feasible(q: Question, node: Node, st: LineStep) -> bool:
    """Some hand of the side (the one the step names) holding a trump can still ruff a card of the step's suit led
    from partner's hand: it holds fewer cards of the suit than partner (it will be void first)."""
    x = ruff_suit(q, st)
    if x is None or not q.trump or x == q.trump:
        return False
    for s in q.side.seats:
        if st.hand is not None and st.hand != s:
            continue
        mine = sum(1 for c in node.hand(s) if c.suit == x)
        theirs = sum(1 for c in node.hand(s.partner) if c.suit == x)
        if mine < theirs and any(c.suit == q.trump for c in node.hand(s)):
            return True
    return False


def ruffing_lead(q: Question, node: Node, seat: Seat, st: LineStep) -> list[Card]:
    """A ruffing finesse's lead: partner void in the suit and holding a trump, the placed card (``card``, else
    the highest card of the suit an opponent may hold as he sees it) still out, the highest card of ``seat``
    below it (the card led through the opponent placed with it)."""
    x = st.suit
    if x is None or q.trump is None or x == q.trump:
        return []
    partner = node.hand(seat.partner)
    if any(c.suit == x for c in partner) or not any(c.suit == q.trump for c in partner):
        return []
    if st.card is not None:
        if not any(st.card in node.hand(o) for o in q.side.other.seats):
            return []
        top = st.card.rank
    else:
        top = seen_opp_top(q, node, SUIT_NO[x], seat)
    below = [c for c in node.hand(seat) if c.suit == x and c.rank < top]
    return [max(below, key=lambda c: c.rank)] if below else []


def third_cards(q: Question, node: Node, seat: Seat, i: int, legal: list[Card]) -> list[Card]:
    """Partner's card in a trick the side led (``seat`` the leader's partner), as step ``i`` names it."""
    assert q.line is not None
    st = q.line.steps[i]
    led = node.trick[0].suit
    void = legal[0].suit != led
    if st.action == "discard":
        j = step_bound(q, i)
        if (j >= 0 and j not in node.line_lead) or not void or (st.hand is not None and st.hand != seat):
            return []
        named = [c for c in st.cards if c in legal]
        if named or st.cards:
            return named
        if st.suit is None:
            return []
        low = [c for c in legal if c.suit == st.suit]
        return [min(low, key=lambda c: c.rank)] if low else []
    if i not in node.line_lead:
        return []
    w_seat, w_card = q.trick_winner(node)
    if st.action in ("cash", "play") and st.cards:
        # the next named card, if it wins the trick so far (a low card led to it, or an overtake): never one
        # that falls under the card just led ("the ace and king" from two hands are two tricks)
        nxt = next_named(q, node, st)
        return [nxt] if nxt is not None and nxt in legal and q.beats(nxt, w_card) else []
    if st.action == "finesse" and not void:
        named = [c for c in st.cards if c in legal and q.beats(c, w_card)]
        if named:
            return named[:1]
        fin = finesse_card(q, node, legal, w_card, seat, unstated=False)
        return [fin] if fin is not None else []
    if st.action == "ruff" and void and led == ruff_suit(q, st) and can_ruff(q, node, seat, led, st):
        if w_seat.side == q.side and wins_trick(q, node, seat, w_card):
            # partner's card wins the round as he sees it: a ruff is to win it, so the step is silent here
            # (St Petersburg 2000, blakjak: with 5-0, dummy's ♣7 over North's ♣6 is not ruffed; 12 tricks)
            return []
        over = [c for c in legal if c.suit == q.trump and q.beats(c, w_card)]
        return [min(over, key=lambda c: c.rank)] if over else []  # ruffed over by second hand: the line is silent
    if st.action == "ruffing_finesse" and void:
        if w_seat.side != q.side:  # second hand covered (or ruffed): ruff, as low as wins
            over = [c for c in legal if c.suit == q.trump and q.beats(c, w_card)]
            return [min(over, key=lambda c: c.rank)] if over else []
        # not covered: a loser goes, the lowest card of a suit he sees no winner in for his side
        suits = sorted({c.suit for c in legal if c.suit != q.trump}, key=lambda x: x.value)
        return [min((c for c in legal if c.suit == x), key=lambda c: c.rank)
                for x in suits if not side_has_master(q, node, x, seat)]
    return []


def advance_line(q: Question, node: Node, leader: Seat, trick: tuple[Card, ...], led: frozenset[int]) -> Node:
    """Mark steps done once a trick is complete (``trick`` from ``leader``; ``led``: the steps its lead
    followed). A step that can no longer be followed is done, so the line falls silent there and best play
    and the licences take over (WBFLC 2001-11-01 #3)."""
    if q.line is None or node.line_off:
        return node
    done = set(node.line_done)
    steps = q.line.steps
    for i, st in enumerate(steps):
        if i in done:
            continue
        if st.action in ("cash", "play") and st.cards:
            if next_named(q, node, st) is None:
                done.add(i)
        elif st.action == "cash" and st.suit is not None and not side_has_master(q, node, st.suit):  # his view
            done.add(i)
        elif st.action == "draw_trumps" and not [c for s in q.side.other.seats for c in node.hand(s)
                                                if c.suit == q.trump and c not in node.unaware]:
            done.add(i)
        elif st.action in ("finesse", "ruffing_finesse") and i in led:
            done.add(i)
        elif st.action == "ruff":
            if i in led or not ruff_feasible(q, node, st):
                done.add(i)  # ruffed (the trick its lead started is over), or no longer possible
        elif st.action in ("cross", "concede"):
            done.add(i)
    for i, st in enumerate(steps):  # a discard once its cards are gone, or its winners are
        if i in done or st.action != "discard":
            continue
        j = step_bound(q, i)
        thrown = (leader.side == q.side and (j < 0 or j in led) and trick[2].suit != trick[0].suit
                  and trick[2].suit == st.suit)
        if j < 0 or j in done or (st.cards and not any(c in h for c in st.cards for h in node.hands)) or (
                not st.cards and thrown):
            done.add(i)
    return replace(node, line_done=frozenset(done))
