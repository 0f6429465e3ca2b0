"""The ``claimlaw`` command: rule on a case, show what a clause encodes, print the schema, list packs."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

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
        help="Search positions per play-core question. Default: no limit, search until every count is proven. "
             "A budget that runs out leaves the claim not established.")] = None,
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
        with _progress():
            ruling = rule(case, edition=edition, packs=pack or None, verbose=verbose, play=core)
    except KeyboardInterrupt:
        _fail("interrupted before the search had found any line to rule on", 130)
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


@contextlib.contextmanager
def _progress(after: float = 1.5, every: float = 1.0) -> Iterator[None]:
    """On a terminal, say after ``after`` seconds that the search is still going and how to stop it."""
    if not (err.is_terminal or os.environ.get("CLAIMLAW_PROGRESS")):
        yield
        return
    done = threading.Event()
    t0 = time.monotonic()

    def tick() -> None:
        if done.wait(after):
            return
        while not done.is_set():
            sys.stderr.write(f"\rsearching the claimer's normal lines: {time.monotonic() - t0:.0f} s "
                             "(Ctrl-C stops the search and rules on what it has found, marked unproven)")
            sys.stderr.flush()
            done.wait(every)
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()

    th = threading.Thread(target=tick, name="claimlaw-progress", daemon=True)
    th.start()
    try:
        yield
    finally:
        done.set()
        th.join(timeout=2)


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
    if not ruling.proven:
        out.print("[bold yellow]Not proven:[/] a search was stopped (its budget ran out, or Ctrl-C) before it settled "
                  "a count this ruling rests on.", highlight=False)
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
    from engine.lawinfo import clause_info, known_clauses

    info = clause_info(clause)
    if info is None:
        _fail(f"clause {clause!r}: not encoded (known: {', '.join(known_clauses())})", 1)
    assert info is not None
    if info.title:
        out.print(f"[bold]Law {info.id} — {info.title}[/]", highlight=False)
        out.print(info.paraphrase, highlight=False)
        out.print(f"Editions: {', '.join(info.editions)}", highlight=False)
        if info.unverified_in:
            out.print(f"[yellow]Text unverified[/] in: {', '.join(info.unverified_in)} (reconstructed; check the "
                      "official book)", highlight=False)
    table = Table(title="Rules")
    for col in ("rule", "clause", "editions", "reason", "text"):
        table.add_column(col)
    for r in info.rules:
        verified = "verified" if r.text_verified else "unverified"
        table.add_row(r.name, r.clause, ", ".join(r.editions), r.reason, verified)
    out.print(table)
    out.print("Tests: " + (", ".join(info.tests) if info.tests else "(none found — tests live in a source checkout)"),
              highlight=False)


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
) -> None:
    """Serve the web page: enter a claim diagram, read the ruling, its law chain and witness line."""
    from engine.web.app import serve

    serve(host, port)


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


@app.command("audit")
def audit_cmd(
    paths: Annotated[list[Path], typer.Argument(help="LIN/PBN files or directories of them.")],
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write every row as CSV here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write rows, problems and summary as JSON here.")]
    = None,
    dd_only: Annotated[bool, typer.Option("--dd-only", help="Only the double-dummy check.")] = False,
    workers: Annotated[int | None, typer.Option(help="Processes (default: up to 2).")] = None,
    limit: Annotated[int | None, typer.Option(help="Audit at most this many claims.")] = None,
    rows: Annotated[int, typer.Option(help="Rows of non-sound claims to show in the table.")] = 20,
) -> None:
    """Audit every claim in hand records: sound, at risk if doubted, impossible, over-concession."""
    from engine.audit import audit

    for p in paths:
        if not p.exists():
            _fail(f"{p}: no such file or directory")
    report = audit(paths, mode="dd" if dd_only else "full", workers=workers, limit=limit)
    shown = [r for r in report.rows if r.verdict not in ("sound", "dd_ok")][:rows]
    if shown:
        table = Table(title=f"Claims that are not sound (first {len(shown)})")
        for col in ("record", "contract", "left", "credited", "DD", "worst", "verdict", "law", "line"):
            table.add_column(col)
        for r in shown:
            table.add_row(f"{Path(r.source).name} {r.board} {r.room}", f"{r.contract} {r.declarer}",
                          str(r.remaining), str(r.claimed_for_declarer), str(r.dd_for_declarer),
                          "" if r.worst_normal_for_declarer is None else str(r.worst_normal_for_declarer),
                          r.verdict, r.law, _short(r.line, 70))
        out.print(table)
    problems = Counter(p.kind for p in report.problems)
    if problems:
        out.print("Unreadable records: " + ", ".join(f"{k} {n}" for k, n in problems.most_common()), highlight=False)
    out.print("[bold]Summary:[/] " + report.summary(), highlight=False)
    out.print("In LIN records the claimer is not recorded: each split is checked for declarer's side, and for "
              "the defenders' side when declarer's side is not at risk.", highlight=False)
    if csv_out:
        csv_out.write_text(report.to_csv(), encoding="utf-8")
    if json_out:
        json_out.write_text(report.to_json(), encoding="utf-8")


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)


if __name__ == "__main__":
    main()
