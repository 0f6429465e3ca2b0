"""Installed, claimlaw is one top-level package: the repository's engine/, rules/ and facts/ become
claimlaw.engine, claimlaw.rules and claimlaw.facts, so nothing of ours can collide with another
distribution's top-level module (issue 27: a widely used distribution installs a top-level ``rules``)."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETUP = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_installed_package_lives_under_claimlaw() -> None:
    assert SETUP["packages"] and all(p.startswith("claimlaw.") for p in SETUP["packages"])
    assert set(SETUP["package-dir"]) == {"claimlaw.engine", "claimlaw.rules", "claimlaw.facts"}


def test_every_python_package_folder_of_the_repository_is_installed() -> None:
    found = {"claimlaw." + ".".join(p.parent.relative_to(ROOT).parts)
             for top in ("engine", "rules", "facts") for p in (ROOT / top).rglob("__init__.py")}
    assert found == set(SETUP["packages"])


def test_the_console_script_and_our_solver_are_named_under_claimlaw() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["scripts"]["claimlaw"] == "claimlaw.engine.faces.cli:main"
    assert all(m["name"].startswith("claimlaw.") for m in SETUP["ext-modules"])
    assert importlib.import_module("claimlaw.engine.faces.cli").main
