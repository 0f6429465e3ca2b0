"""How the claiming side follows and discards (engine/play/normal/licensing.py ``following`` and ``void``, the ties of
normal/ties.py, our solver's twin in engine/play/_endings.c): a winner is not crashed under partner's forced master, a
defender keeps the guard of an honour against the cards he sees while he holds a card of another side suit, and a
length winner he counts is kept like a top winner while he holds a loser (issue 42; own review of audit verdicts,
rows 3 and 12, and of the second sample, rows 18 and 25). Each position is small and built by hand; the Python search
and our solver must give the same W on it."""

from __future__ import annotations

from claimlaw.engine.play import NormalPlayModel
from claimlaw.engine.play.normal.licensing import cash_first, length_winners, licences
from claimlaw.engine.play.normal.ties import ties
from claimlaw.facts import Card, Position, Seat, Side, Suit
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
def test_a_defender_keeps_the_guard_even_while_his_other_suit_holds_only_winners() -> None:
    """West's other suit is ♥A9, both winners as he sees them: he still keeps ♣K3 over dummy's ♣AJ and throws a
    heart if best play does (keep length with dummy: Andrew Robson's East throws the ♥K to keep his clubs); the
    ♣3 is no normal discard."""
    spec = {Seat.N: "SA SK C7 C6", Seat.S: "CA CJ H2 H3", Seat.W: "CK C3 HA H9", Seat.E: "H4 H5 H6 D7"}
    pos = _played(spec_position(spec, None, Seat.N), "SA D7 H2")
    s, node = searcher(pos, Side.EW, WEST)
    assert Card.parse("C3") not in licences(s, node, Seat.W)


@clause("70.footnote")
def test_a_defender_whose_only_side_suit_is_the_guard_may_still_throw_from_it() -> None:
    """With nothing but ♣K3 and a trump left, West, void in the suit led and partner's ♦4 winning, discards from the
    clubs: no other side suit to throw, so the ♣3 stays a normal discard."""
    spec = {Seat.N: "D3 SK C7", Seat.S: "CA CJ H2", Seat.W: "CK C3 S2", Seat.E: "D4 D5 D6"}
    pos = _played(spec_position(spec, Suit.S, Seat.N), "D3 D4 H2")
    s, node = searcher(pos, Side.EW, WEST)
    assert Card.parse("C3") in licences(s, node, Seat.W)


# the end of own review 2026-11-28b, row 25 (4♥ by East, dummy West): North holds ♠Q83 behind dummy's ♠AKT64 and
# ♣K7; declarer leads his last two trumps
LONG = {Seat.N: "SQ S8 S3 CK C7", Seat.E: "H8 H6 SJ S9 CJ", Seat.S: "S7 S5 CQ CT C5", Seat.W: "SA SK ST S6 S4"}
NORTH = NormalPlayModel.default(Seat.N).as_defender(Seat.W).with_switches(partner_restricted=False)


@clause("70.footnote")
def test_a_defender_keeps_his_queen_guarded_behind_dummys_long_suit_and_throws_his_clubs() -> None:
    """North claims the ♠Q. On declarer's trumps he keeps ♠Q83 (dummy's ♠AKT64 would drop the queen and run) and
    throws the ♣7 and even the ♣K: no spade is a normal discard while he holds a club, and the claim stands."""
    pos = _played(spec_position(LONG, Suit.H, Seat.E), "H6 C5 S4")
    s, node = searcher(pos, Side.NS, NORTH)
    assert not any(c.suit == Suit.S for c in licences(s, node, Seat.N))
    pos = _played(spec_position(LONG, Suit.H, Seat.E), "H6 C5 S4 C7 H8 CT S6")
    s, node = searcher(pos, Side.NS, NORTH)
    assert not any(c.suit == Suit.S for c in licences(s, node, Seat.N))
    assert _w(spec_position(LONG, Suit.H, Seat.E), Side.NS, NORTH) == 1


# the end of own review 2026-11-28b, row 18 (3NT by North): North leads the ♥K; dummy South holds ♣AQ8 with the ♣9
# alone out, the ♠98 and the ♦A
LENGTH = {Seat.N: "HK H5 DT D5 D4 C2", Seat.E: "SK H8 DK D9 D7 C9",
          Seat.S: "S9 S8 DA CA CQ C8", Seat.W: "S4 HQ H6 H2 DJ D8"}


@clause("70.footnote")
def test_a_card_is_a_length_winner_where_the_suit_runs_against_every_split_he_sees() -> None:
    """Dummy's ♣AQ8 opposite ♣2 with the ♣9 alone out makes three tricks as he counts them, so the ♣8 is one; with
    the ♣JT9 out (all in one hand, the worst split) the ♣8 is no trick and counts for nothing."""
    pos = _played(spec_position(LENGTH, None, Seat.N), "HK H8")
    s, node = searcher(pos, Side.NS, NormalPlayModel.default(Seat.N).with_concedes(1))
    assert Card.parse("C8") in length_winners(s, node, Seat.S)
    spec = {Seat.N: LENGTH[Seat.N], Seat.E: "SK H8 DK CJ CT C9", Seat.S: LENGTH[Seat.S],
            Seat.W: "S4 HQ H6 H2 DJ D8"}
    pos = _played(spec_position(spec, None, Seat.N), "HK H8")
    s, node = searcher(pos, Side.NS, NormalPlayModel.default(Seat.N).with_concedes(1))
    assert Card.parse("C8") not in length_winners(s, node, Seat.S)


@clause("70.footnote")
def test_dummy_throws_a_loser_before_a_length_winner_he_counts() -> None:
    """On the ♥K dummy's ♣8 and ♠8 are equally good double dummy (a squeeze would still make the seventh trick),
    but he counts the ♣8 as his third club: he throws the spade, and the claim of five of the six tricks stands
    (throwing the ♣8, the ♦4 to the ♦A later breaks the squeeze)."""
    model = NormalPlayModel.default(Seat.N).with_concedes(1)
    pos = _played(spec_position(LENGTH, None, Seat.N), "HK H8")
    s, node = searcher(pos, Side.NS, model)
    dd = [Card.parse("S8"), Card.parse("C8")]
    assert ties(s, node, Seat.S, dd, s.legal(node, Seat.S)) == [Card.parse("S8")]
    assert _w(spec_position(LENGTH, None, Seat.N), Side.NS, model) == 5


def _w_from(pos: Position, side: Side, model: NormalPlayModel, played: str) -> int:
    """W from the position after ``played`` by the Python search and by our solver, which must agree."""
    _, node = searcher(_played(pos, played), side, model)
    py, c = both(pos, side, model, node)
    assert py is not None and py == c, f"the Python search {py}, our solver {c}"
    return py


@clause("70.footnote")
def test_partners_last_card_of_a_suit_is_not_overtaken_where_that_strands_as_many_partners_winners_as_it_frees(
) -> None:
    """Declarer North leads his last diamond, the ♦9; South holds ♦K8 and no club, North three master clubs.
    Overtaking with the ♦K frees one diamond and strands three clubs: no licence gives it (nor the block: best play
    only), and North takes the rest.
    With ♦KQ8 opposite North's single club the overtake frees two winners for one stranded, and it stays."""
    spec = {Seat.N: "D9 C7 C6 C5", Seat.S: "DK D8 H8 H6", Seat.E: "HK HQ S3 S2", Seat.W: "HJ HT S5 S4"}
    s, node = searcher(_played(spec_position(spec, None, Seat.N), "D9 S2"), Side.NS, NormalPlayModel.default(Seat.N))
    assert licences(s, node, Seat.S) == {}
    assert _w_from(spec_position(spec, None, Seat.N), Side.NS, NormalPlayModel.default(Seat.N), "D9 S2") == 4
    gain = {Seat.N: "D9 C7 H3 H2", Seat.S: "DK DQ D8 H6", Seat.E: "HK HQ S3 S2", Seat.W: "HJ HT S5 S4"}
    s, node = searcher(_played(spec_position(gain, None, Seat.N), "D9 S2"), Side.NS, NormalPlayModel.default(Seat.N))
    assert Card.parse("DK") in licences(s, node, Seat.S)


@clause("70.footnote")
def test_among_equally_good_leads_a_claimer_does_not_lead_his_winner_under_partners_bare_higher_winner() -> None:
    """South on lead with ♣K85 opposite North's bare ♣A (the ♦2 a way back to his ♦A): the ♣K led would fall under
    the ace, two of the side's winners on one trick, where the ♣8 crosses to it. Among leads equal double dummy the
    ♣K is dropped."""
    spec = {Seat.S: "CK C8 C5 DA", Seat.N: "CA D2 H3 H2", Seat.E: "CQ CJ CT S2", Seat.W: "C9 C7 S4 S3"}
    s, node = searcher(spec_position(spec, None, Seat.S), Side.NS, NormalPlayModel.default(Seat.N))
    assert ties(s, node, Seat.S, [Card.parse("C5"), Card.parse("C8"), Card.parse("CK")],
                s.legal(node, Seat.S)) == [Card.parse("C5"), Card.parse("C8")]


@clause("70.footnote")
def test_unable_to_win_the_trick_dummy_does_not_duck_to_a_spot_card_when_a_higher_card_forces_the_king() -> None:
    """Declarer East leads ♦3, South shows out: North holds the ♦K65 out. Dummy's ♦4 would lose to the ♦6; the ♦7
    beats every spot card North holds and forces the king. Where South might still hold a diamond (he follows),
    North's cards are not known: third hand then plays high, the lowest of his top cards (three cards out beat
    partner's ♦3), the ♦7 too, never the ♦4."""
    spec = {Seat.E: "D3 SA SK SQ", Seat.W: "DJ D8 D7 D4", Seat.N: "DK D6 D5 S2", Seat.S: "D2 H4 H3 H2"}
    model = NormalPlayModel.default(Seat.E)
    known = {**spec, Seat.S: "H5 H4 H3 H2"}
    s, node = searcher(_played(spec_position(known, None, Seat.E), "D3 H5"), Side.EW, model)
    lic = licences(s, node, Seat.W)
    assert lic[Card.parse("D7")] == "follow_low" and Card.parse("D4") not in lic
    assert _w_from(spec_position(known, None, Seat.E), Side.EW, model, "D3 H5") == 3
    s, node = searcher(_played(spec_position(spec, None, Seat.E), "D3 D2"), Side.EW, model)
    lic = licences(s, node, Seat.W)
    assert lic[Card.parse("D7")] == "follow_low" and Card.parse("D4") not in lic


@clause("70.footnote")
def test_a_defender_claiming_his_ace_cashes_it_before_giving_up_the_lead_while_declarer_holds_trumps() -> None:
    """North claims one trick for the defence, his ♠A, on lead, declarer West holding ♦T8 (trumps): leading a heart
    first lets declarer shed his spades on dummy's hearts and ruff the ace. The concession licence leads no loser
    at once, the ♠A is the one lead among equally good ones, and the claim stands. With no trump out nothing can
    ruff the ace, and the rule does not apply."""
    spec = {Seat.N: "SA SJ S4 HQ HJ H3", Seat.E: "S6 HA HT H9 H7 H5", Seat.S: "S9 S8 S7 S3 H8 H2",
            Seat.W: "SK SQ HK H6 DT D8"}
    model = NormalPlayModel.default(Seat.N).as_defender(Seat.E).with_concedes(5)
    s, node = searcher(spec_position(spec, Suit.D, Seat.N), Side.NS, model)
    assert "concede_now_or_end" not in licences(s, node, Seat.N).values()
    assert [c for c, _ in s.moves(node)] == [Card.parse("SA")]
    assert _w(spec_position(spec, Suit.D, Seat.N), Side.NS, model) == 1
    assert cash_first(s, node, Seat.N)
    s, node = searcher(spec_position(spec, None, Seat.N), Side.NS, model)
    assert not cash_first(s, node, Seat.N)


# East (declarer) leads ♦5, South follows ♦8; North, still to play, has shown out of diamonds and holds the last trump
# out (South has shown out of clubs): dummy West's ♦J is master of the suit, and only the ruff beats it
RUFFED = {Seat.E: "D5 DK C2", Seat.W: "DJ D2 D7", Seat.N: "C9 SK SQ", Seat.S: "D8 HQ HJ"}


def _with_show_outs(pos: Position, shown: dict[Seat, Suit]) -> Position:
    for s, x in shown.items():
        pos.shown_out[s].add(x)
    return pos


@clause("70.footnote")
def test_third_hand_takes_the_trick_with_his_master_where_only_a_ruff_behind_him_beats_it() -> None:
    """Declarer East claims two of the three tricks, conceding North's trump. On South's ♦8 dummy plays the ♦J, master
    of diamonds as he sees it: the duck with the ♦2 loses the trick for sure, the ♦J at most the same trick to
    North's ruff (and, kept, it is ruffed the next time). The low card is no longer licensed, and the claim stands
    (own review 2026-11-28c, at-risk row 3)."""
    model = NormalPlayModel.default(Seat.E).with_concedes(1)
    pos = _with_show_outs(spec_position(RUFFED, Suit.C, Seat.E), {Seat.S: Suit.C})
    s, node = searcher(_played(pos.copy(), "D5 D8"), Side.EW, model)
    assert licences(s, node, Seat.W) == {Card.parse("DJ"): "follow_low"}
    assert _w_from(pos, Side.EW, model, "D5 D8") == 2


@clause("70.footnote", "70D2")
def test_a_defender_takes_the_trick_with_his_ace_where_dummy_behind_him_can_only_ruff_it() -> None:
    """West claims two tricks for the defence; South leads ♥Q, and dummy North, void in hearts, holds the ♣7 (a
    trump) to play after him. The ♥A is master: ducking with the ♥7 gives South the ♥Q and leaves the ace to be
    ruffed on the next heart; the ace taken is ruffed once, and West's ♥7 then beats South's ♥4. He plays the ace
    (own review 2026-11-28c, at-risk row 32)."""
    spec = {Seat.S: "HQ H4 D3", Seat.W: "HA H7 D2", Seat.N: "C7 SK SQ", Seat.E: "SA H5 H6"}
    model = NormalPlayModel.default(Seat.W).as_defender(Seat.N).with_switches(partner_restricted=False)
    model = model.with_concedes(1)
    s, node = searcher(_played(spec_position(spec, Suit.C, Seat.S), "HQ"), Side.EW, model)
    assert licences(s, node, Seat.W) == {Card.parse("HA"): "follow_low"}
    assert _w_from(spec_position(spec, Suit.C, Seat.S), Side.EW, model, "HQ") == 2


@clause("70.footnote")
def test_he_still_follows_low_where_his_top_card_is_no_master_and_the_next_hand_ruffs() -> None:
    """As the first, South holding the ♦Q over dummy's ♦J (North shown out of diamonds): the ♦J is not master, it can
    win nothing, and dummy follows low."""
    spec = {**RUFFED, Seat.S: "D8 DQ HQ"}
    model = NormalPlayModel.default(Seat.E).with_concedes(1)
    pos = _with_show_outs(spec_position(spec, Suit.C, Seat.E), {Seat.S: Suit.C, Seat.N: Suit.D})
    s, node = searcher(_played(pos.copy(), "D5 D8"), Side.EW, model)
    assert licences(s, node, Seat.W) == {Card.parse("D2"): "follow_low"}
    _w_from(pos, Side.EW, model, "D5 D8")


@clause("70.footnote")
def test_he_still_follows_low_under_partners_card_that_the_next_hand_may_ruff() -> None:
    """Declarer East leads the ♦K, South follows ♦8, and North, to play last, is known to ruff: the trick is
    partner's so far, and dummy's master ♦J would only fall under the same ruff with no trick to take. Dummy follows
    low; the rule is about a trick an opponent's card wins."""
    spec = {Seat.E: "DK D5 C2", Seat.W: "DJ D2 D7", Seat.N: "C9 SK SQ", Seat.S: "D8 HQ HJ"}
    model = NormalPlayModel.default(Seat.E).with_concedes(1)
    pos = _with_show_outs(spec_position(spec, Suit.C, Seat.E), {Seat.S: Suit.C})
    s, node = searcher(_played(pos.copy(), "DK D8"), Side.EW, model)
    assert licences(s, node, Seat.W) == {Card.parse("D2"): "follow_low"}
    _w_from(pos, Side.EW, model, "DK D8")
# North (declarer) leads the ♠Q; East, claiming a trick for the defence, holds ♠KT over nothing: dummy South's ♠A98
# plays after him, the ♠J is gone
COVER = {Seat.N: "SQ HA HK", Seat.E: "SK ST H2", Seat.S: "SA S9 S8", Seat.W: "S6 D2 D3"}
EAST = NormalPlayModel.default(Seat.E).as_defender(Seat.S).with_switches(partner_restricted=False)


@clause("70.footnote")
def test_second_hand_covers_an_honour_where_the_cover_promotes_the_card_he_would_duck_with() -> None:
    """East claims one trick with ♠KT under dummy's ♠A98. On North's ♠Q he covers with the ♠K: dummy's ♠A takes it
    and his ♠T is then the master; ducking with the ♠T leaves the ♠K to fall alone under the ace. Throwing the
    trick he claims is not careless but irrational ("cover an honour with an honour"): the cover is his one
    normal card, and the claim stands in both searches."""
    s, node = searcher(_played(spec_position(COVER, None, Seat.N), "SQ"), Side.EW, EAST)
    assert licences(s, node, Seat.E) == {Card.parse("SK"): "follow_low"}
    assert _w_from(spec_position(COVER, None, Seat.N), Side.EW, EAST, "SQ") == 1


@clause("70.footnote")
def test_second_hand_may_duck_an_honour_where_a_second_card_out_stands_over_the_card_the_cover_would_promote() -> None:
    """The same with the ♠J still out (West): covering no longer makes the ♠T a master, so the duck stays his
    normal card (follow low) and the claim is lost on it."""
    spec = {**COVER, Seat.W: "SJ D2 D3"}
    s, node = searcher(_played(spec_position(spec, None, Seat.N), "SQ"), Side.EW, EAST)
    assert licences(s, node, Seat.E) == {Card.parse("ST"): "follow_low"}
    assert _w_from(spec_position(spec, None, Seat.N), Side.EW, EAST, "SQ") == 0


@clause("70.footnote")
def test_second_hand_covers_a_spot_card_too_where_the_cover_surely_promotes() -> None:
    """North leads the ♠9 (♠QJT gone); East holds ♠K8 under dummy's ♠A76: the ♠A is the one card out above his
    ♠8, so the ♠K covers and the ♠8 is then the master; ducking with the ♠8 throws the trick."""
    spec = {Seat.N: "S9 HA HK", Seat.E: "SK S8 H2", Seat.S: "SA S7 S6", Seat.W: "S5 D2 D3"}
    s, node = searcher(_played(spec_position(spec, None, Seat.N), "S9"), Side.EW, EAST)
    assert licences(s, node, Seat.E) == {Card.parse("SK"): "follow_low"}
    assert _w_from(spec_position(spec, None, Seat.N), Side.EW, EAST, "S9") == 1


@clause("70.footnote")
def test_second_hand_does_not_cover_where_the_next_hand_is_known_void_and_ruffs() -> None:
    """Hearts trumps: dummy South holds no spade and three trumps, so a ruff, not the ace, takes East's ♠K if he
    covers North's ♠Q; the cover promotes nothing he can be sure of, and he follows low."""
    spec = {Seat.N: "SQ SA D5", Seat.E: "SK ST D2", Seat.S: "H4 H5 H6", Seat.W: "S6 D3 D4"}
    s, node = searcher(_played(spec_position(spec, Suit.H, Seat.N), "SQ"), Side.EW, EAST)
    assert licences(s, node, Seat.E) == {Card.parse("ST"): "follow_low"}
