"""The CLI's words: case text never read as markup, one-line errors, --json errors, checked packs, a short default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimlaw.engine.faces.cli import app, visible
from claimlaw.engine.packs import PackError, load_pack

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
NO_CARDS = "claim: {by: N, says: concede, tricks: 1}\nresponses: {S: disputes}\n"


def _run(*args: str) -> tuple[int, str, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr


def _case(tmp_path: Path, text: str, name: str = "case.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("title", ["[/bold] x", "[/]", "Board 7 [see note] end", "[bold red]x", "a\\[b]"])
def test_a_title_with_square_brackets_is_printed_as_written(tmp_path: Path, title: str) -> None:
    code, out, _ = _run("rule", _case(tmp_path, f"title: {json.dumps(title)}\n{NO_CARDS}"))
    assert code == 0 and out.splitlines()[0] == title


def test_control_characters_in_case_text_are_shown_not_sent_to_the_terminal(tmp_path: Path) -> None:
    code, out, _ = _run("rule", _case(tmp_path, 'title: "Bad \\e[2J\\0 \\u202e end"\n' + NO_CARDS))
    assert code == 0
    assert "\x1b" not in out and "\x00" not in out and "\u202e" not in out
    assert out.splitlines()[0] == "Bad \\x1b[2J\\x00 \\u202e end"


def test_an_error_about_a_seat_written_as_markup_is_one_plain_line(tmp_path: Path) -> None:
    code, out, err = _run("rule", _case(tmp_path, 'claim: {by: "[/]"}\n'))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"error: {tmp_path / 'case.yaml'}: claim.by: unknown seat '[/]' "
                                        "(use N, E, S or W)"]


def test_the_path_of_an_unreadable_file_is_printed_once(tmp_path: Path) -> None:
    path = _case(tmp_path, "claim: [\n")
    code, _, err = _run("rule", path)
    assert code == 2 and err.count(path) == 1 and "not valid YAML at line" in err


@pytest.mark.parametrize("clause", ["[/]", "XYZ", "\x1b[31m", ""])
def test_claimlaw_law_on_an_unknown_clause_exits_2_with_one_line(clause: str) -> None:
    code, _, err = _run("law", clause)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "\x1b" not in err


def test_with_json_an_invalid_case_is_a_json_object_on_stdout(tmp_path: Path) -> None:
    code, out, err = _run("rule", _case(tmp_path, "claim: {by: N, tricks: true}\n"), "--json")
    assert code == 2 and err == ""
    assert json.loads(out) == {"error": "expected a whole number, got true", "field": "claim.tricks",
                               "file": str(tmp_path / "case.yaml")}


def test_with_json_an_unreadable_file_has_no_field(tmp_path: Path) -> None:
    p = tmp_path / "l1.yaml"
    p.write_bytes("title: Café\n".encode("latin-1"))
    code, out, _ = _run("rule", str(p), "--json")
    data = json.loads(out)
    assert code == 2 and data["field"] is None and "not UTF-8" in data["error"]


def test_help_shows_no_type_noise_for_flags() -> None:
    code, out, _ = _run("rule", "--help")
    assert code == 0 and "<bool>" not in out and "--explain" in out


def _pack(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("param,value,words", [
    ("correction_minutes", '"abc"', "params.correction_minutes.value: 'abc' is not a number"),
    ("correction_minutes", "-5", "params.correction_minutes.value: -5 is out of range"),
    ("correction_minutes", "0", "params.correction_minutes.value: 0 is out of range"),
    ("correction_minutes", "10081", "params.correction_minutes.value: 10081 is out of range"),
    ("correction_minutes", "1" * 4000, "params.correction_minutes.value: a 4000-digit number is out of range"),
    ("correction_minutes", ".inf", "params.correction_minutes.value: inf is not a number"),
    ("correction_minutes", "1.0e+400", "params.correction_minutes.value: inf is not a number"),
    ("correction_minutes", ".nan", "params.correction_minutes.value: nan is not a number"),
    ("weighted_scores", '"false"', "params.weighted_scores.value: 'false' is not true or false"),
    ("high_trump_safety_check_normal", "1", "params.high_trump_safety_check_normal.value: 1 is not true or false"),
    ("order_70E2", '"the finesse, never the drop"', "params.order_70E2.value: 'the finesse, never the drop' is not a "
                                                     "70E2 order"),
    ("order_70E2", '"top down"', "did you mean 'top_down'?"),
    ("correction_minute", "60", "params.correction_minute: unknown parameter 'correction_minute'; did you mean "
                                "'correction_minutes'?"),
])
def test_a_pack_parameter_of_the_wrong_kind_or_range_is_one_line_naming_the_pack_and_the_field(
        tmp_path: Path, param: str, value: str, words: str) -> None:
    path = _pack(tmp_path, "club.yaml", f"name: club\nparams:\n  {param}: {{value: {value}, cite: Club rule 1}}\n")
    with pytest.raises(PackError) as info:
        load_pack(path)
    assert str(info.value).startswith(f"pack {str(path)!r}: ") and words in str(info.value)
    assert len(str(info.value)) < 400
    code, _, err = _run("rule", str(ROOT / "examples" / "current-trick-only.yaml"), "--pack", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "internal error" not in err
    code, _, err = _run("rule", str(ROOT / "examples" / "current-trick-only.yaml"), "--pack", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("body", ["import sys\nsys.exit(0)\n", "raise SystemExit(3)\n"])
def test_a_pack_that_calls_sys_exit_is_a_pack_error_not_the_end_of_claimlaw(tmp_path: Path, body: str) -> None:
    path = _pack(tmp_path, "quitter.py", body)
    code, out, _ = _run("rule", str(ROOT / "examples" / "current-trick-only.yaml"), "--pack", str(path), "--json")
    assert code == 2 and "sys.exit" in json.loads(out)["error"]


def test_the_built_in_packs_pass_their_own_parameter_checks() -> None:
    for name in ("ebu", "acbl", "acbl1992", "wbflc"):
        load_pack(name)


def test_the_default_ruling_fits_a_screen_and_explain_adds_the_facts() -> None:
    path = str(ROOT / "examples" / "3nt-three-discards-forgotten-jack.yaml")
    code, out, _ = _run("rule", path)
    lines = out.splitlines()
    # the ruling with its costly card, the witness, the chain and the hinges: one laptop terminal (30 rows)
    assert code == 0 and len(lines) <= 30 and max(len(x) for x in lines) <= 160
    assert "rested on" not in out and "Law chain" in out
    assert "follows his stated line (70D1): North ♦A ♦K ♦Q" in out  # the guideline behind each chosen card
    assert "N ♣2 ♣9 ♥J ♥Q →E" in out  # the witness trick that loses to the forgotten ♥Q
    code, explained, _ = _run("rule", path, "--explain")
    assert code == 0 and "rested on" in explained and len(explained.splitlines()) > len(lines)


def test_visible_shows_each_control_character_as_an_escape() -> None:
    assert visible("a\x1bb\x00c\x7fd\x9be\u200ef") == "a\\x1bb\\x00c\\x7fd\\x9be\\u200ef"


def test_json_output_escapes_every_control_and_format_character(tmp_path: Path) -> None:
    text = ('claim: {by: N, says: concede, tricks: 1, statement: "a\\x9b\\u202e\\U000E0001b"}\n'
            'responses: {S: disputes}\n')
    code, out, _ = _run("rule", _case(tmp_path, text), "--json")
    assert code == 0 and "\x9b" not in out and "\u202e" not in out and "\U000e0001" not in out
    assert "a\x9b\u202e\U000e0001b" in json.dumps(json.loads(out)["trace"], ensure_ascii=False)  # kept, escaped
