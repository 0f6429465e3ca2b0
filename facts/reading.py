"""Reading untrusted files: size, type, encoding, YAML/JSON safety and the shape of what was read.

Every refusal is a ``ReadError`` with one line naming the problem; ``facts.case`` turns it into a
``CaseError`` and ``engine.packs`` into a ``PackError``.

Limits (each can be raised through the environment, for unusual but honest inputs):

* ``CLAIMLAW_MAX_CASE_BYTES`` — a case or pack file, default 1 MiB (the largest bundled case is 3 KB);
* ``CLAIMLAW_MAX_RECORD_BYTES`` — a LIN/PBN hand record, default 64 MiB (a whole event's records);
* nesting deeper than ``MAX_DEPTH`` levels, a string longer than ``MAX_STRING`` characters, more
  than ``MAX_NODES`` values, or more than ``MAX_ALIASES`` YAML aliases are refused outright.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

DEFAULT_CASE_BYTES = 1 << 20  # a 100 KB statement fits; libyaml reads a megabyte in well under a second
DEFAULT_RECORD_BYTES = 64 << 20
MAX_DEPTH = 32          # a case nests at most 4 deep (board.play[i][j]); packs a little more
MAX_STRING = 250_000    # characters in one string (a spoken statement is a few hundred)
MAX_NODES = 10_000      # values in one file (a case has a few hundred at most)
MAX_ALIASES = 16        # YAML aliases (*name); an alias bomb needs many


class ReadError(ValueError):
    """A file that cannot be read safely; the message is one line, ``field`` the path when known."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def limit_from_env(name: str, default: int) -> int:
    """A byte limit from the environment variable ``name``, or ``default`` when unset."""
    raw = os.environ.get(name, "").strip().replace("_", "")
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ReadError(f"{name}={raw!r} is not a whole number of bytes") from None
    if value < 1:
        raise ReadError(f"{name}={raw!r} is not a positive number of bytes")
    return value


def case_limit() -> int:
    """The size limit for case and pack files, in bytes."""
    return limit_from_env("CLAIMLAW_MAX_CASE_BYTES", DEFAULT_CASE_BYTES)


def record_limit() -> int:
    """The size limit for hand records, in bytes."""
    return limit_from_env("CLAIMLAW_MAX_RECORD_BYTES", DEFAULT_RECORD_BYTES)


def read_bytes(path: str | Path, max_bytes: int, *, env: str = "CLAIMLAW_MAX_CASE_BYTES") -> bytes:
    """The bytes of a regular file no larger than ``max_bytes``; directories, FIFOs and devices refused."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise ReadError("no such file") from None
    except OSError as e:
        raise ReadError(f"cannot read the file ({e.strerror or e})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ReadError("is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise ReadError("is not a regular file (a FIFO, socket or device); give a file")
    if st.st_size > max_bytes:
        raise ReadError(f"is {st.st_size:,} bytes, over the limit of {max_bytes:,} (raise it with {env})")
    try:
        with p.open("rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise ReadError(f"cannot read the file ({e.strerror or e})") from None
    if len(data) > max_bytes:
        raise ReadError(f"is over the limit of {max_bytes:,} bytes (raise it with {env})")
    return data


def decode_text(data: bytes) -> str:
    """UTF-8 text (a UTF-8 byte-order mark is allowed); anything else is named in one line."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise ReadError("is UTF-32 text; save it as UTF-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ReadError("is UTF-16 text; save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        if data.count(b"\x00") * 4 > len(data) > 0:
            raise ReadError("is not UTF-8 text: it looks like UTF-16 without a byte-order mark or binary data; "
                            "save it as UTF-8") from None
        bad = data[e.start]
        line = data.count(b"\n", 0, e.start) + 1
        if all(b >= 0x20 or b in (9, 10, 13) for b in data[:4096]):
            hint = "Latin-1 or Windows-1252 text? save it as UTF-8"
        else:
            hint = "binary data? a case file is UTF-8 text"
        raise ReadError(f"is not UTF-8 text: byte 0x{bad:02X} at line {line} ({hint})") from None
    if "\x00" in text:
        raise ReadError(f"contains a NUL character at line {text.count(chr(10), 0, text.index(chr(0))) + 1}; "
                        "a case file is text")
    return text


def read_text(path: str | Path, max_bytes: int | None = None, *, env: str = "CLAIMLAW_MAX_CASE_BYTES") -> str:
    """A UTF-8 text file within the size limit (the case limit by default)."""
    return decode_text(read_bytes(path, case_limit() if max_bytes is None else max_bytes, env=env))


# -- YAML -----------------------------------------------------------------------------


def _loader() -> type:
    """A safe loader (libyaml's when built in) whose mappings refuse a key given twice."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: set[Any] = set()
                for key_node, _ in node.value:
                    if key_node.tag == "tag:yaml.org,2002:merge":
                        continue
                    key = self.construct_object(key_node, deep=True)
                    try:
                        dup = key in seen
                        seen.add(key)
                    except TypeError:
                        continue  # unhashable: the base class says so
                    if dup:
                        raise ReadError(f"the key {str(key)!r} appears twice in one mapping "
                                        f"(line {key_node.start_mark.line + 1})")
            return super().construct_mapping(node, deep=deep)

    return Loader


def _check_events(text: str, loader: type) -> None:
    """Walk the YAML events (no objects built): bound nesting, aliases and the number of values."""
    import yaml

    depth = aliases = nodes = 0
    for ev in yaml.parse(text, Loader=loader):
        line = ev.start_mark.line + 1 if ev.start_mark else 0
        if isinstance(ev, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise ReadError(f"nested deeper than {MAX_DEPTH} levels at line {line}")
        elif isinstance(ev, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(ev, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise ReadError(f"more than {MAX_ALIASES} YAML aliases (*name) at line {line}; write the values out")
        if isinstance(ev, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise ReadError(f"more than {MAX_NODES:,} values (line {line}); a case holds a few hundred")


def parse_yaml(text: str) -> Any:
    """YAML read safely: plain data only, few aliases, bounded nesting and size, no duplicate keys."""
    import yaml

    loader = _loader()
    try:
        _check_events(text, loader)
        return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader subclass
    except ReadError:
        raise
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        reason = " ".join(x for x in (e.context, e.problem) if x) or "unreadable"
        if "nesting depth" in reason:
            raise ReadError(f"nested deeper than {MAX_DEPTH} levels{where}") from None
        raise ReadError(f"not valid YAML{where}: {one_line(reason)}") from None
    except yaml.YAMLError as e:
        raise ReadError(f"not valid YAML: {one_line(str(e))}") from None
    except RecursionError:
        raise ReadError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise ReadError(f"not valid YAML: {one_line(str(e))}") from None


# -- JSON -----------------------------------------------------------------------------


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ReadError(f"the key {k!r} appears twice in one object")
        out[k] = v
    return out


def _constant(name: str) -> Any:
    raise ReadError(f"not valid JSON: {name} is not a number a case can hold")


def parse_json(text: str) -> Any:
    """JSON read strictly: no duplicate keys, no NaN/Infinity, bounded nesting."""
    depth = 0
    deepest = 0
    in_string = escaped = False
    for ch in text:  # a bracket count before parsing: the decoder recurses once per level
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_DEPTH:
        raise ReadError(f"nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except ReadError:
        raise
    except json.JSONDecodeError as e:
        raise ReadError(f"not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except (ValueError, RecursionError) as e:
        raise ReadError(f"not valid JSON: {one_line(str(e))}") from None


# -- the shape of what was read ---------------------------------------------------------


def check_shape(data: Any) -> None:
    """Refuse data nested too deep, with a string too long, too many values, or a value JSON cannot hold
    (walked without recursion; the error names the field)."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    nodes = 0
    while stack:
        value, depth, path = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ReadError(f"more than {MAX_NODES:,} values; a case holds a few hundred")
        if depth > MAX_DEPTH:
            raise ReadError(f"nested deeper than {MAX_DEPTH} levels", path)
        if isinstance(value, str):
            if len(value) > MAX_STRING:
                raise ReadError(f"a text of {len(value):,} characters, over the limit of {MAX_STRING:,}", path)
        elif isinstance(value, dict):
            for k, v in value.items():
                where = f"{path}.{k}" if path else str(k)
                stack.append((k, depth + 1, where))
                stack.append((v, depth + 1, where))
        elif isinstance(value, list | tuple):
            stack.extend((v, depth + 1, f"{path}[{i}]") for i, v in enumerate(value))
        elif not (value is None or isinstance(value, bool | int | float)):
            kind = {"bytes": "binary data (!!binary)", "datetime": "a date", "date": "a date",
                    "set": "a set (!!set)"}.get(type(value).__name__, f"a {type(value).__name__}")
            raise ReadError(f"{kind} where only text, numbers, true/false, lists and mappings belong", path)


def one_line(text: str) -> str:
    """Text on one line: newlines and runs of spaces become single spaces."""
    return " ".join(text.split())
