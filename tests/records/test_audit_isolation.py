"""The audit survives a claim that raises, a claim that takes too long and a worker that dies."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import claimlaw.engine.faces.audit.claims as audit_mod
import claimlaw.engine.faces.audit.run as run_mod
from claimlaw.engine.faces.audit.claims import AUDIT_BUDGET, AuditReport, read_tasks
from claimlaw.engine.faces.audit.run import Sandbox, audit, run_local
from claimlaw.engine.faces.cli import app

FIX = Path(__file__).parent / "fixtures"
REISINGER = FIX / "reisinger-42365.lin"
THREE = FIX / "three-hands-42519.lin"


def tasks_of(path: Path) -> list[dict[str, Any]]:
    return read_tasks([path], AuditReport())


def broken(task: dict[str, Any]) -> dict[str, Any]:
    """The same claim with a contract no reader would produce: its analysis raises."""
    case = json.loads(json.dumps(task["case"]))
    case["board"]["contract"] = "9Z"
    return dict(task, case=case)


def test_a_claim_whose_analysis_raises_is_an_error_row_with_a_one_line_message_and_the_run_goes_on() -> None:
    tasks = tasks_of(REISINGER)
    tasks[2] = broken(tasks[2])
    rows = list(run_local(tasks, "full", AUDIT_BUDGET, 2, None))
    assert len(rows) == 6
    errors = [r for r in rows if r["verdict"] == "error"]
    assert len(errors) == 1 and errors[0]["board"] == tasks[2]["board"] and errors[0]["room"] == tasks[2]["room"]
    assert "contract" in errors[0]["message"] and "\n" not in errors[0]["message"]
    assert all(r["verdict"] in audit_mod.CLASSES for r in rows if r is not errors[0])


def test_an_error_row_names_the_file_board_room_and_position_of_the_claim() -> None:
    task = tasks_of(THREE)[0]
    row = audit_mod.failure_row(task, "error", "RuntimeError: something\nwith a second line")
    assert row.source == str(THREE) and row.board == task["board"] and row.room == task["room"]
    assert row.position.startswith("N:") and row.leader in "NESW" and row.remaining
    assert row.message == "RuntimeError: something with a second line"


def test_a_claim_over_the_time_limit_is_a_timeout_row_and_its_worker_is_replaced() -> None:
    # the 7NT spade guess (13 cards, a few seconds) against a limit of 1.5 s; boards 13 and 14 of the file take a few
    # hundredths of a second once the worker is up, so a loaded machine does not push them over it
    import yaml

    data = yaml.safe_load((Path(__file__).resolve().parents[2] / "examples" / "7nt-spade-guess.yaml")
                          .read_text(encoding="utf-8"))
    data.pop("expect", None)
    slow = {"case": data, "source": "7nt-spade-guess.yaml", "board": "99", "room": "", "claimed_total": 13,
            "result_total": None, "disagrees": False, "claimer_known": False, "file_hash": "", "claim_index": 0}
    fast = [t for t in tasks_of(THREE) if t["board"] in ("13", "14")]
    rows = list(run_local([slow, *fast], "full", AUDIT_BUDGET, 1, 1.5))
    by_board = {r["board"]: r for r in rows}
    assert by_board["99"]["verdict"] == "timeout" and "1.5 s" in by_board["99"]["message"]
    assert len(fast) == 2 and all(by_board[t["board"]]["verdict"] in audit_mod.CLASSES for t in fast)


def test_a_worker_that_dies_mid_claim_gives_an_error_row_saying_how_it_died() -> None:
    slow = next(t for t in tasks_of(THREE) if t["board"] == "15")
    box = Sandbox("full", AUDIT_BUDGET)

    def kill_when_busy() -> None:
        while box.task is None:
            time.sleep(0.01)
        time.sleep(0.05)
        assert box.proc is not None
        os.kill(box.proc.pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    try:
        row = box.run(slow, None)
    finally:
        killer.join()
        box.close()
    assert row["verdict"] == "error" and "SIGKILL" in row["message"] and row["board"] == "15"


def test_the_audit_command_writes_everything_then_exits_1_when_a_row_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = audit_mod.iter_tasks

    def one_broken(*args: Any, **kw: Any) -> Iterator[dict[str, Any]]:
        for i, task in enumerate(real(*args, **kw)):
            yield broken(task) if i == 0 else task

    monkeypatch.setattr(run_mod, "iter_tasks", one_broken)  # the driver, audit_run.audit, reads the tasks
    res = CliRunner().invoke(app, ["audit", str(REISINGER), "--workers", "1", "--json", str(tmp_path / "a.json"),
                                   "--out", str(tmp_path / "a.db")])
    assert res.exit_code == 1, res.output
    assert "error: 1" in res.output and "claim 0" in res.output
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert len(data["rows"]) == 6 and data["summary"]["error"] == 1


def test_a_report_counts_timeouts_errors_and_unproven_verdicts_apart() -> None:
    report = audit([REISINGER], workers=0, progress=False)
    row = report.rows[0]
    report.rows[1:3] = [audit_mod.failure_row(tasks_of(REISINGER)[0], "timeout", "slow"),
                        audit_mod.AuditRow(**{**row.__dict__, "proven": False})]
    text = report.summary()
    assert "timeout: 1" in text and "error: 0" in text and "(1 not proven within the search budget)" in text


def test_a_worker_running_other_claimlaw_code_is_refused_before_it_audits_anything() -> None:
    from claimlaw.engine.faces.audit.claims import settings_record
    from claimlaw.engine.faces.audit.run import WorkerStartError

    other = dict(settings_record("full", AUDIT_BUDGET), code="000000000000")
    with pytest.raises(WorkerStartError, match="install the same claimlaw everywhere"):
        list(run_local(tasks_of(REISINGER), "full", AUDIT_BUDGET, 1, None, other))
