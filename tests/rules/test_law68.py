"""Law 68: what is a claim or concession, and what happens to play."""

from __future__ import annotations

from tests.lawmarks import clause
from tests.rules.helpers import make, ruled


@clause("68.preamble")
def test_a_statement_about_the_current_trick_only_is_not_a_claim_and_play_proceeds() -> None:
    r = ruled(make(claim={"by": "E", "tricks": 1, "current_trick_only": True, "shows_cards": True}))
    assert r.outcome == "not_a_claim"
    assert r.laws == ["68.preamble"]
    assert "Laws 16 and 57A" in r.next_step


@clause("68A")
def test_stating_a_number_of_tricks_is_a_claim_of_them() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4, "statement": "four more"}, responses={"W": "agrees"}))
    assert r.laws[:1] == ["68A"]
    assert "claimed 4 tricks" in r.trace[0].concluded.get("summary", "") or "68A" in r.laws


@clause("68A")
def test_showing_the_cards_is_a_claim_even_without_words() -> None:
    r = ruled(make(claim={"by": "S", "shows_cards": True}, responses={"W": "agrees", "E": "agrees"}))
    assert "68A" in r.laws and r.outcome == "agreed"


@clause("68A")
def test_declarer_facing_his_hand_after_an_opening_lead_out_of_turn_is_not_a_claim() -> None:
    r = ruled(make(claim={"by": "S", "shows_cards": True, "after_lead_out_of_turn": True}))
    assert r.outcome == "not_a_claim" and "Law 54" in r.next_step
    assert r.laws == ["68A"]


@clause("68A")
def test_a_finding_that_the_player_did_not_mean_to_claim_means_no_claim() -> None:
    r = ruled(make(claim={"by": "S", "shows_cards": True}, findings={"demonstrably_not_claim": True}))
    assert r.outcome == "not_a_claim"


@clause("68B1")
def test_stating_tricks_to_lose_is_a_concession_of_them() -> None:
    r = ruled(make(claim={"by": "S", "says": "concede", "tricks": 1}, responses={"W": "agrees"}))
    assert r.laws[0] == "68B1" and r.outcome == "agreed"


@clause("68B1")
def test_abandoning_the_hand_concedes_every_remaining_trick() -> None:
    r = ruled(make(claim={"by": "S", "says": "concede", "abandons_hand": True}))
    assert "68B1" in r.laws and "abandoned" in r.summary or "68B1" in r.laws


@clause("68B2")
def test_a_defenders_concession_that_partner_immediately_objects_to_is_neither_a_concession_nor_a_claim() -> None:
    r = ruled(make(claim={"by": "W", "says": "concede", "tricks": 2},
                   responses={"E": "disputes", "partner_objected_immediately": True}))
    assert r.outcome == "no_concession"
    assert r.laws == ["68B2"]
    assert "neither a concession nor a claim" in r.summary
    assert "16C" in r.next_step and "not penalty cards" in r.next_step


@clause("68B2")
def test_a_defenders_claim_that_partner_objects_to_is_no_claim_either() -> None:
    r = ruled(make(claim={"by": "E", "says": "claim", "tricks": 3}, responses={"partner_objected_immediately": True}))
    assert r.outcome == "no_concession" and r.laws == ["68B2"]


@clause("68B2")
def test_declarers_concession_is_not_undone_by_dummys_objection_under_68b2() -> None:
    r = ruled(make(claim={"by": "S", "says": "concede", "tricks": 1},
                   responses={"N": "disputes", "partner_objected_immediately": True}))
    assert "68B2" not in r.laws and "68D2" in r.laws


@clause("68C")
def test_a_claim_without_a_clarification_statement_is_recorded_as_such() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4}, responses={"W": "agrees"}))
    assert "68C" in r.laws
    assert any("no clarification statement" in n for n in r.notes)


@clause("68D", "68D1")
def test_an_agreed_claim_suspends_play_and_goes_to_law_69() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4}, responses={"W": "agrees", "E": "agrees"}))
    assert r.laws[:4] == ["68A", "68C", "68D", "68D1"] or {"68D", "68D1", "69A"} <= set(r.laws)
    assert r.outcome == "agreed"


@clause("68D2", "68D2(a)")
def test_a_claim_doubted_by_dummy_goes_to_the_director_under_law_70() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4}, responses={"N": "disputes", "W": "agrees"}))
    assert {"68D2", "68D2(a)", "70A"} <= set(r.laws)
    assert r.outcome == "director_rules"


@clause("68D2(b)")
def test_play_on_at_the_non_claimers_request_with_all_four_agreeing_voids_the_claim_and_the_score_stands() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4},
                   responses={"W": "disputes", "play_on": {"requested_by": "W", "all_concurred": True}}))
    assert r.outcome == "play_on_score_stands"
    assert "70A" not in r.laws and "68D2(b)" in r.laws


@clause("68D2(b)")
def test_play_on_without_all_four_agreeing_leaves_the_ruling_to_the_director() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4},
                   responses={"W": "disputes", "N": "disputes", "play_on": {"requested_by": "W",
                                                                             "all_concurred": False}}))
    assert r.outcome == "director_rules"
    assert r.laws.index("68D2(b)") < r.laws.index("68D2(a)")


@clause("68D2(b)")
def test_play_on_asked_for_by_the_claiming_side_is_not_the_68d2b_option() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4},
                   responses={"W": "disputes", "play_on": {"requested_by": "N", "all_concurred": True}}))
    assert r.outcome == "director_rules"
