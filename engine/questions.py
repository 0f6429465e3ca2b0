"""Trick questions answered outside the rule session, so that no engine time limit can cut one off.

durable_rules gives every action a lease of about five seconds; an action that runs longer can lose its
conclusions without a word (docs/design.md, "Time never changes a ruling"). So the rules never wait for a
search inside an action. They ask the :class:`AnswerBook` the engine passes as ``ctx.play``:

* a question already answered is answered at once, from the book;
* a new one stops the session (:class:`Unanswered`); the engine answers it with the play core, outside any
  action, writes the answer into the book and runs the rules again from the start.

The rules run in about a millisecond, so running them once per question costs nothing next to a search, and
each run sees the same answers in the same order: the ruling depends on the cards, never on the clock.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

QUESTIONS = ("double_dummy", "worst_normal", "cannot_lose", "guess_at_stake", "guess_in_view")


class Unanswered(BaseException):  # noqa: N818 - a signal to the engine, not an error
    """A rule asked a trick question the book has no answer to yet (raised through the session on purpose).

    A BaseException, so that no ``except Exception`` in a rule can swallow it; the host re-raises it as it is.
    """

    def __init__(self, key: tuple[Any, ...], method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        super().__init__(method)
        self.key = key
        self.method = method
        self.args_ = args
        self.kwargs = kwargs


def _model_key(model: Any) -> tuple[Any, ...]:
    """Every field of a normal-play model that can change a count (not its free-form ``extra``)."""
    if model is None:
        return ()
    if not dataclasses.is_dataclass(model):
        return (repr(model),)
    out: list[Any] = [type(model).__name__]
    for f in dataclasses.fields(model):
        if not f.compare:
            continue
        v = getattr(model, f.name)
        if hasattr(v, "model_dump_json"):
            v = v.model_dump_json()
        elif isinstance(v, frozenset | set):
            v = tuple(sorted(map(str, v)))
        out.append((f.name, repr(v)))
    return tuple(out)


def _position_key(pos: Any) -> tuple[Any, ...]:
    """The cards, the trick in progress, who leads, trumps, tricks won and show-outs of a position."""
    return (pos.pbn(), tuple(str(c) for c in pos.trick), str(pos.leader), str(pos.trump),
            tuple(sorted((str(k), v) for k, v in pos.won.items())),
            tuple(sorted((str(s), str(x)) for s, xs in pos.shown_out.items() for x in xs)))


def question_key(method: str, pos: Any, side: Any, *rest: Any, **kwargs: Any) -> tuple[Any, ...]:
    """A key naming one question exactly: the same key is the same question, whoever asks it."""
    extra = tuple(_model_key(r) if dataclasses.is_dataclass(r) else repr(r) for r in rest)
    return (method, _position_key(pos), str(side), extra, tuple(sorted((k, repr(v)) for k, v in kwargs.items())))


@dataclasses.dataclass
class Asked:
    """One question put to the play core and its answer."""

    method: str
    key: tuple[Any, ...]
    answer: Any
    seconds: float = 0.0
    below: int | None = None

    @property
    def proven(self) -> bool:
        """Did the search settle this question (not stopped by its budget or by the user)? A ``below`` question is
        settled by a line under the target, though the count itself is then not the worst."""
        settled = bool(getattr(self.answer, "settled", True))
        return settled if self.below is not None else settled and bool(getattr(self.answer, "exact", True))


class AnswerBook:
    """The play-core seam the rules see as ``ctx.play``: answers from the book, or :class:`Unanswered`."""

    def __init__(self, core: Any, *, verdict_below: int | None = None,
                 shared: dict[tuple[Any, ...], Asked] | None = None) -> None:
        self.core = core
        # ``shared``: answers kept across rulings of variants of one case (engine/hinges.py, the page's "answer"):
        # a question one ruling settled is answered from the book in the next, with no search
        self.asked: dict[tuple[Any, ...], Asked] = {} if shared is None else shared
        self.used: set[tuple[Any, ...]] = set()  # the questions this ruling asked (its proof rests on these)
        # a verdict-only ruling (the audit's): every worst-normal count is asked only as far as the verdict turns on
        # it, "is there a normal line under this many tricks?", and the first such line settles it
        self.verdict_below = verdict_below

    # the rules' questions (the play core's own names) -------------------------------------------------
    def double_dummy(self, pos: Any, side: Any) -> Any:
        return self._lookup("double_dummy", pos, side)

    def worst_normal(self, pos: Any, side: Any, model: Any, below: int | None = None) -> Any:
        if below is None:
            below = self.verdict_below
        return self._lookup("worst_normal", pos, side, model, below=below)

    def cannot_lose(self, pos: Any, side: Any) -> Any:
        return self._lookup("cannot_lose", pos, side)

    def guess_at_stake(self, pos: Any, side: Any, model: Any) -> Any:
        return self._lookup("guess_at_stake", pos, side, model)

    def guess_in_view(self, pos: Any, side: Any, model: Any) -> Any:
        return self._lookup("guess_in_view", pos, side, model)

    def can_make(self, pos: Any, side: Any, n: int) -> bool:
        return self.double_dummy(pos, side).tricks >= n

    def _lookup(self, method: str, pos: Any, side: Any, *rest: Any, **kwargs: Any) -> Any:
        key = question_key(method, pos, side, *rest, **kwargs)
        got = self.asked.get(key)
        if got is None:
            raise Unanswered(key, method, (pos, side, *rest), kwargs)
        self.used.add(key)
        return got.answer

    # the engine's side ----------------------------------------------------------------------------------
    def answer(self, q: Unanswered, clock: Callable[[], float] | None = None) -> Asked:
        """Answer ``q`` with the play core (outside any rule action) and keep the answer."""
        now = clock or time.perf_counter
        t0 = now()
        result = getattr(self.core, q.method)(*q.args_, **q.kwargs)
        if (self.verdict_below is not None and q.method == "worst_normal" and getattr(result, "settled", False)
                and dataclasses.is_dataclass(result)):
            # settled for the verdict: a line under the target decides it (its count is then "at most"), and a
            # proof that none exists decides it the other way
            result = dataclasses.replace(result, exact=True)
        asked = self.asked[q.key] = Asked(q.method, q.key, result, now() - t0, q.kwargs.get("below"))
        return asked

    @property
    def proven(self) -> bool:
        """Was every count the ruling rests on settled by its search?"""
        return all(self.asked[k].proven for k in self.used)


__all__ = ["AnswerBook", "Asked", "QUESTIONS", "Unanswered", "question_key"]
