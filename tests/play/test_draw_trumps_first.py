"""``draw_trumps_first``: a claimer aware of a trump out, whose trumps draw it on any layout, draws it first.

White Book 8.70.4 makes failing to draw an outstanding trump careless for a claimer unaware of it, so not for one who
knows of it; the EBU claims notes allow the 4♣ and 7♠ claims of a declarer aware of the trumps, whose trumps draw them
whatever the layout. The ending: 4♠ by North, South on lead with ♠A8 ♥A ♣A, North ♠K9 ♥84, the ♠T6 out with East
(♥93), West ♥T5 ♣Q2. Drawing trumps makes all four; a crossruffing order (♠8 to the ♠K, ♥4 to the ♥A, ♣A, which North
could ruff with the ♠9 double dummy but, discarding, leaves to East's ♠6) loses one.
"""

from __future__ import annotations

from pathlib import Path

from claimlaw.engine.api import rule
from claimlaw.engine.play.model import NormalPlayModel
from claimlaw.engine.play.search import Node, Searcher
from claimlaw.facts import Card, Seat, Side, Suit, case_from_dict
from tests.lawmarks import clause
from tests.play.test_play_core import searcher, spec_position

SPEC = {Seat.N: "SK S9 H8 H4", Seat.E: "ST S6 H9 H3", Seat.S: "SA S8 HA CA", Seat.W: "HT H5 CQ C2"}
# the crossruffing start: South's ♠8 to North's ♠K, East's ♠T under it; North on lead, East's ♠6 still out
START = "S8 HT SK ST"


def _after(model: NormalPlayModel, cards: str) -> tuple[Searcher, Node]:
    s, node = searcher(spec_position(SPEC, Suit.S, Seat.S), Side.NS, model)
    for c in cards.split():
        node, _ = s.play(node, Card.parse(c))
    return s, node


@clause("70C")
def test_an_aware_claimer_with_a_master_trump_draws_the_outstanding_trump_before_cashing_side_winners() -> None:
    model = NormalPlayModel.default(Seat.N)
    s, root = _after(model, "")
    assert {c.suit for c, _ in s.moves(root)} == {Suit.S}  # South leads a trump, best play in clubs dropped
    w, path = s.worst(root)
    assert w == 4 and path[0].card.suit == Suit.S
    s, node = _after(model, START)
    assert [c for c, _ in s.moves(node)] == [Card.parse("S9")]  # North draws the ♠6 before the ♥4 to the ♥A
    assert s.worst(node)[0] == 3


@clause("70C")
def test_a_claimer_unaware_of_the_outstanding_trump_is_not_bound_to_draw_it_and_loses_a_trick_to_it() -> None:
    model = NormalPlayModel.default(Seat.N).with_unaware(["S6"])
    s, node = _after(model, START)
    assert Card.parse("H4") in {c for c, _ in s.moves(node)}  # he sees no trump out: no draw, the ♥4 to the ♥A
    s, root = _after(model, "")
    assert s.worst(root)[0] == 3


@clause("70C")
def test_with_draw_trumps_first_off_the_crossruffing_line_is_normal_again() -> None:
    s, root = _after(NormalPlayModel.default(Seat.N).with_switches(draw_trumps_first=False), "")
    assert {Card.parse("CA"), Card.parse("S8")} <= {c for c, _ in s.moves(root)}
    assert s.worst(root)[0] == 3


@clause("70C")
def test_drawing_trumps_first_he_may_lead_into_partners_void_only_where_the_overruff_leaves_the_draw_intact() -> None:
    """North on lead, ♦3 into South's diamond void: with the ♠2 alone out and ♠QJ in South, an opponent's ruff is
    overruffed and ♠AKJ still draw: a crossruff lead he may make (own review 2026-11-28b row 7 accepts one). With the
    ♠32 out and South's ♠K the only master there, the overruff leaves ♠A alone against two trumps: he draws first."""
    crossruff = {Seat.N: "SA SK HA D3", Seat.S: "SQ SJ H2 CA", Seat.E: "S2 DK DQ DJ", Seat.W: "HK HQ CK CQ"}
    s, root = searcher(spec_position(crossruff, Suit.S, Seat.N), Side.NS, NormalPlayModel.default(Seat.N))
    assert Card.parse("D3") in {c for c, _ in s.moves(root)}
    costly = {Seat.N: "SA H4 HA D3", Seat.S: "SK S4 H2 CA", Seat.E: "S3 S2 DK DQ", Seat.W: "HK HQ CK CQ"}
    s, root = searcher(spec_position(costly, Suit.S, Seat.N), Side.NS, NormalPlayModel.default(Seat.N))
    assert [c for c, _ in s.moves(root)] == [Card.parse("SA")] and s.worst(root)[0] == 3
    s, root = searcher(spec_position(costly, Suit.S, Seat.N), Side.NS,
                       NormalPlayModel.default(Seat.N).with_switches(draw_trumps_first=False))
    assert Card.parse("D3") in {c for c, _ in s.moves(root)} and s.worst(root)[0] == 2


def _case() -> dict[str, object]:
    return {"title": "4♠ ending, South on lead, the ♠T6 out",
            "board": {"position": "N:K9.84.. T6.93.. A8.A..A .T5..Q2", "contract": "4S", "declarer": "N",
                      "leader": "S", "won": {"NS": 9, "EW": 0}},
            "claim": {"by": "N", "says": "claim", "shows_cards": True, "tricks": 4},
            "responses": {"E": "disputes"},
            "findings": {"class_of_player": "world_class", "aware_of_trumps": True}}


@clause("70C", "70C2")
def test_a_pack_withdrawing_draw_trumps_first_brings_the_crossruffing_line_back(tmp_path: Path) -> None:
    case = case_from_dict(_case())
    allowed = rule(case)
    assert allowed.outcome == "claim_allowed"
    pack = tmp_path / "nodraw.yaml"
    pack.write_text("name: nodraw\nwithdraw: [{guideline: draw_trumps_first, cite: house rule 1}]\n", encoding="utf-8")
    adjusted = rule(case, packs=[str(pack)], case_dir=tmp_path)
    assert adjusted.outcome == "claim_adjusted"
    assert adjusted.tricks is not None and adjusted.tricks["NS"] == 12
