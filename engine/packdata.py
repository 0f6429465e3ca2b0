"""Data packs: a Regulating Authority's regulations as YAML/JSON, checked field by field and turned into a Pack.

A data pack holds ``name`` (required), ``title``, ``source``, ``overrides`` (earlier packs it may change),
``params`` (each ``{value, cite, text}``), ``withdraw`` (guidelines or rules taken out, each with its ``cite``) and
``rules`` (simple regulations: ``when`` conditions over named case facts, ``then`` switches, withdrawals or
findings, and a ``cite``). Every mistake is one line naming the field (``rules[0].when.trik: unknown case fact
'trik'; did you mean 'trick'?``). ``DATA_SCHEMA`` is the same contract as a JSON Schema (``claimlaw schema --pack``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from claimlaw.facts import SEAT_NAMES
from claimlaw.rules.common import ALL
from claimlaw.rules.params import PARAMS, check, shown, suggest
from claimlaw.rules.rulebook import Op, Pack, PackError, Pattern, Rule, fact, ge, gt, le, lt, ne, one_of
from claimlaw.rules.rulebook import eq as eq_op

TOP_KEYS = ("name", "title", "source", "overrides", "params", "withdraw", "rules")
PARAM_KEYS = ("value", "cite", "text")
RULE_KEYS = ("name", "cite", "text", "clause", "when", "then")
THEN_KEYS = ("switch", "withdraw", "finding")
OPS: dict[str, Callable[[Any], Op]] = {"eq": eq_op, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge}
MAX_RULES = 200
MAX_TEXT = 1000


@dataclass(frozen=True)
class CaseField:
    """A case fact a data rule may test: where the rules find it, its kind of value and what it means."""

    name: str
    kind: str          # the fact kind it is read from
    field: str         # the field of that fact
    type: str          # "int", "bool" or "enum"
    values: tuple[Any, ...]
    meaning: str


CASE_FIELDS: dict[str, CaseField] = {f.name: f for f in [
    CaseField("trick", "board", "trick", "int", tuple(range(1, 14)),
              "the trick the claim came in: tricks completed before it, plus one (1-13)"),
    CaseField("tricks_played", "board", "tricks_played", "int", tuple(range(0, 13)),
              "tricks completed before the claim (0-12)"),
    CaseField("dummy_faced", "board", "dummy_faced", "bool", (True, False),
              "dummy is on the table (the opening lead has been faced)"),
    CaseField("contract", "board", "contract", "text", (), "the contract as written, e.g. 4H, 3NT, 4SX"),
    CaseField("trump", "board", "trump", "enum", ("S", "H", "D", "C", "none"), "the trump suit, or none at notrump"),
    CaseField("claimer", "claim", "role", "enum", ("declarer", "defender"), "who claimed or conceded"),
    CaseField("claimer_seat", "claim", "by", "enum", tuple(SEAT_NAMES), "the seat that claimed or conceded"),
    CaseField("says", "claim", "says", "enum", ("claim", "concede"), "a claim or a concession"),
    CaseField("statement", "claim", "has_statement", "bool", (True, False),
              "the claimer said (or wrote) a line of play"),
    CaseField("remaining", "claim", "remaining", "int", tuple(range(1, 14)), "tricks left to play at the claim"),
    CaseField("class_of_player", "findings", "class_of_player", "enum",
              ("beginner", "club", "expert", "world_class", "unknown"), "the class of player the Director found"),
    CaseField("outstanding_trumps", "position", "opp_trump_count", "int", tuple(range(0, 14)),
              "trumps the opponents still hold"),
    CaseField("objection", "table", "objection", "enum",
              ("at_once", "before_next_call", "after_next_call", "after_round_end", "none"),
              "when the claim was objected to"),
]}

FINDINGS: dict[str, tuple[Any, ...]] = {
    "aware_of_trumps": (True, False),
    "class_of_player": ("beginner", "club", "expert", "world_class"),
    "irrational_not_to": (True, False),
}


def _switches() -> dict[str, str]:
    """The normal-play switches a data rule may set: the play core's guidelines that are on or off."""
    from claimlaw.engine.play.model import GUIDELINES

    return {n: g.meaning for n, g in GUIDELINES.items() if n not in ("unaware_trump", "unaware_winner")}


def _guideline_rules() -> dict[str, list[str]]:
    """Each guideline of rules/normal_play.py by its short name, with its rule names (Law 70 and Law 71)."""
    from claimlaw.rules.normal_play import GUIDELINES as RULES

    out: dict[str, list[str]] = {}
    for r in RULES:
        short = r.name.removeprefix("guideline.").removesuffix(".71")
        out.setdefault(short, []).append(r.name)
    return out


# ---------------------------------------------------------------------------------------
# Actions of data rules
# ---------------------------------------------------------------------------------------


class SetSwitches:
    """A data rule's action: set normal-play switches, citing the regulation."""

    def __init__(self, values: dict[str, bool], cite: str) -> None:
        self.values, self.cite = values, cite

    def __call__(self, ctx: Any, m: Any) -> None:
        for name, on in self.values.items():
            ctx.assert_fact("switch", name=name, clause="70.footnote", value=on, source=self.cite,
                            why=f"{self.cite}: {name.replace('_', ' ')} {'applies' if on else 'does not apply'}")
        said = ", ".join(f"{k} {'on' if v else 'off'}" for k, v in self.values.items())
        ctx.cite(f"{said}: {self.cite}")


class Withdrawn:
    """A data rule's action (or a withdrawal's): the guidelines it takes out are not applied, citing why."""

    def __init__(self, names: list[str], cite: str, *, named: bool = True) -> None:
        self.names, self.cite, self.named = names, cite, named

    def __call__(self, ctx: Any, m: Any) -> None:
        ctx.cite(f"{', '.join(self.names) + ' ' if self.named else ''}not applied: {self.cite}")


class SetFindings:
    """A data rule that supplies findings the case leaves open; ``when`` is tested on the case's facts before the
    rules run (engine.api), and the rule itself, matching the ``regulation_applied`` fact, cites it."""

    def __init__(self, values: dict[str, Any], when: tuple[Pattern, ...], cite: str) -> None:
        self.values, self.when, self.cite = values, when, cite

    def applies(self, facts: list[dict[str, Any]]) -> bool:
        """Do the case's facts pass every condition?"""
        for p in self.when:
            hit = any(p.matches(f) for f in facts)
            if hit == p.negated:
                return False
        return True

    def __call__(self, ctx: Any, m: Any) -> None:
        applied = m["applied"].get("values", {})
        ctx.cite(f"{', '.join(f'{k} = {_word(v)}' for k, v in applied.items())}: {self.cite}")


def _word(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------


def _err(label: str, where: str, msg: str) -> PackError:
    return PackError(f"{label}: {where}: {msg}" if where else f"{label}: {msg}")


def _text(label: str, where: str, v: Any, *, required: bool = True) -> str:
    if v is None and not required:
        return ""
    if not isinstance(v, str) or not v.strip():
        raise _err(label, where, "must be a non-empty text" + (" (the regulation it comes from, e.g. "
                                                                 "'NBU Regulation 7.1')" if where.endswith("cite")
                                                                 else ""))
    if len(v) > MAX_TEXT:
        raise _err(label, where, f"is longer than {MAX_TEXT} characters")
    return v.strip()


def _keys(label: str, where: str, d: Any, allowed: tuple[str, ...], what: str) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise _err(label, where, f"must be a mapping ({what})")
    for k in d:
        if k not in allowed:
            raise _err(label, f"{where}.{k}" if where else str(k), f"unknown key {k!r}; {suggest(str(k), allowed)}")
    return d


def _cited(cite: str, text: str, pack: str) -> str:
    return f"{cite}{f' ({text})' if text else ''} [pack {pack}]"


def _plain(cited: str, pack: str) -> str:
    """A citation without its pack mark (a rule's source says the pack already)."""
    return cited.removesuffix(f" [pack {pack}]")


def read_data_pack(data: Any, label: str, origin: str, *, known_params: Mapping[str, Any] | None = None) -> Pack:
    """The Pack a parsed YAML/JSON document describes; a PackError (one line, naming the field) when it does not."""
    if not isinstance(data, dict):
        raise PackError(f"{label}: expected a mapping with at least 'name'")
    if "neutralise" in data:
        raise _err(label, "neutralise", "a data pack withdraws a rule with its regulation: write withdraw: "
                                        "[{rule: NAME, cite: \"...\"}] (or {guideline: NAME, cite: ...})")
    _keys(label, "", data, TOP_KEYS, "a data pack")
    if "name" not in data:
        raise PackError(f"{label}: 'name' is required")
    for k in ("name", "title", "source"):
        if k in data and not isinstance(data[k], str):
            raise PackError(f"{label}: {k!r} must be a string")
    name = data["name"]
    overrides = data.get("overrides") or []
    if isinstance(overrides, str):
        overrides = [overrides]
    if not isinstance(overrides, list) or not all(isinstance(o, str) and o for o in overrides):
        raise _err(label, "overrides", "must name earlier packs (a name or a list of names)")
    params, cites = _read_params(label, data.get("params"), str(name), known_params or PARAMS)
    guidelines = _guideline_rules()
    neutralise: list[str] = []
    add: list[Rule] = []
    for i, w in enumerate(_list(label, "withdraw", data.get("withdraw"))):
        where = f"withdraw[{i}]"
        w = _keys(label, where, w, ("guideline", "rule", "cite", "text"), "guideline or rule, and cite")
        cite = _cited(_text(label, f"{where}.cite", w.get("cite")), _text(label, f"{where}.text", w.get("text"),
                                                                          required=False), str(name))
        if ("guideline" in w) == ("rule" in w):
            raise _err(label, where, "give one of 'guideline' (a normal-play guideline) or 'rule' (a rule's name)")
        if "guideline" in w:
            g = w["guideline"]
            if not isinstance(g, str) or g not in guidelines:
                raise _err(label, f"{where}.guideline", f"unknown guideline {g!r}; {suggest(str(g), guidelines)}")
            names = guidelines[g]
            neutralise.extend(names)
            add.extend(_withdrawal_rules(str(name), g, cite))
        else:
            r = w["rule"]
            if not isinstance(r, str) or not r:
                raise _err(label, f"{where}.rule", "must be a rule's name")
            neutralise.append(r)
    raw_rules = _list(label, "rules", data.get("rules"))
    if len(raw_rules) > MAX_RULES:
        raise _err(label, "rules", f"more than {MAX_RULES} rules")
    seen: set[str] = set()
    for i, r in enumerate(raw_rules):
        for rule in _read_rule(label, f"rules[{i}]", r, str(name), guidelines):
            if rule.name in seen:
                raise _err(label, f"rules[{i}].name", f"{rule.name!r} is used twice")
            seen.add(rule.name)
            add.append(rule)
    try:
        return Pack(name=name, title=data.get("title", ""), source=data.get("source", ""), params=params,
                    neutralise=neutralise, add=add, origin=origin, cites=cites, overrides=list(overrides))
    except PackError as e:
        raise PackError(f"{label}: {e}") from e


def _list(label: str, where: str, v: Any) -> list[Any]:
    if v is None:
        return []
    if not isinstance(v, list):
        raise _err(label, where, "must be a list")
    return v


def _read_params(label: str, raw: Any, pack: str, known: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    if raw is None:
        return {}, {}
    if not isinstance(raw, dict):
        raise PackError(f"{label}: 'params' must be a mapping")
    params: dict[str, Any] = {}
    cites: dict[str, str] = {}
    for k, entry in raw.items():
        where = f"params.{k}"
        if k not in known:
            raise _err(label, where, f"unknown parameter {k!r}; {suggest(str(k), known)}")
        if not isinstance(entry, dict):
            raise _err(label, where, f"give {{value: {shown(entry)}, cite: \"...\"}}: a data pack cites the regulation "
                                     "for every parameter")
        _keys(label, where, entry, PARAM_KEYS, "value, cite and optional text")
        if "value" not in entry:
            raise _err(label, f"{where}.value", "is required")
        problem = check(str(k), entry["value"])
        if problem:
            raise _err(label, f"{where}.value", problem)
        params[k] = entry["value"]
        cites[k] = _plain(_cited(_text(label, f"{where}.cite", entry.get("cite")),
                                 _text(label, f"{where}.text", entry.get("text"), required=False), pack), pack)
    return params, cites


def _withdrawal_rules(pack: str, guideline: str, cite: str) -> list[Rule]:
    """The trace step that says, once, where a withdrawn guideline would have applied."""
    act = Withdrawn([guideline], cite, named=False)  # the step's reason names the guideline
    return [Rule(name=f"{pack}.withdraw.{guideline}{suffix}", clause="70.footnote", editions=ALL,
                 reason=f"The guideline '{guideline.replace('_', ' ')}' is not applied under this regulation.",
                 when=(fact(trigger, alias="adj"),), then=act, priority=-1, source=_plain(cite, pack))
            for trigger, suffix in (("adjudicate", ""), ("cancel_review", ".71"))]


def _condition(label: str, where: str, name: Any, v: Any) -> tuple[CaseField, Op]:
    if name not in CASE_FIELDS:
        raise _err(label, where, f"unknown case fact {name!r}; {suggest(str(name), CASE_FIELDS)}")
    cf = CASE_FIELDS[name]
    if isinstance(v, dict):
        if len(v) != 1:
            raise _err(label, where, "give one test, e.g. {le: 3}, or a plain value")
        (opname, arg), = v.items()
        if opname == "one_of":
            if not isinstance(arg, list) or not arg:
                raise _err(label, f"{where}.one_of", "must be a non-empty list")
            for x in arg:
                _value(label, f"{where}.one_of", cf, x)
            return cf, one_of(*arg)
        if opname not in OPS:
            raise _err(label, f"{where}.{opname}", f"unknown test {opname!r}; {suggest(str(opname), [*OPS, 'one_of'])}")
        if opname in ("lt", "le", "gt", "ge") and cf.type != "int":
            raise _err(label, f"{where}.{opname}", f"{name} is not a number; use eq, ne or one_of")
        _value(label, f"{where}.{opname}", cf, arg)
        return cf, OPS[opname](arg)
    _value(label, where, cf, v)
    return cf, eq_op(v)


def _value(label: str, where: str, cf: CaseField, v: Any) -> None:
    if cf.type == "int":
        if isinstance(v, bool) or not isinstance(v, int) or v not in cf.values:
            raise _err(label, where, f"{shown(v)} is not a whole number from {cf.values[0]} to {cf.values[-1]}")
    elif cf.type == "bool":
        if not isinstance(v, bool):
            raise _err(label, where, f"{shown(v)} is not true or false")
    elif cf.type == "enum":
        if v not in cf.values:
            raise _err(label, where, f"{shown(v)} is not a value of {cf.name}; {suggest(str(v), map(str, cf.values))}")
    elif not isinstance(v, str) or len(v) > 20:
        raise _err(label, where, f"{shown(v)} is not a short text")


def _read_rule(label: str, where: str, r: Any, pack: str, guidelines: dict[str, list[str]]) -> list[Rule]:
    r = _keys(label, where, r, RULE_KEYS, "name, cite, when, then")
    for k in ("name", "cite", "when", "then"):
        if k not in r:
            raise _err(label, f"{where}.{k}", "is required")
    name = _text(label, f"{where}.name", r["name"])
    if not all(c.isalnum() or c in "._-" for c in name):
        raise _err(label, f"{where}.name", f"{name!r}: use letters, digits, '.', '_' or '-'")
    cite = _cited(_text(label, f"{where}.cite", r["cite"]), "", pack)
    text = _text(label, f"{where}.text", r.get("text"), required=False)
    when = r["when"]
    if not isinstance(when, dict) or not when:
        raise _err(label, f"{where}.when", "must be a mapping of case facts to values, e.g. {trick: 1}")
    by_kind: dict[str, dict[str, Op]] = {}
    for k, v in when.items():
        cf, op = _condition(label, f"{where}.when.{k}", k, v)
        by_kind.setdefault(cf.kind, {})[cf.field] = op
    patterns = tuple(fact(kind, alias=f"case_{kind}", **ops) for kind, ops in by_kind.items())
    then = _keys(label, f"{where}.then", r["then"], THEN_KEYS, "switch, withdraw or finding")
    if len(then) != 1:
        raise _err(label, f"{where}.then", "give exactly one of switch, withdraw, finding (one regulation, one effect)")
    (what, arg), = then.items()
    reason = text or _plain(cite, pack)
    clause = r.get("clause")
    if clause is not None:
        clause = _clause(label, f"{where}.clause", clause)
    if what == "finding":
        values = _keys(label, f"{where}.then.finding", arg, tuple(FINDINGS), "findings and their values")
        if not values:
            raise _err(label, f"{where}.then.finding", "names no finding")
        for k, v in values.items():
            if v not in FINDINGS[k] or isinstance(v, bool) != isinstance(FINDINGS[k][0], bool):
                raise _err(label, f"{where}.then.finding.{k}", f"{shown(v)} is not a value of {k}; "
                                                               f"{suggest(str(v), map(_word, FINDINGS[k]))}")
        act = SetFindings(dict(values), patterns, cite)
        return [Rule(name=name, clause=clause or ("70C2" if "aware_of_trumps" in values else "70.footnote"),
                     editions=ALL, reason=reason, when=(fact("regulation_applied", alias="applied", rule=name),),
                     then=act, priority=-30, source=_plain(cite, pack))]
    if what == "switch":
        switches = _switches()
        values = _keys(label, f"{where}.then.switch", arg, tuple(switches), "normal-play switches, true or false")
        if not values:
            raise _err(label, f"{where}.then.switch", "names no switch")
        for k, v in values.items():
            if not isinstance(v, bool):
                raise _err(label, f"{where}.then.switch.{k}", f"{shown(v)} is not true or false")
        act: Callable[[Any, Any], None] = SetSwitches(dict(values), cite)
        overrides: tuple[str, ...] = ()
        priority = 1  # after the guidelines (-1) and clause rules (0) set theirs, before 70C3 (10) and the count
    else:
        names = arg if isinstance(arg, list) else [arg]
        if not names:
            raise _err(label, f"{where}.then.withdraw", "names no guideline")
        for g in names:
            if not isinstance(g, str) or g not in guidelines:
                raise _err(label, f"{where}.then.withdraw", f"unknown guideline {g!r}; {suggest(str(g), guidelines)}")
        act = Withdrawn(list(names), cite)
        priority = -5  # an exception fires before the guidelines it defeats
        overrides = tuple(n for g in names for n in guidelines[g])
    out = []
    for trigger, suffix in (("adjudicate", ""), ("cancel_review", ".71")):
        ov = tuple(o for o in overrides if o.endswith(".71") == bool(suffix))
        out.append(Rule(name=f"{name}{suffix}", clause=clause or "70.footnote", editions=ALL, reason=reason,
                        when=(fact(trigger, alias="adj"), *patterns), then=act, priority=priority,
                        overrides=ov, source=_plain(cite, pack)))
    return out


def _clause(label: str, where: str, v: Any) -> str:
    from claimlaw.rules import all_rules
    from claimlaw.rules.clauses import CLAUSES

    known = list(dict.fromkeys([*CLAUSES, *(r.clause for r in all_rules())]))
    if not isinstance(v, str) or v not in known:
        raise _err(label, where, f"unknown clause {v!r}; {suggest(str(v), known)}")
    return v


def apply_findings(program: Any, facts: list[dict[str, Any]]) -> None:
    """Give the case the findings its packs' regulations supply (only those the case leaves open), and mark each
    regulation that did, so its rule cites it in the trace."""
    findings = next((f for f in facts if f.get("kind") == "findings"), None)
    if findings is None:
        return
    for r in program.rules:
        act = r.then
        if not isinstance(act, SetFindings) or not act.applies(facts):
            continue
        given = {k: v for k, v in act.values.items() if findings.get(k) == "unknown"}
        if given:
            findings.update(given)
            facts.append({"kind": "regulation_applied", "rule": r.name, "values": given})


__all__ = ["CASE_FIELDS", "FINDINGS", "CaseField", "SetFindings", "SetSwitches", "Withdrawn", "apply_findings",
           "read_data_pack"]
