"""``claimlaw audit``: every claim in hand records put to the rules, as ``claimlaw rule`` puts a case.

A record says what the claim gave (``c`` of the ``r`` remaining tricks to declarer's side; ``d`` is that side's
double-dummy count) but not who claimed, what was said, or whether anyone objected. So each claim is put to the
rules (``engine.api.rule``, under the run's edition, packs and class of player) as the table situations a Director
could meet, and its class is read off those rulings:

* ``c > d``: the defenders agreed to more than best play gives declarer; raised by them within the correction
  period, is the agreement withdrawn (69B)? Yes: ``impossible``.
* ``c >= d``: a silent claim by declarer, disputed at once (Law 70): not allowed, ``at_risk`` (``impossible``
  when ``c > d``); allowed, then the same claim of the rest by a defender: not allowed, ``at_risk``; else
  ``sound``.
* ``c < d``: declarer's side conceded a trick best play would have won; raised by it within the correction
  period, is the concession cancelled (71)? Yes: ``over_concession``. No: as a defender's claim that declarer's
  side agreed to and then raised, is the agreement withdrawn (69B)? Yes: ``impossible``; else ``sound``.

The rulings are verdict-only (``rule(..., verdict_only=True)``): the play core settles whether a normal line falls
under the tricks claimed (or kept), and stops at the first such line, so an adjusted count is "at most". The row's
``law`` is the ruling's law chain; ``line`` its witness.

Two more classes say the audit itself did not settle a claim: ``error`` (its analysis raised, or its
worker process died; the row carries the one-line message and the position) and ``timeout`` (no
verdict within the per-claim time limit; the worker process was killed and replaced). A verdict the
search budget left open keeps its class with ``proven`` False and is counted apart.

Each claim is analysed in a worker
process of its own (DDS is not thread-safe), on this machine or on a Dask cluster
(``engine.faces.audit.run``); rows can stream into a SQLite store and a rerun skips what it holds
(``engine.faces.audit.store``).
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import io
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from claimlaw.engine.readers.records import ClaimRecord, ReadProblem, ReadReport, read_file, record_files
from claimlaw.facts import Case, Position, Ruling, Seat, Side, case_from_dict

CLASSES = ("sound", "at_risk", "impossible", "over_concession")
DD_CLASSES = ("dd_ok", "dd_short", "dd_over")
FAILURES = ("timeout", "error")

# search positions per question: a claim that needs more is reported unproven. Measured 2026-11-24 on the vugraph
# records: at 20,000, 29 claims were left "sound (unproven)" and 19 of them have a normal line under the claim that
# 100,000 finds; at 40,000, 12 are left (14 more at risk, 3 more proven sound) and the audit takes 102 s, 9.0 times
# the double-dummy pass (88 s, 7.8 times, at 20,000)
AUDIT_BUDGET = 40_000

# seconds a claim may take before its worker is killed and the row is ``timeout``; the slowest vugraph claim took
# about 3 s on a loaded 2-core machine (2026-11-26), so this only catches a position that would hold a worker
DEFAULT_TIMEOUT = 120.0

Key = tuple[str, str, str, int]


@dataclass
class AuditRow:
    """One claim's verdict, keyed by (file_hash, board, room, claim_index)."""

    source: str
    board: str
    room: str
    contract: str
    declarer: str
    remaining: int | None
    claimed_for_declarer: int | None  # of the remaining tricks
    dd_for_declarer: int | None
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
    file_hash: str = ""
    claim_index: int = 0  # the claim's place among the claims of its file, from 0
    position: str = ""  # the remaining cards as a PBN deal
    leader: str = ""  # the seat that led to the trick in progress (or leads next)
    trick: str = ""  # the cards played to the trick in progress
    message: str = ""  # for ``error`` and ``timeout``: what happened, on one line

    @property
    def key(self) -> Key:
        return (self.file_hash, self.board, self.room, self.claim_index)


@dataclass
class AuditReport:
    """Rows, read problems and counts for a whole audit."""

    rows: list[AuditRow] = field(default_factory=list)
    problems: list[ReadProblem] = field(default_factory=list)
    read: ReadReport = field(default_factory=ReadReport)
    seconds: float = 0.0
    mode: str = "full"
    earlier: int = 0  # rows a store already held when this run started (not redone)
    replaced: int = 0  # rows a store held for files whose content changed since (dropped, the new content audited)
    settings: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> Counter[str]:
        return Counter(r.verdict for r in self.rows)

    @property
    def errors(self) -> list[AuditRow]:
        return [r for r in self.rows if r.verdict == "error"]

    def summary(self) -> str:
        c = self.counts()
        parts = [f"{k}: {c.get(k, 0)}" for k in (CLASSES if self.mode == "full" else DD_CLASSES)]
        dis = sum(1 for r in self.rows if r.disagrees)
        unproven = sum(1 for r in self.rows if not r.proven and r.verdict not in FAILURES)
        failed = ", ".join(f"{k}: {c.get(k, 0)}" for k in FAILURES)
        earlier = f" ({self.earlier} of them from the store, not redone)" if self.earlier else ""
        if self.replaced:
            earlier += f" ({self.replaced} rows of files changed since replaced)"
        return (f"{len(self.rows)} claims audited{earlier}, {len(self.problems)} records unreadable; "
                + ", ".join(parts)
                + (f" ({unproven} not proven within the search budget)" if self.mode == "full" else "")
                + (f"; ruled for {str(self.settings['class_of_player']).replace('_', ' ')} players"
                   if self.mode == "full" and self.settings.get("class_of_player") else "")
                + f"; {failed}; claimed total differs from the result line in {dis}; {self.seconds:.1f} s")

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
            "summary": dict(self.counts()), "seconds": round(self.seconds, 2), "settings": self.settings,
            "rows": [asdict(r) for r in self.rows],
            "problems": [{"source": p.source, "board": p.board, "room": p.room or "", "reason": p.reason,
                          "kind": p.kind} for p in self.problems],
        }, ensure_ascii=False, indent=1)


# -- settings ------------------------------------------------------------------------------


def code_id() -> str:
    """A fingerprint of the sources a verdict depends on (facts, records, play core, this module)."""
    root = Path(_origin("claimlaw.engine")).parent.parent  # the checkout (or the installed claimlaw folder)
    h = hashlib.sha256()
    files = [Path(_origin(name)) for name in (
        "claimlaw.engine.faces.audit.claims", "claimlaw.engine.api", "claimlaw.engine.host", "claimlaw.rules.rulebook",
        "claimlaw.engine.questions", "claimlaw.engine.readers.facts_in", "claimlaw.engine.packs")]
    for package in ("claimlaw.facts", "claimlaw.rules", "claimlaw.engine.play", "claimlaw.engine.readers.records"):
        files += sorted(p for p in Path(_origin(package)).parent.rglob("*") if p.suffix in (".py", ".c"))
    for p in files:
        h.update(p.relative_to(root).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def _origin(module: str) -> str:
    """The source file of ``module`` (a package's ``__init__.py``), found without importing it: named by its
    dotted name, so the fingerprint follows a module that moves."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"claimlaw is incomplete: no source for {module}")
    return spec.origin


def settings_record(mode: str, budget: int) -> dict[str, Any]:
    """What a verdict depends on: versions, code fingerprint, mode and search budget."""
    from importlib.metadata import PackageNotFoundError, version

    def ver(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "unknown"

    return {"claimlaw": ver("claimlaw"), "code": code_id(), "endplay": ver("endplay"), "mode": mode,
            "budget": budget}


def ruling_settings(edition: str | None, packs: Iterable[str], class_of_player: str,
                    hinges: bool = False) -> dict[str, Any]:
    """How each claim is ruled: the edition, the packs (checked now, so a bad name stops the run before it starts),
    the class of player assumed, and (only when asked) that at-risk claims are searched for the finding that would
    make them sound."""
    from claimlaw.engine.api import DEFAULT_EDITION, program_for

    ed = edition or DEFAULT_EDITION
    names = list(packs)
    program_for(ed, names)  # a PackError names the pack
    out: dict[str, Any] = {"edition": ed, "packs": names, "class_of_player": class_of_player}
    if hinges:
        out["hinges"] = True
    return out


# -- one claim -------------------------------------------------------------------------

def _core(budget: int = AUDIT_BUDGET) -> Any:
    """The worker's play core, got as every face gets one (``engine.api.play_core``: one per budget per process,
    its caches shared by the worker's claims); the default rule program is compiled with it, once as the worker
    starts, not within a claim's time limit."""
    from claimlaw.engine.api import DEFAULT_EDITION, play_core, program_for

    core = play_core(budget)
    program_for(DEFAULT_EDITION, [])
    return core


def _task(rec: ClaimRecord, file_hash: str = "", claim_index: int = 0) -> dict[str, Any]:
    """What a worker needs: plain data (JSON-able), so it crosses a process or machine boundary cheaply."""
    return {"case": rec.case.model_dump(mode="json"), "source": rec.source, "board": rec.board,
            "room": str(rec.room or ""), "claimed_total": rec.claimed_total, "result_total": rec.result_total,
            "disagrees": rec.disagrees, "claimer_known": rec.claimer_known, "file_hash": file_hash,
            "claim_index": claim_index}


def task_key(task: dict[str, Any]) -> Key:
    return (task["file_hash"], task["board"], task["room"], task["claim_index"])


def _where(task: dict[str, Any], case: Case | None = None, pos: Position | None = None) -> dict[str, Any]:
    """The row fields that name the claim and its position, read as far as the task allows (or from
    ``case`` and ``pos`` when the caller has them)."""
    out: dict[str, Any] = {
        "source": task["source"], "board": task["board"], "room": task["room"], "contract": "", "declarer": "",
        "remaining": None, "claimed_for_declarer": None, "claimer_known": task["claimer_known"],
        "claimed_total": task["claimed_total"], "result_total": task["result_total"], "disagrees": task["disagrees"],
        "file_hash": task.get("file_hash", ""), "claim_index": task.get("claim_index", 0)}
    try:
        case = case or case_from_dict(task["case"])
        b = case.board
        if b is not None:
            out["contract"] = str(b.contract) if b.contract else ""
            out["declarer"] = b.declarer.value if b.declarer else ""
        pos = pos or case.position()
        if pos is not None:
            out.update(remaining=pos.tricks_left, position=pos.pbn(), leader=pos.leader.value,
                       trick=" ".join(str(c) for c in pos.trick))
            if b is not None and b.declarer is not None:
                out["claimed_for_declarer"] = task["claimed_total"] - pos.won[b.declarer.side]
    except Exception:  # noqa: BLE001 - a failure row must be made whatever the task holds
        pass
    return out


def failure_row(task: dict[str, Any], verdict: str, message: str, seconds: float = 0.0) -> AuditRow:
    """A row for a claim the audit did not settle: ``error`` or ``timeout``, with a one-line message."""
    line = " ".join(message.split()) or "no message"
    return AuditRow(**_where(task), dd_for_declarer=None, worst_normal_for_declarer=None,
                    worst_normal_for_defenders=None, verdict=verdict, law="", line="", proven=False,
                    seconds=round(seconds, 4), message=line[:500])


# The findings a hand record gives: nobody recorded who claimed nor what was said; the players of a vugraph record
# are world class (the class of player the 70 footnote asks about). Anything else the rules default.
DEFAULT_CLASS = "world_class"
# a ruling whose search did not settle its verdict: the row keeps the class the settled questions gave, unproven
UNSETTLED = ("claim_not_established", "count_unproven")


def _variant(case_data: dict[str, Any], claimer: Seat, says: str, tricks: int, *,
             responses: dict[str, Any], timing: dict[str, Any] | None, class_of_player: str) -> Case:
    """The record's claim put to the rules as one table situation: ``claimer`` claims (or concedes) ``tricks``."""
    data = dict(case_data)
    data["claim"] = {"by": claimer.value, "says": says, "tricks": tricks}
    data["responses"] = responses
    data["timing"] = timing or {}
    data["findings"] = {**(data.get("findings") or {}), "class_of_player": class_of_player}
    data.pop("expect", None)
    return case_from_dict(data)


def contested(case_data: dict[str, Any], claimer: Seat, tricks: int, class_of_player: str) -> Case:
    """A silent claim of ``tricks`` disputed at once by the opponent on the claimer's left (Law 70)."""
    return _variant(case_data, claimer, "claim", tricks, responses={claimer.next.value: "disputes"}, timing=None,
                    class_of_player=class_of_player)


def agreed_then_withdrawn(case_data: dict[str, Any], claimer: Seat, says: str, tricks: int, objector: Seat,
                          class_of_player: str) -> Case:
    """A claim or concession both opponents agreed to, raised by ``objector`` after the round within the correction
    period (Laws 69B and 71)."""
    opps = {s.value: "agrees" for s in (claimer.next, claimer.partner.next)}
    return _variant(case_data, claimer, says, tricks, responses=opps,
                    timing={"objection": "after_round_end", "objection_by": objector.value,
                            "within_correction_period": True}, class_of_player=class_of_player)


def _claimer_tricks(ruling: Ruling, side: Side) -> int | None:
    return None if ruling.tricks is None else ruling.tricks[side.value]


def _line(ruling: Ruling) -> str:
    w = next((w for w in ruling.witnesses if w.question == "worst_normal"), None)
    return w.words if w is not None else ruling.summary


def audit_one(task: dict[str, Any], mode: str = "full", budget: int = AUDIT_BUDGET, *, edition: str | None = None,
              packs: tuple[str, ...] = (), class_of_player: str = DEFAULT_CLASS, hinges: bool = False) -> AuditRow:
    """Classify one claim (runs in a worker process); raises when the analysis does.

    ``dd`` mode compares the claimed split with double dummy only. ``full`` mode asks the rules, as ``claimlaw
    rule`` does (under ``edition`` and ``packs``), about the table situations a record leaves open, and reads the
    class off the rulings (the module docstring says which question settles which class). With ``hinges``, an
    at-risk claim's line ends with the finding that would make it sound, if one would (engine.hinges)."""
    from claimlaw.engine.api import rule

    t0 = time.perf_counter()
    case: Case = case_from_dict(task["case"])
    pos = case.position()
    if pos is None or case.board is None or case.board.declarer is None:
        raise ValueError("the task holds no position with a declarer")
    declarer = case.board.declarer
    defender = declarer.next
    dside: Side = declarer.side
    r = pos.tricks_left
    c = task["claimed_total"] - pos.won[dside]
    core = _core(budget)
    d = core.double_dummy(pos, dside).tricks
    w_decl: int | None = None
    w_def: int | None = None
    line = ""
    law = ""
    proven = True
    data = task["case"]
    at_risk: tuple[Case, Ruling] | None = None

    def ask(variant: Case) -> Ruling:
        nonlocal proven
        ruling = rule(variant, edition=edition, packs=list(packs), play=core, verdict_only=True)
        proven = proven and ruling.proven
        return ruling

    def chain(ruling: Ruling) -> str:
        return " ".join(ruling.laws)

    if mode == "dd":
        verdict = "dd_ok" if c == d else ("dd_short" if c < d else "dd_over")
    elif c >= d:
        verdict = "sound"
        if c > d:  # the defenders agreed to more than best play gives declarer: would they likely have won more?
            ruling = ask(agreed_then_withdrawn(data, declarer, "claim", c, defender, class_of_player))
            if ruling.outcome == "agreement_withdrawn":
                verdict, law, line = "impossible", chain(ruling), ruling.summary
        if verdict == "sound" and c > 0:  # contested at once: does the claim survive Law 70?
            ruling = ask(contested(data, declarer, c, class_of_player))
            w_decl = _claimer_tricks(ruling, dside)
            if w_decl is not None:
                w_decl -= pos.won[dside]
            if ruling.outcome not in ("claim_allowed", *UNSETTLED):
                verdict, law, line = ("impossible" if c > d else "at_risk"), chain(ruling), \
                    f"if declarer claimed: {_line(ruling)}"
                at_risk = (contested(data, declarer, c, class_of_player), ruling)
        if verdict == "sound" and r - c > 0:  # the record does not say who claimed: a defender's claim of the rest
            ruling = ask(contested(data, defender, r - c, class_of_player))
            w_def = _claimer_tricks(ruling, dside.other)
            if w_def is not None:
                w_def -= pos.won[dside.other]
            if ruling.outcome not in ("claim_allowed", *UNSETTLED):
                verdict, law, line = "at_risk", chain(ruling), f"if a defender claimed: {_line(ruling)}"
                at_risk = (contested(data, defender, r - c, class_of_player), ruling)
    else:  # declarer's side took fewer than best play gives it
        ruling = ask(agreed_then_withdrawn(data, declarer, "concede", r - c, declarer, class_of_player))
        if ruling.outcome == "concession_cancelled":
            verdict, law, line = "over_concession", chain(ruling), ruling.summary
            w_decl = _claimer_tricks(ruling, dside)
            if w_decl is not None:
                w_decl -= pos.won[dside]
        else:  # or the defenders claimed the rest and declarer's side agreed to it
            ruling = ask(agreed_then_withdrawn(data, defender, "claim", r - c, declarer, class_of_player))
            if ruling.outcome == "agreement_withdrawn":
                verdict, law, line = "impossible", chain(ruling), ruling.summary
            else:
                verdict = "sound"
    if hinges and verdict == "at_risk" and at_risk is not None:
        line += sound_if(*at_risk, lambda v: rule(v, edition=edition, packs=list(packs), play=core, verdict_only=True))
    where = _where(task, case, pos)
    return AuditRow(
        **where, dd_for_declarer=d, worst_normal_for_declarer=w_decl, worst_normal_for_defenders=w_def,
        verdict=verdict, law=law, line=line, proven=proven, seconds=round(time.perf_counter() - t0, 4))


def sound_if(case: Case, ruling: Ruling, ask: Any) -> str:
    """The finding that would make an at-risk claim sound, as the end of its row's line (or that none would)."""
    from claimlaw.engine.hinges import hinges

    for h in hinges(case, ruling, rule_fn=ask).hinges:
        good = next((a for a in h.answers if a.outcome == "claim_allowed"), None)
        if good is not None:
            asked = h.asked()  # "Ask South: ..." or "For the Director to judge: ..."
            return f"; sound if {good.answer} ({h.field}: {asked[:1].lower()}{asked[1:]})"
    return "; no finding the rules read would make it sound"


def classify(task: dict[str, Any], mode: str = "full", budget: int = AUDIT_BUDGET) -> dict[str, Any]:
    """``audit_one`` as a plain dict, with any exception turned into an ``error`` row. The task carries the
    ruling's settings (``ruling``: edition, packs, class of player)."""
    t0 = time.perf_counter()
    how = task.get("ruling") or {}
    try:
        return asdict(audit_one(task, mode, budget, edition=how.get("edition"), packs=tuple(how.get("packs") or ()),
                                class_of_player=how.get("class_of_player") or DEFAULT_CLASS,
                                hinges=bool(how.get("hinges"))))
    except Exception as e:  # noqa: BLE001 - one claim's failure is that claim's row, never the run's end
        first = (str(e).strip().splitlines() or [""])[0]
        msg = f"{type(e).__name__}: {first}" if first else type(e).__name__
        return asdict(failure_row(task, "error", msg, time.perf_counter() - t0))


# -- reading ---------------------------------------------------------------------------


def file_hash(path: str | os.PathLike[str]) -> str:
    """The first 16 hex digits of the file's SHA-256, read in chunks (empty when it cannot be read, or is not
    a regular file within the records size limit: a FIFO or a device is never read)."""
    from claimlaw.engine.readers.records.source import file_digest, open_records

    try:
        with open_records(path) as f:
            return file_digest(f)
    except (OSError, ValueError):
        return ""


def iter_tasks(paths: Iterable[str | os.PathLike[str]], report: AuditReport, limit: int | None = None,
               on_file: Callable[[str, str], None] | None = None) -> Iterator[dict[str, Any]]:
    """One task per claim in ``paths``, as read (duplicates by key dropped); problems go to ``report``.

    Never raises for bad input: a reader that fails on a file is a problem of kind ``bad-file``.
    ``on_file(source, file_hash)`` is called as each file is opened, before its tasks (its errors
    are raised, not turned into problems).
    """
    seen: set[Key] = set()
    for path in record_files(paths):
        digest = [""]
        failed: list[BaseException] = []

        def opened(h: str, source: str = str(path), digest: list[str] = digest,
                   failed: list[BaseException] = failed) -> None:
            digest[0] = h
            if on_file is not None:
                try:
                    on_file(source, h)
                except BaseException as e:
                    failed.append(e)
                    raise

        index = 0
        try:
            for item in read_file(path, report=report.read, on_open=opened):
                if isinstance(item, ReadProblem):
                    report.problems.append(item)
                    continue
                task = _task(item, digest[0], index)
                index += 1
                if task_key(task) in seen:
                    continue
                seen.add(task_key(task))
                yield task
                if limit is not None and len(seen) >= limit:
                    return
        except Exception as e:  # noqa: BLE001 - a reader bug on one file is that file's problem
            if failed:
                raise
            report.problems.append(ReadProblem(str(path), None, f"the reader failed: {type(e).__name__}: {e}",
                                               "bad-file"))


def read_tasks(paths: Iterable[str | os.PathLike[str]], report: AuditReport,
               limit: int | None = None) -> list[dict[str, Any]]:
    """``iter_tasks`` as a list."""
    return list(iter_tasks(paths, report, limit))


__all__ = ["AUDIT_BUDGET", "AuditReport", "AuditRow", "CLASSES", "DEFAULT_TIMEOUT", "FAILURES", "audit_one",
           "classify", "failure_row", "iter_tasks", "read_tasks", "settings_record"]
