"""Audit the bundled vugraph records twice in one run: double-dummy only, then the full audit.

    python benchmarks/audit_vugraph.py [PATH] [--limit N] [--workers N]

Prints both times, their ratio (goal: full audit within 10x the double-dummy pass) and the class
counts of the full audit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.audit import audit

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "bbo-vugraph"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--workers", type=int, default=None)
    a = ap.parse_args(argv)
    dd = audit([a.path], mode="dd", workers=a.workers, limit=a.limit, progress=False)
    full = audit([a.path], mode="full", workers=a.workers, limit=a.limit, progress=False)
    print(f"claims: {len(full.rows)}  unreadable: {len(full.problems)}")
    print(f"double-dummy pass: {dd.seconds:8.1f} s   {dict(dd.counts())}")
    print(f"full audit:        {full.seconds:8.1f} s   {dict(full.counts())}")
    print(f"ratio full / DD:   {full.seconds / max(dd.seconds, 1e-9):8.2f}  (goal <= 10)")
    print(f"summary: {full.summary()}")
    slow = sorted(full.rows, key=lambda r: -r.seconds)[:5]
    for r in slow:
        print(f"  slowest: {Path(r.source).name} {r.board} {r.room} {r.contract} left {r.remaining}: {r.seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
