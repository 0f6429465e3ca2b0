"""What a ruling worker runs in the server tests, in place of a ruling: each misbehaves as a search can.

They run in the worker process (the server passes them to ``create_app(job=...)``), so they must be importable
module-level functions.
"""

from __future__ import annotations

import os
import pickle
import signal
import time
from typing import Any

from claimlaw.engine.faces.web.rulings import Stopper


class SpinningCore:
    """A play core whose search runs until its cancel token is set, polling it as a long search does, then keeps
    what it found."""

    def __init__(self) -> None:
        self.stopped = False
        self.on_positions: Any = None
        self.on_question: Any = None

    def stop(self) -> None:
        self.stopped = True

    def worst_normal(self) -> str:
        self.on_question("worst_normal")
        while not self.stopped:
            sum(range(1000))
        self.on_question("")
        return "the best line found"

    def double_dummy(self) -> str:
        self.on_question("double_dummy")
        self.on_question("")
        return "no budget" if self.stopped else "searched"


def spin_until_stopped(data: Any, budget: int | None, stopper: Stopper) -> dict[str, Any]:
    """One long search, then one more question: the stop ends the first, the second gets no budget."""
    core = stopper.attach(SpinningCore())
    first = core.worst_normal()
    return {"ruling": {"first": first, "then": core.double_dummy(), "pid": os.getpid()}}


def deaf(data: Any, budget: int | None, stopper: Stopper) -> dict[str, Any]:
    """A search that never hears the stop (as one deep in native code): its worker must be killed."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    while True:
        time.sleep(0.05)


def broken(data: Any, budget: int | None, stopper: Stopper) -> dict[str, Any]:
    """A ruling that fails with a message naming a file of the server's."""
    raise ValueError("no luck reading /etc/claimlaw/secret.yaml")


def crash(data: Any, budget: int | None, stopper: Stopper) -> dict[str, Any]:
    """A worker that dies in the middle of a ruling (as a crash in native code would)."""
    os._exit(3)


def pid(data: Any, budget: int | None, stopper: Stopper) -> dict[str, Any]:
    """The worker's process id: which process ruled."""
    time.sleep(float(data.get("title") or 0) if str(data.get("title") or "").replace(".", "").isdigit() else 0)
    return {"ruling": {"pid": os.getpid()}}


def handed_on(data: Any, budget: int | None, stopper: Stopper) -> dict[str, Any]:
    """How many trick answers the server handed this worker, and one answer of its own to hand on in turn (pickled,
    as ``run_ruling`` hands them: the server keeps the bytes without reading them)."""
    handed = len(pickle.loads(stopper.seed)) if stopper.seed else 0
    return {"ruling": {"handed": handed}, "answers": pickle.dumps({("a question", data.get("title")): "its answer"})}
