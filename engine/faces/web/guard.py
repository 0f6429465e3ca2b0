"""What stands between the network and the page's routes (docs/server.md).

Plain ASGI middleware, registered on the Starlette app in engine/faces/web/app.py:

* :class:`SecurityHeaders`: a Content-Security-Policy that lets the page load only its own script, style and
  requests, ``nosniff``, no framing, no referrer, and ``no-store`` on the API;
* :class:`SameOrigin`: a Host the server answers to, and an Origin (when the browser sends one) of this server:
  a page elsewhere cannot post a case here, nor can a DNS name rebound to this address;
* :class:`JsonOnly`: a request with a body must say ``application/json`` (a cross-site form or ``text/plain``
  post, which a browser sends without asking first, is refused with 415);
* :class:`BodyLimit`: the body read with a running count, refused with 413 the moment it passes the limit (the
  Content-Length first), and with 408 when it does not arrive in time.

And :class:`GuardedH11Protocol`, uvicorn's HTTP/1.1 protocol with what uvicorn has no setting for: a connection
must send a whole request head within ``head_timeout`` seconds of opening (or of its last response), and one
client address may hold at most ``per_client`` connections.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from uvicorn.protocols.http.h11_impl import H11Protocol

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k == name:
            return str(v.decode("latin-1"))
    return None


async def refuse(send: Send, status: int, message: str, *, close: bool = False,
                 headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """A one-line JSON error, as every route gives it: ``{"error": {"field": "", "message": ...}}``."""
    body = json.dumps({"error": {"field": "", "message": message}}).encode()
    hs = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers]
    if close:  # the rest of the body is never read: the connection ends with the answer
        hs.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": hs})
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """Adds the security headers to every response (and ``Cache-Control: no-store`` to the API's)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in have]
                if api and b"cache-control" not in have:
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _split_host(text: str) -> tuple[str, str]:
    """``name[:port]`` as (lower-case name, port or ""); an IPv6 literal keeps its brackets."""
    text = text.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        return (text[: end + 1], text[end + 2:]) if end > 0 else (text, "")
    name, _, port = text.partition(":")
    return name, port


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class SameOrigin:
    """Refuses a request whose Host the server does not answer to (400) or whose Origin is another site (403).

    ``hosts``: the names (``name`` or ``name:port``) the server answers to; an IP address at ``port`` is always
    answered (a DNS rebinding attack needs a name). ``hosts`` None checks only that an Origin matches the Host
    (the app used without ``claimlaw serve``, as in tests). A name without a port matches any port, as a reverse
    proxy on 80 or 443 sends it."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None = None, port: int | None = None) -> None:
        self.app = app
        self.port = str(port) if port is not None else None
        self.hosts = None if hosts is None else {_split_host(h) for h in hosts}

    def allowed(self, host: str, *, any_ip: bool = True) -> bool:
        """Is ``host`` (``name[:port]``) one the server answers to? ``any_ip``: an IP address at the server's
        port counts (for the Host; an Origin must be named)."""
        if self.hosts is None:
            return True
        name, port = _split_host(host)
        if (name, port) in self.hosts or (name, "") in self.hosts:
            return True
        return any_ip and _is_ip(name) and self.port is not None and port == self.port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host") or ""
        if not self.allowed(host):
            await refuse(send, 400, "this server does not answer to that Host (see docs/server.md: --allowed-host)")
            return
        origin = _header(scope, b"origin")
        if origin is not None:
            parts = urlsplit(origin)
            netloc = parts.netloc.lower()
            default = {"http": ":80", "https": ":443"}.get(parts.scheme, "")
            if default and netloc.endswith(default):
                netloc = netloc[: -len(default)]
            same = bool(netloc) and parts.scheme in ("http", "https") and (
                netloc == host.strip().lower() or (self.hosts is not None and self.allowed(netloc, any_ip=False)))
            if not same:
                await refuse(send, 403, "a request from another site is refused (its Origin is not this server)")
                return
        await self.app(scope, receive, send)


class JsonOnly:
    """A request that carries a body (POST, PUT, PATCH) must be ``application/json``: 415 otherwise."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if kind != "application/json":
                await refuse(send, 415, "send the request as JSON (Content-Type: application/json)", close=True)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Reads the request body before the routes see it: at most ``max_body`` bytes, within ``timeout`` seconds.

    A Content-Length over the limit is refused before a byte of the body is read; a body without one (chunked) is
    counted as it arrives and refused the moment the count passes the limit. Either way the server holds at most
    ``max_body`` bytes of it (uvicorn stops reading the socket while a request's unread body is over 64 KB), and
    the connection closes with the answer."""

    def __init__(self, app: ASGIApp, max_body: int, timeout: float) -> None:
        self.app = app
        self.max_body = max_body
        self.timeout = timeout

    def too_big(self) -> str:
        return f"the request is larger than {self.max_body:,} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > self.max_body):
            await refuse(send, 413, self.too_big(), close=True)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                await refuse(send, 408, f"the request body did not arrive within {self.timeout:g} s", close=True)
                return
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_body:
                await refuse(send, 413, self.too_big(), close=True)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        whole = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline for each request head and a cap on connections per address.

    uvicorn times out a keep-alive connection only after a response; a socket that connects and sends nothing,
    or a header a byte at a time, would otherwise stay open for ever (1,100 such sockets used up every file
    descriptor). Set ``head_timeout`` and ``per_client`` on a subclass (``claimlaw serve`` does)."""

    head_timeout: float = 10.0
    per_client: int = 0  # 0: no cap (behind a reverse proxy every connection comes from the proxy)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        if self.per_client and self.client:
            ip = self.client[0]
            if sum(1 for c in self.connections if getattr(c, "client", None) and c.client[0] == ip) > self.per_client:
                transport.close()
                return
        self._arm_head_timer()

    def _arm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timeout, self.cycle)

    def _head_timeout(self, cycle_then: Any) -> None:
        """No new request began since the timer was set (or the one that began is done): close."""
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is cycle_then or self.cycle is None or self.cycle.response_complete:
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
        super().connection_lost(exc)
