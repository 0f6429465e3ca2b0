"""Every clause in a printed law chain changed the ruling or its reasons (issue 42 item 5).

For each example and published case, each rule of the printed chain is taken out (a pack that neutralises it) and
the case ruled again: the outcome, the tricks, the score, the summary, the notes, the next step, the witness lines
or the rest of the chain must differ. A rule whose removal changes none of these belongs in ``--explain``
(``Ruling.considered``), not in the chain a user reads as "what law applies here".

The cases that rule in a few seconds run in the normal suite; the grand slams (whose searches take minutes on a
loaded machine) run with CLAIMLAW_SLOW=1.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from claimlaw.engine.api import rule
from claimlaw.facts.case import Case, load_case
from claimlaw.facts.ruling import Ruling
from claimlaw.rules.rulebook import Pack
from tests.lawmarks import clause

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "tests" / "rulings" / "cases").glob("*.yaml"))
# searches of minutes: the grand slams and the published cases with a stated line our fast solver does not follow
SLOW = ("7nt-", "7s-", "isr-", "usbf-")
RUN_SLOW = os.environ.get("CLAIMLAW_SLOW") == "1"
# known idle steps, each with its reason; strict, so the entry must go once the chain is fixed
IDLE_KNOWN: dict[str, str] = {}  # cases whose printed chain still names a step that changed nothing, and why


def _params() -> list[Any]:
    out: list[Any] = []
    for p in CASES:
        slow = p.name.startswith(SLOW)
        marks = [pytest.mark.skipif(not RUN_SLOW, reason="a search of minutes: CLAIMLAW_SLOW=1")] if slow else []
        if p.stem in IDLE_KNOWN:
            marks.append(pytest.mark.xfail(strict=True, reason=IDLE_KNOWN[p.stem]))
        out.append(pytest.param(p, marks=marks, id=p.stem))
    return out


def _reasons(r: Ruling, without: str) -> tuple[Any, ...]:
    """What a reader of the ruling sees, but for the removed rule's own step and the probe pack's withdrawal step."""
    chain = [s.rule for s in r.trace if s.rule != without and s.pack != "probe"]
    return (r.outcome, r.tricks, r.score, r.summary, sorted(r.notes), r.next_step, r.class_of_player,
            [(w.side, w.tricks, w.question, w.tricks_played) for w in r.witnesses], chain)


def _without(case: Case, name: str, where: Path) -> Ruling:
    probe = Pack(name="probe", neutralise=[name], overrides=list(case.regulations))
    return rule(case, packs=[*case.regulations, probe], case_dir=where)


@clause("70", "68", "69", "71")
@pytest.mark.parametrize("path", _params())
def test_taking_out_any_rule_of_the_printed_chain_changes_the_ruling_or_its_reasons(path: Path) -> None:
    case = load_case(path)
    base = rule(case, case_dir=path.parent)
    idle = []
    for step in base.trace:
        if step.pack:
            continue  # a regulation's step: the pack is the user's choice, and its citation is the reason
        if _reasons(_without(case, step.rule, path.parent), step.rule) == _reasons(base, step.rule):
            idle.append(f"{step.clause} ({step.rule})")
    assert not idle, f"{path.name}: printed, yet taking it out changes nothing: {', '.join(idle)}"
