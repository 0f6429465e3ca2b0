"""The whole BBO vugraph set (../shared/data/bbo-vugraph) reads to the end: a slow check.

Run with ``CLAIMLAW_SLOW=1 pytest -m slow tests/records`` (``.ci/run`` does, beside the suite and the
full audit of the same data); or print the report with ``python -m claimlaw.engine.readers.records
../shared/data/bbo-vugraph``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from claimlaw.engine.readers.records import ClaimRecord, ReadReport, read_records

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "bbo-vugraph"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("CLAIMLAW_SLOW"), reason="slow: set CLAIMLAW_SLOW=1 to run"),
    pytest.mark.skipif(not DATA.is_dir(), reason=f"{DATA} not present"),
]


def test_every_vugraph_file_reads_to_the_end_with_a_reason_for_each_unread_claim() -> None:
    report = ReadReport()
    start = time.perf_counter()
    items = list(read_records([DATA], report=report))
    seconds = time.perf_counter() - start
    print(report.summary(), f"\ntime {seconds:.1f} s")
    assert report.files == len(list(DATA.glob("*.lin")))
    assert report.claims + len(report.problems) == len(items)
    assert report.claims > 8000
    assert all(p.reason and p.kind for p in report.problems)
    assert 0.01 < report.disagreeing / report.claims < 0.025  # "about 1.6 %"
    assert all(r.case.claim.tricks == r.claimed_remaining for r in items if isinstance(r, ClaimRecord))
