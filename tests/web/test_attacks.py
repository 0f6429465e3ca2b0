"""Attacks on ``claimlaw serve``, by scripted clients against the real server (uvicorn on 127.0.0.1, a free port).

Each test names what an attacker (or a careless page) does and what the server must do. Clients at other
addresses bind 127.0.0.2 and 127.0.0.3 (loopback, like 127.0.0.1): the server sees three clients. Every loop is
bounded in bytes and in seconds. The limits: docs/server.md.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
FAST = ROOT / "examples" / "3nt-three-discards-forgotten-jack.yaml"
TIMEOUT = 2.0        # --timeout: seconds for a request's head, and again its body
TIME_LIMIT = 4.0     # --time-limit
ABANDON = 3.0        # --abandon-after
MAX_BODY = 200_000
LONG_SEARCH: dict[str, Any] = {  # a 13-card claim whose search runs for minutes (tests/web/test_browser.py)
    "board": {"position": "N:KT5.KJT.J5.AKJ83 J7.A6.AQ96.Q9654 AQ63.8432.T84.72 9842.Q975.K732.T",
              "contract": "1NT", "declarer": "N", "leader": "E"},
    "claim": {"by": "N", "tricks": 7, "statement": "seven tricks"},
    "responses": {"E": "disputes"},
    "findings": {"unaware_of": ["DA"]},
}


def fast_case() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(FAST.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def server() -> Iterator[dict[str, Any]]:
    """``claimlaw serve`` with small limits: 2 workers, a queue of 1, 2 rulings per client."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "claimlaw.engine.faces.cli", "serve", "--port", str(port), "--workers", "2", "--queue",
         "1",
         "--per-client", "2", "--time-limit", str(TIME_LIMIT), "--abandon-after", str(ABANDON),
         "--timeout", str(TIMEOUT), "--allowed-host", "claims.example"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    while True:
        try:
            if httpx.get(url + "/api/meta", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() - t0 > 60:
            proc.kill()
            raise AssertionError("claimlaw serve did not start: " + proc.stderr.read().decode()[-500:]) from None
        time.sleep(0.2)
    info = {"url": url, "port": port, "pid": proc.pid}
    with client(info) as c:  # the warm worker answers before the tests time anything
        assert ruled(c, c.post("/api/rulings", json={"case": fast_case()}).json()["id"], 90)["state"] == "done"
    yield info
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


def client(server: dict[str, Any], ip: str = "127.0.0.1") -> httpx.Client:
    """An HTTP client whose connections come from ``ip``."""
    return httpx.Client(base_url=server["url"], timeout=30, transport=httpx.HTTPTransport(local_address=ip))


def ruled(c: httpx.Client, job: str, timeout: float = 60) -> dict[str, Any]:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        s: dict[str, Any] = c.get(f"/api/rulings/{job}").json()
        if s["state"] not in ("queued", "running"):
            return s
        time.sleep(0.1)
    raise AssertionError(f"ruling {job} still running after {timeout} s")


def connect(server: dict[str, Any], ip: str = "127.0.0.1") -> socket.socket:
    s = socket.socket()
    s.bind((ip, 0))
    s.connect(("127.0.0.1", server["port"]))
    return s


def read_answer(s: socket.socket, timeout: float = 10) -> bytes:
    """What the server sends until it closes the connection (or ``timeout`` passes)."""
    s.settimeout(timeout)
    got = b""
    t0 = time.monotonic()
    with contextlib.suppress(OSError):
        while time.monotonic() - t0 < timeout:
            part = s.recv(65536)
            if not part:
                break
            got += part
    return got


def closed_within(s: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed ``s`` (None if still open after ``seconds``)."""
    t0 = time.monotonic()
    s.settimeout(seconds)
    try:
        while time.monotonic() - t0 < seconds:
            if not s.recv(4096):
                return time.monotonic() - t0
    except TimeoutError:
        return None
    except OSError:
        return time.monotonic() - t0
    return None


def head(server: dict[str, Any], method: str, path: str, extra: str = "") -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{server['port']}\r\n{extra}\r\n").encode()


def status_of(answer: bytes) -> int:
    m = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    return int(m.group(1)) if m else 0


def rss_kb(pid: int) -> dict[str, int]:
    """The server's resident memory now and its peak (VmRSS, VmHWM) in KB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {k: int(fields[k].split()[0]) for k in ("VmRSS", "VmHWM")}


def stream_chunked(server: dict[str, Any], total: int, chunk: int = 65536) -> tuple[int, bytes]:
    """Send a chunked POST body of up to ``total`` bytes, made as it goes (never held whole), until the server
    answers or closes: the bytes sent and the answer."""
    s = connect(server)
    s.sendall(head(server, "POST", "/api/check",
                   "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"))
    piece = b"%x\r\n" % chunk + b" " * chunk + b"\r\n"
    sent = 0
    t0 = time.monotonic()
    try:
        while sent < total and time.monotonic() - t0 < 60:
            readable, writable, _ = select.select([s], [s], [], 5)
            if readable:
                break
            if writable:
                s.sendall(piece)
                sent += chunk
    except OSError:
        pass
    answer = read_answer(s, 5)
    s.close()
    return sent, answer


# -- the body ---------------------------------------------------------------------------------------------


def test_a_declared_body_over_the_limit_is_refused_before_a_byte_of_it_is_read(server: dict[str, Any]) -> None:
    s = connect(server)
    s.sendall(head(server, "POST", "/api/rulings",
                   "Content-Type: application/json\r\nContent-Length: 1000000000\r\n"))
    answer = read_answer(s, 10)  # not one byte of the body sent: the answer comes anyway, and the socket closes
    s.close()
    assert status_of(answer) == 413 and b"connection: close" in answer.lower()
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1]) == {
        "error": {"field": "", "message": f"the request is larger than {MAX_BODY:,} bytes"}}


def test_a_chunked_body_is_refused_as_soon_as_its_count_passes_the_limit(server: dict[str, Any]) -> None:
    sent, answer = stream_chunked(server, 64 * 2**20)
    assert status_of(answer) == 413
    assert sent < 16 * 2**20  # refused near the limit (what the sockets' buffers held), not at the end


def test_a_1_gb_body_sent_eight_times_at_once_leaves_the_server_memory_flat(server: dict[str, Any]) -> None:
    before = rss_kb(server["pid"])
    answers: list[tuple[int, bytes]] = []
    threads = [threading.Thread(target=lambda: answers.append(stream_chunked(server, 2**30))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert [status_of(a) for _, a in answers] == [413] * 8
    after = rss_kb(server["pid"])
    assert after["VmHWM"] - max(before["VmHWM"], before["VmRSS"]) < 30_000, (before, after)


def test_a_body_that_trickles_in_is_answered_408_at_the_timeout(server: dict[str, Any]) -> None:
    s = connect(server)
    s.sendall(head(server, "POST", "/api/check", "Content-Type: application/json\r\nContent-Length: 1000\r\n"))
    t0 = time.monotonic()
    s.setblocking(False)
    answer = b""
    while time.monotonic() - t0 < TIMEOUT + 5 and not answer:
        with contextlib.suppress(OSError):
            s.send(b" ")
        with contextlib.suppress(BlockingIOError, OSError):
            answer = s.recv(4096)
        time.sleep(0.2)
    s.close()
    assert status_of(answer) == 408 and b"did not arrive within" in answer
    assert time.monotonic() - t0 < TIMEOUT + 3


def test_a_post_that_is_not_declared_json_is_refused_before_it_is_read(server: dict[str, Any]) -> None:
    with client(server) as c:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
            headers = {"content-type": kind} if kind else {}
            r = c.post("/api/rulings", content=json.dumps({"case": fast_case()}), headers=headers)
            assert r.status_code == 415, kind
            assert r.json()["error"]["message"] == "send the request as JSON (Content-Type: application/json)"
        assert c.post("/api/check", json=fast_case()).status_code == 200


# -- connections ------------------------------------------------------------------------------------------


def test_a_connection_that_sends_nothing_is_closed_at_the_timeout(server: dict[str, Any]) -> None:
    s = connect(server)
    took = closed_within(s, TIMEOUT + 5)
    s.close()
    assert took is not None and TIMEOUT - 0.5 < took < TIMEOUT + 3


def test_a_head_sent_a_byte_at_a_time_is_closed_at_the_timeout(server: dict[str, Any]) -> None:
    s = connect(server)
    t0 = time.monotonic()
    line = head(server, "GET", "/api/meta", "X-Slow: " + "a" * 200 + "\r\n")
    closed = False
    for byte in line[:-4]:  # never the blank line that ends the head
        try:
            s.sendall(bytes([byte]))
        except OSError:
            closed = True
            break
        if closed_within(s, 0.1) is not None:
            closed = True
            break
        if time.monotonic() - t0 > TIMEOUT + 5:
            break
    s.close()
    assert closed and time.monotonic() - t0 < TIMEOUT + 3


def test_a_head_that_grows_past_16_kb_unfinished_is_refused(server: dict[str, Any]) -> None:
    s = connect(server)
    s.sendall(head(server, "GET", "/api/meta", "X-Big: " + "a" * 20_000 + "\r\n")[:-4])  # still coming
    answer = read_answer(s, TIMEOUT + 3)
    s.close()
    assert status_of(answer) == 400, answer[:300]


def test_idle_sockets_from_one_address_are_capped_and_leave_the_page_to_others(server: dict[str, Any]) -> None:
    socks = []
    try:
        for _ in range(100):
            socks.append(connect(server, "127.0.0.2"))
        time.sleep(0.3)
        shut = sum(1 for s in socks if closed_within(s, 0.05) is not None)
        assert shut >= 100 - 32  # past 32 connections from one address, each is closed as it comes
        with client(server) as c:
            t0 = time.monotonic()
            assert c.get("/api/meta").status_code == 200
            assert time.monotonic() - t0 < 5
        time.sleep(TIMEOUT + 1)
        assert all(closed_within(s, 0.5) is not None for s in socks)  # the rest at the timeout
    finally:
        for s in socks:
            s.close()


# -- other sites ------------------------------------------------------------------------------------------


def test_a_host_the_server_does_not_answer_to_is_refused(server: dict[str, Any]) -> None:
    port = server["port"]
    with client(server) as c:
        for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1.nip.example:{port}", f"localhost:{port + 1}"):
            r = c.get("/api/meta", headers={"host": host})
            assert r.status_code == 400 and "does not answer to that Host" in r.json()["error"]["message"], host
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "claims.example", f"127.0.0.2:{port}"):
            assert c.get("/api/meta", headers={"host": host}).status_code == 200, host


def test_a_post_from_another_site_is_refused_and_one_from_the_page_is_not(server: dict[str, Any]) -> None:
    port = server["port"]
    with client(server) as c:
        for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"http://127.0.0.1:{port + 1}",
                       f"file://127.0.0.1:{port}", f"http://192.0.2.1:{port}"):
            r = c.post("/api/rulings", json={"case": fast_case()}, headers={"origin": origin})
            assert r.status_code == 403 and "another site" in r.json()["error"]["message"], origin
            assert c.delete("/api/rulings/x", headers={"origin": origin}).status_code == 403
        assert c.post("/api/check", json=fast_case(), headers={"origin": f"http://127.0.0.1:{port}"}).status_code == 200
        behind_a_proxy = {"origin": "https://claims.example", "host": "claims.example"}
        assert c.post("/api/check", json=fast_case(), headers=behind_a_proxy).status_code == 200


def test_every_answer_carries_the_security_headers(server: dict[str, Any]) -> None:
    with client(server) as c:
        answers = [c.get("/"), c.get("/static/app.js"), c.get("/api/meta"), c.get("/law/70C"), c.get("/nope"),
                   c.post("/api/check", content="x", headers={"content-type": "text/plain"}),
                   c.get("/api/meta", headers={"host": "evil.example"})]
    for r in answers:
        csp = r.headers.get("content-security-policy", "")
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, r.url
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
        assert "server" not in r.headers
    assert answers[2].headers["cache-control"] == "no-store"


def test_the_page_needs_no_inline_script_or_style_so_the_policy_makes_no_exception() -> None:
    static = ROOT / "engine" / "faces" / "web" / "static"
    page = (static / "index.html").read_text(encoding="utf-8")
    assert all('src="' in tag for tag in re.findall(r"<script[^>]*>", page))
    assert not re.search(r"<style|\sstyle=|\son[a-z]+=", page)
    script = (static / "app.js").read_text(encoding="utf-8")
    assert not re.search(r"\beval\(|new Function|\.style\b|setAttribute\(\s*['\"](style|on)", script)
    from claimlaw.engine.faces.web.app import _page

    assert "<script" not in _page("t", "<p>x</p>").body.decode() and "style=" not in _page("t", "").body.decode()


# -- errors -----------------------------------------------------------------------------------------------


def test_no_error_names_a_file_of_the_server(server: dict[str, Any]) -> None:
    bad_pack = {**fast_case(), "regulations": ["/etc/passwd.yaml", "../../pyproject.toml", "club.yaml"]}
    with client(server) as c:
        answers = [
            c.post("/api/rulings", json={"case": bad_pack}),
            c.post("/api/check", json=bad_pack),
            c.post("/api/yaml", json=bad_pack),
            c.post("/api/import", json={"text": yaml.safe_dump(bad_pack)}),
            c.post("/api/import", json={"text": "qx|o1|md|9|pc|zz|mc|99|"}),
            c.post("/api/import", json={"text": "[Event \"x\"]\n[Deal \"N:xyz\"]\n"}),
            c.post("/api/import", json={"text": "a: [\n"}),
            c.post("/api/check", content=b"\xff\xfe{", headers={"content-type": "application/json"}),
            c.post("/api/check", content=b"[" * 100_000, headers={"content-type": "application/json"}),
            c.get("/static/../../pyproject.toml"), c.get("/static/%2e%2e/app.py"), c.get("/law/%2e%2e%2f%2e%2e"),
            c.get("/api/law/../../etc/passwd"), c.get("/api/rulings/../../etc"), c.delete("/api/rulings/%00"),
            c.put("/api/rulings", json={}), c.get("/api/meta"),
        ]
    # what the client sent may come back (its own text); nothing of the server's files may
    leaks = (str(ROOT), sys.prefix, "site-packages", "Traceback", "root:x:", "[project]", os.path.expanduser("~"))
    for r in answers:
        assert r.status_code < 500, (r.request.url, r.status_code, r.text[:200])
        for leak in leaks:
            assert leak not in r.text, (r.request.url, leak, r.text[:300])
    assert answers[0].status_code == 422 and answers[0].json()["error"]["field"] == "regulations[0]"


# -- rulings ----------------------------------------------------------------------------------------------


def test_each_client_has_a_share_and_the_queue_is_bounded(server: dict[str, Any]) -> None:
    a, b, c3 = client(server, "127.0.0.1"), client(server, "127.0.0.2"), client(server, "127.0.0.3")
    started: list[tuple[httpx.Client, str]] = []
    try:
        for _ in range(2):  # both workers searching for client A
            r = a.post("/api/rulings", json={"case": LONG_SEARCH})
            assert r.status_code == 202
            started.append((a, r.json()["id"]))
        r = a.post("/api/rulings", json={"case": fast_case()})
        assert r.status_code == 429 and r.headers["retry-after"]
        assert r.json()["error"]["message"].startswith("you already have 2 ruling(s) running or waiting")
        r = b.post("/api/rulings", json={"case": fast_case()})  # waits: the queue holds one
        assert r.status_code == 202, r.text
        started.append((b, r.json()["id"]))
        assert b.get(f"/api/rulings/{r.json()['id']}").json()["state"] == "queued"
        r = c3.post("/api/rulings", json={"case": fast_case()})
        assert r.status_code == 429 and r.json()["error"]["message"].startswith("the server is busy")
    finally:
        for who, job in started:
            who.delete(f"/api/rulings/{job}")
        states = [ruled(who, job, 60) for who, job in started]
        for x in (a, b, c3):
            x.close()
    assert [s["stopped_by"] for s in states] == ["you"] * 3
    assert [s["state"] for s in states[:2]] == ["done", "done"] and states[2]["state"] == "stopped"
    assert all(s["ruling"]["proven"] is False and s["ruling"]["outcome"] == "claim_not_established"
               for s in states[:2])


def test_a_cheap_ruling_is_answered_while_an_expensive_one_searches_to_its_time_limit(
        server: dict[str, Any]) -> None:
    with client(server) as c:
        long = c.post("/api/rulings", json={"case": LONG_SEARCH}).json()["id"]
        t0 = time.monotonic()
        cheap = ruled(c, c.post("/api/rulings", json={"case": fast_case()}).json()["id"], 60)
        took = time.monotonic() - t0
        assert cheap["state"] == "done" and cheap["ruling"]["tricks"] == {"NS": 9, "EW": 4}, cheap
        assert took < TIME_LIMIT + 10  # a worker of its own (a fresh one may first need to start)
        s = ruled(c, long, TIME_LIMIT + 30)
    assert s["state"] == "done" and s["stopped_by"] == "time" and TIME_LIMIT <= s["seconds"] < TIME_LIMIT + 20
    assert s["ruling"]["proven"] is False and s["ruling"]["outcome"] == "claim_not_established"


def test_a_ruling_nobody_polls_is_killed(server: dict[str, Any]) -> None:
    with client(server, "127.0.0.3") as c:
        job = c.post("/api/rulings", json={"case": LONG_SEARCH}).json()["id"]
        time.sleep(ABANDON + 1.5)  # the tab was closed: no poll
        s = c.get(f"/api/rulings/{job}").json()
    assert s["state"] == "stopped" and s["stopped_by"] == "gone" and "nobody asked" in s["message"]


def test_a_large_lin_import_leaves_other_requests_answered(server: dict[str, Any]) -> None:
    lin = (ROOT / "tests" / "records" / "fixtures" / "reisinger-42365.lin").read_text(encoding="utf-8").strip()
    text = "\n".join([lin] * 70)
    assert 150_000 < len(text) < MAX_BODY - 1000
    done: list[httpx.Response] = []

    def paste() -> None:
        with client(server, "127.0.0.2") as c:
            done.append(c.post("/api/import", json={"text": text}))

    t = threading.Thread(target=paste)
    t.start()
    answered = []
    with client(server) as c:
        while t.is_alive() and len(answered) < 400:
            t0 = time.monotonic()
            assert c.get("/api/meta").status_code == 200
            answered.append(time.monotonic() - t0)
    t.join(60)
    assert done and done[0].status_code == 200 and done[0].json()["case"]["board"]["contract"] == "3C"
    assert len(answered) >= 2  # answered while the paste was read


def test_the_server_keeps_no_search_tables_only_the_rulings_json(server: dict[str, Any]) -> None:
    with client(server) as c:
        for _ in range(3):
            assert ruled(c, c.post("/api/rulings", json={"case": fast_case()}).json()["id"])["state"] == "done"
    # the play core's tables alone are about 190 MB: the server process never loads them
    assert rss_kb(server["pid"])["VmRSS"] < 150_000
