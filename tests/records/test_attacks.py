"""Hostile and broken inputs to the audit and the record readers, each with what must happen.

Files are made here in tmp_path; the CLI runs through typer's CliRunner or as a subprocess (where a
hang, a kill or an OS limit is the point). Reading attacks: a FIFO, /dev/zero, a sparse file over the
limit, a large LIN (memory), binary and UTF-16 text, over-long tags, an unterminated PBN comment.
Printing: rich markup in a board label. The store: a changed file, a second writer, a foreign SQLite
file, a full disk, kill -9.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from claimlaw.engine.faces.audit.run import audit
from claimlaw.engine.faces.audit.store import Store, StoreBusy, StoreError
from claimlaw.engine.faces.cli import app
from claimlaw.engine.readers.records import ClaimRecord, ReadProblem, read_file, read_records
from claimlaw.engine.readers.records.source import byte_chunks, open_records

FIX = Path(__file__).parent / "fixtures"
REISINGER = FIX / "reisinger-42365.lin"  # six claims; board 24 open is 'impossible', so it is in the table
PBN = FIX / "claims.pbn"
ROOT = Path(__file__).resolve().parents[2]


def within(seconds: float, fn: Callable[[], Any]) -> Any:
    """``fn()``, failing the test (not hanging the suite) if it takes longer than ``seconds``."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the test
            box["error"] = e

    th = threading.Thread(target=run, daemon=True)
    th.start()
    th.join(seconds)
    assert not th.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


def items(path: Path) -> list[ClaimRecord | ReadProblem]:
    return within(60, lambda: list(read_file(path)))


def claims(found: list[ClaimRecord | ReadProblem]) -> list[ClaimRecord]:
    return [x for x in found if isinstance(x, ClaimRecord)]


def problems(found: list[ClaimRecord | ReadProblem]) -> list[ReadProblem]:
    return [x for x in found if isinstance(x, ReadProblem)]


def rows_in(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db, timeout=10) as con:
        return con.execute("SELECT file_hash, board, room, claim_index, run_id FROM rows").fetchall()


def copies(tmp_path: Path, n: int, name: str = "records") -> Path:
    """A folder of ``n`` different files (one byte more each) of the Reisinger fixture's six claims."""
    data = tmp_path / name
    data.mkdir()
    for i in range(n):
        (data / f"copy{i:02d}.lin").write_bytes(REISINGER.read_bytes() + b"\n" * (i + 1))
    return data


def cli(*args: str, timeout: float = 300, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """``claimlaw ARGS`` as its own process (``prelude``: Python run first, e.g. to set an OS limit)."""
    script = (prelude + "import sys\nfrom claimlaw.engine.faces.cli import main\n"
              "sys.argv = ['claimlaw', *sys.argv[1:]]\nmain()\n")
    return subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


# -- files that must be refused before a byte is read -----------------------------------------


def test_a_fifo_as_the_records_path_is_refused_before_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "records.lin"
    os.mkfifo(fifo)
    start = time.perf_counter()
    (p,) = items(fifo)  # nothing writes to the FIFO: reading it would wait for ever
    assert time.perf_counter() - start < 5
    assert isinstance(p, ReadProblem) and p.kind == "bad-file" and "FIFO" in p.reason


def test_the_audit_command_given_a_fifo_ends_with_a_problem_row_instead_of_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "records.lin"
    os.mkfifo(fifo)
    res = cli("audit", str(fifo), "--workers", "1", "--json", str(tmp_path / "a.json"), timeout=120)
    assert res.returncode == 0, res.stderr
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert data["rows"] == [] and data["problems"][0]["kind"] == "bad-file" and "FIFO" in data["problems"][0]["reason"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_such_as_dev_zero_is_refused_without_reading_it() -> None:
    start = time.perf_counter()
    (p,) = items(Path("/dev/zero"))
    assert time.perf_counter() - start < 5
    assert p.kind == "bad-file" and "device" in p.reason  # type: ignore[union-attr]


def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.lin"
    with big.open("wb") as f:
        f.truncate(500 << 20)  # 500 MB, sparse: no disk used, and never read
    start = time.perf_counter()
    (p,) = items(big)
    assert time.perf_counter() - start < 5
    assert p.kind == "bad-file" and "over the limit of 67,108,864" in p.reason  # type: ignore[union-attr]
    assert "CLAIMLAW_MAX_RECORD_BYTES" in p.reason  # type: ignore[union-attr]


def test_a_file_that_grows_past_the_limit_while_it_is_read_is_cut_off_with_a_reason(tmp_path: Path) -> None:
    f = tmp_path / "a.lin"
    f.write_bytes(REISINGER.read_bytes())
    with open_records(f) as fh, pytest.raises(ValueError, match="grew over the limit of 1,000 bytes"):
        list(byte_chunks(fh, max_bytes=1000))


def test_a_directory_walk_skips_a_fifo_and_reads_the_files_beside_it(tmp_path: Path) -> None:
    (tmp_path / "a.lin").write_bytes(REISINGER.read_bytes())
    os.mkfifo(tmp_path / "b.lin")
    found = within(60, lambda: list(read_records([tmp_path])))
    assert len(claims(found)) == 6 and not problems(found)


def peak_rss_mb(code: str) -> float:
    """The peak resident memory (MB) of a fresh Python running ``code``."""
    run = subprocess.run([sys.executable, "-c", code + "\nimport resource\n"
                          "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600, check=True)
    return int(run.stdout.split()[-1]) / 1024


def test_reading_a_large_lin_keeps_memory_flat_in_its_size(tmp_path: Path) -> None:
    # the Reisinger file repeated to 4 MB, its claims taken out so that the read is quick: memory used to
    # grow some 37 times the file's size (a 61 MB LIN peaked at 2.3 GB); see the slow test for 60 MB with claims
    one = REISINGER.read_bytes().replace(b"mc|", b"zz|")
    big = tmp_path / "big.lin"
    big.write_bytes(one * ((4 << 20) // len(one)))
    code = ("from claimlaw.engine.readers.records import ReadReport, read_records\n"
            f"r = ReadReport()\nfor _ in read_records([{str(big)!r}], report=r): pass\n"
            "assert r.boards > 9000, r.summary()\n")
    base = peak_rss_mb("from claimlaw.engine.readers.records import ReadReport, read_records\n")
    peak = peak_rss_mb(code)
    assert peak - base < 20, f"{peak - base:.0f} MB more than the imports for a 4 MB file"


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CLAIMLAW_SLOW"), reason="slow: set CLAIMLAW_SLOW=1 to run")
def test_reading_a_60_mb_lin_of_claims_stays_under_a_tenth_of_its_size_in_memory(tmp_path: Path) -> None:
    one = REISINGER.read_bytes()
    big = tmp_path / "big.lin"
    big.write_bytes(one * ((60 << 20) // len(one)))
    code = ("from claimlaw.engine.readers.records import ReadReport, read_records\n"
            f"r = ReadReport()\nfor _ in read_records([{str(big)!r}], report=r): pass\n"
            "assert r.claims > 100000, r.summary()\n")
    base = peak_rss_mb("from claimlaw.engine.readers.records import ReadReport, read_records\n")
    peak = peak_rss_mb(code)
    print(f"peak {peak:.0f} MB, imports {base:.0f} MB")
    assert peak - base < 60


# -- records that yield nothing say why ---------------------------------------------------------


def test_a_utf16_lin_with_a_byte_order_mark_reads_as_its_utf8_twin(tmp_path: Path) -> None:
    f = tmp_path / "utf16.lin"
    f.write_bytes(codecs.BOM_UTF16_LE + REISINGER.read_text(encoding="utf-8").encode("utf-16-le"))
    found = items(f)
    assert [r.to_dict() | {"source": ""} for r in claims(found)] == \
        [r.to_dict() | {"source": ""} for r in claims(items(REISINGER))]
    assert not problems(found)


def test_a_utf16_lin_without_a_byte_order_mark_is_a_problem_saying_so(tmp_path: Path) -> None:
    f = tmp_path / "utf16.lin"
    f.write_bytes(REISINGER.read_text(encoding="utf-8").encode("utf-16-le"))
    (p,) = items(f)
    assert p.kind == "bad-text" and "UTF-16 without a byte-order mark" in p.reason  # type: ignore[union-attr]


def test_a_binary_file_named_lin_is_a_problem_saying_it_is_binary(tmp_path: Path) -> None:
    f = tmp_path / "photo.lin"
    f.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64)
    (p,) = items(f)
    assert p.kind == "bad-text" and "binary" in p.reason  # type: ignore[union-attr]


def test_a_text_file_with_no_lin_tag_is_a_problem_not_silence(tmp_path: Path) -> None:
    f = tmp_path / "notes.lin"
    f.write_text("Dear director, board 7 was a claim.\n", encoding="utf-8")
    (p,) = items(f)
    assert p.kind == "no-board"


def test_an_unterminated_pbn_comment_keeps_the_games_before_it_and_says_where_it_opened(tmp_path: Path) -> None:
    text = PBN.read_text(encoding="utf-8")
    f = tmp_path / "open.pbn"
    after = text.replace("{", "(").replace("}", ")")  # the same games with no brace to close the comment
    f.write_text(text + "\n{ a commentary that never ends\n\n" + after, encoding="utf-8")
    found = items(f)
    before = claims(items(PBN))
    assert len(claims(found)) == len(before) > 0
    (p,) = problems(found)
    assert p.kind == "unterminated" and f"line {text.count(chr(10)) + 2}" in p.reason


def test_a_pbn_result_of_5000_digits_is_that_games_problem_and_later_claims_are_read(tmp_path: Path) -> None:
    text = PBN.read_text(encoding="utf-8")
    first, rest = text.split("[Result", 1)
    value, after = rest.split("]", 1)
    f = tmp_path / "long.pbn"
    f.write_text(first + '[Result "' + "7" * 5000 + '"]' + after, encoding="utf-8")
    found = items(f)
    (p,) = problems(found)
    assert p.kind == "bad-claim" and "5,000 characters" in p.reason
    assert len(claims(found)) == len(claims(items(PBN))) - 1


def test_an_over_long_lin_tag_is_its_records_problem_and_the_other_records_are_read(tmp_path: Path) -> None:
    text = REISINGER.read_text(encoding="utf-8")
    f = tmp_path / "long.lin"
    f.write_text(text.replace("qx|c23|", "qx|c23|nt|" + "x" * 200_000 + "|", 1), encoding="utf-8")
    found = items(f)
    (p,) = problems(found)
    assert p.kind == "oversize" and p.board == "23" and p.room == "closed" and "200,000 characters" in p.reason
    assert len(claims(found)) == 5


def test_a_lin_claim_of_5000_digits_is_a_bad_claim_and_later_records_are_read(tmp_path: Path) -> None:
    text = REISINGER.read_text(encoding="utf-8")
    f = tmp_path / "mc.lin"
    f.write_text(text.replace("mc|6|", "mc|" + "6" * 5000 + "|", 1), encoding="utf-8")
    found = items(f)
    (p,) = problems(found)
    assert p.kind == "bad-claim" and "5,000 characters" in p.reason and len(claims(found)) == 5


def test_a_pbn_line_over_the_limit_is_its_games_problem(tmp_path: Path) -> None:
    text = PBN.read_text(encoding="utf-8")
    f = tmp_path / "wide.pbn"
    f.write_text(text + "\n\n[Event \"x\"]\n[Board \"99\"]\n" + "S2 " * 400_000 + "\n", encoding="utf-8")
    found = items(f)
    (p,) = problems(found)
    assert p.kind == "oversize" and "over the limit" in p.reason
    assert len(claims(found)) == len(claims(items(PBN)))


# -- printing: text from a record is never markup ------------------------------------------------


def markup_lin(tmp_path: Path) -> Path:
    f = tmp_path / "markup.lin"
    f.write_text(REISINGER.read_text(encoding="utf-8").replace("qx|o24|", "qx|o[/x]24|"), encoding="utf-8")
    return f


def test_a_board_label_with_rich_markup_is_printed_as_text_and_csv_and_json_are_written(tmp_path: Path) -> None:
    f = markup_lin(tmp_path)
    res = CliRunner().invoke(app, ["audit", str(f), "--workers", "1", "--csv", str(tmp_path / "a.csv"),
                                   "--json", str(tmp_path / "a.json"), "--out", str(tmp_path / "a.db")])
    assert res.exit_code == 0, res.output
    assert "[/x]24" in res.output and "internal error" not in res.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "a.csv").read_text(encoding="utf-8"))))
    assert len(rows) == 6 and "[/x]24" in {r["board"] for r in rows}
    assert len(json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))["rows"]) == 6
    rep = CliRunner().invoke(app, ["audit", "report", str(tmp_path / "a.db"), "--csv", str(tmp_path / "r.csv")])
    assert rep.exit_code == 0, rep.output
    assert "[/x]24" in rep.output and (tmp_path / "r.csv").read_text(encoding="utf-8").count("[/x]24") == 1


# -- the store ----------------------------------------------------------------------------------


def test_a_records_file_changed_between_runs_is_counted_once(tmp_path: Path) -> None:
    f = tmp_path / "a.lin"
    f.write_bytes(REISINGER.read_bytes())
    db = tmp_path / "a.db"
    audit([f], workers=0, progress=False, out=db)
    f.write_bytes(REISINGER.read_bytes() + b"\n")  # other content, the same claims
    again = audit([f], workers=0, progress=False, out=db)
    assert again.replaced == 6 and "6 rows of files changed since replaced" in again.summary()
    rep = CliRunner().invoke(app, ["audit", "report", str(db)])
    assert rep.exit_code == 0 and "6 claims audited" in rep.output, rep.output
    assert len(rows_in(db)) == 6


def test_a_changed_file_keeps_the_rows_a_copy_of_its_old_content_still_holds(tmp_path: Path) -> None:
    a, b = tmp_path / "a.lin", tmp_path / "b.lin"
    a.write_bytes(REISINGER.read_bytes())
    b.write_bytes(REISINGER.read_bytes())
    db = tmp_path / "a.db"
    audit([a, b], workers=0, progress=False, out=db)
    a.write_bytes(REISINGER.read_bytes() + b"\n")
    again = audit([a, b], workers=0, progress=False, out=db)
    assert again.replaced == 0 and len(rows_in(db)) == 12  # b's six rows and a's new six
    store = Store(db, create=False)
    assert {Path(r.source).name for r in store.rows()} == {"a.lin", "b.lin"}
    store.close()


def test_a_second_audit_on_a_store_in_use_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    holder = Store(db)
    try:
        with pytest.raises(StoreBusy):
            Store(db)
        res = CliRunner().invoke(app, ["audit", str(REISINGER), "--out", str(db), "--workers", "1"])
        assert res.exit_code == 2
        assert len(res.output.strip().splitlines()) == 1
        assert "another claimlaw audit is writing to this store (pid" in res.output
        report = CliRunner().invoke(app, ["audit", "report", str(db)])  # readers take no lock
        assert report.exit_code == 0, report.output
    finally:
        holder.close()
    Store(db).close()  # released


def test_a_concurrent_second_run_is_refused_and_the_first_loses_and_doubles_nothing(tmp_path: Path) -> None:
    data = copies(tmp_path, 10)
    db = tmp_path / "a.db"
    first = subprocess.Popen([sys.executable, "-m", "claimlaw.engine.faces.cli", "audit", str(data), "--out", str(db),
                              "--workers", "1"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    try:
        deadline = time.monotonic() + 120
        while not (db.exists() and Path(str(db) + ".lock").exists()
                   and Path(str(db) + ".lock").read_text(encoding="utf-8").strip()):
            assert time.monotonic() < deadline and first.poll() is None, "the first run never held the store"
            time.sleep(0.05)
        second = CliRunner().invoke(app, ["audit", str(data), "--out", str(db), "--workers", "1"])
        assert second.exit_code == 2 and "another claimlaw audit is writing" in second.output
        assert len(second.output.strip().splitlines()) == 1
    finally:
        _, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr
    rows = rows_in(db)
    assert len(rows) == 60 and len({r[:4] for r in rows}) == 60 and {r[4] for r in rows} == {1}


def test_out_naming_an_unrelated_sqlite_file_is_refused_before_it_is_modified(tmp_path: Path) -> None:
    other = tmp_path / "crm.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, name TEXT)")
        con.execute("INSERT INTO rows (name) VALUES ('a customer')")
    con.close()
    before = hashlib.sha256(other.read_bytes()).hexdigest()
    res = CliRunner().invoke(app, ["audit", str(REISINGER), "--out", str(other), "--workers", "1"])
    assert res.exit_code == 2 and "not a claimlaw results store" in res.output and "rows" in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert hashlib.sha256(other.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crm.db"]  # no WAL, no lock file


@pytest.mark.parametrize("make", ["directory", "fifo", "text"])
def test_out_naming_a_directory_a_fifo_or_a_text_file_is_refused_in_one_line(tmp_path: Path, make: str) -> None:
    target = tmp_path / "x.db"
    if make == "directory":
        target.mkdir()
    elif make == "fifo":
        os.mkfifo(target)
    else:
        target.write_text("my notes\n", encoding="utf-8")
    with pytest.raises(StoreError):
        within(10, lambda: Store(target))
    res = within(60, lambda: CliRunner().invoke(app, ["audit", str(REISINGER), "--out", str(target)]))
    assert res.exit_code == 2 and res.output.startswith("error: --out:")
    assert len(res.output.strip().splitlines()) == 1


def test_a_store_full_disk_ends_in_one_line_and_the_same_command_finishes_the_rest(tmp_path: Path) -> None:
    data = copies(tmp_path, 10)
    db = tmp_path / "a.db"
    # a real OS refusal to write: the process may not write files past 160 KB (RLIMIT_FSIZE; SQLite sees
    # the same write error as on a full disk)
    limit = ("import resource, signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
             "resource.setrlimit(resource.RLIMIT_FSIZE, (160_000, resource.RLIM_INFINITY))\n")
    res = cli("audit", str(data), "--out", str(db), "--workers", "1", prelude=limit)
    assert res.returncode == 1, res.stdout + res.stderr
    message = res.stderr.strip()
    assert len(message.splitlines()) == 1 and "internal error" not in message
    assert "cannot write the store" in message and "run the same command again" in message
    kept = len(rows_in(db))
    assert kept < 60
    again = cli("audit", str(data), "--out", str(db), "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert f"60 claims audited ({kept} of them from the store, not redone)" in again.stdout
    rows = rows_in(db)
    assert len(rows) == 60 and len({r[:4] for r in rows}) == 60


def test_no_space_for_a_worker_is_one_line_saying_how_to_finish(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import claimlaw.engine.faces.audit.run as run_mod

    def full(*_a: Any, **_k: Any) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(run_mod.tempfile, "TemporaryFile", full)
    db = tmp_path / "a.db"
    res = CliRunner().invoke(app, ["audit", str(REISINGER), "--out", str(db), "--workers", "1"])
    assert res.exit_code == 1
    assert res.output.strip().splitlines()[-1] == (f"error: No space left on device; every finished claim is in "
                                                   f"{db}: run again to finish")
    monkeypatch.undo()
    Store(db).close()  # the store is whole and free


def test_no_space_for_the_csv_is_one_line_after_the_store_and_json_are_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    real = Path.write_text

    def full_for_csv(self: Path, *a: Any, **k: Any) -> int:
        if self.suffix == ".csv":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "write_text", full_for_csv)
    db = tmp_path / "a.db"
    res = CliRunner().invoke(app, ["audit", str(REISINGER), "--out", str(db), "--workers", "1",
                                   "--csv", str(tmp_path / "a.csv"), "--json", str(tmp_path / "a.json")])
    assert res.exit_code == 1
    assert f"error: {tmp_path / 'a.csv'}: cannot write (No space left on device)" in res.output
    assert "Summary:" in res.output and (tmp_path / "a.json").exists() and len(rows_in(db)) == 6


def killed_after_five(data: Path, db: Path, wait: float) -> list[str]:
    """A command auditing ``data`` into ``db`` that, ``wait`` seconds after its fifth row came (with no
    commit asked for), kills itself with SIGKILL: what a kill -9 during a slow claim leaves."""
    script = (
        "import os, signal, sys, time\n"
        "from claimlaw.engine.faces.audit import store as audit_store\n"
        "add = audit_store.Store.add\n"
        "seen = []\n"
        "def add_then_kill(self, row, run_id):\n"
        "    add(self, row, run_id)\n"
        "    seen.append(row)\n"
        "    if len(seen) == 5:\n"
        f"        time.sleep({wait})\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "audit_store.Store.add = add_then_kill\n"
        "from claimlaw.engine.faces.cli import app\n"
        "sys.argv = ['claimlaw', 'audit', sys.argv[1], '--out', sys.argv[2], '--workers', '1']\n"
        "app()\n")
    return [sys.executable, "-c", script, str(data), str(db)]


def test_rows_finished_a_second_before_a_kill_9_are_in_the_store_and_a_rerun_loses_and_doubles_none(
        tmp_path: Path) -> None:
    data = copies(tmp_path, 2)
    db = tmp_path / "a.db"
    run = subprocess.run(killed_after_five(data, db, 1.0), cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, timeout=300)
    assert run.returncode == -signal.SIGKILL
    assert len(rows_in(db)) == 5  # all five: committed within 0.6 s though no sixth row came
    res = CliRunner().invoke(app, ["audit", str(data), "--out", str(db), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "12 claims audited (5 of them from the store, not redone)" in res.output
    rows = rows_in(db)
    assert len(rows) == 12 and len({r[:4] for r in rows}) == 12


def test_a_file_of_thirty_thousand_broken_records_lists_a_thousand_and_counts_the_rest(tmp_path: Path) -> None:
    f = tmp_path / "many.lin"
    f.write_text("".join(f"qx|o{i}|mc|7|" for i in range(30_000)), encoding="utf-8")
    found = within(120, lambda: list(read_file(f)))
    assert len(found) == 1001 and all(p.kind == "no-deal" for p in problems(found)[:1000])
    assert found[-1].kind == "more-problems" and "29,000 more unreadable records" in found[-1].reason  # type: ignore


def test_a_file_rewritten_while_it_is_read_is_a_problem_saying_so(tmp_path: Path) -> None:
    f = tmp_path / "a.lin"
    f.write_bytes(REISINGER.read_bytes())

    def rewrite(_digest: str) -> None:  # between the hash and the reading: another program saves the file
        with f.open("r+b") as fh:
            fh.write(REISINGER.read_bytes().replace(b"mc|6|", b"mc|5|"))

    found = within(60, lambda: list(read_file(f, on_open=rewrite)))
    assert [p.kind for p in problems(found)] == ["changed"]
