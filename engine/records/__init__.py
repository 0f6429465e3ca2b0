"""Hand records people already have, read into claimlaw cases: BBO LIN and PBN.

    >>> from engine.records import read_records, ReadReport
    >>> report = ReadReport()
    >>> for item in read_records(["../shared/data/bbo-vugraph"], report=report):
    ...     ...  # a ClaimRecord (item.case is a validated facts.Case) or a ReadProblem
    >>> print(report.summary())

Pure Python: no endplay here (only ``engine/play`` talks to endplay).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from claimlaw.engine.records.common import ClaimRecord, ReadProblem, ReadReport, parse_result_code
from claimlaw.engine.records.lin import decode, iter_lin, read_lin
from claimlaw.engine.records.pbn import iter_pbn, read_pbn
from claimlaw.facts.reading import ReadError, read_bytes, record_limit

__all__ = [
    "ClaimRecord", "ReadProblem", "ReadReport", "decode", "parse_result_code", "read_file", "read_lin",
    "read_pbn", "read_records", "record_files",
]

SUFFIXES = {".lin": "lin", ".pbn": "pbn"}


def record_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """The ``.lin`` and ``.pbn`` files named, or found (sorted) under the directories named."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES)
        else:
            yield path


def read_file(path: str | os.PathLike[str], report: ReadReport | None = None) -> Iterator[ClaimRecord | ReadProblem]:
    """The claims of one file (LIN or PBN by suffix, else by content); problems as ReadProblem."""
    p = Path(path)
    source = str(p)
    if report is not None:
        report.files += 1
    try:
        raw = read_bytes(p, record_limit(), env="CLAIMLAW_MAX_RECORD_BYTES")
    except ReadError as e:  # missing, a directory or FIFO, or over the size limit
        yield _noted(ReadProblem(source, None, str(e), "bad-file"), report)
        return
    text = decode(raw)
    kind = SUFFIXES.get(p.suffix.lower()) or ("pbn" if text.lstrip().startswith(("[", "%")) else "lin")
    items = iter_pbn(text, source, report) if kind == "pbn" else iter_lin(text, source, report)
    for item in items:
        yield _noted(item, report)


def read_records(paths: Iterable[str | os.PathLike[str]],
                 report: ReadReport | None = None) -> Iterator[ClaimRecord | ReadProblem]:
    """Every claim in the files and directories named, in order; unreadable records as ReadProblem.

    Never raises for bad input: a file or record that cannot be read is yielded as a ReadProblem
    with its reason. ``report`` (if given) collects the counts.
    """
    for path in record_files(paths):
        yield from read_file(path, report)


def _noted(item: ClaimRecord | ReadProblem, report: ReadReport | None) -> ClaimRecord | ReadProblem:
    if report is not None:
        report.add(item)
    return item
