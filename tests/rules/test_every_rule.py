"""Every rule carries a clause id, editions, a reason; every clause has a test naming it."""

from __future__ import annotations

import re
from pathlib import Path

from claimlaw.rules import all_rules
from claimlaw.rules.clauses import CLAUSES

TESTS = Path(__file__).resolve().parent.parent


def clauses_named_by_tests() -> set[str]:
    named: set[str] = set()
    for f in TESTS.rglob("test_*.py"):
        for args in re.findall(r"^@clause\((.*)\)[ \t]*$", f.read_text(encoding="utf-8"), re.M):
            named.update(re.findall(r"[\"']([^\"']+)[\"']", args))
    return named


def test_every_rule_has_a_clause_editions_and_a_one_line_reason() -> None:
    names = set()
    for r in all_rules():
        assert r.clause, r.name
        assert r.editions and set(r.editions) <= {"2017", "2007", "1997"}, r.name
        assert r.reason and "\n" not in r.reason, r.name
        assert r.name not in names, f"duplicate rule name {r.name}"
        names.add(r.name)


def test_every_rule_clause_is_described_in_the_clause_table() -> None:
    missing = {r.clause for r in all_rules()} - set(CLAUSES)
    assert not missing, f"clauses without a paraphrase: {sorted(missing)}"


def test_every_clause_a_rule_implements_has_at_least_one_test_naming_it() -> None:
    untested = {r.clause for r in all_rules()} - clauses_named_by_tests()
    assert not untested, f"clauses no test names with @clause(...): {sorted(untested)}"


def test_rules_sit_in_statute_order_within_each_module() -> None:
    from claimlaw.rules import MODULES

    def key(clause: str) -> tuple[int, str]:
        m = re.match(r"(\d+)(.*)", clause)
        assert m
        rest = m.group(2)
        rank = "0" if rest.startswith(".preamble") else "~" if rest.startswith(".footnote") else rest[:1]
        return int(m.group(1)), rank

    for mod in MODULES:
        # sections in the law's order; a rule that applies the whole Law (priority >= 50) closes the module
        keys = [key(r.clause) for r in mod.RULES if r.priority < 50]
        assert keys == sorted(keys) or mod.__name__.endswith("normal_play"), (mod.__name__, keys)
