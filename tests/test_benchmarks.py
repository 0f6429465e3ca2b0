"""benchmarks/real_claims.py (issue 35): its list of claims is read, each listed claim is ruled and timed next to
DDS, and a list it cannot read is a one-line error."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from claimlaw.engine.faces.audit.claims import AuditReport, iter_tasks
from claimlaw.facts import case_from_dict

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "records" / "fixtures"


def _real_claims():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("real_claims", ROOT / "benchmarks" / "real_claims.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["real_claims"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_real_claims_benchmark_rules_each_listed_claim_and_prints_its_times_beside_dds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = _real_claims()
    records = FIXTURES / "reisinger-42365.lin"
    tasks = [t for t in iter_tasks([records], AuditReport())
             if (pos := case_from_dict(t["case"]).position()) is not None and pos.tricks_left <= 5][:2]
    assert tasks, "the fixture holds a short claim"
    listed = tmp_path / "list.csv"
    rc.write_list(listed, [{"source": records.name, "board": t["board"], "room": t["room"],
                            "claim_index": t["claim_index"], "audit_seconds": "0.1"} for t in tasks], "test")
    assert rc.main(["--list", str(listed), "--records", str(FIXTURES)]) == 0
    out = capsys.readouterr().out
    assert f"{len(tasks)} of the {len(tasks)} claims of list.csv found" in out
    assert "rule CPU:" in out and "DD:" in out and "ratio rule / DD (CPU)" in out


def test_the_real_claims_benchmark_names_a_missing_list_in_one_line(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert _real_claims().main(["--list", str(tmp_path / "absent.csv")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --list:") and "\n" not in err
