"""A case file's ``regulations`` never run code and never read past what the user chose (hardening, item 1).

Each way a case could reach code or a file is tried: a directory named like a data pack, a link to Python, a link
to a directory, a FIFO, a path from the web page, and the same through the CLI and the HTTP server.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from claimlaw.engine.api import rule
from claimlaw.engine.faces.cli import app as cli_app
from claimlaw.engine.packs import PackError, load_case_pack
from claimlaw.facts import case_from_dict

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from claimlaw.engine.faces.web.app import create_app

CONCESSION: dict[str, Any] = {
    "board": {"contract": "4H", "declarer": "S"},
    "claim": {"by": "W", "says": "concede", "tricks": 3},
    "responses": {"E": "disputes", "partner_objected_immediately": True},
}


def _code_that_leaves_a_mark(folder: Path) -> tuple[Path, Path]:
    """A Python file that, if it ever ran, would create ``ran`` and define a pack."""
    ran = folder / "ran"
    code = (f"open({str(ran)!r}, 'w').write('x')\n"
            "from claimlaw.rules.rulebook import Pack\nPACK = Pack(name='evil')\n")
    py = folder / "evil.py"
    py.write_text(code, encoding="utf-8")
    return py, ran


def _case(*refs: str) -> Any:
    return case_from_dict({**CONCESSION, "regulations": list(refs)})


def test_a_directory_named_like_a_data_pack_is_refused_and_its_pack_py_never_runs(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.mkdir()
    py, ran = _code_that_leaves_a_mark(tmp_path)
    (club / "pack.py").write_text(py.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(PackError, match="not a regular file"):
        rule(_case("club.yaml"), case_dir=tmp_path)
    assert not ran.exists()


def test_a_link_named_like_a_data_pack_to_python_code_is_refused_before_the_code_runs(tmp_path: Path) -> None:
    py, ran = _code_that_leaves_a_mark(tmp_path)
    (tmp_path / "club.yaml").symlink_to(py)
    with pytest.raises(PackError, match="not a data pack"):
        rule(_case("club.yaml"), case_dir=tmp_path)
    assert not ran.exists()


def test_a_link_to_a_directory_holding_a_pack_is_refused(tmp_path: Path) -> None:
    d = tmp_path / "packdir"
    d.mkdir()
    py, ran = _code_that_leaves_a_mark(tmp_path)
    (d / "pack.py").write_text(py.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "club.yaml").symlink_to(d)
    with pytest.raises(PackError, match="not a data pack"):
        rule(_case("club.yaml"), case_dir=tmp_path)
    assert not ran.exists()


def test_a_fifo_named_like_a_data_pack_is_refused_without_waiting_on_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "club.yaml")
    with pytest.raises(PackError, match="not a regular file"):
        load_case_pack("club.yaml", case_dir=tmp_path)


def test_a_python_file_named_by_a_case_is_refused_before_any_of_its_code_runs(tmp_path: Path) -> None:
    py, ran = _code_that_leaves_a_mark(tmp_path)
    for case_dir in (tmp_path, None):
        with pytest.raises(PackError):
            rule(_case(str(py)), case_dir=case_dir)
    assert not ran.exists()


def test_a_case_from_the_api_or_the_web_names_installed_packs_only_and_is_told_which(tmp_path: Path) -> None:
    data = tmp_path / "club.yaml"
    data.write_text("name: club\nparams: {correction_minutes: {value: 60, cite: Club rule 1}}\n", encoding="utf-8")
    with pytest.raises(PackError, match="not an installed pack.*known: .*ebu"):
        load_case_pack(str(data), case_dir=None)
    assert load_case_pack("ebu", case_dir=None).name == "ebu"


def test_a_data_pack_named_by_a_case_file_is_read_relative_to_the_case_file(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text("name: club\nparams: {correction_minutes: {value: 60, cite: Club rule 1}}\n",
                                        encoding="utf-8")
    assert load_case_pack("club.yaml", case_dir=tmp_path).params["correction_minutes"] == 60
    ruling = rule(_case("club.yaml"), case_dir=tmp_path)
    assert ruling.packs == ["club.yaml"]


def test_a_missing_data_pack_says_so_without_a_resolved_path(tmp_path: Path) -> None:
    with pytest.raises(PackError) as e:
        load_case_pack("../nowhere/club.yaml", case_dir=tmp_path)
    assert str(tmp_path) not in str(e.value) and "no such data pack" in str(e.value)


def test_the_cli_refuses_a_case_whose_data_pack_name_is_a_directory_in_one_line(tmp_path: Path) -> None:
    club = tmp_path / "club.yaml"
    club.mkdir()
    py, ran = _code_that_leaves_a_mark(tmp_path)
    (club / "pack.py").write_text(py.read_text(encoding="utf-8"), encoding="utf-8")
    case_file = tmp_path / "case.yaml"
    case_file.write_text(yaml.safe_dump({**CONCESSION, "regulations": ["club.yaml"]}), encoding="utf-8")
    r = CliRunner().invoke(cli_app, ["rule", str(case_file)])
    assert r.exit_code == 2 and "not a regular file" in r.output and "Traceback" not in r.output
    assert not ran.exists()


def test_the_server_refuses_a_case_naming_any_path_and_never_says_whether_it_exists(tmp_path: Path) -> None:
    secret = tmp_path / "secrets.yaml"
    secret.write_text("api_key: hunter2\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app()) as client:
            answers = []
            for ref in (str(secret), str(tmp_path / "absent.yaml"), str(_code_that_leaves_a_mark(tmp_path)[0])):
                r = client.post("/api/rulings", json={"case": {**CONCESSION, "regulations": [ref]}})
                assert r.status_code == 422
                err = r.json()["error"]
                assert err["field"] == "regulations[0]"
                answers.append(err["problem"].replace(ref, "REF") if "problem" in err else str(err))
            assert len(set(answers)) == 1, answers
            assert "api_key" not in answers[0] and "hunter2" not in answers[0]
    assert not (tmp_path / "ran").exists()
