"""The exact search for W: the fewest tricks the claiming side takes over its normal lines.

Every card of the claiming side is a normal one (double-dummy optimal, or licensed by the model);
every card of the other side is any legal card. Both minimise, so "can the claimer be held to at
most k?" is a search for one line: a depth-first search with

* a double-dummy shortcut: if the claiming side takes at most k from here even with best play,
  the best-play line itself is the witness (it uses only normal cards);
* a table of failed (state, k) pairs, keyed on the exact cards and the claimer's perception;
* equivalent opponent cards collapsed (adjacent cards of one hand, none of them unseen);
* licensed deviations tried first, and W found by lowering k from the double-dummy value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from claimlaw.facts import SEATS, SUITS, Card, Line, Position, Seat, Side, Suit
from claimlaw.facts import Step as LineStep

from .bits import LANE, SUIT_NO, lane_cards, mask_of, ranks_of
from .dds import Disagreement
from .model import GUIDELINES, NormalPlayModel
from .view import View, view
from .view import viewer as view_of

IDX = {s: i for i, s in enumerate(SEATS)}
BY_LETTER = (3, 2, 1, 0)  # suit numbers in the order of their letters (C, D, H, S): the order cards are tried in


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

    def __post_init__(self) -> None:
        if not self.masks:
            object.__setattr__(self, "masks", tuple(mask_of(h) for h in self.hands))

    @property
    def to_move(self) -> Seat:
        return SEATS[(IDX[self.leader] + len(self.trick)) & 3]

    def hand(self, seat: Seat) -> frozenset[Card]:
        return self.hands[IDX[seat]]


@dataclass
class Step:
    card: Card
    seat: Seat
    licence: str | None  # None: double-dummy optimal or an opponent's card


class Budget(Exception):
    """The search used up its node budget before proving the count."""


@dataclass
class Searcher:
    """One W question: the position, the side, the model, and the caches."""

    trump: Suit | None
    side: Side
    model: NormalPlayModel
    values: Callable[[Node], dict[Card, int]]  # DDS: card -> tricks for the side to move
    above: Callable[[Node, int, int], bool] | None = None  # (node, k, effort): a floor above k on every normal line?
    floor_tricks: int = 6    # ``above`` is asked with at most this many tricks left, without limit
    probe_tricks: int = 7    # and, up to this many, allowed ``floor_effort`` positions (then it says no)
    floor_effort: int = 2_000
    work: Callable[[], int] | None = None  # positions our solver visited since last asked (charged to the budget)
    # positions of ours charged as one node: ~40 us of the Python search's against ~65 ns a position when set;
    # with partition search a position costs ~125 ns (2026-11-24), but 400 proved 3 fewer benchmark positions
    # for budget-bound times of 2.1-3.2 s instead of 3.1-4.7 s (4.6 s before): kept
    work_per_node: int = 600
    # W by our solver for a claimer who sees every card and states no line: (node, below or -1, limit in positions)
    # -> (count, settled, the cards of its line up to where best play takes over); checked against ``moves``
    whole: Callable[[Node, int, int], tuple[int, bool, list[Card]]] | None = None
    whole_tricks: int = 11  # ``whole`` answers at nodes with at most this many tricks left (DDS's values above) ...
    whole_tricks_below: int = 10  # ... or this many in a ``below`` question (see ``_hand_over``)
    whole_root: bool = True  # W's depth-first passes are ``whole``'s from the root (see ``_whole_line``)
    # ``whole`` for the same model without its stated line: it answers a node at a trick's start once the line is
    # over (``line_over``), where the normal cards are the line-free model's (the claimer unaware of nothing there)
    after_line: Callable[[Node, int, int], tuple[int, bool, list[Card]]] | None = None
    restricted: frozenset[Seat] = frozenset()  # seats whose cards must be normal
    all_free: bool = False                     # cannot-lose: every card of the side is free
    failed: dict[tuple, int] = field(default_factory=dict)
    nodes: int = 0
    line: Line | None = None
    dealt: dict[tuple[Seat, Suit], int] | None = None  # each seat's cards of each suit at the deal (``dealt_counts``)
    budget: int = 150_000
    exact: bool = True
    interrupted: bool = False  # the user stopped the search (Ctrl-C): ``exact`` is False
    on_nodes: Callable[[int], None] | None = None  # told the count of positions now and then (a progress line)
    report_at: int = 1 << 14  # the next count at which ``on_nodes`` is told
    use_table: bool = True
    use_dd: bool = True
    use_bound: bool = True
    use_distinct: bool = True  # the claiming side's equal cards tried once
    solve_depth: int = 16      # plies from the root at which the opponents' cards are ordered by the solver
    probe_depth: int = 8       # plies from the root at which siblings share the budget (see ``reach``)
    probe_start: int = 64      # the first share; multiplied by 4 each round
    probe_share: float = 0.75  # of the budget for the sharing pass of a query; the rest goes plain depth first
    whole_probe_share: float = 0.25  # the same, for W's queries when the depth-first pass is ``whole``'s
    limit: int = 0             # the node count at which the innermost running share ends
    _below: int | None = None  # the running ``worst``'s ``below``

    def __post_init__(self) -> None:
        self._mine = frozenset(IDX[s] for s in self.side.seats)
        self._suit_codes: dict[tuple, tuple[int, ...]] = {}  # one suit's part of the key, by its lanes
        self._side_idx = tuple(IDX[s] for s in self.side.seats)
        self._opp_idx = tuple(IDX[s] for s in self.side.other.seats)
        self._trump_no = SUIT_NO[self.trump] if self.trump is not None else -1
        self._work = 0
        self._views: dict[tuple, View] = {}
        # the seat that reads a view of its own (view.py ``viewer``): a defender's partner (None for a declarer's claim)
        m = self.model
        p = m.claimer.partner
        self._own_view = p if view_of(m.claimer, m.partner_is_dummy, p) == p else None
        self._named_of: tuple[Line | None, int] = (None, 0)

    # -- basic bridge ---------------------------------------------------------------------
    def winner(self, leader: Seat, cards: tuple[Card, ...]) -> Seat:
        led = cards[0].suit
        best, who, seat = cards[0], leader, leader
        for c in cards[1:]:
            seat = seat.next
            if (c.suit == best.suit and c.rank > best.rank) or (self.trump and c.suit == self.trump
                                                                   and best.suit != self.trump):
                best, who = c, seat
        del led
        return who

    def trick_winner(self, node: Node) -> tuple[Seat, Card]:
        """Who is winning the trick in progress, and with which card."""
        w = self.winner(node.leader, node.trick)
        return w, node.trick[(IDX[w] - IDX[node.leader]) % 4]

    def legal(self, node: Node, seat: Seat) -> list[Card]:
        """The cards ``seat`` may play: by suit letter, then rank (the order moves are tried in)."""
        m = node.masks[IDX[seat]]
        if node.trick:
            x = SUIT_NO[node.trick[0].suit]
            lane = (m >> (16 * x)) & LANE
            if lane:
                return lane_cards(lane, x)
        out: list[Card] = []
        for x in BY_LETTER:
            lane = (m >> (16 * x)) & LANE
            if lane:
                out.extend(lane_cards(lane, x))
        return out

    def play(self, node: Node, card: Card) -> tuple[Node, int]:
        """The node after ``card``, and 1 if it completed a trick the claiming side won."""
        seat = node.to_move
        i = IDX[seat]
        hands = list(node.hands)
        hands[i] = node.hands[i] - {card}
        masks = list(node.masks)
        masks[i] ^= 1 << card.code
        voids = node.voids
        if node.trick and card.suit != node.trick[0].suit:
            voids = voids | {(seat, node.trick[0].suit)}
        unaware = node.unaware - {card} if card in node.unaware else node.unaware  # a card once played is seen
        trick = node.trick + (card,)
        last_led = node.last_led
        line_lead = node.line_lead
        if not node.trick:
            line_lead = frozenset()
            if seat.side == self.side:
                last_led = card.suit
                if self.line is not None and seat in self.restricted:
                    line_lead = self.led_steps(node, seat, card)
        if len(trick) < 4:
            return Node(tuple(hands), node.leader, trick, unaware, last_led, voids, node.line_done, node.line_off,
                        line_lead, tuple(masks)), 0
        w = self.winner(node.leader, trick)
        child = Node(tuple(hands), w, (), unaware, last_led, voids, node.line_done, node.line_off, frozenset(),
                     tuple(masks))
        if self.line is not None:
            child = self.advance_line(child, node.leader, trick, line_lead)
        return child, int(w.side == self.side)

    # -- perception: everything below reads a view (engine/play/view.py): that of the seat whose card it narrows or
    # licenses (view.py ``viewer``: a defender's partner his own, every other seat of the side the claimer's); ``seat``
    # None is the claimer's, for what is about his claim itself (``guess_needed``, a stated line's conditions and state)
    def view(self, node: Node, seat: Seat | None = None) -> View:
        """The view at ``node`` that narrows ``seat``'s cards (``viewer``; None: the claimer's)."""
        own = seat is not None and seat == self._own_view
        key = (node.masks, node.unaware, node.voids, own)
        got = self._views.get(key)
        if got is None:
            if len(self._views) > 100_000:
                self._views.clear()
            m = self.model
            got = self._views[key] = view(node.masks, node.unaware, node.voids, m.claimer, m.partner_is_dummy,
                                          m.dummy, own)
        return got

    def unaware(self, node: Node, seat: Seat | None) -> frozenset[Card]:
        """The cards out the viewer of ``seat`` does not know of: the claimer's (70C); his partner knows of all."""
        return frozenset() if seat is not None and seat == self._own_view else node.unaware

    def seen_opp(self, node: Node, suit: Suit, seat: Seat | None = None) -> list[Card]:
        """The cards of ``suit`` an opponent may hold as ``seat``'s viewer sees it (highest first)."""
        x = SUIT_NO[suit]
        return lane_cards(self.view(node, seat).against(suit), x)[::-1]

    def hidden(self, node: Node, suit: Suit, seat: Seat | None = None) -> list[Card]:
        """The cards of ``suit`` outside the viewer's view that he knows of (highest first)."""
        return lane_cards(self.view(node, seat).hidden_in(suit), SUIT_NO[suit])[::-1]

    def _seen_opp_top(self, node: Node, x: int, seat: Seat | None = None) -> int:
        """The highest rank of suit number ``x`` an opponent may hold as the viewer sees it (0: none)."""
        return self.view(node, seat).top_against(SUITS[x])

    def perceived_master(self, node: Node, card: Card, seat: Seat | None = None) -> bool:
        """``card`` is above every card of its suit an opponent may hold, as ``seat``'s viewer sees it."""
        return card.rank > self._seen_opp_top(node, card.code >> 4, seat)

    def side_has_master(self, node: Node, suit: Suit, seat: Seat | None = None) -> bool:
        a, b = self._side_idx
        x = SUIT_NO[suit]
        lane = ((node.masks[a] | node.masks[b]) >> (16 * x)) & LANE
        return bool(lane) and lane.bit_length() - 1 > self._seen_opp_top(node, x, seat)

    def shown_out(self, node: Node, suit: Suit) -> bool:
        return any((s, suit) in node.voids for s in self.side.other.seats)

    def perceived_equal(self, node: Node, seat: Seat, card: Card) -> list[Card]:
        """Cards of ``seat`` in the suit with no card of another hand he knows of between them and ``card``."""
        unaware = self.unaware(node, seat)
        others = sorted([c.rank for s in SEATS if s != seat for c in node.hand(s)
                         if c.suit == card.suit and c not in unaware]
                        + [c.rank for c in node.trick if c.suit == card.suit])
        out = []
        for c in sorted(node.hand(seat), key=lambda c: (-(c.code >> 4), c.rank)):
            if c.suit != card.suit:
                continue
            lo, hi = sorted((c.rank, card.rank))
            if not any(lo < r < hi for r in others):
                out.append(c)
        return out

    # -- the licences ----------------------------------------------------------------------
    def licences(self, node: Node, seat: Seat) -> dict[Card, str]:
        m = self.model
        out: dict[Card, str] = {}
        hand = node.hand(seat)
        partner = node.hand(seat.partner)

        def add(c: Card, why: str) -> None:
            out.setdefault(c, why)

        if not node.trick:
            suits = sorted({c.suit for c in hand}, key=lambda s: s.value)
            if (m.on("continue_suit") and node.last_led in suits and node.last_led is not None
                    and self.side_has_master(node, node.last_led, seat)):
                suits = [node.last_led]
            # an opponent he knows holds a trump could ruff: a claimer aware of it draws trumps first
            trumps_seen = bool(self.trump) and bool(self.seen_opp(node, self.trump, seat))  # type: ignore[arg-type]
            # a tenace he can see (not a defender's in partner's hand; a defender's partner sees the claimer's)
            partner_seen = seat.partner in self.view(node, seat).seen_seats
            for x in suits:
                mine = sorted((c for c in hand if c.suit == x), key=lambda c: -c.rank)
                masters = [c for c in mine if self.perceived_master(node, c, seat)]
                partner_x = [c.rank for c in partner if c.suit == x]
                if masters and partner_x and min(partner_x) > masters[0].rank:
                    # leading it would make partner overtake (his cards there are all higher): the coherent
                    # plan cashes the suit from partner's hand, so the lead is a low card toward it
                    masters = []
                crash = bool(masters) and bool(partner_x) and self._crashes(node, seat, x, len(masters), len(mine),
                                                                          partner_x)
                if crash:
                    # his top card would fell partner's honours and cost the suit a trick (A2 opposite a bare K):
                    # the licence to cash it is withheld (and none is given in its place: crossing with a low card
                    # is normal only as best play)
                    masters = []
                idle_trumps = x == self.trump and not trumps_seen
                # ACBL LC 2019 #4: with no trump out (as he sees it) he is not deemed to lead trumps to his
                # disadvantage: a trump lead is then normal only as best play
                if m.on("any_suit_order") and (not trumps_seen or x == self.trump) and not idle_trumps:
                    if masters:
                        if m.on("equal_small_any") and self.equal_winners(node, seat, masters, mine):
                            for c in masters:
                                add(c, "equal_small_any")
                        add(masters[0], "any_suit_order")
                        if not m.on("top_down"):
                            for c in masters:
                                add(c, "any_suit_order")
                    elif not crash and any(c.suit == x and self.perceived_master(node, c, seat) for c in partner):
                        low = mine[-1]
                        # (not a winner of his own crashed under partner's)
                        if (not (self.perceived_master(node, low, seat) and min(partner_x) > low.rank)
                                and not self._strands(node, seat, low)):
                            add(low, "any_suit_order")
                if (self.guess_licensed() and partner_seen and not self.shown_out(node, x)
                        and self.real_guess(node, partner, x, seat)
                        and not self._strands(node, seat, mine[-1], blocking_only=True)):
                    add(mine[-1], "finesse_or_drop")
                # "now or at the end": the side's first lead after the claim (at the end the loser is its last
                # card, led by force), not any lead in between
                if (m.on("concede_now_or_end") and m.concedes > 0 and node.last_led is None
                        and not self.side_has_master(node, x, seat)):
                    add(mine[-1], "concede_now_or_end")
            return out
        led = node.trick[0].suit
        follow = sorted((c for c in hand if c.suit == led), key=lambda c: c.rank)
        w_seat, w_card = self.trick_winner(node)
        # partner's card wins the trick as he sees it: nobody still to play can beat it
        partner_winning = w_seat is not None and w_seat.side == self.side and w_card is not None \
            and self.wins_trick(node, seat, w_card)
        if follow:
            # partner's card surely wins: the lowest; else his cheapest card that surely wins; else, an opponent
            # winning the trick, his cheapest card that beats it (he plays to win it: a hidden card he cannot place
            # may lie with the opponent who has played); else the lowest
            over = [c for c in follow if self.beats(c, w_card) and self.wins_trick(node, seat, c, surely=False)]
            sure = [c for c in over if self.wins_trick(node, seat, c)]
            ub = self.unblock_card(node, seat, follow, w_seat, w_card) if partner_winning else None
            if ub is not None:
                add(ub, "follow_low")  # partner's last card of the suit: he overtakes rather than block his winners
            elif partner_winning or not over:
                add(follow[0], "follow_low")
            elif sure:
                add(sure[0], "follow_low")
            elif (eq := self.equal_overtake(node, seat, follow, w_seat, w_card)) is not None:
                add(eq, "follow_low")  # partner's last card of the suit: he overtakes with an equal, blocking nothing
            elif len(node.trick) == 2 and (w_seat.side != self.side or len(
                    [o for o in self.seen_opp(node, led, seat) if o.rank > w_card.rank]) > 1):
                # third hand, no sure winner, the trick an opponent's or partner's card two or more cards out may
                # beat (not partner's honour run as a finesse): third hand high, the lowest of his top cards; a
                # finesse is the 70E1 licence below, never a card several hidden cards beat
                add(min(self.perceived_equal(node, seat, follow[-1]), key=lambda c: c.rank), "follow_low")
            elif w_seat.side != self.side:
                add(over[0], "follow_low")
            else:
                add(follow[0], "follow_low")
            if (self.guess_licensed() and len(node.trick) == 2 and node.leader == seat.partner
                    and not self.shown_out(node, led)):
                fin = self.finesse_card(node, follow, w_card, seat)
                if fin is not None:  # the finesse card, or the top card (the drop)
                    add(fin, "finesse_or_drop")
                    add(follow[-1], "finesse_or_drop")
            if m.on("equal_small_any"):
                for c in list(out):
                    for e in self.perceived_equal(node, seat, c):
                        add(e, "equal_small_any")
            return out
        trumps = sorted((c for c in hand if self.trump and c.suit == self.trump), key=lambda c: c.rank)
        to_play = [seat.next, seat.next.next, seat.next.next.next][:3 - len(node.trick)]
        v = self.view(node, seat)
        overruff_seen = bool(self.trump) and any(v.may_hold(s, self.trump)  # type: ignore[arg-type]
                                                 for s in to_play if s.side != self.side)
        if trumps and not partner_winning and led != self.trump and overruff_seen:
            return out  # an opponent who may hold a trump, as he sees it, is still to play: only best play
        # partner, still to play, holds in his view a card that wins the trick: no ruff (ACBL LC 2019 #5 is about
        # ruffing an opponent's winner), he discards
        partner_wins_later = (seat.partner in to_play and seat.partner in v.seen_seats
                              and any(c.suit == led and self.beats(c, w_card) and self.perceived_master(node, c, seat)
                                      for c in node.hand(seat.partner)))
        if trumps and not partner_winning and led != self.trump and m.on("ruff_low") and not partner_wins_later:
            top_trump = max((c.rank for c in node.trick if c.suit == self.trump), default=0)
            over = [c for c in trumps if c.rank > top_trump]
            if over:
                add(over[0], "ruff_low")
                if m.on("equal_small_any"):
                    for e in self.perceived_equal(node, seat, over[0]):
                        add(e, "equal_small_any")
                return out
        suits = sorted({c.suit for c in hand if c.suit != self.trump}, key=lambda s: s.value)
        losers = [x for x in suits if not self.side_has_master(node, x, seat)]
        for x in losers:
            add(min((c for c in hand if c.suit == x), key=lambda c: c.rank), "discard")
        # a card he wrongly sees as a winner (a higher one is out, unseen): he may keep it and throw a real winner
        fooled = [c for c in hand if self.perceived_master(node, c, seat)
                  and any(u.suit == c.suit and u.rank > c.rank for u in self.unaware(node, seat))]
        if fooled and m.on("unaware_winner"):
            for x in suits:
                if all(c.suit != x for c in fooled):
                    add(min((c for c in hand if c.suit == x), key=lambda c: c.rank), "unaware_winner")
        return out

    def equal_winners(self, node: Node, seat: Seat, masters: list[Card], mine: list[Card]) -> bool:
        """He sees his masters of a suit as equal winners, to be cashed in any order (White Book 8.70.5): several
        small ones (none above nine), or every card he holds in the suit is one, partner holds no card between
        them and the holding is not solid at the top (7-5-4 opposite a void with the six forgotten; Q-5 with the
        ten forgotten). Solid at the top (his two top cards honours in sequence: A-K-5, K-Q-4) is cashed from the
        top (White Book 8.70.5: "especially with solidity"), as is a suit partner's cards break."""
        if all(c.rank <= 9 for c in masters):
            return True
        if len(masters) != len(mine):
            return False
        if len(mine) >= 2 and mine[1].rank >= 10 and mine[0].rank - mine[1].rank == 1:
            return False
        lo, hi = min(c.rank for c in masters), max(c.rank for c in masters)
        return not any(c.suit == masters[0].suit and lo < c.rank < hi for c in node.hand(seat.partner))

    def _ties(self, node: Node, seat: Seat, dd: list[Card], legal: list[Card]) -> list[Card]:
        """Equally good cards (double-dummy ties) narrowed to those a player without sight of the hidden hands
        could choose, never to none (so W <= double dummy holds). In the middle of a trick: nobody ruffs partner's
        sure winner; following when he cannot win the trick (no card of his beats it, or partner's card wins it
        as he sees it), the lowest card; discarding, no card he sees as a master of a side suit (nor his only
        entry to partner's winners) while he holds another side-suit card, and of a side suit its lowest card.
        On lead: no trump when he sees no trump out, while he holds a card of another suit."""
        if not node.trick:
            if self.trump and not self.seen_opp(node, self.trump, seat):
                dd = [c for c in dd if c.suit != self.trump] or dd
            if self.model.concedes == 0 or node.last_led is not None:
                # able to lead a card he sees win the trick, he leads one: a loser is led only as a conceded trick,
                # at the side's first lead after the claim or its last (EBU claims notes), so never by a claim of
                # every trick, nor once the side has led
                dd = [c for c in dd if self.winning_lead(node, seat, c)] or dd
            return self.entries_and_unblocking(node, seat, dd)
        led = node.trick[0].suit
        w_seat, w_card = self.trick_winner(node)
        partner_sure = w_seat == seat.partner and self.wins_trick(node, seat, w_card)
        if partner_sure and self.trump and led != self.trump and any(c.suit != self.trump for c in legal):
            dd = [c for c in dd if c.suit != self.trump] or dd
        if legal[0].suit == led:  # following
            low = min(legal, key=lambda c: c.rank)
            if partner_sure:
                low = self.unblock_card(node, seat, legal, w_seat, w_card) or low
            if partner_sure or not any(self.beats(c, w_card) for c in legal):
                return [c for c in dd if c == low] or dd
            # he holds a card that surely wins the trick: he does not give up a trick he sees as won
            sure = [c for c in legal if self.beats(c, w_card) and self.wins_trick(node, seat, c)]
            got = [c for c in dd if c in sure]
            if got:
                return got
            eq = self.equal_overtake(node, seat, legal, w_seat, w_card)
            return [c for c in dd if c == eq] or dd
        hand = node.hand(seat)
        side = [c for c in hand if c.suit != self.trump]
        keep = self.keepers(node, seat)
        if any(c not in keep for c in side):  # a loser held: no winner (nor the only entry) thrown
            dd = [c for c in dd if c.suit == self.trump or c not in keep] or dd
        elif not partner_sure:  # no loser held: he ruffs rather than throw a winner
            dd = [c for c in dd if c.suit == self.trump] or dd
        bottom = {x: min(c.rank for c in side if c.suit == x) for x in {c.suit for c in side}}
        return [c for c in dd if c.suit == self.trump or c.rank == bottom[c.suit]] or dd

    def entries_and_unblocking(self, node: Node, seat: Seat, dd: list[Card]) -> list[Card]:
        """Among equal leads (partner a hand he sees): no crossing to partner's master that strands his winners
        (``crossing``, ``_strands``); and in a suit both hands hold, the short hand's honour is played on
        a round of its own, first: from the short hand, when partner holds a card above his top one, only that top
        card; from the long hand, when partner's top card there is a master as he sees it and below his own top,
        only his lowest card, to it. So his honour does not fall later under partner's (EBU Appeal Focus 2011, 6NT:
        ♦Q8 opposite ♦AKJ976 with the ten four times guarded needs the queen on a round of its own)."""
        if seat.partner not in self.view(node, seat).seen_seats:
            return dd
        hand, partner = node.hand(seat), node.hand(seat.partner)
        # no crossing to partner's master that strands his own winners or leaves them blocking (the entries
        # principle of the crossing licence, design.md: a coherent plan keeps a way back and unblocks first)
        dd = [c for c in dd if not self.crossing(node, seat, c) or not self._strands(node, seat, c)] or dd
        out = []
        for c in dd:
            mine = [h.rank for h in hand if h.suit == c.suit]
            theirs = [p for p in partner if p.suit == c.suit]
            if theirs and len(theirs) > len(mine) and max(p.rank for p in theirs) > max(mine) and c.rank != max(mine):
                continue
            if theirs and len(theirs) < len(mine):
                top = max(theirs, key=lambda p: p.rank)
                if top.rank < max(mine) and self.perceived_master(node, top, seat) and c.rank != min(mine):
                    continue
            out.append(c)
        return out or dd

    def crossing(self, node: Node, seat: Seat, card: Card) -> bool:
        """Leading ``card`` crosses to partner: partner holds a master above it as he sees it, and ``card`` is no
        master, or partner's cards of the suit are all above it (he must overtake)."""
        px = [c for c in node.hand(seat.partner) if c.suit == card.suit]
        if not any(c.rank > card.rank and self.perceived_master(node, c, seat) for c in px):
            return False
        return not self.perceived_master(node, card, seat) or min(c.rank for c in px) > card.rank

    def winning_lead(self, node: Node, seat: Seat, card: Card) -> bool:
        """As he sees it, ``card`` led wins the trick for his side: it is a master, or partner (a hand he sees) holds a
        master of the suit, or, void in it, a trump to ruff with."""
        if self.perceived_master(node, card, seat):
            return True
        if seat.partner not in self.view(node, seat).seen_seats:
            return False
        px = [c for c in node.hand(seat.partner) if c.suit == card.suit]
        if px:
            return any(self.perceived_master(node, c, seat) for c in px)
        return bool(self.trump) and card.suit != self.trump and any(c.suit == self.trump
                                                                    for c in node.hand(seat.partner))

    def unblock_card(self, node: Node, seat: Seat, follow: list[Card], w_seat: Seat | None,
                     w_card: Card | None) -> Card | None:
        """Partner's sure winner is his last card of the suit (partner in view), this hand holds winners of it as he
        sees them, and partner has no way back to this hand (no card under one of its winners in another suit, nor,
        in a trump contract, a suit it can ruff): following low would block the suit, so he overtakes with his
        cheapest card that beats partner's, when he keeps a winner of the suit besides it (a player cashing a suit
        unblocks it: issue 26 names a suit blocked for good as a line nobody plays; the 6NT of EBU Appeal Focus
        2011). Declarer's claim only: he plays both hands; a defender's partner, who must see the block for himself,
        has his alternative normal plays (70D2), following low among them. None otherwise. ``follow``: his cards of
        the suit, ascending."""
        if (not self.model.partner_is_dummy or w_seat != seat.partner or w_card is None
                or seat.partner not in self.view(node, seat).seen_seats):
            return None
        led = node.trick[0].suit
        partner = node.hand(seat.partner)
        if any(c.suit == led for c in partner) or not any(self.perceived_master(node, c, seat) for c in follow):
            return None
        hand = node.hand(seat)
        trumps = bool(self.trump) and any(c.suit == self.trump for c in hand)
        for y in {c.suit for c in partner}:
            mine = [c for c in hand if c.suit == y]
            masters = [c for c in mine if self.perceived_master(node, c, seat)]
            low = min(c.rank for c in partner if c.suit == y)
            if masters and max(c.rank for c in masters) > low:
                return None  # an entry back
            if not mine and trumps and y != self.trump:
                return None  # a ruff back
        over = next((c for c in follow if self.beats(c, w_card)), None)
        if over is None or not any(self.perceived_master(node, c, seat) for c in follow if c != over):
            return None  # overtaking with his only winner unblocks nothing: the lead would stay with no winner
        return over

    def equal_overtake(self, node: Node, seat: Seat, follow: list[Card], w_seat: Seat | None,
                       w_card: Card | None) -> Card | None:
        """Partner's card (a hand he sees) wins the trick so far and is his last card of the suit led, and this hand
        holds a card just above it, with no card an opponent may hold between them as he sees it, and keeps a card of
        the suit besides: that card. Overtaking with an equal costs nothing and keeps the suit from blocking; the
        district TD's poll in NBB Delft's 5♣ held the overtake the only normal play. Declarer's claim only: he plays
        both hands; a defender's partner has his alternative normal plays (70D2), ducking among them. None otherwise.
        ``follow``: his cards of the suit, ascending."""
        if (not self.model.partner_is_dummy or w_seat != seat.partner or w_card is None
                or seat.partner not in self.view(node, seat).seen_seats):
            return None
        led = node.trick[0].suit
        if w_card.suit != led or any(c.suit == led for c in node.hand(seat.partner)):
            return None
        over = next((c for c in follow if self.beats(c, w_card)), None)
        if over is None or len(follow) < 2:
            return None
        between = (self.view(node, seat).against(led) >> (w_card.rank + 1)) & ((1 << (over.rank - w_card.rank - 1)) - 1)
        return None if between else over

    def keepers(self, node: Node, seat: Seat) -> set[Card]:
        """The side-suit cards of ``seat`` he sees as worth keeping: his winners, and his only entry to partner's
        winners (partner's hand in his view). The others are his losers."""
        side = [c for c in node.hand(seat) if c.suit != self.trump]
        keep = {c for c in side if self.perceived_master(node, c, seat)}
        if seat.partner in self.view(node, seat).seen_seats:
            pm = [p for p in node.hand(seat.partner) if self.perceived_master(node, p, seat)]
            entries = [c for c in side if any(p.suit == c.suit and p.rank > c.rank for p in pm)]
            if len(entries) == 1:
                keep.add(entries[0])
        return keep

    def _strands(self, node: Node, seat: Seat, low: Card, blocking_only: bool = False) -> bool:
        """Crossing to partner with ``low`` (partner winning with his lowest master of the suit) strands or blocks
        the side's winners, as he sees them: afterwards he holds a master but partner has no way back to him (no
        card under one of his masters, nor, in a trump contract, a card of a suit he can ruff); or his cards of a
        suit are all masters above partner's there while partner holds more masters there than he holds cards
        (they would block partner's). A coherent plan unblocks first and keeps an entry back, so the crossing is
        normal then only as best play. With ``blocking_only`` (a lead toward partner's tenace: after a losing
        finesse the opponents lead, so no entry back is needed) only the block counts."""
        x = low.suit
        hand = node.hand(seat) - {low}
        partner = set(node.hand(seat.partner))
        wins = [c for c in partner if c.suit == x and self.perceived_master(node, c, seat)]
        if wins:
            partner.discard(min(wins, key=lambda c: c.rank))
        trumps = bool(self.trump) and any(c.suit == self.trump for c in hand)
        holds_master = entry = False
        for y in {c.suit for c in hand} | {c.suit for c in partner}:
            mine = [c for c in hand if c.suit == y]
            theirs = [c for c in partner if c.suit == y]
            masters = [c for c in mine if self.perceived_master(node, c, seat)]
            holds_master = holds_master or bool(masters)
            if theirs and masters and max(c.rank for c in masters) > min(c.rank for c in theirs):
                entry = True
            if theirs and not mine and trumps and y != self.trump:
                entry = True
            if (mine and len(masters) == len(mine)
                    and sum(self.perceived_master(node, c, seat) for c in theirs) > len(mine)
                    and min(c.rank for c in mine) > max(c.rank for c in theirs)):
                return True
        return holds_master and not entry and not blocking_only

    def _crashes(self, node: Node, seat: Seat, x: Suit, mine_masters: int, mine_len: int, partner_x: list[int]) -> bool:
        """Cashing his cards of ``x`` from the top makes partner play a card he sees as a master under one of them
        (partner follows with his losers first, then his masters) and the two hands then take fewer tricks in the
        suit: on top ranks alone, the most is the fewer of the masters and the longer holding. (♦AKJ976 opposite
        ♦Q8 with five out: the ace, then the king fells the queen, EBU Appeal Focus 2011, 6NT.)"""
        top = self._seen_opp_top(node, SUIT_NO[x], seat)
        low = sum(1 for r in partner_x if r <= top)  # rounds partner follows with a loser, his masters kept
        a, b, n = mine_masters - low, len(partner_x) - low, mine_len - low
        if b == 0 or a < 1:
            return False  # partner has no master to fell, or his masters outlast the tops
        before = min(a + b, max(n, b))
        after = 1 + min(a + b - 2, max(n - 1, b - 1))
        return after < before

    def safety_check(self, node: Node, seat: Seat) -> list[Card]:
        """On lead, unaware of a trump still out, holding a higher one: that high trump (ACBL 1992 C). The
        unawareness is the claimer's (a defender's partner knows of every card out: no check for him)."""
        if node.trick or not self.trump or not self.model.on("safety_check_high_trump"):
            return []
        out = [c for s in self.side.other.seats for c in node.hand(s) if c.suit == self.trump]
        unaware = self.unaware(node, seat)
        if not any(c in unaware for c in out):
            return []
        top = max(c.rank for c in out)
        return sorted((c for c in node.hand(seat) if c.suit == self.trump and c.rank > top), key=lambda c: -c.rank)[:1]

    def wins_trick(self, node: Node, seat: Seat, card: Card, surely: bool = True) -> bool:
        """As he sees it, ``card`` (already beating the trick so far) surely wins it: no opponent still to play may
        hold a higher card of the suit led, nor, known void in it, a trump that ruffs (or overruffs) it. May hold:
        a hand in his view that does, or a hidden hand that has not shown out of the suit while a hidden card
        would do it (``View.may_hold``: he does not know which opponent holds a hidden card). With ``surely`` off:
        it may win, as he sees it (no opponent still to play is known to beat it: ``View.must_hold``)."""
        led = node.trick[0].suit
        v = self.view(node, seat)
        holds = v.may_hold if surely else v.must_hold
        later = [seat.next, seat.next.next, seat.next.next.next][:3 - len(node.trick)]
        for s in later:
            if s.side == self.side:
                continue
            if not v.known_void(s, led):  # he must follow: only a higher card of the suit beats it
                if card.suit == led and holds(s, led, card.rank):
                    return False
            elif self.trump:  # void in the suit led: a trump ruffs (or overruffs)
                if card.suit != self.trump and holds(s, self.trump):
                    return False
                if card.suit == self.trump and holds(s, self.trump, card.rank):
                    return False
        return True

    def guess_licensed(self) -> bool:
        """70E1's losing option of a guess, unless a 70E2 order (e.g. top down) settles the suit."""
        return self.model.on("finesse_or_drop") and not self.model.top_down_order()

    def beats(self, c: Card, w: Card | None) -> bool:
        if w is None:
            return True
        if c.suit == w.suit:
            return c.rank > w.rank
        return bool(self.trump) and c.suit == self.trump

    def tenace_card(self, node: Node, partner: frozenset[Card], x: Suit, seat: Seat | None = None) -> Card | None:
        """The hidden card inside a tenace of partner's: for a card of partner's, the one card an opponent may hold
        above it, when that card is hidden (a guess is only about a card he cannot see: never one in dummy) and
        partner holds a card above it (the highest such card over partner's cards; None: no tenace). In the view of
        ``seat``'s viewer (``seat``: the hand that leads toward it)."""
        seen = self.seen_opp(node, x, seat)
        hidden = set(self.hidden(node, x, seat))
        best: Card | None = None
        for c in partner:
            if c.suit != x:
                continue
            higher = [o for o in seen if o.rank > c.rank]
            if (len(higher) == 1 and higher[0] in hidden
                    and any(d.suit == x and d.rank > higher[0].rank for d in partner)
                    and (best is None or higher[0].rank > best.rank)):
                best = higher[0]
        return best

    def tenace(self, node: Node, partner: frozenset[Card], x: Suit, seat: Seat | None = None) -> bool:
        """Partner holds a tenace around a hidden card (``tenace_card``)."""
        return self.tenace_card(node, partner, x, seat) is not None

    def drop_sure(self, node: Node, x: Suit, m: Card, mid_trick: bool = False, seat: Seat | None = None) -> bool:
        """The top cards drop the hidden card ``m``, as he sees it, so there is no guess. The side's cards above it
        in the hands he sees win ``r`` rounds (at most the longer holding); its holder keeps it only with more than
        ``r`` cards of the suit. Third hand (second hand has followed): every card out is at most ``r``. On lead:
        the same, or every card out but one when the first round of tops would show a void while the tenace still
        stands (two or more tops, and a second card in the leader's hand to lead through): no player finesses for
        a card the top cards drop, and a void shown on the way is the 70E1 exception for a player who fails to
        follow (EBU Appeal Focus 2011: Q8 opposite AKJ976 with five out is a count, not a guess). As ``seat``'s
        viewer sees it (``seat``: the hand to play)."""
        v = self.view(node, seat)
        xn = SUIT_NO[x]
        lanes = [(node.masks[IDX[s]] >> (16 * xn)) & LANE for s in self.side.seats if s in v.seen_seats]
        tops = sum((lane >> (m.rank + 1)).bit_count() for lane in lanes)
        r = min(tops, max((lane.bit_count() for lane in lanes), default=0))
        out = v.against(x).bit_count()
        if out <= r:
            return True
        mine = (node.masks[IDX[node.to_move]] >> (16 * xn)) & LANE
        return not mid_trick and out == r + 1 and tops >= 2 and mine.bit_count() >= 2

    def real_guess(self, node: Node, partner: frozenset[Card], x: Suit, seat: Seat | None = None) -> bool:
        """A tenace of partner's with a guess in it: he sees another opponent's card of the suit besides the one
        inside the tenace (with that card alone out, second hand plays it or shows out: nothing to guess), and
        the top cards do not drop it (``drop_sure``), as ``seat`` (on lead) sees the cards; and the claim needs a
        guess (``guess_needed``: the claimer's belief about his claim, whoever leads)."""
        if len(self.seen_opp(node, x, seat)) < 2:
            return False
        m = self.tenace_card(node, partner, x, seat)
        return m is not None and not self.drop_sure(node, x, m, seat=seat) and self.guess_needed(node)

    def sure_tricks(self, node: Node) -> int:
        """Tricks the side's winners make as he sees them, cashed: per suit, its cards above every card an opponent
        may hold in the hands he sees, at most the longer holding; none while an opponent may hold a trump (it
        could ruff them). Always the claimer's view: it is what he believes of his claim."""
        v = self.view(node)
        if self.trump is not None and v.against(self.trump):
            return 0
        total = 0
        for x in SUITS:
            xn = SUIT_NO[x]
            lanes = [(node.masks[IDX[s]] >> (16 * xn)) & LANE for s in self.side.seats if s in v.seen_seats]
            top = v.top_against(x)
            masters = sum((lane >> (top + 1)).bit_count() for lane in lanes)
            total += min(masters, max((lane.bit_count() for lane in lanes), default=0))
        return total

    def guess_needed(self, node: Node) -> bool:
        """70E1 is about a claim that depends on a guess: where his winners as he sees them already make every
        trick he claims (the tricks left less those the claim concedes), no finesse is normal (reviewed audit
        verdicts: the law withholds credit for a finesse the claim needs; it does not put a pointless one into a
        claim that needs none)."""
        return self.sure_tricks(node) < self._left(node) - self.model.concedes

    def finesse_card(self, node: Node, follow: list[Card], w_card: Card | None, seat: Seat | None = None
                     ) -> Card | None:
        """Third hand's finesse card (70E1): against the one hidden card M that is the only card an opponent may
        hold above it, the card of the holding just below M that beats the trick so far and every other card an
        opponent may hold (it wins whenever M is onside); none when M is in view, or no card of the holding is
        above M, or the top cards drop M (``drop_sure``). Of several such cards the highest: the lower ones are
        dominated (they win no trick it loses). As ``seat`` (third hand) sees the cards; whether the claim needs a
        guess is the claimer's (``guess_needed``)."""
        if not follow:
            return None
        led = follow[0].suit
        seen = self.seen_opp(node, led, seat)
        hidden = set(self.hidden(node, led, seat))
        best: Card | None = None
        m: Card | None = None
        for c in follow:
            if not self.beats(c, w_card):
                continue
            higher = [o for o in seen if o.rank > c.rank]
            if len(higher) == 1 and higher[0] in hidden and any(d.rank > higher[0].rank for d in follow):
                best, m = c, higher[0]  # ``follow`` ascends: the last one found is the one just below M
        if (best is None or m is None or self.drop_sure(node, led, m, mid_trick=True, seat=seat)
                or not self.guess_needed(node)):
            return None
        return best

    # -- choices at a node ---------------------------------------------------------------
    def moves(self, node: Node, solve_opponents: bool = True, legal: list[Card] | None = None
              ) -> list[tuple[Card, str | None]]:
        """The cards to try here, the most damaging to the claiming side first (an opponent's by the solver's
        values, or, with ``solve_opponents`` off, high cards first: no solver call). ``legal``: the seat's legal
        cards, when the caller has them already."""
        seat = node.to_move
        if legal is None:
            legal = self.legal(node, seat)
        if seat.side != self.side and not solve_opponents:
            return [(c, None) for c in self.collapse(node, seat, legal)]  # high cards first
        vals = self.values(node)
        if seat.side != self.side:
            return [(c, None) for c in sorted(self.collapse(node, seat, legal),
                                              key=lambda c: (-vals.get(c, 0), -c.rank, -(c.code >> 4)))]
        if self.all_free:
            return [(c, None) for c in sorted(self.collapse(node, seat, legal),
                                              key=lambda c: (vals.get(c, 0), c.rank, -(c.code >> 4)))]
        best = max(vals.values())
        dd = sorted((c for c in legal if vals.get(c, -1) == best), key=lambda c: (c.rank, -(c.code >> 4)))
        return self._side_moves(node, seat, legal, dd, vals)

    def _side_moves(self, node: Node, seat: Seat, legal: list[Card], dd: list[Card], vals: dict[Card, int]
                    ) -> list[tuple[Card, str | None]]:
        """The claiming side's normal cards, given its best-play cards ``dd`` (ascending): those, narrowed by the
        guidelines where tied mid-trick, and for a restricted seat the licensed cards too (first)."""
        if len(dd) > 1:
            dd = self._ties(node, seat, dd, legal)
        if seat not in self.restricted:
            return [(c, None) for c in dd]
        check = self.safety_check(node, seat)
        if check:
            return [(c, "safety_check_high_trump") for c in check]
        line_cards = self.line_moves(node, seat, legal)
        if line_cards is not None:
            return [(c, "line") for c in sorted(line_cards, key=lambda c: (vals.get(c, 0), c.rank, -(c.code >> 4)))]
        lic = self.licences(node, seat)
        out: list[tuple[Card, str | None]] = sorted(((c, why) for c, why in lic.items() if c in legal and c not in dd),
                     key=lambda x: (vals.get(x[0], 0), x[0].rank, -(x[0].code >> 4)))
        out += [(c, None) for c in dd]
        return out

    def after(self, node: Node, card: Card) -> int:
        """The claiming side's tricks from here if ``card`` is played and best play follows."""
        vals = self.values(node)
        left = self._left(node)
        v = vals.get(card, 0)
        return v if node.to_move.side == self.side else left - v

    def _others(self, node: Node, seat: Seat) -> int:
        """The mask of every card not in ``seat``'s hand: the other hands' and the trick's."""
        i = IDX[seat]
        rest = 0
        for j, m in enumerate(node.masks):
            if j != i:
                rest |= m
        for t in node.trick:
            rest |= 1 << t.code
        return rest

    def runs(self, node: Node, seat: Seat, cards: list[Card], split_small: bool = False) -> list[list[Card]]:
        """``cards`` in runs of equal cards, lowest first: no card of another hand, nor of the trick in
        progress, between them (the trick decides who wins it), none of them unseen, and, with
        ``split_small``, not across the nine-ten boundary the small-card licences read."""
        rest = self._others(node, seat)
        unaware = node.unaware
        out: list[list[Card]] = []
        for x in sorted({c.suit for c in cards}, key=lambda s: s.value):
            run: list[Card] = []
            for c in sorted({c for c in cards if c.suit == x}, key=lambda c: c.rank):  # each card once
                if run:
                    lo, hi = run[-1].code, c.code
                    if ((rest >> (lo + 1)) & ((1 << (hi - lo - 1)) - 1)
                            or (unaware and (c in unaware or run[-1] in unaware))
                            or (split_small and (run[-1].rank <= 9) != (c.rank <= 9))):
                        out.append(run)
                        run = []
                run.append(c)
            if run:
                out.append(run)
        return out

    def _one_run(self, node: Node, seat: Seat, legal: list[Card]) -> bool:
        """All of ``legal`` (as ``legal`` orders them) form one run of equal cards (see ``runs``)."""
        if len(legal) == 1:
            return True
        lo, hi = legal[0].code, legal[-1].code
        if lo >> 4 != hi >> 4:
            return False
        rest = self._others(node, seat)
        if (rest >> (lo + 1)) & ((1 << (hi - lo - 1)) - 1):
            return False
        return not (node.unaware and any(c in node.unaware for c in legal))

    def collapse(self, node: Node, seat: Seat, legal: list[Card]) -> list[Card]:
        """One card from each run of equal cards, winners first: they are what the opponents want."""
        return sorted((r[0] for r in self.runs(node, seat, legal)), key=lambda c: -c.rank)

    def distinct(self, node: Node, moves: list[tuple[Card, str | None]]) -> list[tuple[Card, str | None]]:
        """The claiming side's moves less any equal to an earlier one (one run of equal cards, one side of
        the nine-ten boundary): the positions after them differ in no way the licences or the key read. With a
        stated line, a card it names is kept apart (the key holds it exactly), and so are leads that follow
        different steps of it (``Node.line_lead``)."""
        if len(moves) < 2:
            return moves
        run_of = {c: i for i, r in enumerate(self.runs(node, node.to_move, [c for c, _ in moves], True)) for c in r}
        seat = node.to_move
        lead = self.line is not None and not node.trick and seat in self.restricted
        named = self.named_mask if self.line is not None else 0
        seen: set[tuple] = set()
        out = []
        for c, why in moves:
            tag = (run_of[c], c if named >> c.code & 1 else None, self.led_steps(node, seat, c) if lead else None)
            if tag not in seen:
                seen.add(tag)
                out.append((c, why))
        return out

    # -- the stated line ------------------------------------------------------------------
    # While it lasts the claimer is held to it (70D1); a step is in force once its condition is seen to hold.
    # The side's lead records the steps it followed (``Node.line_lead``): the rest of that trick reads them
    # (third hand's card in a finesse, the ruff or discard of a ruffing finesse, the discard named on winners).
    WINNERS = ("cash", "draw_trumps", "play")  # steps whose winners a stated discard is made on

    @property
    def named_mask(self) -> int:
        """The cards the stated line names, as a mask (``Node.masks``)."""
        if self._named_of[0] is not self.line:
            cards = [c for st in self.line.steps for c in [*st.cards, *([st.card] if st.card else [])]] \
                if self.line else []
            self._named_of = (self.line, mask_of(cards))
        return self._named_of[1]

    def _bound(self, i: int) -> int:
        """The step whose winners discard step ``i`` is made on: the nearest earlier cash, draw-trumps or play
        step ("discard X on the Ys" is read as cash the Ys, then discard X); -1 when there is none."""
        assert self.line is not None
        for j in range(i - 1, -1, -1):
            if self.line.steps[j].action in self.WINNERS:
                return j
        return -1

    def condition_seen(self, node: Node, st: LineStep) -> bool:
        """The step's condition is seen to hold: he has seen an opponent show out of the suit (or no card of it is
        hidden), so he knows how it lay, and it lay as stated ("4-1": the two opponents were dealt four and one), or,
        for a bad break stated, worse (5-0).
        No condition: True. A condition claimlaw cannot read (no suit, not two lengths), or one asked without the
        deal (``dealt``), is never seen."""
        cond = st.condition
        if cond is None:
            return True
        x = cond.suit
        if x is None or len(cond.lengths) != 2 or self.dealt is None:
            return False
        v = self.view(node)  # the claimer's: his own statement's condition, as he sees the play
        opps = self.side.other.seats
        if not any(v.known_void(o, x) for o in opps):
            return False
        dealt = sorted((self.dealt.get((o, x), 0) for o in opps), reverse=True)
        want = sorted(cond.lengths, reverse=True)
        if dealt == want:
            return True
        # a plan stated for a bad break (one opponent two or more cards longer) covers a worse one of the same suit:
        # "if 4-1, I ruff the fourth round" is his plan when they are 5-0 too (St Petersburg 2000, blakjak: the TD)
        return (sum(dealt) == sum(want) and want[0] - want[1] >= 2
                and dealt[0] - dealt[1] > want[0] - want[1])

    def in_force(self, node: Node) -> list[int]:
        """The steps the claimer is held to at ``node``: those not done whose condition he has seen hold; of an
        ordered line the first of them, with the discards made on its winners."""
        if self.line is None or node.line_off:
            return []
        steps = self.line.steps
        pending = [i for i in range(len(steps)) if i not in node.line_done and self.condition_seen(node, steps[i])]
        if not self.line.ordered or not pending:
            return pending
        first = pending[0]
        return [first] + [i for i in pending[1:] if steps[i].action == "discard" and self._bound(i) == first]

    def led_steps(self, node: Node, seat: Seat, card: Card) -> frozenset[int]:
        """The steps in force whose lead ``card`` is (``seat`` on lead at ``node``)."""
        return frozenset(i for i in self.in_force(node) if card in self._lead_cards(node, seat, i))

    def line_moves(self, node: Node, seat: Seat, legal: list[Card]) -> list[Card] | None:
        """Cards the stated line requires here, or None when it says nothing (or has broken down). On lead, the
        leads of the steps in force; in a trick the side led by one of them, partner's card the step names."""
        force = self.in_force(node)
        if not force:
            return None
        cards: list[Card] = []
        if not node.trick:
            for i in force:
                cards += self._lead_cards(node, seat, i)
        elif node.leader.side == self.side and seat == node.leader.partner:
            for i in force:
                cards += self._third_cards(node, seat, i, legal)
        legal_cards = [c for c in dict.fromkeys(cards) if c in legal]
        return legal_cards or None

    def _next_named(self, node: Node, st: LineStep) -> Card | None:
        """The first card a step names that is still held."""
        return next((c for c in st.cards if any(c in h for h in node.hands)), None)

    def _lead_cards(self, node: Node, seat: Seat, i: int) -> list[Card]:
        """The leads step ``i`` allows ``seat`` (on lead)."""
        assert self.line is not None
        st = self.line.steps[i]
        hand = node.hand(seat)
        if st.action in ("cash", "play") and st.cards:
            # named cards, in the order named: the next one from this hand; a cash step's ("a heart to the king
            # and ace": the honours take the suit named next to them) also by a low card of its suit to it in
            # partner's hand. A play step names the cards a hand plays ("the ♦A, throwing the ♣K"): no crossing
            nxt = self._next_named(node, st)
            if nxt is None:
                return []
            if nxt in hand:
                return [nxt]
            low = [c for c in hand if c.suit == nxt.suit]
            if st.action == "cash" and nxt in node.hand(seat.partner) and low:
                return [min(low, key=lambda c: c.rank)]
            return []
        if st.action in ("cash", "draw_trumps"):
            x = self.trump if st.action == "draw_trumps" else st.suit
            mine = sorted((c for c in hand if c.suit == x), key=lambda c: -c.rank)
            if mine and self.perceived_master(node, mine[0], seat):
                out = [mine[0]]
                masters = [c for c in mine if self.perceived_master(node, c, seat)]
                if self.model.on("equal_small_any") and self.equal_winners(node, seat, masters, mine):
                    out.extend(masters[1:])  # several small cards he sees as equal: any order
                return out
            if mine and any(c.suit == x and self.perceived_master(node, c, seat) for c in node.hand(seat.partner)):
                return [mine[-1]]
            return []
        if st.action == "finesse" and st.suit is not None:
            mine = sorted((c for c in hand if c.suit == st.suit), key=lambda c: c.rank)
            return [mine[0]] if mine and self.tenace(node, node.hand(seat.partner), st.suit, seat) else []
        if st.action == "ruffing_finesse":
            return self._ruffing_lead(node, seat, st)
        if st.action == "ruff":
            x = self._ruff_suit(st)
            mine = [c for c in hand if c.suit == x]
            if x is None or not mine or not self._can_ruff(node, seat.partner, x, st):
                return []  # partner cannot ruff it from here: the line waits (he crosses by best play or licence)
            return [min(mine, key=lambda c: c.rank)]
        return []

    def _ruff_suit(self, st: LineStep) -> Suit | None:
        """The suit a ruff step ruffs: its own, else its condition's ("if clubs are 4-1 I ruff the fourth round")."""
        if st.suit is not None:
            return st.suit
        return st.condition.suit if st.condition is not None else None

    def _can_ruff(self, node: Node, seat: Seat, x: Suit, st: LineStep) -> bool:
        """``seat`` is the hand the ruff step names (or any of the side's), void in ``x``, with a trump."""
        if not self.trump or x == self.trump or (st.hand is not None and st.hand != seat):
            return False
        hand = node.hand(seat)
        return not any(c.suit == x for c in hand) and any(c.suit == self.trump for c in hand)

    def _ruff_feasible(self, node: Node, st: LineStep) -> bool:
        """Some hand of the side (the one the step names) holding a trump can still ruff a card of the step's suit led
        from partner's hand: it holds fewer cards of the suit than partner (it will be void first)."""
        x = self._ruff_suit(st)
        if x is None or not self.trump or x == self.trump:
            return False
        for s in self.side.seats:
            if st.hand is not None and st.hand != s:
                continue
            mine = sum(1 for c in node.hand(s) if c.suit == x)
            theirs = sum(1 for c in node.hand(s.partner) if c.suit == x)
            if mine < theirs and any(c.suit == self.trump for c in node.hand(s)):
                return True
        return False

    def _ruffing_lead(self, node: Node, seat: Seat, st: LineStep) -> list[Card]:
        """A ruffing finesse's lead: partner void in the suit and holding a trump, the placed card (``card``, else
        the highest card of the suit an opponent may hold as he sees it) still out, the highest card of ``seat``
        below it (the card led through the opponent placed with it)."""
        x = st.suit
        if x is None or self.trump is None or x == self.trump:
            return []
        partner = node.hand(seat.partner)
        if any(c.suit == x for c in partner) or not any(c.suit == self.trump for c in partner):
            return []
        if st.card is not None:
            if not any(st.card in node.hand(o) for o in self.side.other.seats):
                return []
            top = st.card.rank
        else:
            top = self._seen_opp_top(node, SUIT_NO[x], seat)
        below = [c for c in node.hand(seat) if c.suit == x and c.rank < top]
        return [max(below, key=lambda c: c.rank)] if below else []

    def _third_cards(self, node: Node, seat: Seat, i: int, legal: list[Card]) -> list[Card]:
        """Partner's card in a trick the side led (``seat`` the leader's partner), as step ``i`` names it."""
        assert self.line is not None
        st = self.line.steps[i]
        led = node.trick[0].suit
        void = legal[0].suit != led
        if st.action == "discard":
            j = self._bound(i)
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
        w_seat, w_card = self.trick_winner(node)
        if st.action in ("cash", "play") and st.cards:
            # the next named card, if it wins the trick so far (a low card led to it, or an overtake): never one
            # that falls under the card just led ("the ace and king" from two hands are two tricks)
            nxt = self._next_named(node, st)
            return [nxt] if nxt is not None and nxt in legal and self.beats(nxt, w_card) else []
        if st.action == "finesse" and not void:
            named = [c for c in st.cards if c in legal and self.beats(c, w_card)]
            if named:
                return named[:1]
            fin = self.finesse_card(node, legal, w_card, seat)
            return [fin] if fin is not None else []
        if st.action == "ruff" and void and led == self._ruff_suit(st) and self._can_ruff(node, seat, led, st):
            if w_seat.side == self.side and self.wins_trick(node, seat, w_card):
                # partner's card wins the round as he sees it: a ruff is to win it, so the step is silent here
                # (St Petersburg 2000, blakjak: with 5-0, dummy's ♣7 over North's ♣6 is not ruffed; 12 tricks)
                return []
            over = [c for c in legal if c.suit == self.trump and self.beats(c, w_card)]
            return [min(over, key=lambda c: c.rank)] if over else []  # ruffed over by second hand: the line is silent
        if st.action == "ruffing_finesse" and void:
            if w_seat.side != self.side:  # second hand covered (or ruffed): ruff, as low as wins
                over = [c for c in legal if c.suit == self.trump and self.beats(c, w_card)]
                return [min(over, key=lambda c: c.rank)] if over else []
            # not covered: a loser goes, the lowest card of a suit he sees no winner in for his side
            suits = sorted({c.suit for c in legal if c.suit != self.trump}, key=lambda x: x.value)
            return [min((c for c in legal if c.suit == x), key=lambda c: c.rank)
                    for x in suits if not self.side_has_master(node, x, seat)]
        return []

    def advance_line(self, node: Node, leader: Seat, trick: tuple[Card, ...], led: frozenset[int]) -> Node:
        """Mark steps done once a trick is complete (``trick`` from ``leader``; ``led``: the steps its lead
        followed). A step that can no longer be followed is done, so the line falls silent there and best play
        and the licences take over (WBFLC 2001-11-01 #3)."""
        if self.line is None or node.line_off:
            return node
        done = set(node.line_done)
        steps = self.line.steps
        for i, st in enumerate(steps):
            if i in done:
                continue
            if st.action in ("cash", "play") and st.cards:
                if self._next_named(node, st) is None:
                    done.add(i)
            elif st.action == "cash" and st.suit is not None and not self.side_has_master(node, st.suit):  # his view
                done.add(i)
            elif st.action == "draw_trumps" and not [c for s in self.side.other.seats for c in node.hand(s)
                                                    if c.suit == self.trump and c not in node.unaware]:
                done.add(i)
            elif st.action in ("finesse", "ruffing_finesse") and i in led:
                done.add(i)
            elif st.action == "ruff":
                if i in led or not self._ruff_feasible(node, st):
                    done.add(i)  # ruffed (the trick its lead started is over), or no longer possible
            elif st.action in ("cross", "concede"):
                done.add(i)
        for i, st in enumerate(steps):  # a discard once its cards are gone, or its winners are
            if i in done or st.action != "discard":
                continue
            j = self._bound(i)
            thrown = (leader.side == self.side and (j < 0 or j in led) and trick[2].suit != trick[0].suit
                      and trick[2].suit == st.suit)
            if j < 0 or j in done or (st.cards and not any(c in h for c in st.cards for h in node.hands)) or (
                    not st.cards and thrown):
                done.add(i)
        return replace(node, line_done=frozenset(done))

    # -- the search ------------------------------------------------------------------------
    def key(self, node: Node) -> tuple:
        """Rank-relative: per suit, from the top, who holds each remaining card or which card of the trick in
        progress it is (cards of the claiming side keep whether they are small, which the licences read),
        then perception and line state. No rank itself is kept: positions that differ only in ranks no card
        lies between are one position to every licence and to the solver."""
        m0, m1, m2, m3 = node.masks
        um = mask_of(node.unaware) if node.unaware else 0
        trick = node.trick
        first = IDX[node.leader]
        cache = self._suit_codes
        if len(cache) > 200_000:
            cache.clear()
        per: list[tuple[int, ...]] = []
        played: list[tuple[tuple[int, int, int], ...]] = [(), (), (), ()]
        for j, t in enumerate(trick):
            played[t.code >> 4] += ((t.code & 15, (first + j) & 3, j),)
        # with no stated line, trump leads are idle once the opponents hold no trump (no licence reads them)
        idle = -1 if self.line and self.line.steps else self._trump_no
        for x in range(4):
            sh = 16 * x
            k = ((m0 >> sh) & LANE, (m1 >> sh) & LANE, (m2 >> sh) & LANE, (m3 >> sh) & LANE, (um >> sh) & LANE,
                 played[x], x == idle)
            got = cache.get(k)
            if got is None:
                got = cache[k] = self._owners(*k)
            per.append(got)
        # what the licences can still read of the history: the suit to continue while it can still bind the side
        # (at its own trick start, only with a master in it; otherwise while it holds a card there, which may yet
        # become a master before it leads again); an opponent's show-out only in a suit both sides still hold
        last = node.last_led
        if last is not None and not (self.model.on("continue_suit") and self._may_bind(node, last)):
            last = None
        # show-outs in live suits: the opponents' (a defender also reads his partner's: a hidden hand)
        both = not self.model.partner_is_dummy
        voids = frozenset((s, x) for s, x in node.voids if (both or s.side != self.side) and per[SUIT_NO[x]])
        # the concession licence reads whether the side has led since the claim
        first = node.last_led is None and self.model.concedes > 0 and self.model.on("concede_now_or_end")
        # the stated line: its steps done, the steps the lead of the trick followed, and which cards it names are
        # still held (exactly: the key is otherwise rank-relative, and equal cards are not equal to the line)
        named = (node.masks[0] | node.masks[1] | node.masks[2] | node.masks[3]) & self.named_mask if self.line else 0
        return (tuple(per), node.leader, last, voids, node.line_done, node.line_off, node.line_lead, named, first)

    def _may_bind(self, node: Node, suit: Suit) -> bool:
        """Can the suit the side led last still bind it (``continue_suit``)? On lead at a trick start the licence
        reads it now, and the lead names the next suit: only if the side holds a master there. Otherwise the
        opponents' cards above the side's may all be played before the side leads again, and the suit binds
        it then: whenever the side holds a card of it."""
        if not node.trick and node.leader.side == self.side:
            return self.side_has_master(node, suit, node.leader)  # the view of the hand on lead
        a, b = self._side_idx
        return bool(((node.masks[a] | node.masks[b]) >> (16 * SUIT_NO[suit])) & LANE)

    def _owners(self, l0: int, l1: int, l2: int, l3: int, unaware: int, trick: tuple[tuple[int, int, int], ...],
                idle_trumps: bool = False) -> tuple[int, ...]:
        """One suit of the key, from the top: for a card of a hand, its seat (times four), plus two for a small
        card of the claiming side and one for an unseen card; for a card of the trick in progress, sixteen
        plus its place in the trick (times four), plus two for a small card of the claiming side.

        Small cards are marked only where the small-card licence can tell them from top-down: in a suit both
        hands of the side still hold, or with a card of it unseen; and not in trumps (``idle_trumps``: no
        stated line) once the opponents hold none. Otherwise the leader's perceived masters there are equal
        cards, now and later (a void hand stays void), or trump leads are idle (no licence gives one). And
        only where a hand of the side holds two or more small cards of the suit: the licence gives a hand's
        small masters only when they are all its masters, so with one small card it gives the top, and a hand
        never gains a card (as our solver's key; a suit left unmarked is one where that holds or the side
        holds no small card at all, both inert)."""
        mine = self._mine
        lanes = (l0, l1, l2, l3)
        theirs_void = not any(lanes[i] for i in range(4) if i not in mine)
        small = 9 if unaware or (all(lanes[i] for i in mine) and not (idle_trumps and theirs_void)) else 0
        if small and not any((lanes[i] & 0x3FF).bit_count() >= 2 for i in mine):
            small = 0
        played = {r: (seat, j) for r, seat, j in trick}
        out = []
        for r in range(14, 1, -1):
            bit = 1 << r
            for i, lane in enumerate(lanes):
                if lane & bit:
                    out.append(i * 4 + (2 if i in mine and r <= small else 0) + (1 if unaware & bit else 0))
                    break
            else:
                if r in played:
                    seat, j = played[r]
                    out.append(16 + j * 4 + (2 if seat in mine and r <= small else 0))
        return tuple(out)

    def dd_value(self, node: Node) -> int:
        """Tricks the claiming side takes from here with best play by both sides."""
        if not node.hand(node.to_move):
            return 0
        vals = self.values(node)
        best = max(vals.values())
        left = self._left(node)
        return best if node.to_move.side == self.side else left - best

    def dd_line(self, node: Node) -> list[Step]:
        out: list[Step] = []
        while node.hand(node.to_move):
            vals = self.values(node)
            best = max(vals.values())
            card = min((c for c, v in vals.items() if v == best), key=lambda c: (c.rank, -(c.code >> 4)))
            out.append(Step(card, node.to_move, None))
            node, _ = self.play(node, card)
        return out

    def model_line(self, node: Node) -> list[Step]:
        """Best play by both sides within the model: the opponents play double dummy; the claiming side's
        hands play the best of their normal cards (the stated line's cards while it lasts).
        Its count is at most the double-dummy value, and every card in it is allowed, so it is a witness
        wherever the double-dummy value already reaches the target."""
        if self.all_free:
            return self.dd_line(node)
        out: list[Step] = []
        while node.hand(node.to_move):
            seat = node.to_move
            vals = self.values(node)
            if seat.side == self.side:  # its normal cards (a seat the model does not restrict: best play, ties
                allowed = self.moves(node)  # narrowed as in ``moves``)
                card, why = max(allowed, key=lambda m: (vals.get(m[0], -1), -m[0].rank, -(m[0].code >> 4)))
            else:
                best = max(vals.values())
                card = min((c for c, v in vals.items() if v == best), key=lambda c: (c.rank, -(c.code >> 4)))
                why = None
            out.append(Step(card, seat, why))
            node, _ = self.play(node, card)
        return out

    @staticmethod
    def _left(node: Node) -> int:
        """Tricks left, the one in progress included."""
        return len(node.hand(node.leader)) + (1 if node.trick else 0)

    def lower_bound(self, node: Node) -> int:
        """Tricks the claiming side wins on every line, normal or not.

        On lead (or about to be, the trick in progress being the side's whatever is played to it) with
        nothing but cards above all the opponents' and no ruff to fear: every trick. So too on lead with a
        hand nobody can beat (``_hand_sweeps``). Otherwise the trump bound (``_trump_bound``), or, when the
        trick in progress is the side's, one for it plus the trump bound of the tricks after it."""
        masks = node.masks
        a, b = self._side_idx
        o, p = self._opp_idx
        opp_m = masks[o] | masks[p]
        t = self._trump_no
        opp_tr = (opp_m >> (16 * t)) & LANE if t >= 0 else 0
        ours = bool(node.trick) and self._trick_is_ours(node)
        if not opp_tr and (ours or (not node.trick and IDX[node.leader] in self._mine)):
            # on lead (or about to be, winning this trick whatever is played to it) holding nothing but cards
            # above all the opponents' and no ruff to fear: any card the side leads wins, and so does the
            # next one: every remaining trick is theirs
            side_m = masks[a] | masks[b]
            for x in range(4):
                top = (opp_m >> (16 * x)) & LANE
                if top and (side_m >> (16 * x)) & ((2 << (top.bit_length() - 1)) - 1):
                    break  # a card of the side at or under the opponents' top card of the suit
            else:
                return self._left(node)
        if not opp_tr and not node.trick and self._hand_sweeps(node):
            return self._left(node)
        if t < 0:
            return 1 if ours else 0
        opp = ranks_of(opp_tr)
        played = [c.rank for c in node.trick if c.code >> 4 == t]
        best = self._trump_bound(node, sorted(opp + played) if played else opp)
        if ours:
            # the trick in progress is the side's whatever is played to it; after it, the trump bound again,
            # each of the side's hands still to play here perhaps one trump down
            first = IDX[node.leader]
            later = {(first + j) & 3 for j in range(len(node.trick), 4)}
            best = max(best, 1 + self._trump_bound(node, opp, spent=later))
        return best

    def _hand_sweeps(self, node: Node) -> bool:
        """At a trick start, the side's leader holds only cards nobody can beat: each above every opponent's
        card of its suit and every one of partner's, and partner holds no trump unless the hand is all trumps
        (the opponents holding none is the caller's test). Whatever he leads wins and he keeps the lead, and
        that stays true: every trick is the side's on any play."""
        li = IDX[node.leader]
        if li not in self._mine:
            return False
        masks = node.masks
        mine, part = masks[li], masks[li ^ 2]
        o, p = self._opp_idx
        others = masks[o] | masks[p] | part
        t = self._trump_no
        if t >= 0 and (part >> (16 * t)) & LANE and mine & ~(LANE << (16 * t)):
            return False
        for x in range(4):
            lane = (mine >> (16 * x)) & LANE
            if lane and (others >> (16 * x)) & LANE & ~((lane & -lane) - 1):
                return False
        return True

    def _later(self, node: Node) -> list[Seat]:
        """The seats still to play to the trick in progress."""
        seat = node.to_move
        return [seat, seat.next, seat.next.next][:4 - len(node.trick)]

    def _trick_is_ours(self, node: Node) -> bool:
        """The side wins the trick in progress whatever is played to it: each seat still to play is taken at its
        worst for the side. An opponent who can beat the card winning it (a higher card of its suit, or, void
        in the suit led, a trump over it) may, and does so with his strongest card; a hand of the side wins
        it only if every card it may play beats that card, and then with the weakest of them."""
        w_seat, w_card = self.trick_winner(node)
        ours = w_seat.side == self.side
        led = node.trick[0].suit
        for s in self._later(node):
            hand = node.hand(s)
            legal = [c for c in hand if c.suit == led] or list(hand)
            if s.side == self.side:
                if not ours:
                    if not all(self.beats(c, w_card) for c in legal):
                        return False
                    ours = True
                    w_card = min(legal, key=lambda c: (c.suit == self.trump, c.rank))
            else:
                over = [c for c in legal if self.beats(c, w_card)]
                if over and ours:
                    return False
                if over:  # an opponent winning it may make it harder still to beat
                    w_card = max(over, key=lambda c: (c.suit == self.trump, c.rank))
        return ours

    def _trump_bound(self, node: Node, opp: list[int], spent: set[int] | None = None) -> int:
        """The most, over the side's hands, of its trumps less the most of them the opponents' trumps ``opp``
        (sorted) can beat one for one: a trump of the hand loses its trick only to a higher opponent's trump
        in that trick, and each opponent's trump beats at most one. A hand in ``spent`` (seat numbers) may play
        one of its trumps to the trick in progress: the worst such one is taken away first."""

        def kept(mine: list[int]) -> int:
            kills, j = 0, 0
            for o in opp:
                if j < len(mine) and o > mine[j]:
                    kills += 1
                    j += 1
            return len(mine) - kills

        best = 0
        sh = 16 * self._trump_no
        if not opp:  # nothing to beat them: each trump of the hand wins a trick (less one spent now)
            for i in self._side_idx:
                n = ((node.masks[i] >> sh) & LANE).bit_count()
                best = max(best, n - 1 if spent and i in spent and n else n)
            return best
        for i in self._side_idx:
            mine = ranks_of((node.masks[i] >> sh) & LANE)
            if spent and i in spent and mine:
                best = max(best, min(kept(mine[:j] + mine[j + 1:]) for j in range(len(mine))))
            else:
                best = max(best, kept(mine))
        return best

    def reach(self, node: Node, k: int, depth: int = 0, margin: int = 0) -> list[Step] | None:
        """A line on which the claiming side takes at most ``k`` more tricks, or None.

        ``margin``: the caller knows the double-dummy value here is at least ``k + margin`` (0: nothing known).
        Above k, the solver is not asked again for the best-play shortcut; two or more above k, the opponents'
        cards are not ordered by it either (a line needs two deviations here: no quick find to speed up).

        Near the root (``probe_depth`` plies) the children share the node budget in rounds: each gets
        ``probe_start`` nodes, then four times as many, and so on, so one hopeless sibling cannot use up
        the budget before a line in the next one is seen. Failures are stored only when proven."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise Budget
        if self.nodes >= self.report_at and self.on_nodes is not None:
            self.report_at = self.nodes + (1 << 14)
            self.on_nodes(self.nodes)
        if k < 0:
            return None
        if not node.hand(node.to_move):
            return []
        key = self.key(node) if self.use_table else None
        if key is not None and self.failed.get(key, -1) >= k:
            return None
        if self.use_bound and self.lower_bound(node) > k:
            return None
        left = self._left(node)
        if k >= left:
            return self.model_line(node)
        if (self.whole is not None and left <= self._hand_over) or self._after_line(node):
            path = self._whole_line(node, k, self.limit)  # our solver answers exactly from here
            if path is not None:
                return path
            if key is not None:
                self.failed[key] = max(self.failed.get(key, -1), k)
            return None
        if self.above is not None and left <= self.probe_tricks:
            over = self.above(node, k, 0 if left <= self.floor_tricks else self.floor_effort)
            if self.work is not None:  # the floor's time counts against the budget like the search's own
                self._work += self.work()
                self.nodes += self._work // self.work_per_node
                self._work %= self.work_per_node
            if over:
                return None  # the floor (every normal card allowed, and more) is above k: so is every normal line
        if (self.use_dd and not self.all_free and margin <= 0 and (not node.trick or node.to_move.side == self.side)
                and self.dd_value(node) <= k):
            return self.model_line(node)
        seat = node.to_move
        legal = self.legal(node, seat)
        plain = seat.side != self.side or self.line is None and not self.model.on("safety_check_high_trump")
        if margin > 0 and plain and self._one_run(node, seat, legal):
            # every legal card is the same card to the solver, so each is best play and keeps the double-dummy
            # value, which is above k: no best-play continuation reaches k, and the children know it unsolved
            moves: list[tuple[Card, str | None]] = (
                self._side_moves(node, seat, legal, legal, {}) if seat.side == self.side else [(legal[0], None)])
            margins: dict[Card, int] = {c: margin for c, _ in moves}
        else:
            solve = (depth < self.solve_depth and margin < 2) or seat.side == self.side
            moves = self.moves(node, solve, legal)
            margins = {}
            if self.use_dd and not self.all_free and solve:
                for card, why in moves:  # one card, then best play by both sides: still a normal line
                    a = self.after(node, card)
                    if a <= k:
                        child, _ = self.play(node, card)
                        return [Step(card, node.to_move, why), *self.model_line(child)]
                    margins[card] = a - k
        if self.use_distinct and seat.side == self.side and not self.all_free:
            moves = self.distinct(node, moves)
        inherit = margin if seat.side != self.side else 0  # an opponent's card never lowers the side's best play
        pending = moves
        share = self.probe_start if depth < self.probe_depth and len(moves) > 1 else 0
        while pending:
            unfinished = []
            for card, why in pending:
                child, won = self.play(node, card)
                outer = self.limit
                if share:
                    self.limit = min(outer, self.nodes + share)
                done = False
                try:
                    sub = self.reach(child, k - won, depth + 1, margins.get(card, inherit))
                    done = True
                except Budget:
                    if self.nodes > outer:
                        raise
                finally:
                    self.limit = outer
                if not done:  # this share ran out: the child waits for the next round
                    unfinished.append((card, why))
                elif sub is not None:
                    return [Step(card, node.to_move, why), *sub]
            pending = unfinished
            share *= 4
        if key is not None:
            self.failed[key] = max(self.failed.get(key, -1), k)
        return None

    def worst(self, root: Node, below: int | None = None) -> tuple[int, list[Step]]:
        """W and its witness: lower k from the double-dummy value while a line still reaches it.

        With ``below``, stop at the first line under it, or once none is proven to exist."""
        self._below = below
        if self.whole is not None and not self.all_free and self._left(root) <= self._hand_over:
            return self._worst_whole(root, below)
        if self.all_free:
            best = self._left(root)
            path = None
        else:
            path = self.model_line(root)
            best = self.count(root, path)  # a normal line: W is at most its count (at most double dummy)
        self.limit = self.budget
        while best > 0:
            if below is not None and best < below:
                break
            try:
                found = self.query(root, best - 1 if below is None else below - 1)
            except (Budget, KeyboardInterrupt) as stop:  # Ctrl-C: the best line so far, marked unproven
                self.exact = False
                self.interrupted = isinstance(stop, KeyboardInterrupt)
                break
            if found is None:
                break
            path = found
            best = self.count(root, found)
        if path is None:
            path = self.model_line(root)
        return best, path

    def _worst_whole(self, root: Node, below: int | None) -> tuple[int, list[Step]]:
        """``worst`` by our solver (``whole``) alone, for a root with at most ``whole_tricks`` left."""
        count, settled, cards = self._whole(root, -1 if below is None else below, self.budget)
        self.exact = self.exact and settled
        path = self._whole_path(root, cards)
        n = self.count(root, path)
        if count >= 0 and n > count:
            raise Disagreement(f"our solver's line takes {n} tricks, not at most {count}")
        return n, path

    def line_over(self, node: Node) -> bool:
        """The stated line binds the claimer nowhere from ``node`` on: it broke down, or every step is done (a step
        whose condition is not yet seen is not done, so it may still come into force)."""
        return self.line is not None and (node.line_off or len(node.line_done) == len(self.line.steps))

    def _after_line(self, node: Node) -> bool:
        """``after_line`` answers ``node``: a trick's start once the line is over, the claimer unaware of nothing."""
        return (self.after_line is not None and not node.trick and not node.unaware and not self.all_free
                and self.line_over(node))

    def _whole(self, root: Node, below: int, until: int) -> tuple[int, bool, list[Card]]:
        """Our solver's answer from ``root`` (``whole``, or ``after_line`` where that applies), its work charged to
        the node count (it gives up at ``until``): the count (-1: it gave up before it had even the double-dummy
        count), whether it is settled, and the cards of its line up to where best play within the model takes over."""
        solver = self.after_line if self._after_line(root) else self.whole
        assert solver is not None
        limit = max(1, until - self.nodes) * self.work_per_node
        count, settled, cards = solver(root, below, limit)
        if self.work is not None:
            self._work += self.work()
            self.nodes += self._work // self.work_per_node
            self._work %= self.work_per_node
        return count, settled, cards

    def _whole_path(self, root: Node, cards: list[Card]) -> list[Step]:
        """Our solver's line as steps: each card checked to be one ``moves`` allows (an opponent's: a legal one)
        and labelled with the licence that allows it (none for best play), then ``model_line``."""
        path: list[Step] = []
        node = root
        for card in cards:
            seat = node.to_move
            allowed = dict(self.moves(node)) if seat.side == self.side else dict.fromkeys(self.legal(node, seat))
            if card not in allowed:
                raise Disagreement(f"our solver's line plays {card} for {seat.value}, not a normal card here")
            path.append(Step(card, seat, allowed[card]))
            node, _ = self.play(node, card)
        return path + self.model_line(node)

    def query(self, root: Node, k: int) -> list[Step] | None:
        """``reach`` from the root in two passes: first with siblings sharing the budget near the root
        (finds a line fast if there is one) on ``probe_share`` of what is left (``whole_probe_share`` when
        ``_by_whole``), then, if that did not settle it, plainly depth first on the rest (a proof costs less
        without the rounds): by our solver from the root when ``_by_whole``, else by this search. Failures
        proven in the first pass are kept."""
        if self.probe_depth <= 0:
            return self.reach(root, k)
        by_whole = self._by_whole
        share = self.whole_probe_share if by_whole else self.probe_share
        self.limit = min(self.budget, self.nodes + max(2_000, int((self.budget - self.nodes) * share)))
        try:
            return self.reach(root, k)
        except Budget:
            if self.nodes >= self.budget:
                raise
        finally:
            self.limit = self.budget
        if by_whole:
            return self._whole_line(root, k, self.budget)
        saved, self.probe_depth = self.probe_depth, 0
        try:
            return self.reach(root, k)
        finally:
            self.probe_depth = saved

    @property
    def _hand_over(self) -> int:
        """The most tricks left at which our solver takes a node. Measured 2026-11-24 with partition search in its
        double-dummy solver: at 11 rather than 10, W itself proves the 7♠ example and random-00 within the budget and
        random-12 in 0.5 s instead of 1.3 s; a ``below`` question (the audit's) found 3 fewer lines under a claim at
        11, so it stays at 10."""
        return self.whole_tricks if self._below is None else self.whole_tricks_below

    @property
    def _by_whole(self) -> bool:
        """Does a query's depth-first pass go to our solver from the root? For W itself (no ``below``) where
        ``whole`` applies. A ``below`` question keeps the Python search's pass: on the vugraph audit, whose
        questions are all ``below`` ones, our solver's pass found 5 fewer lines under a claim and proved 2 more."""
        return self.whole is not None and self.whole_root and not self.all_free and self._below is None

    def _whole_line(self, node: Node, k: int, until: int) -> list[Step] | None:
        """``reach``'s question answered by our solver alone (``whole``), its work stopping at ``until``: a line of
        at most ``k`` (its cards checked by ``_whole_path``), or None when it proves there is none.

        Besides the hand-over at ``_hand_over``, it is the plain depth-first pass of a query when ``_by_whole``
        (from the root, on what is left of the budget). Measured: there it proves what the Python search's own
        pass could not (random-25, random-38 of the benchmark) at a fraction of the time per node, and it reads
        the floors the first pass's calls stored."""
        count, settled, cards = self._whole(node, k + 1, until)
        if not settled:
            raise Budget
        if count > k:
            return None
        path = self._whole_path(node, cards)
        if self.count(node, path) > count:
            raise Disagreement(f"our solver's line takes more than {count} tricks")
        return path

    def count(self, root: Node, path: list[Step]) -> int:
        node, n = root, 0
        for st in path:
            node, won = self.play(node, st.card)
            n += won
        return n


def dealt_counts(pos: Position) -> dict[tuple[Seat, Suit], int]:
    """Each seat's cards of each suit at the deal: those it holds, those of the trick in progress and of the
    tricks played before (a claim diagram has no history: the cards left)."""
    out: dict[tuple[Seat, Suit], int] = {}
    for s in SEATS:
        for c in pos.hands[s]:
            out[(s, c.suit)] = out.get((s, c.suit), 0) + 1
    tricks = [(t.leader, t.cards) for t in pos.history]
    if pos.trick:
        leader = pos.leader
        tricks.append((leader, tuple(pos.trick)))
    for leader, cards in tricks:
        seat = leader
        for c in cards:
            out[(seat, c.suit)] = out.get((seat, c.suit), 0) + 1
            seat = seat.next
    return out


def licence_text(name: str) -> str:
    g = GUIDELINES.get(name)
    if g is None:
        return {"follow_low": "follows low or with the cheapest sure winner (White Book 8.70.5)",
                "discard": "discards what he sees as a loser", "line": "follows his stated line (70D1)"}.get(
            name, name)
    return f"{g.meaning} ({g.source})"

