"""The web page's server: a Starlette app over the real engine (``claimlaw serve``).

Routes: ``/`` the page; ``/static/*`` its script and style; ``/law/{clause}`` a page per clause;
``/api/meta`` editions and packs; ``/api/check`` validate a case; ``/api/import`` read pasted YAML, JSON,
PBN, LIN or a BBO handviewer link; ``/api/yaml`` the case as a YAML file; ``/api/law/{clause}``;
``/api/rulings`` start a ruling, ``/api/rulings/{id}`` its progress and result (DELETE stops it).

Rulings run one at a time per server process on a single worker thread: durable_rules and DDS are not
thread-safe, and the play core holds no lock of its own.
"""

from __future__ import annotations

import contextlib
import ctypes
import html
import json
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import yaml
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from claimlaw.facts import Case, CaseError, Ruling, case_from_dict

STATIC = Path(__file__).resolve().parent / "static"
EDITIONS = ("2017", "2007", "1997")
MAX_BODY = 200_000  # bytes of a posted case or pasted record
KEEP_JOBS = 32      # finished rulings kept for their pages to fetch
QUESTIONS = ("double_dummy", "worst_normal", "cannot_lose", "can_make")


# -- cases in and out -----------------------------------------------------------------------------------


def error_body(e: CaseError) -> dict[str, Any]:
    """A case error as the page shows it at the field: the same one line as the CLI."""
    return {"error": {"field": e.field, "problem": e.problem, "message": str(e)}}


def read_case(data: Any) -> Case:
    """Validate a case posted by the page (a JSON object, as a case file would hold it). Its ``regulations`` may
    name installed packs only: the server never reads a file, nor runs code, because a case names it."""
    from claimlaw.engine.packs import PackError, load_case_pack

    case = case_from_dict(data)
    for i, ref in enumerate(case.regulations):
        try:
            load_case_pack(ref, case_dir=None)
        except PackError as e:
            raise CaseError(f"regulations[{i}]", str(e).removeprefix("regulations: ")) from None
    return case


def case_yaml(data: dict[str, Any]) -> str:
    """The case as a YAML file that ``claimlaw rule`` reads unchanged (validated first)."""
    read_case(data)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def import_text(text: str) -> dict[str, Any]:
    """A case (as a dict) from pasted text: a case file (YAML or JSON), a PBN or LIN record, or a BBO
    handviewer link. For a record with several claims, the first one."""
    raw = text.strip()
    if not raw:
        raise CaseError("paste", "nothing to read: paste a case file, a PBN or LIN record, or a BBO link")
    if raw.startswith(("http://", "https://")) or "handviewer" in raw:
        q = parse_qs(urlparse(raw).query)
        if "lin" not in q:
            raise CaseError("paste", "the link has no lin= part (a BBO handviewer link carries the deal in it)")
        return _from_record(q["lin"][0], "lin")
    if re.search(r'^\s*\[\s*\w+\s+"', raw, re.M):
        return _from_record(raw, "pbn")
    if re.match(r"^[a-z]{2}\|", raw):
        return _from_record(unquote(raw), "lin")
    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise CaseError("paste", f"not valid YAML{where}, nor a PBN or LIN record") from None
    if not isinstance(data, dict):
        raise CaseError("paste", "not a case file (a mapping of keys: board, claim, ...), PBN or LIN record")
    read_case(data)
    return data


def _from_record(text: str, fmt: str) -> dict[str, Any]:
    from claimlaw.engine.records.common import ClaimRecord
    from claimlaw.engine.records.lin import read_lin
    from claimlaw.engine.records.pbn import read_pbn

    items = read_lin(text, "pasted LIN") if fmt == "lin" else read_pbn(text, "pasted PBN")
    claims = [i for i in items if isinstance(i, ClaimRecord)]
    if not claims:
        why = "; ".join(str(i) for i in items[:1]) or "no board ends in a claim"
        raise CaseError("paste", f"no claim read from the {fmt.upper()} record ({why})")
    data: dict[str, Any] = claims[0].case.model_dump(mode="json", exclude_defaults=True)
    return data


def diagram(case: Case) -> dict[str, Any] | None:
    """The position at the claim for the page's diagram: each seat's cards, the trick in progress, the leader."""
    from claimlaw.facts.cards import SEATS, sort_cards

    pos = case.position()
    if pos is None:
        return None
    return {
        "hands": {s.value: [str(c) for c in sort_cards(pos.hands[s])] for s in SEATS},
        "trick": [str(c) for c in pos.trick],
        "leader": pos.leader.value,
        "won": {k.value: v for k, v in pos.won.items()},
        "trump": pos.trump.value if pos.trump else None,
    }


def ruling_json(case: Case, ruling: Ruling) -> dict[str, Any]:
    """The ruling as ``claimlaw rule --json`` prints it: the model, its law chain and the ``expect`` check."""
    from claimlaw.engine.api import check_expect

    return ruling.as_json(check_expect(case, ruling) if case.expect is not None else None)  # as without --edition


def view_extras(case: Case, ruling: Ruling) -> dict[str, Any]:
    """What the page draws beside the ruling: the diagram, the guideline behind each marked card, and our
    paraphrase of each clause in the trace."""
    from claimlaw.facts.cards import Card
    from claimlaw.rules.clauses import CLAUSES

    marks: list[list[dict[str, str]]] = []
    for w in ruling.witnesses:
        row = []
        for ch in w.parsed_choices():
            if isinstance(ch, str):
                continue
            try:
                card = str(Card.parse(ch.card))
            except ValueError:
                continue
            row.append({"seat": ch.seat[0], "card": card, "licence": ch.licence, "text": ch.why})
        marks.append(row)
    clauses = {c: {"title": CLAUSES[c].title, "paraphrase": CLAUSES[c].paraphrase}
               for c in ruling.laws if c in CLAUSES}
    return {"diagram": diagram(case), "marks": marks, "clauses": clauses}


# -- rulings, one at a time ------------------------------------------------------------------------------


def _interrupt(thread_id: int) -> None:
    """Raise KeyboardInterrupt in that thread at its next Python instruction (as Ctrl-C does for the CLI)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(KeyboardInterrupt))


class StoppableCore:
    """The play core as the rules see it, with a stop button: a stop during a search interrupts it (the search
    keeps what it found, marked unproven, as Ctrl-C does), and every later question gets no budget."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.questions = 0
        self.searching = ""
        self.stopped = False
        self._lock = threading.Lock()
        self._thread: int | None = None
        self._interrupted = 0.0

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self.core, name)
        return self._wrap(name, fn) if name in QUESTIONS else fn

    def _wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def ask(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self._thread = threading.get_ident()
                self.searching = name
                if self.stopped:
                    self.core.stopped = True
            try:
                try:
                    return fn(*args, **kwargs)
                except KeyboardInterrupt:  # stopped outside the search's own handler: answer with no budget
                    self.core.stopped = True
                    return fn(*args, **kwargs)
            finally:
                with self._lock:
                    self._thread = None
                    self.searching = ""
                    self.questions += 1

        return ask

    def stop(self) -> None:
        """Stop the search under way (if any) and give later questions no budget."""
        with self._lock:
            self.stopped = True
            self.core.stopped = True
            if self._thread is not None:
                _interrupt(self._thread)
                self._interrupted = time.monotonic()

    def nudge(self, after: float = 2.0) -> None:
        """Interrupt again a search still running ``after`` seconds past a stop (an interrupt that arrived
        inside native code, or that something swallowed)."""
        with self._lock:
            if self.stopped and self._thread is not None and time.monotonic() - self._interrupted > after:
                _interrupt(self._thread)
                self._interrupted = time.monotonic()


@dataclass
class Job:
    """One ruling asked for by the page."""

    id: str
    case: Case
    budget: int | None
    state: str = "queued"  # queued, running, done, failed, stopped
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    result: dict[str, Any] | None = None
    message: str = ""
    core: StoppableCore | None = None
    future: Future[None] | None = None

    def status(self) -> dict[str, Any]:
        """What the page polls: state, seconds, questions answered, and the ruling once there is one."""
        if self.core is not None and self.state == "running":
            self.core.nudge()
        end = self.finished if self.finished is not None else time.monotonic()
        out: dict[str, Any] = {"id": self.id, "state": self.state, "seconds": round(end - self.started, 1),
                               "questions": self.core.questions if self.core else 0,
                               "searching": self.core.searching if self.core else "",
                               "stopped": bool(self.core and self.core.stopped)}
        if self.message:
            out["message"] = self.message
        if self.result is not None:
            out.update(self.result)
        return out


class Rulings:
    """Rulings run on one worker thread, one at a time; the page polls them and may stop them."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="claimlaw-ruling")
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, case: Case, budget: int | None) -> Job:
        job = Job(uuid.uuid4().hex, case, budget)
        with self._lock:
            self.jobs[job.id] = job
            while len(self.jobs) > KEEP_JOBS:
                old_id, old = next(iter(self.jobs.items()))
                if old.state in ("queued", "running"):
                    break
                del self.jobs[old_id]
        job.future = self.executor.submit(self._run, job)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self.jobs.get(job_id)

    def stop(self, job: Job) -> None:
        if job.future is not None and job.future.cancel():
            job.state, job.finished, job.message = "stopped", time.monotonic(), "stopped before it started"
        elif job.core is not None:
            job.core.stop()

    def shutdown(self) -> None:
        for job in list(self.jobs.values()):
            if job.state in ("queued", "running"):
                self.stop(job)
        self.executor.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    def _run(job: Job) -> None:
        from claimlaw.engine.api import rule
        from claimlaw.engine.host import RuleError
        from claimlaw.engine.packs import PackError
        from claimlaw.engine.play import PlayCore

        job.core = StoppableCore(PlayCore(budget=job.budget))
        job.state = "running"
        job.started = time.monotonic()
        try:
            ruling = rule(job.case, play=job.core)
            job.result = {"ruling": ruling_json(job.case, ruling), "view": view_extras(job.case, ruling)}
            job.state = "done"
        except KeyboardInterrupt:
            job.state, job.message = "stopped", "stopped before the search had found any line to rule on"
        except PackError as e:
            job.state, job.message = "failed", str(e)
        except RuleError as e:
            job.state, job.message = "failed", f"a rule failed: {e}"
        except CaseError as e:
            job.state, job.message = "failed", str(e)
        except Exception as e:  # noqa: BLE001 - the page gets one line, never a traceback
            job.state, job.message = "failed", f"internal error ({type(e).__name__}): {e}"[:300]
        finally:
            job.finished = time.monotonic()


# -- routes ------------------------------------------------------------------------------------------------


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise CaseError("", f"the request is larger than {MAX_BODY:,} bytes")
    try:
        return json.loads(body or b"null")
    except json.JSONDecodeError as e:
        raise CaseError("", f"not valid JSON: {e.msg}") from None


async def case_error(request: Request, exc: Exception) -> Response:
    """A bad case, from any route: the CLI's one-line message with its field, status 422."""
    assert isinstance(exc, CaseError)
    return JSONResponse(error_body(exc), status_code=422)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def meta(request: Request) -> Response:
    from claimlaw.engine.lawinfo import known_clauses
    from claimlaw.engine.packs import list_packs

    packs = [{"name": p.name, "title": p.title, "source": p.source, "origin": p.origin, "error": p.error}
             for p in list_packs()]
    return JSONResponse({"editions": list(EDITIONS), "packs": packs, "clauses": known_clauses()})


async def check(request: Request) -> Response:
    read_case(await _json_body(request))
    return JSONResponse({"ok": True})


async def import_(request: Request) -> Response:
    data = await _json_body(request)
    text = data.get("text", "") if isinstance(data, dict) else ""
    if not isinstance(text, str):
        raise CaseError("paste", "send the pasted text as a string")
    return JSONResponse({"case": import_text(text)})


async def download_yaml(request: Request) -> Response:
    data = await _json_body(request)
    text = case_yaml(data)
    name = re.sub(r"[^a-z0-9]+", "-", str(data.get("title") or "claim").lower()).strip("-")[:60] or "claim"
    return Response(text, media_type="application/yaml",
                    headers={"Content-Disposition": f'attachment; filename="{name}.yaml"'})


async def start_ruling(request: Request) -> Response:
    data = await _json_body(request)
    if not isinstance(data, dict) or "case" not in data:
        raise CaseError("", 'send {"case": {...}, "budget": null}')
    budget = data.get("budget")
    if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool) or budget < 1):
        raise CaseError("budget", f"{budget!r} is not a positive number of search positions")
    case = read_case(data["case"])
    job = request.app.state.rulings.start(case, budget)
    return JSONResponse(job.status(), status_code=202)


def _job(request: Request) -> Job:
    job = request.app.state.rulings.get(request.path_params["job_id"])
    if job is None:
        raise HTTPException(404, "no such ruling (the server keeps the last few; ask again)")
    return job


async def ruling_status(request: Request) -> Response:
    return JSONResponse(_job(request).status())


async def stop_ruling(request: Request) -> Response:
    job = _job(request)
    request.app.state.rulings.stop(job)
    return JSONResponse(job.status())


def _clause_json(clause: str) -> dict[str, Any]:
    from claimlaw.engine.lawinfo import clause_info, known_clauses

    info = clause_info(clause)
    if info is None:
        raise HTTPException(404, f"clause {clause!r}: not encoded (known: {', '.join(known_clauses())})")
    return {"id": info.id, "title": info.title, "paraphrase": info.paraphrase, "editions": list(info.editions),
            "unverified_in": list(info.unverified_in), "tests": info.tests,
            "rules": [{"name": r.name, "clause": r.clause, "editions": list(r.editions), "reason": r.reason,
                       "text_verified": r.text_verified} for r in info.rules]}


async def law_api(request: Request) -> Response:
    return JSONResponse(_clause_json(request.path_params["clause"]))


async def law_page(request: Request) -> Response:
    try:
        c = _clause_json(request.path_params["clause"])
    except HTTPException as e:
        return _page("Clause not encoded", f"<p>{html.escape(str(e.detail))}</p>", 404)
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(r['name'])}</td><td>{e(r['clause'])}</td><td>{e(', '.join(r['editions']))}</td>"
        f"<td>{e(r['reason'])}</td><td>{'verified' if r['text_verified'] else 'unverified'}</td></tr>"
        for r in c["rules"])
    body = f"<h1>Law {e(c['id'])}{' — ' + e(c['title']) if c['title'] else ''}</h1>"
    if c["paraphrase"]:
        body += f'<p class="paraphrase">{e(c["paraphrase"])}</p><p>Editions: {e(", ".join(c["editions"]))}</p>'
    if c["unverified_in"]:
        body += (f"<p class='warn'>Text unverified in: {e(', '.join(c['unverified_in']))} (reconstructed; check "
                 "the official book)</p>")
    body += ("<p class='note'>Our own paraphrase: the Laws are copyrighted, so claimlaw cites the clause and "
             "never its text.</p>")
    if rows:
        body += ("<h2>Rules</h2><div class='scroll'><table><thead><tr><th>rule</th><th>clause</th><th>editions"
                 f"</th><th>reason</th><th>text</th></tr></thead><tbody>{rows}</tbody></table></div>")
    tests = ", ".join(e(t) for t in c["tests"]) or "(none found — tests live in a source checkout)"
    body += f"<h2>Tests</h2><p class='tests'>{tests}</p>"
    return _page(f"Law {c['id']}", body)


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)} · claimlaw</title><link rel='stylesheet' href='/static/style.css'></head>"
        f"<body><main class='law'><p><a href='/'>← claimlaw</a></p>{body}</main></body></html>",
        status_code=status)


async def http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    detail = getattr(exc, "detail", "") or "error"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": {"field": "", "message": str(detail)}}, status_code=status)
    return _page("Not found" if status == 404 else "Error", f"<p>{html.escape(str(detail))}</p>", status)


async def server_error(request: Request, exc: Exception) -> Response:
    message = f"server error ({type(exc).__name__}); your case is kept on the page"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": {"field": "", "message": message}}, status_code=500)
    return _page("Error", f"<p>{html.escape(message)}</p>", 500)


def create_app() -> Starlette:
    """The web application, with its own ruling worker."""
    rulings = Rulings()
    routes = [
        Route("/", index),
        Route("/law/{clause:path}", law_page),
        Route("/api/meta", meta),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/import", import_, methods=["POST"]),
        Route("/api/yaml", download_yaml, methods=["POST"]),
        Route("/api/law/{clause:path}", law_api),
        Route("/api/rulings", start_ruling, methods=["POST"]),
        Route("/api/rulings/{job_id}", ruling_status, methods=["GET"]),
        Route("/api/rulings/{job_id}", stop_ruling, methods=["DELETE"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        rulings.shutdown()

    app = Starlette(routes=routes, exception_handlers={CaseError: case_error, HTTPException: http_error,
                                                         Exception: server_error},
                    lifespan=lifespan)
    app.state.rulings = rulings
    return app


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the page on uvicorn until Ctrl-C."""
    import uvicorn

    print(f"claimlaw: serving the web page at http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
