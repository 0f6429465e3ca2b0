"""Finding packs: built-in modules, installed entry points, paths and data files."""

from __future__ import annotations

import json
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

import claimlaw.engine.packs as packs
from claimlaw.engine.host import compile_program
from claimlaw.engine.packs import PackError, list_packs, load_pack
from claimlaw.rules.rulebook import Pack
from tests.engine.rulesets import RULES, claim

PY_PACK = '''
from claimlaw.rules.rulebook import Pack, Rule, fact

def _note(ctx, m):
    ctx.note("{note}")

PACK = Pack(name="{name}", title="{title}", source="{source}",
            add=[Rule(name="{name}.note", clause="68D", editions=("2017", "2007", "1997"),
                      reason="the pack asks for a note", when=(fact("suspended"),), then=_note)],
            params={{"correction_minutes": 15}})
'''


def write_py_pack(path: Path, name: str = "outside", note: str = "outside pack applies") -> Path:
    path.write_text(PY_PACK.format(name=name, title=f"The {name} pack", source=f"{name} rules", note=note))
    return path


def test_a_python_pack_file_outside_the_project_is_loaded_by_path_and_takes_effect(tmp_path: Path) -> None:
    f = write_py_pack(tmp_path / "outside.py")
    pack = load_pack(str(f))
    assert pack.name == "outside" and pack.origin == str(f.resolve())
    r = compile_program(RULES, edition="2017", packs=[str(f)]).run(claim())
    assert r.notes == ["outside pack applies"] and r.conclusions["minutes"] == 15
    step = next(s for s in r.trace if s.rule == "outside.note")
    assert step.source == "outside pack: outside rules"


def test_loading_the_same_path_twice_reuses_the_pack_and_the_program(tmp_path: Path) -> None:
    f = write_py_pack(tmp_path / "again.py", name="again")
    assert load_pack(str(f)) is load_pack(f)
    assert compile_program(RULES, edition="2017", packs=[str(f)]) is compile_program(RULES, edition="2017",
                                                                                     packs=[f.as_posix()])


def test_a_pack_directory_with_an_init_module_may_use_relative_imports(tmp_path: Path) -> None:
    d = tmp_path / "regs"
    d.mkdir()
    (d / "wording.py").write_text('NOTE = "from a sibling module"\n')
    (d / "__init__.py").write_text(textwrap.dedent('''
        from claimlaw.rules.rulebook import Pack
        from .wording import NOTE
        PACK = Pack(name="regs", title=NOTE)
    '''))
    assert load_pack(str(d)).title == "from a sibling module"


def test_a_pack_directory_with_pack_py_is_loaded(tmp_path: Path) -> None:
    d = tmp_path / "withpack"
    d.mkdir()
    write_py_pack(d / "pack.py", name="withpack")
    assert load_pack(str(d)).name == "withpack"


def test_a_json_data_pack_sets_params_and_neutralises_rules(tmp_path: Path) -> None:
    f = tmp_path / "data.json"
    f.write_text(json.dumps({"name": "data", "title": "Data pack", "source": "a memo",
                             "params": {"correction_minutes": {"value": 5, "cite": "memo 1"}},
                             "withdraw": [{"rule": "69A.agreed", "cite": "memo 2"}]}))
    p = compile_program(RULES, edition="2017", packs=[str(f)])
    assert p.params["correction_minutes"] == 5 and "69A.agreed" not in [r.name for r in p.rules]
    assert "agreed" not in str(p.run(claim()).conclusions)


@pytest.mark.parametrize(("filename", "text", "message"), [
    ("bad.yaml", "name: bad\nrulez: []\n", "rulez: unknown key 'rulez'; did you mean 'rules'?"),
    ("noname.yaml", "title: x\n", "'name' is required"),
    ("list.yaml", "- a\n- b\n", "expected a mapping"),
    ("broken.yaml", "name: [unclosed\n", "not valid YAML"),
    ("broken.json", "{", "not valid JSON"),
    ("params.yaml", "name: p\nparams: [1]\n", "'params' must be a mapping"),
    ("neut.yaml", "name: n\nwithdraw: 3\n", "withdraw: must be a list"),
    ("badname.yaml", "name: 'no spaces'\n", "pack name 'no spaces'"),
    ("nopack.py", "X = 1\n", "defines no PACK"),
    ("notpack.py", "PACK = {'name': 'x'}\n", "not rules.rulebook.Pack"),
    ("raises.py", "raise RuntimeError('cannot start')\n", "RuntimeError: cannot start"),
    ("syntax.py", "def (:\n", "SyntaxError"),
])
def test_a_bad_pack_file_is_a_pack_error_naming_the_file(tmp_path: Path, filename: str, text: str,
                                                         message: str) -> None:
    f = tmp_path / filename
    f.write_text(text)
    with pytest.raises(PackError, match=message) as info:
        load_pack(str(f))
    assert filename in str(info.value)


def test_a_missing_path_or_empty_directory_is_a_pack_error(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="no such file"):
        load_pack(str(tmp_path / "nothing.yaml"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(PackError, match="holds no pack.py"):
        load_pack(str(tmp_path / "empty"))


def test_an_unknown_pack_name_is_a_pack_error_listing_the_known_ones(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    builtin_fixture(monkeypatch, tmp_path)
    with pytest.raises(PackError, match=r"unknown pack 'nope'; known packs: clubx"):
        load_pack("nope")


def builtin_fixture(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    pkg = tmp_path / "fixture_builtin_packs"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Built-in packs for the tests."""\n')
    write_py_pack(pkg / "clubx.py", name="clubx", note="built-in pack applies")
    (pkg / "_private.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(packs, "BUILTIN_PACKAGE", "fixture_builtin_packs")
    monkeypatch.setattr(packs, "_entry_points", lambda: [])
    return "fixture_builtin_packs"


def test_a_built_in_pack_is_found_by_name_and_listed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    builtin_fixture(monkeypatch, tmp_path)
    pack = load_pack("clubx")
    assert isinstance(pack, Pack) and pack.origin == "built-in"
    assert list_packs() == [packs.PackInfo("clubx", "The clubx pack", "clubx rules", "built-in")]
    r = compile_program(RULES, edition="2017", packs=["clubx"]).run(claim())
    assert r.notes == ["built-in pack applies"]


def test_an_installed_pack_is_found_through_its_entry_point(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    write_py_pack(tmp_path / "ra_pack_module.py", name="ra", note="installed pack applies")
    (tmp_path / "ra_factory.py").write_text(
        "from claimlaw.rules.rulebook import Pack\n"
        "def make():\n    return Pack(name='made', title='Made by a function')\n")
    (tmp_path / "ra_broken.py").write_text("raise ImportError('missing dependency')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(packs, "BUILTIN_PACKAGE", "no_such_package_for_packs")
    eps = [metadata.EntryPoint(name="ra", value="ra_pack_module", group=packs.ENTRY_POINT_GROUP),
           metadata.EntryPoint(name="made", value="ra_factory:make", group=packs.ENTRY_POINT_GROUP),
           metadata.EntryPoint(name="broken", value="ra_broken", group=packs.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(packs.metadata, "entry_points", lambda group: [e for e in eps if e.group == group])
    assert load_pack("ra").name == "ra" and load_pack("made").title == "Made by a function"
    infos = {i.name: i for i in list_packs()}
    assert set(infos) == {"ra", "made", "broken"} and infos["ra"].origin.startswith("entry point")
    assert "missing dependency" in infos["broken"].error
    with pytest.raises(PackError, match="pack 'broken'.*missing dependency"):
        load_pack("broken")
    r = compile_program(RULES, edition="2017", packs=["ra"]).run(claim())
    assert r.notes == ["installed pack applies"]


def test_a_pack_object_is_returned_as_it_is() -> None:
    p = Pack(name="inline")
    assert load_pack(p) is p


def test_without_built_in_or_installed_packs_the_list_is_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packs, "BUILTIN_PACKAGE", "no_such_package_for_packs")
    monkeypatch.setattr(packs, "_entry_points", lambda: [])
    assert list_packs() == []
    with pytest.raises(PackError, match="no packs are installed"):
        load_pack("ebu")
