"""Validation at the boundary: impossible values, hostile files and one-line messages in one style."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from claimlaw.engine.readers.statement import parse_statement
from claimlaw.facts import CaseError, Suit, case_from_dict, load_case
from claimlaw.facts.reading import MAX_ALIASES, MAX_DEPTH

ROOT = Path(__file__).resolve().parent.parent.parent
SEED_4C = "N:AJT432.2.QT84.T4 87.QJT543.J7.AQ2 K95.K986.AK952.7 Q6.A7.63.KJ98653"
PLAY = [["D4", "D7", "DA", "D3"], ["DK", "D6", "D8", "DJ"], ["SK", "S6", "S2", "S7"],
        ["S9", "SQ", "SA", "S8"], ["H2", "H3", "HK", "HA"]]
DIAGRAM = {"position": "N:.A.K3. .2..32 ..J.KQ 3..AQ.", "contract": "3NT", "declarer": "W", "leader": "E",
           "won": {"NS": 3, "EW": 7}}


def _case(**over: object) -> dict:
    base: dict = {"board": {"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": PLAY},
                  "claim": {"by": "W", "says": "claim"}}
    base.update(over)
    return base


def _error(data: object) -> CaseError:
    with pytest.raises(CaseError) as info:
        case_from_dict(data)
    return info.value


@pytest.mark.parametrize("won,field", [({"NS": -3, "EW": 12}, "board.won.NS"),
                                       ({"NS": 10**20, "EW": 0}, "board.won.NS"),
                                       ({"NS": True, "EW": 7}, "board.won.NS")])
def test_an_impossible_count_of_tricks_already_won_is_refused(won: dict, field: str) -> None:
    assert _error({"board": dict(DIAGRAM, won=won), "claim": {"by": "W"}}).field == field


def test_tricks_won_given_beside_a_play_record_must_agree_with_it() -> None:
    err = _error(_case(board={"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": PLAY,
                              "won": {"NS": 0, "EW": 5}}))
    assert err.field.startswith("board.won") and "play record" in err.problem


def test_a_boolean_where_a_number_of_tricks_belongs_is_refused() -> None:
    err = _error(_case(claim={"by": "W", "tricks": True}))
    assert str(err) == "claim.tricks: expected a whole number, got true"


def test_a_huge_number_of_tricks_is_refused_in_a_short_line() -> None:
    err = _error(_case(claim={"by": "W", "tricks": 10**60}))
    assert err.field == "claim.tricks" and len(str(err)) < 120


def test_more_tricks_found_won_than_were_conceded_is_refused() -> None:
    err = _error(_case(claim={"by": "W", "says": "concede", "tricks": 1}, findings={"conceded_won_tricks": 5}))
    assert err.field == "findings.conceded_won_tricks" and "only 1 was conceded" in err.problem


def test_a_finding_of_tricks_likely_won_beyond_the_tricks_left_is_refused() -> None:
    err = _error({"board": DIAGRAM, "claim": {"by": "W"}, "findings": {"would_likely_have_won": 13}})
    assert err.field == "findings.would_likely_have_won" and "only 3 remained" in err.problem


def test_the_claimer_cannot_be_unaware_of_a_card_his_own_side_holds() -> None:
    err = _error(_case(findings={"unaware_of": ["CK"]}))  # West, the claimer, holds the ♣K
    assert err.field == "findings.unaware_of[0]" and "claimer's side" in err.problem


def test_a_statement_about_the_current_trick_needs_a_trick_in_progress() -> None:
    err = _error(_case(claim={"by": "W", "current_trick_only": True}))
    assert err.field == "claim.current_trick_only"


def test_an_unquoted_edition_is_read_as_the_edition() -> None:
    assert case_from_dict(_case(edition=2007)).edition == "2007"


def test_a_hand_with_fourteen_cards_is_named_first() -> None:
    w14 = "N:AJT432.2.QT84.T 87.QJT543.J7.AQ2 K95.K986.AK952.7 Q6.A7.63.KJ98653-4".replace("-4", "4")
    err = _error(_case(board={"deal": w14, "contract": "4C", "declarer": "W"}))
    assert err.problem.startswith("West has 14 cards")


def test_field_paths_have_one_style_and_no_pydantic_wording() -> None:
    err = _error(_case(board={"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": [["D4", "D7", "XX"]]}))
    assert err.field == "board.play[0][2]"
    err = _error(_case(board="not a board"))
    assert str(err) == "board: expected a mapping of keys, got 'not a board'"
    assert "instance of" not in str(_error({"claim": []}))


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def _file_error(path: Path) -> str:
    with pytest.raises(CaseError) as info:
        load_case(path)
    assert "\n" not in str(info.value)
    return str(info.value)


def test_a_latin_1_file_is_named_as_not_utf_8(tmp_path: Path) -> None:
    msg = _file_error(_write(tmp_path, "l1.yaml", "title: Café\nclaim: {by: N}\n".encode("latin-1")))
    assert "not UTF-8" in msg and "Latin-1" in msg


def test_a_utf_16_file_is_named_as_utf_16(tmp_path: Path) -> None:
    assert "UTF-16" in _file_error(_write(tmp_path, "u16.yaml", "claim: {by: N}\n".encode("utf-16")))


def test_random_bytes_are_not_utf_8(tmp_path: Path) -> None:
    assert "not UTF-8" in _file_error(_write(tmp_path, "rnd.yaml", bytes(range(256)) * 4))


def test_a_yaml_alias_bomb_is_refused_before_it_expands(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    t = time.perf_counter()
    msg = _file_error(_write(tmp_path, "bomb.yaml", ("\n".join(lines) + "\n").encode()))
    assert f"more than {MAX_ALIASES} YAML aliases" in msg and time.perf_counter() - t < 5  # expanded: minutes


@pytest.mark.parametrize("suffix,text", [(".yaml", "[" * 20_000 + "]" * 20_000),
                                         (".json", "[" * 20_000 + "]" * 20_000),
                                         (".yaml", "".join(" " * i + "- \n" for i in range(0, 400, 2)))])
def test_deep_nesting_is_refused_in_one_line(tmp_path: Path, suffix: str, text: str) -> None:
    msg = _file_error(_write(tmp_path, "deep" + suffix, text.encode()))
    assert f"deeper than {MAX_DEPTH}" in msg


@pytest.mark.parametrize("suffix,text", [(".yaml", "claim: {by: N}\nclaim: {by: S}\n"),
                                         (".json", '{"claim": {"by": "N"}, "claim": {"by": "S"}}')])
def test_a_key_given_twice_is_refused(tmp_path: Path, suffix: str, text: str) -> None:
    assert "'claim' appears twice" in _file_error(_write(tmp_path, "dup" + suffix, text.encode()))


def test_a_file_over_the_size_limit_is_refused_without_reading_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMLAW_MAX_CASE_BYTES", "1000")
    msg = _file_error(_write(tmp_path, "big.yaml", b"title: " + b"x" * 2000 + b"\nclaim: {by: N}\n"))
    assert "over the limit of 1,000" in msg and "CLAIMLAW_MAX_CASE_BYTES" in msg


def test_a_directory_and_a_fifo_are_refused_at_once(tmp_path: Path) -> None:
    assert "is a directory" in _file_error(tmp_path)
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in _file_error(fifo)


def test_yaml_errors_give_the_line_and_the_reason(tmp_path: Path) -> None:
    msg = _file_error(_write(tmp_path, "bad.yaml", b"claim:\n  by: N\n  says: [claim\n"))
    assert msg.startswith("not valid YAML at line") and "expected" in msg


def test_a_hundred_kilobyte_statement_answers_in_seconds_not_minutes() -> None:
    for unit in ("draw trumps, then cash the hearts and concede a diamond. ", "a, ", "ace of spades king "):
        text = (unit * (100_000 // len(unit) + 1))[:100_000]
        t = time.perf_counter()
        parsed = parse_statement(text, trump=Suit.S)
        assert time.perf_counter() - t < 3  # a backtracking parse runs for minutes
        assert any("were not read" in u for u in parsed.unparsed)


def test_every_bundled_example_still_reads() -> None:
    for p in sorted((ROOT / "examples").glob("*.yaml")):
        load_case(p)
