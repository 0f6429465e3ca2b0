"""``claimlaw audit``: real claims classified through the double-dummy and worst-normal-line checks."""

from __future__ import annotations

import csv
import functools
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from claimlaw.engine.faces.audit.claims import CLASSES, AuditReport
from claimlaw.engine.faces.audit.run import audit
from claimlaw.engine.faces.cli import app
from tests.lawmarks import clause

FIX = Path(__file__).parent / "fixtures"
REISINGER = FIX / "reisinger-42365.lin"


@functools.cache
def reisinger() -> AuditReport:
    return audit([REISINGER], workers=0, progress=False)  # in this process: the classes, not the isolation


def rows_by_key() -> dict[tuple[str, str], object]:
    return {(r.board, r.room): r for r in reisinger().rows}


def test_every_claim_of_a_vugraph_file_gets_one_of_the_four_verdicts() -> None:
    report = reisinger()
    assert len(report.rows) == 6 and not report.problems
    assert {r.verdict for r in report.rows} <= set(CLASSES)
    assert all(r.proven for r in report.rows)
    assert "6 claims audited" in report.summary()


@clause("70.footnote")
def test_the_audits_summary_says_it_ruled_the_vugraph_players_as_world_class() -> None:
    assert "ruled for world class players" in reisinger().summary()
    assert reisinger().settings["class_of_player"] == "world_class"


@clause("69B")
def test_a_claim_credited_more_than_best_play_gives_is_a_law_69b_candidate() -> None:
    r = rows_by_key()[("24", "open")]
    assert r.verdict == "impossible" and "69B2" in r.law.split()  # type: ignore[attr-defined]
    assert r.claimed_for_declarer > r.dd_for_declarer  # type: ignore[attr-defined]


@clause("70E1")
def test_a_claim_its_sure_tricks_make_is_not_put_at_risk_by_a_finesse_and_70e1_stays_out_of_its_chain() -> None:
    """West's ♥KJ draw the last trump without losing a round, and ♣KQJ and the ♠K make the rest: no guess is at
    stake (issue 42 item 2). The claim is still at risk on another normal line (the clubs in any order)."""
    r = rows_by_key()[("23", "open")]
    assert r.verdict == "at_risk" and "70A" in r.law.split()  # type: ignore[attr-defined]
    assert "losing option" not in r.line and "70E1" not in r.law.split()  # type: ignore[attr-defined]
    assert r.worst_normal_for_declarer < r.claimed_for_declarer  # type: ignore[attr-defined]


def test_a_claim_that_holds_on_every_normal_line_of_both_sides_is_sound() -> None:
    r = rows_by_key()[("22", "open")]
    assert r.verdict == "sound" and r.line == ""  # type: ignore[attr-defined]


def test_the_audit_command_prints_a_summary_and_writes_the_same_rows_as_csv_and_json(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["audit", str(REISINGER), "--workers", "1", "--csv", str(tmp_path / "a.csv"),
                                   "--json", str(tmp_path / "a.json")])
    assert res.exit_code == 0, res.output
    assert "Summary:" in res.output and "claimer is not recorded" in res.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "a.csv").read_text(encoding="utf-8"))))
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert len(rows) == len(data["rows"]) == 6
    assert [r["verdict"] for r in rows] == [r["verdict"] for r in data["rows"]]
    assert sum(data["summary"].values()) == 6


def test_an_unreadable_record_is_reported_with_its_reason_and_the_run_goes_on() -> None:
    report = audit([FIX / "bad-play-45577.lin", REISINGER], workers=0, progress=False)
    assert report.problems and all(p.reason for p in report.problems)
    assert len(report.rows) >= 6


def test_bad_audit_options_get_one_line_errors_naming_the_option() -> None:
    for args, name in ((["--workers", "0"], "--workers"), (["--timeout", "-1"], "--timeout"),
                       (["--budget", "0"], "--budget"), (["--batch", "0"], "--batch")):
        res = CliRunner().invoke(app, ["audit", str(REISINGER), *args])
        assert res.exit_code == 2 and res.output.startswith(f"error: {name}:"), res.output
        assert len(res.output.strip().splitlines()) == 1


@clause("70E1")
def test_the_audit_rules_each_claim_through_the_rules_so_a_pack_that_withdraws_a_rule_changes_its_row(
        tmp_path: Path) -> None:
    pack = tmp_path / "notrump.yaml"
    pack.write_text("name: notrump\nwithdraw: [{rule: 70C.outstanding_trump, cite: Trump regulation 1}]\n",
                    encoding="utf-8")
    plain = rows_by_key()[("23", "open")]
    withdrawn = {(r.board, r.room): r for r in audit([REISINGER], workers=0, progress=False,
                                                       packs=[str(pack)]).rows}[("23", "open")]
    assert plain.verdict == "at_risk" and "70C" in plain.law.split()  # type: ignore[attr-defined]
    assert (withdrawn.verdict, withdrawn.law) != (plain.verdict, plain.law)  # type: ignore[attr-defined]
    assert "70C" not in withdrawn.law.split()


def test_the_audit_command_takes_an_edition_and_a_pack_and_says_what_it_ruled_under() -> None:
    res = CliRunner().invoke(app, ["audit", str(REISINGER), "--workers", "1", "--edition", "2007", "--pack", "ebu",
                                   "--rows", "0"])
    assert res.exit_code == 0, res.output
    assert "Ruled under the 2007 Laws with ebu" in " ".join(res.output.split())
    assert "players taken to be world class" in " ".join(res.output.split())
    for args, name in ((["--edition", "2003"], "--edition"), (["--pack", "nosuchpack"], "--pack"),
                       (["--class", "grandmaster"], "--class")):
        res = CliRunner().invoke(app, ["audit", str(REISINGER), *args])
        assert res.exit_code == 2 and res.output.startswith(f"error: {name}:"), res.output
