"""What claimlaw encodes for a clause: our paraphrase, the rules implementing it, its tests (never law text)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class RuleInfo:
    """One rule implementing a clause."""

    name: str
    clause: str
    editions: tuple[str, ...]
    reason: str
    text_verified: bool


@dataclass(frozen=True)
class ClauseInfo:
    """A clause as ``claimlaw law`` shows it; ``title`` and ``paraphrase`` are empty for a rules-only id."""

    id: str
    title: str = ""
    paraphrase: str = ""
    editions: tuple[str, ...] = ()
    unverified_in: tuple[str, ...] = ()
    rules: list[RuleInfo] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)


def clause_info(clause: str) -> ClauseInfo | None:
    """The paraphrase, rules and tests for ``clause`` (normalised: '70c' is 70C), or None when not encoded."""
    from claimlaw.rules import all_rules
    from claimlaw.rules.clauses import CLAUSES, normalise

    cid = normalise(clause)
    info = CLAUSES.get(cid)
    rules = [RuleInfo(r.name, r.clause, tuple(r.editions), r.reason, bool(r.text_verified)) for r in all_rules()
             if r.clause == cid or (r.clause.startswith(cid) and not r.clause[len(cid):][:1].isdigit())]
    if info is None and not rules:
        return None
    if info is None:
        return ClauseInfo(cid, rules=rules, tests=tests_for(cid))
    return ClauseInfo(info.id, info.title, info.paraphrase, tuple(info.editions), tuple(info.unverified_in),
                      rules, tests_for(cid))


def known_clauses() -> list[str]:
    """Every clause id with a paraphrase, in statute order."""
    from claimlaw.rules.clauses import CLAUSES

    return list(CLAUSES)


def tests_for(clause: str) -> list[str]:
    """Test names carrying ``@clause("<id>")`` for this clause, from the source checkout's tests/."""
    root = Path(__file__).resolve().parent.parent / "tests"
    if not root.is_dir():
        return []
    names: list[str] = []
    pat = re.compile(r"@clause\((.*)\)[ \t]*\n(?:@[^\n]*\n)*\s*def (test_\w+)")
    for f in sorted(root.rglob("test_*.py")):
        for m in pat.finditer(f.read_text(encoding="utf-8")):
            ids = re.findall(r"[\"']([^\"']+)[\"']", m.group(1))
            if clause in ids:
                names.append(m.group(2))
    return names


@dataclass(frozen=True)
class ClauseUnderPacks:
    """A clause as packs change it: each rule's status, and the parameters its rules read, with citations."""

    id: str
    packs: tuple[str, ...]
    rows: list[tuple[str, str, str, str]]  # rule, status, reason, source
    params: list[str]


def clause_under_packs(clause: str, packs: list[str], edition: str) -> ClauseUnderPacks | None:
    """The rules of ``clause`` in force under ``edition`` and ``packs``: from the Laws, added, replaced or withdrawn
    by a pack; and each parameter a rule of the clause reads, with its value and the regulation that set it."""
    from claimlaw.engine.packs import load_pack
    from claimlaw.rules import all_rules
    from claimlaw.rules.clauses import normalise
    from claimlaw.rules.params import PARAMS
    from claimlaw.rules.rulebook import compose_detailed

    cid = normalise(clause)

    def ours(c: str) -> bool:
        return c == cid or (c.startswith(cid) and not c[len(cid):][:1].isdigit())

    loaded = [load_pack(p) for p in packs]
    comp = compose_detailed(all_rules(), edition, loaded)
    rows: list[tuple[str, str, str, str]] = []
    for r in comp.rules:
        if not ours(r.clause):
            continue
        by = comp.origin.get(r.name)
        old = next((o for o, (_, new) in comp.replaced.items() if new == r.name), None)
        status = (f"replaces {old} ({by})" if old else f"added by {by}") if by else "Laws"
        rows.append((r.name, status, r.reason, r.source))
    base = {r.name: r for r in all_rules()}
    for name, by in comp.neutralised.items():
        r = base.get(name)
        if r is not None and ours(r.clause):
            rows.append((name, f"withdrawn by {by}", r.reason, r.source))
    params = []
    for p in PARAMS.values():
        if ours(p.clause):
            if p.name in comp.param_pack:
                params.append(f"{p.name} = {comp.params[p.name]!r}: {comp.param_cite[p.name]}")
            else:
                params.append(f"{p.name} = {p.default!r} (the Laws' default)")
    if not rows and not params:
        return None
    return ClauseUnderPacks(cid, tuple(p.name for p in loaded), rows, params)
