"""A guess only where the claim needs one (issue 42 item 2): the tricks the claimer sees as sure (top and length
winners, trump tricks with a trump out where his trumps are high enough, ruffs with none out) decide whether his
claim depends on a guess (70E1), and the guess is licensed only in a suit where winning it makes the claim."""

from __future__ import annotations

import copy

from claimlaw.engine.play import NormalPlayModel, PlayCore
from claimlaw.engine.play.normal.licensing import licences, real_guess, sure_tricks
from claimlaw.facts import Card, Position, Seat, Side, Suit
from tests.lawmarks import clause
from tests.play.test_play_core import searcher, spec_position

CORE = PlayCore()

# West leads toward dummy's ♦AQ around North's ♦K; North also holds the ♦9, South the ♦87
TOP_AND_LENGTH = {Seat.W: "HA HK HQ H4 D3 D2", Seat.E: "DA DQ C2 C3 C4 C5", Seat.N: "DK D9 HJ HT H9 CA",
                  Seat.S: "D8 D7 CK CQ CJ CT"}
TRUMP_OUT = {Seat.W: "SA SK SQ HA D3 D2", Seat.E: "DA DQ C2 C3 C4 C5", Seat.N: "SJ DK D9 HK HQ CA",
             Seat.S: "D8 D7 HJ CJ CK CQ"}


def _at(spec: dict[Seat, str], trump: Suit | None, concedes: int, shown_out: dict | None = None
        ) -> tuple[object, object, Position, NormalPlayModel]:
    pos = spec_position(spec, trump, Seat.W)
    for seat, suits in (shown_out or {}).items():
        pos.shown_out[seat] = set(suits)
    model = NormalPlayModel.default(Seat.W).with_concedes(concedes)
    s, root = searcher(pos, Side.EW, model)
    return s, root, pos, model


def _finesse_taken(spec: dict[Seat, str], trump: Suit | None, concedes: int, shown_out: dict | None = None) -> bool:
    """On West's ♦3 and North's ♦9, dummy's ♦Q is a licensed 70E1 card (the finesse); and the rules' no-search
    question agrees at the claim that a guess is at stake whenever the licence gives one."""
    _, _, pos, model = _at(spec, trump, concedes, shown_out)
    after = copy.deepcopy(pos)
    for c in ("D3", "D9"):
        after.play(Card.parse(c))
    s, node = searcher(after, Side.EW, model)
    taken = licences(s, node, Seat.E).get(Card.parse("DQ")) == "finesse_or_drop"
    if taken:
        assert CORE.guess_at_stake(pos, Side.EW, model)
    return taken


@clause("70E1")
def test_a_claimer_with_enough_top_and_length_tricks_is_not_made_to_finesse() -> None:
    """♥AKQ4 against three hearts out: the four is a length winner once the top three have drawn them, so ♥AKQ4
    and the ♦A make the five he claims conceding one; the losing ♦Q finesse is no line his claim rests on. Claiming
    all six, he needs the ♦K onside: then it is a guess, and its losing option is his."""
    s, root, pos, model = _at(TOP_AND_LENGTH, None, concedes=1)
    assert sure_tricks(s, root) == 5  # type: ignore[arg-type]
    assert not CORE.guess_at_stake(pos, Side.EW, model)
    assert not _finesse_taken(TOP_AND_LENGTH, None, concedes=1)
    assert _finesse_taken(TOP_AND_LENGTH, None, concedes=0)


@clause("70E1")
def test_with_a_trump_out_but_his_trumps_high_enough_no_guess_is_at_stake() -> None:
    """Spades trumps, North's ♠J out: West's ♠AKQ draw it without losing a round, so his ♥A and ♦A count too and
    make the five he claims conceding one. With the ♠A out instead (his ♠KQJ lose a round to it), a trump could
    still ruff his side winners: only his trump tricks are sure, and the finesse is the way to the claim."""
    s, root, pos, model = _at(TRUMP_OUT, Suit.S, concedes=1)
    assert sure_tricks(s, root) == 5  # type: ignore[arg-type]
    assert not CORE.guess_at_stake(pos, Side.EW, model)
    assert not _finesse_taken(TRUMP_OUT, Suit.S, concedes=1)
    low = {Seat.W: "SK SQ SJ HA D3 D2", Seat.E: "DA DQ C2 C3 C4 C5", Seat.N: "SA DK D9 HK HQ CA",
           Seat.S: "D8 D7 HJ CJ CK CQ"}
    s, root, _, _ = _at(low, Suit.S, concedes=1)
    assert sure_tricks(s, root) == 2  # type: ignore[arg-type]


@clause("70E1")
def test_a_guess_in_a_suit_that_is_not_the_way_to_the_missing_trick_is_not_licensed() -> None:
    """♥AK and the ♦A are three sure tricks; the ♦Q finesse, won, makes four. Claiming four (conceding two) the
    finesse is the way to his claim and its losing option is his; claiming five it is not: winning it would still
    leave the claim a trick short, so the claim does not rest on it and 70E1 licenses no guess there."""
    spec = {Seat.W: "HA HK D3 D2 C3 C2", Seat.E: "DA DQ S4 S3 S2 C4", Seat.N: "DK D9 SA SK CA CK",
            Seat.S: "D8 D7 SQ SJ CQ CJ"}
    s, root, _, _ = _at(spec, None, concedes=2)
    assert sure_tricks(s, root) == 3  # type: ignore[arg-type]
    assert _finesse_taken(spec, None, concedes=2)
    assert not _finesse_taken(spec, None, concedes=1)


@clause("70E1")
def test_the_real_guess_a_claim_short_of_sure_tricks_with_a_tenace_and_no_show_out_is_still_licensed() -> None:
    """Claiming all six with five sure tricks and dummy's ♦AQ around a hidden ♦K, another diamond out besides it:
    the losing finesse is his (70E1), and the claim of six is not accepted. Once an opponent has shown out of
    diamonds, the place of the king is known: no guess."""
    s, root, pos, model = _at(TOP_AND_LENGTH, None, concedes=0)
    assert real_guess(s, root, root.hand(Seat.E), Suit.D)  # type: ignore[arg-type,attr-defined]
    assert _finesse_taken(TOP_AND_LENGTH, None, concedes=0)
    assert CORE.worst_normal(pos, Side.EW, model).tricks < 6
    assert not _finesse_taken(TOP_AND_LENGTH, None, concedes=0, shown_out={Seat.S: [Suit.D]})


@clause("70E1")
def test_with_no_trump_out_each_trump_of_a_crossruff_counts_as_a_sure_trick() -> None:
    """Spades trumps, none out: North ruffs South's clubs and South ruffs North's hearts, four tricks from four
    trumps, where drawing them together would make two."""
    spec = {Seat.N: "SA SK H3 H2", Seat.S: "SQ SJ C3 C2", Seat.E: "HA HK CA CK", Seat.W: "HQ HJ CQ CJ"}
    pos = spec_position(spec, Suit.S, Seat.N)
    s, root = searcher(pos, Side.NS, NormalPlayModel.default(Seat.N))
    assert sure_tricks(s, root) == 4
    assert not CORE.guess_at_stake(pos, Side.NS, NormalPlayModel.default(Seat.N))
