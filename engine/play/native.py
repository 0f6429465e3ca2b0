"""Our solver behind the search's interface, chosen here and nowhere else.

The Python search (engine/play/search.py over engine/play/normal/) answers every question by itself; our C solver
(engine/play/_endings.c, built at install when a compiler is there) answers the same questions faster where it
models them, through the search's own hooks: a floor the search prunes with (``Searcher.above``) and W itself
(``Searcher.whole``, ``Searcher.after_line``). ``attach`` gives a search whatever of ours applies to its question;
``PlayCore(native=False)`` asks for none (the counts are the same: tests/play/test_lockstep.py holds ours to the
Python search licence by licence). Both read the licences from the one table (normal/licences.py, ``solver_flags``;
our solver its generated header).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from claimlaw.facts import SEATS, Card, Seat

from .bits import mask_of
from .dds import ENDING_TRICKS, HAVE_FEWEST, fewest, floor_above, take_work, worst_whole
from .model import NormalPlayModel
from .normal.licences import LOST_SHIFT, solver_flags, solver_reads
from .normal.licensing import guess_licensed
from .normal.node import Node
from .normal.view import seen_seats
from .search import Searcher

NATIVE = HAVE_FEWEST  # our solver is built


def attach(s: Searcher, root: Node, restricted: set[Seat], question: str) -> None:
    """Give ``s`` our solver's help for ``question`` from ``root``: the floor for W and cannot-lose, and W itself where
    it applies (else, with a stated line, W once the line is over). Nothing without our solver."""
    if not NATIVE:
        return
    if question in ("worst_normal", "cannot_lose"):
        s.above = floor(s, root, restricted)
        take_work()
        s.work = take_work
    if question == "worst_normal":
        s.whole = whole(s, root, restricted)
        if s.whole is None and s.line is not None and s.line.steps:
            s.after_line = whole(s, root, restricted, line_free=True)


def in_force(s: Searcher, model: NormalPlayModel) -> set[str]:
    """The licences in force as our solver reads them: the model's switches, the guess's only while no 70E2 order
    settles it, the concession's only while the claim concedes a trick."""
    out = set(model.switches) - {"finesse_or_drop", "concede_now_or_end"}
    if guess_licensed(s):
        out.add("finesse_or_drop")
    if model.on("concede_now_or_end") and model.concedes > 0:
        out.add("concede_now_or_end")
    return out


# Our solver's W (``worst_whole``) implements the claimer's view for a claimer who states no line
# (engine/play/_endings.c ``wlicences``, ``narrow``, ``v_wins``), a declarer's or a defender's (his own hand and dummy
# in view, partner's hidden), aware of every card or found unaware of some (70C: they are out of his view,
# ``unaware_view``; the switches that act only on them, core.py ``UNAWARE_ONLY``): the differential test
# (tests/play/test_lockstep.py) holds it to the Python search, the reference. A defender's partner restricted by 70D2
# (``partner_restricted``) takes licences read from a hand the claimer does not see, which our solver does not model:
# that W is the Python search's.
WHOLE_IN_LOCKSTEP = True


def sees_all(root: Node, model: NormalPlayModel) -> bool:
    """The claimer states no line, and every licence in force is one our solver reads (or one that changes nothing
    here: normal/licences.py ``solver_reads``): where our solver's licences apply. A claimer found unaware of cards
    (``root.unaware``) is one of these: our solver reads his view without them."""
    del root  # (his view at the node, the cards he is unaware of included, is our solver's argument: ``whole``)
    return not (model.line and model.line.steps) and solver_reads(model.switches)


def licence_floor_sound(root: Node, model: NormalPlayModel) -> bool:
    """Our solver's licence floor is a min over a superset of the normal cards: for a declarer's claim (whose view
    places no card our solver's superset does not allow for: engine/play/_endings.c ``licensed``) who is aware of
    every card and states no line. A defender's view hides partner's cards, and a card he is unaware of hides one of
    theirs, so he may see more losers than our solver counts: the every-play floor there."""
    return model.partner_is_dummy and not root.unaware and sees_all(root, model)


def whole_applies(root: Node, model: NormalPlayModel) -> bool:
    """Our solver's W applies: the claimer states no line (``sees_all``), and only his own seat (with a declarer,
    dummy's too) takes licences."""
    return sees_all(root, model) and (model.partner_is_dummy or not model.on("partner_restricted"))


def seat_bits(seats: set[Seat] | frozenset[Seat]) -> int:
    """A bit per seat, in SEATS order (our solver's ``restricted``)."""
    return sum(1 << SEATS.index(x) for x in seats)


def floor(s: Searcher, root: Node, restricted: set[Seat]) -> Callable[[Node, int, int], bool] | None:
    """The floor W's search prunes with (``Searcher.above``), from our solver: where the claimer is aware of every card
    and states no line, the fewest tricks over lines whose restricted cards are best play or licensable (a
    superset of the licences); otherwise, and for cannot-lose (where it is the answer itself), the fewest over
    every play at all. None without our solver."""
    if not HAVE_FEWEST:
        return None
    trump, side, model = s.trump, s.side, s.model
    if s.all_free or not licence_floor_sound(root, model):
        # the all-free floor is asked only where it is cheap (no limited probe: measured slower at 7 tricks)
        return lambda n, k, effort: not effort and bool(fewest(n.masks, trump, n.leader, n.trick, side, k))
    bits, flags = seat_bits(restricted), solver_flags(in_force(s, model))
    return lambda n, k, effort: floor_above(n.masks, trump, n.leader, n.trick, side, bits, flags, k, effort)


def whole(s: Searcher, root: Node, restricted: set[Seat], line_free: bool = False
           ) -> Callable[[Node, int, int], tuple[int, bool, list[Card]]] | None:
    """W by our solver, where it applies (``whole_applies``; None otherwise, or without our solver: the Python search
    answers). With ``line_free``, the model without its stated line, for the nodes where the line is over
    (``Searcher.after_line``)."""
    model = s.model
    if line_free:  # (the cards the claimer is unaware of are read at each node it answers)
        model = replace(model, line=None)
    if (not HAVE_FEWEST or not WHOLE_IN_LOCKSTEP or not whole_applies(root, model)
            or model.claimer.side != s.side):  # (the view our solver reads is the claimer's, of the side counted)
        return None
    bits = seat_bits(restricted)
    # the claimer's view (our solver derives a defender's partner's own from it: ``wrules``, view.py ``viewer``)
    seen = seat_bits(seen_seats(model.claimer, model.partner_is_dummy, model.dummy))
    flags = solver_flags(in_force(s, model), seen, model.concedes)
    trump, side = s.trump, s.side
    def whole(n: Node, below: int, limit: int) -> tuple[int, bool, list[Card]]:
        # above our endings solver's reach, DDS gives the double-dummy count (our solver's search of a long
        # position is slow); below it, our solver works it out within the limit
        dd = s.dd_value(n) if s._left(n) > ENDING_TRICKS else -1
        return worst_whole(n.masks, trump, n.leader, n.trick, n.last_led, n.voids, side, bits,
                           flags | min(n.lost, 15) << LOST_SHIFT, below, dd, limit, mask_of(n.unaware))

    return whole
