"""Audit the bundled vugraph records three times in one run: double-dummy only, the full audit, and the
full audit again on a Dask LocalCluster of as many single-threaded worker processes.

    python benchmarks/audit_vugraph.py [PATH] [--limit N] [--workers N] [--batch N] [--no-dask]

Prints the times, the ratio full / double-dummy (goal: full audit within 10x the double-dummy pass),
the class counts, the per-claim cost (worker seconds per claim, what a cluster estimate rests on),
the slowest claims and every error row. The Dask pass needs the cluster extra
(pip install '.[cluster]').
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from claimlaw.engine.faces.audit.claims import AuditReport
from claimlaw.engine.faces.audit.run import audit

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "bbo-vugraph"


def per_claim(report: AuditReport) -> float:
    return sum(r.seconds for r in report.rows) / max(len(report.rows), 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--batch", type=int, default=1, help="claims per Dask task")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster pass")
    a = ap.parse_args(argv)
    dd = audit([a.path], mode="dd", workers=a.workers, limit=a.limit, progress=False)
    full = audit([a.path], mode="full", workers=a.workers, limit=a.limit, progress=False)
    print(f"claims: {len(full.rows)}  unreadable: {len(full.problems)}  workers: {a.workers}")
    print(f"double-dummy pass: {dd.seconds:8.1f} s   {dict(dd.counts())}")
    print(f"full audit:        {full.seconds:8.1f} s   {dict(full.counts())}")
    print(f"ratio full / DD:   {full.seconds / max(dd.seconds, 1e-9):8.2f}  (goal <= 10)")
    print(f"per claim (worker seconds): DD {per_claim(dd) * 1000:.1f} ms, full {per_claim(full) * 1000:.1f} ms")
    print(f"summary: {full.summary()}")
    if not a.no_dask:
        try:
            from distributed import LocalCluster
        except ImportError:
            print("dask: not installed (pip install '.[cluster]')")
        else:
            t0 = time.perf_counter()
            with LocalCluster(n_workers=a.workers, processes=True, threads_per_worker=1,
                              dashboard_address=":0") as cluster:
                up = time.perf_counter() - t0
                dask = audit([a.path], mode="full", limit=a.limit, progress=False,
                             scheduler=cluster.scheduler_address, batch=a.batch)
            same = [(r.key, r.verdict, r.proven) for r in dask.rows] == [(r.key, r.verdict, r.proven)
                                                                           for r in full.rows]
            print(f"dask LocalCluster: {dask.seconds:8.1f} s   ({a.workers} single-threaded worker processes, "
                  f"{a.batch} claim(s) a task, "
                  f"{up:.1f} s to start them; verdicts {'the same as' if same else 'DIFFERENT from'} the local run)")
    for r in sorted(full.rows, key=lambda r: -r.seconds)[:5]:
        print(f"  slowest: {Path(r.source).name} {r.board} {r.room} {r.contract} left {r.remaining}: {r.seconds:.2f} s")
    for r in full.errors:
        print(f"  error: {Path(r.source).name} board {r.board} {r.room} claim {r.claim_index}: {r.message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
