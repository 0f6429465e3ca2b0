"""A defender's claim under Law 70D2 (``partner_restricted``): the claimer and his restricted partner keep length
with dummy and the guard of an honour, cover where the last opponent's cards are known (the forcing card), and second
hand keeps his ace for the king he sees when partner's faced cards cover the trick (fourth review, rows 3, 11, 18, 20
and 29). Each position is small and built by hand; W is the Python search's (our solver does not answer a defender's
claim with partner restricted: engine/play/native.py), checked against the enumeration of every normal line."""

from __future__ import annotations

from claimlaw.engine.play import NormalPlayModel
from claimlaw.engine.play.normal.licensing import licences
from claimlaw.engine.play.normal.ties import ties
from claimlaw.facts import Card, Position, Seat, Side, Suit
from tests.lawmarks import clause
from tests.play.test_play_core import enumerate_min, searcher, spec_position


def _played(pos: Position, cards: str) -> Position:
    for c in cards.split():
        pos.play(Card.parse(c))
    return pos


def _cards(text: str) -> set[Card]:
    return {Card.parse(x) for x in text.split()}


def _defender(claimer: Seat, dummy: Seat, restricted: bool = True) -> NormalPlayModel:
    return NormalPlayModel.default(claimer).as_defender(dummy).with_switches(partner_restricted=restricted)


# 3♠ by North, dummy South (own fourth review, row 3): North leads a trump; East, void, holds ♦QT9 against dummy's
# ♦K76 and the ♥5, a heart no one else can beat as he sees it being partner's hidden ♥KQJ
LENGTH = {Seat.N: "SA DA DJ C3", Seat.E: "DQ DT D9 H5", Seat.S: "DK D7 D6 C2", Seat.W: "HK HQ HJ C4"}


@clause("70D2", "70.footnote")
def test_a_defender_keeps_length_with_dummy_in_the_suit_of_his_honour_and_throws_another_suit_first() -> None:
    """East claims a diamond trick. On North's ♠A he keeps ♦QT9 (as many as dummy's ♦K76: the ♦A and ♦K would drop
    a shorter queen) and throws the ♥5; without 70D2's restriction the rule is the old one (one card more than
    dummy's cards above), which lets the ♦9 go."""
    pos = _played(spec_position(LENGTH, Suit.S, Seat.N), "SA")
    s, node = searcher(pos, Side.EW, _defender(Seat.E, Seat.S))
    assert set(licences(s, node, Seat.E)) == _cards("H5")
    s, node = searcher(pos, Side.EW, _defender(Seat.E, Seat.S, restricted=False))
    assert set(licences(s, node, Seat.E)) == _cards("H5 D9")


@clause("70D2", "70.footnote")
def test_a_restricted_partner_keeps_the_guard_of_his_queen_among_equally_good_discards() -> None:
    """North claims; his partner South holds ♥Q4 over dummy East's ♥K6 with declarer's small hearts out, and ♣QT.
    Among discards best play rates alike, South keeps the guard and throws a club (70D2 counts only his normal
    plays); with no other side suit he may still throw the ♥4."""
    spec = {Seat.N: "SA H3 HJ C2", Seat.E: "HK H6 D9 DT", Seat.S: "HQ H4 CQ CT", Seat.W: "S3 H8 HT C3"}
    pos = _played(spec_position(spec, Suit.S, Seat.W), "S3 SA D9")
    s, node = searcher(pos, Side.NS, _defender(Seat.N, Seat.E))
    legal = s.legal(node, Seat.S)
    assert ties(s, node, Seat.S, _sorted("H4 CT"), legal) == [Card.parse("CT")]
    s, node = searcher(pos, Side.NS, _defender(Seat.N, Seat.E, restricted=False))
    assert Card.parse("H4") in ties(s, node, Seat.S, _sorted("H4 CT"), legal)


def _sorted(text: str) -> list[Card]:
    return sorted(_cards(text), key=lambda c: (c.rank, c.suit.value))


# 3NT by East, dummy West (fourth review, row 18): dummy leads ♠5; North holds ♠QJT8, and with South's hand faced
# and dummy in view he knows declarer's cards (♠A97 ♥8)
KNOWN = {Seat.W: "S5 SK S6 DT", Seat.N: "SQ SJ ST S8", Seat.E: "SA S9 S7 H8", Seat.S: "DK DJ D9 S4"}


@clause("70D2", "70.footnote")
def test_a_restricted_partner_who_knows_declarers_cards_plays_the_card_that_forces_the_ace() -> None:
    """South claims one trick. North, second hand, cannot win the trick against declarer's known ♠A; the ♠8 would
    lose to the ♠9, the ♠T beats every spot card declarer holds and forces the ace, and the ♠QJ then score: the ♠T
    is his normal card, and the claim stands. Without 70D2's restriction he keeps the old licence."""
    pos = _played(spec_position(KNOWN, None, Seat.W), "S5")
    s, node = searcher(pos, Side.NS, _defender(Seat.S, Seat.W))
    lic = licences(s, node, Seat.N)
    assert lic[Card.parse("ST")] == "follow_low" and Card.parse("S8") not in lic  # (♠QJ: equal to the ♠T)
    assert enumerate_min(s, node) == 1
    s, node = searcher(pos, Side.NS, _defender(Seat.S, Seat.W, restricted=False))
    assert Card.parse("S8") in licences(s, node, Seat.N)


# 4♥ by East, dummy West (fourth review, row 11): dummy leads ♣7 from ♣K75; North holds ♣A43 and sees South's ♣QT
CAPTURE = {Seat.W: "CK C7 C5", Seat.N: "CA C4 C3", Seat.E: "CJ C6 HT", Seat.S: "CQ CT DQ"}


@clause("70D2", "70.footnote")
def test_second_hand_keeps_his_ace_for_the_king_in_view_while_partners_faced_cards_cover_the_trick() -> None:
    """South claims two tricks, his ♣Q and North's ♣A. North does not rise with the ace on dummy's spot card: the
    ♣K it should capture is in view before him, and South's ♣Q beats every club declarer may hold. He plays low,
    and the claim stands. Where partner's cards do not cover the trick (♣J and ♣T held by South, the ♣Q out), the
    ace stays the cheapest sure winner."""
    pos = _played(spec_position(CAPTURE, Suit.H, Seat.W), "C7")
    s, node = searcher(pos, Side.NS, _defender(Seat.S, Seat.W))
    lic = licences(s, node, Seat.N)
    assert lic[Card.parse("C3")] == "follow_low" and Card.parse("CA") not in lic
    assert enumerate_min(s, node) == 2
    spec = {Seat.W: "CK C7 C5", Seat.N: "CA C4 C3", Seat.E: "CQ C6 HT", Seat.S: "CJ CT DQ"}
    pos = _played(spec_position(spec, Suit.H, Seat.W), "C7")
    s, node = searcher(pos, Side.NS, _defender(Seat.S, Seat.W))
    assert Card.parse("CA") in licences(s, node, Seat.N)


@clause("70D2", "70.footnote")
def test_a_restricted_partner_keeps_his_only_entry_to_the_claimers_ace_before_the_guard_of_his_queen() -> None:
    """3NT by North, dummy South (own review 2026-11-28c, sound row 7): East claims four, his ♦A and West's ♥AKQ.
    On dummy's ♣Q West, void, holds ♠Q85 (a guard against dummy's ♠AK), the ♥AKQ and the ♦4, his only way to
    East's ♦A; every discard is equal double dummy. He keeps the guard and the entry and throws a heart: the ♦4 is no
    tie, nor a spade."""
    spec = {Seat.N: "D2 D7 DQ H2 S7 S9 SJ", Seat.E: "D8 D9 DA DT H7 H8 HJ", Seat.S: "H3 H5 H9 HT SA SK CQ",
            Seat.W: "D4 HA HK HQ S5 S8 SQ"}
    pos = _played(spec_position(spec, None, Seat.S), "CQ")
    s, node = searcher(pos, Side.EW, _defender(Seat.E, Seat.S))
    legal = s.legal(node, Seat.W)
    assert ties(s, node, Seat.W, sorted(legal, key=lambda c: (c.rank, c.suit.value)), legal) == [Card.parse("HQ")]
