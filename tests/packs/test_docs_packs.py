"""docs/packs.md runs: its Python and YAML blocks are loaded as packs and compiled, and its NBU example is the
tests' own pack (tests/packs/nbu.yaml), so the docs cannot drift from what the tests hold it to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claimlaw.engine.api import program_for
from claimlaw.engine.packs import load_pack

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "packs.md"
BLOCKS = re.findall(r"```(python|yaml)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_docs_packs_md_has_a_python_pack_and_data_packs_to_run() -> None:
    kinds = [k for k, _ in BLOCKS]
    assert kinds.count("python") >= 1 and kinds.count("yaml") >= 2


@pytest.mark.parametrize("n", range(len(BLOCKS)))
def test_each_code_and_yaml_block_of_docs_packs_md_loads_as_a_pack_and_compiles(tmp_path: Path, n: int) -> None:
    kind, body = BLOCKS[n]
    path = tmp_path / ("my_club.py" if kind == "python" else f"pack{n}.yaml")
    path.write_text(body, encoding="utf-8")
    pack = load_pack(str(path))
    program = program_for("2017", [pack])
    assert program.packs == (pack.name,)
    for name in pack.params:
        assert program.param_cite[name]  # every parameter the docs set carries its regulation


def test_the_nbu_example_in_docs_packs_md_is_the_pack_the_tests_rule_with() -> None:
    nbu = (ROOT / "tests" / "packs" / "nbu.yaml").read_text(encoding="utf-8")
    assert ("yaml", nbu) in BLOCKS
