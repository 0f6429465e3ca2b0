"""The malformed-input corpus (tests/corpus/, made by make_corpus.py): each case file exits 2 with one line.

A few files are deliberately accepted (tests/corpus/accepted.json says why). Hand records are never
refused as a whole: the reader reports each unreadable file or record as a problem and goes on.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimlaw.engine.faces.cli import app
from claimlaw.engine.readers.records import ReadProblem, read_file
from tests.corpus.make_corpus import MAX_COMMITTED, raw_files

CORPUS = Path(__file__).resolve().parent / "corpus"
CASES = sorted((CORPUS / "cases").iterdir())
RECORDS = sorted((CORPUS / "records").iterdir())
ACCEPTED: dict[str, str] = json.loads((CORPUS / "accepted.json").read_text(encoding="utf-8"))
runner = CliRunner()
BIG = {name: raw for name, raw in raw_files().items() if len(raw) > MAX_COMMITTED}


def _rule(path: Path, *extra: str) -> tuple[int, str, str, float]:
    t = time.perf_counter()
    res = runner.invoke(app, ["rule", str(path), *extra])
    return res.exit_code, res.stdout, res.stderr, time.perf_counter() - t


def test_the_corpus_holds_at_least_200_malformed_case_files_and_some_records() -> None:
    assert len([p for p in CASES if p.name not in ACCEPTED]) >= 200 and len(RECORDS) >= 20
    assert set(ACCEPTED) <= {p.name for p in CASES} | set(BIG)


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_each_malformed_case_file_exits_2_with_one_line_or_is_a_stated_acceptance(path: Path) -> None:
    code, out, err, seconds = _rule(path)
    assert "Traceback" not in out + err and "\x1b" not in out + err
    if path.name in ACCEPTED:
        assert code == 0, err
        return
    assert code == 2, out + err
    assert out == "" and len(err.strip().splitlines()) == 1 and len(err) < 300 + len(str(path)), err
    assert err.startswith(f"error: {path}: ") and err.count(str(path)) == 1
    assert "instance of" not in err and "Input should" not in err  # no pydantic wording
    assert seconds < 10


@pytest.mark.parametrize("path", CASES[::7], ids=[p.name for p in CASES[::7]])
def test_with_json_a_malformed_case_file_is_one_json_error_object(path: Path) -> None:
    if path.name in ACCEPTED:
        pytest.skip("accepted")
    code, out, err, _ = _rule(path, "--json")
    data = json.loads(out)
    assert code == 2 and err == "" and set(data) == {"error", "field", "file"} and data["error"]



@pytest.mark.parametrize("name", sorted(BIG))
def test_each_large_corpus_file_is_refused_or_accepted_at_once(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(BIG[name])
    code, _, err, seconds = _rule(path)
    assert code == (0 if name in ACCEPTED else 2), err
    assert seconds < 10 and len(err.strip().splitlines()) == (0 if name in ACCEPTED else 1) and len(err) < 500


def test_a_fifty_megabyte_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:
        f.truncate(50 << 20)  # sparse: fifty megabytes of NULs on no disk
    code, _, err, seconds = _rule(path)
    assert code == 2 and "over the limit" in err and seconds < 5


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "case.yaml"
    os.mkfifo(fifo)
    code, _, err, seconds = _rule(fifo)
    assert code == 2 and "not a regular file" in err and seconds < 5


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_each_malformed_record_file_is_read_without_an_exception(path: Path) -> None:
    items = list(read_file(path))
    for item in items:
        if isinstance(item, ReadProblem):
            assert item.reason and "\n" not in item.reason
