"""Every bundled example rules as its ``expect`` block says; the CLI's exit codes; the README example runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimlaw.engine.api import check_expect, rule
from claimlaw.engine.faces.cli import app
from claimlaw.engine.play import PlayCore
from claimlaw.facts import load_case

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
runner = CliRunner()


KNOWN = {  # examples the play core does not rule as expected yet, with the reason (strict: fix and remove)
}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN[p.stem]))
                                  if p.stem in KNOWN else p for p in EXAMPLES], ids=[p.stem for p in EXAMPLES])
def test_each_example_case_rules_as_its_expect_block_says(path: Path) -> None:
    case = load_case(path)
    assert case.expect is not None, f"{path.name} has no expect block"
    core = PlayCore(budget=None, check_coherence=True)
    ruling = rule(case, edition=case.expect.edition, play=core)
    assert check_expect(case, ruling) == []
    assert core.faults == [], "the witness line is not one a Director would accept (issue 26 item 8)"


def test_the_cli_prints_the_ruling_and_its_law_chain() -> None:
    res = runner.invoke(app, ["rule", str(ROOT / "examples" / "defender-concession-partner-objects.yaml")])
    assert res.exit_code == 0, res.output
    assert "68B2" in res.output and "neither a concession nor a claim" in res.output


def test_the_cli_json_carries_the_same_ruling() -> None:
    res = runner.invoke(app, ["rule", str(ROOT / "examples" / "play-on-all-concur.yaml"), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["outcome"] == "play_on_score_stands" and "68D2(b)" in data["laws"]
    assert data["trace"][0]["clause"] == "68A" and data["trace"][0]["edition"] == "2017"


def test_an_invalid_case_exits_2_with_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("claim: {by: Q}\n", encoding="utf-8")
    res = runner.invoke(app, ["rule", str(bad)])
    assert res.exit_code == 2
    lines = [x for x in res.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "claim.by" in lines[0]


def test_a_case_whose_expect_block_differs_exits_3_and_says_what_differs(tmp_path: Path) -> None:
    src = (ROOT / "examples" / "current-trick-only.yaml").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(src.replace("outcome: not_a_claim", "outcome: agreed"), encoding="utf-8")
    res = runner.invoke(app, ["rule", str(wrong)])
    assert res.exit_code == 3
    assert "outcome: expected agreed, ruled not_a_claim" in res.output


def test_claimlaw_law_shows_the_paraphrase_rules_editions_and_tests() -> None:
    res = runner.invoke(app, ["law", "68B2"])
    assert res.exit_code == 0, res.output
    assert "68B2.partner_objects" in res.output and "2017" in res.output
    assert "test_a_defenders_concession_that_partner_immediately_objects" in res.output


def test_claimlaw_law_marks_a_clause_whose_text_is_unverified() -> None:
    res = runner.invoke(app, ["law", "68D2(b)"])
    assert res.exit_code == 0 and "unverified" in res.output.lower()


def test_claimlaw_schema_prints_the_case_json_schema() -> None:
    res = runner.invoke(app, ["schema"])
    assert res.exit_code == 0
    schema = json.loads(res.output)
    assert "claim" in schema["properties"]


def test_the_readme_python_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})


def test_a_search_budget_that_is_not_positive_is_a_clear_error() -> None:
    res = runner.invoke(app, ["rule", str(ROOT / "examples" / "current-trick-only.yaml"), "--budget", "0"])
    assert res.exit_code == 2 and "--budget" in res.output


def test_the_search_budget_reaches_the_play_core() -> None:
    res = runner.invoke(app, ["rule", str(ROOT / "examples" / "7nt-spade-guess-ending-drop-only.yaml"),
                              "--budget", "5000", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["tricks"] == {"EW": 12, "NS": 1}
