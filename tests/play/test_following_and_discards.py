"""How the claiming side follows and discards (engine/play/normal/licensing.py ``following`` and ``void``, our solver's
twin in engine/play/_endings.c): a winner is not crashed under partner's forced master, and a defender keeps the guard
of an honour against a tenace he sees while he holds a dead card (issue 42; own review of audit verdicts, rows 3 and
12). Each position is small and built by hand; the Python search and our solver must give the same W on it."""

from __future__ import annotations

from claimlaw.engine.play import NormalPlayModel
from claimlaw.engine.play.normal.licensing import licences
from claimlaw.facts import Card, Position, Seat, Side
from tests.lawmarks import clause
from tests.play.test_lockstep import both
from tests.play.test_play_core import searcher, spec_position


def _played(pos: Position, cards: str) -> Position:
    for c in cards.split():
        pos.play(Card.parse(c))
    return pos


def _w(pos: Position, side: Side, model: NormalPlayModel) -> int:
    """W by the Python search and by our solver, which must agree."""
    _, root = searcher(pos, side, model)
    py, c = both(pos, side, model, root)
    assert py is not None and py == c, f"the Python search {py}, our solver {c}"
    return py


# East leads ♣Q; dummy South holds ♣K5 and the ♠A (an entry), North's ♣A is bare: the ♣K would fall with it
CRASH = {Seat.N: "CA S2 H2", Seat.S: "CK C5 SA", Seat.E: "CQ CJ HK", Seat.W: "C9 S3 HQ"}


@clause("70.footnote")
def test_second_hand_plays_low_when_partner_still_to_play_holds_only_masters_of_the_suit_led() -> None:
    """Declarer North claims three tricks; East leads ♣Q. Partner's bare ♣A wins the trick whatever dummy plays, so
    dummy's ♣K would only crash with it (two of the side's winners on one trick): dummy follows low, and the ♣K
    takes a trick later (♠A entry). Throwing a winner with no possible gain is not careless but irrational."""
    pos = _played(spec_position(CRASH, None, Seat.E), "CQ")
    s, node = searcher(pos, Side.NS, NormalPlayModel.default(Seat.N))
    assert licences(s, node, Seat.S) == {Card.parse("C5"): "follow_low"}
    assert _w(pos, Side.NS, NormalPlayModel.default(Seat.N)) == 3


@clause("70.footnote")
def test_second_hand_may_win_the_trick_himself_when_partner_holds_a_low_card_of_the_suit() -> None:
    """The same, North holding ♣A2: partner need not play the ace, so dummy's ♣K (the cheapest sure winner) is no
    crash and stays a normal card."""
    spec = {Seat.N: "CA C2 H2", Seat.S: "CK C5 SA", Seat.E: "CQ CJ HK", Seat.W: "C9 S3 HQ"}
    pos = _played(spec_position(spec, None, Seat.E), "CQ")
    s, node = searcher(pos, Side.NS, NormalPlayModel.default(Seat.N))
    assert Card.parse("CK") in licences(s, node, Seat.S)


# North (declarer) runs his spades; West sits over dummy South's ♣AJ with ♣K3 and holds ♦J9, a suit no other hand holds
GUARD = {Seat.N: "SA SK C7 C6", Seat.S: "CA CJ H2 H3", Seat.W: "CK C3 DJ D9", Seat.E: "H4 H5 H6 H7"}
WEST = NormalPlayModel.default(Seat.W).as_defender(Seat.S).with_switches(partner_restricted=False)


@clause("70.footnote")
def test_a_defender_keeps_the_guard_of_his_king_over_dummys_ace_jack_while_he_holds_a_dead_suit() -> None:
    """West claims a trick for the defence. On North's ♠A he keeps ♣K3 (dummy's ♣AJ would drop a bare king) and
    throws from ♦J9, which no other hand holds: the discard licence gives him no club (best play throws a diamond),
    and the claim stands."""
    pos = _played(spec_position(GUARD, None, Seat.N), "SA H4 H2")
    s, node = searcher(pos, Side.EW, WEST)
    assert licences(s, node, Seat.W) == {}
    assert _w(spec_position(GUARD, None, Seat.N), Side.EW, WEST) == 1


@clause("70.footnote")
def test_a_defender_sitting_over_the_tenace_keeps_even_a_bare_king_before_a_dead_card() -> None:
    """West has bared his ♣K over dummy's ♣AJ: it still takes the trick whenever dummy plays the jack, and his
    ♦J9 can win nothing without it: he does not throw it while he holds a diamond."""
    spec = {Seat.N: "SA SK C7 C6", Seat.S: "CA CJ H2 H3", Seat.W: "CK D8 DJ D9", Seat.E: "H4 H5 H6 H7"}
    pos = _played(spec_position(spec, None, Seat.N), "SA H4 H2")
    s, node = searcher(pos, Side.EW, WEST)
    assert Card.parse("CK") not in licences(s, node, Seat.W)


@clause("70.footnote")
def test_a_bare_king_under_the_tenace_is_no_guard_and_may_be_thrown() -> None:
    """Dummy North holds ♣AJ and plays after West: West's bare ♣K falls whatever he does, so throwing it is a
    discard of a loser like any other."""
    spec = {Seat.S: "SA SK C7 C6", Seat.N: "CA CJ H2 H3", Seat.W: "CK D8 DJ D9", Seat.E: "H4 H5 H6 H7"}
    model = NormalPlayModel.default(Seat.W).as_defender(Seat.N).with_switches(partner_restricted=False)
    pos = _played(spec_position(spec, None, Seat.S), "SA")
    s, node = searcher(pos, Side.EW, model)
    assert licences(s, node, Seat.W) == {Card.parse("CK"): "discard"}


@clause("70.footnote")
def test_with_no_dead_card_the_guard_may_still_be_thrown() -> None:
    """West's other suit is ♥A9 with a heart in dummy: no dead card, so the ♣3 stays a normal discard (a loser
    against a winner: the model does not choose between them for him)."""
    spec = {Seat.N: "SA SK C7 C6", Seat.S: "CA CJ H2 H3", Seat.W: "CK C3 HA H9", Seat.E: "H4 H5 H6 D7"}
    pos = _played(spec_position(spec, None, Seat.N), "SA D7 H2")
    s, node = searcher(pos, Side.EW, WEST)
    assert Card.parse("C3") in licences(s, node, Seat.W)
