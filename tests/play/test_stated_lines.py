"""The stated line in the search (70D1; issue 26, item 5): the discards named on winners, named honours, the
ruffing finesse, conditional steps and third hand's card in a stated finesse, each on a hand-built position, and
W with a stated line against exhaustive enumeration."""

from __future__ import annotations

import random

import pytest

from claimlaw.engine.play import NormalPlayModel, PlayCore
from claimlaw.engine.play.coherence import check_line
from claimlaw.engine.play.normal.line import in_force, line_moves
from claimlaw.engine.play.search import Node, Searcher, dealt_counts
from claimlaw.facts import SEATS, SUITS, Card, Line, Position, Seat, Side, Step, Suit
from claimlaw.facts.case import Condition
from tests.lawmarks import clause
from tests.play.test_play_core import enumerate_min_memo, random_position, spec_position

CORE = PlayCore()


def _line(*steps: Step, ordered: bool = False) -> Line:
    return Line(steps=list(steps), ordered=ordered)


def _searcher(pos: Position, side: Side, model: NormalPlayModel) -> tuple[Searcher, Node]:
    """The search for ``model`` with its stated line, as the play core builds it (no solver of ours)."""
    root = Node(hands=tuple(frozenset(pos.hands[x]) for x in SEATS), leader=pos.leader, trick=tuple(pos.trick),
                unaware=frozenset(model.unaware_of), last_led=None,
                voids=frozenset((x, y) for x, ys in pos.shown_out.items() for y in ys))
    restricted = {model.claimer}
    if model.partner_is_dummy or model.on("partner_restricted"):
        restricted.add(model.claimer.partner)
    s = Searcher(trump=pos.trump, side=side, model=model, values=lambda n: CORE.values(n, pos.trump),
                 restricted=frozenset(restricted), line=model.line, dealt=dealt_counts(pos), budget=10**9)
    return s, root


def _after(s: Searcher, node: Node, cards: str) -> Node:
    for c in cards.split():
        node, _ = s.play(node, Card.parse(c))
    return node


def _cards(text: str) -> list[Card]:
    return [Card.parse(x) for x in text.split()]


def _stated_discard() -> tuple[Position, NormalPlayModel]:
    """South cashes ♥AK, dummy to throw its ♠A on them: the position and the stated line."""
    spec = {Seat.S: "HA HK S2", Seat.N: "H3 SA C2", Seat.E: "H4 S3 C3", Seat.W: "H5 D3 D4"}
    return spec_position(spec, None, Seat.S), NormalPlayModel.default(Seat.S).with_line(
        _line(Step(action="cash", suit=Suit.H), Step(action="discard", suit=Suit.S, hand=Seat.N, cards=["SA"])))


def test_dummy_throws_the_card_named_in_a_stated_discard_while_the_winners_are_cashed() -> None:
    """'Cash the hearts, discarding dummy's ♠A': on the ♥K dummy throws the ♠A, though ♣2 keeps the entry to it;
    the line costs the trick (W 2 against 3 with no line)."""
    pos, model = _stated_discard()
    w = CORE.worst_normal(pos, Side.NS, model)
    assert w.tricks == 2 and CORE.worst_normal(pos, Side.NS, NormalPlayModel.default(Seat.S)).tricks == 3
    second = w.witness.tricks_played[1]
    assert (second[0], second[2]) == ("HK", "SA")
    s, root = _searcher(pos, Side.NS, model)
    assert line_moves(s, _after(s, root, "HA H5 H3 H4 HK D3"), Seat.N, _cards("SA C2")) == _cards("SA")


def test_the_coherence_check_fails_a_line_that_keeps_a_card_the_stated_discard_names() -> None:
    pos, model = _stated_discard()
    kinds = [f.kind for f in check_line(pos, Side.NS, model, _cards("HA H5 H3 H4 HK D3 C2 S3"), CORE)]
    assert kinds == ["line_left"]
    assert check_line(pos, Side.NS, model, _cards("HA H5 H3 H4 HK D3 SA S3"), CORE) == []


def test_a_discard_named_by_suit_alone_throws_the_lowest_card_of_that_suit_on_the_winners() -> None:
    spec = {Seat.S: "HA HK S2", Seat.N: "H3 SA S4", Seat.E: "H4 S3 C3", Seat.W: "H5 D3 D4"}
    pos = spec_position(spec, None, Seat.S)
    model = NormalPlayModel.default(Seat.S).with_line(
        _line(Step(action="cash", suit=Suit.H), Step(action="discard", suit=Suit.S)))
    s, root = _searcher(pos, Side.NS, model)
    assert line_moves(s, _after(s, root, "HA H5 H3 H4 HK D3"), Seat.N, _cards("SA S4")) == _cards("S4")


def test_a_cash_with_named_honours_leads_low_to_the_honour_named_first_and_plays_the_honours_in_order() -> None:
    """'A heart to the king and ace': ♥2 to dummy's ♥K, then ♥3 back to the ♥A (not the ace first, top down)."""
    spec = {Seat.S: "HA H2 C2", Seat.N: "HK H3 C3", Seat.E: "H4 H5 C4", Seat.W: "H6 H7 C5"}
    pos = spec_position(spec, None, Seat.S)
    model = NormalPlayModel.default(Seat.S).with_line(
        _line(Step(action="cash", suit=Suit.H, cards=["HK", "HA"], count=2)))
    w = CORE.worst_normal(pos, Side.NS, model)
    first, second = w.witness.tricks_played[:2]
    assert (first[0], first[2]) == ("H2", "HK") and (second[0], second[2]) == ("H3", "HA")


def test_partner_plays_the_next_named_card_only_where_it_wins_the_trick_so_far() -> None:
    """'The ♦J, overtaken with the ♦Q': dummy overtakes; 'the ♥A and the ♥K' from two hands: no crash under the ace."""
    spec = {Seat.S: "HA DJ C2", Seat.N: "HK DQ C3", Seat.E: "H4 D4 C4", Seat.W: "H6 D6 C5"}
    pos = spec_position(spec, None, Seat.S)
    for named, led, want in ((["DJ", "DQ"], "DJ D6", _cards("DQ")), (["HA", "HK"], "HA H6", None)):
        s, root = _searcher(pos, Side.NS, NormalPlayModel.default(Seat.S).with_line(_line(Step(action="play",
                                                                                               cards=named))))
        node = _after(s, root, led)
        assert line_moves(s, node, Seat.N, s.legal(node, Seat.N)) == want


def test_a_ruffing_finesse_leads_through_second_hand_and_ruffs_a_cover_else_throws_a_loser() -> None:
    spec = {Seat.S: "HQ HJ C2", Seat.N: "S2 S3 D2", Seat.W: "HK H4 D4", Seat.E: "H5 C3 D3"}
    pos = spec_position(spec, Suit.S, Seat.S)
    model = NormalPlayModel.default(Seat.S).with_line(_line(Step(action="ruffing_finesse", suit=Suit.H)))
    s, root = _searcher(pos, Side.NS, model)
    assert line_moves(s, root, Seat.S, s.legal(root, Seat.S)) == _cards("HQ")
    covered = _after(s, root, "HQ HK")
    assert line_moves(s, covered, Seat.N, s.legal(covered, Seat.N)) == _cards("S2")
    ducked = _after(s, root, "HQ H4")
    assert line_moves(s, ducked, Seat.N, s.legal(ducked, Seat.N)) == _cards("D2")
    done = _after(s, ducked, "D2 H5")
    assert line_moves(s, done, Seat.S, s.legal(done, Seat.S)) is None  # one ruffing finesse was stated



@clause("70D1")
def test_a_stated_ruff_leads_the_suit_to_the_void_hand_which_ruffs_and_is_then_done() -> None:
    """'Ruff a club in dummy': South leads his low club and North, void, ruffs as low as wins; with North on lead the
    line waits (he crosses first), and after the ruff it is silent."""
    spec = {Seat.S: "C2 C3 H2", Seat.N: "S2 S3 H3", Seat.W: "C4 C5 H4", Seat.E: "C6 C7 H5"}
    pos = spec_position(spec, Suit.S, Seat.S)
    model = NormalPlayModel.default(Seat.S).with_line(_line(Step(action="ruff", suit=Suit.C, hand=Seat.N)))
    s, root = _searcher(pos, Side.NS, model)
    assert line_moves(s, root, Seat.S, s.legal(root, Seat.S)) == _cards("C2")
    led = _after(s, root, "C2 C4")
    assert line_moves(s, led, Seat.N, s.legal(led, Seat.N)) == _cards("S2")
    assert line_moves(s, _after(s, led, "S2 C6"), Seat.N, _cards("S3 H3")) is None
    from_north = spec_position(spec, Suit.S, Seat.N)
    s2, root2 = _searcher(from_north, Side.NS, model)
    assert line_moves(s2, root2, Seat.N, s2.legal(root2, Seat.N)) is None

@clause("70D1")
def test_a_stated_ruff_is_silent_when_partner_s_card_wins_the_round_as_the_claimer_sees_it() -> None:
    """'Ruff a club in dummy': South's ♣5 holds the trick once West plays low and East is known void, so North does
    not ruff it (St Petersburg 2000, blakjak: dummy's ♣7 over North's ♣6 is not ruffed). While East may still hold
    the hidden ♣7, North ruffs."""
    spec = {Seat.S: "C5 C6 H2", Seat.N: "S2 S3 H3", Seat.W: "C7 C3 D4", Seat.E: "D6 D7 H5"}
    model = NormalPlayModel.default(Seat.S).with_line(_line(Step(action="ruff", suit=Suit.C, hand=Seat.N)))
    known = spec_position(spec, Suit.S, Seat.S)
    known.shown_out[Seat.E].add(Suit.C)
    s, root = _searcher(known, Side.NS, model)
    assert line_moves(s, root, Seat.S, s.legal(root, Seat.S)) == _cards("C5")
    low = _after(s, root, "C5 C3")
    assert line_moves(s, low, Seat.N, s.legal(low, Seat.N)) is None
    s2, root2 = _searcher(spec_position(spec, Suit.S, Seat.S), Side.NS, model)
    low2 = _after(s2, root2, "C5 C3")
    assert line_moves(s2, low2, Seat.N, s2.legal(low2, Seat.N)) == _cards("S2")


def test_a_conditional_step_is_in_force_only_once_the_claimer_has_seen_the_condition_hold() -> None:
    """'If spades are 2-1, I play the ♣2': nothing until East shows out on the second spade; a 3-0 condition is
    then seen not to hold and never applies."""
    spec = {Seat.S: "SA SK C2 D2", Seat.N: "S6 S7 C6 D6", Seat.W: "S5 S4 C7 D7", Seat.E: "S3 C8 C9 D8"}
    pos = spec_position(spec, None, Seat.S)

    def searcher_for(lengths: list[int]) -> tuple[Searcher, Node]:
        step = Step(action="play", cards=["C2"], condition=Condition(suit=Suit.S, lengths=lengths))
        return _searcher(pos, Side.NS, NormalPlayModel.default(Seat.S).with_line(_line(step)))

    s, root = searcher_for([2, 1])
    assert in_force(s, root) == [] and line_moves(s, root, Seat.S, s.legal(root, Seat.S)) is None
    one = _after(s, root, "SA S4 S6 S3")
    assert in_force(s, one) == []
    two = _after(s, one, "SK S5 S7 C8")
    assert in_force(s, two) == [0] and line_moves(s, two, Seat.S, s.legal(two, Seat.S)) == _cards("C2")
    s3, root3 = searcher_for([3, 0])
    assert in_force(s3, _after(s3, root3, "SA S4 S6 S3 SK S5 S7 C8")) == []



@clause("70D1")
def test_a_step_stated_for_a_bad_break_is_in_force_when_the_break_is_worse_but_not_one_for_a_good_break() -> None:
    """St Petersburg 2000 (blakjak, the TD's ruling): a plan for 4-1 is his plan for 5-0. Here 'if spades are 3-1, I
    play the ♣2' is in force once East shows out with the four spades all West's; 'if spades are 2-2' never is."""
    spec = {Seat.S: "SA SK C2 D2 H2", Seat.N: "S6 S7 C6 D6 H6", Seat.W: "S5 S4 S3 S2 C7",
            Seat.E: "C8 C9 D8 D7 H3"}
    pos = spec_position(spec, None, Seat.S)

    def in_force_after_a_show_out(lengths: list[int]) -> list[int]:
        step = Step(action="play", cards=["C2"], condition=Condition(suit=Suit.S, lengths=lengths))
        s, root = _searcher(pos, Side.NS, NormalPlayModel.default(Seat.S).with_line(_line(step)))
        return in_force(s, _after(s, root, "SA S2 S6 C8"))

    assert in_force_after_a_show_out([3, 1]) == [0]
    assert in_force_after_a_show_out([2, 2]) == []

def test_third_hand_plays_the_finesse_card_in_a_stated_finesse_and_the_line_is_silent_over_a_cover() -> None:
    spec = {Seat.S: "S2 S3 S4", Seat.N: "SA SQ S9", Seat.W: "SK S5 S6", Seat.E: "SJ ST S7"}
    pos = spec_position(spec, None, Seat.S)
    model = NormalPlayModel.default(Seat.S).with_line(_line(Step(action="finesse", suit=Suit.S, card="SK")))
    s, root = _searcher(pos, Side.NS, model)
    assert line_moves(s, root, Seat.S, s.legal(root, Seat.S)) == _cards("S2")
    low = _after(s, root, "S2 S5")
    assert line_moves(s, low, Seat.N, s.legal(low, Seat.N)) == _cards("SQ")
    assert line_moves(s, _after(s, root, "S2 SK"), Seat.N, _cards("S9 SQ SA")) is None


def _random_line(rng: random.Random, pos: Position, side: Side, trump: Suit | None) -> Line:
    """One to three steps of every kind the search follows, in suits the side holds, some under a condition
    (half of them the suit's true split, so that it can be seen to hold), ordered or not."""
    ours = sorted((c for s in side.seats for c in pos.hands[s]), key=lambda c: c.code)
    suits = sorted({c.suit for c in ours}, key=lambda x: x.value)
    dealt = dealt_counts(pos)
    steps: list[Step] = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["cash", "cash_named", "draw_trumps", "finesse", "ruffing_finesse", "play", "discard",
                           "discard_suit", "ruff"])
        x = rng.choice(suits)
        cond = None
        if rng.random() < 0.4:
            y = rng.choice(SUITS)
            true = [dealt.get((o, y), 0) for o in side.other.seats]
            cond = Condition(suit=y, lengths=true if rng.random() < 0.5 else rng.choice([[2, 1], [1, 1], [3, 0]]))
        if kind == "cash_named":
            named = rng.sample(ours, min(2, len(ours)))
            st = Step(action="cash", suit=named[0].suit, cards=[str(c) for c in named])
        elif kind == "play":
            st = Step(action="play", cards=[str(rng.choice(ours))])
        elif kind == "discard":
            st = Step(action="discard", cards=[str(rng.choice(ours))], hand=rng.choice([None, *side.seats]))
        elif kind == "discard_suit":
            st = Step(action="discard", suit=x)
        elif kind == "ruff":
            st = Step(action="ruff", suit=x if x != trump else None, hand=rng.choice([None, *side.seats]))
        elif kind == "draw_trumps" and trump is None:
            st = Step(action="cash", suit=x)
        else:
            st = Step(action=kind, suit=x)
        steps.append(st.model_copy(update={"condition": cond}))
    return Line(steps=steps, ordered=rng.random() < 0.5)


@pytest.mark.parametrize("seed", range(120))
def test_w_with_a_stated_line_equals_an_exhaustive_enumeration_of_the_lines_cards(seed: int) -> None:
    rng = random.Random(30_000 + seed)
    trump = rng.choice([None, *SUITS])
    pos = random_position(rng, rng.randint(3, 4), trump, mid_trick=rng.random() < 0.2)
    side = rng.choice([Side.NS, Side.EW])
    claimer = side.seats[rng.randint(0, 1)]
    model = NormalPlayModel.default(claimer).with_line(_random_line(rng, pos, side, trump))
    w = CORE.worst_normal(pos, side, model)
    s, root = _searcher(pos, side, model)
    assert w.exact and w.tricks == enumerate_min_memo(s, root)
    assert w.tricks <= CORE.double_dummy(pos, side).tricks


def test_a_cash_step_repeated_later_in_the_line_binds_nothing_so_reading_it_once_keeps_every_count() -> None:
    """Issue 35: "cash the hearts, the clubs, the hearts, the clubs ..." is read as two steps (``collapse_repeats``);
    the follower marks a repeated cash done with the first, so W with the repeats written out is W with them read
    once, on random positions, ordered or not, and the statement reader says so in its trace."""
    from claimlaw.engine.readers.statement import parse_statement

    text = "cash the hearts, then cash the clubs, then draw trumps" + ", then cash the hearts, then cash the clubs" * 4
    parsed = parse_statement(text, trump=Suit.S, claimer=Seat.S)
    assert [(s.action, s.suit) for s in parsed.line.steps] == [("cash", Suit.H), ("cash", Suit.C),
                                                              ("draw_trumps", None)]
    assert parsed.collapsed == 8 and any("read once" in x for x in parsed.describe())
    cash_h, cash_c, draw = (Step(action="cash", suit=Suit.H), Step(action="cash", suit=Suit.C),
                            Step(action="draw_trumps"))
    rng = random.Random(35)
    for _ in range(12):
        pos = random_position(rng, 5, Suit.S)
        pos = Position(hands=pos.hands, trump=Suit.S, leader=Seat.S)
        for ordered in (True, False):
            base = NormalPlayModel.default(Seat.S)
            once = base.with_line(_line(cash_h, cash_c, draw, ordered=ordered))
            again = base.with_line(_line(cash_h, cash_c, draw, cash_h, cash_c, cash_h, cash_c, ordered=ordered))
            assert PlayCore().worst_normal(pos, Side.NS, once).tricks == \
                PlayCore().worst_normal(pos, Side.NS, again).tricks


def test_a_repeated_cash_with_a_discard_made_on_it_stays_a_step_of_its_own() -> None:
    """The discard after a repeated cash is made on that cash's winners (``step_bound``): the repeat stays."""
    from claimlaw.engine.readers.statement import parse_statement

    p = parse_statement("cash the clubs, discarding a heart, then cash the hearts, then cash the clubs, discarding a "
                        "diamond", trump=Suit.S, claimer=Seat.S)
    assert [(s.action, s.suit) for s in p.line.steps] == [("cash", Suit.C), ("discard", Suit.H), ("cash", Suit.H),
                                                          ("cash", Suit.C), ("discard", Suit.D)]
    assert p.collapsed == 0
