"""The front door: rule on a case under an edition and packs, and check a ruling against ``expect``.

    >>> from engine.api import rule
    >>> ruling = rule(load_case("examples/defender-concession-partner-objects.yaml"))
    >>> ruling.outcome, ruling.laws
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.facts_in import case_facts
from facts import Case, Ruling, Side, TraceStep, WeightedResult, Witness
from facts.contract import score

DEFAULT_EDITION = "2017"
_CORE: Any = None


def play_core() -> Any:
    """The process-wide play core (one per process: DDS is not thread-safe)."""
    global _CORE
    if _CORE is None:
        try:
            from engine.play import PlayCore
        except ImportError:  # pragma: no cover - the core is part of the package
            return None
        _CORE = PlayCore()
    return _CORE


def program_for(edition: str, packs: Sequence[str]) -> Any:
    """The compiled rule program for an edition and packs (cached by the host)."""
    from engine.host import compile_program
    from engine.packs import load_pack
    from rules import all_rules

    loaded = [load_pack(p) for p in packs]
    return compile_program(all_rules(), edition=edition, packs=loaded)


def rule(case: Case, *, edition: str | None = None, packs: Sequence[str] | None = None,
         play: Any = "default", verbose: bool = False) -> Ruling:
    """Rule on ``case``: the outcome, tricks, score, witness lines and the traced law chain."""
    ed = edition or case.edition or DEFAULT_EDITION
    pk = list(packs if packs is not None else case.regulations)
    program = program_for(ed, pk)
    params = dict(program.params)
    pos = case.position()
    core = play_core() if play == "default" else play
    facts = case_facts(case, pos, float(case.timing.correction_period_minutes or params.get("correction_minutes", 30)))
    facts.append({
        "kind": "params",
        "correction_minutes": float(case.timing.correction_period_minutes or params.get("correction_minutes", 30)),
        "order_70E2": str(params.get("order_70E2") or "none"),
        "order_70E2_source": str(params.get("order_70E2_source") or ""),
        "weighted_scores": bool(params.get("weighted_scores", False)),
        "high_trump_safety_check_normal": bool(params.get("high_trump_safety_check_normal", False)),
    })
    result = program.run(facts, context={"case": case, "position": pos, "play": core})
    return assemble(case, ed, pk, result, verbose=verbose)


def assemble(case: Case, edition: str, packs: list[str], result: Any, *, verbose: bool = False) -> Ruling:
    """Turn the session's conclusions and trace into a Ruling."""
    c: dict[str, Any] = dict(result.conclusions)
    witnesses = [w if isinstance(w, Witness) else Witness.model_validate(w) for w in c.get("witnesses") or []]
    used = {choice.split(":")[0].strip() for w in witnesses for choice in w.choices}
    trace: list[TraceStep] = []
    for step in result.trace:
        if step.rule.startswith("guideline.") and not verbose:
            switch = step.rule.removeprefix("guideline.").removesuffix(".71")
            if switch not in used:
                continue
        trace.append(step)
    tricks = c.get("tricks")
    contract = case.board.contract if case.board else None
    declarer = case.board.declarer if case.board else None
    the_score: int | None = None
    score_for: str | None = None
    if tricks and contract and declarer:
        side = declarer.side
        the_score = score(contract, tricks[side.value], case.board.is_vulnerable(side) if case.board else False)
        score_for = side.value
    weighted = []
    for row in c.get("weighted") or []:
        sc = None
        if contract and declarer and case.board:
            sc = score(contract, row["tricks"][declarer.side.value], case.board.is_vulnerable(declarer.side))
        weighted.append(WeightedResult(tricks=row["tricks"], weight=row["weight"], score=sc))
    outcome = c.get("outcome") or "needs_facts"
    summary = c.get("summary") or "No rule decided this case."
    notes = list(result.notes)
    return Ruling(
        edition=edition,
        packs=packs,
        outcome=outcome,
        summary=summary,
        next_step=c.get("next_step", ""),
        tricks=tricks,
        score=the_score,
        score_for=score_for,
        contract=str(contract) if contract else None,
        notes=notes,
        witnesses=witnesses,
        weighted=weighted,
        trace=trace,
    )


def check_expect(case: Case, ruling: Ruling) -> list[str]:
    """What differs between the ruling and the case's ``expect`` block (empty when it matches)."""
    exp = case.expect
    if exp is None:
        return []
    diffs: list[str] = []
    if exp.tricks is not None:
        want = {s.value if isinstance(s, Side) else str(s): n for s, n in exp.tricks.items()}
        got = ruling.tricks or {}
        for side, n in want.items():
            if got.get(side) != n:
                diffs.append(f"tricks {side}: expected {n}, ruled {got.get(side, 'none')}")
    laws = ruling.laws
    for law in exp.laws:
        if law not in laws:
            diffs.append(f"law {law}: expected in the trace, not there (trace: {' → '.join(laws) or 'empty'})")
    if exp.outcome is not None and exp.outcome != ruling.outcome:
        diffs.append(f"outcome: expected {exp.outcome}, ruled {ruling.outcome}")
    return diffs
