"""Read hand records and print what was read: ``python -m engine.readers.records FILES_OR_DIRS...``."""

from __future__ import annotations

import sys
import time
from collections import Counter

from claimlaw.engine.readers.records import ReadReport, read_records


def main(argv: list[str] | None = None) -> int:
    """Print the read report (files, boards, claims, problems by kind, disagreements, time)."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m engine.readers.records FILES_OR_DIRS...", file=sys.stderr)
        return 2
    report = ReadReport()
    start = time.perf_counter()
    for _ in read_records(args, report=report):
        pass
    seconds = time.perf_counter() - start
    print(report.summary())
    print(f"time: {seconds:.2f} s")
    if report.problems:
        print("problems by file:")
        for (source, kind), n in Counter((p.source, p.kind) for p in report.problems).most_common():
            print(f"  {source}: {kind} x{n}")
        print("first problems:")
        for p in report.problems[:10]:
            print(f"  {p}")
    if report.disagreements:
        print("disagreements (first 10):")
        for d in report.disagreements[:10]:
            print(f"  {d.label}: {d.disagreement}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
