"""The pack writer's reference and the data pack's JSON Schema, generated from the code (never written by hand):
the parameters (rules.params), the 70E2 orders, the case facts a data rule may test, the normal-play switches
(engine/play/model.py), the guidelines by name (rules/normal_play.py) and the priorities rules fire in."""

from __future__ import annotations

from typing import Any

from claimlaw.engine.packdata import CASE_FIELDS, FINDINGS, MAX_RULES, OPS, _guideline_rules, _switches
from claimlaw.rules.params import MAX_CORRECTION_MINUTES, ORDERS_70E2, PARAMS

PRIORITIES: list[tuple[str, str]] = [
    ("-30", "a data rule's findings (set before the rules run; its step cites them)"),
    ("-20 .. -5", "exceptions: a rule that overrides others fires before them (the host checks it)"),
    ("-2", "the footnote's class of player"),
    ("-1", "the normal-play guidelines (rules/normal_play.py) and a data pack's withdrawals"),
    ("0", "clause rules (the default)"),
    ("1", "a data rule's switches (after the guidelines and clause rules set theirs)"),
    ("5 .. 10", "70C2's default awareness and 70C3's count"),
    ("50", "70A.resolve: the count over the claimer's normal lines, after every switch is set"),
    ("51", "70A's weighted or whole-trick rows"),
]


def _param_schema(name: str) -> dict[str, Any]:
    p = PARAMS[name]
    if p.kind == "minutes":
        value: dict[str, Any] = {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_CORRECTION_MINUTES}
    elif p.kind == "flag":
        value = {"type": "boolean"}
    else:
        value = {"enum": list(ORDERS_70E2)}
    return {"type": "object", "additionalProperties": False, "required": ["value", "cite"], "description": p.meaning,
            "properties": {"value": value, "cite": {"type": "string", "minLength": 1, "maxLength": 1000},
                           "text": {"type": "string", "maxLength": 1000}}}


def _field_schema(name: str) -> dict[str, Any]:
    cf = CASE_FIELDS[name]
    if cf.type == "int":
        one: dict[str, Any] = {"type": "integer", "minimum": cf.values[0], "maximum": cf.values[-1]}
    elif cf.type == "bool":
        one = {"type": "boolean"}
    elif cf.type == "enum":
        one = {"enum": list(cf.values)}
    else:
        one = {"type": "string", "maxLength": 20}
    ops = {op: one for op in (OPS if cf.type == "int" else ("eq", "ne"))}
    test = {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
            "properties": {**ops, "one_of": {"type": "array", "minItems": 1, "items": one}}}
    return {"description": cf.meaning, "anyOf": [one, test]}


def data_pack_schema() -> dict[str, Any]:
    """The JSON Schema a data pack follows (the loader checks the same and says which field is wrong)."""
    cite = {"type": "string", "minLength": 1, "maxLength": 1000}
    guideline = {"enum": sorted(_guideline_rules())}
    switches = _switches()
    then = {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False, "properties": {
        "switch": {"type": "object", "additionalProperties": False, "minProperties": 1,
                   "properties": {s: {"type": "boolean", "description": m} for s, m in switches.items()}},
        "withdraw": {"anyOf": [guideline, {"type": "array", "items": guideline, "minItems": 1}]},
        "finding": {"type": "object", "additionalProperties": False, "minProperties": 1,
                    "properties": {k: {"enum": list(v)} for k, v in FINDINGS.items()}},
    }}
    rule = {"type": "object", "additionalProperties": False, "required": ["name", "cite", "when", "then"],
            "properties": {"name": {"type": "string", "pattern": "^[A-Za-z0-9._-]+$"}, "cite": cite,
                           "text": {"type": "string", "maxLength": 1000}, "clause": {"type": "string"},
                           "when": {"type": "object", "additionalProperties": False,
                                    "properties": {n: _field_schema(n) for n in CASE_FIELDS}},
                           "then": then}}
    withdraw = {"type": "object", "additionalProperties": False, "required": ["cite"],
                "oneOf": [{"required": ["guideline"]}, {"required": ["rule"]}],
                "properties": {"guideline": guideline, "rule": {"type": "string"}, "cite": cite,
                               "text": {"type": "string", "maxLength": 1000}}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "claimlaw data pack",
        "type": "object",
        "additionalProperties": False,
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$"},
            "title": {"type": "string"},
            "source": {"type": "string"},
            "overrides": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            "params": {"type": "object", "additionalProperties": False,
                       "properties": {n: _param_schema(n) for n in PARAMS}},
            "withdraw": {"type": "array", "items": withdraw},
            "rules": {"type": "array", "maxItems": MAX_RULES, "items": rule},
        },
    }


def reference_markdown() -> str:
    """The pack writer's reference as Markdown (``claimlaw packs --reference``)."""
    from claimlaw.rules.normal_play import GUIDELINES

    lines = ["# Pack reference (generated by `claimlaw packs --reference`)", "", "## Parameters", "",
             "| parameter | kind | default | clause | meaning |", "|---|---|---|---|---|"]
    for p in PARAMS.values():
        lines.append(f"| `{p.name}` | {p.kind} | `{p.default}` | {p.clause} | {p.meaning} |")
    lines += ["", "## 70E2 orders (`order_70E2`)", "", "| order | effect | source |", "|---|---|---|"]
    for o in ORDERS_70E2.values():
        lines.append(f"| `{o.name}` | {o.effect} | {o.source} |")
    lines += ["", "## Case facts a data rule tests (`when`)", "",
              "| name | values | fact.field | meaning |", "|---|---|---|---|"]
    for cf in CASE_FIELDS.values():
        vals = (f"{cf.values[0]}..{cf.values[-1]}" if cf.type == "int" else
                ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in cf.values) or "text")
        lines.append(f"| `{cf.name}` | {vals} | `{cf.kind}.{cf.field}` | {cf.meaning} |")
    lines += ["", "Tests: a plain value (equals), or one of `{eq: v}`, `{ne: v}`, `{lt|le|gt|ge: n}` (numbers), "
              "`{one_of: [..]}`.", "", "## Findings a data rule sets (`then: {finding: ...}`)", ""]
    for k, v in FINDINGS.items():
        lines.append(f"* `{k}`: {', '.join(str(x).lower() if isinstance(x, bool) else str(x) for x in v)} "
                     "(only where the case leaves it open)")
    lines += ["", "## Normal-play switches (`then: {switch: {name: true|false}}`)", "",
              "| switch | the claimer ... |", "|---|---|"]
    for s, m in _switches().items():
        lines.append(f"| `{s}` | {m} |")
    lines += ["", "## Guidelines (`withdraw`, Python `replace`/`neutralise`)", "",
              "| guideline | rule names | source | reason |", "|---|---|---|---|"]
    by_name = {r.name: r for r in GUIDELINES}
    for g, names in _guideline_rules().items():
        r = by_name[names[0]]
        lines.append(f"| `{g}` | {', '.join(f'`{n}`' for n in names)} | {r.source} | {r.reason} |")
    lines += ["", "## Priorities (lower fires first among rules ready together)", "", "| priority | rules |",
              "|---|---|"]
    lines += [f"| {p} | {w} |" for p, w in PRIORITIES]
    return "\n".join(lines) + "\n"


__all__ = ["PRIORITIES", "data_pack_schema", "reference_markdown"]
