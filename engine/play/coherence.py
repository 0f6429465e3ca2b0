"""Coherence of a witness line as the claimer sees it (issue 26, item 8): a check any line can be put through.

A line is incoherent where a card of the claiming side's restricted hands is one no player seeing what he sees
(engine/play/normal/view.py) would choose:

* ``winner_discarded`` — he discards a card he sees as a winner of a side suit while he holds a side-suit card he
  sees as a loser, neither a winner nor his only entry to partner's winners (White Book 8.70.6 allows it only to
  a claimer fooled by a card he is unaware of: a card he does not see as a winner is not one here), unless that
  card was his only best play;
* ``guess_in_view`` — following, he plays a card that an opponent still to play is known, in his view, to beat
  (a card in dummy, or one a show-out places) to win the trick, while he holds a card of the suit nobody still
  to play may beat: a "finesse" against a card he can see (unless it was his only best play);
* ``line_left`` — while his stated line lasts, he plays a card it does not name there (70D1).

A card the stated line names is never a fault: he is held to what he said (a winner he said he would discard).
"""

from __future__ import annotations

from dataclasses import dataclass

from claimlaw.facts import SEATS, Card, Position, Side

from .model import NormalPlayModel
from .normal.licensing import keepers, wins_trick
from .normal.line import line_moves
from .normal.view import perceived_master
from .search import Node, Searcher, dealt_counts


@dataclass(frozen=True)
class Fault:
    kind: str
    card: Card
    words: str


def check_line(pos: Position, side: Side, model: NormalPlayModel, cards: list[Card], values: object) -> list[Fault]:
    """The faults of the claiming side's cards in ``cards`` (the line from ``pos``, every seat's cards in order).
    ``values``: what gives the double-dummy value of each card at a node (a PlayCore, whose ``values`` excuse a card
    that is the only best play); the caller passes it, so this module needs no solver and the core can import it."""
    core = values
    restricted = {model.claimer}
    if model.partner_is_dummy or model.on("partner_restricted"):
        restricted.add(model.claimer.partner)
    node = Node(hands=tuple(frozenset(pos.hands[s]) for s in SEATS), leader=pos.leader, trick=tuple(pos.trick),
                unaware=frozenset(model.unaware_of) & frozenset(c for h in pos.hands.values() for c in h),
                last_led=None, voids=frozenset((s, x) for s, xs in pos.shown_out.items() for x in xs))
    s = Searcher(trump=pos.trump, side=side, model=model, restricted=frozenset(restricted), line=model.line,
                 dealt=dealt_counts(pos),
                 values=lambda n: core.values(n, pos.trump))  # type: ignore[attr-defined]
    out: list[Fault] = []
    for card in cards:
        seat = node.to_move
        if seat in restricted and seat.side == side:
            out += _faults(s, node, card)
        node, _ = s.play(node, card)  # the play marks the stated line's steps done (``Searcher.advance_line``)
    return out


def _only_best(s: Searcher, node: Node, card: Card) -> bool:
    vals = s.values(node)
    best = max(vals.values())
    return [c for c, v in vals.items() if v == best] == [card]


def _faults(s: Searcher, node: Node, card: Card) -> list[Fault]:
    seat = node.to_move
    hand = node.hand(seat)
    out: list[Fault] = []
    line = line_moves(s, node, seat, s.legal(node, seat)) if s.line is not None else None
    if line is not None and card not in line:
        out.append(Fault("line_left", card, f"{seat.long_name} plays {card.pretty} while his stated line names "
                                            f"{', '.join(c.pretty for c in line)}"))
    if line is not None and card in line:
        return out  # the card his own statement names (70D1): coherent with what he said, whatever it costs
    if not node.trick:
        return out
    led = node.trick[0].suit
    follow = sorted((c for c in hand if c.suit == led), key=lambda c: c.rank)
    if not follow and card.suit != s.trump:
        keep = keepers(s, node, seat)
        losers = [c for c in hand if c.suit != s.trump and c not in keep]
        if perceived_master(s, node, card, seat) and losers and not _only_best(s, node, card):
            out.append(Fault("winner_discarded", card,
                             f"{seat.long_name} discards {card.pretty}, a winner as he sees it, keeping "
                             f"{', '.join(c.pretty for c in losers)}"))
    w_seat, w_card = s.trick_winner(node)
    if follow and s.beats(card, w_card):
        v = s.view(node, seat)  # the view of the hand that plays (a defender's partner his own)
        later = [x for x in (seat.next, seat.next.next, seat.next.next.next)[:3 - len(node.trick)]
                 if x.side != s.side]
        seen_beaten = any(v.must_hold(x, led, card.rank) for x in later)
        sure = [c for c in follow if s.beats(c, w_card) and wins_trick(s, node, seat, c)]
        if seen_beaten and sure and card not in sure and not _only_best(s, node, card):
            out.append(Fault("guess_in_view", card,
                             f"{seat.long_name} plays {card.pretty}, which a card in his view beats, holding "
                             f"{sure[0].pretty}"))
    return out
