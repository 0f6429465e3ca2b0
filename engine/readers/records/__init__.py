"""Hand records people already have, read into claimlaw cases: BBO LIN and PBN.

    >>> from engine.readers.records import read_records, ReadReport
    >>> report = ReadReport()
    >>> for item in read_records(["../shared/data/bbo-vugraph"], report=report):
    ...     ...  # a ClaimRecord (item.case is a validated facts.Case) or a ReadProblem
    >>> print(report.summary())

Pure Python: no endplay here (only ``engine/play`` talks to endplay).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from claimlaw.engine.readers.records.common import ClaimRecord, ReadProblem, ReadReport, RecordError, parse_result_code
from claimlaw.engine.readers.records.lin import decode, read_lin, stream_lin
from claimlaw.engine.readers.records.pbn import read_pbn, stream_pbn
from claimlaw.engine.readers.records.source import byte_chunks, file_digest, open_records, text_chunks
from claimlaw.facts.reading import ReadError

__all__ = [
    "ClaimRecord", "ReadProblem", "ReadReport", "decode", "parse_result_code", "read_file", "read_lin",
    "read_pbn", "read_records", "record_files",
]

SUFFIXES = {".lin": "lin", ".pbn": "pbn"}
PROBLEMS_PER_FILE = 1000  # problems listed one by one for a file; the rest are counted by kind in one more


def record_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """The ``.lin`` and ``.pbn`` files named, or found (sorted) under the directories named."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES)
        else:
            yield path


def read_file(path: str | os.PathLike[str], report: ReadReport | None = None,
              on_open: Callable[[str], None] | None = None) -> Iterator[ClaimRecord | ReadProblem]:
    """The claims of one file (LIN or PBN by suffix, else by content); problems as ReadProblem.

    A FIFO, socket, device or directory, or a file over ``CLAIMLAW_MAX_RECORD_BYTES``, is refused
    before a byte is read. The file is read as a stream (LIN twice, PBN once, after a pass for its
    hash): memory stays flat in its size. ``on_open`` (if given) receives the file's content hash
    (``source.file_digest``) before the first item.
    """
    p = Path(path)
    source = str(p)
    if report is not None:
        report.files += 1
    try:
        f = open_records(p)
    except ReadError as e:  # missing, a directory, FIFO or device, or over the size limit
        yield _noted(ReadProblem(source, None, str(e), "bad-file"), report)
        return
    with f:
        try:
            digest = file_digest(f)
            if on_open is not None:
                on_open(digest)
            kind = SUFFIXES.get(p.suffix.lower()) or _kind(text_chunks(byte_chunks(f)))
        except RecordError as e:
            yield _noted(ReadProblem(source, None, e.reason, e.kind), report)
            return

        read: list[str] = []  # the hash of each pass's bytes

        def chunks() -> Iterator[str]:
            return text_chunks(byte_chunks(f, digest=read))

        items = stream_pbn(chunks(), source, report) if kind == "pbn" else stream_lin(chunks, source, report)
        listed = 0
        more: Counter[str] = Counter()
        for item in items:
            if isinstance(item, ReadProblem):
                if listed >= PROBLEMS_PER_FILE:
                    more[item.kind] += 1  # counted, not kept: memory stays flat however many there are
                    continue
                listed += 1
            yield _noted(item, report)
        if more:
            kinds = ", ".join(f"{k} {n:,}" for k, n in more.most_common())
            yield _noted(ReadProblem(source, None, f"{sum(more.values()):,} more unreadable records, not listed one "
                                     f"by one ({kinds})", "more-problems"), report)
        if any(h != digest for h in read):
            yield _noted(ReadProblem(source, None, "the file changed while it was read: its claims may mix two "
                                     "versions; read it again once it is still", "changed"), report)


def _kind(chunks: Iterator[str]) -> str:
    """PBN when the first text that is not blank starts a tag or a % line, else LIN."""
    for chunk in chunks:
        text = chunk.lstrip()
        if text:
            return "pbn" if text.startswith(("[", "%")) else "lin"
    return "lin"


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
