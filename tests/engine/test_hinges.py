"""What a ruling hinges on (engine/hinges.py): the findings whose answer changes the ruling, as a Director's
questions, on the examples and the published cases."""

from __future__ import annotations

import functools
import json
import os
import random
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimlaw.engine.api import rule
from claimlaw.engine.cli import app
from claimlaw.engine.hinges import HingeReport, candidates, hinges
from claimlaw.facts import Case, Ruling, case_from_dict, load_case
from tests.lawmarks import clause

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
PUBLISHED = sorted((ROOT / "tests" / "rulings" / "cases").glob("*.yaml")) + sorted(
    (ROOT.parent / "shared" / "data" / "rulings").glob("*.yaml"))
# cases whose every ruling is a 13-card 7NT search of many seconds: checked only in the slow run
SLOW = {"7nt-spade-guess.yaml", "7nt-spade-guess-drop-only.yaml", "7nt-spade-guess-ending-drop-only.yaml",
        "7nt-spade-guess-finesse-only.yaml"}
ALL = sorted(EX.glob("*.yaml")) + PUBLISHED


@functools.cache
def ruled(path: Path) -> tuple[Case, Ruling, HingeReport]:
    case = load_case(path)
    base = rule(case)
    return case, base, hinges(case, base)


def by_field(report: HingeReport, field: str) -> list:
    return [h for h in report.hinges if h.field == field]


@clause("70C2")
def test_a_70c_claim_hinges_on_whether_the_claimer_knew_the_trump_was_out() -> None:
    _, base, report = ruled(EX / "4h-forgotten-trump-high-trump-held.yaml")
    (h,) = by_field(report, "findings.aware_of_trumps")
    assert h.ask == "South" and "did you know the ♥5 was still out?" in h.question and not h.given
    rulings = {a.answer: (a.outcome, a.tricks["NS"]) for a in h.answers}
    assert rulings == {"he knew": ("claim_allowed", 10), "he did not know, or you doubt it": ("claim_adjusted", 9)}
    # 70A/70C2: without a finding the doubt goes against the claimer, which is the ruling as given
    assert h.without_finding.startswith("he did not know") and "70A" in h.without_finding
    assert (base.outcome, base.tricks["NS"]) == ("claim_adjusted", 9)
    assert h.text().startswith("Ask South: when you claimed, did you know the ♥5 was still out? He knew: 10 tricks, "
                               "claim allowed")


@clause("69B2")
def test_a_69b_agreement_withdrawn_within_the_period_hinges_on_how_long_the_correction_period_is() -> None:
    _, base, report = ruled(EX / "7nt-agreed-claim-withdrawn-within-correction-period.yaml")
    (h,) = by_field(report, "timing.correction_period_minutes")
    assert h.ask == "the tournament organiser" and "10 minutes after the scores were posted" in h.question
    outcomes = {a.outcome: a.tricks["EW"] for a in h.answers}
    assert outcomes == {"agreement_withdrawn": 12, "agreed": 13}
    assert h.without_finding.startswith("10 minutes or longer") and base.outcome == "agreement_withdrawn"


@clause("69B")
def test_an_agreement_raised_after_the_period_hinges_the_other_way_on_the_period() -> None:
    _, base, report = ruled(EX / "7nt-agreed-claim-withdrawn-after-correction-period.yaml")
    (h,) = by_field(report, "timing.correction_period_minutes")
    assert base.outcome == "agreed" and h.without_finding.startswith("shorter than 45 minutes")


@clause("68B2")
def test_a_defenders_concession_hinges_on_whether_his_partner_objected_at_once() -> None:
    _, _, report = ruled(EX / "defender-concession-partner-objects.yaml")
    (h,) = by_field(report, "responses.partner_objected_immediately")
    assert h.ask == "East" and h.given and h.current == "he objected at once"
    assert {a.outcome for a in h.answers} == {"no_concession", "director_rules"}
    assert "(The case records: he objected at once.)" in h.text()


@clause("70.footnote")
def test_a_forgotten_card_the_case_records_is_listed_as_a_finding_the_ruling_rests_on() -> None:
    _, _, report = ruled(EX / "3nt-754-opposite-void-six-forgotten.yaml")
    (h,) = by_field(report, "findings.unaware_of")
    assert h.given and "did you know the ♠6 was still out?" in h.question
    assert {a.answer: a.tricks["NS"] for a in h.answers} == {"he knew": 10, "he had forgotten it": 9}


@clause("79C")
def test_an_agreement_hinges_on_when_the_objection_came() -> None:
    _, _, report = ruled(EX / "7nt-agreed-claim-withdrawn-within-correction-period.yaml")
    (h,) = by_field(report, "timing.objection")
    assert h.ask == "North" and h.question.startswith("when did you object: at once, ")
    assert h.question.endswith(", or after the round ended?")
    assert h.text().startswith("Ask North: when did you object: at once, before your side's next call on a later board")
    assert [a.answer for a in h.answers] == ["at once, or before his side's next call on a later board",
                                             "after that call, before the round ended, or after the round ended"]
    assert "(The case records: he objected after the round ended.)" in h.text()


@clause("70C")
def test_a_ruling_no_finding_would_change_has_no_hinges() -> None:
    # East's ♥5 beats both of South's trumps: it takes a trick whether South knew of it or not
    case, _, report = ruled(EX / "4h-forgotten-trump-east.yaml")
    assert report.hinges == [] and report.unchecked == []
    assert "findings.aware_of_trumps" in {c.field for c in candidates(case, ruled(EX / "4h-forgotten-trump-east.yaml")
                                                                       [1])}


def test_open_questions_come_before_recorded_findings_and_the_most_tricks_at_stake_first() -> None:
    _, _, report = ruled(EX / "4c-claim-first-chance-to-draw-trumps.yaml")
    fields = [h.field for h in report.hinges]
    assert fields[0] == "findings.aware_of_trumps"  # 2 tricks at stake, before a forgotten ♥9's one
    assert fields[-1] == "findings.demonstrably_not_claim"
    spreads = [h.spread for h in report.hinges if h.field != "findings.demonstrably_not_claim"]
    assert spreads == sorted(spreads, reverse=True)


def test_a_time_limit_leaves_the_candidates_it_did_not_try_listed_as_unchecked() -> None:
    case, base, _ = ruled(EX / "4c-claim-first-chance-to-draw-trumps.yaml")
    report = hinges(case, base, seconds=0.0)
    assert len(report.hinges) <= 1 and report.unchecked
    assert len(report.hinges) + len(report.unchecked) >= 2


def _key(r: Ruling) -> tuple[str, tuple]:
    return r.outcome, tuple(sorted((r.tricks or {}).items()))


def _variant_rulings(case: Case, base: Ruling, patch: dict) -> tuple[str, tuple]:
    data = case.model_dump(mode="json", exclude_unset=True)
    data.pop("expect", None)
    for dotted, value in patch.items():
        cur = data
        *path, last = dotted.split(".")
        for p in path:
            cur = cur.setdefault(p, {})
        if value is None:
            cur.pop(last, None)
        else:
            cur[last] = value
    return _key(rule(case_from_dict(data), edition=base.edition, packs=list(base.packs)))


def _check_exactly_the_hinges(path: Path, sample: int) -> None:
    """Each listed hinge's answers give two rulings or more, ruled afresh; a sample of the candidates not listed
    give one ruling under every answer."""
    case, base, report = ruled(path)
    assert not report.unchecked, path.name
    listed = {(h.field, h.question) for h in report.hinges}
    for h in report.hinges:
        seen = {_variant_rulings(case, base, a.finding) for a in h.answers}
        assert len(seen) >= 2, f"{path.name}: {h.field} listed but its answers rule alike"
    unlisted = [c for c in candidates(case, base) if (c.field, c.question) not in listed
                and f"{c.field} ({c.question})" not in report.unsettled]
    for c in random.Random(path.name).sample(unlisted, min(sample, len(unlisted))):
        seen = {_variant_rulings(case, base, o.patch) for o in c.options}
        assert len(seen) == 1, f"{path.name}: {c.field} changes the ruling but is not listed"


# examples whose hinges take about a second each (2026-11-28, a loaded 2-core machine): checked in every run
QUICK = ["1nt-concession-of-a-trick-that-could-not-be-lost", "3nt-754-opposite-void-six-forgotten",
         "3nt-stated-line-needs-a-revoke", "4c-claim-first-chance-to-draw-trumps", "4c-claim-trumps-could-hurt",
         "4h-forgotten-trump-east", "4h-forgotten-trump-high-trump-held",
         "7nt-agreed-claim-withdrawn-within-correction-period", "defender-concession-partner-objects"]


@pytest.mark.parametrize("name", QUICK)
def test_on_the_quick_examples_the_hinges_listed_are_exactly_those_that_change_the_ruling(name: str) -> None:
    t0 = time.perf_counter()
    _check_exactly_the_hinges(EX / f"{name}.yaml", sample=2)
    assert time.perf_counter() - t0 < 120, f"{name}: hinge check took too long"


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CLAIMLAW_SLOW"), reason="slow: set CLAIMLAW_SLOW=1 to run")
@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_on_every_example_and_published_case_the_hinges_listed_are_exactly_those_that_change_the_ruling(
        path: Path) -> None:
    _check_exactly_the_hinges(path, sample=1 if path.name in SLOW else 2)


def test_claimlaw_rule_prints_the_directors_questions_after_the_law_chain_and_json_carries_them() -> None:
    path = str(EX / "4h-forgotten-trump-high-trump-held.yaml")
    res = CliRunner().invoke(app, ["rule", path])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert text.index("Law chain") < text.index("Hinges") < text.index("Ask South: when you claimed")
    res = CliRunner().invoke(app, ["rule", path, "--json"])
    data = json.loads(res.output)
    assert [h["field"] for h in data["hinges"]["hinges"]] == ["findings.aware_of_trumps"]
    assert "hinges" not in data["trace"][0] and "hinges" not in Ruling.model_fields
    res = CliRunner().invoke(app, ["rule", path, "--json", "--no-hinges"])
    assert "hinges" not in json.loads(res.output)


def test_the_audit_with_hinges_ends_each_at_risk_claims_line_with_the_finding_that_would_make_it_sound() -> None:
    from claimlaw.engine.audit import audit

    rec = ROOT / "tests" / "records" / "fixtures" / "reisinger-42365.lin"
    rows = audit([rec], workers=0, progress=False, hinges=True).rows
    risky = [r for r in rows if r.verdict == "at_risk"]
    assert risky and all(("; sound if " in r.line) != r.line.endswith("; no finding the rules read would make it "
                                                                      "sound") for r in risky)
    assert all("sound if" not in r.line for r in rows if r.verdict != "at_risk")
