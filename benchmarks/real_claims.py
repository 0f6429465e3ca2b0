"""The slowest real claims, ruled one by one as ``claimlaw rule`` rules a case (searched until proven).

    python benchmarks/real_claims.py STORE_OR_CSV [--top 50] [--records PATH]

STORE_OR_CSV is a full audit of the bundled records (``claimlaw audit ../shared/data/bbo-vugraph --out a.db`` or
``--csv a.csv``): its per-claim seconds pick the ``--top`` slowest claims. Each is then put to the rules as the
audit's first question puts it (a silent claim by declarer, disputed at once: Law 70) with no search budget and a
fresh play core, and timed, next to the double-dummy time of the same position on another fresh core. Prints each
claim's times and the median, 99th percentile and maximum (issue 35: maximum under 5 s, median under 1 s).
"""

from __future__ import annotations

import argparse
import csv
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from claimlaw.engine.api import rule
from claimlaw.engine.audit import AuditReport, contested, iter_tasks
from claimlaw.engine.play import PlayCore
from claimlaw.facts import case_from_dict

DEFAULT_RECORDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "bbo-vugraph"


def slowest(path: Path, top: int) -> list[dict[str, Any]]:
    """The ``top`` slowest rows of an audit store or CSV (error and timeout rows included: they are the slowest)."""
    if path.suffix == ".csv":
        with path.open(encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    else:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
        rows = [dict(r) for r in con.execute("SELECT * FROM rows")]
        con.close()
    rows = [r for r in rows if r.get("verdict") not in ("dd_ok", "dd_short", "dd_over")]
    rows.sort(key=lambda r: -float(r.get("seconds") or 0))
    return rows[:top]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("audit", type=Path, help="a full audit's store (.db) or CSV")
    ap.add_argument("--top", type=int, default=50)
    ap.add_argument("--records", type=Path, default=DEFAULT_RECORDS, help="where the audit's records are")
    a = ap.parse_args(argv)
    picked = slowest(a.audit, a.top)
    wanted = {(Path(r["source"]).name, str(r["board"]), r["room"], int(r["claim_index"])): r for r in picked}
    files = sorted({a.records / Path(r["source"]).name for r in picked})
    tasks = [t for t in iter_tasks(files, AuditReport())
             if (Path(t["source"]).name, str(t["board"]), t["room"], t["claim_index"]) in wanted]
    print(f"{len(tasks)} of the {len(picked)} slowest claims of {a.audit} found in {a.records}")
    rule_times: list[float] = []
    dd_times: list[float] = []
    print(f"{'claim':<34} {'tricks':>6} {'audit s':>8} {'rule s':>8} {'DD s':>7}  outcome")
    for t in tasks:
        case = case_from_dict(t["case"])
        pos = case.position()
        if pos is None or case.board is None or case.board.declarer is None:
            continue
        declarer = case.board.declarer
        claimed = t["claimed_total"] - pos.won[declarer.side]
        variant = contested(t["case"], declarer, claimed, "world_class")
        t0 = time.perf_counter()
        ruling = rule(variant, play=PlayCore(budget=None))
        took = time.perf_counter() - t0
        t0 = time.perf_counter()
        PlayCore(budget=None).double_dummy(pos, declarer.side)
        dd = time.perf_counter() - t0
        rule_times.append(took)
        dd_times.append(dd)
        row = wanted[(Path(t["source"]).name, str(t["board"]), t["room"], t["claim_index"])]
        name = f"{Path(t['source']).name} {t['board']} {t['room']}"
        print(f"{name:<34} {pos.tricks_left:>6} {float(row['seconds']):>8.2f} {took:>8.2f} {dd:>7.3f}  "
              f"{ruling.outcome}{'' if ruling.proven else ' (not proven)'}")
    if not rule_times:
        print("no claim to rule", file=sys.stderr)
        return 1
    print(f"rule:  median {statistics.median(rule_times):.2f} s, p99 {percentile(rule_times, 99):.2f} s, "
          f"max {max(rule_times):.2f} s  (goal: median < 1 s, max < 5 s)")
    print(f"DD:    median {statistics.median(dd_times):.3f} s, p99 {percentile(dd_times, 99):.3f} s, "
          f"max {max(dd_times):.3f} s")
    ratio = [r / max(d, 1e-6) for r, d in zip(rule_times, dd_times, strict=True)]
    print(f"ratio rule / DD: median {statistics.median(ratio):.1f}, max {max(ratio):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
