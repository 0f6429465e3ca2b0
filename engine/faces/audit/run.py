"""Where the audit's per-claim tasks run: worker processes here, or a Dask distributed cluster.

Every claim is analysed in a *sandbox*: a child process (``python -m engine.faces.audit.run MODE BUDGET``)
that reads one task per line on stdin and writes one row per line. It holds one DDS (not
thread-safe) and the play core's tables for its life. A sandbox that outlives the per-claim time
limit is killed and replaced (row ``timeout``); one that dies is replaced (row ``error``); an
exception inside the analysis is an ``error`` row from the sandbox itself. The same sandbox runs
inside each Dask worker process, so a cluster task is the very same task as a local one.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import asdict, replace
from itertools import islice
from pathlib import Path
from typing import Any

from claimlaw.engine.faces.audit.claims import (
    AUDIT_BUDGET,
    DEFAULT_CLASS,
    DEFAULT_TIMEOUT,
    FAILURES,
    AuditReport,
    AuditRow,
    Key,
    classify,
    failure_row,
    iter_tasks,
    ruling_settings,
    settings_record,
    task_key,
)
from claimlaw.engine.faces.audit.store import Store
from claimlaw.engine.readers.records import ReadProblem, record_files

START_TIMEOUT = 120.0  # seconds a new sandbox may take to import and report ready
_ROOT = str(Path(__file__).resolve().parents[3])


class WorkerStartError(RuntimeError):
    """A sandbox process could not start (the environment, not a claim)."""


class Sandbox:
    """One worker process for claims; killed and started again when a claim holds it too long."""

    def __init__(self, mode: str, budget: int, expect: dict[str, Any] | None = None) -> None:
        self.mode, self.budget, self.expect = mode, budget, expect
        self.proc: subprocess.Popen[bytes] | None = None
        self.buf = b""
        self.task: dict[str, Any] | None = None
        self.sent = 0.0
        self.ready = False
        self.started = 0.0
        self._err: Any = None

    def start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self._err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "claimlaw.engine.faces.audit.run", self.mode, str(self.budget)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self._err, env=env, start_new_session=True)
        self.buf, self.task, self.ready, self.started = b"", None, False, time.monotonic()

    @property
    def fd(self) -> int:
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def check_ready(self, msg: dict[str, Any]) -> None:
        """Take the ready message; refuse a worker whose claimlaw is not the run's (code, versions, budget)."""
        theirs = msg.get("settings")
        if self.expect is not None and theirs != self.expect:
            from claimlaw.engine.faces.audit.store import describe

            raise WorkerStartError(f"a worker runs {describe(theirs or {})}, this run is {describe(self.expect)}: "
                                   "install the same claimlaw everywhere")
        self.ready = True

    def send(self, task: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.task, self.sent = task, time.monotonic()
        try:
            self.proc.stdin.write(json.dumps(task).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the process died: its end of stdout reads as EOF next

    def read(self) -> tuple[list[dict[str, Any]], bool]:
        """The messages now available, and whether the process has closed its output."""
        data = os.read(self.fd, 1 << 16)
        if not data:
            return [], True
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        return [json.loads(x) for x in lines if x.strip()], False

    def death(self) -> str:
        """Why the process ended, in words: its signal or exit status and its last line on stderr."""
        assert self.proc is not None
        try:
            rc = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        how = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}"
        tail = ""
        if self._err is not None:
            self._err.seek(0)
            lines = [x for x in self._err.read().decode(errors="replace").splitlines() if x.strip()]
            tail = f": {lines[-1].strip()}" if lines else ""
        return f"the worker process died ({how}){tail}"

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout):
                if f is not None:
                    try:
                        f.close()
                    except OSError:
                        pass
            self.proc = None
        if self._err is not None:
            self._err.close()
            self._err = None

    def run(self, task: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        """Run one task to its row, blocking (the Dask side): start, wait, kill on the limit."""
        if self.proc is None or self.proc.poll() is not None:
            self.close()
            self.start()
        while not self.ready:
            msgs, eof = self._wait(self.started + START_TIMEOUT)
            if eof or msgs is None:
                why = self.death() if eof else f"no worker ready within {START_TIMEOUT:g} s"
                self.close()
                raise WorkerStartError(why)
            try:
                for m in msgs:
                    if "ready" in m:
                        self.check_ready(m)
            except WorkerStartError:
                self.close()
                raise
        self.send(task)
        while True:
            msgs, eof = self._wait(None if not timeout else self.sent + timeout)
            if msgs is None:
                self.close()
                return asdict(failure_row(task, "timeout", f"no verdict within {timeout:g} s; worker killed",
                                          time.monotonic() - self.sent))
            rows = [m for m in msgs if "verdict" in m]
            if rows:
                self.task = None
                return rows[0]
            if eof:
                why = self.death()
                self.close()
                return asdict(failure_row(task, "error", why, time.monotonic() - self.sent))

    def _wait(self, deadline: float | None) -> tuple[list[dict[str, Any]] | None, bool]:
        """Messages read before ``deadline`` (None when it passed with nothing), and EOF."""
        with selectors.DefaultSelector() as sel:
            sel.register(self.fd, selectors.EVENT_READ)
            while True:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None, False
                if sel.select(left):
                    msgs, eof = self.read()
                    if msgs or eof:
                        return msgs, eof


def run_local(tasks: Iterable[dict[str, Any]], mode: str, budget: int, workers: int, timeout: float | None,
              expect: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Rows for ``tasks`` in the order they finish, from ``workers`` sandboxes on this machine.

    ``tasks`` is consumed as the workers need them, a few ahead (so reading overlaps the analysis).
    ``expect``: the run's settings record; a worker that reports others is refused (``WorkerStartError``).
    """
    source = iter(tasks)
    first = next(source, None)
    if first is None:
        return
    pending = deque([first])
    exhausted = False
    boxes = [Sandbox(mode, budget, expect) for _ in range(max(1, workers))]
    sel = selectors.DefaultSelector()

    def pull() -> None:
        nonlocal exhausted
        task = next(source, None)
        if task is None:
            exhausted = True
        else:
            pending.append(task)

    def fresh(box: Sandbox) -> None:
        if box.proc is not None:
            sel.unregister(box.fd)
            box.close()
        box.start()
        sel.register(box.fd, selectors.EVENT_READ, box)

    try:
        for box in boxes:
            fresh(box)
        while True:
            for box in boxes:
                if box.ready and box.task is None:
                    if not pending and not exhausted:
                        pull()
                    if pending:
                        box.send(pending.popleft())
            if exhausted and not pending and all(b.task is None for b in boxes):
                break
            ahead = not exhausted and len(pending) < 2 * len(boxes)
            if ahead:
                pull()
            now = time.monotonic()
            deadlines = [b.started + START_TIMEOUT for b in boxes if not b.ready]
            if timeout:
                deadlines += [b.sent + timeout for b in boxes if b.task is not None]
            wait = 0.0 if ahead else (max(0.0, min(deadlines) - now) if deadlines else None)
            for key, _ in sel.select(wait):
                box = key.data
                msgs, eof = box.read()
                for m in msgs:
                    if "ready" in m:
                        box.check_ready(m)
                    elif box.task is not None:
                        box.task = None
                        yield m
                if eof:
                    if not box.ready:
                        raise WorkerStartError(box.death())
                    task = box.task
                    if task is not None:
                        yield asdict(failure_row(task, "error", box.death(), time.monotonic() - box.sent))
                    fresh(box)
            now = time.monotonic()
            for box in boxes:
                if not box.ready and now > box.started + START_TIMEOUT:
                    raise WorkerStartError(f"no worker ready within {START_TIMEOUT:g} s")
                if timeout and box.task is not None and now > box.sent + timeout:
                    task = box.task
                    fresh(box)
                    yield asdict(failure_row(task, "timeout", f"no verdict within {timeout:g} s; worker killed",
                                             now - box.sent))
    finally:
        for box in boxes:
            box.close()
        sel.close()


# -- Dask ------------------------------------------------------------------------------------

_LOCAL = threading.local()


def dask_task(tasks: list[dict[str, Any]], mode: str, budget: int, timeout: float | None,
              expect: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Claims on a Dask worker, one after another in that worker thread's own sandbox process."""
    box: Sandbox | None = getattr(_LOCAL, "box", None)
    if box is None or (box.mode, box.budget, box.expect) != (mode, budget, expect):
        if box is not None:
            box.close()
        box = _LOCAL.box = Sandbox(mode, budget, expect)
    return [box.run(task, timeout) for task in tasks]


def run_dask(tasks: Iterable[dict[str, Any]], mode: str, budget: int, client: Any, timeout: float | None,
             batch: int = 1, expect: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Rows for ``tasks`` in the order they finish, from the Dask cluster of ``client``.

    ``batch`` claims make one Dask task (fewer tasks for the scheduler on a large cluster; each claim
    keeps its own time limit). At most four tasks per worker thread are in flight, so a million claims
    never sit in the scheduler at once. A task whose worker is lost more often than Dask allows gives
    ``error`` rows. A worker whose claimlaw is not the run's (``expect``) ends the run
    (``WorkerStartError``).
    """
    from distributed import as_completed

    window = max(16, 4 * _threads(client))
    todo = iter(tasks)
    by_key: dict[str, list[dict[str, Any]]] = {}
    done = as_completed()

    def submit(n: int) -> None:
        for _ in range(n):
            chunk = list(islice(todo, max(1, batch)))
            if not chunk:
                return
            fut = client.submit(dask_task, chunk, mode, budget, timeout, expect, pure=False)
            by_key[fut.key] = chunk
            done.add(fut)

    submit(window)
    for fut in done:
        chunk = by_key.pop(fut.key)
        try:
            rows = fut.result()
        except WorkerStartError:
            raise
        except Exception as e:  # noqa: BLE001 - a lost worker or a failed task is its claims' rows
            rows = [asdict(failure_row(t, "error", f"{type(e).__name__} on the cluster: {_first(e)}"))
                    for t in chunk]
        fut.release()
        yield from rows
        submit(1)


def _threads(client: Any) -> int:
    return sum(client.nthreads().values()) or 1


def _first(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [""])[0]


def dask_read(name: str, data: bytes) -> tuple[list[dict[str, Any]], list[ReadProblem], dict[str, int], str]:
    """One records file read on a Dask worker: its claims as tasks, its problems, its read counts and its hash."""
    from claimlaw.engine.faces.audit.claims import AuditReport, iter_tasks

    report = AuditReport()
    digest = [""]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("records" + Path(name).suffix)
        path.write_bytes(data)
        tasks = list(iter_tasks([path], report, on_file=lambda _source, h: digest.__setitem__(0, h)))
    for t in tasks:
        t["source"] = name
        t["case"]["source"] = str(t["case"].get("source") or "").replace(str(path), name)
    problems = [replace(p, source=name) for p in report.problems]
    counts = {k: getattr(report.read, k) for k in _COUNTS}
    return tasks, problems, counts, digest[0]


_COUNTS = ("files", "boards", "claims", "played_out", "not_played", "unfinished", "compared")


def _file_bytes(path: Path) -> bytes:
    """A records file's bytes, refused as the local reader refuses it (a FIFO, a device, over the limit)."""
    from claimlaw.engine.readers.records.source import byte_chunks, open_records

    with open_records(path) as f:
        return b"".join(byte_chunks(f))


def iter_tasks_dask(client: Any, paths: Iterable[str | os.PathLike[str]], report: Any,
                    limit: int | None = None,
                    on_file: Callable[[str, str], None] | None = None) -> Iterator[dict[str, Any]]:
    """``engine.faces.audit.claims.iter_tasks`` with the reading done on the cluster, a few files ahead.

    The client only reads each file's bytes and sends them: parsing and validating the records
    (milliseconds a claim) would otherwise cap a cluster at what one client core reads.
    """
    from claimlaw.engine.readers.records.common import RecordError
    from claimlaw.facts.reading import ReadError

    files = iter(record_files(paths))
    ahead: deque[tuple[Path, Any]] = deque()

    def submit_next() -> bool:
        path = next(files, None)
        if path is None:
            return False
        try:
            data = _file_bytes(path)
        except (ReadError, RecordError) as e:
            report.read.files += 1
            report.problems.append(ReadProblem(str(path), None, str(e), "bad-file"))
            return True
        ahead.append((path, client.submit(dask_read, str(path), data, pure=False)))
        return True

    for _ in range(max(4, 2 * _threads(client))):
        if not submit_next():
            break
    seen: set[tuple[str, str, str, int]] = set()
    try:
        while ahead:
            path, fut = ahead.popleft()
            submit_next()
            try:
                tasks, problems, counts, digest = fut.result()
            except Exception as e:  # noqa: BLE001 - a reader that fails is that file's problem
                report.problems.append(ReadProblem(str(path), None, f"the reader failed on the cluster: "
                                                   f"{type(e).__name__}: {_first(e)}", "bad-file"))
                continue
            finally:
                fut.release()
            if digest and on_file is not None:
                on_file(str(path), digest)
            report.problems.extend(problems)
            for k, v in counts.items():
                setattr(report.read, k, getattr(report.read, k) + v)
            for t in tasks:
                key = (t["file_hash"], t["board"], t["room"], t["claim_index"])
                if key in seen:
                    continue
                seen.add(key)
                yield t
                if limit is not None and len(seen) >= limit:
                    return
    finally:
        for _, fut in ahead:
            fut.cancel()


# -- the sandbox process -----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Worker loop: a task per line on stdin, a row per line on the original stdout."""
    args = sys.argv[1:] if argv is None else argv
    mode, budget = args[0], int(args[1])
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="ascii")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the rows
    from claimlaw.engine.faces.audit.claims import _core, settings_record

    _core(budget)
    proto.write(json.dumps({"ready": True, "settings": settings_record(mode, budget)}) + "\n")
    for line in sys.stdin:
        if line.strip():
            proto.write(json.dumps(classify(json.loads(line), mode, budget)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# -- many claims: the audit's driver ---------------------------------------------------


def audit(paths: Iterable[str | os.PathLike[str]], *, mode: str = "full", workers: int | None = None,
          progress: bool = True, limit: int | None = None, budget: int = AUDIT_BUDGET,
          timeout: float | None = DEFAULT_TIMEOUT, out: str | os.PathLike[str] | None = None,
          scheduler: Any = None, batch: int = 1, retry: bool = False, edition: str | None = None,
          packs: Iterable[str] = (), class_of_player: str = DEFAULT_CLASS, hinges: bool = False) -> AuditReport:
    """Audit every claim in ``paths`` (files or directories of LIN/PBN records).

    ``workers`` local processes (default up to 2; 0: in this process, with exceptions still rows but
    no time limit and no protection from a crash — for tests and notebooks), or the Dask cluster at
    ``scheduler`` (an address or a ``distributed`` cluster object; the cluster reads the records
    too; ``batch`` claims per Dask task). ``out`` names a SQLite store: rows stream into it as they finish and claims it
    already holds are not redone (``retry`` redoes its ``error`` and ``timeout`` rows). ``timeout``
    seconds per claim (None: no limit). Each claim is ruled under ``edition`` (default 2017) and ``packs`` with
    its players taken to be of ``class_of_player`` (world class: the players of a vugraph record). ``hinges``: each
    at-risk claim's line names the finding that would make it sound (more rulings per such claim).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


    paths = list(paths)
    settings = settings_record(mode, budget)
    how = ruling_settings(edition, packs, class_of_player, hinges)
    report = AuditReport(mode=mode, settings={**settings, **how})
    t0 = time.perf_counter()
    store = Store(out) if out is not None else None
    stack = ExitStack()
    try:
        run_id = 0
        earlier: dict[Key, AuditRow] = {}
        flushed = 0
        if store is not None:
            store.bind({**settings, **how})
            run_id = store.begin_run(paths=[str(p) for p in paths], where=str(scheduler or "local"),
                                     timeout=timeout)

        def on_file(source: str, digest: str) -> None:
            """A file opened: the store's problems so far written, its rows for this content taken as done."""
            nonlocal flushed
            if store is None:
                return
            store.add_problems(report.problems[flushed:], run_id)
            flushed = len(report.problems)
            held = store.file_read(source, digest, run_id)
            earlier.update({k: r for k, r in held.items() if not (retry and r.verdict in FAILURES)})

        todo = {"n": 0, "read": False}
        if scheduler is not None:
            from distributed import Client

            client = stack.enter_context(Client(scheduler))
            source = iter_tasks_dask(client, paths, report, limit, on_file)
        else:
            source = iter_tasks(paths, report, limit, on_file)

        def to_do() -> Iterator[dict[str, Any]]:
            """The claims not in the store, read while the workers run (rows held are taken as read)."""
            for t in source:
                t["ruling"] = how
                held_row = earlier.get(task_key(t))
                if held_row is not None:
                    report.rows.append(held_row)
                    report.earlier += 1
                    continue
                todo["n"] += 1
                yield t
            todo["read"] = True

        rows: Iterator[dict[str, Any]]
        if scheduler is not None:
            rows = run_dask(to_do(), mode, budget, client, timeout, batch, settings)
        elif workers == 0:
            rows = (classify(t, mode, budget) for t in to_do())
        else:
            rows = run_local(to_do(), mode, budget, workers or min(2, os.cpu_count() or 1), timeout, settings)
        stack.callback(getattr(rows, "close", lambda: None))  # on Ctrl-C too: workers stopped now, not at exit
        with Progress(TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      disable=not progress, transient=False) as bar:
            job = bar.add_task("claims", total=None)
            for data in rows:
                row = AuditRow(**data)
                report.rows.append(row)
                if store is not None:
                    store.add(row, run_id)
                bar.update(job, advance=1, total=todo["n"] if todo["read"] else None)
        if store is not None:
            store.add_problems(report.problems[flushed:], run_id)
            store.end_run(run_id, len(report.rows) - report.earlier)
            report.replaced = store.replaced
    finally:
        stack.close()
        if store is not None:
            store.close()
    report.seconds = time.perf_counter() - t0
    report.rows.sort(key=lambda r: (r.source, r.board, r.room, r.claim_index))
    return report
