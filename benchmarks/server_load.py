"""``claimlaw serve`` under load: the figures of docs/server.md.

    python benchmarks/server_load.py [--workers N] [--sockets N]

Starts the server on a free port of 127.0.0.1 (defaults, or ``--workers``) and measures, with clients at
127.0.0.x (all loopback):

* the server's peak memory (VmHWM) while 1 GB bodies are sent at it, chunked and with a Content-Length, made as
  they go (the client never holds them either);
* the latency of a cheap ruling (examples/3nt-three-discards-forgotten-jack.yaml) while four expensive ones
  (a 13-card claim whose search runs for minutes) search, from two clients;
* idle sockets: many opened from one address, and as many again spread over 40 addresses; how long a request
  from another address then waits, and when the idle ones are closed.
"""

from __future__ import annotations

import argparse
import contextlib
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
FAST = ROOT / "examples" / "3nt-three-discards-forgotten-jack.yaml"
LONG_SEARCH: dict[str, Any] = {
    "board": {"position": "N:KT5.KJT.J5.AKJ83 J7.A6.AQ96.Q9654 AQ63.8432.T84.72 9842.Q975.K732.T",
              "contract": "1NT", "declarer": "N", "leader": "E"},
    "claim": {"by": "N", "tricks": 7, "statement": "seven tricks"},
    "responses": {"E": "disputes"},
    "findings": {"unaware_of": ["DA"]},
}


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def tree_rss_mb(pid: int) -> float:
    """Resident memory of the server and its worker processes, MB."""
    total = status_kb(pid, "VmRSS")
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        for c in child.read_text().split():
            with contextlib.suppress(OSError):
                total += status_kb(int(c), "VmRSS")
    return total / 1024


def client(url: str, ip: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60, transport=httpx.HTTPTransport(local_address=ip))


def send_gb(port: int, chunked: bool) -> tuple[int, str]:
    """Send a 1 GB body, made as it goes, until the server answers: bytes sent and the status line."""
    s = socket.create_connection(("127.0.0.1", port))
    size = 2**30
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    s.sendall(f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
              f"{framing}\r\n\r\n".encode())
    block = 65536
    piece = (b"%x\r\n" % block + b" " * block + b"\r\n") if chunked else b" " * block
    sent, answer = 0, b""
    t0 = time.monotonic()
    with contextlib.suppress(OSError):
        while sent < size and time.monotonic() - t0 < 120:
            r, w, _ = select.select([s], [s], [], 5)
            if r:
                break
            if w:
                s.sendall(piece)
                sent += block
    with contextlib.suppress(OSError):
        s.settimeout(5)
        answer = s.recv(200)
    s.close()
    return sent, answer.split(b"\r\n")[0].decode(errors="replace")


def ruled(c: httpx.Client, job: str, timeout: float = 600) -> dict[str, Any]:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        s: dict[str, Any] = c.get(f"/api/rulings/{job}").json()
        if s["state"] not in ("queued", "running"):
            return s
        time.sleep(0.2)
    raise SystemExit(f"ruling {job} still running after {timeout} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=None, help="--workers for the server (default: its own)")
    ap.add_argument("--sockets", type=int, default=1100, help="idle sockets to open (default 1,100)")
    args = ap.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "claimlaw.engine.faces.cli", "serve", "--port", str(port)]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        t0 = time.monotonic()
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/api/meta", timeout=2).status_code == 200:
                    break
            if proc.poll() is not None or time.monotonic() - t0 > 120:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        fast = yaml.safe_load(FAST.read_text(encoding="utf-8"))
        with client(url, "127.0.0.1") as c:
            ruled(c, c.post("/api/rulings", json={"case": fast}).json()["id"])  # the warm worker is ready
        print(f"server pid {proc.pid}, RSS {status_kb(proc.pid, 'VmRSS') / 1024:.0f} MB after one ruling")

        # 1. bodies of 1 GB
        hwm0 = status_kb(proc.pid, "VmHWM")
        for chunked in (True, False):
            t = time.monotonic()
            sent, line = send_gb(port, chunked)
            print(f"1 GB body {'chunked' if chunked else 'with Content-Length'}: {line!r} after {sent:,} bytes "
                  f"sent, {time.monotonic() - t:.2f} s")
        threads = [threading.Thread(target=send_gb, args=(port, i % 2 == 0)) for i in range(16)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(180)
        print(f"  and 16 such bodies at once: server peak RSS {hwm0 / 1024:.1f} MB before, "
              f"{status_kb(proc.pid, 'VmHWM') / 1024:.1f} MB after")

        # 2. a cheap ruling while four expensive ones search
        a, b, c3 = client(url, "127.0.0.1"), client(url, "127.0.0.2"), client(url, "127.0.0.3")
        long = [(x, x.post("/api/rulings", json={"case": LONG_SEARCH}).json()["id"]) for x in (a, a, b, b)]
        stop_polling = threading.Event()

        def keep_polling() -> None:  # the four pages stay open
            while not stop_polling.is_set():
                for x, j in long:
                    with contextlib.suppress(httpx.HTTPError):
                        x.get(f"/api/rulings/{j}")
                time.sleep(1)

        poller = threading.Thread(target=keep_polling, daemon=True)
        poller.start()
        t = time.monotonic()
        while time.monotonic() - t < 120:  # all four searching (their workers may first have to start)
            states = [x.get(f"/api/rulings/{j}").json() for x, j in long]
            if all(st["state"] == "running" and st["questions"] + bool(st["searching"]) for st in states):
                break
            time.sleep(0.5)
        states = [x.get(f"/api/rulings/{j}").json()["state"] for x, j in long]
        time.sleep(2)
        peak = tree_rss_mb(proc.pid)
        t = time.monotonic()
        cheap = ruled(c3, c3.post("/api/rulings", json={"case": fast}).json()["id"])
        took = time.monotonic() - t
        print(f"cheap ruling while four expensive ones search ({', '.join(states)}): {cheap['state']} "
              f"{cheap.get('ruling', {}).get('tricks')} in {took:.2f} s (server and workers {peak:.0f} MB)")
        stop_polling.set()
        for x, j in long:
            x.delete(f"/api/rulings/{j}")
        ends = [ruled(x, j) for x, j in long]
        print("  the four expensive ones, stopped: " + "; ".join(
            f"{e['state']} {e.get('stopped_by')} proven={e.get('ruling', {}).get('proven')} {e['seconds']} s"
            for e in ends))
        for x in (a, b, c3):
            x.close()

        # 3. idle sockets
        for label, ips in (("from one address", ["127.0.0.2"]),
                           ("from 40 addresses", [f"127.0.1.{i}" for i in range(1, 41)])):
            socks = []
            opened = time.monotonic()
            for i in range(args.sockets):
                sk = socket.socket()
                sk.bind((ips[i % len(ips)], 0))
                with contextlib.suppress(OSError):
                    sk.connect(("127.0.0.1", port))
                socks.append(sk)
            time.sleep(0.5)
            t = time.monotonic()
            try:
                r = httpx.get(url + "/api/meta", timeout=60)
                answer = f"{r.status_code}"
            except httpx.HTTPError as e:
                answer = type(e).__name__
            waited = time.monotonic() - t
            open_now = 0
            for sk in socks:
                sk.setblocking(False)
                try:
                    open_now += sk.recv(1) != b""
                except BlockingIOError:
                    open_now += 1
                except OSError:
                    pass
            t2 = time.monotonic()
            while time.monotonic() - t2 < 30:
                left = 0
                for sk in socks:
                    try:
                        left += sk.recv(1) != b""
                    except BlockingIOError:
                        left += 1
                    except OSError:
                        pass
                if not left:
                    break
                time.sleep(0.5)
            print(f"{args.sockets} idle sockets {label}: {open_now} held open, a request from 127.0.0.1 answered "
                  f"{answer} in {waited:.2f} s; all closed {time.monotonic() - opened:.1f} s after they were opened")
            for sk in socks:
                sk.close()
        print(f"server RSS at the end {status_kb(proc.pid, 'VmRSS') / 1024:.0f} MB, peak "
              f"{status_kb(proc.pid, 'VmHWM') / 1024:.0f} MB")
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
