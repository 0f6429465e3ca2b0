"""Law 70 and Law 71B adjudicated through the play core: counts, witness lines and the clause chain."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimlaw.engine.api import rule
from claimlaw.facts import case_from_dict, load_case
from tests.lawmarks import clause

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"



def example(name: str, **change: object) -> dict:
    import yaml

    data = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
    data.pop("expect", None)
    for key, value in change.items():
        part, _, field = key.partition("__")
        if field:
            data.setdefault(part, {})[field] = value
        else:
            data[part] = value
    return data


def ruled(name: str, **change: object):  # noqa: ANN201 - a Ruling
    return rule(case_from_dict(example(name, **change)))


@clause("70A")
def test_a_contested_claim_gives_the_claimer_the_worst_count_over_his_normal_lines_with_a_witness() -> None:
    r = ruled("7nt-spade-guess-finesse-only")
    assert r.outcome == "claim_adjusted" and r.tricks == {"EW": 12, "NS": 1}
    assert r.witnesses and r.witnesses[0].tricks == 11 and r.witnesses[0].words
    assert r.score == -50 and r.score_for == "EW"  # 7NT one down, not vulnerable


@clause("70A")
def test_a_claim_the_search_proves_is_allowed_on_every_normal_line() -> None:
    r = ruled("3nt-ak5-opposite-42-jack-forgotten")
    assert r.outcome == "claim_allowed" and r.summary.endswith("on every normal line.")


@clause("70A")
def test_a_claim_the_search_could_not_prove_within_its_budget_is_not_established() -> None:
    from claimlaw.engine.play import PlayCore

    r = rule(case_from_dict(example("7s-trump-round-both-followed")), play=PlayCore(budget=50))
    assert r.outcome == "claim_not_established" and r.tricks is None and r.proven is False
    assert "not established" in r.summary and "--budget" in r.next_step
    assert r.witnesses  # the worst line it did find is shown


@clause("70A")
def test_the_same_claim_searched_to_the_end_is_allowed_and_proven() -> None:
    r = ruled("7s-trump-round-both-followed")
    assert r.outcome == "claim_allowed" and r.proven is True


@clause("70A", "70E1")
def test_the_claim_stands_when_both_the_finesse_and_the_drop_work() -> None:
    r = ruled("7nt-spade-guess")
    assert r.outcome == "claim_allowed" and r.tricks == {"EW": 13, "NS": 0}


@clause("70E1")
@pytest.mark.parametrize("name", ["7nt-spade-guess-finesse-only", "7nt-spade-guess-ending-drop-only"])
def test_an_unstated_guess_is_ruled_the_losing_way_in_either_layout(name: str) -> None:
    r = ruled(name)
    assert r.tricks == {"EW": 12, "NS": 1}
    assert "70E1" in r.laws


@clause("70D1")
def test_a_stated_finesse_binds_the_claimer_even_when_the_drop_would_have_worked() -> None:
    r = ruled("7nt-spade-guess-ending-drop-only", claim__statement="All mine, taking the spade finesse",
              claim__line={"steps": [{"action": "finesse", "suit": "S", "card": "SQ"}]})
    assert r.tricks == {"EW": 12, "NS": 1} and "70D1" in r.laws


@clause("70E1", "70.footnote")
def test_a_losing_guess_taken_after_cashing_winners_can_cost_more_than_one_trick() -> None:
    # the seed's 7NT with invented defenders' hands: South's seven clubs run once he wins the queen
    r = ruled("7nt-spade-guess-drop-only")
    assert r.tricks["EW"] <= 7 and "70E1" in r.laws
    assert "♠J" in r.witnesses[0].words and "finesse" in r.witnesses[0].words


@clause("70D1")
def test_a_stated_line_that_works_is_accepted() -> None:
    r = ruled("7nt-spade-guess-drop-only", claim__statement="Cashing spades from the top",
              claim__line={"steps": [{"action": "cash", "suit": "S"}]})
    assert r.tricks == {"EW": 13, "NS": 0} and r.outcome == "claim_allowed"


@clause("70C", "70C1", "70C2", "70C3")
@pytest.mark.parametrize("layout", ["west", "east"])
def test_a_forgotten_trump_wins_a_trick_for_the_opponents_whoever_holds_it(layout: str) -> None:
    r = ruled(f"4h-forgotten-trump-{layout}")
    assert r.tricks == {"NS": 9, "EW": 4}
    assert {"70C", "70C1", "70C2", "70C3"} <= set(r.laws)
    assert any("♥5" in w.words or "H5" in w.words for w in r.witnesses)


@clause("70C1")
def test_a_claimer_who_speaks_of_the_trumps_is_not_ruled_against_under_70c() -> None:
    r = ruled("4h-forgotten-trump-west", claim__statement="Ruffing a club, then drawing the last trump")
    assert "70C3" not in r.laws
    assert any(s.rule == "70C1.statement_about_trump" for s in r.trace)


@clause("70C2")
def test_claiming_at_the_first_chance_to_draw_trumps_shows_no_unawareness() -> None:
    r = rule(load_case(EXAMPLES / "4c-claim-first-chance-to-draw-trumps.yaml"))
    assert r.outcome == "claim_allowed" and "70C3" not in r.laws
    assert any(s.rule == "70C2.first_chance_safe_draw" for s in r.trace)


@clause("70C2")
def test_claiming_after_a_trump_round_both_opponents_followed_shows_awareness() -> None:
    r = rule(load_case(EXAMPLES / "7s-trump-round-both-followed.yaml"))
    assert r.outcome == "claim_allowed"
    assert any(s.rule == "70C2.just_drew_a_round" for s in r.trace)


@clause("70C2")
def test_a_claim_made_after_leading_to_the_next_trick_still_comes_just_after_the_trump_round() -> None:
    # White Book 8.70.4(b): one round of trumps, both opponents follow, "all mine": he knows trumps remain; leading
    # the ♥2 to the next trick before claiming does not make him forget it
    r = ruled("7s-trump-round-both-followed", board__play=[["S2", "S3", "ST", "SA"], ["H2"]])
    assert any(s.rule == "70C2.just_drew_a_round" for s in r.trace)
    assert r.outcome == "claim_allowed" and "70C3" not in r.laws


@clause("70C2")
def test_a_trump_led_that_only_one_opponent_has_followed_does_not_yet_show_awareness() -> None:
    r = ruled("7s-trump-round-both-followed", board__play=[["S2", "S3"]])
    assert not any(s.rule == "70C2.just_drew_a_round" for s in r.trace)


@clause("70C2")
def test_claiming_after_a_trump_round_on_which_an_opponent_showed_out_shows_awareness() -> None:
    # East's ♠J9 are out after West showed out on the ♠A: the claimer has just seen where they are
    r = ruled("7s-trump-round-both-followed", board__play=[["S2", "S3", "H3", "SA"]])
    assert any(s.rule == "70C2.show_out_on_a_round" for s in r.trace)
    assert r.outcome == "claim_allowed" and "70C3" not in r.laws
    before = ruled("7s-trump-round-both-followed", board__play=[["S2", "S3"]])
    assert not any(s.rule == "70C2.show_out_on_a_round" for s in before.trace)


@clause("70C2")
def test_a_directors_finding_of_awareness_overrides_the_default() -> None:
    r = ruled("4h-forgotten-trump-west", findings={"aware_of_trumps": True})
    assert "70C3" not in r.laws and any(s.rule == "70C2.finding_aware" for s in r.trace)


@clause("70D2")
def test_a_defenders_claim_gets_no_credit_when_declarer_can_endplay_him() -> None:
    r = rule(load_case(EXAMPLES / "3nt-defender-claim-endplay.yaml"))
    assert r.tricks == {"NS": 4, "EW": 9}
    # the endplay takes the trick whatever the claimer's partner plays: 70D2 fired but is not among the reasons
    assert "70D2" not in r.laws and "70D2" in {s.clause for s in r.considered}


@clause("70E2")
def test_a_regulating_authoritys_order_for_an_unclarified_suit_enters_the_trace(tmp_path: Path) -> None:
    pack = tmp_path / "order.yaml"
    pack.write_text("name: order\nparams: {order_70E2: {value: top_down, cite: 'RA regulation 12'}}\n",
                    encoding="utf-8")
    r = rule(case_from_dict(example("7nt-spade-guess")), packs=[str(pack)])
    step = next(s for s in r.trace if s.clause == "70E2")
    assert "RA regulation 12" in step.concluded["asserted"][0]["source"]
    assert step.cites == ["an unclarified suit is played from the top down: RA regulation 12 [pack order]"]


@clause("70C2", "70C3")
def test_claiming_at_the_first_chance_to_draw_trumps_does_not_show_awareness_when_a_layout_could_hurt() -> None:
    allowed = rule(load_case(EXAMPLES / "4c-claim-first-chance-to-draw-trumps.yaml"))
    assert allowed.outcome == "claim_allowed"
    r = rule(load_case(EXAMPLES / "4c-claim-trumps-could-hurt.yaml"))  # the defenders hold the ♣Q
    assert r.outcome == "claim_adjusted" and "70C3" in r.laws
    step = next(s for s in r.trace if s.clause == "70C2")
    assert step.rule == "70C2.at_all_likely_unaware"
    words = r.witnesses[0].words
    assert "with ♣Q (ruffed)" in words  # the defenders' ♣Q scores: the trump the claim forgot


@clause("70D2")
def test_a_defenders_claim_that_needs_partner_to_overtake_is_ruled_on_partners_normal_low_card() -> None:
    r = rule(load_case(EXAMPLES / "3nt-defender-claim-relies-on-partner-unblocking.yaml"))
    assert r.tricks == {"NS": 10, "EW": 3} and "70D2" in r.laws
    words = r.witnesses[0].words
    assert "West ♥6" in words and "East leads ♥Q" in words  # partner follows low under the queen


@clause("70E2")
def test_a_regulated_top_down_order_for_an_unclarified_suit_settles_the_guess_without_the_losing_finesse(
        tmp_path: Path) -> None:
    pack = tmp_path / "order.yaml"
    pack.write_text("name: order\nparams: {order_70E2: {value: top_down, cite: 'RA regulation 12'}}\n",
                    encoding="utf-8")
    case = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml")
    assert rule(case).tricks == {"EW": 12, "NS": 1}  # 70E1: the losing finesse
    r = rule(case, packs=[str(pack)])
    assert r.tricks == {"EW": 13, "NS": 0} and r.outcome == "claim_allowed"  # from the top: the queen drops


@clause("70.footnote")
@pytest.mark.parametrize("name,ns", [("3nt-ak5-opposite-42-jack-forgotten", 10),
                                     ("3nt-754-opposite-void-six-forgotten", 9),
                                     ("3nt-three-discards-forgotten-jack", 9)])
def test_careless_play_for_the_class_of_player_counts_as_normal(name: str, ns: int) -> None:
    r = rule(load_case(EXAMPLES / f"{name}.yaml"))
    assert r.tricks is not None and r.tricks["NS"] == ns


@clause("71", "71B", "71.2")
@pytest.mark.parametrize("edition,law", [("2017", "71B"), ("2007", "71.2")])
def test_a_conceded_trick_no_normal_play_could_lose_is_given_back(edition: str, law: str) -> None:
    r = rule(load_case(EXAMPLES / "1nt-concession-of-a-trick-that-could-not-be-lost.yaml"), edition=edition)
    assert r.outcome == "concession_cancelled" and r.tricks == {"NS": 7, "EW": 6} and law in r.laws


@clause("69B2")
@pytest.mark.parametrize("when,outcome,ew", [("within", "agreement_withdrawn", 12), ("after", "agreed", 13)])
def test_an_agreed_impossible_claim_is_withdrawn_only_within_the_correction_period(
        when: str, outcome: str, ew: int) -> None:
    r = rule(load_case(EXAMPLES / f"7nt-agreed-claim-withdrawn-{when}-correction-period.yaml"))
    assert r.outcome == outcome and r.tricks is not None and r.tricks["EW"] == ew


@clause("70E1")
def test_70e1_is_not_in_the_chain_of_a_claim_whose_winners_as_the_claimer_sees_them_need_no_guess() -> None:
    r = rule(load_case(EXAMPLES / "3nt-three-discards-forgotten-jack.yaml"))
    assert "70E1" not in r.laws and r.outcome == "claim_adjusted"
    assert any(s.clause == "70E1" for s in r.considered)


@clause("70E1")
def test_70e1_is_in_the_chain_where_the_claim_needs_a_finesse_nobody_stated() -> None:
    r = ruled("7nt-spade-guess-finesse-only")
    assert "70E1" in r.laws and r.outcome == "claim_adjusted"


@clause("70B")
def test_a_step_that_fired_but_changed_nothing_goes_to_the_considered_steps_not_the_chain() -> None:
    r = rule(load_case(EXAMPLES / "3nt-three-discards-forgotten-jack.yaml"))
    chain = {s.rule for s in r.trace}
    assert "68B1.claim_concedes_rest" not in chain and "guideline.ruff_low" not in chain
    assert {"68B1.claim_concedes_rest", "guideline.ruff_low"} <= {s.rule for s in r.considered}
    assert "guideline.unaware_winner" in chain  # the witness line used it
    # 70B's procedure (the claimer repeats his statement, the objections are heard) decides nothing here
    assert "70B.clarification_repeated" not in chain and "70B.clarification_repeated" in {s.rule for s in r.considered}


@clause("70A", "70.footnote")
def test_an_adjusted_claim_names_the_card_that_lost_the_trick_and_the_guideline_that_made_it_normal() -> None:
    r = rule(load_case(EXAMPLES / "3nt-three-discards-forgotten-jack.yaml"))
    w = next(w for w in r.witnesses if w.question == "worst_normal")
    assert w.costly is not None
    assert (w.costly.seat, w.costly.card, w.costly.trick, w.costly.licence) == ("S", "CA", 12, "unaware_winner")
    assert w.costly.at_most == 3 and "White Book 8.70.6" in w.costly.why
    assert w.costly.sentence in r.summary and "South's ♣A" in r.summary


@clause("70A")
def test_a_claim_best_play_cannot_make_says_that_no_card_of_the_line_loses_it() -> None:
    r = rule(load_case(EXAMPLES / "4h-forgotten-trump-west.yaml"))
    assert r.outcome == "claim_adjusted" and all(w.costly is None for w in r.witnesses)
    assert "No card of the line loses it: best play by both sides already gives North-South at most 3" in r.summary


@clause("70A")
def test_an_allowed_claim_names_no_costly_card() -> None:
    r = rule(load_case(EXAMPLES / "7s-trump-round-both-followed.yaml"))
    assert r.outcome == "claim_allowed" and all(w.costly is None for w in r.witnesses)


def _diagram(position: str, contract: str, declarer: str, leader: str, won: dict[str, int], by: str,
             tricks: int) -> dict:
    """A silent claim from a diagram, disputed at once by the claimer's left-hand opponent."""
    from claimlaw.facts import Seat

    return {"board": {"position": position, "contract": contract, "declarer": declarer, "vulnerable": "none",
                      "leader": leader, "won": won},
            "claim": {"by": by, "says": "claim", "tricks": tricks},
            "responses": {Seat.parse(by).next.value: "disputes"}}


def _awareness(r) -> list[tuple[str, object]]:  # noqa: ANN001 - a Ruling
    """Each 70C2 step, printed or only considered, with the trumps it found him unaware of."""
    return [(s.rule, next((f.get("cards") for f in s.concluded.get("asserted", []) if isinstance(f, dict)), None))
            for s in [*r.trace, *r.considered] if s.clause == "70C2"]


@clause("70C2")
def test_a_claim_conceding_exactly_the_tricks_the_outstanding_trumps_take_shows_he_counted_them() -> None:
    # ♠AQ over West's ♠K3: the trumps take one trick, and without either card they would take none; conceding one
    # is conceding the trump trick (reviewed at-risk row 12: East's two trump tricks conceded after West showed out)
    r = rule(case_from_dict(_diagram("N:.54.A4. .JT.98. AQ.AK.. K3.Q.2.", "4S", "S", "S", {"NS": 9, "EW": 0},
                                     "S", 3)))
    assert [name for name, _ in _awareness(r)] == ["70C2.concedes_the_trump_tricks"]
    assert r.outcome == "claim_allowed" and "70C3" not in r.laws


@clause("70C2")
def test_claiming_every_trick_with_the_same_trumps_out_shows_nothing_and_leaves_the_default() -> None:
    r = rule(case_from_dict(_diagram("N:.54.A4. .JT.98. AQ.AK.. K3.Q.2.", "4S", "S", "S", {"NS": 9, "EW": 0},
                                     "S", 4)))
    assert [name for name, _ in _awareness(r)] == ["70C2.at_all_likely_unaware"]


@clause("70C2")
def test_a_concession_that_could_be_for_a_side_suit_loser_he_cannot_ruff_shows_nothing_about_the_trumps() -> None:
    # the same ♠AQ over ♠K3, but East's ♦K is above North-South's diamonds and neither hand is void to ruff it: the
    # trick conceded may be the diamond, and the doubt goes against the claimer (White Book 8.70.1)
    r = rule(case_from_dict(_diagram("N:.54.54. .JT.KQ. AQ.A.2. K3.Q.3.", "4S", "S", "S", {"NS": 9, "EW": 0},
                                     "S", 3)))
    assert [name for name, _ in _awareness(r)] == ["70C2.at_all_likely_unaware"]


@clause("70C2")
def test_conceding_the_high_trump_does_not_show_he_knows_of_a_low_one_beside_it() -> None:
    # ♠QJT against ♠A2: the ace takes its trick with or without the two, so conceding one trick shows only the ace
    # (reviewed at-risk row 13: conceding the ♥Q, the ♥2 overlooked); he is at all likely unaware of the two alone
    r = rule(case_from_dict(_diagram("N:.54.A4. .QJ.98. QJT.A.. A2.K.2.", "4S", "S", "S", {"NS": 9, "EW": 0},
                                     "S", 3)))
    assert _awareness(r) == [("70C2.at_all_likely_unaware", ["S2"])]


@clause("70C2")
def test_a_defender_cannot_be_unaware_of_trumps_he_sees_in_dummy() -> None:
    # declarer North has no trump left; dummy's ♠5, face up, is the only one out
    r = rule(case_from_dict(_diagram("N:.Q.K.2 .J.Q.3 5..43. .AK.2.", "4S", "N", "W", {"NS": 7, "EW": 3},
                                     "W", 2)))
    assert [name for name, _ in _awareness(r)] == ["70C2.sees_every_trump"]
    assert "70C3" not in r.laws


@clause("70C", "70C3")
def test_a_claim_that_stands_with_a_forgotten_trump_out_cites_70c3_for_taking_nothing() -> None:
    # West's ♠2 must follow to the hearts: at all likely unaware of it, but no normal play loses a trick to it, and
    # that answer is what lets the claim stand (NBB Delft 4♠: 70C and the footnote, both tricks to declarer)
    r = rule(case_from_dict(_diagram("N:..543. ..QJT. A.AK.. 2.QJ..", "4S", "S", "S", {"NS": 10, "EW": 0},
                                     "S", 3)))
    assert r.outcome == "claim_allowed"
    assert [name for name, _ in _awareness(r)] == ["70C2.at_all_likely_unaware"]
    assert {"70C", "70C2", "70C3"} <= set(r.laws)


@clause("70C", "70C3")
def test_a_claim_lost_to_something_else_than_the_forgotten_trump_keeps_70c_out_of_the_law_chain() -> None:
    # West claims his ♥AK and concedes declarer's ♠A, but leads the ♦2 first (a conceded trick lost at once, EBU
    # claims notes): the lead never comes back. Declarer's ♠A, which West may have forgotten, takes only the trick
    # the claim concedes: the claim is lost to the concession's timing, and 70C is no part of the ruling (reviewed
    # at-risk rows 3 and 25)
    r = rule(case_from_dict(_diagram("N:A..K.2 .J.Q.3 ..43.4 .AK.2.", "4S", "N", "W", {"NS": 7, "EW": 3},
                                     "W", 2)))
    assert r.outcome == "claim_adjusted"
    assert _awareness(r) == [("70C2.at_all_likely_unaware", ["SA"])]
    assert not {"70C", "70C1", "70C2", "70C3"} & set(r.laws)


@clause("70C3", "70.footnote")
def test_an_unaware_claimer_ruffs_low_and_keeps_no_low_trump_under_the_one_he_forgot() -> None:
    # East leads the ♦K; South, with ♥K3 and East's ♥5 forgotten, ruffs low as anyone does (EBU claims notes) and
    # keeps the king: the ♥5 falls under it. Ruffing with the king to keep the three is not normal play
    r = rule(case_from_dict(_diagram("N:...AKQ 2.5.K. A.K3.. 3..QJ.", "4H", "S", "E", {"NS": 7, "EW": 3},
                                     "S", 3)))
    assert r.outcome == "claim_allowed" and r.tricks == {"NS": 10, "EW": 3}


@clause("70C2", "70C3")
def test_a_claimer_conceding_the_high_trump_may_have_forgotten_only_the_small_one_and_lead_his_jack_into_it() -> None:
    """Own review 2026-11-28, at-risk row 13 (accepted): 2♥, North claims two of three with ♥AJ ♣K, South's ♦Q led.
    Forgetting all four trumps he would not lead one (ACBL LC 2019 #4), and the claim stands; forgetting only the
    small ones (White Book 8.70.4(a)) he overruffs West's ♥K, leads the ♥J to drive out the ♥Q he concedes, and
    East's ♥2 takes the last trick."""
    case = {"title": "2♥, the ♥2 forgotten",
            "board": {"position": "N:.AJ..K .Q2.J. Q.8.. .K7..T", "contract": "2H", "declarer": "N",
                      "vulnerable": "none", "leader": "S", "trick": ["DQ"], "won": {"NS": 6, "EW": 4}},
            "claim": {"by": "N", "says": "claim", "tricks": 2}, "responses": {"E": "disputes"},
            "findings": {"class_of_player": "world_class"}}
    r = rule(case_from_dict(case))
    assert r.outcome == "claim_adjusted" and r.tricks == {"NS": 7, "EW": 6} and "70C3" in r.laws
    assert "North leads ♥J (East ♥Q" in r.witnesses[0].words
    aware = rule(case_from_dict({**case, "findings": {"class_of_player": "world_class", "aware_of_trumps": True}}))
    assert aware.outcome == "claim_allowed"
