"""Every import points down: the layers of claimlaw, read with ``ast`` from the installed source.

Layers, lowest first; a module may import its own layer or a lower one. ``engine`` holds only the files directly in
engine/ (host, questions, api, packs ...); each of its folders is a layer of its own, listed here.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

LAYERS = {
    "facts": 0,            # the vocabulary
    "engine/readers": 1,   # statements, case facts, LIN and PBN records
    "engine/play": 2,      # the play core and normal play
    "rules": 3,            # the rule vocabulary (rulebook.py) and the laws
    "engine": 4,           # the engine that runs them: host, questions, api, packs
    "engine/faces": 5,     # the faces: CLI, web, audit with its store and Dask
}
NAMES = {0: "vocabulary", 1: "readers", 2: "play core", 3: "rules", 4: "engine", 5: "faces"}
TOPS = ("facts", "rules", "engine")
# each library behind one module of ours
ONE_MODULE = {
    "durable": "claimlaw.engine.host",
    "endplay": "claimlaw.engine.play.dds",
    "starlette": "claimlaw.engine.faces.web.app",
}


@dataclass(frozen=True)
class Import:
    target: str      # a dotted module name (ours or a library's)
    line: int
    typing_only: bool  # under ``if TYPE_CHECKING:``: never runs


def source_root() -> Path:
    """The folder holding the installed facts/, rules/ and engine/ (the checkout, for an editable install)."""
    spec = importlib.util.find_spec("claimlaw.engine")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent.parent


def modules(root: Path) -> dict[str, Path]:
    """Every module of ours by dotted name (``claimlaw.engine.faces.web.app``), with its file."""
    out: dict[str, Path] = {}
    for top in TOPS:
        for f in sorted((root / top).rglob("*.py")):
            rel = f.relative_to(root).with_suffix("").parts
            if "__pycache__" in rel:
                continue
            parts = rel[:-1] if rel[-1] == "__init__" else rel
            out[".".join(("claimlaw", *parts))] = f
        for f in sorted((root / top).rglob("*.pyi")):  # a C extension's stub names the module
            rel = f.relative_to(root).with_suffix("").parts
            out.setdefault(".".join(("claimlaw", *rel)), f)
    return out


def folder(path: Path, root: Path) -> str:
    return path.parent.relative_to(root).as_posix()


def layer_of(where: str) -> int | None:
    """The layer of a folder: the longest listed folder it is in; plain ``engine`` covers only itself."""
    if where in LAYERS:
        return LAYERS[where]
    best = None
    for f in LAYERS:
        if f != "engine" and where.startswith(f + "/") and (best is None or len(f) > len(best)):
            best = f
    return LAYERS[best] if best is not None else None


def _typing_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                lines.update(range(sub.lineno, (sub.end_lineno or sub.lineno) + 1))
    return lines


def imports(name: str, path: Path, known: set[str]) -> Iterator[Import]:
    """What one module imports, at top level or inside a function; relative imports resolved; ``from a import b``
    is module ``a.b`` when that is a module, else ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _typing_lines(tree)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield Import(a.name, node.lineno, node.lineno in typing_only)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                sub = f"{mod}.{a.name}"
                yield Import(sub if sub in known else mod, node.lineno, node.lineno in typing_only)


def graph() -> tuple[Path, dict[str, Path], dict[str, list[Import]]]:
    root = source_root()
    mods = modules(root)
    known = set(mods)
    return root, mods, {m: list(imports(m, p, known)) for m, p in mods.items() if p.suffix == ".py"}


def test_every_module_of_ours_lies_in_a_listed_layer() -> None:
    root, mods, _ = graph()
    unplaced = sorted(f"{m} ({folder(p, root)}/)" for m, p in mods.items() if layer_of(folder(p, root)) is None)
    assert not unplaced, "modules in a folder with no layer (add it to LAYERS): " + ", ".join(unplaced)


def test_every_module_imports_only_from_its_own_layer_or_a_lower_one() -> None:
    root, mods, edges = graph()
    up = []
    for m, found in edges.items():
        mine = layer_of(folder(mods[m], root))
        for imp in found:
            if imp.target not in mods or mine is None:
                continue
            theirs = layer_of(folder(mods[imp.target], root))
            if theirs is not None and theirs > mine:
                up.append(f"{m} ({NAMES[mine]}) imports {imp.target} ({NAMES[theirs]}) at line {imp.line}")
    assert not up, "imports that point up:\n" + "\n".join(up)


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_modules_import_each_other_directly_or_around_a_circle() -> None:
    _, mods, found = graph()
    edges = {m: {i.target for i in imps if i.target in mods and i.target != m and not i.typing_only}
             for m, imps in found.items()}
    assert circles(edges) == [], "modules that import each other (lazily too): " + "; ".join(
        " <-> ".join(g) for g in circles(edges))


def test_durable_rules_endplay_and_starlette_are_each_imported_by_one_module_only() -> None:
    _, _, found = graph()
    users: dict[str, set[str]] = {lib: set() for lib in ONE_MODULE}
    for m, imps in found.items():
        for i in imps:
            top = i.target.split(".")[0]
            if top in users:
                users[top].add(m)
    assert users == {lib: {m} for lib, m in ONE_MODULE.items()}


def test_the_import_reader_sees_lazy_relative_and_type_checking_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "engine" / "play"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text("")
    f = pkg / "coherence.py"
    f.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .core import PlayCore\n"
                 "def check():\n    from claimlaw.engine.faces.cli import app\n    from . import core\n")
    known = {"claimlaw.engine.play.core", "claimlaw.engine.faces.cli"}
    got = {(i.target, i.typing_only) for i in imports("claimlaw.engine.play.coherence", f, known)}
    assert got == {("typing", False), ("claimlaw.engine.play.core", True), ("claimlaw.engine.faces.cli", False),
                   ("claimlaw.engine.play.core", False)}
    assert layer_of("engine/play/normal") == 2 and layer_of("engine/faces/web/static") == 5
    assert layer_of("engine") == 4 and layer_of("engine/new_folder") is None
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
