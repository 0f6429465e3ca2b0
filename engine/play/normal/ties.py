"""The ties: among equally good cards (double-dummy ties) of the claiming side, those a player without sight of the
hidden hands could choose, as functions of the claimer's view and the node. A tie is only narrowed, never emptied."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claimlaw.facts import Card, Seat

from .licensing import (
    cash_first,
    conceding,
    crossing,
    equal_overtake,
    guards_honour,
    keepers,
    length_winners,
    partner_takes,
    strands,
    unblock_card,
    under_70d2,
    winning_lead,
    wins_trick,
)
from .node import Node
from .view import perceived_master, seen_opp

if TYPE_CHECKING:
    from .question import Question


def ties(q: Question, node: Node, seat: Seat, dd: list[Card], legal: list[Card]) -> list[Card]:
    """Equally good cards (double-dummy ties) narrowed to those a player without sight of the hidden hands
    could choose, never to none (so W <= double dummy holds). In the middle of a trick: nobody ruffs partner's
    sure winner; following when he cannot win the trick (no card of his beats it, or partner's card wins it
    as he sees it, or partner, still to play, takes it whatever he plays: ``partner_takes``), the lowest card;
    discarding, no card he counts as a winner of a side suit, top or length (``length_winners``), nor his only entry
    to partner's winners, while he holds a side-suit loser; holding none, no master (nor that entry) while he holds
    another side-suit card; and of a side suit its lowest card.
    On lead: no trump when he sees no trump out, while he holds a card of another suit; holding a side-suit winner
    an opponent's trump could ruff, his side holding no trump he sees (``cash_first``), that winner first."""
    if not node.trick:
        if q.trump and not seen_opp(q, node, q.trump, seat):
            dd = [c for c in dd if c.suit != q.trump] or dd
        if not conceding(q, node):
            # able to lead a card he sees win the trick, he leads one: a loser is led only as a conceded trick,
            # at the side's first lead after the claim or its last (EBU claims notes), so never by a claim of
            # every trick, nor once the side has led, nor once the opponents have won the tricks it concedes
            dd = [c for c in dd if winning_lead(q, node, seat, c)] or dd
        if cash_first(q, node, seat):  # a winner an opponent's trump could ruff is cashed before the lead goes
            dd = [c for c in dd if c.suit != q.trump and perceived_master(q, node, c, seat)] or dd
        return entries_and_unblocking(q, node, seat, dd)
    led = node.trick[0].suit
    w_seat, w_card = q.trick_winner(node)
    partner_sure = w_seat == seat.partner and wins_trick(q, node, seat, w_card)
    if partner_sure and q.trump and led != q.trump and any(c.suit != q.trump for c in legal):
        dd = [c for c in dd if c.suit != q.trump] or dd
    if legal[0].suit == led:  # following
        low = min(legal, key=lambda c: c.rank)
        if partner_sure:
            low = unblock_card(q, node, seat, legal, w_seat, w_card) or low
        if partner_sure or not any(q.beats(c, w_card) for c in legal) or partner_takes(q, node, seat, w_card):
            return [c for c in dd if c == low] or dd
        # he holds a card that surely wins the trick: he does not give up a trick he sees as won
        sure = [c for c in legal if q.beats(c, w_card) and wins_trick(q, node, seat, c)]
        got = [c for c in dd if c in sure]
        if got:
            return got
        eq = equal_overtake(q, node, seat, legal, w_seat, w_card)
        return [c for c in dd if c == eq] or dd
    hand = node.hand(seat)
    side = [c for c in hand if c.suit != q.trump]
    keep = keepers(q, node, seat)
    if under_70d2(q):
        # 70D2: the guard of an honour is kept while he holds a card of another side suit, among ties as licence 7
        # keeps it out of his discards (fourth review, row 29: ♥Q4 over dummy's ♥K6, the ♥4 thrown keeping ♣QT),
        # but not by throwing his only entry to partner's winners (own review 2026-11-28c, sound row 7: West's ♦4)
        guards = {x for x in {c.suit for c in side} if guards_honour(q, node, seat, x)}
        rest = [c for c in dd if c.suit not in guards and (c not in keep or perceived_master(q, node, c, seat))]
        if rest:
            dd = rest
    counted = keep | length_winners(q, node, seat)
    if any(c not in counted for c in side):  # a loser held: no winner, top or length (nor the only entry), thrown
        dd = [c for c in dd if c.suit == q.trump or c not in counted] or dd
    elif any(c not in keep for c in side):  # only winners: a length winner before a top winner (or the only entry)
        dd = [c for c in dd if c.suit == q.trump or c not in keep] or dd
    elif not partner_sure:  # no loser held: he ruffs rather than throw a winner
        dd = [c for c in dd if c.suit == q.trump] or dd
    bottom = {x: min(c.rank for c in side if c.suit == x) for x in {c.suit for c in side}}
    return [c for c in dd if c.suit == q.trump or c.rank == bottom[c.suit]] or dd


def entries_and_unblocking(q: Question, node: Node, seat: Seat, dd: list[Card]) -> list[Card]:
    """Among equal leads (partner a hand he sees): no crossing to partner's master that strands his winners
    (``crossing``, ``_strands``); and in a suit both hands hold, the short hand's honour is played on
    a round of its own, first: from the short hand, when partner holds a card above his top one, only that top
    card; from the long hand, when partner's top card there is a master as he sees it and below his own top,
    only his lowest card, to it. So his honour does not fall later under partner's (EBU Appeal Focus 2011, 6NT:
    ♦Q8 opposite ♦AKJ976 with the ten four times guarded needs the queen on a round of its own)."""
    if seat.partner not in q.view(node, seat).seen_seats:
        return dd
    hand, partner = node.hand(seat), node.hand(seat.partner)
    # no crossing to partner's master that strands his own winners or leaves them blocking (the entries
    # principle of the crossing licence, design.md: a coherent plan keeps a way back and unblocks first)
    dd = [c for c in dd if not crossing(q, node, seat, c) or not strands(q, node, seat, c)] or dd
    out = []
    for c in dd:
        mine = [h.rank for h in hand if h.suit == c.suit]
        theirs = [p for p in partner if p.suit == c.suit]
        if (theirs and min(p.rank for p in theirs) > c.rank and c.rank != min(mine)
                and perceived_master(q, node, c, seat)):
            continue  # a winner of his led under partner's, all higher: two winners on one trick, avoidably
        if theirs and len(theirs) > len(mine) and max(p.rank for p in theirs) > max(mine) and c.rank != max(mine):
            continue
        if theirs and len(theirs) < len(mine):
            top = max(theirs, key=lambda p: p.rank)
            if top.rank < max(mine) and perceived_master(q, node, top, seat) and c.rank != min(mine):
                continue
        out.append(c)
    return out or dd
