"""``draw_trumps_first``: a claimer aware of a trump out, whose trumps draw it on any layout, does not let it score.

White Book 8.70.4 makes failing to draw an outstanding trump careless for a claimer unaware of it, so not for one who
knows of it; the EBU claims notes allow the 4♣ and 7♠ claims of a declarer aware of the trumps, whose trumps draw them
whatever the layout. What is withheld is a play by which the trump he knows of can score: a side-suit lead it can in
fact ruff (unless partner, playing after it, overruffs at no cost to the draw) and a ruff that spends the trumps that
draw it. A side-suit lead it cannot ruff is a careless order like any other (shared reviewed verdict row 9, ACCEPT).
The ending: 4♠ by North, South on lead with ♠A8 ♥A ♣A, North ♠K9 ♥84, the ♠T6 out with East (♥93), West ♥T5 ♣Q2.
"""

from __future__ import annotations

from pathlib import Path

from claimlaw.engine.api import rule
from claimlaw.engine.play.model import NormalPlayModel
from claimlaw.engine.play.normal.licensing import draw_spent
from claimlaw.engine.play.search import Node, Searcher
from claimlaw.facts import Card, Seat, Side, Suit, case_from_dict
from tests.lawmarks import clause
from tests.play.test_play_core import searcher, spec_position

SPEC = {Seat.N: "SK S9 H8 H4", Seat.E: "ST S6 H9 H3", Seat.S: "SA S8 HA CA", Seat.W: "HT H5 CQ C2"}
# a crossruffing start: South's ♠8 to North's ♠K (East's ♠T), North's ♥4 to South's ♥A (East follows: a careless
# order, not a lead the ♠6 can ruff); South on lead with ♠A ♣A, East's ♠6 out and East out of clubs
START = "S8 HT SK ST H4 H3 HA H5"


def _after(model: NormalPlayModel, cards: str, spec: dict[Seat, str] = SPEC, leader: Seat = Seat.S
           ) -> tuple[Searcher, Node]:
    s, node = searcher(spec_position(spec, Suit.S, leader), Side.NS, model)
    for c in cards.split():
        node, _ = s.play(node, Card.parse(c))
    return s, node


def _moves(s: Searcher, node: Node) -> list[Card]:
    return [c for c, _ in s.moves(node)]


@clause("70C")
def test_an_aware_claimer_leads_no_side_card_the_trump_he_knows_of_can_ruff() -> None:
    s, node = _after(NormalPlayModel.default(Seat.N), START)
    assert _moves(s, node) == [Card.parse("SA")]  # the ♣A into East's void is withheld: he draws the ♠6 first
    assert s.worst(node)[0] == 2


@clause("70C")
def test_an_aware_claimer_may_still_lead_a_side_suit_the_trump_cannot_ruff() -> None:
    s, node = _after(NormalPlayModel.default(Seat.N), "S8 HT SK ST")
    assert Card.parse("H4") in _moves(s, node)  # East holds hearts: ♥4 to the ♥A before the ♠9 is a careless order


@clause("70C")
def test_a_claimer_unaware_of_the_outstanding_trump_is_not_bound_to_draw_it_and_loses_a_trick_to_it() -> None:
    s, node = _after(NormalPlayModel.default(Seat.N).with_unaware(["S6"]), START)
    assert _moves(s, node) == [Card.parse("CA")]  # he sees no trump out: the ♣A, and East's ♠6 ruffs it
    assert s.worst(node)[0] == 1


@clause("70C")
def test_with_draw_trumps_first_off_the_lead_into_the_ruff_is_normal_again() -> None:
    s, node = _after(NormalPlayModel.default(Seat.N).with_switches(draw_trumps_first=False), START)
    assert Card.parse("CA") in _moves(s, node)
    assert s.worst(node)[0] == 1


@clause("70C")
def test_drawing_trumps_first_he_may_lead_into_partners_void_only_where_the_overruff_leaves_the_draw_intact() -> None:
    """North on lead, ♦3 into South's diamond void: with the ♠2 alone out and ♠QJ in South, an opponent's ruff is
    overruffed and ♠AKJ still draw: a crossruff lead he may make (own review 2026-11-28b row 7 accepts one). With the
    ♠32 out in East, void in hearts, and South's ♠K the only master there, a heart is a lead East ruffs: withheld; the
    ♦3, which East follows, stays."""
    crossruff = {Seat.N: "SA SK HA D3", Seat.S: "SQ SJ H2 CA", Seat.E: "S2 DK DQ DJ", Seat.W: "HK HQ CK CQ"}
    s, root = _after(NormalPlayModel.default(Seat.N), "", crossruff, Seat.N)
    assert Card.parse("D3") in _moves(s, root)
    costly = {Seat.N: "SA H4 HA D3", Seat.S: "SK S4 H2 CA", Seat.E: "S3 S2 DK DQ", Seat.W: "HK HQ CK CQ"}
    s, root = _after(NormalPlayModel.default(Seat.N), "", costly, Seat.N)
    assert _moves(s, root) == [Card.parse("D3"), Card.parse("SA")]
    s, root = _after(NormalPlayModel.default(Seat.N).with_switches(draw_trumps_first=False), "", costly, Seat.N)
    assert Card.parse("HA") in _moves(s, root)


@clause("70C")
def test_ruffing_he_keeps_the_trumps_that_draw_the_ones_he_knows_of() -> None:
    """West leads the ♣K, North and East follow; South, out of clubs with ♠AK4, the ♠J3 out: ruffing with the ♠A or
    ♠K leaves one master against two trumps (a 2-0 break beats it), the ♠4 keeps the draw."""
    spec = {Seat.S: "SA SK S4 HA", Seat.W: "S3 CK HQ HJ", Seat.N: "CT HK D2 D3", Seat.E: "SJ CQ C2 H2"}
    s, node = _after(NormalPlayModel.default(Seat.N), "CK CT CQ", spec, Seat.W)
    assert draw_spent(s, node, Seat.S, s.legal(node, Seat.S)) == {Card.parse("SA"), Card.parse("SK")}
    assert _moves(s, node) == [Card.parse("S4")]
    s, node = _after(NormalPlayModel.default(Seat.N).with_switches(draw_trumps_first=False), "CK CT CQ", spec, Seat.W)
    assert {Card.parse("SA"), Card.parse("SK")} <= set(_moves(s, node))


def _case() -> dict[str, object]:
    return {"title": "4♠ ending, South on lead with ♠A ♣A, the ♠6 out with East, out of clubs",
            "board": {"position": "N:9.8.. 6.9.. A...A ...Q2", "contract": "4S", "declarer": "N",
                      "leader": "S", "won": {"NS": 11, "EW": 0}},
            "claim": {"by": "N", "says": "claim", "shows_cards": True, "tricks": 2},
            "responses": {"E": "disputes"},
            "findings": {"class_of_player": "world_class", "aware_of_trumps": True}}


@clause("70C", "70C2")
def test_a_pack_withdrawing_draw_trumps_first_brings_the_lead_into_the_ruff_back(tmp_path: Path) -> None:
    case = case_from_dict(_case())
    allowed = rule(case)
    assert allowed.outcome == "claim_allowed"
    pack = tmp_path / "nodraw.yaml"
    pack.write_text("name: nodraw\nwithdraw: [{guideline: draw_trumps_first, cite: house rule 1}]\n", encoding="utf-8")
    adjusted = rule(case, packs=[str(pack)], case_dir=tmp_path)
    assert adjusted.outcome == "claim_adjusted"
    assert adjusted.tricks is not None and adjusted.tricks["NS"] == 12


@clause("70C")
def test_our_solver_keeps_the_trumps_that_draw_as_the_python_search_does() -> None:
    """3♥ by South (vugraph 42497 board 13, open room), East to lead the ♦T into North's ♥A9875, South ♥Q6, the ♥T3
    out with East: ruffing with the ♥A leaves the ♥Q alone against two trumps, and the ♥T scores; a low ruff keeps
    the draw. Both searches: all five with the rule, four without it."""
    from tests.play.test_lockstep import both

    spec = {Seat.N: "HA H9 H8 H7 H5", Seat.E: "SJ S9 HT H3 DT", Seat.S: "S6 S5 S4 HQ H6", Seat.W: "SK ST S2 CT C9"}
    pos = spec_position(spec, Suit.H, Seat.E)
    for model, w in ((NormalPlayModel.default(Seat.S), 5),
                     (NormalPlayModel.default(Seat.S).with_switches(draw_trumps_first=False), 4)):
        _, root = searcher(pos, Side.NS, model)
        assert both(pos, Side.NS, model, root) == (w, w)
