"""Published rulings against claimlaw's: one row per case file (case, published, claimlaw, chain, witness).

A published case is an ordinary case file whose ``expect`` block holds the final published ruling
(tricks of the board per side, clauses cited); its opening comment names the source. This module
rules each one as it is and says where claimlaw differs; it never changes a case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from claimlaw.facts import Case, load_case


@dataclass
class AgreementRow:
    """One published case ruled by claimlaw."""

    case: str
    published: str  # the published tricks per side and the clauses cited, e.g. "NS 11 (70.footnote)"
    claimlaw: str  # claimlaw's tricks per side
    agrees: bool
    chain: list[str] = field(default_factory=list)
    witness: str = ""
    differences: list[str] = field(default_factory=list)
    proven: bool = True


def case_files(dirs: list[Path]) -> list[Path]:
    """The case files (YAML or JSON) of the given folders or files, sorted by name within each folder."""
    out: list[Path] = []
    for d in dirs:
        if d.is_dir():
            out.extend(sorted(p for p in d.iterdir() if p.suffix in (".yaml", ".yml", ".json")))
        elif d.is_file():
            out.append(d)
    return out


def _tricks_text(tricks: dict[str, int] | None) -> str:
    if not tricks:
        return "(no tricks)"
    return ", ".join(f"{side} {n}" for side, n in sorted(tricks.items()))


# search positions per play-core question for the agreement table: a single ruling searches until proven, but a
# table of many cases must finish; a count it leaves open is shown as unproven (the claim is then not established).
# Measured 2026-11-26: at 60,000 the 6NT and the USBF 5♦ were left open; at 1,000,000 every case is proven and the
# table of 14 takes about 35 s, as at 60,000
RULINGS_BUDGET = 1_000_000
_CORES: dict[int | None, object] = {}


def core_for(budget: int | None) -> object:
    """One play core per budget for the whole table (its caches are shared by the cases)."""
    if budget not in _CORES:
        from claimlaw.engine.play import PlayCore

        _CORES[budget] = PlayCore(budget=budget)
    return _CORES[budget]


def rule_published(path: Path, play: object = None, budget: int | None = RULINGS_BUDGET) -> AgreementRow:
    """Rule one published case under its own edition and compare with its ``expect`` block (``play``: a play
    core to use; by default one searching at most ``budget`` positions per question)."""
    from claimlaw.engine.api import check_expect, rule

    case: Case = load_case(path)
    if case.expect is None:
        raise ValueError(f"{path.name}: a published case needs an expect block with the published ruling")
    ruling = rule(case, edition=case.expect.edition, play=play if play is not None else core_for(budget))
    diffs = check_expect(case, ruling)
    exp = case.expect
    want = {s.value if hasattr(s, "value") else str(s): n for s, n in (exp.tricks or {}).items()}
    published = _tricks_text(want) + (f" ({', '.join(exp.laws)})" if exp.laws else "")
    witness = next((w for w in ruling.witnesses if w.question == "worst_normal"), None)
    witness = witness or (ruling.witnesses[0] if ruling.witnesses else None)
    return AgreementRow(case=path.stem, published=published, claimlaw=_tricks_text(ruling.tricks),
                        agrees=not diffs, chain=list(ruling.laws), witness=witness.words if witness else "",
                        differences=diffs, proven=ruling.proven)
