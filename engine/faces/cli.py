"""The ``claimlaw`` command: rule on a case, show what a clause encodes, print the schema, list packs."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, NoReturn

import click
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from claimlaw.engine.agreement import RULINGS_BUDGET
from claimlaw.engine.hinges import SECONDS as HINGE_SECONDS
from claimlaw.engine.hinges import STOP_SECONDS as HINGE_STOP
from claimlaw.facts.cards import Card, Seat
from claimlaw.facts.case import DEFAULT_EDITION, EDITIONS

_EDITIONS_SAID = f"{', '.join(EDITIONS[:-1])} or {EDITIONS[-1]}"  # "2017, 2007 or 1997"
_EDITIONS_HELP = f"{DEFAULT_EDITION} (default), {' or '.join(e for e in EDITIONS if e != DEFAULT_EDITION)}"

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="claimlaw — rulings on bridge claims and concessions (Laws 68-71).")
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

EXIT_INVALID = 2
EXIT_MISMATCH = 3


WIDTH = 160  # the longest line the default ruling prints


def visible(text: object) -> str:
    """Text with control and format characters shown as escapes (ESC as \\x1b), on one line."""
    s = str(text)
    if s.isprintable():
        return s
    out = []
    for ch in s:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:  # other separators (e.g. a no-break space) read as a space
            out.append(" ")
    return "".join(out)


def t(text: object, limit: int | None = None) -> str:
    """Case (or pack) text made safe for rich: control characters visible, markup escaped, optionally cut."""
    s = visible(text)
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    return escape(s)


def _json_safe(text: str) -> str:
    """JSON text with control and format characters escaped (json.dumps leaves C1 and bidi marks raw)."""
    def esc(ch: str) -> str:
        code = ord(ch)
        if code < 0x10000:
            return f"\\u{code:04x}"
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"

    return "".join(ch if ch.isprintable() or ch in " \n" else esc(ch) for ch in text)


def _fail(message: str, code: int = EXIT_INVALID, *, as_json: bool = False, field: str | None = None,
          file: str | None = None) -> NoReturn:
    """One line on stderr (or, with --json, one JSON object on stdout), then exit with ``code``."""
    if as_json:
        data: dict[str, Any] = {"error": message, "field": field or None}
        if file is not None:
            data["file"] = file
        sys.stdout.write(_json_safe(json.dumps(data, ensure_ascii=False)) + "\n")
        sys.stdout.flush()
    else:
        where = f"{file}: " if file is not None else ""
        what = f"{field}: " if field else ""
        err.print(f"[bold red]error:[/] {t(where + what + message, 2000)}", markup=True, highlight=False)
    raise typer.Exit(code)




@app.command("rule")
def rule_cmd(
    case_file: Annotated[Path, typer.Argument(help="A case file (YAML or JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Emit the ruling as JSON (errors too: "
                                          '{"error": ..., "field": ...} on stdout).')] = False,
    edition: Annotated[str | None, typer.Option(metavar="EDITION",
                                                help=f"Law edition: {_EDITIONS_HELP}.")] = None,
    pack: Annotated[list[str] | None,
                    typer.Option(metavar="NAME|PATH",
                                 help="Regulating-Authority pack (name or path); repeatable.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Add the facts each step of the law chain rested on "
                                          "and what it concluded.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="Show every guideline step, not just those the "
                                          "count used.")] = False,
    budget: Annotated[int | None, typer.Option(
        help="Search positions per play-core question. Default: no limit, search until every count is proven. "
             "A budget that runs out leaves the claim not established.")] = None,
    hinges: Annotated[bool, typer.Option(
        "--hinges/--no-hinges", help="After the ruling, the findings it hinges on: each is ruled under every answer "
        f"the rules tell apart (new candidates stop after {HINGE_SECONDS:g} s, every search after "
        f"{HINGE_STOP:g} s).")] = True,
) -> None:
    """Rule on CASE_FILE: the outcome, tricks, score, witness lines, the chain of law references and the findings
    the ruling hinges on (the Director's open questions)."""
    from claimlaw.engine.api import check_expect, play_core, rule
    from claimlaw.engine.host import RuleError
    from claimlaw.facts import CaseError, load_case
    from claimlaw.rules.rulebook import RulebookError

    if edition is not None and edition not in EDITIONS:
        _fail(f"unknown edition {edition!r}; use {_EDITIONS_SAID}", as_json=as_json, field="--edition")
    if budget is not None and budget < 1:
        _fail(f"{budget} is not a positive number of search positions", as_json=as_json, field="--budget")
    try:
        case = load_case(case_file)
    except CaseError as e:
        _fail(e.problem, as_json=as_json, field=e.field, file=str(case_file))
    try:
        core = play_core(budget)
        answers: dict[object, object] = {}  # the trick answers, shared with the hinges' rulings of variants
        with _progress():
            ruling = rule(case, edition=edition, packs=pack or None, verbose=verbose, play=core,
                          case_dir=case_file.parent, answers=answers)
    except KeyboardInterrupt:
        _fail("interrupted before the search had found any line to rule on", 130)
    except RulebookError as e:  # a pack that cannot be read or composed (PackError among them)
        _fail(str(e), as_json=as_json, field=("--pack" if pack else "regulations") if as_json else None)
    except RuleError as e:
        _fail(f"a rule failed: {e}", 1, as_json=as_json)
    report = None
    if hinges:
        from claimlaw.engine.hinges import hinges as find_hinges

        def rule_variant(v: object) -> object:
            return rule(v, edition=ruling.edition, packs=pack or None, play=core,  # type: ignore[arg-type]
                        case_dir=case_file.parent, answers=answers)

        try:
            with _progress():
                report = find_hinges(case, ruling, rule_fn=rule_variant,  # type: ignore[arg-type]
                                     seconds=HINGE_SECONDS, core=core, stop_after=HINGE_STOP)
        except KeyboardInterrupt:
            report = None
    diffs = check_expect(case, ruling) if (case.expect and (edition is None or case.expect.edition in (None, edition))
                                           ) else []
    if as_json:
        data = ruling.as_json(diffs if case.expect is not None else None)
        if report is not None:
            data["hinges"] = report.model_dump(mode="json")
        # written as is: rich's JSON view would decode the escapes of control characters again
        sys.stdout.write(_json_safe(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")
    else:
        if explain:
            print_ruling(case, ruling)
        else:
            print_brief(case, ruling, verbose=verbose)
        if report is not None:
            print_hinges(report)
        if case.expect is not None:
            if diffs:
                err.print("[bold red]expected ruling differs:[/]")
                for d in diffs:
                    err.print(f"  - {t(d)}", highlight=False)
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


def _wrapped(label: str, text: object, width: int | None) -> None:
    """``label`` and the text (escaped), wrapped at ``width`` with a hanging indent (None: one line)."""
    import textwrap

    body = visible(text)
    if width is None:
        out.print(f"{label}{escape(body)}", highlight=False)
        return
    plain = Text.from_markup(label).plain
    lines = textwrap.wrap(body, width=width, initial_indent=" " * len(plain), subsequent_indent="      ",
                          break_on_hyphens=False) or [" " * len(plain)]
    out.print(label + escape(lines[0][len(plain):]), highlight=False)
    for line in lines[1:]:
        out.print(escape(line), highlight=False)


def _headline(case: Any, ruling: Any, width: int | None = None) -> None:
    """Title, ruling, next step, tricks and score, weighted rows: the lines both views share."""
    if case.title:
        out.print(f"[bold underline]{t(case.title, WIDTH)}[/]", highlight=False)
    _wrapped("[bold]Ruling:[/] ", ruling.summary, width)
    if ruling.next_step:
        _wrapped("[bold]Next:[/] ", ruling.next_step, width)
    if ruling.tricks:
        tricks = ", ".join(f"{s} {n}" for s, n in ruling.tricks.items())
        line = f"[bold]Tricks:[/] {t(tricks)}"
        if ruling.score is not None:
            decl = case.board.declarer.value if case.board and case.board.declarer else "?"
            line += f"   [bold]Score:[/] {t(ruling.contract)} by {decl}, {ruling.score:+d} to {t(ruling.score_for)}"
        out.print(line, highlight=False)
    if ruling.class_of_player and ruling.witnesses:
        _wrapped("[bold]Class of player:[/] ", f"{ruling.class_of_player.replace('_', ' ')} ({ruling.class_from})",
                 width)
    for row in ruling.weighted:
        tricks = ", ".join(f"{s} {n}" for s, n in row.tricks.items())
        sc = f", {row.score:+d} to {t(ruling.score_for)}" if row.score is not None else ""
        out.print(f"[bold]Weighted:[/] {row.weight:.0%} of {t(tricks)}{sc}", highlight=False)
    if not ruling.proven:
        _wrapped("[bold yellow]Not proven:[/] ", "a search was stopped (its budget ran out, or Ctrl-C) before it "
                 "settled a count this ruling rests on.", width)


def _in_force(ruling: Any) -> str:
    return f"{t(ruling.edition)} Laws" + (f" + {t(', '.join(ruling.packs))}" if ruling.packs else "")


def _guidelines(w: Any) -> list[str]:
    """The guideline behind each careless or chosen card of witness ``w``, one line per guideline with its cards."""
    grouped: dict[str, list[tuple[str, str]]] = {}
    for ch in w.choices:
        grouped.setdefault(ch.why, []).append((Seat(ch.seat).long_name, Card.parse(ch.card).pretty))
    lines = []
    for why, plays in grouped.items():
        said: list[tuple[str, list[str]]] = []  # "North ♦A ♦K, South ♣A": each seat named once per run of its cards
        for seat, card in plays:
            if said and said[-1][0] == seat:
                said[-1][1].append(card)
            else:
                said.append((seat, [card]))
        lines.append(f"{why}: {', '.join(' '.join([seat, *cards]) for seat, cards in said)}")
    return lines


def _witness_tricks(w: Any) -> list[str]:
    """Each trick of a witness line compactly: ``N ♦A ♣6 ♦2 ♦5 →N`` (leader, cards from the leader, winner)."""
    out = []
    for i, cards in enumerate(w.tricks_played):
        leader = w.leaders[i] if i < len(w.leaders) else "?"
        won = w.winners[i] if i < len(w.winners) else "?"
        shown = " ".join(_pretty_card(c) for c in cards)
        out.append(f"{leader} {shown} →{won}")
    return out


def _pretty_card(card: str) -> str:
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return symbols.get(card[:1], card[:1]) + card[1:] if len(card) >= 2 else card


def print_brief(case: object, ruling: object, *, verbose: bool = False) -> None:
    """The ruling for people, fitting a screen: ruling, tricks and score, the witness line and the
    guideline behind each chosen card, the law chain one line per step, the notes."""
    from claimlaw.facts import Case, Ruling

    assert isinstance(case, Case) and isinstance(ruling, Ruling)
    _headline(case, ruling, WIDTH)
    for w in ruling.witnesses:
        out.print(f"[bold]Witness line[/] ({t(w.question.replace('_', ' '))}: {t(w.side)} take {w.tricks}; "
                  "each trick from its leader, → the winner):", highlight=False)
        tricks = _witness_tricks(w)
        row: list[str] = []
        for tr in tricks:
            if row and len("    " + "   ".join([*row, tr])) > WIDTH:
                out.print("    " + t("   ".join(row)), highlight=False)
                row = []
            row.append(tr)
        if row:
            out.print("    " + t("   ".join(row)), highlight=False)
        if not tricks and w.words:
            out.print("    " + t(w.words, WIDTH - 4), highlight=False)
        for g in _guidelines(w):
            out.print(f"    · {t(g, WIDTH - 6)}", highlight=False)
    out.print(f"[bold]Law chain[/] ({_in_force(ruling)}; outcome {t(ruling.outcome)}):", highlight=False)
    # a guideline the witness line used is listed under it, with its cards and source
    steps = [s for s in ruling.trace if verbose or not (s.rule.startswith("guideline.") and ruling.witnesses)]
    for i, s in enumerate(steps, 1):
        marks = (f" [cyan]\\[from {t(s.pack)}][/]" if s.pack else "") + (
            " [yellow](unverified)[/]" if not s.text_verified else "")
        room = WIDTH - 18 - (len(s.pack) + 8 if s.pack else 0) - (13 if not s.text_verified else 0)
        out.print(f"{i:>3}. [bold]{t(s.clause, 12):<12}[/] {t(s.reason, room)}{marks}", highlight=False)
        for c in s.cites:
            out.print(f"                  [cyan]↳ {t(c, WIDTH - 20)}[/]", highlight=False)
    for n in ruling.notes:
        _wrapped("[dim]note:[/] ", n, WIDTH)


def print_hinges(report: object) -> None:
    """The findings the ruling hinges on, as the Director's questions in order (a few lines after the chain)."""
    from claimlaw.engine.hinges import HingeReport

    assert isinstance(report, HingeReport)
    if not report.hinges and not report.unchecked and not report.unsettled:
        out.print("[bold]Hinges:[/] none: no finding the rules read would change this ruling.", highlight=False)
        return
    if report.hinges:
        out.print("[bold]Hinges[/] (the findings that change the ruling, most telling first):", highlight=False)
    for i, h in enumerate(report.hinges, 1):
        _wrapped(f"{i:>3}. ", h.text(), WIDTH)
    for what, names in (("not checked in time", report.unchecked), ("not settled by the search", report.unsettled)):
        if names:
            _wrapped(f"[dim]hinges {what}:[/] ", "; ".join(names), WIDTH)


def print_ruling(case: object, ruling: object) -> None:
    """The ruling explained (--explain): as the brief view, plus each step's rule, source, the facts it
    rested on and what it concluded."""
    from claimlaw.facts import Case, Ruling

    assert isinstance(case, Case) and isinstance(ruling, Ruling)
    _headline(case, ruling)
    out.print(f"[bold]Outcome:[/] {t(ruling.outcome)}   [bold]Edition:[/] {t(ruling.edition)}"
              + (f"   [bold]Packs:[/] {t(', '.join(ruling.packs))}" if ruling.packs else ""), highlight=False)
    for w in ruling.witnesses:
        out.print(f"[bold]Witness line[/] ({t(w.question.replace('_', ' '))}: {t(w.side)} take {w.tricks}): "
                  f"{t(w.words)}", highlight=False)
        for ch in w.choices:
            out.print(f"    · {t(ch.licence)}: {t(ch.text)}", highlight=False)
    out.print(f"[bold]Law chain:[/] {t(' → '.join(ruling.laws))}", highlight=False)
    for i, s in enumerate(ruling.trace, 1):
        mark = " [yellow](text unverified)[/]" if not s.text_verified else ""
        src = f" [dim]({t(s.source)})[/]" if s.source and not s.source.startswith("Laws of Duplicate Bridge") else ""
        where = t("+".join([s.edition, *s.packs]))
        by = f" [cyan]\\[from {t(s.pack)}][/]" if s.pack else ""
        out.print(f"{i:>3}. [bold]{t(s.clause)}[/] \\[{where}]{by}{mark} {t(s.rule)}: {t(s.reason)}{src}",
                  highlight=False)
        for c in s.cites:
            out.print(f"       [cyan]regulation:[/] {t(c)}", highlight=False)
        rested = _facts_text(s.facts)
        if rested:
            out.print(f"       rested on: {t(rested)}", highlight=False)
        concluded = {k: v for k, v in s.concluded.items() if k not in ("summary", "next_step", "witnesses")}
        if concluded:
            out.print(f"       concluded: {t(_facts_text(concluded))}", highlight=False)
    if ruling.considered:
        out.print("[bold]Also fired, with no effect on this ruling[/] (not in the law chain):", highlight=False)
        for s in ruling.considered:
            out.print(f"     [dim]{t(s.clause)} {t(s.rule)}: {t(s.reason)}[/]", highlight=False)
    for n in ruling.notes:
        out.print(f"[dim]note:[/] {t(n)}", highlight=False)


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
def law_cmd(clause: Annotated[str, typer.Argument(help="A clause id such as 70C, 68B2, 71, 68.preamble.")],
            pack: Annotated[list[str] | None, typer.Option(metavar="NAME|PATH", help="Show the clause as these "
                                                           "packs change it (repeatable).")] = None,
            edition: Annotated[str, typer.Option(metavar="EDITION",
                                                 help="With --pack: the edition.")] = DEFAULT_EDITION,
            ) -> None:
    """What claimlaw encodes for CLAUSE: our paraphrase, the rules implementing it, editions, tests; with --pack,
    the clause as the packs change it (rules added, replaced, withdrawn; parameters it reads, with citations)."""
    from claimlaw.engine.lawinfo import clause_info, known_clauses

    if pack:
        _law_under_packs(clause, pack, edition)
        return
    info = clause_info(clause)
    if info is None:
        _fail(f"clause {visible(clause)[:40]!r}: not encoded (known: {', '.join(known_clauses())})")
    assert info is not None
    if info.title:
        out.print(f"[bold]Law {t(info.id)} — {t(info.title)}[/]", highlight=False)
        out.print(t(info.paraphrase), highlight=False)
        out.print(f"Editions: {t(', '.join(info.editions))}", highlight=False)
        if info.unverified_in:
            out.print(f"[yellow]Text unverified[/] in: {t(', '.join(info.unverified_in))} (reconstructed; check "
                      "the official book)", highlight=False)
    table = Table(title="Rules")
    for col in ("rule", "clause", "editions", "reason", "text"):
        table.add_column(col)
    for r in info.rules:
        verified = "verified" if r.text_verified else "unverified"
        table.add_row(t(r.name), t(r.clause), t(", ".join(r.editions)), t(r.reason), verified)
    out.print(table)
    out.print("Tests: " + t(", ".join(info.tests) if info.tests else "(none found — tests live in a source checkout)"),
              highlight=False)


def _law_under_packs(clause: str, packs: list[str], edition: str) -> None:
    from claimlaw.engine.lawinfo import clause_under_packs
    from claimlaw.rules.rulebook import RulebookError

    if edition not in EDITIONS:
        _fail(f"unknown edition {edition!r}; use {_EDITIONS_SAID}", field="--edition")
    try:
        view = clause_under_packs(clause, packs, edition)
    except RulebookError as e:
        _fail(str(e), field="--pack")
    if view is None:
        _fail(f"clause {visible(clause)[:40]!r}: not encoded")
    assert view is not None
    out.print(f"[bold]Law {t(view.id)}[/] under {t('+'.join([edition, *view.packs]))}", highlight=False)
    for name, status, reason, source in view.rows:
        out.print(f"  [bold]{t(name)}[/] [cyan]({t(status)})[/]: {t(reason)}", highlight=False)
        if source and not source.startswith("Laws of Duplicate Bridge"):
            out.print(f"      source: {t(source)}", highlight=False)
    for line in view.params:
        out.print(f"parameter {t(line)}", highlight=False)


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(help="Rulings searching at once, each in its own process.")] = 6,
    time_limit: Annotated[float, typer.Option(
        help="Seconds a ruling searches before it is stopped and ruled on the line found (not proven).")] = 60.0,
    queue: Annotated[int, typer.Option(help="Rulings that may wait for a worker; more are refused (429).")] = 16,
    per_client: Annotated[int, typer.Option(help="Rulings running or waiting for one client address.")] = 2,
    memory: Annotated[int, typer.Option(metavar="MB", help="A worker's memory past which its ruling is stopped "
                                        "as at the time limit.")] = 2048,
    allowed_host: Annotated[list[str] | None, typer.Option(
        metavar="NAME[:PORT]", help="A further name the server answers to, as a reverse proxy sends it in "
        "Host and the browser in Origin; repeatable.")] = None,
    abandon_after: Annotated[float, typer.Option(
        help="Seconds without a poll after which a ruling is killed (the page polls every second).")] = 30.0,
    timeout: Annotated[float, typer.Option(
        help="Seconds a connection has to send a request's head, and again its body.")] = 10.0,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        metavar="IPS", help="Behind a reverse proxy: its addresses (comma-separated), whose X-Forwarded-For "
        "header names the client. Default: trust no header.")] = None,
    store: Annotated[Path | None, typer.Option(
        help="An audit's results store (claimlaw audit --out) to browse on the page, read-only: its rows by "
        "verdict, contract, event file and board, each opening as a ruling.")] = None,
) -> None:
    """Serve the web page: enter a claim diagram, read the ruling, its law chain and witness line.

    The limits, and how to run it behind a reverse proxy: docs/server.md."""
    from claimlaw.engine.faces.web.app import serve
    from claimlaw.engine.faces.web.rulings import Limits

    if not 0 < port < 65536:
        _fail(f"{port} is not a port (1-65535)", field="--port")
    limits = Limits(workers=workers, time_limit=time_limit, queue=queue, per_client=per_client, memory_mb=memory,
                    abandon_after=abandon_after, warm=min(1, workers))
    try:
        limits.check()
    except ValueError as e:
        _fail(str(e).split(": ", 1)[1], field="--" + str(e).split(":")[0])
    for name in allowed_host or []:
        if not re.fullmatch(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?", name):
            _fail(f"{name!r} is not a host name, with an optional :port", field="--allowed-host")
    if not 0.5 <= timeout <= 3600:
        _fail(f"{timeout:g} is not between 0.5 and 3600 seconds", field="--timeout")
    if store is not None:
        from claimlaw.engine.faces.audit.store import StoreError
        from claimlaw.engine.faces.web.store_view import StoreView

        try:
            StoreView(store)
        except StoreError as e:
            _fail(str(e), field="--store")
    serve(host, port, limits, allowed_hosts=allowed_host or (), forwarded_allow_ips=forwarded_allow_ips,
          timeout=timeout, store=str(store) if store else None)


@app.command("schema")
def schema_cmd(pack: Annotated[bool, typer.Option("--pack", help="The JSON Schema of a data pack instead.")] = False
               ) -> None:
    """Print the JSON Schema of a case file (or, with --pack, of a data pack)."""
    if pack:
        from claimlaw.engine.packref import data_pack_schema

        out.print_json(json.dumps(data_pack_schema()))
        return
    from claimlaw.facts import case_schema

    out.print_json(json.dumps(case_schema()))


@app.command("packs")
def packs_cmd(reference: Annotated[bool, typer.Option("--reference", help="Print the reference for pack writers "
                                                      "(parameters, case facts, switches, guidelines, priorities), "
                                                      "generated from the code.")] = False) -> None:
    """List the Regulating-Authority packs that can be named with --pack."""
    from claimlaw.engine.packs import list_packs

    if reference:
        from claimlaw.engine.packref import reference_markdown

        sys.stdout.write(reference_markdown())
        return

    table = Table(title="Regulating-Authority packs")
    for col in ("name", "title", "source", "from"):
        table.add_column(col)
    for p in list_packs():
        table.add_row(t(p.name), t(p.title), t(p.source), t(p.origin))
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
    edition: Annotated[str | None, typer.Option(
        metavar="EDITION", help=f"Law edition each claim is ruled under: {_EDITIONS_HELP}.")] = None,
    pack: Annotated[list[str] | None, typer.Option(metavar="NAME|PATH",
                                                   help="Regulating-Authority pack; repeatable.")] = None,
    player_class: Annotated[str, typer.Option("--class", metavar="CLASS",
                                              help="Class of player assumed (the 70 footnote): beginner, club, "
                                                   "expert or world_class (vugraph players).")] = "world_class",
    hinges: Annotated[bool, typer.Option("--hinges", help="For each at-risk claim, name the finding that would make "
                                         "it sound (the Director's question); costs more rulings.")] = False,
) -> None:
    """Audit every claim in hand records: sound, at risk if doubted, impossible, over-concession.

    Each claim is put to the rules as ``claimlaw rule`` puts a case: a silent claim disputed at once (Law 70), and
    an agreed claim or concession raised within the correction period (Laws 69B and 71).

    Exit status 1 when any claim's row is 'error' (after everything else was written)."""
    from claimlaw.engine.faces.audit.claims import AUDIT_BUDGET
    from claimlaw.engine.faces.audit.run import WorkerStartError, audit
    from claimlaw.engine.faces.audit.store import StoreError, StoreWriteError

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
    if edition is not None and edition not in EDITIONS:
        _fail(f"--edition: unknown edition {edition!r}; use {_EDITIONS_SAID}")
    if player_class not in ("beginner", "club", "expert", "world_class"):
        _fail(f"--class: {player_class!r} is not a class of player; use beginner, club, expert or world_class")
    if scheduler is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            _fail("--scheduler: Dask is not installed; pip install 'claimlaw[cluster]'")
    from claimlaw.engine.packs import PackError

    resume = f"; every finished claim is in {out_db}: run again to finish" if out_db else ""
    try:
        report = audit(paths, mode="dd" if dd_only else "full", workers=workers, limit=limit,
                       budget=budget or AUDIT_BUDGET, timeout=timeout or None, out=out_db, scheduler=scheduler,
                       batch=batch, retry=retry, edition=edition, packs=pack or (), class_of_player=player_class,
                       hinges=hinges)
    except PackError as e:
        _fail(f"--pack: {e}")
    except StoreWriteError as e:
        _fail(str(e), 1)
    except StoreError as e:
        _fail(f"--out: {e}")
    except WorkerStartError as e:
        _fail(f"a worker process could not start: {e}", 1)
    except KeyboardInterrupt:
        _fail("interrupted" + resume, 130)
    except OSError as e:
        where = f"{e.filename}: " if e.filename else "--scheduler: " if scheduler else ""
        _fail(f"{where}{e.strerror or e}" + resume, 1)
    failed = _export_audit(report, csv_out, json_out)  # written first: whatever the terminal does after
    _print_audit(report, rows)
    how = report.settings
    out.print("In LIN records the claimer is not recorded: each split is checked for declarer's side, and for "
              "the defenders' side when declarer's side is not at risk. "
              + (f"Ruled under the {t(how.get('edition'))} Laws"
                 + (f" with {t(', '.join(how.get('packs') or []))}" if how.get("packs") else "")
                 + f"; players taken to be {str(how.get('class_of_player', '')).replace('_', ' ')} (the class the "
                   "70 footnote asks about)." if not dd_only else ""), highlight=False)
    if failed:
        _fail(failed, 1)
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
    from claimlaw.engine.faces.audit.claims import AuditReport
    from claimlaw.engine.faces.audit.store import Store, StoreError, describe

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
    failed = _export_audit(report, csv_out, json_out)  # written first: whatever the terminal does after
    out.print(f"[bold]Store:[/] {t(store)}: {t(describe(settings))}; {len(runs)} run(s)", highlight=False)
    _print_audit(report, rows)
    if failed:
        _fail(failed, 1)


def _run_seconds(run: dict[str, object]) -> float:
    from datetime import datetime

    if not run.get("started") or not run.get("finished"):
        return 0.0
    fmt = "%Y-%m-%dT%H:%M:%SZ"
    return (datetime.strptime(str(run["finished"]), fmt) - datetime.strptime(str(run["started"]), fmt)).total_seconds()


ERRORS_SHOWN = 50  # error rows are listed whatever --rows says, up to this many
PROBLEMS_SHOWN = 10  # unreadable records listed with their reasons


def _print_audit(report: object, rows: int) -> None:
    from claimlaw.engine.faces.audit.claims import AuditReport

    assert isinstance(report, AuditReport)
    shown = [r for r in report.rows if r.verdict not in ("sound", "dd_ok")][:rows]
    if shown:
        table = Table(title=f"Claims that are not sound (first {len(shown)})")
        for col in ("record", "contract", "left", "credited", "DD", "worst", "verdict", "law", "line"):
            table.add_column(col)
        for r in shown:
            verdict = r.verdict + ("" if r.proven or r.verdict in ("error", "timeout") else " (unproven)")
            # every text from a record is escaped: a board label like ``[/x]1`` is text, not markup
            table.add_row(t(f"{Path(r.source).name} {r.board} {r.room}", 80), t(f"{r.contract} {r.declarer}"),
                          _num(r.remaining), _num(r.claimed_for_declarer), _num(r.dd_for_declarer),
                          _num(r.worst_normal_for_declarer), t(verdict), t(r.law), t(_short(r.line or r.message, 70)))
        out.print(table)
    errors = report.errors
    for r in errors[:ERRORS_SHOWN]:
        out.print(f"[red]error[/] {t(r.source)} board {t(r.board, 80)} {t(r.room)} claim {r.claim_index}: "
                  f"{t(r.message, 500)} [dim](position {t(r.position)}, leader {t(r.leader)}, "
                  f"trick {t(r.trick or '-')})[/]", highlight=False)
    if len(errors) > ERRORS_SHOWN:
        out.print(f"… and {len(errors) - ERRORS_SHOWN} more error rows (claimlaw audit report DB --csv F lists all)",
                  highlight=False)
    problems = Counter(p.kind for p in report.problems)
    if problems:
        out.print("Unreadable records: " + t(", ".join(f"{k} {n}" for k, n in problems.most_common())),
                  highlight=False)
        for p in report.problems[:PROBLEMS_SHOWN]:
            out.print(f"  {t(p, 300)}", highlight=False)
        if len(report.problems) > PROBLEMS_SHOWN:
            out.print(f"  … and {len(report.problems) - PROBLEMS_SHOWN} more (--json lists them all)", highlight=False)
    out.print("[bold]Summary:[/] " + t(report.summary()), highlight=False)


def _num(v: int | None) -> str:
    return "" if v is None else str(v)


def _export_audit(report: object, csv_out: Path | None, json_out: Path | None) -> str:
    """Write --csv and --json; the one-line reason when one could not be written (else "")."""
    from claimlaw.engine.faces.audit.claims import AuditReport

    assert isinstance(report, AuditReport)
    failed = []
    for path, text in ((csv_out, report.to_csv), (json_out, report.to_json)):
        if path:
            try:
                path.write_text(text(), encoding="utf-8")
            except OSError as e:
                failed.append(f"{path}: cannot write ({e.strerror or e})")
    return "; ".join(failed)


@app.command("rulings")
def rulings_cmd(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="Folders (or files) of published cases; default ../shared/data/rulings and tests/rulings/cases.")] = None,
    full: Annotated[bool, typer.Option("--full", help="Print whole witness lines.")] = False,
    budget: Annotated[int, typer.Option(
        help="Search positions per play-core question (a count left open shows as unproven).")] = RULINGS_BUDGET,
) -> None:
    """Published rulings against claimlaw's: case, published, claimlaw, clause chain, witness line."""
    from claimlaw.engine.agreement import AgreementRow, case_files, rule_published
    from claimlaw.facts import CaseError

    root = Path(__file__).resolve().parents[2]
    dirs = list(paths or [root.parent / "shared" / "data" / "rulings", root / "tests" / "rulings" / "cases"])
    for p in paths or []:
        if not p.exists():
            _fail(f"{p}: no such file or directory")
    if budget < 1:
        _fail(f"--budget: {budget} is not a positive number of search positions")
    files = case_files([d for d in dirs if d.exists()])
    if not files:
        _fail("no published case files found in " + ", ".join(str(d) for d in dirs))
    table = Table(title="Published rulings and claimlaw")
    for col in ("case", "published", "claimlaw", "agrees", "clause chain"):
        table.add_column(col, overflow="fold")
    rows = []
    errors = 0
    for f in files:
        try:
            row = rule_published(f, budget=budget)
        except (CaseError, ValueError, RuntimeError, ArithmeticError, LookupError, TypeError) as e:
            # one case that cannot be ruled is that case's row, never the table's end
            errors += 1
            msg = " ".join(str(e).split())[:300] or type(e).__name__
            row = AgreementRow(case=f.stem, published="?", claimlaw=f"error: {type(e).__name__}", agrees=False,
                               differences=[f"not ruled: {msg}"])
        rows.append(row)
        table.add_row(row.case, row.published, row.claimlaw + ("" if row.proven else " (unproven)"),
                      "yes" if row.agrees else "disputed" if row.disputed else "NO", " → ".join(row.chain))
    out.print(table)
    for row in rows:
        out.print(f"[bold]{row.case}[/] witness: {row.witness if full else _short(row.witness, 240)}", highlight=False)
        for d in row.differences:
            out.print(f"    differs: {d}", highlight=False)
        if row.disputed:
            out.print(f"    disputed: {row.disputed if full else _short(row.disputed, 240)}", highlight=False)
    agreed = sum(r.agrees for r in rows)
    disputed = sum(bool(r.disputed) for r in rows)
    out.print(f"[bold]Agreement:[/] {agreed} of {len(files)} cases rule as published"
              + (f"; {disputed} disputed, where claimlaw rules its reasoned answer." if disputed else "."),
              highlight=False)
    if errors:
        err.print(f"[bold red]{errors} case(s) could not be ruled[/] (see their rows)", highlight=False)
        raise typer.Exit(1)


def main() -> None:
    """Console-script entry point: an unexpected error is one line and status 1 (CLAIMLAW_DEBUG=1: the traceback)."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)
    except Exception as e:  # pragma: no cover - a bug: say so in one line, never a traceback
        if os.environ.get("CLAIMLAW_DEBUG"):
            raise
        if isinstance(e, ImportError) and e.name == "durable_rules_engine":  # durable's C extension did not load
            err.print(f"[bold red]error:[/] {t(e, 500)}", highlight=False)  # the host's message names the rebuild
            sys.exit(1)
        err.print(f"[bold red]internal error:[/] {t(type(e).__name__)}: {t(e, 500)} (please report it; set "
                  "CLAIMLAW_DEBUG=1 for the traceback)", highlight=False)
        sys.exit(1)


if __name__ == "__main__":
    main()
