"""``claimlaw audit``: every claim in hand records through the double-dummy and worst-normal-line checks.

Classes (for the side the record credits with ``c`` of the ``r`` remaining tricks; ``d`` is that
side's double-dummy count, ``w`` its worst count over its normal lines):

* ``sound`` — c == d and w >= c: the claim holds on every normal line;
* ``at_risk`` — c == d but w < c: good with best play, fewer on some normal line (Law 70 if doubted);
* ``impossible`` — c > d, or c < d and the other side was credited more than best play gives it:
  a side agreed to lose tricks it would likely have won (a Law 69B candidate);
* ``over_concession`` — c < d and w > c: the side could not have lost what it gave away (Law 71).

In LIN records the claimer is not recorded: the split is checked for declarer's side (and, for
``at_risk``, for the defenders' side too), and the row says so. Work is spread over processes
(DDS is not thread-safe).
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.records import ClaimRecord, ReadProblem, ReadReport, read_records
from facts import Case, Side, case_from_dict

CLASSES = ("sound", "at_risk", "impossible", "over_concession")


@dataclass
class AuditRow:
    """One claim's verdict."""

    source: str
    board: str
    room: str
    contract: str
    declarer: str
    remaining: int
    claimed_for_declarer: int  # of the remaining tricks
    dd_for_declarer: int
    worst_normal_for_declarer: int | None
    worst_normal_for_defenders: int | None
    verdict: str
    law: str
    line: str
    claimer_known: bool
    claimed_total: int
    result_total: int | None
    disagrees: bool
    proven: bool = True  # False: the search's node budget ran out before the verdict was settled
    seconds: float = 0.0


@dataclass
class AuditReport:
    """Rows, read problems and counts for a whole audit."""

    rows: list[AuditRow] = field(default_factory=list)
    problems: list[ReadProblem] = field(default_factory=list)
    read: ReadReport = field(default_factory=ReadReport)
    seconds: float = 0.0
    mode: str = "full"

    def counts(self) -> Counter[str]:
        return Counter(r.verdict for r in self.rows)

    def summary(self) -> str:
        c = self.counts()
        parts = [f"{k}: {c.get(k, 0)}" for k in (CLASSES if self.mode == "full" else ("dd_ok", "dd_short", "dd_over"))]
        dis = sum(1 for r in self.rows if r.disagrees)
        unproven = sum(1 for r in self.rows if not r.proven)
        return (f"{len(self.rows)} claims audited, {len(self.problems)} records unreadable; " + ", ".join(parts)
                + (f" ({unproven} not proven within the search budget)" if unproven else "")
                + f"; claimed total differs from the result line in {dis}; {self.seconds:.1f} s")

    def to_csv(self) -> str:
        buf = io.StringIO()
        names = list(AuditRow.__dataclass_fields__)
        w = csv.DictWriter(buf, fieldnames=names)
        w.writeheader()
        for r in self.rows:
            w.writerow(asdict(r))
        return buf.getvalue()

    def to_json(self) -> str:
        return json.dumps({
            "summary": dict(self.counts()), "seconds": round(self.seconds, 2),
            "rows": [asdict(r) for r in self.rows],
            "problems": [{"source": p.source, "board": p.board, "reason": p.reason, "kind": p.kind}
                         for p in self.problems],
        }, ensure_ascii=False, indent=1)


# -- one claim -------------------------------------------------------------------------

_CORE: Any = None


# search positions per question: a claim that needs more is reported unproven. Measured 2026-11-24 on the vugraph
# records: at 20,000, 29 claims were left "sound (unproven)" and 19 of them have a normal line under the claim that
# 100,000 finds; at 40,000, 12 are left (14 more at risk, 3 more proven sound) and the audit takes 102 s, 9.0 times
# the double-dummy pass (88 s, 7.8 times, at 20,000)
AUDIT_BUDGET = 40_000


def _core() -> Any:
    global _CORE
    if _CORE is None:
        from engine.play import PlayCore

        _CORE = PlayCore(budget=AUDIT_BUDGET)
    return _CORE


def _task(rec: ClaimRecord) -> dict[str, Any]:
    """What a worker needs: plain data, so it crosses the process boundary cheaply."""
    return {"case": rec.case.model_dump(mode="json"), "source": rec.source, "board": rec.board,
            "room": str(rec.room or ""), "claimed_total": rec.claimed_total, "result_total": rec.result_total,
            "disagrees": rec.disagrees, "claimer_known": rec.claimer_known}


def audit_one(task: dict[str, Any], mode: str = "full") -> AuditRow:
    """Classify one claim (runs in a worker process)."""
    from engine.play.model import NormalPlayModel

    t0 = time.perf_counter()
    case: Case = case_from_dict(task["case"])
    pos = case.position()
    assert pos is not None and case.board is not None and case.board.declarer is not None
    declarer = case.board.declarer
    dside: Side = declarer.side
    r = pos.tricks_left
    c = task["claimed_total"] - pos.won[dside]
    core = _core()
    d = core.double_dummy(pos, dside).tricks
    w_decl: int | None = None
    w_def: int | None = None
    line = ""
    law = ""
    proven = True
    if mode == "dd":
        verdict = "dd_ok" if c == d else ("dd_short" if c < d else "dd_over")
    elif c > d:
        verdict, law = "impossible", "69B"
        line = f"best defence holds declarer's side to {d} of {r}"
    elif c == d:
        # only "is there a normal line with fewer?" is asked: the first such line settles it
        wd = core.worst_normal(pos, dside, NormalPlayModel.default(declarer), below=c)
        w_decl = wd.tricks
        proven = wd.settled
        if w_decl < c:
            verdict, law, line = "at_risk", "70", f"if declarer claimed: {wd.witness.words}"
        else:
            defender = declarer.next
            wf = core.worst_normal(pos, dside.other, NormalPlayModel.default(defender).as_defender(), below=r - c)
            w_def = wf.tricks
            proven = proven and wf.settled
            if w_def < r - c:
                verdict, law, line, proven = "at_risk", "70", f"if a defender claimed: {wf.witness.words}", True
            else:
                verdict = "sound"
    else:
        wd = core.worst_normal(pos, dside, NormalPlayModel.default(declarer), below=c + 1)
        w_decl = wd.tricks
        proven = wd.settled
        if w_decl > c:
            verdict, law = "over_concession", "71"
            least = w_decl if wd.exact else c + 1
            line = (f"declarer's side takes at least {least} on every normal line, credited {c}; "
                    f"for example: {wd.witness.words}")
        else:
            verdict, law = "impossible", "69B"
            line = f"the defenders were credited {r - c}, best play gives them {r - d}"
    return AuditRow(
        source=task["source"], board=task["board"], room=task["room"], contract=str(case.board.contract),
        declarer=declarer.value, remaining=r, claimed_for_declarer=c, dd_for_declarer=d,
        worst_normal_for_declarer=w_decl, worst_normal_for_defenders=w_def, verdict=verdict, law=law, line=line,
        claimer_known=task["claimer_known"], claimed_total=task["claimed_total"], result_total=task["result_total"],
        disagrees=task["disagrees"], proven=proven, seconds=round(time.perf_counter() - t0, 4))


def _audit_dd(task: dict[str, Any]) -> AuditRow:
    return audit_one(task, "dd")


def _audit_full(task: dict[str, Any]) -> AuditRow:
    return audit_one(task, "full")


# -- many claims -----------------------------------------------------------------------


def audit(paths: Iterable[str | os.PathLike[str]], *, mode: str = "full", workers: int | None = None,
          progress: bool = True, limit: int | None = None) -> AuditReport:
    """Audit every claim in ``paths`` (files or directories of LIN/PBN records)."""
    import multiprocessing as mp

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    report = AuditReport(mode=mode)
    tasks: list[dict[str, Any]] = []
    for item in read_records(paths, report=report.read):
        if isinstance(item, ReadProblem):
            report.problems.append(item)
        else:
            tasks.append(_task(item))
            if limit is not None and len(tasks) >= limit:
                break
    fn = _audit_full if mode == "full" else _audit_dd
    n = workers or min(2, os.cpu_count() or 1)
    t0 = time.perf_counter()
    with Progress(TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  disable=not progress, transient=False) as bar:
        job = bar.add_task("claims", total=len(tasks))
        rows: Iterator[AuditRow]
        if n <= 1:
            rows = (fn(t) for t in tasks)
            for row in rows:
                report.rows.append(row)
                bar.advance(job)
        else:
            ctx = mp.get_context("fork")
            with ctx.Pool(n) as pool:
                for row in pool.imap_unordered(fn, tasks, chunksize=8):
                    report.rows.append(row)
                    bar.advance(job)
    report.seconds = time.perf_counter() - t0
    report.rows.sort(key=lambda r: (r.source, r.board, r.room))
    return report


__all__ = ["AuditReport", "AuditRow", "CLASSES", "audit", "audit_one"]
