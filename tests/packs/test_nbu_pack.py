"""The five regulations of a fictional union written as ONE data pack with no Python (tests/packs/nbu.yaml): each
one changes the ruling where it applies and is cited at the step it changed, in the default ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from claimlaw.engine.api import rule
from claimlaw.engine.faces.cli import app
from claimlaw.facts import Ruling, load_case
from tests.lawmarks import clause

HERE = Path(__file__).resolve().parent
NBU = str(HERE / "nbu.yaml")
EXAMPLES = HERE.parents[1] / "examples"
runner = CliRunner()


def _step(r: Ruling, rule_name: str) -> list[str]:
    return next(s.cites for s in r.trace if s.rule == rule_name)


def _brief(case: Path, *packs: str) -> str:
    args = ["rule", str(case)] + [x for p in packs for x in ("--pack", p)]
    res = runner.invoke(app, args)
    assert res.exit_code in (0, 3), res.output
    return " ".join(res.stdout.split())


@clause("79C")
def test_nbu_regulation_7_1_sixty_minutes_reopens_an_agreement_and_the_79c_step_says_60_minutes_and_cites_it(
        ) -> None:
    case = load_case(EXAMPLES / "7nt-agreed-claim-withdrawn-after-correction-period.yaml")  # 45 minutes after
    assert rule(case).outcome == "agreed"
    r = rule(case, packs=[NBU])
    assert r.outcome == "agreement_withdrawn" and r.tricks == {"EW": 12, "NS": 1}
    assert _step(r, "79C.correction_period") == [
        "correction period 60 minutes: NBU Regulation 7.1 (the correction period ends 60 minutes after the official "
        "score is posted) [pack nbu]"]
    out = _brief(EXAMPLES / "7nt-agreed-claim-withdrawn-after-correction-period.yaml", NBU)
    assert "correction period 60 minutes: NBU Regulation 7.1" in out


@clause("70E2")
def test_nbu_regulation_7_2_top_down_credits_the_drop_and_the_70e2_step_cites_it() -> None:
    case = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml")
    assert rule(case).tricks == {"EW": 12, "NS": 1}
    r = rule(case, packs=[NBU])
    assert r.tricks == {"EW": 13, "NS": 0}
    assert _step(r, "70E2.ra_order") == ["an unclarified suit is played from the top down: NBU Regulation 7.2 "
                                         "[pack nbu]"]
    assert "played from the top down: NBU Regulation 7.2" in _brief(
        EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml", NBU)


@clause("70C2")
def test_nbu_regulation_7_3_a_trick_one_claim_is_deemed_aware_of_the_trumps_and_cites_it() -> None:
    case = load_case(HERE / "trick-one-claim.yaml")
    plain = rule(case)
    assert plain.tricks == {"NS": 7, "EW": 6}  # East ruffs the diamonds of a claimer unaware of his trumps
    r = rule(case, packs=[NBU])
    assert r.outcome == "claim_allowed" and r.tricks == {"NS": 13, "EW": 0}
    assert _step(r, "nbu.7.3.trick_one") == ["aware_of_trumps = true: NBU Regulation 7.3 [pack nbu]"]
    assert "aware_of_trumps = true: NBU Regulation 7.3" in _brief(HERE / "trick-one-claim.yaml", NBU)


@clause("70C2")
def test_nbu_regulation_7_3_does_not_apply_after_trick_one_nor_over_the_directors_own_finding() -> None:
    later = load_case(EXAMPLES / "4c-claim-trumps-could-hurt.yaml")  # a claim at trick six
    assert "nbu.7.3.trick_one" not in [s.rule for s in rule(later, packs=[NBU]).trace]
    found = load_case(HERE / "trick-one-claim.yaml").model_copy(deep=True)
    found.findings.aware_of_trumps = False  # the Director found him unaware: a regulation does not overrule it
    r = rule(found, packs=[NBU])
    assert r.tricks == {"NS": 7, "EW": 6} and "nbu.7.3.trick_one" not in [s.rule for s in r.trace]


@clause("70C3")
def test_nbu_regulation_7_4_deems_a_single_high_trump_drawn_and_cites_nbu_not_acbl() -> None:
    case = load_case(EXAMPLES / "4h-forgotten-trump-high-trump-held.yaml")
    assert rule(case).tricks == {"NS": 9, "EW": 4}
    r = rule(case, packs=[NBU])
    assert r.tricks == {"NS": 10, "EW": 3}
    cites = _step(r, "70C3.trick_could_be_lost")
    assert cites == ["a safety check with a high trump draws the single outstanding trump: NBU Regulation 7.4 (a "
                     "declarer holding a higher trump is deemed aware of a single outstanding trump) [pack nbu]"]
    assert not any("ACBL" in c for s in r.trace for c in s.cites)
    acbl = rule(case, packs=["acbl1992"])
    assert acbl.tricks == {"NS": 10, "EW": 3}
    assert any("ACBL Tech Files, Directions July/October 1992 C" in c for c in _step(acbl, "70C3.trick_could_be_lost"))


@clause("70C3")
def test_nbu_regulation_7_4_does_not_apply_with_two_trumps_out() -> None:
    data = yaml.safe_load((EXAMPLES / "4h-forgotten-trump-high-trump-held.yaml").read_text(encoding="utf-8"))
    data["board"]["position"] = "N:...432 ...AKQ .A.AK. .54.Q."  # West holds two trumps now
    data.pop("expect")
    from claimlaw.facts import Case

    case = Case.model_validate(data)
    r = rule(case, packs=[NBU])
    assert not any("safety check" in c for s in r.trace for c in s.cites)
    assert not any(f.get("name") == "safety_check_high_trump" for s in r.trace
                   for f in s.concluded.get("asserted", []))


@clause("70.footnote")
def test_nbu_regulation_7_5_withdraws_concede_now_or_end_and_says_so_once_in_the_chain() -> None:
    case = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml")
    r = rule(case, packs=[NBU], verbose=True)
    said = [c for s in r.trace for c in s.cites if c.startswith("not applied: NBU Regulation 7.5")]
    assert len(said) == 1
    assert not any(s.rule.startswith("guideline.concede_now_or_end") for s in r.trace)
    assert "not applied: NBU Regulation 7.5" in _brief(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml", NBU)
    assert not any("concede_now_or_end" in c for s in rule(case).trace for c in s.cites)


@pytest.mark.parametrize("mistake,words", [
    ("correction_minutes:", "params.correction_minute: unknown parameter 'correction_minute'; did you mean "
                            "'correction_minutes'?"),
    ("guideline: concede_now_or_end", "withdraw[0].guideline: unknown guideline 'concede_now_or_ned'; did you mean "
                                      "'concede_now_or_end'?"),
    ("when: {trick: 1, claimer: declarer}", "rules[0].when.trik: unknown case fact 'trik'; did you mean 'trick'?"),
    ("finding: {aware_of_trumps: true}", "rules[0].then.finding.aware_of_trump: unknown key 'aware_of_trump'; did "
                                         "you mean 'aware_of_trumps'?"),
    ("value: top_down", "params.order_70E2.value: 'top_dwon' is not a 70E2 order: did you mean 'top_down'?"),
])
def test_a_misspelt_name_in_the_nbu_pack_is_exit_2_with_the_closest_valid_name(tmp_path: Path, mistake: str,
                                                                               words: str) -> None:
    typo = {"correction_minutes:": "correction_minute:",
            "guideline: concede_now_or_end": "guideline: concede_now_or_ned",
            "when: {trick: 1, claimer: declarer}": "when: {trik: 1, claimer: declarer}",
            "finding: {aware_of_trumps: true}": "finding: {aware_of_trump: true}",
            "value: top_down": "value: top_dwon"}[mistake]
    text = Path(NBU).read_text(encoding="utf-8")
    assert mistake in text
    bad = tmp_path / "nbu.yaml"
    bad.write_text(text.replace(mistake, typo, 1), encoding="utf-8")
    res = runner.invoke(app, ["rule", str(EXAMPLES / "current-trick-only.yaml"), "--pack", str(bad)])
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and words in " ".join(res.stderr.split()), res.stderr


def test_the_nbu_pack_and_the_ebu_pack_disagree_on_the_correction_period_unless_the_later_says_it_overrides(
        tmp_path: Path) -> None:
    case = EXAMPLES / "7nt-agreed-claim-withdrawn-after-correction-period.yaml"
    res = runner.invoke(app, ["rule", str(case), "--pack", NBU, "--pack", "ebu"])
    assert res.exit_code == 2 and "overrides: [nbu]" in res.stderr and "correction_minutes" in res.stderr
    later = tmp_path / "later.yaml"
    later.write_text("name: later\noverrides: nbu\nparams:\n  correction_minutes: {value: 30, cite: Later rule 1}\n",
                     encoding="utf-8")
    r = rule(load_case(case), packs=[NBU, str(later)])
    assert r.outcome == "agreed"
    assert _step(r, "79C.correction_period") == ["correction period 30 minutes: Later rule 1 [pack later]"]


def test_claimlaw_law_with_a_pack_shows_the_clause_as_the_pack_changes_it() -> None:
    res = runner.invoke(app, ["law", "79C", "--pack", NBU])
    out = " ".join(res.stdout.split())
    assert res.exit_code == 0 and "correction_minutes = 60: NBU Regulation 7.1" in out
    foot = " ".join(runner.invoke(app, ["law", "70.footnote", "--pack", NBU]).stdout.split())
    assert "withdrawn by nbu" in foot and "guideline.concede_now_or_end" in foot and "nbu.withdraw" in foot
    plain = " ".join(runner.invoke(app, ["law", "79C", "--pack", "ebu"]).stdout.split())
    assert "correction_minutes = 30.0: EBU White Book 2023" in plain
    typo = runner.invoke(app, ["law", "79C", "--pack", "ebuu"])
    assert typo.exit_code == 2 and "ebuu" in typo.stderr
