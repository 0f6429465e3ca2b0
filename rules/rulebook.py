"""The rule vocabulary the ``rules/`` modules write in: patterns, rules, editions and packs.

Pure Python, no durable_rules: ``engine/host.py`` is the only module that turns these objects
into a durable_rules ruleset. A rule is data plus an action::

    Rule(name="68B2.partner_objects", clause="68B2", editions=("2017",),
         reason="A defender's concession his partner objects to at once is not a concession.",
         when=(fact("claim", role="defender", partner_objected=True), no("voided")),
         then=act)

``when`` is a conjunction of fact patterns. A pattern matches one fact of a ``kind`` whose
fields pass every test in ``where``: a literal means equality, or use an :class:`Op`
(``ne``, ``lt``, ``le``, ``gt``, ``ge``, ``one_of``). A field the fact lacks fails every test
(durable_rules semantics; ``== None`` matches only an explicit ``None``). ``True == 1`` as in
Python. ``no(kind, ...)`` is negation: the rule fires only while no such fact exists; the host
puts negations after the positive patterns (durable cannot start with one) and re-checks them
when the rule fires.

An edition is a manifest of the rules in force; a pack adds, replaces or neutralises rules and
sets parameters. :func:`compose` applies both and is what the host compiles.
"""

from __future__ import annotations

import dataclasses
import keyword
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from claimlaw.facts import Case, Position, Side
from claimlaw.facts.case import DEFAULT_EDITION as DEFAULT_EDITION
from claimlaw.facts.case import EDITIONS as KNOWN_EDITIONS

LAWS = "Laws of Duplicate Bridge"
RESERVED_FIELDS = frozenset({"id", "sid"})  # durable_rules' fact identity and session keys

_ALIAS = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_SCALARS = (str, int, float, bool, type(None))


class RulebookError(ValueError):
    """A rule, edition or composition is malformed."""


class PackError(RulebookError):
    """A pack cannot be found, read or applied; the message names the pack."""


# ---------------------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Op:
    """A test on one field: ``eq``, ``ne``, ``lt``, ``le``, ``gt``, ``ge`` or ``one_of``."""

    name: str
    value: Any

    def test(self, present: bool, x: Any) -> bool:
        """Does a field value pass? A missing field fails every test, as in durable_rules."""
        if not present:
            return False
        v = self.value
        try:
            if self.name == "eq":
                return bool(x == v)
            if self.name == "ne":
                return bool(x != v)
            if self.name == "one_of":
                return any(x == w for w in v)
            if self.name == "lt":
                return bool(x < v)
            if self.name == "le":
                return bool(x <= v)
            if self.name == "gt":
                return bool(x > v)
            if self.name == "ge":
                return bool(x >= v)
        except TypeError:
            return False
        raise RulebookError(f"unknown operator {self.name!r}")

    def __repr__(self) -> str:
        if self.name == "one_of":
            return f"one_of({', '.join(repr(v) for v in self.value)})"
        return f"{self.name}({self.value!r})"


def _scalar(v: Any, what: str) -> Any:
    if not isinstance(v, _SCALARS):
        raise RulebookError(f"{what}: {v!r} is not a JSON scalar (str, int, float, bool or None)")
    return v


def _ordered(v: Any, what: str) -> Any:
    if isinstance(v, bool) or not isinstance(v, int | float | str):
        raise RulebookError(f"{what}: {v!r} cannot be ordered (use a number or a string)")
    return v


def eq(v: Any) -> Op:
    """Field equals ``v`` (what a bare literal means)."""
    return Op("eq", _scalar(v, "eq"))


def ne(v: Any) -> Op:
    """Field is present and differs from ``v``."""
    return Op("ne", _scalar(v, "ne"))


def lt(v: Any) -> Op:
    """Field < ``v``."""
    return Op("lt", _ordered(v, "lt"))


def le(v: Any) -> Op:
    """Field <= ``v``."""
    return Op("le", _ordered(v, "le"))


def gt(v: Any) -> Op:
    """Field > ``v``."""
    return Op("gt", _ordered(v, "gt"))


def ge(v: Any) -> Op:
    """Field >= ``v``."""
    return Op("ge", _ordered(v, "ge"))


def one_of(*vals: Any) -> Op:
    """Field equals one of ``vals`` (compiled to an ``$or`` of equalities)."""
    if not vals:
        raise RulebookError("one_of() needs at least one value")
    return Op("one_of", tuple(_scalar(v, "one_of") for v in vals))


@dataclass(frozen=True)
class Pattern:
    """One condition: a fact of ``kind`` whose fields pass ``where``; or, if negated, no such fact."""

    kind: str
    where: tuple[tuple[str, Op], ...]
    alias: str
    negated: bool

    def matches(self, f: Mapping[str, Any]) -> bool:
        """Does the fact ``f`` satisfy this pattern's kind and tests (ignoring negation)?"""
        if f.get("kind") != self.kind:
            return False
        return all(op.test(k in f, f.get(k)) for k, op in self.where)

    def __repr__(self) -> str:
        args = [repr(self.kind)] + [f"{k}={op!r}" for k, op in self.where]
        if self.negated:
            return f"no({', '.join(args)})"
        if self.alias != self.kind:
            args.insert(1, f"alias={self.alias!r}")
        return f"fact({', '.join(args)})"


def _where(kind: str, where: Mapping[str, Any]) -> tuple[tuple[str, Op], ...]:
    if not isinstance(kind, str) or not kind:
        raise RulebookError(f"a pattern needs a non-empty kind, got {kind!r}")
    out: list[tuple[str, Op]] = []
    for k, v in where.items():
        if k in RESERVED_FIELDS or k == "kind":
            raise RulebookError(f"pattern {kind!r}: field {k!r} is reserved")
        out.append((k, v if isinstance(v, Op) else eq(v)))
    return tuple(out)


def fact(kind: str, alias: str | None = None, **where: Any) -> Pattern:
    """A fact of ``kind`` passing ``where``; the action sees it under ``alias`` (default: the kind)."""
    name = alias or kind
    if not _ALIAS.match(name) or keyword.iskeyword(name):
        raise RulebookError(f"pattern {kind!r}: alias {name!r} must be an identifier (give alias=...)")
    return Pattern(kind, _where(kind, where), name, False)


def no(kind: str, **where: Any) -> Pattern:
    """Negation: no fact of ``kind`` passing ``where`` exists when the rule fires."""
    return Pattern(kind, _where(kind, where), f"no_{kind}", True)


# ---------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------


class TrickQuestions(Protocol):
    """The trick questions a rule may ask (the engine answers them: engine/questions.py ``AnswerBook``)."""

    @property
    def proven(self) -> bool: ...
    def double_dummy(self, pos: Position, side: Side) -> Any: ...
    def worst_normal(self, pos: Position, side: Side, model: Any, below: int | None = None) -> Any: ...
    def cannot_lose(self, pos: Position, side: Side) -> Any: ...
    def guess_at_stake(self, pos: Position, side: Side, model: Any) -> Any: ...
    def guess_in_view(self, pos: Position, side: Side, model: Any) -> Any: ...
    def can_make(self, pos: Position, side: Side, n: int) -> bool: ...


class Ctx(Protocol):
    """What an action may do (the host's concrete class is ``engine.host.Ctx``).

    Besides the facts its conditions matched, an action may read three things the engine gives every run, each
    None when absent: the case as filed (``case``), the cards at the claim (``position``) and the trick questions
    (``play``)."""

    edition: str
    packs: tuple[str, ...]
    params: dict[str, Any]
    case: Case | None
    position: Position | None
    play: TrickQuestions | None

    def assert_fact(self, kind: str, **fields: Any) -> None: ...
    def conclude(self, **fields: Any) -> None: ...
    def note(self, text: str) -> None: ...
    def record(self, **facts: Any) -> None: ...
    def cite(self, text: str) -> None: ...
    def facts(self, kind: str | None = None, **where: Any) -> list[dict[str, Any]]: ...


@dataclass(frozen=True, eq=False)
class Rule:
    """One clause (or guideline) as a rule: metadata, conditions and an action.

    Equality and hashing are by identity (the action and ``params`` are not comparable).
    ``priority``: lower fires first among rules ready at the same moment; ties fire in the
    order the rules were given. ``overrides`` names the rules this one is an exception to:
    once it fires, those do not fire in the same run, and the host checks it is ordered first.
    """

    name: str
    clause: str
    editions: tuple[str, ...]
    reason: str
    when: tuple[Pattern, ...]
    then: Callable[[Ctx, dict[str, dict[str, Any]]], None]
    priority: int = 0
    source: str = LAWS
    overrides: tuple[str, ...] = ()
    text_verified: bool = True
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for attr in ("editions", "when", "overrides"):
            v = getattr(self, attr)
            if isinstance(v, str | Pattern):
                v = (v,)
            set_(self, attr, tuple(v))
        where = f"rule {self.name!r}"
        if not isinstance(self.name, str) or not self.name.strip():
            raise RulebookError(f"a rule needs a name, got {self.name!r}")
        if not isinstance(self.clause, str) or not self.clause.strip():
            raise RulebookError(f"{where}: needs a clause id")
        if not self.editions or not all(isinstance(e, str) and e for e in self.editions):
            raise RulebookError(f"{where}: editions must be a non-empty tuple of edition names")
        if not self.when or not all(isinstance(p, Pattern) for p in self.when):
            raise RulebookError(f"{where}: when must be a non-empty tuple of fact()/no() patterns")
        aliases = [p.alias for p in self.when if not p.negated]
        dup = sorted({a for a in aliases if aliases.count(a) > 1})
        if dup:
            raise RulebookError(f"{where}: two patterns share the alias {dup[0]!r}; give alias=...")
        if not callable(self.then):
            raise RulebookError(f"{where}: then must be callable (ctx, facts)")
        if isinstance(self.priority, bool) or not isinstance(self.priority, int):
            raise RulebookError(f"{where}: priority must be an int")
        if not isinstance(self.params, dict):
            raise RulebookError(f"{where}: params must be a dict")
        if self.name in self.overrides:
            raise RulebookError(f"{where}: a rule cannot override itself")

    @property
    def positives(self) -> tuple[Pattern, ...]:
        """The patterns that must match a fact."""
        return tuple(p for p in self.when if not p.negated)

    @property
    def negations(self) -> tuple[Pattern, ...]:
        """The patterns that must match no fact."""
        return tuple(p for p in self.when if p.negated)

    def __repr__(self) -> str:
        return f"Rule({self.name!r}, clause={self.clause!r}, editions={self.editions!r})"


# ---------------------------------------------------------------------------------------
# Editions
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edition:
    """A code of Laws: which rules are in force.

    ``in_force`` is a set of rule names, or a predicate on a rule, or None for the default
    predicate "the edition's name is in ``rule.editions``". ``date`` is the year of the code.
    """

    name: str
    in_force: frozenset[str] | Callable[[Rule], bool] | None = None
    date: str = ""

    def includes(self, rule: Rule) -> bool:
        """Is ``rule`` in force under this edition?"""
        if self.in_force is None:
            return self.name in rule.editions
        if isinstance(self.in_force, frozenset | set):
            return rule.name in self.in_force
        return bool(self.in_force(rule))


EDITIONS: dict[str, Edition] = {name: Edition(name, date=name) for name in KNOWN_EDITIONS}


def get_edition(edition: str | Edition) -> Edition:
    """The :class:`Edition` called ``edition`` (an Edition is returned as is)."""
    if isinstance(edition, Edition):
        return edition
    try:
        return EDITIONS[str(edition)]
    except KeyError:
        raise RulebookError(f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}") from None


# ---------------------------------------------------------------------------------------
# Packs
# ---------------------------------------------------------------------------------------


@dataclass
class Pack:
    """A Regulating Authority's regulations and interpretations, as changes to the rules.

    ``replace`` maps a rule name to its replacement (which is recorded as overriding it);
    ``neutralise`` lists rule names taken out; ``add`` lists new rules; ``params`` override
    the rules' default parameters. Applied in that order: replace, neutralise, add.
    ``cites`` maps a parameter to the regulation that sets it (default: the pack's ``source``);
    ``overrides`` names earlier packs whose parameters and rules this one may change (otherwise
    two packs changing the same thing is an error).
    """

    name: str
    title: str = ""
    source: str = ""
    add: list[Rule] = field(default_factory=list)
    replace: dict[str, Rule] = field(default_factory=dict)
    neutralise: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    origin: str = ""  # where it was loaded from (set by engine.packs)
    cites: dict[str, str] = field(default_factory=dict)
    overrides: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", self.name):
            raise PackError(f"pack name {self.name!r}: use letters, digits, '-', '_' or '.'")
        if not self.title:
            self.title = self.name
        what = f"pack {self.name!r}"
        if not all(isinstance(r, Rule) for r in self.add):
            raise PackError(f"{what}: add must list Rule objects")
        if not all(isinstance(k, str) and isinstance(r, Rule) for k, r in self.replace.items()):
            raise PackError(f"{what}: replace must map rule names to Rule objects")
        if not all(isinstance(n, str) for n in self.neutralise):
            raise PackError(f"{what}: neutralise must list rule names")
        if not isinstance(self.params, dict) or not all(isinstance(k, str) for k in self.params):
            raise PackError(f"{what}: params must map names to values")
        if not isinstance(self.cites, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                        for k, v in self.cites.items()):
            raise PackError(f"{what}: cites must map parameter names to citations")
        if not all(isinstance(n, str) for n in self.overrides):
            raise PackError(f"{what}: overrides must list pack names")
        both = sorted(set(self.replace) & set(self.neutralise))
        if both:
            raise PackError(f"{what}: rule {both[0]!r} is both replaced and neutralised")


def param_cite_of(pack: Pack, name: str) -> str:
    """The regulation a pack cites for parameter ``name``: its own citation, else the pack's document."""
    return pack.cites.get(name) or pack.source or pack.title


def pack_source(pack: Pack, rule: Rule) -> str:
    """The source a pack rule shows in the trace: the pack's name, then the document."""
    doc = rule.source if rule.source and rule.source != LAWS else (pack.source or pack.title)
    return f"{pack.name} pack: {doc}" if doc else f"{pack.name} pack"


@dataclass
class Composition:
    """The rules in force for an edition and packs, and where each change came from."""

    edition: Edition
    packs: tuple[Pack, ...]
    rules: list[Rule]
    origin: dict[str, str]                    # rule name -> pack that added or replaced it
    replaced: dict[str, tuple[str, str]]      # original name -> (pack, replacement name)
    neutralised: dict[str, str]               # rule name -> pack
    params: dict[str, Any]                    # pack parameters merged in pack order
    param_pack: dict[str, str] = field(default_factory=dict)   # parameter -> the pack that set it
    param_cite: dict[str, str] = field(default_factory=dict)   # parameter -> the regulation it cites


def _check_unique(rules: Iterable[Rule]) -> dict[str, Rule]:
    by_name: dict[str, Rule] = {}
    for r in rules:
        if not isinstance(r, Rule):
            raise RulebookError(f"not a Rule: {r!r}")
        if r.name in by_name:
            raise RulebookError(f"two rules are named {r.name!r}")
        by_name[r.name] = r
    return by_name


def compose_detailed(rules: Sequence[Rule], edition: str | Edition, packs: Sequence[Pack] = ()) -> Composition:
    """Filter ``rules`` by edition, then apply ``packs`` in order; say where each change came from.

    A pack naming a rule that exists in no edition is an error naming the pack and the rule; a
    rule that exists but is not in force in this edition is left alone. A replacement is in force
    where the rule it replaces is, and also needs the edition in its own ``editions``.
    """
    ed = get_edition(edition)
    known = _check_unique(rules)
    current: list[Rule] = [r for r in rules if ed.includes(r)]
    origin: dict[str, str] = {}
    replaced: dict[str, tuple[str, str]] = {}
    neutralised: dict[str, str] = {}
    params: dict[str, Any] = {}
    param_pack: dict[str, str] = {}
    param_cite: dict[str, str] = {}
    renamed: dict[str, str] = {}  # a replaced rule's old name -> its current name
    touched: dict[str, str] = {}  # a rule name (old or new) -> the pack that last changed it

    def locate(pack: Pack, name: str, verb: str) -> int | None:
        if name not in known:
            hint = _near(name, known)
            raise PackError(f"pack {pack.name!r}: cannot {verb} unknown rule {name!r}{hint}")
        name = current_name(name)
        for i, r in enumerate(current):
            if r.name == name:
                return i
        return None  # known, not in force under this edition (or already neutralised)

    def current_name(name: str) -> str:
        seen = {name}
        while name in renamed:
            name = renamed[name]
            if name in seen:
                break
            seen.add(name)
        return name

    def conflict(pack: Pack, name: str, what: str) -> None:
        earlier = touched.get(name) or touched.get(current_name(name))
        if earlier and earlier != pack.name and earlier not in pack.overrides:
            raise PackError(f"pack {pack.name!r}: {what}, which pack {earlier!r} already changed; packs may not "
                            f"disagree silently (give the later pack overrides: [{earlier}])")

    for pack in packs:
        if not isinstance(pack, Pack):
            raise PackError(f"not a Pack: {pack!r}")
        for old, new in pack.replace.items():
            i = locate(pack, old, "replace")
            conflict(pack, old, f"replaces rule {old!r}")
            if i is None or not ed.includes(new):
                continue
            if new.name != current[i].name and new.name in known:
                raise PackError(f"pack {pack.name!r}: replacement for {old!r} reuses the name {new.name!r}")
            overrides = new.overrides if old in new.overrides else (*new.overrides, old)
            if current[i].name != old and current[i].name not in overrides:
                overrides = (*overrides, current[i].name)
            overrides = tuple(o for o in overrides if o != new.name)
            rep = dataclasses.replace(new, overrides=overrides, source=pack_source(pack, new))
            prev = current[i].name
            current[i] = rep
            known[new.name] = rep
            if prev != new.name:
                renamed[prev] = new.name
            if old != prev and old != new.name:
                renamed[old] = new.name
            origin[new.name] = pack.name
            replaced[old] = (pack.name, new.name)
            touched[old] = touched[new.name] = pack.name
        for name in pack.neutralise:
            i = locate(pack, name, "neutralise")
            conflict(pack, name, f"neutralises rule {name!r}")
            if i is not None:
                del current[i]
                neutralised[current_name(name)] = pack.name
            touched[name] = pack.name
        for new in pack.add:
            if new.name in known:
                raise PackError(f"pack {pack.name!r}: adds a rule named {new.name!r}, which exists already")
            rep = dataclasses.replace(new, source=pack_source(pack, new))
            known[new.name] = rep
            touched[new.name] = pack.name
            if ed.includes(rep):
                current.append(rep)
                origin[rep.name] = pack.name
        for k, v in pack.params.items():
            earlier = param_pack.get(k)
            if earlier and earlier != pack.name and earlier not in pack.overrides and params[k] != v:
                raise PackError(f"pack {pack.name!r}: sets parameter {k!r} to {v!r}, but pack {earlier!r} set it to "
                                f"{params[k]!r}; packs may not disagree silently (give the later pack "
                                f"overrides: [{earlier}])")
            if earlier and params[k] == v and earlier not in pack.overrides:
                continue  # the same value: the first pack's citation stands
            params[k] = v
            param_pack[k] = pack.name
            param_cite[k] = f"{param_cite_of(pack, k)} [pack {pack.name}]"

    # an exception names the rule it overrides by the name it was written against: follow any renaming by a
    # replacement (a pack that replaces a rule under a new name keeps its other rules' exceptions to it)
    for i, r in enumerate(current):
        mapped: list[str] = []
        for o in r.overrides:
            if o not in known:
                if r.name in origin:
                    raise PackError(f"pack {origin[r.name]!r}: rule {r.name!r} overrides {o!r}, which is no rule of "
                                    f"the composed system{_near(o, known)}")
                raise RulebookError(f"rule {r.name!r} overrides unknown rule {o!r}{_near(o, known)}")
            now = current_name(o)
            if now == r.name:
                now = o  # a replacement keeps naming the rule it took the place of
            if now not in mapped:
                mapped.append(now)
        if tuple(mapped) != r.overrides:
            current[i] = dataclasses.replace(r, overrides=tuple(mapped))
    return Composition(ed, tuple(packs), current, origin, replaced, neutralised, params, param_pack, param_cite)


def compose(rules: Sequence[Rule], edition: str | Edition, packs: Sequence[Pack] = ()) -> list[Rule]:
    """The rules in force: ``rules`` filtered by ``edition``, then each pack applied in order."""
    return compose_detailed(rules, edition, packs).rules


def explain(rule: Rule, facts: Iterable[Mapping[str, Any]]) -> list[str]:
    """Why ``rule`` does or does not match ``facts`` (e.g. ``RunResult.facts``): one line per pattern."""
    pool = list(facts)
    lines: list[str] = []
    for p in rule.when:
        same = [f for f in pool if f.get("kind") == p.kind]
        hits = [f for f in same if p.matches(f)]
        if p.negated:
            lines.append(f"{p!r}: {'blocked by ' + repr(hits[0]) if hits else 'holds (no such fact)'}")
        elif hits:
            lines.append(f"{p!r}: matched by {len(hits)} fact(s), e.g. {hits[0]!r}")
        elif not same:
            lines.append(f"{p!r}: no fact of kind {p.kind!r}")
        else:
            f = same[-1]
            why = [f"{k} is missing" if k not in f else f"{k}={f[k]!r} fails {op!r}"
                   for k, op in p.where if not op.test(k in f, f.get(k))]
            lines.append(f"{p!r}: {len(same)} fact(s) of that kind fail, e.g. {'; '.join(why)}")
    return lines


def _near(name: str, known: Mapping[str, Rule]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


__all__ = [
    "DEFAULT_EDITION", "EDITIONS", "KNOWN_EDITIONS", "LAWS", "Composition", "Ctx", "Edition", "Op", "Pack",
    "PackError", "Pattern", "Rule", "RulebookError", "compose", "compose_detailed", "eq", "explain", "fact", "ge",
    "get_edition", "gt", "le", "lt", "ne", "no", "one_of", "pack_source", "param_cite_of",
]
