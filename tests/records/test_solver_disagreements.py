"""Real vugraph claims whose audit failed because our C solver's line and the Python normal-play model disagree.

Collected from the full audit of ../shared/data/bbo-vugraph (2026-11-26: 8,463 claims, these 2 error rows).
Each runs in a fresh worker process, as in an audit, so what an earlier claim left in the solver's tables
plays no part (alone, both fail with ``KeyError: 0``: a card code 0 in the C line; after other claims, with
"our solver's line plays ... not a normal card here"). The play core now answers such a question with the Python
search alone (the reference) and keeps a note of the disagreement; bringing our solver into lockstep is issue 26.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claimlaw.engine.faces.audit.claims import AUDIT_BUDGET, CLASSES, AuditReport, read_tasks
from claimlaw.engine.faces.audit.run import Sandbox

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "bbo-vugraph"
CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "fixtures" / "solver-disagreements.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["record"].split(" (")[0] for c in CASES])
def test_a_real_claim_where_the_solver_and_the_model_disagreed_gets_a_verdict(case: dict[str, Any]) -> None:
    box = Sandbox("full", AUDIT_BUDGET)
    try:
        row = box.run(case["task"], 120.0)
    finally:
        box.close()
    assert row["message"] == "" and row["verdict"] in CLASSES, row["message"]


@pytest.mark.skipif(not DATA.is_dir(), reason=f"{DATA} not present")
def test_each_disagreeing_claim_is_read_from_the_bundled_records_as_stored_here() -> None:
    for c in CASES:
        stored = c["task"]
        read = read_tasks([DATA / stored["source"]], AuditReport())
        task = next(t for t in read if t["claim_index"] == stored["claim_index"])
        for k in ("board", "room", "file_hash"):
            assert task[k] == stored[k]
        assert task["case"]["board"] == stored["case"]["board"] and task["case"]["claim"] == stored["case"]["claim"]
