"""The ``claimlaw`` command: rule on a case, show what a clause encodes, print the schema, list packs."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import click
import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="claimlaw — rulings on bridge claims and concessions (Laws 68-71).")
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

EXIT_INVALID = 2
EXIT_MISMATCH = 3


def _fail(message: str, code: int = EXIT_INVALID) -> None:
    err.print(f"[bold red]error:[/] {message}", markup=True, highlight=False)
    raise typer.Exit(code)


@app.command("rule")
def rule_cmd(
    case_file: Annotated[Path, typer.Argument(help="A case file (YAML or JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Emit the ruling as JSON.")] = False,
    edition: Annotated[str | None, typer.Option(help="Law edition: 2017 (default), 2007 or 1997.")] = None,
    pack: Annotated[list[str] | None,
                    typer.Option(help="Regulating-Authority pack (name or path); repeatable.")] = None,
    verbose: Annotated[bool, typer.Option(help="Show every guideline step, not just those the count used.")] = False,
    budget: Annotated[int | None, typer.Option(
        help="Search positions per play-core question (default 60,000): more proves more counts, slower.")] = None,
) -> None:
    """Rule on CASE_FILE: the outcome, tricks, score, witness lines and the chain of law references."""
    from engine.api import check_expect, rule
    from engine.host import RuleError
    from engine.packs import PackError
    from facts import CaseError, load_case

    if edition is not None and edition not in ("2017", "2007", "1997"):
        _fail(f"--edition: unknown edition {edition!r}; use 2017, 2007 or 1997")
    if budget is not None and budget < 1:
        _fail(f"--budget: {budget} is not a positive number of search positions")
    try:
        case = load_case(case_file)
    except CaseError as e:
        _fail(f"{case_file}: {e}")
    try:
        core: object = "default"
        if budget is not None:
            from engine.play import PlayCore

            core = PlayCore(budget=budget)
        ruling = rule(case, edition=edition, packs=pack or None, verbose=verbose, play=core)
    except PackError as e:
        _fail(str(e))
    except RuleError as e:
        _fail(f"a rule failed: {e}", 1)
    diffs = check_expect(case, ruling) if (case.expect and (edition is None or case.expect.edition in (None, edition))
                                           ) else []
    if as_json:
        data = ruling.model_dump(mode="json")
        data["laws"] = ruling.laws
        if case.expect is not None:
            data["expect"] = {"matches": not diffs, "differences": diffs}
        out.print_json(json.dumps(data, ensure_ascii=False))
    else:
        print_ruling(case, ruling)
        if case.expect is not None:
            if diffs:
                err.print("[bold red]expected ruling differs:[/]")
                for d in diffs:
                    err.print(f"  - {d}", highlight=False)
            else:
                out.print("[green]matches the case's expected ruling[/]")
    if diffs:
        raise typer.Exit(EXIT_MISMATCH)


def print_ruling(case: object, ruling: object) -> None:
    """The ruling for people: headline, tricks and score, witness lines, the law chain."""
    from facts import Case, Ruling

    assert isinstance(case, Case) and isinstance(ruling, Ruling)
    if case.title:
        out.print(f"[bold underline]{case.title}[/]", highlight=False)
    out.print(f"[bold]Ruling:[/] {ruling.summary}", highlight=False)
    if ruling.next_step:
        out.print(f"[bold]Next:[/] {ruling.next_step}", highlight=False)
    if ruling.tricks:
        t = ", ".join(f"{s} {n}" for s, n in ruling.tricks.items())
        line = f"[bold]Tricks:[/] {t}"
        if ruling.score is not None:
            decl = case.board.declarer.value if case.board and case.board.declarer else "?"
            line += f"   [bold]Score:[/] {ruling.contract} by {decl}, {ruling.score:+d} to {ruling.score_for}"
        out.print(line, highlight=False)
    for row in ruling.weighted:
        t = ", ".join(f"{s} {n}" for s, n in row.tricks.items())
        sc = f", {row.score:+d} to {ruling.score_for}" if row.score is not None else ""
        out.print(f"[bold]Weighted:[/] {row.weight:.0%} of {t}{sc}", highlight=False)
    out.print(f"[bold]Outcome:[/] {ruling.outcome}   [bold]Edition:[/] {ruling.edition}"
              + (f"   [bold]Packs:[/] {', '.join(ruling.packs)}" if ruling.packs else ""), highlight=False)
    for w in ruling.witnesses:
        out.print(f"[bold]Witness line[/] ({w.question.replace('_', ' ')}: {w.side} take {w.tricks}): {w.words}",
                  highlight=False)
        for ch in w.choices:
            out.print(f"    · {ch}", highlight=False)
    out.print(f"[bold]Law chain:[/] {' → '.join(ruling.laws)}", highlight=False)
    for i, s in enumerate(ruling.trace, 1):
        mark = " [yellow](text unverified)[/]" if not s.text_verified else ""
        src = f" [dim]({s.source})[/]" if s.source and not s.source.startswith("Laws of Duplicate Bridge") else ""
        where = "+".join([s.edition, *s.packs])
        by = f" [cyan]\\[from {s.pack}][/]" if s.pack else ""
        out.print(f"{i:>3}. [bold]{s.clause}[/] \\[{where}]{by}{mark} {s.rule}: {s.reason}{src}", highlight=False)
        rested = _facts_text(s.facts)
        if rested:
            out.print(f"       rested on: {rested}", highlight=False)
        concluded = {k: v for k, v in s.concluded.items() if k not in ("summary", "next_step", "witnesses")}
        if concluded:
            out.print(f"       concluded: {_facts_text(concluded)}", highlight=False)
    for n in ruling.notes:
        out.print(f"[dim]note:[/] {n}", highlight=False)


def _facts_text(d: dict[str, object]) -> str:
    parts = []
    for k, v in d.items():
        if isinstance(v, dict):
            inner = ", ".join(f"{ik}={_short(iv, 40)}" for ik, iv in v.items()
                              if ik != "kind" and iv not in (False, -1, "unknown", "", [], None))
            parts.append(f"{k}({inner})")
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            parts.append(f"{k}: " + "; ".join(_facts_text({str(x.get('kind', '')): x}) for x in v))
        else:
            parts.append(f"{k}={_short(v)}")
    return "; ".join(parts)


def _short(v: object, limit: int = 80) -> str:
    s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str)
    return s if len(s) <= limit else s[: limit - 1] + "…"


@app.command("law")
def law_cmd(clause: Annotated[str, typer.Argument(help="A clause id such as 70C, 68B2, 71, 68.preamble.")]) -> None:
    """What claimlaw encodes for CLAUSE: our paraphrase, the rules implementing it, editions, tests."""
    from rules import all_rules
    from rules.clauses import CLAUSES, normalise

    cid = normalise(clause)
    info = CLAUSES.get(cid)
    rules = [r for r in all_rules()
             if r.clause == cid or (r.clause.startswith(cid) and not r.clause[len(cid):][:1].isdigit())]
    if info is None and not rules:
        _fail(f"clause {clause!r}: not encoded (known: {', '.join(CLAUSES)})", 1)
    if info is not None:
        out.print(f"[bold]Law {info.id} — {info.title}[/]", highlight=False)
        out.print(info.paraphrase, highlight=False)
        out.print(f"Editions: {', '.join(info.editions)}", highlight=False)
        if info.unverified_in:
            out.print(f"[yellow]Text unverified[/] in: {', '.join(info.unverified_in)} (reconstructed; check the "
                      "official book)", highlight=False)
    table = Table(title="Rules")
    for col in ("rule", "clause", "editions", "reason", "text"):
        table.add_column(col)
    for r in rules:
        verified = "verified" if r.text_verified else "unverified"
        table.add_row(r.name, r.clause, ", ".join(r.editions), r.reason, verified)
    out.print(table)
    tests = tests_for(cid)
    out.print("Tests: " + (", ".join(tests) if tests else "(none found — tests live in a source checkout)"),
              highlight=False)


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


@app.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of a case file."""
    from facts import case_schema

    out.print_json(json.dumps(case_schema()))


@app.command("packs")
def packs_cmd() -> None:
    """List the Regulating-Authority packs that can be named with --pack."""
    from engine.packs import list_packs

    table = Table(title="Regulating-Authority packs")
    for col in ("name", "title", "source", "from"):
        table.add_column(col)
    for p in list_packs():
        table.add_row(p.name, p.title, p.source, p.origin)
    out.print(table)


class _AuditGroup(TyperGroup):
    """``claimlaw audit PATHS...`` runs an audit; ``claimlaw audit report DB`` reads a store again."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


audit_app = typer.Typer(cls=_AuditGroup, no_args_is_help=True, add_completion=False,
                        help="Audit every claim in hand records (claimlaw audit PATHS...), or report a results store "
                             "again (claimlaw audit report DB).")
app.add_typer(audit_app, name="audit")


@audit_app.command("run")
def audit_cmd(
    paths: Annotated[list[Path], typer.Argument(help="LIN/PBN files or directories of them.")],
    out_db: Annotated[Path | None, typer.Option("--out", help="SQLite results store: rows stream in as they finish; "
                                                "a rerun skips the claims it holds.")] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write every row as CSV here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write rows, problems and summary as JSON here.")]
    = None,
    dd_only: Annotated[bool, typer.Option("--dd-only", help="Only the double-dummy check.")] = False,
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: up to 2).")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Run on the Dask cluster at this address "
                                                  "(tcp://HOST:8786); needs claimlaw[cluster].")] = None,
    batch: Annotated[int, typer.Option(help="Claims per Dask task with --scheduler (more: less scheduler work on a "
                                       "large cluster).")] = 1,
    timeout: Annotated[float, typer.Option(help="Seconds a claim may take; then its worker is killed and the row "
                                           "is 'timeout' (0: no limit).")] = 120.0,
    budget: Annotated[int | None, typer.Option(help="Search positions per question (default 40,000).")] = None,
    retry: Annotated[bool, typer.Option("--retry", help="Redo the store's error and timeout rows.")] = False,
    limit: Annotated[int | None, typer.Option(help="Audit at most this many claims.")] = None,
    rows: Annotated[int, typer.Option(help="Rows of non-sound claims to show in the table.")] = 20,
) -> None:
    """Audit every claim in hand records: sound, at risk if doubted, impossible, over-concession.

    Exit status 1 when any claim's row is 'error' (after everything else was written)."""
    from engine.audit import AUDIT_BUDGET, audit
    from engine.audit_run import WorkerStartError
    from engine.audit_store import StoreError

    for p in paths:
        if not p.exists():
            _fail(f"{p}: no such file or directory")
    if workers is not None and workers < 1:
        _fail(f"--workers: {workers} is not a positive number of processes")
    if budget is not None and budget < 1:
        _fail(f"--budget: {budget} is not a positive number of search positions")
    if batch < 1:
        _fail(f"--batch: {batch} is not a positive number of claims")
    if timeout < 0:
        _fail(f"--timeout: {timeout:g} is not a number of seconds (0 for no limit)")
    if scheduler is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            _fail("--scheduler: Dask is not installed; pip install 'claimlaw[cluster]'")
    try:
        report = audit(paths, mode="dd" if dd_only else "full", workers=workers, limit=limit,
                       budget=budget or AUDIT_BUDGET, timeout=timeout or None, out=out_db, scheduler=scheduler,
                       batch=batch, retry=retry)
    except StoreError as e:
        _fail(f"--out: {e}")
    except WorkerStartError as e:
        _fail(f"a worker process could not start: {e}", 1)
    except KeyboardInterrupt:
        _fail("interrupted" + (f"; every finished claim is in {out_db}: run again to finish" if out_db else ""), 130)
    except OSError as e:
        _fail(f"--scheduler: {e}" if scheduler else str(e), 1)
    _print_audit(report, rows)
    out.print("In LIN records the claimer is not recorded: each split is checked for declarer's side, and for "
              "the defenders' side when declarer's side is not at risk.", highlight=False)
    _export_audit(report, csv_out, json_out)
    if report.errors:
        raise typer.Exit(1)


@audit_app.command("report")
def audit_report_cmd(
    store: Annotated[Path, typer.Argument(help="A results store written by claimlaw audit --out.")],
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write every row as CSV here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write rows, problems and summary as JSON here.")]
    = None,
    rows: Annotated[int, typer.Option(help="Rows of non-sound claims to show in the table.")] = 20,
) -> None:
    """Print a results store's summary and table again; export it as CSV or JSON."""
    from engine.audit import AuditReport
    from engine.audit_store import Store, StoreError, describe

    try:
        db = Store(store, create=False)
        settings = db.settings() or {}
        report = AuditReport(rows=db.rows(), problems=db.problems(), mode=settings.get("mode", "full"),
                             settings=settings)
        runs = db.runs()
        db.close()
    except StoreError as e:
        _fail(str(e))
    report.seconds = sum(_run_seconds(r) for r in runs)
    out.print(f"[bold]Store:[/] {store}: {describe(settings)}; {len(runs)} run(s)", highlight=False)
    _print_audit(report, rows)
    _export_audit(report, csv_out, json_out)


def _run_seconds(run: dict[str, object]) -> float:
    from datetime import datetime

    if not run.get("started") or not run.get("finished"):
        return 0.0
    fmt = "%Y-%m-%dT%H:%M:%SZ"
    return (datetime.strptime(str(run["finished"]), fmt) - datetime.strptime(str(run["started"]), fmt)).total_seconds()


ERRORS_SHOWN = 50  # error rows are listed whatever --rows says, up to this many


def _print_audit(report: object, rows: int) -> None:
    from engine.audit import AuditReport

    assert isinstance(report, AuditReport)
    shown = [r for r in report.rows if r.verdict not in ("sound", "dd_ok")][:rows]
    if shown:
        table = Table(title=f"Claims that are not sound (first {len(shown)})")
        for col in ("record", "contract", "left", "credited", "DD", "worst", "verdict", "law", "line"):
            table.add_column(col)
        for r in shown:
            verdict = r.verdict + ("" if r.proven or r.verdict in ("error", "timeout") else " (unproven)")
            table.add_row(f"{Path(r.source).name} {r.board} {r.room}", f"{r.contract} {r.declarer}",
                          _num(r.remaining), _num(r.claimed_for_declarer), _num(r.dd_for_declarer),
                          _num(r.worst_normal_for_declarer), verdict, r.law, _short(r.line or r.message, 70))
        out.print(table)
    errors = report.errors
    for r in errors[:ERRORS_SHOWN]:
        out.print(f"[red]error[/] {r.source} board {r.board} {r.room} claim {r.claim_index}: {r.message} "
                  f"[dim](position {r.position}, leader {r.leader}, trick {r.trick or '-'})[/]", highlight=False)
    if len(errors) > ERRORS_SHOWN:
        out.print(f"… and {len(errors) - ERRORS_SHOWN} more error rows (claimlaw audit report DB --csv F lists all)",
                  highlight=False)
    problems = Counter(p.kind for p in report.problems)
    if problems:
        out.print("Unreadable records: " + ", ".join(f"{k} {n}" for k, n in problems.most_common()), highlight=False)
    out.print("[bold]Summary:[/] " + report.summary(), highlight=False)


def _num(v: int | None) -> str:
    return "" if v is None else str(v)


def _export_audit(report: object, csv_out: Path | None, json_out: Path | None) -> None:
    from engine.audit import AuditReport

    assert isinstance(report, AuditReport)
    try:
        if csv_out:
            csv_out.write_text(report.to_csv(), encoding="utf-8")
        if json_out:
            json_out.write_text(report.to_json(), encoding="utf-8")
    except OSError as e:
        _fail(f"{e.filename}: cannot write ({e.strerror})", 1)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)


if __name__ == "__main__":
    main()
