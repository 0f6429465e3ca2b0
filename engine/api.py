"""The front door: rule on a case under an edition and packs, and check a ruling against ``expect``.

    >>> from engine.api import rule
    >>> ruling = rule(load_case("examples/defender-concession-partner-objects.yaml"))
    >>> ruling.outcome, ruling.laws
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimlaw.engine.play.normal.licences import LICENCES
from claimlaw.engine.questions import AnswerBook, Unanswered
from claimlaw.engine.readers.facts_in import case_facts, claimed_for_side
from claimlaw.facts import DEFAULT_EDITION, Case, Ruling, Side, TraceStep, WeightedResult, Witness
from claimlaw.facts.contract import score
from claimlaw.rules.rulebook import Pack

if TYPE_CHECKING:
    from claimlaw.engine.play import PlayCore

_CORES: dict[int | None, PlayCore] = {}


MAX_QUESTIONS = 64  # distinct trick questions one ruling may ask: more means a rule asks without end


class InvariantError(RuntimeError):
    """A ruling broke an invariant every ruling must keep (an internal error, never the case's fault)."""


def play_core(budget: int | None = None, *, fresh: bool = False) -> PlayCore:
    """The play core every face rules with: ``budget`` search positions per question (None: search until each count
    is proven). One per budget per process, its caches shared by the process's rulings (DDS is not thread-safe: one
    process, one core at a time); ``fresh``: a core of its own, whose tables and stop go with one ruling (the web
    page's worker takes one per ruling). ``rule``'s default is ``play_core()``."""
    from claimlaw.engine.play import PlayCore

    if fresh:
        return PlayCore(budget=budget)
    if budget not in _CORES:
        _CORES[budget] = PlayCore(budget=budget)
    return _CORES[budget]


def program_for(edition: str, packs: Sequence[str | Pack]) -> Any:
    """The compiled rule program for an edition and packs (cached by the host)."""
    from claimlaw.engine.host import compile_program
    from claimlaw.engine.packs import load_pack
    from claimlaw.rules import all_rules

    loaded = [load_pack(p) for p in packs]
    return compile_program(all_rules(), edition=edition, packs=loaded)


def rule(case: Case, *, edition: str | None = None, packs: Sequence[str] | None = None,
         play: PlayCore | None = None, verbose: bool = False, case_dir: Path | None = None,
         verdict_only: bool = False, answers: dict[Any, Any] | None = None) -> Ruling:
    """Rule on ``case``: the outcome, tricks, score, witness lines and the traced law chain.

    ``play``: the play core that answers the trick questions (None, the default: ``play_core()``, the process's own,
    searching until each count is proven; a budget or a stop is a core's own, from ``play_core(budget)``).

    ``packs`` (names or paths, as a user gives ``--pack``) replace the case's own ``regulations``. Those are read
    as untrusted: installed pack names only, unless ``case_dir`` says the case came from a file there, when a
    data pack may also be named by a path (``engine.packs.load_case_pack``).

    ``verdict_only`` (the audit's): the play core settles only what the outcome turns on — is there a normal line
    under the tricks claimed (or, for a concession, at or under the tricks kept)? — so an adjusted count is the
    first such line found ("at most"), not the worst.

    ``answers``: a book of trick answers kept across rulings of variants of one case (the hinges, the page's
    "answer"): a question an earlier ruling settled is answered from it with no search, and new answers are added."""
    ed = edition or case.edition or DEFAULT_EDITION
    if packs is None:
        from claimlaw.engine.packs import load_case_pack

        chosen: list[str | Pack] = [load_case_pack(p, case_dir=case_dir) for p in case.regulations]
        pk = list(case.regulations)
    else:
        chosen = list(packs)
        pk = [p.name if isinstance(p, Pack) else str(p) for p in packs]
    program = program_for(ed, chosen)
    pos = case.position()
    core = play_core() if play is None else play
    pf = params_fact(program, case)
    facts = case_facts(case, pos)
    facts.append(pf)
    from claimlaw.engine.packdata import apply_findings

    apply_findings(program, facts)
    cls, cls_from = player_class(case, facts, pf)
    below = None
    if verdict_only and pos is not None:
        kept = claimed_for_side(case, pos.tricks_left)
        if kept is not None:
            below = kept if case.claim.says == "claim" else kept + 1
    result, book = run_answering(program, facts, {"case": case, "position": pos}, core, verdict_below=below,
                                 answers=answers)
    ruling = assemble(case, ed, pk, result, verbose=verbose)
    if _footnote_applied(result.trace, ruling):
        # the class is a reason of this ruling only where the footnote's standard judged a normal line
        ruling.class_of_player, ruling.class_from = cls, cls_from
    if book is not None:
        ruling.proven = book.proven
    if not verdict_only and ruling.outcome == "claim_adjusted" and pos is not None and core is not None:
        name_costly_card(case, pos, ruling, core)
    check_invariants(case, ruling)
    return ruling


def _footnote_applied(trace: Any, ruling: Ruling) -> bool:
    """Did the footnote (normal play for the class of player) set its standard, and did a worst-normal count then
    decide the ruling? Only then is the class one of the ruling's reasons (and its step in the chain)."""
    set_class = any(isinstance(f, dict) and f.get("kind") == "switch" and f.get("name") == _STANDARD
                    for s in trace for f in s.concluded.get("asserted", []))
    return set_class and any(w.question == "worst_normal" for w in ruling.witnesses)


def player_class(case: Case, facts: list[dict[str, Any]], params: dict[str, Any]) -> tuple[str, str]:
    """The class of player the case is ruled for, and where it came from: the case's finding, else a pack's
    regulation that supplied it (``apply_findings``), else the packs' ``class_of_player`` parameter (the rules'
    default, club, where no pack sets one). The findings fact is given it, so every rule reads the one class."""
    findings = next((f for f in facts if f.get("kind") == "findings"), None)
    if case.findings.class_of_player is not None:
        return case.findings.class_of_player, "the case's findings"
    if findings is not None and findings.get("class_of_player", "unknown") != "unknown":
        by = next((f["rule"] for f in facts if f.get("kind") == "regulation_applied"
                   and "class_of_player" in f.get("values", {})), "")
        return str(findings["class_of_player"]), f"a pack's regulation{f' ({by})' if by else ''}"
    cls = str(params.get("class_of_player") or "club")
    cite = params.get("class_of_player_cite") or ""
    if findings is not None:
        findings["class_of_player"] = cls
    return cls, (f"the pack's default ({cite})" if cite else "the rules' default: the case names no class")


def params_fact(program: Any, case: Case) -> dict[str, Any]:
    """The ``params`` fact: every parameter of ``rules.params`` with its value, and beside it ``<name>_cite``, the
    regulation and pack that set it ("" where the Laws' default holds). A case's own correction period wins."""
    from claimlaw.rules.params import PARAMS

    values = dict(program.params)
    out: dict[str, Any] = {"kind": "params"}
    for name, p in PARAMS.items():
        out[name] = values.get(name, p.default)
        out[f"{name}_cite"] = program.param_cite.get(name, "") if name in program.param_pack else ""
    out["correction_minutes"] = float(out["correction_minutes"])
    if case.timing.correction_period_minutes:
        out["correction_minutes"] = float(case.timing.correction_period_minutes)
        out["correction_minutes_cite"] = "the case's timing.correction_period_minutes"
    return out


def name_costly_card(case: Case, pos: Any, ruling: Ruling, core: Any) -> None:
    """Name, on the adjusted claim's witness line, the card that lost the trick, and say it in the summary."""
    from claimlaw.engine.costly import costly_card

    claimed = claimed_for_side(case, pos.tricks_left)
    if claimed is None:
        return
    side = case.claimer_side
    for i, w in enumerate(ruling.witnesses):
        if w.question == "worst_normal" and w.side == side.value:
            best = core.double_dummy(pos, side).tricks
            if best < claimed:
                name = side.long_name
                ruling.summary = (f"{ruling.summary} No card of the line loses it: best play by both sides already "
                                  f"gives {name} at most {best} of the {claimed} claimed.")
                break
            costly = costly_card(pos, side, w, claimed, core)
            if costly is not None:  # a copy: the play core keeps its witness for the next ruling that asks
                ruling.witnesses[i] = w.model_copy(update={"costly": costly})
                ruling.summary = f"{ruling.summary} {costly.sentence}"
            break


def run_answering(program: Any, facts: list[dict[str, Any]], context: dict[str, Any], core: Any, *,
                  verdict_below: int | None = None, answers: dict[Any, Any] | None = None
                  ) -> tuple[Any, AnswerBook | None]:
    """Run the rules, answering each trick question they ask outside the session (engine/questions.py).

    A rule that asks a new question stops the run; the play core answers it here, where no action lease runs,
    and the rules run again from the start with the answer in the book. The last run asks nothing new: its
    conclusions and trace are the ruling's. Ctrl-C during a search stops that search with what it found
    (marked unproven) and gives every later question no budget, so the ruling comes at once.
    """
    if core is None:
        return program.run(facts, context={**context, "play": None}), None
    book = AnswerBook(core, verdict_below=verdict_below, shared=answers)
    for _ in range(MAX_QUESTIONS + 1):
        try:
            return program.run(facts, context={**context, "play": book}), book
        except Unanswered as q:
            book.answer(q)
    raise InvariantError(f"the rules asked more than {MAX_QUESTIONS} distinct trick questions for one case")


_IMPOSSIBLE = "internal error: the ruling {what}; please report this case"


def check_invariants(case: Case, ruling: Ruling) -> None:
    """What every ruling keeps, checked at the end: whole, non-negative tricks that add up to the board's 13,
    no side given fewer than it has already won, and an unproven count never allowing a claim."""
    rows = ([ruling.tricks] if ruling.tricks else []) + [w.tricks for w in ruling.weighted]
    pos = None
    try:
        pos = case.position()
    except Exception:  # noqa: BLE001 - a case without cards has no position to check against
        pos = None
    for t in rows:
        if any((not isinstance(n, int)) or n < 0 for n in t.values()):
            raise InvariantError(_IMPOSSIBLE.format(what=f"gives a negative or broken trick count: {t}"))
        if set(t) == {"NS", "EW"} and sum(t.values()) != 13:
            raise InvariantError(_IMPOSSIBLE.format(what=f"gives tricks that do not add up to 13: {t}"))
        if pos is not None:
            for side, won in pos.won.items():
                if t.get(side.value, won) < won:
                    raise InvariantError(_IMPOSSIBLE.format(
                        what=f"gives {side.value} {t[side.value]} tricks, fewer than the {won} already won: {t}"))
    if not ruling.proven and ruling.outcome in ("claim_allowed", "concession_cancelled", "agreement_withdrawn"):
        raise InvariantError(_IMPOSSIBLE.format(what=f"is {ruling.outcome} on a count its search did not prove"))


def assemble(case: Case, edition: str, packs: list[str], result: Any, *, verbose: bool = False) -> Ruling:
    """Turn the session's conclusions and trace into a Ruling."""
    c: dict[str, Any] = dict(result.conclusions)
    witnesses = [w if isinstance(w, Witness) else Witness.model_validate(w) for w in c.get("witnesses") or []]
    used = {ch.licence for w in witnesses for ch in w.choices}
    # 70D2 bore on the count only where the line has the claimer's partner play a card a licence allowed
    partner = case.claim.by.partner.value
    if any(ch.seat == partner for w in witnesses for ch in w.choices):
        used.add("partner_restricted")
    chain = printed_chain(list(result.trace), used, normal_counted=any(w.question == "worst_normal"
                                                                       for w in witnesses))
    trace = list(result.trace) if verbose else chain
    considered = [] if verbose else [s for s in result.trace if s not in chain]
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
        considered=considered,
    )


# Switches whose effect shows in the witness line: the general guidelines (the licence table's rows a guideline rule
# asserts) and the stated line, each named by the choices of a line that used it, and 70D2's restriction of a
# defender's partner, seen where a licensed card of the line is the partner's. The other switches are set only
# where they bear on the count (70C3's unaware_trump when a trick could be lost to it, 70E1's guess when the
# claimer's sure tricks fall short of the claim) or where a finding or a Regulating
# Authority sets them (guess_order, safety_check_high_trump). The play after the claim (70D3, 68D2(b)) is a line the
# count weighs: its step stands where that line was the witness.
_SEEN_IN_WITNESS = frozenset({lic.name for lic in LICENCES if lic.rule is not None}
                              | {"line", "played_after_claim", "partner_restricted"})
# the footnote's standard ("normal" includes careless or inferior play for the class of player) is what every
# worst-normal count applies, so its step stands wherever such a count decided the ruling
_STANDARD = "class_of_player"
_CONCLUSIONS = ("outcome", "tricks", "summary", "next_step", "witnesses", "notes", "weighted")


def _switch_counts(f: dict[str, Any], used: set[str], normal_counted: bool) -> bool:
    name = f.get("name", "")
    if name == _STANDARD:
        return normal_counted
    if name == "finesse_or_drop" and not f.get("at_stake", True):
        return name in used  # no guess in view at the claim: 70E1 counted only where the line took a later one
    if name in _SEEN_IN_WITNESS:
        return name in used
    return True


def printed_chain(trace: list[TraceStep], used: set[str], *, normal_counted: bool) -> list[TraceStep]:
    """The steps the ruling rests on, in firing order: a step stays when it concluded something of the ruling, or
    asserted a fact a kept step matched on (79C's period, which 69B and 71 read), or set a switch that changed the
    count (a licence only when the witness line used it), or cited a regulation (a pack's parameter or withdrawal at
    the step it changed). So 70E1 is in the chain only where a guess was at stake, and a procedural step that only
    records what the Director does (70B) is left to ``considered``: taking it out would change nothing
    (tests/engine/test_chain_honest.py)."""
    keep: list[bool] = [False] * len(trace)
    needed: list[dict[str, Any]] = []
    for i in range(len(trace) - 1, -1, -1):
        step = trace[i]
        made = [f for f in step.concluded.get("asserted", []) if isinstance(f, dict)]
        switches = [f for f in made if f.get("kind") == "switch"]
        others = [f for f in made if f.get("kind") != "switch"]
        if (any(k in step.concluded for k in _CONCLUSIONS) or any(f in needed for f in others)
                or any(_switch_counts(f, used, normal_counted) for f in switches) or getattr(step, "cites", None)):
            keep[i] = True
            needed.extend(v for v in step.facts.values() if isinstance(v, dict) and "kind" in v)
    return [s for s, k in zip(trace, keep, strict=True) if k]


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
