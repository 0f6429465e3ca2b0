"""Published claim rulings (federations, districts, appeals committees) rule as published, case by case.

The shared calibration set is read where it lies (``../shared/data/rulings`` from the repo root); the
project's own published cases are in ``tests/rulings/cases``. A case claimlaw does not yet rule as
published is a strict xfail naming the part of the model or parser at fault, so it flips when fixed.
A case whose published ruling claimlaw holds wrong in law is pinned as *disputed*, with claimlaw's
answer and its reason; the case file itself is never changed toward claimlaw.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimlaw.engine.agreement import DISPUTED, RULINGS_BUDGET, case_files, rule_published
from claimlaw.engine.api import rule
from claimlaw.engine.faces.cli import app
from claimlaw.facts import load_case
from tests.lawmarks import clause

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data" / "rulings"
OWN = Path(__file__).resolve().parent / "cases"

# cases claimlaw does not rule as published today: what is at fault (strict: fix the cause and remove)
KNOWN: dict[str, str] = {}

# cases whose count the table's budget (engine.agreement.RULINGS_BUDGET per question) does not settle, so they run
# until proven, as a single ruling does: an unproven count would rule the claim not established (70A)
UNBOUNDED = {"isr-2013-7s-discard-club-on-diamonds-trump-out",  # ~9 s of search on an idle machine
             "ebu-2011-appeal-focus-6nt-trick-count",  # ~9 s
             "usbf-2019-mixed-5d-ruffing-finesse-if-spades-4-1"}  # ~15 s: a conditional step keeps it in Python



def _published() -> list[Path]:
    return case_files([d for d in (SHARED, OWN) if d.is_dir()])


def _param(p: Path) -> object:
    if p.stem in KNOWN:
        return pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN[p.stem]), id=p.stem)
    return pytest.param(p, id=p.stem)


def _tricks_left(p: Path) -> int:
    pos = load_case(p).position()
    return pos.tricks_left if pos is not None else 13


PUBLISHED = _published()
RULED = [p for p in PUBLISHED if p.stem not in DISPUTED]


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the shared rulings folder {SHARED} is absent")
def test_the_shared_calibration_set_is_there_and_every_case_has_a_published_expect_block() -> None:
    shared = case_files([SHARED])
    assert len(shared) >= 8
    for p in shared:
        case = load_case(p)
        assert case.expect is not None and case.expect.tricks, p.name


def test_every_own_published_case_names_its_source_and_grade_in_an_opening_comment() -> None:
    for p in case_files([OWN]):
        head = p.read_text(encoding="utf-8").split("\n", 3)[:3]
        assert head[0].startswith("# Published:") and "http" in head[0], p.name
        assert any(x.startswith("# Grade:") for x in head), p.name
        assert load_case(p).source, p.name


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the shared rulings folder {SHARED} is absent: marks on its cases "
                    "cannot be told from marks that outlived their case")
def test_every_marked_case_exists_so_no_mark_outlives_its_case() -> None:
    stems = {p.stem for p in PUBLISHED}
    assert UNBOUNDED <= stems and set(KNOWN) <= stems and set(DISPUTED) <= stems


@clause("70A", "70C3", "70D1", "70.footnote")
@pytest.mark.parametrize("path", [_param(p) for p in RULED])
def test_each_published_ruling_gives_the_published_tricks_and_cites_the_published_clauses(path: Path) -> None:
    from claimlaw.engine.play import PlayCore

    core = PlayCore(budget=None if path.stem in UNBOUNDED else RULINGS_BUDGET, check_coherence=True)
    row = rule_published(path, play=core)
    assert row.differences == [], f"{path.stem}: {row.differences}; witness: {row.witness}"
    assert core.faults == [], "the witness line is not one a Director would accept (issue 26 item 8)"


@clause("70C3", "70.footnote")
@pytest.mark.parametrize("stem", sorted(DISPUTED))
def test_a_disputed_case_rules_as_claimlaw_reasons_and_differs_from_the_published_ruling(stem: str) -> None:
    paths = [p for p in PUBLISHED if p.stem == stem]
    if not paths:
        pytest.skip(f"{stem} is not in the rulings folders")
    case = load_case(paths[0])
    ruling = rule(case, edition=case.expect.edition if case.expect else None)
    want, reason = DISPUTED[stem]
    assert reason and ruling.tricks == want, f"claimlaw now rules {ruling.tricks}: review the disputed answer"
    published = {s.value: n for s, n in case.expect.tricks.items()} if case.expect and case.expect.tricks else {}
    assert published and published != want


@clause("70C", "70C3", "70D1")
def test_the_rotem_7s_claim_rules_as_published_with_the_statement_read_as_cash_the_diamonds_then_discard() -> None:
    case = load_case(OWN / "isr-2013-7s-discard-club-on-diamonds-trump-out.yaml")
    ruling = rule(case, edition="2007")  # searched until proven, as any single ruling
    assert ruling.tricks == {"EW": 12, "NS": 1} and "70C3" in ruling.laws and ruling.proven
    (w,) = ruling.witnesses
    assert w.tricks_played[0][0] == "DA" and any(c.licence == "line" for c in w.choices)
    ruffed = [t for t in w.tricks_played if "S9" in t]
    assert ruffed and any(c.startswith("H") for c in ruffed[0]), "North's ♠9 ruffs a heart"


def test_the_rulings_command_prints_the_agreement_table_with_chain_and_witness(tmp_path: Path) -> None:
    src = OWN if case_files([OWN]) else SHARED
    if not case_files([src]):
        pytest.skip("no published case files")
    one = min(case_files([src]), key=_tricks_left)
    res = CliRunner().invoke(app, ["rulings", str(one), "--full", "--budget", "20000"], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    assert one.stem in res.output and "witness:" in res.output and "70A" in res.output
    assert "Agreement:" in res.output and "of 1 cases" in res.output


@clause("70A")
def test_the_rulings_table_marks_a_disputed_case_disputed_and_prints_claimlaw_s_reason() -> None:
    cases = [p for p in PUBLISHED if p.stem in DISPUTED]
    if not cases:
        pytest.skip("no disputed case in the rulings folders")
    case = min(cases, key=_tricks_left)  # the shortest ending: the table's marking is what is tested
    res = CliRunner().invoke(app, ["rulings", str(case), "--full"], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    assert "disputed" in res.output and DISPUTED[case.stem][1][:40] in res.output.replace("\n", "")
    assert "0 of 1 cases rule as published; 1 disputed" in res.output


def test_the_rulings_command_names_a_missing_folder_and_exits_2(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["rulings", str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "nowhere" in res.output


def test_a_case_the_engine_cannot_rule_is_its_own_error_row_and_the_table_still_prints(tmp_path: Path,
                                                                                       monkeypatch: pytest.MonkeyPatch
                                                                                       ) -> None:
    import claimlaw.engine.agreement as agreement

    src = OWN if case_files([OWN]) else SHARED
    files = sorted(case_files([src]), key=_tricks_left)[:2]  # the two shortest endings
    if len(files) < 2:
        pytest.skip("two published case files needed")
    real = agreement.rule_published

    def flaky(path: Path, **kw: object) -> object:
        if path == files[0]:
            raise ValueError("negative shift count")
        return real(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(agreement, "rule_published", flaky)
    res = CliRunner().invoke(app, ["rulings", *map(str, files), "--budget", "20000"], env={"COLUMNS": "250"})
    assert res.exit_code == 1
    # the error row's cell may fold at the console's width; the line under the table names it whole
    assert "differs: not ruled: negative shift count" in res.output and "error" in res.output
    assert files[1].stem in res.output and "of 2 cases" in res.output
