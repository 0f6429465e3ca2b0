"""A records file opened safely and read as a stream: refused before reading when it is not a regular
file or is over the size limit, hashed, then decoded in chunks so memory stays flat in the file's size.

* FIFOs, sockets, devices and directories are refused from ``stat`` alone (a FIFO is never opened for
  reading in blocking mode, a device never read): one line, no wait.
* ``CLAIMLAW_MAX_RECORD_BYTES`` (default 64 MiB) bounds the size before reading, and every pass
  counts the bytes again (a file that grows while it is read is cut off and said so).
* Text: a UTF-16 or UTF-32 byte-order mark is honoured; NUL bytes or many control bytes without one
  are binary data (refused, with a reason); otherwise UTF-8, switching to Windows-1252 (BBO's older
  files) from the first chunk that is not UTF-8.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO

from claimlaw.engine.readers.records.common import RecordError
from claimlaw.facts.reading import ReadError, record_limit

CHUNK = 1 << 20  # bytes read at a time
SNIFF = 1 << 16  # bytes looked at to tell text from binary data
ENV = "CLAIMLAW_MAX_RECORD_BYTES"
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 26))


def open_records(path: str | os.PathLike[str], max_bytes: int | None = None) -> BinaryIO:
    """A regular file no larger than the limit, open for reading; ReadError (one line) otherwise.

    Checked with ``stat`` before opening (a FIFO or a device is never opened), and with ``fstat``
    after (the name may have been swapped in between; the open does not block on a FIFO).
    """
    limit = record_limit() if max_bytes is None else max_bytes
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ReadError("no such file") from None
    except OSError as e:
        raise ReadError(f"cannot read the file ({e.strerror or e})") from None
    _check(st, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise ReadError(f"cannot read the file ({e.strerror or e})") from None
    try:
        _check(os.fstat(fd), limit)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb", buffering=0)


def _check(st: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise ReadError("is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        kind = "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "a device"
        raise ReadError(f"is {kind}, not a regular file; give a file")
    if st.st_size > limit:
        raise ReadError(f"is {st.st_size:,} bytes, over the limit of {limit:,} (raise it with {ENV})")


def byte_chunks(f: BinaryIO, max_bytes: int | None = None, digest: list[str] | None = None) -> Iterator[bytes]:
    """The file's bytes from the start, a chunk at a time; RecordError once more than the limit came.

    ``digest``, when given, receives the hex SHA-256 (16 digits) of what was read, after the last chunk.
    """
    limit = record_limit() if max_bytes is None else max_bytes
    try:
        f.seek(0)
    except OSError as e:
        raise RecordError("bad-file", f"cannot read the file ({e.strerror or e})") from None
    h = hashlib.sha256()
    total = 0
    while True:
        try:
            data = f.read(CHUNK)
        except OSError as e:
            raise RecordError("bad-file", f"cannot read the file ({e.strerror or e})") from None
        if not data:
            break
        total += len(data)
        if total > limit:
            raise RecordError("oversize", f"grew over the limit of {limit:,} bytes while it was read "
                                          f"(raise it with {ENV})")
        h.update(data)
        yield data
    if digest is not None:
        digest.append(h.hexdigest()[:16])


def file_digest(f: BinaryIO, max_bytes: int | None = None) -> str:
    """The first 16 hex digits of the SHA-256 of the file's contents (read in chunks)."""
    out: list[str] = []
    for _ in byte_chunks(f, max_bytes, out):
        pass
    return out[0]


def sniff(head: bytes) -> str:
    """The encoding to read a records file with, from its first bytes; RecordError for binary data."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    sample = head[:SNIFF]
    if b"\x00" in sample:
        if sample.count(b"\x00") * 4 > len(sample):
            raise RecordError("bad-text", "is not a text of records: NUL bytes throughout (UTF-16 without a "
                                          "byte-order mark, or binary data); save it as UTF-8")
        raise RecordError("bad-text", f"is not a text of records: a NUL byte at offset {sample.index(0):,} "
                                      "(binary data?)")
    controls = sum(sample.count(bytes([b])) for b in _CONTROL)
    if sample and controls * 100 > len(sample):
        raise RecordError("bad-text", f"is not a text of records: {controls:,} control bytes in its first "
                                      f"{len(sample):,} (binary data?)")
    return "utf-8-sig"


def text_chunks(chunks: Iterator[bytes]) -> Iterator[str]:
    """Decoded text, chunk by chunk (see the module's rules for the encoding)."""
    first = next(chunks, b"")
    if not first:
        return
    encoding = sniff(first)
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    pending = [first]
    for data in _chain(pending, chunks):
        if encoding in ("utf-8-sig", "utf-8"):
            held = decoder.getstate()[0]  # the start of a character cut at the last chunk's end
            try:
                yield decoder.decode(data)
                continue
            except UnicodeDecodeError:
                encoding = "cp1252"  # from this chunk on; the text before it was valid UTF-8
                decoder = codecs.getincrementaldecoder("cp1252")("replace")
                data = held + data
        else:
            try:
                yield decoder.decode(data)
                continue
            except UnicodeDecodeError as e:
                raise RecordError("bad-text", f"is not valid {encoding.upper()} text ({e.reason})") from None
        yield decoder.decode(data)
    try:
        tail = decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        tail = "\ufffd"  # a multi-byte character cut off at the end of the file
    if tail:
        yield tail


def _chain(first: list[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    yield from first
    yield from rest
