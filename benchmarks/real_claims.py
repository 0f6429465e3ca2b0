"""The slowest real claims, ruled one by one as ``claimlaw rule`` rules a case (searched until proven).

    python benchmarks/real_claims.py [--list benchmarks/slow_claims.csv] [--limit N] [--max-cpu 60]
    python benchmarks/real_claims.py --find 400 [--top 50]      # time the audit's first 400 claims, rewrite the list
    python benchmarks/real_claims.py --from-audit STORE_OR_CSV  # pick them from a full audit's seconds instead

Which claims: the list in ``--list`` (file, board, room and claim index, with the audit's seconds for it), made by
``--find N`` (the bundled records' first N claims each audited as ``claimlaw audit`` does, full mode, and timed;
the ``--top`` slowest kept) or by ``--from-audit`` (a full audit's store or CSV; its per-claim seconds pick them).
Timing the whole bundled audit (about 8,500 claims) is a quarter of an hour on 2 cores, so the list is kept.

Each claim listed is then put to the rules as the audit's first question puts it (a silent claim by declarer,
disputed at once: Law 70) with no search budget and a fresh play core, and timed, next to DDS's double-dummy time
for the same position (through endplay, as benchmarks/play_core.py times it). Prints each claim's times and the
median, 99th percentile and maximum (issue 35: maximum under 5 s, median under 1 s), and the ratio to DDS. A ruling
still searching after ``--max-cpu`` CPU seconds is stopped as Ctrl-C stops ``claimlaw rule`` (its best line so far,
not proven) and counted as that long: the figures are then lower bounds, and the run says how many were stopped.
"""

from __future__ import annotations

import argparse
import csv
import signal
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from claimlaw.engine.api import rule
from claimlaw.engine.faces.audit.claims import AuditReport, audit_one, contested, iter_tasks
from claimlaw.engine.play import PlayCore, dds
from claimlaw.facts import case_from_dict

HERE = Path(__file__).resolve().parent
DEFAULT_RECORDS = HERE.parents[1] / "shared" / "data" / "bbo-vugraph"
DEFAULT_LIST = HERE / "slow_claims.csv"
FIELDS = ("source", "board", "room", "claim_index", "audit_seconds")
Key = tuple[str, str, str, int]


def key_of(source: str, board: Any, room: str, claim_index: Any) -> Key:
    return Path(source).name, str(board), room, int(claim_index)


def from_audit(path: Path, top: int) -> list[dict[str, Any]]:
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
    return [{"source": Path(r["source"]).name, "board": r["board"], "room": r["room"],
             "claim_index": r["claim_index"], "audit_seconds": r["seconds"]} for r in rows[:top]]


def find(records: Path, count: int, top: int) -> list[dict[str, Any]]:
    """The ``top`` slowest of the first ``count`` claims in ``records``, each audited (full mode) and timed."""
    timed = []
    for i, t in enumerate(iter_tasks([records], AuditReport(), limit=count)):
        t0 = time.perf_counter()
        try:
            audit_one(t)
        except Exception as e:  # noqa: BLE001 - a claim the audit cannot read is its row, as in the audit
            print(f"  {t['source']} {t['board']} {t['room']}: {type(e).__name__}", file=sys.stderr)
        took = time.perf_counter() - t0
        timed.append(({"source": Path(t["source"]).name, "board": t["board"], "room": t["room"],
                       "claim_index": t["claim_index"], "audit_seconds": f"{took:.4f}"}, took))
        if (i + 1) % 50 == 0:
            print(f"  {i + 1} claims audited", file=sys.stderr, flush=True)
    timed.sort(key=lambda x: -x[1])
    return [row for row, _ in timed[:top]]


def read_list(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def write_list(path: Path, rows: list[dict[str, Any]], how: str) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        f.write(f"# {how}\n")
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in FIELDS})


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # as Ctrl-C: the search stops with its best line so far, marked not proven


def rule_within(case: Any, cpu_seconds: float) -> tuple[Any, bool]:
    """``rule`` with no search budget, stopped (as by Ctrl-C) after ``cpu_seconds`` of this process's CPU time
    (0: never): the ruling (None if it stopped outside the search) and whether it was stopped."""
    stopped = False
    old = signal.signal(signal.SIGVTALRM, _stop)
    if cpu_seconds > 0:
        signal.setitimer(signal.ITIMER_VIRTUAL, cpu_seconds)
    try:
        ruling = rule(case, play=PlayCore(budget=None))
    except KeyboardInterrupt:
        ruling, stopped = None, True
    finally:
        left = signal.setitimer(signal.ITIMER_VIRTUAL, 0)[0]
        signal.signal(signal.SIGVTALRM, old)
    return ruling, stopped or (cpu_seconds > 0 and left == 0 and ruling is not None and not ruling.proven)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def dds_time(pos: Any, side: Any) -> tuple[float, float]:
    """DDS's time for the position's double-dummy value and line, on a fresh core (our endings solver off): wall
    and CPU seconds."""
    ending = dds.ENDING_TRICKS
    dds.ENDING_TRICKS = 0
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        PlayCore(budget=None).double_dummy(pos, side)
        return time.perf_counter() - t0, time.process_time() - c0
    finally:
        dds.ENDING_TRICKS = ending


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", type=Path, default=DEFAULT_LIST, help="the claims to rule (written by --find)")
    ap.add_argument("--find", type=int, metavar="N", help="audit the first N claims, keep the --top slowest in --list")
    ap.add_argument("--from-audit", type=Path, metavar="STORE_OR_CSV", help="pick the --top slowest of a full audit")
    ap.add_argument("--top", type=int, default=50)
    ap.add_argument("--limit", type=int, help="rule only the first N claims of the list")
    ap.add_argument("--records", type=Path, default=DEFAULT_RECORDS, help="where the audit's records are")
    ap.add_argument("--max-cpu", type=float, default=60.0,
                    help="stop a ruling after this many CPU seconds, as Ctrl-C would (0: never); counted as that long")
    a = ap.parse_args(argv)
    if a.find is not None:
        write_list(a.list, find(a.records, a.find, a.top),
                   f"the {a.top} slowest of the first {a.find} claims of {a.records.name}, audited one by one (full)")
    elif a.from_audit is not None:
        write_list(a.list, from_audit(a.from_audit, a.top), f"the {a.top} slowest claims of the audit {a.from_audit}")
    if not a.list.is_file():
        print(f"error: --list: {a.list} is not a file (make it with --find N)", file=sys.stderr)
        return 2
    picked = read_list(a.list)[:a.limit]
    wanted = {key_of(r["source"], r["board"], r["room"], r["claim_index"]): r for r in picked}
    files = sorted({a.records / r["source"] for r in picked})
    missing = [f for f in files if not f.is_file()]
    if missing:
        print(f"error: --records: {missing[0]} is not a file", file=sys.stderr)
        return 2
    tasks = [t for t in iter_tasks(files, AuditReport())
             if key_of(t["source"], t["board"], t["room"], t["claim_index"]) in wanted]
    print(f"{len(tasks)} of the {len(picked)} claims of {a.list.name} found in {a.records}")
    if tasks:  # the rules' first ruling loads the rule engine: paid here, not by the first claim timed
        first = case_from_dict(tasks[0]["case"])
        if first.claim is not None:
            rule(first, play=PlayCore(budget=2_000))
    rule_times: list[float] = []
    dd_times: list[float] = []
    rule_cpu: list[float] = []
    dd_cpu: list[float] = []
    stops = 0
    print("times in seconds, wall and (CPU): on a shared machine the CPU time is the steadier")
    print(f"{'claim':<28} {'left':>4} {'audit':>7} {'rule':>15} {'DD':>13} {'ratio':>6}  outcome")
    for t in tasks:
        case = case_from_dict(t["case"])
        pos = case.position()
        if pos is None or case.board is None or case.board.declarer is None:
            continue
        declarer = case.board.declarer
        claimed = t["claimed_total"] - pos.won[declarer.side]
        variant = contested(t["case"], declarer, claimed, "world_class")
        t0, c0 = time.perf_counter(), time.process_time()
        ruling, stopped = rule_within(variant, a.max_cpu)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        stops += stopped
        dd, ddc = dds_time(pos, declarer.side)
        rule_times.append(took)
        dd_times.append(dd)
        rule_cpu.append(cpu)
        dd_cpu.append(ddc)
        row = wanted[key_of(t["source"], t["board"], t["room"], t["claim_index"])]
        name = f"{Path(t['source']).name} {t['board']} {t['room']}"
        print(f"{name:<28} {pos.tricks_left:>4} {float(row['audit_seconds']):>7.2f} {took:>7.2f} ({cpu:>5.2f}) "
              f"{dd:>5.3f} ({ddc:.3f}) {took / max(dd, 1e-6):>6.1f}  "
              f"{ruling.outcome if ruling is not None else '-'}"
              f"{f' (stopped at {a.max_cpu:g} CPU s)' if stopped else ''}"
              f"{' (not proven)' if not stopped and ruling is not None and not ruling.proven else ''}",
              flush=True)
    if not rule_times:
        print("no claim to rule", file=sys.stderr)
        return 1
    for what, times in (("rule", rule_times), ("rule CPU", rule_cpu), ("DD", dd_times), ("DD CPU", dd_cpu)):
        print(f"{what + ':':<10} median {statistics.median(times):.3f} s, p99 {percentile(times, 99):.3f} s, "
              f"max {max(times):.3f} s{'  (goal: median < 1 s, max < 5 s)' if what == 'rule' else ''}")
    if stops:
        print(f"{stops} ruling(s) stopped at {a.max_cpu:g} CPU s: the figures above count them as that long "
              "(lower bounds)")
    for what, num, den in (("wall", rule_times, dd_times), ("CPU", rule_cpu, dd_cpu)):
        ratio = [r / max(d, 1e-6) for r, d in zip(num, den, strict=True)]
        print(f"ratio rule / DD ({what}): median {statistics.median(ratio):.1f}, p99 {percentile(ratio, 99):.1f}, "
              f"max {max(ratio):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
