"""Laws 69, 71 and 79: agreement, its withdrawal, cancelled concessions, the correction period."""

from __future__ import annotations

from tests.lawmarks import clause
from tests.rules.helpers import SEED_4C, SEED_4C_PLAY, make, ruled

FOUR_C = {"board": {"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": SEED_4C_PLAY},
          "claim": {"by": "W", "says": "claim"}}


@clause("69A")
def test_an_agreed_claim_is_scored_as_though_the_tricks_were_won_in_play() -> None:
    r = ruled(make(FOUR_C, responses={"N": "agrees", "S": "agrees"}))
    assert r.outcome == "agreed" and r.tricks == {"EW": 9, "NS": 4}
    assert r.score == -50 and r.score_for == "EW"
    assert "69A" in r.laws


@clause("69A")
def test_silence_followed_by_no_objection_is_agreement() -> None:
    r = ruled(make(FOUR_C))
    assert r.outcome == "agreed" and "68D1" in r.laws


@clause("69A")
def test_an_objection_before_the_sides_next_call_prevents_agreement() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4}, responses={"W": "agrees"},
                   timing={"objection": "before_next_call", "objection_by": "E"}))
    assert "69A" in r.laws and "68D2(a)" in r.laws and r.outcome == "director_rules"


@clause("69B", "79C")
def test_agreement_cannot_be_withdrawn_after_the_correction_period() -> None:
    r = ruled(make(FOUR_C, responses={"N": "agrees"},
                   timing={"objection": "after_round_end", "objection_by": "N", "minutes_after_scores_posted": 45}))
    assert r.outcome == "agreed" and "69B" in r.laws and "79C" in r.laws
    assert "correction period" in r.summary


@clause("69B1", "79B1")
def test_agreement_to_lose_a_trick_already_won_is_withdrawn_within_the_period() -> None:
    r = ruled(make(FOUR_C, responses={"N": "agrees"}, findings={"conceded_won_tricks": 1},
                   timing={"objection": "after_next_call", "objection_by": "S", "within_correction_period": True}))
    assert r.outcome == "agreement_withdrawn" and r.tricks == {"EW": 8, "NS": 5}
    assert {"69B", "69B1", "79B1"} <= set(r.laws)


@clause("69B2")
def test_a_directors_finding_of_tricks_likely_won_decides_a_withdrawal() -> None:
    r = ruled(make(FOUR_C, responses={"N": "agrees"}, findings={"would_likely_have_won": 1},
                   timing={"objection": "after_next_call", "objection_by": "S", "within_correction_period": True}))
    assert r.outcome == "agreement_withdrawn" and r.tricks == {"EW": 8, "NS": 5}
    assert "69B2" in r.laws


@clause("71", "71A")
def test_a_conceded_trick_the_side_had_already_won_is_given_back() -> None:
    r = ruled(make(FOUR_C, claim={"by": "W", "says": "concede", "tricks": 1}, responses={"N": "agrees"},
                   findings={"conceded_won_tricks": 1},
                   timing={"objection": "after_next_call", "objection_by": "E", "within_correction_period": True}))
    assert r.outcome == "concession_cancelled" and {"71", "71A"} <= set(r.laws)
    assert r.tricks == {"EW": 9, "NS": 4}


@clause("71")
def test_a_concession_raised_after_the_correction_period_stands() -> None:
    r = ruled(make(FOUR_C, claim={"by": "W", "says": "concede", "tricks": 1}, responses={"N": "agrees"},
                   timing={"objection": "after_round_end", "objection_by": "W", "within_correction_period": False}))
    assert r.outcome == "agreed" and "71" in r.laws and r.tricks == {"EW": 8, "NS": 5}
