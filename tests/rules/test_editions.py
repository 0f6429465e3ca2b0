"""The same table situation under the 2017, 2007 and 1997 Laws: each edition difference rules differently."""

from __future__ import annotations

import pytest

from claimlaw.facts.ruling import Ruling
from tests.lawmarks import clause
from tests.rules.helpers import SEED_4C, SEED_4C_PLAY, make, ruled

FOUR_C = {"board": {"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": SEED_4C_PLAY},
          "claim": {"by": "W", "says": "claim"}}

PLAYED_ON = make(claim={"by": "S", "tricks": 4, "statement": "The rest are mine"},
                 responses={"W": "disputes", "play_on": {"requested_by": "W", "all_concurred": True},
                            "play_after_claim": [["SA"]]})


@clause("68D", "68D2(b)", "70D3")
@pytest.mark.parametrize("edition,outcome,law", [
    ("2017", "play_on_score_stands", "68D2(b)"),
    ("2007", "director_rules", "70D3"),
    ("1997", "director_rules", "68D"),
])
def test_play_continued_at_the_non_claimers_request_stands_in_2017_is_evidence_in_2007_and_void_in_1997(
        edition: str, outcome: str, law: str) -> None:
    r = ruled(PLAYED_ON, edition=edition)
    # 70D3's evidence is weighed by the count: in the chain where its line was the witness, else considered
    assert r.outcome == outcome and law in r.laws + [s.clause for s in r.considered]
    assert all(s.edition == edition for s in r.trace)
    if edition == "1997":
        assert any("voided" in n for n in r.notes) and "70D3" not in r.laws


@clause("68B2", "68B")
@pytest.mark.parametrize("edition,words,info_law", [
    ("2017", "neither a concession nor a claim", "16C"),
    ("2007", "no concession", "16D"),
    ("1997", "no concession", "16D"),
])
def test_a_partners_objection_voids_a_defenders_concession_in_each_editions_words(
        edition: str, words: str, info_law: str) -> None:
    r = ruled(make(claim={"by": "W", "says": "concede", "tricks": 2},
                   responses={"partner_objected_immediately": True}), edition=edition)
    assert r.outcome == "no_concession" and words in r.summary
    assert info_law in r.next_step
    assert r.trace[0].text_verified is (edition != "1997")


@clause("68.preamble", "68A")
def test_the_1997_laws_have_no_trick_in_progress_preamble_so_such_a_statement_is_a_claim() -> None:
    data = make(claim={"by": "E", "tricks": 1, "current_trick_only": True}, responses={"S": "agrees"})
    assert ruled(data, edition="2017").outcome == "not_a_claim"
    r = ruled(data, edition="1997")
    assert "68.preamble" not in r.laws and "68A" in r.laws


@clause("70B")
def test_the_1997_director_faces_all_hands_before_hearing_objections() -> None:
    data = make(claim={"by": "S", "tricks": 4}, responses={"W": "disputes"})
    r17, r97 = ruled(data), ruled(data, edition="1997")
    steps_2017 = next(s for s in [*r17.trace, *r17.considered] if s.clause == "70B").facts["steps"]
    steps_1997 = next(s for s in [*r97.trace, *r97.considered] if s.clause == "70B").facts["steps"]
    assert "objections" in steps_2017[1] and "faced" in steps_1997[1]


@clause("70D", "70E", "70E1", "70.footnote")
def test_the_1997_laws_use_their_own_70d_and_70e_and_the_not_irrational_footnote() -> None:
    r = ruled(make(claim={"by": "S", "tricks": 4}, responses={"W": "disputes"}), edition="1997")
    fired = {s.clause for s in r.trace + r.considered}  # no guess is in view here: 70E is considered, not printed
    assert "70E" in fired and "70E1" not in fired
    assert any(s.rule == "70.footnote.normal.1997" and not s.text_verified for s in r.trace + r.considered)


@clause("70E1")
def test_a_finding_that_missing_the_line_would_be_irrational_credits_it_in_2007_but_not_2017() -> None:
    data = make(claim={"by": "S", "tricks": 4}, responses={"W": "disputes"}, findings={"irrational_not_to": True})
    r2007 = ruled(data, edition="2007")
    assert any("irrational" in n for n in r2007.notes)
    assert not any(s.concluded.get("asserted") for s in r2007.trace + r2007.considered if s.clause == "70E1")
    r2017 = ruled(data)  # 2017 has no such exception: the finding credits nothing
    assert not any("irrational" in n for n in r2017.notes)


@clause("71", "71.1", "71A")
@pytest.mark.parametrize("edition,law", [("2017", "71A"), ("2007", "71.1"), ("1997", "71A")])
def test_a_concession_of_a_trick_already_won_is_cancelled_under_each_editions_numbering(edition: str, law: str) -> None:
    r = ruled(make(FOUR_C, claim={"by": "W", "says": "concede", "tricks": 1}, responses={"N": "agrees"},
                   findings={"conceded_won_tricks": 1},
                   timing={"objection": "after_next_call", "objection_by": "E", "within_correction_period": True}),
              edition=edition)
    assert r.outcome == "concession_cancelled" and law in r.laws


@clause("71C")
def test_the_1997_laws_add_71c_on_when_an_implausible_concession_may_be_cancelled() -> None:
    r = ruled(make(FOUR_C, claim={"by": "W", "says": "concede", "tricks": 1}, responses={"N": "agrees"},
                   findings={"conceded_won_tricks": 1},
                   timing={"objection": "after_next_call", "objection_by": "E", "within_correction_period": True}),
              edition="1997")
    assert "71C" in r.laws


@clause("79B1")
@pytest.mark.parametrize("edition,words", [("2017", "69B or Law 71"), ("2007", "Law 69")])
def test_a_later_disagreement_is_sent_to_69b_or_71_in_2017_and_to_69_in_2007(edition: str, words: str) -> None:
    r = ruled(make(FOUR_C, responses={"N": "agrees"},
                   timing={"objection": "after_next_call", "objection_by": "N", "within_correction_period": True}),
              edition=edition, play=None)
    assert "79B1" in r.laws and any(words in n for n in r.notes)


@clause("68C")
def test_only_the_2017_laws_say_the_claimer_faces_his_hand() -> None:
    data = make(claim={"by": "S", "tricks": 4, "statement": "the rest are mine"}, responses={"W": "agrees"})
    assert any("faces his hand" in n for n in ruled(data).notes)
    assert not any("faces his hand" in n for n in ruled(data, edition="2007").notes)


@clause("70D2")
def test_the_defenders_partner_is_restricted_to_normal_plays_only_since_2007() -> None:
    data = make(claim={"by": "W", "says": "claim", "tricks": 2}, responses={"S": "disputes"})
    def fired(r: Ruling) -> set[str]:  # in the chain where the partner's card mattered, else among those considered
        return {s.clause for s in [*r.trace, *r.considered]}

    assert "70D2" in fired(ruled(data)) and "70D2" in fired(ruled(data, edition="2007"))
    assert "70D2" not in fired(ruled(data, edition="1997"))


@clause("69B", "69B2")
def test_withdrawing_agreement_uses_likely_since_2007_and_normal_play_in_1997() -> None:
    data = make(FOUR_C, responses={"N": "agrees"},
                timing={"objection": "after_next_call", "objection_by": "S", "within_correction_period": True})
    assert any(s.rule == "69B2.would_likely_have_won" for s in ruled(data).trace)
    r1997 = ruled(data, edition="1997")
    assert any(s.rule == "69B.normal.1997" and not s.text_verified for s in r1997.trace)
