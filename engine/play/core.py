"""The play-simulation core: double dummy (DDS through endplay), the worst outcome over the claiming
side's normal lines (W) with a witness line, and what cannot be lost by any legal play.

The package's ``PlayCore``; imported on first use (engine/play/__init__.py), so that what needs only the normal-play
model and its table (the rules) does not load the solvers.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from claimlaw.facts import SEATS, Card, Choice, Position, Seat, Side, Witness

from . import native
from .dds import Disagreement, SolverError, card_values, new_question
from .model import NormalPlayModel
from .normal.licences import BY_NAME
from .normal.licensing import guess_needed, real_guess, tenace_card
from .search import Node, Searcher, Step, dealt_counts


@dataclass
class Count:
    """A trick count for one side of the remaining tricks, with the line that gives it."""

    tricks: int
    witness: Witness
    nodes: int = 0
    seconds: float = 0.0
    exact: bool = True  # False: ``tricks`` is the worst line found, not proven the worst (budget, or ``below``)
    settled: bool = True  # the question asked is answered (with ``below``: a line under it, or proof of none)
    path: list[Step] = field(default_factory=list, repr=False, compare=False)  # the witness line's steps


UNLIMITED = 10**12  # a budget no search reaches: "until proven"
T = TypeVar("T")


def _question(fn: Callable[..., T]) -> Callable[..., T]:
    """A question the rules ask: ``on_question`` is told its name as it starts and "" once it is answered (a
    question asked inside another, as ``can_make`` asks ``double_dummy``, is not told again)."""

    @functools.wraps(fn)
    def ask(self: PlayCore, *args: object, **kwargs: object) -> T:
        tell = self.on_question
        if tell is None or self._asking:
            return fn(self, *args, **kwargs)
        self._asking = True
        tell(fn.__name__)
        try:
            return fn(self, *args, **kwargs)
        finally:
            self._asking = False
            tell("")

    return ask


class PlayCore:
    """Answers the rules' trick questions; caches double-dummy values by the exact cards.

    ``budget``: search positions per question (None: no limit, search until the count is proven). ``native``: let
    our solver (engine/play/native.py, where it is chosen) help where it applies; off, the Python search alone answers
    (the same counts: tests/play/test_lockstep.py).

    ``stopped`` is the cancel token: set it (``stop()``, from a signal handler or another thread) and the search under
    way ends at its next poll with the best line it found, marked unproven, and every later question gets no budget
    (it answers at once); ``resume()`` clears it. A Ctrl-C that reaches the search as KeyboardInterrupt does the
    same."""

    def __init__(self, budget: int | None = 60_000, check_coherence: bool = False, native: bool = True,
                 **search_options: object) -> None:
        self._values: dict[tuple, dict[Card, int]] = {}
        self._counts: dict[tuple, Count] = {}
        self.budget = budget
        self.native = native
        self.stopped = False  # the cancel token (``stop``), set too by a search Ctrl-C ended; ``resume`` clears it
        self.disagreements: list[str] = []  # questions our solver answered wrongly (the Python search redid them)
        self.search_options = search_options  # Searcher switches (probe_depth, probe_share, ...) for benchmarks
        self.positions = 0  # positions searched by the questions answered so far
        self.on_positions: Callable[[int], None] | None = None  # told the running count now and then (progress)
        self.on_question: Callable[[str], None] | None = None  # told each question's name as it starts, "" at its end
        self._asking = False
        # with ``check_coherence``, every worst-normal witness line is put through the coherence check
        # (engine/play/coherence.py) and its faults are kept here, one line each (issue 26 item 8)
        self.check_coherence = check_coherence
        self.faults: list[str] = []

    # -- the three questions ---------------------------------------------------------------
    @_question
    def double_dummy(self, pos: Position, side: Side) -> Count:
        return self._run(pos, side, NormalPlayModel.dd_only(side.seats[0]), "double_dummy")

    @_question
    def can_make(self, pos: Position, side: Side, n: int) -> bool:
        return self.double_dummy(pos, side).tricks >= n

    @_question
    def worst_normal(self, pos: Position, side: Side, model: NormalPlayModel, below: int | None = None) -> Count:
        """W and a witness. With ``below``, only whether some normal line gives fewer than ``below`` tricks:
        the first such line found is returned (``exact`` False: W may be lower still), or, when none
        exists, the proof of it (``tricks`` is then a normal line's count, at least ``below``)."""
        key = (below, pos.pbn(), tuple(pos.trick), pos.leader, pos.trump, tuple(sorted(pos.won.items())), side,
               model.claimer, model.switches, model.unaware_of,
               model.line.model_dump_json() if model.line else "", model.played_after_claim, model.guess_order,
               model.concedes, model.partner_is_dummy, model.dummy, _conditional_dealt(pos, model),
               tuple(sorted((a.value, x.value) for a, xs in pos.shown_out.items() for x in xs)))
        got = self._counts.get(key)
        if got is None and len(self._counts) > 10_000:
            self._counts.clear()
        if got is None:  # the rules ask the same question more than once (70C3, then 70A)
            got = self._run(pos, side, replace(model, played_after_claim=()), "worst_normal", below=below)
            if model.played_after_claim:
                got = self._with_evidence(pos, side, model, got, below)
            aware = aware_twin(pos, model)
            if aware is not None:
                got = fewer(got, self.worst_normal(pos, side, aware, below), below)
            if not self.stopped:  # a count cut short by Ctrl-C is not the answer to keep
                self._counts[key] = got
        return got

    def _with_evidence(self, pos: Position, side: Side, model: NormalPlayModel, base: Count, below: int | None
                       ) -> Count:
        """70D3 (2007) / 68D2(b) (2017): the cards played after the claim are evidence of the claimer's probable
        play, so the line that played them, then the worst normal line from where they stopped, is one more normal
        line: W is the fewer of ``base`` (the model's W) and that line's count. Not with a stated line (its
        steps are counted from the claim)."""
        if model.line is not None and model.line.steps:
            return base
        after = pos.copy()
        steps: list[Step] = []
        for card in model.played_after_claim:
            seat = after.to_move
            steps.append(Step(card, seat, "played_after_claim" if seat.side == model.claimer.side else None))
            after.play(card)
        won = after.won[side] - pos.won[side]
        lost = after.tricks_played - pos.tricks_played - won
        rest = replace(model, played_after_claim=(), concedes=max(0, model.concedes - lost))
        if after.tricks_left == 0 and not after.trick:
            tail: list[Step] = []
            tricks, exact = won, True
        else:
            sub = self.worst_normal(after, side, rest, None if below is None else below - won)
            tail, tricks, exact = sub.path, won + sub.tricks, sub.exact
        if tricks >= base.tricks:
            return base
        path = [*steps, *tail]
        w = witness(pos, side, "worst_normal", tricks, path, model)
        settled = base.settled or (below is not None and tricks < below)
        return Count(tricks, w, base.nodes, base.seconds, exact and base.exact, settled, path)

    def guess_at_stake(self, pos: Position, side: Side, model: NormalPlayModel) -> bool:
        """Does the claim need a guess, as the claimer sees it at the claim: are the tricks he sees as sure (top and
        length winners, trump tricks, ruffs: ``sure_tricks``) fewer than the tricks he claims? No search: his view
        of the cards only (70E1: a line "the success of which depends" on a card's place). The same test, per
        suit, gates the licence in the search (``guess_is_the_way``)."""
        check(pos)
        return guess_needed(*self._view_root(pos, side, model))

    def guess_in_view(self, pos: Position, side: Side, model: NormalPlayModel) -> str:
        """The card the claim rests on finding, where at the claim a suit holds a guess that is the way to the
        missing trick: the hidden card inside a tenace of his side's with a guess in it whose winning makes the
        claim (``real_guess``, as the licence reads it), as "♠K"; "" where there is none. Where there is one, the
        claim rests on that guess whatever line the count finds (70E1 is among its reasons, naming the card);
        where there is not, 70E1 bears on the ruling only if a guess met later in the play is on the line ruled."""
        check(pos)
        s, root = self._view_root(pos, side, model)
        if not guess_needed(s, root):
            return ""
        for held in side.seats:
            hand = root.hand(held)
            for x in sorted({c.suit for c in hand}, key=lambda u: u.value):
                if real_guess(s, root, hand, x, held.partner):
                    m = tenace_card(s, root, hand, x, held.partner)
                    if m is not None:
                        return m.pretty
        return ""

    def _view_root(self, pos: Position, side: Side, model: NormalPlayModel) -> tuple[Searcher, Node]:
        root = root_node(pos, model)
        s = Searcher(trump=pos.trump, side=side, model=model, values=lambda n: self.values(n, pos.trump),
                     restricted=frozenset({model.claimer}), dealt=dealt_counts(pos), budget=1)
        return s, root

    @_question
    def cannot_lose(self, pos: Position, side: Side) -> Count:
        return self._run(pos, side, NormalPlayModel.dd_only(side.seats[0]), "cannot_lose", all_free=True)

    def stop(self) -> None:
        """Set the cancel token: the search under way ends at its next poll, later questions get no budget."""
        self.stopped = True

    def resume(self) -> None:
        """Search with the full budget again after a stop ended one ruling's searches."""
        self.stopped = False

    # -- plumbing --------------------------------------------------------------------------
    def values(self, node: Node, trump: object) -> dict[Card, int]:
        key = (node.masks, node.leader, tuple(c.code for c in node.trick), trump)
        got = self._values.get(key)
        if got is None:
            got = card_values(node.masks, trump, node.leader, node.trick)  # type: ignore[arg-type]
            if len(self._values) > 200_000:
                self._values.clear()
            self._values[key] = got
        return got

    def _run(self, pos: Position, side: Side, model: NormalPlayModel, question: str, *,
             all_free: bool = False, below: int | None = None) -> Count:
        t0 = time.perf_counter()
        check(pos)
        new_question()
        root = root_node(pos, model)
        claimer = model.claimer
        restricted: set[Seat] = set()
        if question == "worst_normal":
            restricted.add(claimer)
            if claimer.side == side and (model.partner_is_dummy or model.on("partner_restricted")):
                restricted.add(claimer.partner)  # dummy's cards are declarer's; a defender's partner by 70D2
        trump = pos.trump

        def searcher(ours: bool) -> Searcher:
            """The search; with ``ours``, helped by our solver (its floors, and W where it applies)."""
            s = Searcher(trump=trump, side=side, model=model, values=lambda n: self.values(n, trump),
                         restricted=frozenset(restricted), all_free=all_free,
                         line=model.line if question == "worst_normal" else None, dealt=dealt_counts(pos),
                         budget=1 if self.stopped else UNLIMITED if self.budget is None else self.budget,
                         stop=lambda: self.stopped, **self.search_options)  # type: ignore[arg-type]
            if self.on_positions is not None:
                tell, base = self.on_positions, self.positions
                s.on_nodes = lambda n: tell(base + n)
            if ours and self.native:
                native.attach(s, root, restricted, question)
            return s

        s = searcher(True)
        plain = (not model.switches and not root.unaware and not (model.line and model.line.steps))
        if question == "double_dummy" or (question == "worst_normal" and plain):
            # no licence and full knowledge: the normal lines are the best-play lines, W is double dummy
            tricks, path = s.dd_value(root), s.dd_line(root)
        else:
            try:
                tricks, path = s.worst(root, below=below)
            except Disagreement as e:
                # our solver gave a line the Python model does not accept (a defect of ours, kept in
                # ``disagreements``): the Python search, the reference, answers the question alone
                self.disagreements.append(f"{pos.pbn()} {pos.leader.value} {' '.join(map(str, pos.trick))}: {e}")
                s = searcher(False)
                tricks, path = s.worst(root, below=below)
            if s.interrupted:
                self.stopped = True  # every later question of this ruling gets no budget: it comes at once
        w = witness(pos, side, question, tricks, path, model)
        if self.check_coherence and question == "worst_normal":
            from .coherence import check_line

            for f in check_line(pos, side, model, [st.card for st in path], self):
                self.faults.append(f"{pos.pbn()} {pos.leader.value} {' '.join(map(str, pos.trick))}: {f.kind}: "
                                   f"{f.words}")
        if below is None or question == "double_dummy" or plain:
            exact = settled = s.exact
        elif tricks < below:  # a line under the target: the answer, though W may be lower still
            exact, settled = False, True
        else:  # none under the target (proven unless the budget ran out): W lies in [below, tricks]
            exact, settled = s.exact and tricks == below, s.exact
        if not settled:
            w.words += (f" (The search stopped after {s.nodes:,} positions: no worse normal line was found, "
                        "but none was ruled out either.)")
        self.positions += s.nodes
        return Count(tricks, w, s.nodes, time.perf_counter() - t0, exact, settled, list(path))


# the switches that act only on a card the claimer is unaware of (licensing.py ``void``, ``safety_check``)
UNAWARE_ONLY = frozenset({"unaware_trump", "unaware_winner", "safety_check_high_trump"})


def aware_twin(pos: Position, model: NormalPlayModel) -> NormalPlayModel | None:
    """The same model with the claimer aware of every card, where he is found unaware of a card still out (None
    otherwise): a forgotten card never gains him a trick (White Book 8.70.4 and 8.70.6 give the opponents the
    tricks it could lose; Law 70A resolves against him the doubt whether he forgot it), so W is the fewer of the
    two counts (``fewer``), as 70C3 rules a forgotten trump."""
    if not model.unaware_of:
        return None
    out = {c for h in pos.hands.values() for c in h}
    if not any(c in out for c in model.unaware_of):
        return None
    return replace(model, unaware_of=frozenset(), switches=model.switches - UNAWARE_ONLY)


def fewer(unaware: Count, aware: Count, below: int | None) -> Count:
    """W of a claimer found unaware of a card: the fewer of his count unaware of it and aware of it (each a whole
    line of one state of mind). With ``below``, a line under it from either answers; else both must prove none."""
    if below is not None:
        for c in (unaware, aware):
            if c.tricks < below and c.settled:
                return c
    low = aware if aware.tricks < unaware.tricks else unaware
    return replace(low, nodes=unaware.nodes + aware.nodes, seconds=unaware.seconds + aware.seconds,
                   exact=unaware.exact and aware.exact, settled=unaware.settled and aware.settled)


def _conditional_dealt(pos: Position, model: NormalPlayModel) -> tuple:
    """What a conditional step of the stated line reads beyond the cards left: the deal's lengths (else nothing)."""
    if model.line is None or not any(st.condition for st in model.line.steps):
        return ()
    return tuple(sorted((s.value, x.value, n) for (s, x), n in dealt_counts(pos).items()))


def root_node(pos: Position, model: NormalPlayModel) -> Node:
    """The search's node for ``pos``: the hands, the trick in progress, the show-outs, and the cards the claimer is
    unaware of that are still out."""
    return Node(hands=tuple(frozenset(pos.hands[s]) for s in SEATS), leader=pos.leader, trick=tuple(pos.trick),
                unaware=frozenset(model.unaware_of) & frozenset(c for h in pos.hands.values() for c in h),
                last_led=None, voids=frozenset((s, x) for s, xs in pos.shown_out.items() for x in xs))


def check(pos: Position) -> None:
    """Refuse a position DDS cannot take, before calling it."""
    sizes = [len(pos.hands[s]) for s in SEATS]
    seat, n = pos.leader, []
    for _ in pos.trick:
        n.append(seat)
        seat = seat.next
    full = [sizes[i] + (1 if SEATS[i] in n else 0) for i in range(4)]
    if len(set(full)) != 1:
        counts = dict(zip([x.value for x in SEATS], sizes, strict=True))
        raise SolverError(f"the hands do not hold equal numbers of cards: {counts}")
    if len(pos.trick) > 3:
        raise SolverError("a trick in progress has at most three cards")


def witness(pos: Position, side: Side, question: str, tricks: int, path: list[Step],
            model: NormalPlayModel) -> Witness:
    """The line as tricks from their leaders, the licences it used, and a Director's sentence."""
    tricks_played: list[list[str]] = []
    leaders: list[str] = []
    cur: list[str] = list(str(c) for c in pos.trick)
    choices: list[Choice] = []
    winners: list[str] = []
    words: list[str] = []
    sim = pos.copy()
    for st in path:
        if st.licence:
            lic = BY_NAME.get(st.licence)
            choices.append(Choice(seat=st.seat.value, card=str(st.card), trick=sim.tricks_played + 1,
                                  licence=st.licence, meaning=lic.meaning if lic else st.licence,
                                  source=lic.source if lic else ""))
        sim.play(st.card)
        cur.append(str(st.card))
        if len(cur) == 4:
            t = sim.history[-1]
            tricks_played.append(cur)
            leaders.append(t.leader.value)
            winners.append(t.winner.value)
            ruff = ""
            if pos.trump and t.cards[0].suit != pos.trump and any(c.suit == pos.trump for c in t.cards):
                ruff = " (ruffed)"
            seats = [t.leader, t.leader.next, t.leader.next.next, t.leader.next.next.next]
            win_card = t.cards[seats.index(t.winner)]
            rest = ", ".join(f"{seats[i].long_name} {t.cards[i].pretty}" for i in range(1, 4))
            words.append(f"{t.leader.long_name} leads {t.cards[0].pretty} ({rest}): {t.winner.long_name} wins with "
                         f"{win_card.pretty}{ruff}")
            cur = []
    sentence = "; ".join(words)
    if question == "worst_normal" and choices:
        sentence = f"{sentence}. {side.long_name} take {tricks}: " + "; ".join(ch.text for ch in choices)
    else:
        sentence = f"{sentence}. {side.long_name} take {tricks}."
    return Witness(side=side.value, tricks=tricks, question=question, tricks_played=tricks_played, leaders=leaders,
                   winners=winners, choices=choices, words=sentence)
