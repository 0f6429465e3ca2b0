"""The web page's server: a Starlette app over the real engine (``claimlaw serve``).

Routes: ``/`` the page; ``/static/*`` its script and style; ``/law/{clause}`` a page per clause;
``/api/meta`` editions and packs; ``/api/check`` validate a case; ``/api/import`` read pasted YAML, JSON,
PBN, LIN or a BBO handviewer link; ``/api/yaml`` the case as a YAML file; ``/api/law/{clause}``;
``/api/rulings`` start a ruling (``after``: the id of the client's earlier ruling this one varies, whose trick
answers it reuses), ``/api/rulings/{id}`` its progress, the ruling and then its hinges (DELETE stops it);
with ``--store``, ``/api/store`` (counts per verdict), ``/api/store/rows`` (filtered, paged) and
``/api/store/case`` (a row as the case the audit ruled on; engine/faces/web/store_view.py).

Each ruling runs in a worker process under a time limit, a bounded queue and a share per client
(engine/faces/web/rulings.py); parsing a case or a pasted record runs off the event loop. Every request passes the
guards of engine/faces/web/guard.py (security headers, Host and Origin, JSON only, a body limit), and ``serve`` runs
uvicorn with its connection limits and timeouts. The limits and options: docs/server.md.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, unquote, urlparse

import anyio
import yaml
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from claimlaw.engine.faces.web.guard import BodyLimit, JsonOnly, SameOrigin, SecurityHeaders
from claimlaw.engine.faces.web.rulings import Busy, Job, Limits, Rulings, Stopper, run_ruling
from claimlaw.engine.faces.web.views import error_body, no_paths, read_case
from claimlaw.facts import EDITIONS, SEAT_NAMES, CaseError, case_from_dict

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 200_000    # bytes of a posted case or pasted record
REQUEST_TIMEOUT = 10.0  # seconds for a request's head, and again for its body, to arrive
PARSERS = 2           # cases and pasted records parsed at once, each on a thread off the event loop
T = TypeVar("T")


# -- cases in and out -----------------------------------------------------------------------------------


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
    if re.fullmatch(r'(?:\[\s*Deal\s+)?"?[NESWnesw]:\S+(?:\s+\S+){3}"?\]?', raw):
        return _deal_only(raw, "deal")
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
    from claimlaw.engine.readers.records.common import ClaimRecord
    from claimlaw.engine.readers.records.lin import read_lin
    from claimlaw.engine.readers.records.pbn import read_pbn

    items = read_lin(text, "pasted LIN") if fmt == "lin" else read_pbn(text, "pasted PBN")
    claims = [i for i in items if isinstance(i, ClaimRecord)]
    if not claims:
        with contextlib.suppress(CaseError):  # a hand record with no claim: its deal, no claim
            return _deal_only(text, fmt)
        why = "; ".join(str(i) for i in items[:1]) or "no board ends in a claim"
        raise CaseError("paste", f"no claim read from the {fmt.upper()} record ({why})")
    data: dict[str, Any] = claims[0].case.model_dump(mode="json", exclude_defaults=True)
    return data


def _deal_only(text: str, fmt: str) -> dict[str, Any]:
    """A case with the deal as a 13-card claim diagram and no claim, from a bare PBN deal string or a LIN or PBN
    hand record without a claim: the Director draws the claim on it. The contract and declarer come along when
    the record names them, and with them the opening leader."""
    from claimlaw.engine.readers.records.common import RecordError
    from claimlaw.engine.readers.records.lin import lin_deal, split_records
    from claimlaw.engine.readers.records.pbn import pbn_deal, split_games
    from claimlaw.facts.cards import Seat
    from claimlaw.facts.contract import Contract

    board: dict[str, Any] = {}
    try:
        if fmt == "deal":
            board["position"] = pbn_deal(re.sub(r'^\[\s*Deal\s+"?|"?\]$', "", text.strip()))
        elif fmt == "lin":
            hands = next((r.hands for r in split_records(text).records if r.hands), None)
            if hands is None:
                raise CaseError("paste", "no deal (md|) in the LIN record")
            board["position"] = lin_deal(hands)
        else:
            game = next((g for g in split_games(text) if g.tags.get("deal")), None)
            if game is None:
                raise CaseError("paste", "no [Deal] tag in the PBN record")
            board["position"] = pbn_deal(game.tags["deal"])
            contract, declarer = game.tags.get("contract", ""), game.tags.get("declarer", "")
            if contract and contract.upper() not in ("PASS", "AP") and declarer[:1].upper() in SEAT_NAMES:
                seat = Seat(declarer[0].upper())
                board.update(contract=str(Contract.parse(contract)), declarer=seat.value, leader=seat.next.value)
    except CaseError:
        raise
    except (RecordError, ValueError) as e:
        raise CaseError("paste", f"the deal cannot be read: {e}") from None
    case_from_dict({"board": {"leader": "N", **board}, "claim": {"by": "N"}})  # the deal is whole: 13 each, none twice
    return {"board": board}


# -- routes ------------------------------------------------------------------------------------------------


async def _json_body(request: Request) -> Any:
    """The posted JSON (the body limit, the JSON content type and the Origin are checked before this runs)."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise CaseError("", f"the request is larger than {MAX_BODY:,} bytes")
    return await _off_loop(request, _parse_json, body)


def _parse_json(body: bytes) -> Any:
    try:
        return json.loads(body or b"null")
    except json.JSONDecodeError as e:
        raise CaseError("", f"not valid JSON: {e.msg}") from None
    except (UnicodeDecodeError, RecursionError):
        raise CaseError("", "not valid JSON: not UTF-8 text, or nested too deep") from None


async def _off_loop(request: Request, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on a worker thread, at most PARSERS at once: a long paste never holds up other requests."""
    limiter = getattr(request.app.state, "parsers", None)
    return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)


async def case_error(request: Request, exc: Exception) -> Response:
    """A bad case, from any route: the CLI's one-line message with its field, status 422."""
    assert isinstance(exc, CaseError)
    return JSONResponse(error_body(exc), status_code=422)


async def busy(request: Request, exc: Exception) -> Response:
    """A ruling refused for now (a full queue, or the client's own share): 429 with one line."""
    return JSONResponse({"error": {"field": "", "message": str(exc)}}, status_code=429, headers={"Retry-After": "30"})


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def meta(request: Request) -> Response:
    from claimlaw.engine.lawinfo import known_clauses
    from claimlaw.engine.packs import list_packs

    packs = [{"name": p.name, "title": p.title, "source": p.source, "origin": p.origin, "error": no_paths(p.error)}
             for p in await _off_loop(request, list_packs)]
    return JSONResponse({"editions": list(EDITIONS), "packs": packs, "clauses": known_clauses(),
                         "store": getattr(request.app.state, "store", None) is not None})


async def check(request: Request) -> Response:
    await _off_loop(request, read_case, await _json_body(request))
    return JSONResponse({"ok": True})


async def import_(request: Request) -> Response:
    data = await _json_body(request)
    text = data.get("text", "") if isinstance(data, dict) else ""
    if not isinstance(text, str):
        raise CaseError("paste", "send the pasted text as a string")
    return JSONResponse({"case": await _off_loop(request, import_text, text)})


async def download_yaml(request: Request) -> Response:
    data = await _json_body(request)
    text = await _off_loop(request, case_yaml, data)
    name = re.sub(r"[^a-z0-9]+", "-", str(data.get("title") or "claim").lower()).strip("-")[:60] or "claim"
    return Response(text, media_type="application/yaml",
                    headers={"Content-Disposition": f'attachment; filename="{name}.yaml"'})


async def start_ruling(request: Request) -> Response:
    data = await _json_body(request)
    if not isinstance(data, dict) or "case" not in data:
        raise CaseError("", 'send {"case": {...}, "budget": null, "after": null}')
    budget = data.get("budget")
    if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool) or budget < 1):
        raise CaseError("budget", f"{budget!r} is not a positive number of search positions")
    after = data.get("after")
    if after is not None and not (isinstance(after, str) and len(after) <= 64):
        raise CaseError("after", "names an earlier ruling by its id (a string)")
    await _off_loop(request, read_case, data["case"])  # a bad case is a field message now, not in the worker
    client = request.client.host if request.client else ""
    job = request.app.state.rulings.start(data["case"], budget, client, after=after)
    return JSONResponse(job.status(), status_code=202)


def _job(request: Request) -> Job:
    job: Job | None = request.app.state.rulings.get(request.path_params["job_id"])
    if job is None:
        raise HTTPException(404, "no such ruling (the server keeps the last few; ask again)")
    return job


async def ruling_status(request: Request) -> Response:
    return JSONResponse(_job(request).status())


async def stop_ruling(request: Request) -> Response:
    job = _job(request)
    request.app.state.rulings.stop(job)
    return JSONResponse(job.status())


def _store(request: Request) -> Any:
    view = getattr(request.app.state, "store", None)
    if view is None:
        raise HTTPException(404, "no results store (claimlaw serve --store a.db opens one)")
    return view


async def store_summary(request: Request) -> Response:
    return JSONResponse(await _off_loop(request, _store(request).summary))


async def store_rows(request: Request) -> Response:
    q = request.query_params
    try:
        page = int(q.get("page") or 1)
    except ValueError:
        raise CaseError("page", f"{q.get('page')!r} is not a page number") from None
    filters = {k: q.get(k, "") for k in ("verdict", "contract", "source", "board")}
    return JSONResponse(await _off_loop(request, _store(request).page, filters, page))


async def store_case(request: Request) -> Response:
    from claimlaw.engine.faces.web.store_view import row_case

    found = await _off_loop(request, _store(request).row, dict(request.query_params))
    case = row_case(found["row"], found["settings"])
    await _off_loop(request, read_case, case)  # the page gets a case it can rule on, or one line why not
    return JSONResponse({"case": case, "row": found["row"]})


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


def create_app(limits: Limits | None = None, *, hosts: Sequence[str] | None = None, port: int | None = None,
               timeout: float = REQUEST_TIMEOUT,
               job: Callable[[Any, int | None, Stopper], dict[str, Any]] = run_ruling,
               store: str | None = None) -> Starlette:
    """The web application with its ruling workers. ``hosts``/``port``: the Host names (``name[:port]``) and
    port the server answers to (None: any Host, as under a test client; an Origin must still match the Host).
    ``timeout``: seconds for a request's body to arrive. ``job``: what a worker runs for a ruling (tests give
    their own). ``store``: an audit's results store to browse (engine/faces/web/store_view.py), opened read-only."""
    from claimlaw.engine.faces.web.store_view import StoreView

    view = StoreView(store) if store else None  # StoreError: one line naming the file
    rulings = Rulings(limits, job)
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
        Route("/api/store", store_summary),
        Route("/api/store/rows", store_rows),
        Route("/api/store/case", store_case),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.parsers = anyio.CapacityLimiter(PARSERS)
        rulings.open()
        yield
        rulings.shutdown()

    middleware = [Middleware(SecurityHeaders), Middleware(SameOrigin, hosts=hosts, port=port),
                  Middleware(JsonOnly), Middleware(BodyLimit, max_body=MAX_BODY, timeout=timeout)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={CaseError: case_error, Busy: busy, HTTPException: http_error,
                                        Exception: server_error})
    app.state.rulings = rulings
    app.state.store = view
    return app


KEEP_ALIVE = 5            # seconds an idle connection stays open after a response
CONNECTIONS = 10_000      # open connections at most (uvicorn answers 503 past them)
PER_CLIENT_CONNECTIONS = 32  # open connections from one address (not behind a proxy)
HEAD_BYTES = 16_384       # bytes of a request's head (request line and headers)


def _file_limit(want: int) -> int:
    """Raise this process's open-file limit towards ``want`` (within the hard limit); the limit now."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return want
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return want if soft == resource.RLIM_INFINITY else max(200, min(want, soft))


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None, *,
          allowed_hosts: Sequence[str] = (), forwarded_allow_ips: str | None = None,
          timeout: float = REQUEST_TIMEOUT, store: str | None = None) -> None:
    """Run the page on uvicorn until Ctrl-C, with the connection limits and timeouts of docs/server.md.

    ``allowed_hosts``: further names the server answers to (a reverse proxy's public name);
    ``forwarded_allow_ips``: the proxies whose X-Forwarded-For names the client (None: trust no header);
    ``timeout``: seconds a connection has to send a request's head, and again its body."""
    import uvicorn

    from claimlaw.engine.faces.web.guard import GuardedH11Protocol

    connections = _file_limit(CONNECTIONS + 100) - 100
    names = {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", *allowed_hosts}
    if host not in ("0.0.0.0", "::", ""):
        names.add(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
    protocol = type("ClaimlawH11Protocol", (GuardedH11Protocol,),
                    {"head_timeout": timeout, "per_client": 0 if forwarded_allow_ips else PER_CLIENT_CONNECTIONS})
    app = create_app(limits, hosts=sorted(names), port=port, timeout=timeout, store=store)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", http=protocol,
                            timeout_keep_alive=KEEP_ALIVE, limit_concurrency=connections,
                            h11_max_incomplete_event_size=HEAD_BYTES, server_header=False,
                            proxy_headers=forwarded_allow_ips is not None, forwarded_allow_ips=forwarded_allow_ips,
                            timeout_graceful_shutdown=5)
    print(f"claimlaw: serving the web page at http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    uvicorn.Server(config).run()
