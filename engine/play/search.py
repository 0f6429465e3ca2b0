"""The exact search for W: the fewest tricks the claiming side takes over its normal lines.

Every card of the claiming side is a normal one (double-dummy optimal, or licensed by the model);
every card of the other side is any legal card. Both minimise, so "can the claimer be held to at
most k?" is a search for one line: a depth-first search with

* a double-dummy shortcut: if the claiming side takes at most k from here even with best play,
  the best-play line itself is the witness (it uses only normal cards);
* a table of failed (state, k) pairs, keyed on the exact cards and the claimer's perception;
* equivalent opponent cards collapsed (adjacent cards of one hand, none of them unseen);
* licensed deviations tried first, and W found by lowering k from the double-dummy value.

It only searches: which cards are normal (the claimer's view, the licences, the ties, the stated-line follower) is
normal play's, in engine/play/normal/, as functions of this search's question (``Searcher`` is a ``Question``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from claimlaw.facts import SEATS, Card, Line, Position, Seat, Side, Suit

from .bits import LANE, SUIT_NO, lane_cards, mask_of, ranks_of
from .dds import Disagreement
from .model import NormalPlayModel
from .normal.licensing import draw_spent, draws_trumps_first, licences, ruff_now, ruff_safe, safety_check
from .normal.line import advance_line, led_steps, line_moves
from .normal.node import Node, tricks_left
from .normal.ties import ties
from .normal.view import View, side_has_master, view
from .normal.view import viewer as view_of

IDX = {s: i for i, s in enumerate(SEATS)}
BY_LETTER = (3, 2, 1, 0)  # suit numbers in the order of their letters (C, D, H, S): the order cards are tried in


@dataclass
class Step:
    card: Card
    seat: Seat
    licence: str | None  # None: double-dummy optimal or an opponent's card


class Budget(Exception):
    """The search used up its node budget before proving the count."""


class Stopped(Exception):
    """The search's ``stop`` said stop (its cancel token was set): it ends with its best line, unproven."""


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
    # W by our solver for a claimer who states no line: (node, below or -1, limit in positions)
    # -> (count, settled, the cards of its line up to where best play takes over); checked against ``moves``
    whole: Callable[[Node, int, int], tuple[int, bool, list[Card]]] | None = None
    whole_tricks: int = 11  # ``whole`` answers at nodes with at most this many tricks left (DDS's values above) ...
    whole_tricks_below: int = 10  # ... or this many in a ``below`` question (see ``_hand_over``)
    whole_root: bool = True  # W's depth-first passes are ``whole``'s from the root (see ``_whole_line``)
    # ``whole`` for the same model without its stated line: it answers a node at a trick's start once the line is
    # over (``line_over``), where the normal cards are the line-free model's
    after_line: Callable[[Node, int, int], tuple[int, bool, list[Card]]] | None = None
    restricted: frozenset[Seat] = frozenset()  # seats whose cards must be normal
    all_free: bool = False                     # cannot-lose: every card of the side is free
    failed: dict[tuple, int] = field(default_factory=dict)
    nodes: int = 0
    line: Line | None = None
    dealt: dict[tuple[Seat, Suit], int] | None = None  # each seat's cards of each suit at the deal (``dealt_counts``)
    budget: int = 150_000
    exact: bool = True
    interrupted: bool = False  # the user stopped the search (a cancel token, or Ctrl-C): ``exact`` is False
    # the cancel token, polled every ``poll_every`` positions (and after each call to our solver): True ends the
    # search with its best line so far, marked unproven
    stop: Callable[[], bool] | None = None
    poll_every: int = 256
    poll_at: int = 0
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
        self.own_view = p if view_of(m.claimer, m.partner_is_dummy, p) == p else None
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
                    line_lead = led_steps(self, node, seat, card)
        if len(trick) < 4:
            return Node(tuple(hands), node.leader, trick, unaware, last_led, voids, node.line_done, node.line_off,
                        line_lead, tuple(masks), node.lost), 0
        w = self.winner(node.leader, trick)
        lost = node.lost + 1 if w.side != self.side and node.lost < self.model.concedes else node.lost
        child = Node(tuple(hands), w, (), unaware, last_led, voids, node.line_done, node.line_off, frozenset(),
                     tuple(masks), lost)
        if self.line is not None:
            child = advance_line(self, child, node.leader, trick, line_lead)
        return child, int(w.side == self.side)

    # -- the claimer's view, cached: the licences, ties and stated line (engine/play/normal/) read it through this
    def view(self, node: Node, seat: Seat | None = None) -> View:
        """The view at ``node`` that narrows ``seat``'s cards (``viewer``; None: the claimer's)."""
        own = seat is not None and seat == self.own_view
        key = (node.masks, node.unaware, node.voids, own)
        got = self._views.get(key)
        if got is None:
            if len(self._views) > 100_000:
                self._views.clear()
            m = self.model
            got = self._views[key] = view(node.masks, node.unaware, node.voids, m.claimer, m.partner_is_dummy,
                                          m.dummy, own)
        return got

    def beats(self, c: Card, w: Card | None) -> bool:
        if w is None:
            return True
        if c.suit == w.suit:
            return c.rank > w.rank
        return bool(self.trump) and c.suit == self.trump

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
        guidelines where tied, and for a restricted seat the licensed cards too (first). A restricted seat bound to
        draw trumps first (``draws_trumps_first``) keeps only its trumps of those and the side-suit cards no trump he
        knows of can ruff (``ruff_now``, ``ruff_safe``), and ruffing, the trumps that keep the draw (``draw_spent``),
        unless it has none among them."""
        if seat not in self.restricted:
            return [(c, None) for c in (ties(self, node, seat, dd, legal) if len(dd) > 1 else dd)]
        check = safety_check(self, node, seat)
        if check:
            return [(c, "safety_check_high_trump") for c in check]
        line_cards = line_moves(self, node, seat, legal)
        if line_cards is not None:
            return [(c, "line") for c in sorted(line_cards, key=lambda c: (vals.get(c, 0), c.rank, -(c.code >> 4)))]
        lic = {c: why for c, why in licences(self, node, seat).items() if c in legal}
        if draws_trumps_first(self, node, seat):
            keep = {x for x in {c.suit for c in legal}
                    if x == self.trump or ruff_safe(self, node, seat, x) or not ruff_now(self, node, seat, x)}
            t_dd = [c for c in dd if c.suit in keep]
            t_lic = {c: why for c, why in lic.items() if c.suit in keep}
            if t_dd or t_lic:
                dd, lic = t_dd, t_lic
        spent = draw_spent(self, node, seat, legal)
        if spent:
            t_dd = [c for c in dd if c not in spent]
            t_lic = {c: why for c, why in lic.items() if c not in spent}
            if t_dd or t_lic:
                dd, lic = t_dd, t_lic
        if len(dd) > 1:
            dd = ties(self, node, seat, dd, legal)
        out: list[tuple[Card, str | None]] = sorted(((c, why) for c, why in lic.items() if c not in dd),
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
            tag = (run_of[c], c if named >> c.code & 1 else None, led_steps(self, node, seat, c) if lead else None)
            if tag not in seen:
                seen.add(tag)
                out.append((c, why))
        return out

    # -- the stated line's cards, which the key and ``distinct`` keep apart (the follower: engine/play/normal/line.py)
    @property
    def named_mask(self) -> int:
        """The cards the stated line names, as a mask (``Node.masks``)."""
        if self._named_of[0] is not self.line:
            cards = [c for st in self.line.steps for c in [*st.cards, *([st.card] if st.card else [])]] \
                if self.line else []
            self._named_of = (self.line, mask_of(cards))
        return self._named_of[1]

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
        # the concession licence and the ties read the tricks still conceded while the side has not led since the claim
        first = self.model.concedes - node.lost if node.last_led is None else 0
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
            return side_has_master(self, node, suit, node.leader)  # the view of the hand on lead
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

    _left = staticmethod(tricks_left)

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
        if self.nodes >= self.poll_at and self.stop is not None:
            self.poll_at = self.nodes + self.poll_every
            if self.stop():
                raise Stopped
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
            except (Budget, Stopped, KeyboardInterrupt) as stop:  # stopped: the best line so far, marked unproven
                self.exact = False
                self.interrupted = not isinstance(stop, Budget)
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
        """``after_line`` answers ``node``: a trick's start once the line is over."""
        return (self.after_line is not None and not node.trick and not self.all_free
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
