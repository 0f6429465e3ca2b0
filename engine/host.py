"""The only module that imports durable_rules: compile rules into a private host, run one case.

    program = compile_program(all_rules(), edition="2017", packs=["ebu"])
    result = program.run(facts, context={"case": case, "play": core})
    result.trace, result.conclusions, result.facts, result.notes

What the host does, and the durable_rules 2.0.28 behaviour it is built around (measured on
CPython 3.11, see ``tests/engine/``):

* **Private hosts.** Each compiled (edition, packs, params) gets its own ``durable.engine.Host``
  subclass instance with a no-op ``_run`` (the stock one starts two timer threads that poll every
  ruleset), built from a deep copy of ``ruleset(...).define()`` (Host deletes each rule's ``run``
  key) under a ruleset name unique in the process (durable refuses a name twice). Programs are
  cached per (rules, edition, packs, params): compiling twice returns the same object.
* **Priority.** durable's ``pri`` orders the actions ready at one moment, but compares it as an
  *unsigned 16-bit* number: ``pri(-1)`` fires after ``pri(7)``, and ``pri(65536)`` is ``pri(0)``.
  The host therefore maps each ``Rule.priority`` to its rank among the distinct priorities
  (0, 1, 2, ...), so lower fires first with negative numbers too. Ties fire in the order the
  rules were given, whatever the order of the facts. Actions made ready by a fact an action
  asserts join the same agenda, in priority order (A(1) asserts x: x-rule(3) fires before B(5)).
* **Input facts go in one batch** (``assert_facts``), so priority orders rules across all the
  case's facts; asserted one by one, each fact's rules would fire before the next fact exists.
* **Negation.** ``none(...)`` as the first condition makes a rule that never fires, silently: the
  host puts negations after the positive patterns, and gives an all-negative rule a hidden
  ``__start__`` fact to hang on. durable checks a negation only when the activation is created:
  an action already on the agenda still fires after an earlier action asserts the very fact it
  negates (A(1) asserts ``voided``; ``claim & none(voided)`` at pri 5, queued with A, fires).
  The host re-checks every negated pattern against the session's facts just before running an
  action and skips the stale activation (listed in ``RunResult.skipped``): a negation means "no
  such fact exists when the rule fires". Facts are never retracted, so positive matches stay true.
* **Exceptions to rules** (``Rule.overrides``, Catala style): once a rule fires, the rules it
  overrides do not fire later in the run (``RunResult.suppressed``). Compiling refuses an
  exception ordered after its default (priority, then position); if the default still fires first
  (it became ready earlier), the run raises :class:`RuleError` naming both.
* **Trace.** durable has none: every action is wrapped. Each firing gives a ``TraceStep``: clause,
  edition, rule, reason, source (pack rules: "<pack> pack: <document>"), ``facts`` = the matched
  facts by alias without ids plus ``ctx.record(...)``, ``concluded`` = the ``ctx.conclude`` fields
  plus ``asserted`` (facts the action asserted) and ``notes``.
* **Exceptions** raised in an action are swallowed by durable into ``state['exception']`` and
  later actions still fire. The host's wrapper catches the exception itself, stops running further
  actions, and ``run`` raises :class:`RuleError` naming the rule, chained to the real cause; it
  also checks ``state['exception']`` at every firing and after the assert.
* **Fact identity.** durable identifies a fact by its ``id`` field (no id: by content); asserting
  the same id again raises ``MessageObservedException``. Every fact gets a fresh id; ``id`` and
  ``sid`` are reserved field names. A fact that matches no condition of any rule raises
  ``MessageNotHandledException`` and is not stored; inside a batch it strands the other facts'
  actions (stored, never run). The host adds a catch-all *sink* rule that holds every fact but
  can never fire (its second condition waits for a kind that is never asserted), so every fact
  is accepted; the host keeps its own copy of every fact for the trace and for ``ctx.facts``.
* **Sessions.** At most 1024 live sessions per ruleset (the 1025th raises a bare
  ``MemoryError``). Each run uses a fresh session id and ``delete_state`` s it afterwards, even on
  error: 10,000 runs keep one live session at most and memory flat. ``delete_state`` on a session
  in which no action has ever run aborts the whole process (``free(): invalid pointer``), so a
  hidden rule on the ``__start__`` fact fires last in every session (one extra, empty firing).
* **Action lease.** durable's C engine leases each running action for about five seconds; an action
  that runs longer can lose its conclusions without a word (measured: a play core slowed past ~5 s
  turned an adjusted claim into ``director_rules`` with no tricks). So no action does long work: the
  rules ask trick questions through ``engine/questions.py``, answered outside the session. As a
  guard, an action that runs longer than ``ACTION_GUARD_SECONDS`` fails the run with a RuleError.
* **Threads.** durable is not thread-safe: every compile and run holds one process-wide lock.
* **Matching details.** A field the fact lacks fails every test (``!=`` too); ``== None`` matches
  only an explicit null; ``True == 1``. Facts go through JSON: tuples come back as lists.
* **Cost** (measured, CPython 3.11): about 11 µs per firing inside durable (50 trivial rules on
  one fact); the host's wrapper, negation re-check and TraceStep add about 6.5 µs, so ~18 µs per
  traced firing. A session with one rule and one fact costs ~46 µs end to end (batch assert, the
  hidden start firing, delete_state). The test rule set (4 traced firings) runs in ~0.15 ms per
  case; the Laws' rules (``rules/``, no play core) in ~0.6 ms per example case. Memory over
  100,000 runs: RSS settles ~0.5 MiB above the start within 20,000 runs and stays flat; the
  Python heap grows < 1 KiB per 1,000 runs. ``tests/engine/test_host.py`` prints the numbers.
"""

from __future__ import annotations

import copy
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claimlaw.facts.ruling import TraceStep
from claimlaw.rules.rulebook import (
    RESERVED_FIELDS,
    Composition,
    Edition,
    Op,
    Pack,
    Pattern,
    Rule,
    RulebookError,
    compose_detailed,
    eq,
    explain,
)

# Python 3.13 removed PyEval_CallObject, which durable-rules 2.0.28's C extension calls; built with this alias
# it works unchanged (README, "Python versions"). A build without it fails at import: say how to rebuild.
DURABLE_313_FIX = ("CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject "
                   "pip install --no-cache-dir --force-reinstall durable-rules==2.0.28")
try:
    from durable import engine as _durable
    from durable import lang as _lang
except ImportError as e:
    if e.name != "durable_rules_engine" or "PyEval_CallObject" not in str(e):
        raise
    raise ImportError("durable-rules was built without the alias Python 3.13 needs (PyEval_CallObject is gone); "
                      f"rebuild it: {DURABLE_313_FIX}", name=e.name, path=e.path) from e

START = "__start__"           # the hidden fact every session starts with
_NEVER = "__never__"          # the kind the sink rule waits for; never asserted
_START_ALIAS = "claimlaw_start"
_SEAMS = ("case", "play", "position")  # context attributes that read as None when absent

ACTION_LEASE_SECONDS = 5.0   # durable's C engine leases each running action for this long (durable/engine.py)
ACTION_GUARD_SECONDS = 3.0   # an action that runs longer is an error, never a silent loss of its conclusions
_LOCK = threading.RLock()     # durable is not thread-safe: one lock for the process
_NAMES = itertools.count(1)
_PROGRAMS: dict[tuple[Any, ...], Program] = {}


class RuleError(RuntimeError):
    """A rule's action failed (or durable refused a fact); names the rule and the real cause."""

    def __init__(self, rule: str, message: str, *, clause: str = "", trace: list[TraceStep] | None = None) -> None:
        self.rule = rule
        self.message = message
        self.clause = clause
        self.trace: list[TraceStep] = list(trace or [])
        where = f"{rule} ({clause})" if clause else rule
        super().__init__(f"{where}: {message}")


class FactError(ValueError):
    """A fact handed to the engine is malformed (no kind, reserved field, not JSON)."""


class _DurableHost(_durable.Host):
    """durable's Host without the background timer threads (no timers or events are used)."""

    def _run(self) -> None:
        return None


@dataclass
class RunResult:
    """What one case's session produced."""

    trace: list[TraceStep]                      # one step per fired rule, in firing order
    conclusions: dict[str, Any]                 # ctx.conclude fields merged; last write wins
    history: list[tuple[str, dict[str, Any]]]   # (rule name, fields) for every conclude, in order
    facts: list[dict[str, Any]]                 # every fact, input then derived, in order asserted
    notes: list[str]                            # ctx.note texts, first occurrence order
    suppressed: list[tuple[str, str]] = field(default_factory=list)  # (rule, the exception that defeated it)
    skipped: list[str] = field(default_factory=list)  # activations dropped: a negated fact had appeared
    session: str = ""

    @property
    def laws(self) -> list[str]:
        """Clause ids in firing order, first occurrence."""
        return list(dict.fromkeys(s.clause for s in self.trace))


@dataclass
class _Step:
    conclusions: dict[str, Any] = field(default_factory=dict)
    asserted: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)
    cites: list[str] = field(default_factory=list)


class _Run:
    """The state of one case's session."""

    def __init__(self, sid: str, context: Mapping[str, Any]) -> None:
        self.sid = sid
        self.context = dict(context)
        self.ids = itertools.count(1)
        self.facts: list[dict[str, Any]] = []
        self.by_kind: dict[str, list[dict[str, Any]]] = {}
        self.trace: list[TraceStep] = []
        self.conclusions: dict[str, Any] = {}
        self.history: list[tuple[str, dict[str, Any]]] = []
        self.notes: list[str] = []
        self.fired: set[str] = set()
        self.defeated: dict[str, str] = {}
        self.suppressed: list[tuple[str, str]] = []
        self.skipped: list[str] = []
        self.current: Rule | None = None
        self.failure: tuple[Rule | None, BaseException | str] | None = None

    def add(self, f: dict[str, Any]) -> None:
        self.facts.append(f)
        self.by_kind.setdefault(f["kind"], []).append(f)


def _plain(f: Mapping[str, Any]) -> dict[str, Any]:
    """A fact without durable's bookkeeping fields."""
    return {k: v for k, v in f.items() if k not in RESERVED_FIELDS and k != "$s"}


def _checked_fact(kind: Any, fields: Mapping[str, Any], what: str) -> dict[str, Any]:
    if not isinstance(kind, str) or not kind or kind.startswith("__"):
        raise FactError(f"{what}: kind must be a non-empty string not starting with '__', got {kind!r}")
    bad = sorted(RESERVED_FIELDS & set(fields))
    if bad:
        raise FactError(f"{what} {kind!r}: field {bad[0]!r} is reserved for the engine")
    f = {"kind": kind, **{k: v for k, v in fields.items() if k != "kind"}}
    try:
        json.dumps(f)
    except (TypeError, ValueError) as e:
        raise FactError(f"{what} {kind!r}: values must be JSON (str, number, bool, None, list, dict): {e}") from None
    return f


class Ctx:
    """What an action receives: assert facts, conclude, note, record; params and context.

    Context passed to :meth:`Program.run` reads as attributes (``ctx.case``, ``ctx.play``,
    ``ctx.position``; those three are None when not given).
    """

    __slots__ = ("_program", "_run", "_rule", "_step", "_closure", "params")

    def __init__(self, program: Program, run: _Run, rule: Rule, step: _Step, closure: Any) -> None:
        self._program = program
        self._run = run
        self._rule = rule
        self._step = step
        self._closure = closure
        self.params: dict[str, Any] = dict(program._rule_params[rule.name])

    @property
    def edition(self) -> str:
        """The edition's name, e.g. "2017"."""
        return self._program.edition

    @property
    def packs(self) -> tuple[str, ...]:
        """Names of the packs applied, in order."""
        return self._program.packs

    @property
    def rule(self) -> Rule:
        """The rule whose action is running."""
        return self._rule

    @property
    def context(self) -> dict[str, Any]:
        """Everything passed to run() as context."""
        return self._run.context

    def __getattr__(self, name: str) -> Any:
        run = object.__getattribute__(self, "_run")
        if name in run.context:
            return run.context[name]
        if name in _SEAMS:
            return None
        raise AttributeError(f"ctx has no attribute {name!r} (context given: {sorted(run.context)})")

    def assert_fact(self, kind: str, **fields: Any) -> None:
        """Assert a derived fact into the session: later rules can match it."""
        f = _checked_fact(kind, fields, f"rule {self._rule.name}: fact")
        run = self._run
        run.add(f)
        self._step.asserted.append(dict(f))
        self._closure.assert_fact({**f, "id": next(run.ids), "sid": run.sid})

    def conclude(self, **fields: Any) -> None:
        """Set ruling fields (outcome, summary, next_step, tricks, ...); the last write wins."""
        if "asserted" in fields or "notes" in fields:
            raise RulebookError(f"rule {self._rule.name}: 'asserted' and 'notes' are not conclusion fields")
        self._step.conclusions.update(fields)
        self._run.conclusions.update(fields)
        self._run.history.append((self._rule.name, dict(fields)))

    def note(self, text: str) -> None:
        """Add a note to the ruling (once) and to this step."""
        self._step.notes.append(str(text))
        if text not in self._run.notes:
            self._run.notes.append(str(text))

    def record(self, **facts: Any) -> None:
        """Show extra facts this step rested on in its trace."""
        self._step.record.update(facts)

    def cite(self, text: str) -> None:
        """Say, at this step of the trace, which regulation changed it (shown in the default ruling)."""
        if text and text not in self._step.cites:
            self._step.cites.append(str(text))

    def facts(self, kind: str | None = None, **where: Any) -> list[dict[str, Any]]:
        """The session's facts so far (copies), optionally of one kind passing ``where``."""
        run = self._run
        pool = run.facts if kind is None else run.by_kind.get(kind, [])
        if not where:
            return [dict(f) for f in pool]
        tests = [(k, v if isinstance(v, Op) else eq(v)) for k, v in where.items()]
        return [dict(f) for f in pool if all(op.test(k in f, f.get(k)) for k, op in tests)]


def _expr(p: Pattern) -> Any:
    """A durable condition for a pattern: kind equality AND each field test (parenthesised)."""
    e = _lang.value("$m", "kind") == p.kind
    for k, op in p.where:
        f = _lang.value("$m", k)
        v = op.value
        if op.name == "eq":
            t = f == v
        elif op.name == "ne":
            t = f != v
        elif op.name == "lt":
            t = f < v
        elif op.name == "le":
            t = f <= v
        elif op.name == "gt":
            t = f > v
        elif op.name == "ge":
            t = f >= v
        elif op.name == "one_of":
            t = _lang.value("$m", k) == v[0]
            for w in v[1:]:
                t = t | (_lang.value("$m", k) == w)
        else:  # pragma: no cover - Op is validated by the rulebook
            raise RulebookError(f"pattern {p!r}: unknown operator {op.name!r}")
        e = e & t
    return e


class Program:
    """A compiled rule set for one edition and packs: run cases with :meth:`run`."""

    def __init__(self, source_rules: Sequence[Rule], comp: Composition, params: Mapping[str, Any]) -> None:
        self.edition: str = comp.edition.name
        self.packs: tuple[str, ...] = tuple(p.name for p in comp.packs)
        self.pack_objects: tuple[Pack, ...] = comp.packs
        self.rules: list[Rule] = comp.rules
        self.origin = comp.origin
        self.replaced = comp.replaced
        self.neutralised = comp.neutralised
        self.param_pack: dict[str, str] = dict(comp.param_pack)  # parameter -> the pack that set it
        self.param_cite: dict[str, str] = dict(comp.param_cite)  # parameter -> the regulation it cites
        self._source_rules = tuple(source_rules)  # keeps ids in the cache key alive
        self._by_name = {r.name: r for r in self.rules}
        self._check_overrides()
        self.params, self._rule_params = self._merge_params(params, comp.params)
        self.name = f"claimlaw_{next(_NAMES)}_{self.edition}"
        self._sids = itertools.count(1)
        self._active: _Run | None = None
        self._open: set[str] = set()
        self.runs = 0
        self.definition = self._define()
        self._host = _DurableHost({self.name: copy.deepcopy(self.definition)})

    def __repr__(self) -> str:
        return f"Program({self.name!r}, edition={self.edition!r}, packs={self.packs!r}, rules={len(self.rules)})"

    def rule(self, name: str) -> Rule:
        """The rule in force called ``name``."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no rule {name!r} in force in {self!r}") from None

    # -- compile -----------------------------------------------------------------------

    def _check_overrides(self) -> None:
        """An exception must be ready to fire before the rule it overrides."""
        order = {r.name: (r.priority, i) for i, r in enumerate(self.rules)}
        for r in self.rules:
            for o in r.overrides:
                if o in order and order[o] < order[r.name]:
                    raise RulebookError(
                        f"rule {r.name!r} overrides {o!r} but would fire after it "
                        f"(priority {r.priority} vs {self._by_name[o].priority}); give it a lower priority")

    def _merge_params(self, given: Mapping[str, Any], packs: Mapping[str, Any]
                      ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        defaults: dict[str, Any] = {}
        owner: dict[str, str] = {}
        for r in self.rules:
            for k, v in r.params.items():
                if k in defaults and defaults[k] != v:
                    raise RulebookError(f"rules {owner[k]!r} and {r.name!r} give parameter {k!r} different defaults "
                                        f"({defaults[k]!r}, {v!r})")
                defaults[k] = v
                owner.setdefault(k, r.name)
        merged = {**defaults, **given, **packs}
        per_rule = {r.name: {**defaults, **r.params, **given, **packs} for r in self.rules}
        return merged, per_rule

    def _define(self) -> dict[str, Any]:
        ranks = {p: i for i, p in enumerate(sorted({r.priority for r in self.rules}))}
        if len(ranks) > 65535:
            raise RulebookError("more than 65535 distinct priorities (durable's pri is 16-bit)")
        rs = _lang.ruleset(self.name)
        _lang._rulesets.pop(self.name, None)  # lang keeps a global registry; this ruleset is ours alone
        with rs:
            for r in self.rules:
                conds: list[Any] = []
                if ranks[r.priority]:
                    conds.append(_lang.pri(ranks[r.priority]))
                positives = r.positives or (Pattern(START, (), _START_ALIAS, False),)
                for p in positives:
                    conds.append(_lang.avalue(p.alias) << _expr(p))
                for p in r.negations:
                    conds.append(_lang.none(_expr(p)))
                _lang.when_all(*conds)(self._action(r))
            _lang.when_all(_lang.avalue("sink_any") << (_lang.value("$m", "kind") != _NEVER),
                           _lang.avalue("sink_never") << (_lang.value("$m", "kind") == _NEVER))(_sink)
            # durable crashes the process (free(): invalid pointer) deleting a session in which no
            # action ever ran: this rule fires once in every session, last, and does nothing.
            opened = _lang.avalue("opened") << (_lang.value("$m", "kind") == START)
            _lang.when_all(_lang.pri(len(ranks)), opened)(_opened)
        name, definition = rs.define()
        return definition

    def _action(self, rule: Rule) -> Callable[[Any], None]:
        program = self

        def action(c: Any) -> None:  # durable requires exactly one positional parameter
            program._fire(rule, c)

        action.__qualname__ = f"action[{rule.name}]"
        return action

    # -- run -----------------------------------------------------------------------------

    def _fire(self, rule: Rule, c: Any) -> None:
        run = self._active
        if run is None or run.failure is not None:
            return
        state = c.s._d
        if state.get("exception"):
            run.failure = (run.current, str(state["exception"]))
            return
        run.current = rule
        for p in rule.negations:
            if any(p.matches(f) for f in run.by_kind.get(p.kind, ())):
                run.skipped.append(rule.name)
                return
        if rule.name in run.defeated:
            run.suppressed.append((rule.name, run.defeated[rule.name]))
            return
        raw = c._m if isinstance(c._m, dict) else {}
        matched = {a: _plain(f) for a, f in raw.items() if a != _START_ALIAS}
        step = _Step()
        try:
            t0 = time.monotonic()
            rule.then(Ctx(self, run, rule, step, c), {a: dict(f) for a, f in matched.items()})
            took = time.monotonic() - t0
            if took > ACTION_GUARD_SECONDS:
                raise RuleError(rule.name, f"the action ran {took:.1f} s, near durable_rules' {ACTION_LEASE_SECONDS:g}-"
                                "second action lease, past which its conclusions can be lost without a word; the "
                                "ruling is not trusted (long work belongs outside the session: engine/questions.py)",
                                clause=rule.clause)
            for o in rule.overrides:
                if o in run.fired:
                    raise RulebookError(f"overrides {o!r}, which has already fired in this case; "
                                        "order the exception first (priority)")
                run.defeated.setdefault(o, rule.name)
            concluded: dict[str, Any] = dict(step.conclusions)
            if step.asserted:
                concluded["asserted"] = step.asserted
            if step.notes:
                concluded["notes"] = step.notes
            run.trace.append(TraceStep(
                clause=rule.clause, edition=self.edition, rule=rule.name, reason=rule.reason, source=rule.source,
                facts={**matched, **step.record}, concluded=concluded, text_verified=rule.text_verified,
                pack=self.origin.get(rule.name, ""), packs=list(self.packs), cites=list(step.cites)))
            run.fired.add(rule.name)
        except BaseException as e:  # noqa: B036 - durable would swallow it; run() re-raises
            run.failure = (rule, e)

    def run(self, facts: Iterable[Mapping[str, Any]], *, context: Mapping[str, Any] | None = None) -> RunResult:
        """Run one case: assert ``facts`` (each a dict with a ``kind``) and fire the rules.

        Raises :class:`RuleError` when an action fails, :class:`FactError` for a malformed fact.
        """
        prepared = []
        for i, f in enumerate(facts):
            if not isinstance(f, Mapping):
                raise FactError(f"fact #{i}: expected a dict with a 'kind', got {type(f).__name__}")
            prepared.append(_checked_fact(f.get("kind"), f, f"fact #{i}"))
        with _LOCK:
            sid = str(next(self._sids))
            run = _Run(sid, context or {})
            batch: list[dict[str, Any]] = [{"kind": START, "id": 0, "sid": sid}]
            for f in prepared:
                run.add(f)
                batch.append({**f, "id": next(run.ids), "sid": sid})
            previous, self._active = self._active, run
            self._open.add(sid)
            self.runs += 1
            try:
                try:
                    state = self._host.assert_facts(self.name, batch)
                except Exception as e:
                    if run.failure is None:
                        raise RuleError("engine", f"durable_rules refused the facts: {getattr(e, 'message', e)}",
                                        trace=run.trace) from e
                    state = None
                self._raise_failure(run, state)
            finally:
                self._active = previous
                try:
                    self._host.delete_state(self.name, sid)
                    self._open.discard(sid)
                except Exception:  # noqa: BLE001 - no state was created: nothing to delete
                    self._open.discard(sid)
        return RunResult(trace=run.trace, conclusions=run.conclusions, history=run.history,
                         facts=[dict(f) for f in run.facts], notes=run.notes, suppressed=run.suppressed,
                         skipped=run.skipped, session=sid)

    def _raise_failure(self, run: _Run, state: Any) -> None:
        if run.failure is None and isinstance(state, dict) and state.get("exception"):
            run.failure = (run.current, str(state["exception"]))
        if run.failure is None:
            return
        rule, err = run.failure
        name = rule.name if rule else "unknown rule"
        clause = rule.clause if rule else ""
        if isinstance(err, BaseException) and not isinstance(err, Exception):
            raise err  # KeyboardInterrupt, SystemExit, an unanswered trick question: not a rule's fault
        if isinstance(err, RuleError):
            err.trace = list(run.trace)
            raise err
        if isinstance(err, BaseException):
            raise RuleError(name, f"{type(err).__name__}: {err}", clause=clause, trace=run.trace) from err
        raise RuleError(name, err, clause=clause, trace=run.trace)

    def explain(self, rule: str, result: RunResult) -> list[str]:
        """Why the rule called ``rule`` did or did not match the facts of ``result``."""
        return explain(self.rule(rule), result.facts)

    def session_alive(self, sid: str) -> bool:
        """Does durable still hold session ``sid``? (For leak checks.)"""
        with _LOCK:
            try:
                self._host.get_state(self.name, sid)
            except Exception:  # noqa: BLE001 - durable raises a bare error for a deleted session
                return False
            return True

    @property
    def live_sessions(self) -> int:
        """Sessions this program opened and has not deleted."""
        return len(self._open)


def _sink(c: Any) -> None:  # pragma: no cover - its second condition never matches
    return None


def _opened(c: Any) -> None:
    return None


def _pack_key(p: Pack) -> tuple[Any, ...]:
    return (p.name, p.origin, tuple(id(r) for r in p.add), tuple((k, id(v)) for k, v in p.replace.items()),
            tuple(p.neutralise), _freeze(p.params), _freeze(p.cites), tuple(p.overrides))


def _freeze(d: Mapping[str, Any]) -> str:
    return json.dumps(d, sort_keys=True, default=repr)


def compile_program(rules: Sequence[Rule], *, edition: str | Edition, packs: Sequence[str | Pack] = (),
                    params: Mapping[str, Any] | None = None) -> Program:
    """Compile ``rules`` under ``edition`` and ``packs`` (names, paths or Pack objects), cached.

    Parameters an action sees: rule defaults < ``params`` < the packs' params (later packs win).
    """
    from claimlaw.engine.packs import load_pack

    loaded = tuple(p if isinstance(p, Pack) else load_pack(p) for p in packs)
    given = dict(params or {})
    ed = edition.name if isinstance(edition, Edition) else str(edition)
    key = (ed, id(edition) if isinstance(edition, Edition) else None, tuple(_pack_key(p) for p in loaded),
           _freeze(given), tuple(id(r) for r in rules))
    with _LOCK:
        program = _PROGRAMS.get(key)
        if program is None:
            comp = compose_detailed(rules, edition, loaded)
            program = Program(rules, comp, given)
            _PROGRAMS[key] = program
        return program


def compiled_programs() -> list[Program]:
    """Every program compiled in this process (they live as long as the process)."""
    return list(_PROGRAMS.values())


__all__ = ["Ctx", "FactError", "Program", "RuleError", "RunResult", "START", "compile_program", "compiled_programs"]
