"""Find Regulating-Authority packs by name or path.

A pack is found, in this order:

* by **path** (anything containing a path separator or ending ``.py``/``.yaml``/``.yml``/``.json``;
  a bare word only when no pack has that name and it names an existing file or directory): a
  Python file defining ``PACK``; a directory holding
  ``pack.py``, ``__init__.py`` (imported as a package, so relative imports work),
  ``pack.yaml``/``pack.yml`` or ``pack.json``; or a YAML/JSON *data pack*;
* by **name**: a built-in module ``rules.packs.<name>`` exposing ``PACK``, then an installed
  package's entry point in the group ``claimlaw.packs`` (the entry point may name a Pack, a
  module exposing ``PACK``, or a function returning a Pack).

A data pack holds only data, read by ``engine.packdata``: ``name`` (required), ``title``, ``source``,
``overrides``, ``params`` (each with the regulation it cites), ``withdraw`` and simple ``rules``.
Rules that need code need a Python pack.

Loaded packs are cached (path packs by file modification time), so compiling the same packs
again reuses the compiled program. Every failure is a :class:`PackError` naming the pack.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import os
import pkgutil
import stat
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from claimlaw.engine.packdata import TOP_KEYS, read_data_pack
from claimlaw.facts.reading import ReadError, check_shape, parse_json, parse_yaml, read_text
from claimlaw.rules.params import PARAMS, check, suggest
from claimlaw.rules.rulebook import Pack, PackError

BUILTIN_PACKAGE = "claimlaw.rules.packs"
ENTRY_POINT_GROUP = "claimlaw.packs"
DATA_KEYS = frozenset(TOP_KEYS)
_DATA_SUFFIXES = (".yaml", ".yml", ".json")

_CACHE: dict[tuple[str, ...], Pack] = {}
_EXTENDED: dict[int, tuple[weakref.ref[Pack], Pack]] = {}


@dataclass(frozen=True)
class PackInfo:
    """One pack that can be named: its name, title, source and where it comes from."""

    name: str
    title: str
    source: str
    origin: str          # "built-in", "entry point (<distribution>)" or a path
    error: str = ""      # set when the pack is listed but cannot be loaded


__all__ = ["BUILTIN_PACKAGE", "ENTRY_POINT_GROUP", "PackError", "PackInfo", "list_packs", "load_case_pack",
           "load_pack"]


# ---------------------------------------------------------------------------------------
# Listing
# ---------------------------------------------------------------------------------------


def _builtin_names() -> list[str]:
    try:
        pkg = importlib.import_module(BUILTIN_PACKAGE)
    except ImportError:
        return []
    paths = getattr(pkg, "__path__", None)
    if paths is None:
        return []
    return sorted(m.name for m in pkgutil.iter_modules(paths) if not m.name.startswith("_"))


def _entry_points() -> list[metadata.EntryPoint]:
    return sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def _ep_origin(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"entry point ({dist.name})" if dist is not None else "entry point"


def list_packs() -> list[PackInfo]:
    """Every pack that can be named: built-in first, then installed ones. Broken ones say why."""
    out: list[PackInfo] = []
    seen: set[str] = set()
    for name in _builtin_names():
        out.append(_info(name, "built-in", lambda n=name: _load_builtin(n)))
        seen.add(name)
    for ep in _entry_points():
        if ep.name in seen:
            continue
        seen.add(ep.name)
        out.append(_info(ep.name, _ep_origin(ep), lambda e=ep: _load_entry_point(e)))
    return out


def _info(name: str, origin: str, load: Callable[[], Pack]) -> PackInfo:
    try:
        p = check_params(load())
    except PackError as e:
        return PackInfo(name, "", "", origin, error=str(e))
    return PackInfo(p.name, p.title, p.source, origin)


# ---------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------


def check_params(pack: Pack) -> Pack:
    """Every parameter is one the rules read (engine's ``rules.params``) or one the pack's own rules declare, with
    the right type and range; a PackError names the first that is not, with the closest valid name."""
    params = pack.params
    if not isinstance(params, dict):
        raise PackError(f"pack {pack.name!r}: params must be a mapping")
    own = {k for r in [*pack.add, *pack.replace.values()] for k in r.params}
    known = [*PARAMS, *sorted(own)]
    for key, value in params.items():
        if key not in PARAMS and key not in own:
            raise PackError(f"pack {pack.name!r}: params.{key}: unknown parameter {key!r}; {suggest(key, known)}")
        problem = check(key, value)
        if problem:
            raise PackError(f"pack {pack.name!r}: params.{key}: {problem}")
    for key in pack.cites:
        if key not in params:
            raise PackError(f"pack {pack.name!r}: cites.{key}: the pack sets no parameter {key!r}")
    return pack


def _exit_text(e: BaseException) -> str:
    """A pack that tried to end the process, in words."""
    if isinstance(e, SystemExit):
        return f"it called sys.exit({e.code!r}); a pack may not end claimlaw"
    return f"{type(e).__name__}: {e}"


def _installed(name: str) -> bool:
    return name in _builtin_names() or any(ep.name == name for ep in _entry_points())


def load_case_pack(ref: str, *, case_dir: Path | None) -> Pack:
    """A pack that a case file names under ``regulations``. A case file is data that may come from anyone (a web
    form, an e-mail), so naming a file must never run code or read beyond what the user chose:

    * ``case_dir`` None (the case came from the web page or the Python API): an installed pack's name only;
    * ``case_dir`` set (the user gave the CLI a case file there): an installed name, or a path, relative to that
      folder, to a YAML/JSON *data* pack; the path with every link resolved must still end in a data extension
      and be a regular file (never a directory, a link to code, a FIFO or a device). A Python pack is given by
      its installed name or with ``--pack``.

    The error names the reference as the case wrote it, never a resolved path nor anything read from a file."""
    s = str(ref).strip()
    if s and not _looks_like_path(s) and _installed(s):
        return load_pack(s)
    if case_dir is None:
        known = ", ".join(p.name for p in list_packs()) or "none installed"
        raise PackError(f"regulations: {s!r} is not an installed pack (known: {known}); a case sent here names "
                        "packs by name")
    if not s.lower().endswith(_DATA_SUFFIXES):
        raise PackError(f"regulations: {s!r}: a case file names a pack by its installed name, or a data pack by a "
                        "path ending .yaml, .yml or .json (never Python code; give a Python pack with --pack)")
    given = Path(s).expanduser()
    path = given if given.is_absolute() else case_dir / given
    try:
        real = Path(os.path.realpath(path))
        st = os.stat(real)
    except (OSError, ValueError):
        raise PackError(f"regulations: {s!r}: no such data pack") from None
    if not real.name.lower().endswith(_DATA_SUFFIXES):
        raise PackError(f"regulations: {s!r}: a link to a file that is not a data pack (.yaml, .yml, .json)")
    if not stat.S_ISREG(st.st_mode):
        raise PackError(f"regulations: {s!r}: not a regular file (a data pack is one .yaml, .yml or .json file)")
    key = ("path", str(real), str(st.st_mtime_ns))
    if key not in _CACHE:
        _CACHE[key] = _load_data(real, label=f"regulations: {s!r}")
    return _withdrawal_steps(check_params(_CACHE[key]))


def load_pack(name_or_path: str | Path | Pack) -> Pack:
    """The pack called ``name_or_path`` (built-in or installed), or read from that path; parameters checked."""
    return _withdrawal_steps(check_params(_load_any(name_or_path)))


def _withdrawal_steps(pack: Pack) -> Pack:
    """A pack that neutralises a normal-play guideline says so once in the chain where it would have applied (a
    data pack's ``withdraw`` does this itself, with its own citation; a Python pack cites its ``source``)."""
    from claimlaw.engine.packdata import _guideline_rules, _withdrawal_rules

    have = {r.name for r in pack.add}
    extra = []
    for g, names in _guideline_rules().items():
        if any(n in pack.neutralise for n in names):
            extra += [r for r in _withdrawal_rules(pack.name, g, pack.source or pack.title)
                      if r.name not in have and not any(r.name.endswith(".71") == n.endswith(".71")
                                                        for n in names if n not in pack.neutralise)]
    if not extra:
        return pack
    # one extended pack per pack object, so the compiled program is reused (its key is the rules' identity)
    held = _EXTENDED.get(id(pack))
    if held is not None and held[0]() is pack:
        return held[1]
    for k in [k for k, (ref, _) in _EXTENDED.items() if ref() is None]:
        del _EXTENDED[k]
    extended = dataclasses.replace(pack, add=[*pack.add, *extra])
    _EXTENDED[id(pack)] = (weakref.ref(pack), extended)
    return extended


def _load_any(name_or_path: str | Path | Pack) -> Pack:
    if isinstance(name_or_path, Pack):
        return name_or_path
    if isinstance(name_or_path, Path) or _looks_like_path(str(name_or_path)):
        return _load_path(Path(name_or_path))
    name = str(name_or_path).strip()
    if not name:
        raise PackError("empty pack name")
    if name in _builtin_names():
        return _load_builtin(name)
    for ep in _entry_points():
        if ep.name == name:
            return _load_entry_point(ep)
    if Path(name).exists():  # a bare file or directory name that is not a pack's name
        return _load_path(Path(name))
    known = [p.name for p in list_packs()]
    hint = f"; known packs: {', '.join(known)}" if known else "; no packs are installed"
    raise PackError(f"unknown pack {name!r}{hint} (or give a path to a pack file or directory)")


def _looks_like_path(s: str) -> bool:
    return "/" in s or "\\" in s or s.endswith((".py", *_DATA_SUFFIXES))


def _load_builtin(name: str) -> Pack:
    key = ("builtin", BUILTIN_PACKAGE, name)
    if key in _CACHE:
        return _CACHE[key]
    try:
        mod = importlib.import_module(f"{BUILTIN_PACKAGE}.{name}")
    except (Exception, SystemExit) as e:
        raise PackError(f"pack {name!r}: cannot import {BUILTIN_PACKAGE}.{name}: {_exit_text(e)}") from e
    pack = _from_module(mod, name, origin="built-in")
    _CACHE[key] = pack
    return pack


def _load_entry_point(ep: metadata.EntryPoint) -> Pack:
    key = ("entry_point", ep.name, ep.value)
    if key in _CACHE:
        return _CACHE[key]
    try:
        obj = ep.load()
    except (Exception, SystemExit) as e:
        raise PackError(f"pack {ep.name!r}: cannot load entry point {ep.value!r}: {_exit_text(e)}") from e
    origin = _ep_origin(ep)
    if isinstance(obj, ModuleType):
        pack = _from_module(obj, ep.name, origin=origin)
    elif isinstance(obj, Pack):
        pack = _with_origin(obj, origin)
    elif callable(obj):
        try:
            made = obj()
        except (Exception, SystemExit) as e:
            raise PackError(f"pack {ep.name!r}: {ep.value} failed: {_exit_text(e)}") from e
        if not isinstance(made, Pack):
            raise PackError(f"pack {ep.name!r}: {ep.value} returned {type(made).__name__}, not a Pack")
        pack = _with_origin(made, origin)
    else:
        raise PackError(f"pack {ep.name!r}: entry point {ep.value!r} is neither a Pack, a module nor a function")
    _CACHE[key] = pack
    return pack


def _from_module(mod: ModuleType, name: str, *, origin: str) -> Pack:
    pack = getattr(mod, "PACK", None)
    if pack is None:
        raise PackError(f"pack {name!r}: module {mod.__name__} defines no PACK")
    if not isinstance(pack, Pack):
        raise PackError(f"pack {name!r}: {mod.__name__}.PACK is a {type(pack).__name__}, not rules.rulebook.Pack")
    return _with_origin(pack, origin)


def _with_origin(pack: Pack, origin: str) -> Pack:
    if not pack.origin:
        pack.origin = origin
    return pack


def _load_path(path: Path) -> Pack:
    p = path.expanduser()
    if not p.exists():
        raise PackError(f"pack {str(path)!r}: no such file or directory")
    p = p.resolve()
    if p.is_dir():
        for candidate in ("pack.py", "__init__.py", "pack.yaml", "pack.yml", "pack.json"):
            if (p / candidate).is_file():
                target = p / candidate
                break
        else:
            raise PackError(f"pack {str(path)!r}: the directory holds no pack.py, __init__.py, pack.yaml or pack.json")
    else:
        target = p
    if not target.is_file():
        raise PackError(f"pack {str(path)!r}: not a regular file")
    stamp = str(target.stat().st_mtime_ns)
    key = ("path", str(target), stamp)
    if key in _CACHE:
        return _CACHE[key]
    if target.suffix == ".py":
        pack = _load_python(target, package=target.name == "__init__.py")
    elif target.suffix in _DATA_SUFFIXES:
        pack = _load_data(target)
    else:
        raise PackError(f"pack {str(path)!r}: expected a .py, .yaml, .yml or .json file")
    _CACHE[key] = pack
    return pack


def _load_python(target: Path, *, package: bool) -> Pack:
    digest = hashlib.sha1(str(target).encode()).hexdigest()[:12]
    modname = f"claimlaw_pack_{digest}"
    try:
        if package:
            spec = importlib.util.spec_from_file_location(
                modname, target, submodule_search_locations=[str(target.parent)])
        else:
            spec = importlib.util.spec_from_file_location(modname, target)
        if spec is None or spec.loader is None:
            raise PackError(f"pack {str(target)!r}: cannot be imported")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod  # dataclasses and relative imports look the module up
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            sys.modules.pop(modname, None)
            raise
    except PackError:
        raise
    except (Exception, SystemExit) as e:
        raise PackError(f"pack {str(target)!r}: {_exit_text(e)}") from e
    return _from_module(mod, str(target), origin=str(target))


def _load_data(target: Path, *, label: str = "") -> Pack:
    label = label or f"pack {str(target)!r}"
    try:
        text = read_text(target)
        data: Any = parse_json(text) if target.suffix == ".json" else parse_yaml(text)
        check_shape(data)
    except ReadError as e:
        raise PackError(f"{label}: {e}") from None
    return read_data_pack(data, label, str(target))
