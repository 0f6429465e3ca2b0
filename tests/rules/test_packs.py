"""Regulating-Authority packs: listed, loaded by name or path, and each one changes a ruling or its trace."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from claimlaw.engine.api import program_for, rule
from claimlaw.engine.faces.cli import app
from claimlaw.facts import load_case
from tests.lawmarks import clause
from tests.rules.helpers import SEED_4C, SEED_4C_PLAY, make, ruled

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FOUR_C = {"board": {"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": SEED_4C_PLAY},
          "claim": {"by": "W", "says": "claim"}}
WITHDRAWN = make(FOUR_C, responses={"N": "agrees"}, findings={"would_likely_have_won": 1},
                 timing={"objection": "after_next_call", "objection_by": "S", "within_correction_period": True})
CONTESTED = make(claim={"by": "S", "tricks": 4}, responses={"W": "disputes"})


def test_claimlaw_packs_lists_the_shipped_packs() -> None:
    res = CliRunner().invoke(app, ["packs"])
    assert res.exit_code == 0
    for name in ("ebu", "acbl", "acbl1992", "wbflc"):
        assert name in res.output


@clause("68B")
def test_the_wbflc_pack_reads_1997_68b_as_no_concession_and_no_claim() -> None:
    data = make(claim={"by": "W", "says": "concede", "tricks": 2}, responses={"partner_objected_immediately": True})
    plain = ruled(data, edition="1997")
    with_pack = ruled(data, edition="1997", packs=["wbflc"])
    assert "no claim" not in plain.summary and "no claim" in with_pack.summary
    step = with_pack.trace[0]
    assert step.pack == "wbflc" and step.packs == ["wbflc"] and step.edition == "1997"
    assert "WBFLC" in step.source


@clause("69B2")
def test_the_ebu_pack_adds_the_white_books_no_weighting_rule_to_a_69b2_withdrawal() -> None:
    r = ruled(WITHDRAWN, packs=["ebu"])
    assert any(s.rule == "ebu.8.69.2.no_weighting" and s.pack == "ebu" for s in r.trace)
    assert all(s.packs == ["ebu"] for s in r.trace)
    assert not any(s.rule.startswith("ebu.") for s in ruled(WITHDRAWN).trace)


@clause("70.footnote")
def test_the_acbl_pack_replaces_the_suit_order_guideline_with_its_2019_wording() -> None:
    r = ruled(CONTESTED, packs=["acbl"], verbose=True)
    step = next(s for s in r.trace if s.rule == "guideline.any_suit_order")
    assert step.pack == "acbl" and "2019" in step.source


def test_the_acbl_1992_variant_makes_a_high_trump_safety_check_normal() -> None:
    assert program_for("2017", ["acbl"]).params["high_trump_safety_check_normal"] is False
    assert program_for("2017", ["acbl1992"]).params["high_trump_safety_check_normal"] is True


@clause("70C3")
def test_under_acbl_1992_an_unaware_claimer_holding_a_higher_trump_is_deemed_to_check_with_it_first() -> None:
    case = load_case(EXAMPLES / "4h-forgotten-trump-high-trump-held.yaml")
    assert rule(case).tricks == {"NS": 9, "EW": 4}
    assert rule(case, packs=["acbl"]).tricks == {"NS": 9, "EW": 4}  # 2019 #3: no credit for a safety check
    r = rule(case, packs=["acbl1992"])
    assert r.tricks == {"NS": 10, "EW": 3} and r.outcome == "claim_allowed"
    step = next(s for s in r.trace if s.clause == "70C3")
    assert "1992 C" in step.concluded["asserted"][0]["source"]


@clause("70E1")
def test_a_pack_written_outside_the_project_is_loaded_by_path_and_takes_effect(tmp_path: Path) -> None:
    pack = tmp_path / "club_pack.py"
    pack.write_text(
        "from claimlaw.rules.rulebook import Pack, Rule, fact\n"
        "def _say(ctx, m):\n"
        "    ctx.note('club regulation 7: claims are explained at the table')\n"
        "PACK = Pack(name='club', title='A club', source='Club regulations 2026',\n"
        "            neutralise=['70E1.unstated_finesse'],\n"
        "            add=[Rule(name='club.7', clause='70A', editions=('2017',), reason='Club rule 7.',\n"
        "                      when=(fact('adjudicate', alias='adj'),), then=_say)])\n",
        encoding="utf-8")
    r = ruled(CONTESTED, packs=[str(pack)])
    assert "70E1" not in r.laws
    assert any("club regulation 7" in n for n in r.notes)
    assert any(s.rule == "club.7" and s.pack == "club" for s in r.trace)


@clause("79C")
def test_a_data_pack_can_shorten_the_correction_period(tmp_path: Path) -> None:
    pack = tmp_path / "short.yaml"
    pack.write_text("name: short\ntitle: Short correction period\nsource: An organiser\n"
                    "params: {correction_minutes: {value: 10, cite: Conditions of contest 4}}\n", encoding="utf-8")
    data = make(WITHDRAWN, timing={"objection": "after_round_end", "objection_by": "S",
                                   "within_correction_period": None, "minutes_after_scores_posted": 20})
    assert ruled(data).outcome == "agreement_withdrawn"
    r = ruled(data, packs=[str(pack)])
    assert r.outcome == "agreed" and "correction period" in r.summary
    step = next(s for s in r.trace if s.clause == "79C")
    assert step.cites == ["correction period 10 minutes: Conditions of contest 4 [pack short]"]


def test_an_unknown_pack_is_a_clear_error() -> None:
    res = CliRunner().invoke(app, ["rule", str(Path(__file__).parents[2] / "examples" / "current-trick-only.yaml"),
                                   "--pack", "nosuchpack"])
    assert res.exit_code == 2 and "nosuchpack" in res.output


@clause("70A")
def test_a_pack_that_allows_weighted_results_gives_the_directors_weighting_beside_the_whole_trick_ruling(
        tmp_path: Path) -> None:
    pack = tmp_path / "weights.yaml"
    pack.write_text("name: weights\nparams: {weighted_scores: {value: true, cite: Appeals regulation 2}}\n",
                    encoding="utf-8")
    case = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml").model_copy(deep=True)
    case.findings.outcome_weights = {2: 0.5, 3: 0.5}
    r = rule(case, packs=[str(pack)])
    assert r.tricks == {"EW": 12, "NS": 1}  # the whole-trick ruling is still made
    assert [(w.tricks["EW"], w.weight) for w in r.weighted] == [(12, 0.5), (13, 0.5)]
    assert all(w.score is not None for w in r.weighted)
    plain = rule(case)
    assert plain.weighted == [] and any("whole tricks" in n for n in plain.notes)
