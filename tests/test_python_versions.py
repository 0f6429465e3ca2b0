"""The Python versions claimlaw admits and the one extra install step Python 3.13 needs (issue 40): durable-rules
2.0.28's C extension calls PyEval_CallObject, which 3.13 removed, so on 3.13 it is built with an alias first."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.specifiers import SpecifierSet

from claimlaw.engine.host import DURABLE_313_FIX

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "3nt-three-discards-forgotten-jack.yaml"


def _tested_versions() -> list[str]:
    found = re.search(r"Python versions: tested on ([0-9., and]+?), on ", README)
    assert found, "the README names the tested Python versions"
    return re.findall(r"3\.\d+", found.group(1))


def test_requires_python_admits_every_version_the_readme_names_as_tested_and_no_later_one() -> None:
    spec = SpecifierSet(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                        ["project"]["requires-python"])
    tested = _tested_versions()
    assert tested == ["3.11", "3.12", "3.13"]
    assert all(f"{v}.0" in spec for v in tested)
    assert "3.10.0" not in spec and "3.14.0" not in spec


def test_the_readme_ci_and_the_host_give_the_same_line_for_python_3_13() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    assert DURABLE_313_FIX in [b.strip() for b in blocks]
    assert DURABLE_313_FIX in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_quick_start_stays_two_commands() -> None:
    quick = README.split("## Quick start", 1)[1]
    first_block = re.search(r"```sh\n(.*?)```", quick, flags=re.S)
    assert first_block and len(first_block.group(1).strip().splitlines()) == 2


def test_a_durable_rules_built_without_the_3_13_alias_stops_the_cli_with_one_line_naming_the_rebuild(
        tmp_path: Path) -> None:
    # stands in for the extension a plain 3.13 build leaves: loading it fails as the real one does on Linux
    (tmp_path / "durable_rules_engine.py").write_text(
        "raise ImportError('durable_rules_engine.so: undefined symbol: PyEval_CallObject',"
        " name='durable_rules_engine')\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CLAIMLAW_DEBUG"} | {"PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "claimlaw.engine.faces.cli", "rule", str(EXAMPLE)], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: durable-rules was built without the alias Python 3.13 needs")
    assert lines[0].endswith(DURABLE_313_FIX)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_another_import_failure_of_durable_rules_is_not_dressed_as_the_3_13_one(tmp_path: Path) -> None:
    (tmp_path / "durable_rules_engine.py").write_text(
        "raise ImportError('libsomething.so: cannot open shared object file', name='durable_rules_engine')\n",
        encoding="utf-8")
    code = "import claimlaw.engine.host"
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(tmp_path)},
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1
    assert "cannot open shared object file" in done.stderr and "CPPFLAGS" not in done.stderr
