"""The audit's results store: rows stream in, a killed run resumes, a store is reported again, never mixed."""

from __future__ import annotations

import csv
import io
import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from claimlaw.engine.faces.audit.run import audit
from claimlaw.engine.faces.audit.store import Store
from claimlaw.engine.faces.cli import app

FIX = Path(__file__).parent / "fixtures"
REISINGER = FIX / "reisinger-42365.lin"
ROOT = Path(__file__).resolve().parents[2]
COPIES = 40  # 240 claims


def rows_in(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT count(*) FROM rows").fetchone()[0])
    except sqlite3.OperationalError:
        return 0  # not created yet


def stopped_after_five(data: Path, db: Path, signal_name: str) -> list[str]:
    """A command auditing ``data`` into ``db`` that sends itself ``signal_name`` once its fifth row is committed."""
    script = (
        "import os, signal, sys\n"
        "from claimlaw.engine.faces.audit import store as audit_store\n"
        "add = audit_store.Store.add\n"
        "seen = []\n"
        "def add_then_signal(self, row, run_id):\n"
        "    add(self, row, run_id)\n"
        "    seen.append(row)\n"
        "    if len(seen) == 5:\n"
        "        self.commit()\n"
        f"        os.kill(os.getpid(), signal.{signal_name})\n"
        "audit_store.Store.add = add_then_signal\n"
        "from claimlaw.engine.faces.cli import app\n"
        "sys.argv = ['claimlaw', 'audit', sys.argv[1], '--out', sys.argv[2], '--workers', '1']\n"
        "app()\n")
    return [sys.executable, "-c", script, str(data), str(db)]


def summary_counts(output: str) -> str:
    """The summary line without its time."""
    line = next(x for x in output.splitlines() if x.startswith("Summary:"))
    return line.rsplit(";", 1)[0]


def test_a_run_killed_halfway_is_finished_by_a_rerun_without_redoing_finished_claims(tmp_path: Path) -> None:
    data = tmp_path / "records"
    data.mkdir()
    for i in range(COPIES):  # different files (one byte more each) of the same six claims
        (data / f"copy{i}.lin").write_bytes(REISINGER.read_bytes() + b"\n" * (i + 1))
    db = tmp_path / "a.db"
    # the audit process is killed (SIGKILL, no clean-up) right after its fifth row reached the store: a crash at a
    # known point, whatever the machine's speed
    run = subprocess.run(stopped_after_five(data, db, "SIGKILL"), cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, timeout=300)
    assert run.returncode == -signal.SIGKILL
    store = Store(db)
    first = store.run_ids()
    store.close()
    assert 3 <= len(first) < 6 * COPIES
    res = CliRunner().invoke(app, ["audit", str(data), "--out", str(db), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert f"{6 * COPIES} claims audited ({len(first)} of them from the store, not redone)" in res.output
    store = Store(db)
    after, runs = store.run_ids(), store.runs()
    store.close()
    assert len(after) == 6 * COPIES and len(runs) == 2
    assert all(after[k] == runs[0]["id"] for k in first)
    assert sum(1 for v in after.values() if v == runs[1]["id"]) == 6 * COPIES - len(first) == runs[1]["new_rows"]


def test_a_second_run_on_a_complete_store_audits_nothing_again(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    first = audit([REISINGER], workers=0, progress=False, out=db)
    again = audit([REISINGER], workers=0, progress=False, out=db)
    assert again.earlier == len(again.rows) == len(first.rows) == 6
    assert [r.verdict for r in again.rows] == [r.verdict for r in first.rows]


def test_audit_report_prints_the_summary_again_and_exports_csv_and_json(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    run = CliRunner().invoke(app, ["audit", str(REISINGER), "--out", str(db), "--workers", "1",
                                   "--csv", str(tmp_path / "run.csv")])
    assert run.exit_code == 0, run.output
    rep = CliRunner().invoke(app, ["audit", "report", str(db), "--csv", str(tmp_path / "rep.csv"),
                                   "--json", str(tmp_path / "rep.json")])
    assert rep.exit_code == 0, rep.output
    assert summary_counts(rep.output) == summary_counts(run.output)
    assert "mode full, budget 40000" in rep.output and "1 run(s)" in rep.output
    ran = list(csv.DictReader(io.StringIO((tmp_path / "run.csv").read_text(encoding="utf-8"))))
    reported = list(csv.DictReader(io.StringIO((tmp_path / "rep.csv").read_text(encoding="utf-8"))))
    drop = ("seconds",)
    assert [{k: v for k, v in r.items() if k not in drop} for r in reported] == \
        [{k: v for k, v in r.items() if k not in drop} for r in ran]
    data = json.loads((tmp_path / "rep.json").read_text(encoding="utf-8"))
    assert len(data["rows"]) == 6 and data["settings"]["budget"] == 40000 and data["settings"]["code"]


def test_a_store_of_other_settings_is_refused_with_one_line_naming_the_option(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    audit([REISINGER], workers=0, progress=False, out=db, limit=2)
    res = CliRunner().invoke(app, ["audit", str(REISINGER), "--out", str(db), "--budget", "1000"])
    assert res.exit_code == 2
    assert res.output.startswith("error: --out:") and "never mixed" in res.output and "budget 1000" in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert rows_in(db) == 2


def test_audit_report_on_a_missing_or_foreign_file_is_a_one_line_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["audit", "report", str(tmp_path / "none.db")])
    assert res.exit_code == 2 and "no such results store" in res.output
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all, but long enough to have a header" * 20, encoding="utf-8")
    res = CliRunner().invoke(app, ["audit", "report", str(junk)])
    assert res.exit_code == 2 and "not a claimlaw results store" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_ctrl_c_stops_the_run_with_every_finished_claim_committed_and_says_how_to_finish(tmp_path: Path) -> None:
    data = tmp_path / "records"
    data.mkdir()
    for i in range(COPIES):
        (data / f"copy{i}.lin").write_bytes(REISINGER.read_bytes() + b"\n" * (i + 1))
    db = tmp_path / "a.db"
    # Ctrl-C (SIGINT) arrives once the fifth row is committed, whatever the machine's speed
    run = subprocess.Popen(stopped_after_five(data, db, "SIGINT"), cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    output, _ = run.communicate(timeout=300)
    assert run.returncode == 130, output
    assert f"interrupted; every finished claim is in {db}: run again to finish" in output
    store = Store(db)
    done, runs = store.run_ids(), store.runs()
    store.close()
    assert 1 <= len(done) < 6 * COPIES and runs[0]["finished"] is None
