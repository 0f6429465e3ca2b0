"""Rulings for the web page, each run in a worker process, under limits a club's server can keep.

The server process never searches. Each ruling goes to a worker process (started with ``spawn``, so nothing of
the server's threads is copied), at most ``workers`` at once; rulings beyond those wait in a queue of at most
``queue``, and one client address may have at most ``per_client`` rulings running or waiting (the next is
refused with a message, HTTP 429). A ruling that passes its time limit or its memory limit, or that the page
stops, is stopped the way Ctrl-C stops ``claimlaw rule``: the search keeps the best line it found and the ruling
comes back marked not proven. A worker that does not come back within ``grace`` seconds is killed, and the page
gets one line saying so. A ruling nobody has asked about for ``abandon_after`` seconds (the page polls every
second or so: the tab was closed) is killed at once. The server keeps only each finished ruling's JSON; the
worker's search tables go with the ruling (a worker that grew is replaced).

After the ruling, the worker rules the case again under each answer to the findings it may hinge on
(engine/hinges.py; the page gets the ruling first, then the hinges). Every trick answer those rulings settled comes
back with the result and the server keeps it with the ruling (bounded), never sending it to the page. The page's
"answer" asks for the case with one finding set ``after`` that ruling: the server hands its answers to the worker,
whichever it is, so a count already known is not searched again.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import multiprocessing
import os
import pickle
import signal
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from claimlaw.engine.faces.web.views import no_paths, read_case, ruling_json, view_extras

QUESTIONS = ("double_dummy", "worst_normal", "cannot_lose", "can_make")
ANSWERS_BYTES = 4_000_000  # the settled trick answers a ruling hands on to its page's "answer", pickled, at most
ANSWERS_KEPT = 16  # the newest finished rulings whose answers the server keeps (older ones keep only their JSON)


@dataclass(frozen=True)
class Limits:
    """What one server gives its clients (``claimlaw serve`` options; docs/server.md)."""

    workers: int = 6            # rulings searching at once, each in its own process
    queue: int = 16             # rulings waiting for a worker; one more is refused (429)
    per_client: int = 2         # rulings running or waiting for one client address
    time_limit: float = 60.0    # seconds a ruling searches before it is stopped and ruled on what it found
    memory_mb: int = 2048       # resident memory of a worker past which its ruling is stopped the same way
    grace: float = 10.0         # seconds a stopped search has to come back before its worker is killed
    abandon_after: float = 30.0  # a ruling nobody polled for this long is killed (the page polls every second)
    keep: int = 64              # finished rulings kept (their JSON only) for their pages to fetch
    warm: int = 1               # workers kept ready beyond those searching, so a ruling need not wait for one
    idle_exit: float = 300.0    # seconds an idle worker beyond the warm ones stays

    def check(self) -> None:
        """A one-line error naming the first limit out of range."""
        for name, low in (("workers", 1), ("queue", 1), ("per_client", 1), ("time_limit", 1), ("memory_mb", 200),
                          ("grace", 0), ("abandon_after", 1), ("keep", 1), ("warm", 0), ("idle_exit", 0)):
            if getattr(self, name) < low:
                raise ValueError(f"{name.replace('_', '-')}: {getattr(self, name)} is below {low}")
        if self.warm > self.workers:
            raise ValueError(f"warm: {self.warm} is more than workers ({self.workers})")


class Busy(Exception):  # noqa: N818 - a refusal, said to the client as it is
    """The server refuses a new ruling now (a full queue, or the client's own rulings); HTTP 429."""


@dataclass
class Job:
    """One ruling asked for by the page. Only the server process holds it; the case goes to a worker."""

    id: str
    client: str
    data: Any
    budget: int | None
    state: str = "queued"  # queued, running, done, failed, stopped
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    last_seen: float = field(default_factory=time.monotonic)
    result: dict[str, Any] | None = None
    message: str = ""
    questions: int = 0
    searching: str = ""
    positions: int = 0  # positions searched so far, as the worker last told (every half second at most)
    stop: str = ""  # why it was stopped: "you" (the page's Stop), "time", "memory", "gone"
    phase: str = ""  # "hinges" once the ruling is in and the worker rules the variants
    seed: bytes | None = None  # trick answers of the ruling this one follows (the page's "answer"), for the worker
    # the trick answers this ruling's worker settled, pickled: the server never unpickles them (that would load the
    # play core, and its tables, into the server process); never in ``status``
    answers: bytes | None = None

    def status(self) -> dict[str, Any]:
        """What the page polls: state, seconds, questions answered, and the ruling once there is one."""
        end = self.finished if self.finished is not None else time.monotonic()
        out: dict[str, Any] = {"id": self.id, "state": self.state,
                               "seconds": round(end - (self.started or self.created), 1),
                               "questions": self.questions, "searching": self.searching,
                               "positions": self.positions,
                               "stopped": bool(self.stop), "stopped_by": self.stop}
        if self.phase and self.state == "running":
            out["phase"] = self.phase
        if self.message:
            out["message"] = self.message
        if self.result is not None:
            out.update(self.result)
        return out


# -- the worker process ----------------------------------------------------------------------------------


class Stopper:
    """The worker's side of a stop. The server writes the ruling's number into ``stop_seq`` and sends SIGINT; the
    handler sets the cancel token of the ruling's play core (``PlayCore.stop``): the search under way ends at its next
    poll with its best line, marked unproven (as Ctrl-C does in ``claimlaw rule``), and every later question gets no
    budget. The handler raises nothing. A signal meant for an earlier ruling, or the terminal's Ctrl-C, finds another
    number there and is ignored."""

    def __init__(self, stop_seq: Any, send: Callable[[tuple[Any, ...]], None]) -> None:
        self.stop_seq = stop_seq
        self.send = send
        self.seq = 0
        self.requested = False
        self.cores: list[Any] = []
        self.questions = 0
        self.told = 0.0  # when the count of positions was last sent
        self.seed: bytes | None = None  # trick answers handed on from the ruling this one follows (pickled)

    def begin(self, seq: int, seed: bytes | None = None) -> None:
        self.seq, self.requested, self.cores, self.questions = seq, False, [], 0
        self.told, self.seed = 0.0, seed

    def partial(self, result: dict[str, Any]) -> None:
        """Send the ruling to the server before the job's slower rest (the hinges): the page shows it at once."""
        self.send(("partial", result))

    def positions(self, n: int) -> None:
        """The search's running count of positions, sent to the server at most every half second."""
        now = time.monotonic()
        if now - self.told >= 0.5:
            self.told = now
            self.send(("positions", n))

    def question(self, name: str) -> None:
        """A question starts (its name) or is answered (""): the server shows which, and how many are done."""
        if not name:
            self.questions += 1
        self.send(("progress", self.questions, name))

    def on_signal(self, signum: int, frame: Any) -> None:
        if self.stop_seq.value != self.seq or self.seq == 0:
            return
        self.requested = True
        for core in self.cores:
            core.stop()

    def attach(self, core: Any) -> Any:
        """``core`` with this ruling's stop and progress: its cancel token set by a stop, its questions and positions
        told to the server. The same core is given back, for ``rule(case, play=...)``."""
        self.cores.append(core)
        core.on_positions = self.positions
        core.on_question = self.question
        if self.requested:
            core.stop()
        return core


def run_ruling(data: Any, budget: int | None, stopper: Stopper) -> dict[str, Any]:
    """A ruling on the posted case, as the page shows it (the worker's job), with a play core of its own (its tables
    go with the ruling), then what it hinges on. A stop during the search gives the best line found, marked unproven,
    and every later question gets no budget; a stop before the hinges leaves them out (``hinges`` None), one during
    them leaves those not yet ruled unsettled.

    The trick answers handed on in ``stopper.seed`` answer the questions they cover with no search; the result's
    ``answers`` are those settled here (with the seed's), for the server to hand on in turn."""
    from claimlaw.engine.api import play_core, rule
    from claimlaw.engine.hinges import SECONDS as HINGE_SECONDS
    from claimlaw.engine.hinges import STOP_SECONDS as HINGE_STOP
    from claimlaw.engine.hinges import hinges

    case = read_case(data)
    answers: dict[Any, Any] = pickle.loads(stopper.seed) if stopper.seed else {}  # our own worker's bytes
    handed = len(answers)
    t0 = time.perf_counter()
    core = stopper.attach(play_core(budget, fresh=True))
    ruling = rule(case, play=core, answers=answers)
    # how long the ruling took, and how many trick questions it searched (not answered from an earlier ruling's)
    ruled = {"seconds": round(time.perf_counter() - t0, 3), "searched": len(answers) - handed, "handed_on": handed}
    out: dict[str, Any] = {"ruling": ruling_json(case, ruling), "view": view_extras(case, ruling), "hinges": None,
                           "ruled": ruled}
    if not stopper.requested:
        stopper.partial(out)
        # a stop during the hinges (the page's, or the time limit) leaves the later ones unsettled, as listed
        report = hinges(case, ruling, seconds=HINGE_SECONDS, stop_after=HINGE_STOP, core=core, rule_fn=lambda v: rule(
            v, edition=ruling.edition, play=core, answers=answers))  # the case's own packs, as the ruling
        out["hinges"] = report.model_dump(mode="json")
    out["answers"] = settled(answers)
    return out


def settled(answers: dict[Any, Any]) -> bytes | None:
    """The answers a search settled (a stopped or budgeted one is asked again), pickled, or None past
    ANSWERS_BYTES. Bytes, so the server keeps and hands them on without loading the play core to read them."""
    kept = {k: a for k, a in answers.items() if a.proven}
    try:
        out = pickle.dumps(kept)
        return out if len(out) <= ANSWERS_BYTES else None
    except (pickle.PicklingError, TypeError, AttributeError):  # pragma: no cover - every answer is plain data
        return None


def _failure(e: BaseException) -> str:
    """One line for a ruling that failed, never a traceback nor a path of the server's."""
    from claimlaw.engine.api import InvariantError
    from claimlaw.engine.host import RuleError
    from claimlaw.engine.packs import PackError
    from claimlaw.facts import CaseError

    if isinstance(e, CaseError | PackError | InvariantError):
        text = str(e)
    elif isinstance(e, RuleError):
        text = f"a rule failed: {e}"
    elif isinstance(e, MemoryError):
        text = "the ruling ran out of memory"
    else:
        text = f"internal error ({type(e).__name__}); please report this case"
    return no_paths(" ".join(text.split()))[:300]


def worker_main(conn: Connection, stop_seq: Any, job: Callable[[Any, int | None, Stopper], dict[str, Any]],
                parent: int) -> None:
    """A worker process: warm up, then run one ruling after another as the server sends them."""

    def send(msg: tuple[Any, ...]) -> None:
        conn.send(msg)

    stopper = Stopper(stop_seq, send)
    signal.signal(signal.SIGINT, stopper.on_signal)

    def watch_parent() -> None:  # a server killed outright leaves no worker searching on
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True, name="claimlaw-watch-server").start()
    if job is run_ruling:  # the rules compiled and the play core loaded before the first ruling
        import claimlaw.engine.hinges  # noqa: F401
        from claimlaw.engine.api import program_for
        from claimlaw.engine.play import PlayCore  # noqa: F401 - loads the solvers (engine.play loads them lazily)

        program_for("2017", [])
    send(("ready",))
    while True:
        try:
            seq, data, budget, seed = conn.recv()
        except (EOFError, OSError):
            return
        stopper.begin(seq, seed)
        try:
            reply: dict[str, Any] = {"state": "done", "result": job(data, budget, stopper)}
        except BaseException as e:  # noqa: BLE001 - the page gets one line, never a traceback
            if isinstance(e, SystemExit | GeneratorExit):
                raise
            reply = {"state": "failed", "message": _failure(e)}
        stopper.begin(0)
        send(("result", reply))


# -- the server's side -----------------------------------------------------------------------------------


def _rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (0 where /proc cannot tell)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


class Worker:
    """One worker process and the pipe to it."""

    def __init__(self, ctx: Any, job: Callable[..., dict[str, Any]]) -> None:
        self.conn, child = ctx.Pipe()
        self.stop_seq = ctx.RawValue("q", 0)
        self.proc = ctx.Process(target=worker_main, args=(child, self.stop_seq, job, os.getpid()),
                                name="claimlaw-ruling", daemon=True)
        self.proc.start()
        child.close()
        self.ready = False
        self.baseline = 0.0
        self.last_used = time.monotonic()

    def wait_ready(self, until: float) -> bool:
        """Wait for the worker's warm-up until ``until`` (monotonic); False if it died or took too long."""
        while not self.ready and time.monotonic() < until:
            try:
                if self.conn.poll(0.2):
                    msg = self.conn.recv()
                    self.ready = msg[0] == "ready"
                    self.baseline = _rss_mb(self.proc.pid or 0)
            except (EOFError, OSError):
                return False
            if not self.proc.is_alive():
                return False
        return self.ready

    def soft_stop(self, seq: int) -> None:
        self.stop_seq.value = seq
        with contextlib.suppress(OSError):
            os.kill(self.proc.pid or 0, signal.SIGINT)

    def rss_mb(self) -> float:
        return _rss_mb(self.proc.pid or 0)

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.kill()
            self.proc.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()


_STOPPED = {
    "you": "stopped before the search had found any line to rule on",
    "time": "the time limit of {t:g} s passed before the search had found any line to rule on",
    "memory": "the memory limit of {m} MB was reached before the search had found any line to rule on",
    "gone": "stopped: nobody asked for this ruling for {a:g} s (the page was closed)",
}


class Rulings:
    """The queue, the worker processes and the rulings the page polls."""

    def __init__(self, limits: Limits | None = None,
                 job: Callable[[Any, int | None, Stopper], dict[str, Any]] = run_ruling) -> None:
        self.limits = limits or Limits()
        self.limits.check()
        self.job = job
        self.jobs: collections.OrderedDict[str, Job] = collections.OrderedDict()
        self.queue: collections.deque[Job] = collections.deque()
        self._cond = threading.Condition()
        self._closing = False
        self._ctx = multiprocessing.get_context("spawn")
        self._seq = itertools.count(1)
        self._workers: set[Worker] = set()
        self._threads: list[threading.Thread] = []
        self._idle = 0  # slots with a ready worker and nothing to do
        self._spares = 0  # slots starting a worker to keep ready

    def open(self) -> None:
        """Start the worker slots (and the warm workers)."""
        if self._threads:
            return
        for i in range(self.limits.workers):
            t = threading.Thread(target=self._slot, args=(i,), daemon=True, name=f"claimlaw-slot-{i}")
            t.start()
            self._threads.append(t)

    def start(self, data: Any, budget: int | None, client: str, after: str | None = None) -> Job:
        """Queue a ruling for ``client``; :class:`Busy` when the queue or the client's share is full. ``after``: the
        client's earlier ruling this one varies (the page's "answer"): its worker's trick answers go along."""
        lim = self.limits
        with self._cond:
            self._sweep()
            mine = sum(1 for j in self.jobs.values() if j.client == client and j.state in ("queued", "running"))
            if mine >= lim.per_client:
                raise Busy(f"you already have {mine} ruling(s) running or waiting (at most {lim.per_client} per "
                           "client): wait for one to finish, or stop it")
            active = sum(1 for j in self.jobs.values() if j.state in ("queued", "running"))
            if active >= lim.workers + lim.queue:
                raise Busy(f"the server is busy: {lim.workers} rulings are searching and {lim.queue} waiting; try "
                           "again in a minute")
            job = Job(uuid.uuid4().hex, client, data, budget)
            earlier = self.jobs.get(after or "")
            if earlier is not None and earlier.client == client:  # only one's own rulings' answers
                job.seed = earlier.answers
            self.jobs[job.id] = job
            self.queue.append(job)
            self._cond.notify_all()
        if not self._threads:
            self.open()
        return job

    def get(self, job_id: str) -> Job | None:
        """The ruling (and a sign that someone still waits for it)."""
        with self._cond:
            job = self.jobs.get(job_id)
            if job is not None:
                job.last_seen = time.monotonic()
            return job

    def stop(self, job: Job, why: str = "you") -> None:
        """Stop a ruling: one still waiting never starts; one searching is ruled on what it found."""
        with self._cond:
            if job.state == "queued":
                self.queue.remove(job)
                self._finish(job, "stopped", "stopped before it started")
                job.stop = why
            elif job.state == "running" and not job.stop:
                job.stop = why
            self._cond.notify_all()

    def shutdown(self) -> None:
        """Kill every worker and drop the queue (the server is stopping)."""
        with self._cond:
            self._closing = True
            for job in self.queue:
                self._finish(job, "stopped", "the server stopped")
            self.queue.clear()
            workers = list(self._workers)
            self._cond.notify_all()
        for w in workers:
            w.kill()

    def counts(self) -> dict[str, int]:
        """Rulings running and waiting, and live worker processes (for tests and the docs' figures)."""
        with self._cond:
            return {"running": sum(1 for j in self.jobs.values() if j.state == "running"),
                    "queued": len(self.queue), "workers": sum(1 for w in self._workers if w.proc.is_alive())}

    # -- under the lock --
    def _finish(self, job: Job, state: str, message: str = "") -> None:
        job.state, job.message, job.finished, job.searching, job.data = state, message, time.monotonic(), "", None
        job.seed, job.phase = None, ""

    def _sweep(self) -> None:
        """Drop waiting rulings nobody polls any more, and finished ones beyond ``keep``."""
        now = time.monotonic()
        for job in [j for j in self.queue if now - j.last_seen > self.limits.abandon_after]:
            self.queue.remove(job)
            self._finish(job, "stopped", _STOPPED["gone"].format(a=self.limits.abandon_after))
            job.stop = "gone"
        done = [k for k, j in self.jobs.items() if j.state not in ("queued", "running")]
        for k in done[: max(0, len(done) - self.limits.keep)]:
            del self.jobs[k]
        for k in done[: max(0, len(done) - ANSWERS_KEPT)]:
            if k in self.jobs:
                self.jobs[k].answers = None

    def _next(self) -> Job:
        """The waiting ruling to run next: first come, first served among the clients with the fewest rulings
        searching (a client's second ruling waits behind another client's first)."""
        searching = collections.Counter(j.client for j in self.jobs.values() if j.state == "running")
        job = min(self.queue, key=lambda j: searching[j.client])
        self.queue.remove(job)
        return job

    # -- one slot: one worker process at a time --
    def _slot(self, index: int) -> None:
        """One worker slot. ``warm`` workers are kept ready beyond those searching (started ahead, while there
        are free slots), so a ruling seldom waits for a process to start; an idle worker past them leaves
        after ``idle_exit`` seconds."""
        worker: Worker | None = None
        while True:
            with self._cond:
                job = None
                spare = False  # this slot starts a worker to keep ready
                idle = False  # counted among the slots whose worker is ready and waiting
                while not self._closing:
                    self._sweep()
                    ready = self._idle + self._spares
                    # a slot without a worker takes a ruling only when no ready worker is free for it
                    if self.queue and (worker is not None or len(self.queue) > self._idle):
                        job = self._next()
                        job.state, job.started = "running", time.monotonic()
                        break
                    if worker is None and ready < self.limits.warm:
                        spare = True
                        self._spares += 1
                        break
                    if (worker is not None and self._idle > self.limits.warm
                            and time.monotonic() - worker.last_used > self.limits.idle_exit):
                        self._workers.discard(worker)
                        worker.kill()
                        worker = None
                    if (worker is not None) != idle:
                        idle = worker is not None
                        self._idle += 1 if idle else -1
                    self._cond.wait(timeout=1.0)
                if idle:
                    self._idle -= 1
                if self._closing:
                    if spare:
                        self._spares -= 1
                    break
            if worker is not None and not worker.proc.is_alive():
                self._drop(worker)
                worker = None
            if worker is None:
                worker = self._spawn()
                started = worker.wait_ready(time.monotonic() + 120)
                if spare:
                    with self._cond:
                        self._spares -= 1
                        self._cond.notify_all()
                if not started:
                    self._drop(worker)
                    worker = None
                    if job is not None:
                        with self._cond:
                            self._finish(job, "failed", "the ruling's worker process did not start")
                    else:
                        time.sleep(1.0)  # a worker that cannot start: do not spin
                    continue
            if job is not None:
                worker = self._run(worker, job)

        if worker is not None:
            self._drop(worker)

    def _spawn(self) -> Worker:
        w = Worker(self._ctx, self.job)
        with self._cond:
            self._workers.add(w)
            if self._closing:
                w.kill()
        return w

    def _drop(self, worker: Worker) -> None:
        with self._cond:
            self._workers.discard(worker)
        worker.kill()

    def _run(self, worker: Worker, job: Job) -> Worker | None:
        """Run ``job`` on ``worker`` to its end; the worker to keep, or None when it was killed."""
        lim = self.limits
        seq = next(self._seq)
        try:
            with self._cond:
                data, budget, seed = job.data, job.budget, job.seed
            worker.conn.send((seq, data, budget, seed))
        except (OSError, ValueError):
            with self._cond:
                self._finish(job, "failed", "the ruling's worker process ended unexpectedly")
            self._drop(worker)
            return None
        begun = time.monotonic()
        stop_sent: float | None = None
        while True:
            try:
                msg = worker.conn.recv() if worker.conn.poll(0.1) else None
            except (EOFError, OSError):
                msg = None
                worker.proc.join(1)
            if msg is not None and msg[0] == "progress":
                job.questions, job.searching = msg[1], msg[2]
            elif msg is not None and msg[0] == "positions":
                job.positions = msg[1]
            elif msg is not None and msg[0] == "partial":
                with self._cond:
                    job.result, job.phase = msg[1], "hinges"
            elif msg is not None and msg[0] == "result":
                reply = msg[1]
                with self._cond:
                    job.result = reply.get("result")
                    if isinstance(job.result, dict):
                        job.answers = job.result.pop("answers", None)
                    self._finish(job, reply["state"], self._stop_message(job.stop) if reply["state"] == "stopped"
                                 else reply.get("message", ""))
                worker.last_used = time.monotonic()
                if worker.rss_mb() > worker.baseline + 256:  # a search grew it: a fresh worker instead
                    self._drop(worker)
                    return None
                return worker
            if not worker.proc.is_alive():
                with self._cond:
                    self._finish(job, "stopped" if job.stop else "failed",
                                 self._stop_message(job.stop) if job.stop else
                                 f"the ruling's worker process ended unexpectedly (exit {worker.proc.exitcode})")
                self._drop(worker)
                return None
            now = time.monotonic()
            with self._cond:
                if not job.stop:
                    if now - job.last_seen > lim.abandon_after:
                        job.stop = "gone"
                    elif now - begun > lim.time_limit:
                        job.stop = "time"
                    elif worker.rss_mb() > lim.memory_mb:
                        job.stop = "memory"
                why = job.stop
                closing = self._closing
            if closing or why == "gone":  # nobody waits for the line: no grace
                with self._cond:
                    self._finish(job, "stopped", "the server stopped" if closing else self._stop_message(why))
                self._drop(worker)
                return None
            if why and stop_sent is None:
                stop_sent = now
                worker.soft_stop(seq)
            elif why and stop_sent is not None and now - stop_sent > lim.grace:
                with self._cond:
                    self._finish(job, "stopped", self._stop_message(why))
                self._drop(worker)
                return None

    def _stop_message(self, why: str) -> str:
        lim = self.limits
        return _STOPPED.get(why, _STOPPED["you"]).format(t=lim.time_limit, m=lim.memory_mb, a=lim.abandon_after)
