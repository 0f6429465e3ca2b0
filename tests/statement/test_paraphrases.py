"""Claim statements in other words (issue 42 item 7): every rewording in paraphrases.yaml reads to the same line."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from claimlaw.engine.readers.statement import StatementParse, parse_statement
from claimlaw.facts import load_case
from claimlaw.facts.cards import Seat, Suit

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).with_name("paraphrases.yaml")
CASE_FOLDERS = (ROOT.parent / "shared" / "data" / "rulings", ROOT / "tests" / "rulings" / "cases", ROOT / "examples")
ENTRIES: list[dict] = yaml.safe_load(DATA.read_text(encoding="utf-8"))


@cache
def context(source: str) -> tuple[str, Suit | None, Seat]:
    """The statement, trump suit and claimer of a case file named from the repository root."""
    case = load_case((ROOT / source).resolve())
    return case.claim.statement or "", case.board.trump if case.board else None, case.claim.by


def reading(p: StatementParse) -> dict[str, object]:
    """What a statement says for the line: its steps (in order only where the order is stated), the order, whether
    it is a bare count, whether it names trumps, and the tricks it claims; not the words each step came from."""
    steps = [(s.action, s.suit, s.hand, s.card, tuple(s.cards), s.count, s.when,
              (s.condition.suit, tuple(s.condition.lengths)) if s.condition else None) for s in p.line.steps]
    t = p.tricks_stated
    return {"steps": steps if p.line.ordered else sorted(steps, key=repr), "ordered": p.line.ordered,
            "count_only": p.count_only, "mentions_trumps": p.mentions_trumps,
            "tricks": (t.kind, t.lose, t.count) if t else None}


CASES = [pytest.param(e["statement"], v, tuple(e["sources"]), id=f"{e['statement'][:30]} | {v[:40]}",
                      marks=[pytest.mark.xfail(strict=True, reason=e["not_yet"][v])] if v in e.get("not_yet", {})
                      else [])
         for e in ENTRIES for v in e["variants"]]


@pytest.mark.parametrize("original, variant, sources", CASES)
def test_a_statement_in_other_words_reads_to_the_same_line_and_leaves_no_more_words_unread(
        original: str, variant: str, sources: tuple[str, ...]) -> None:
    present = [source for source in sources if (ROOT / source).is_file()]
    if not present:
        pytest.skip(f"its case files are absent ({', '.join(sources)}: ../shared is not beside the checkout)")
    for source in present:
        _, trump, claimer = context(source)
        want = parse_statement(original, trump=trump, claimer=claimer)
        got = parse_statement(variant, trump=trump, claimer=claimer)
        assert reading(got) == reading(want), f"{source}: {variant!r}\n" + "\n".join(got.describe())
        if not want.unparsed:
            assert got.unparsed == [], f"{source}: {variant!r} leaves words unread"


def test_every_statement_of_the_rulings_and_examples_has_at_least_four_rewordings_and_is_its_case_files_own() -> None:
    listed = {}
    for e in ENTRIES:
        assert len(e["variants"]) >= 4 and len(set(e["variants"])) == len(e["variants"]), e["statement"]
        assert set(e.get("not_yet", {})) <= set(e["variants"]), e["statement"]
        for source in e["sources"]:
            if not (ROOT / source).is_file():
                assert source.startswith("../shared/"), f"{source}: a case file of the project is missing"
                continue  # ../shared is not beside the checkout
            assert context(source)[0] == e["statement"], source
            listed[str((ROOT / source).resolve())] = e["statement"]
    for folder in CASE_FOLDERS:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.yaml")):
            case = load_case(path)
            if case.claim and (case.claim.statement or "").strip():
                assert str(path.resolve()) in listed, f"{path.name}: its statement has no rewordings"


def test_a_step_repeated_where_the_repeat_adds_nothing_is_read_once_and_the_trace_says_so() -> None:
    """Issue 35: a statement repeating "then cash the clubs" many times is one cash of the clubs, read quickly."""
    text = "I'll draw trumps" + ", and then cash the clubs" * 30
    p = parse_statement(text, trump=Suit.S, claimer=Seat.S)
    assert [(s.action, s.suit) for s in p.line.steps] == [("draw_trumps", None), ("cash", Suit.C)]
    assert p.collapsed == 29 and not p.unparsed
    assert "repeated steps read once, or cards of one suit joined: 29" in p.describe()
    again = parse_statement("cash the clubs, then cash the clubs again, then the ♥A and the ♥A again", trump=Suit.S)
    assert [(s.action, s.suit, [c.pretty for c in s.cards]) for s in again.line.steps] == [
        ("cash", Suit.C, []), ("cash", Suit.H, ["♥A"])] and again.collapsed == 2


@pytest.mark.parametrize("text", ["ruff a club, then ruff a club again", "cash two clubs, then two clubs again",
                                  "concede a heart and concede a heart", "take the spade finesse, then the spade "
                                  "finesse again", "discard a diamond, then discard a diamond"])
def test_a_repeated_step_that_does_something_the_second_time_stays_two_steps(text: str) -> None:
    p = parse_statement(text, trump=Suit.S, claimer=Seat.S)
    assert len(p.line.steps) == 2 and p.collapsed == 0


@pytest.mark.parametrize("text, want", [
    ("ruff a club, cross to dummy and ruff again",
     [("ruff", Suit.C, None), ("cross", None, None), ("ruff", Suit.C, None)]),
    ("ruff a club, and again", [("ruff", Suit.C, None), ("ruff", Suit.C, None)]),
    ("ruff a club twice", [("ruff", Suit.C, 2)]),
    ("cash the clubs and then cash them again", [("cash", Suit.C, None)]),
    ("take the heart finesse, then take it once more", [("finesse", Suit.H, None), ("finesse", Suit.H, None)]),
])
def test_a_step_said_again_or_twice_is_the_step_before_it_once_more(text: str, want: list[tuple]) -> None:
    p = parse_statement(text, trump=Suit.S, claimer=Seat.S)
    assert [(s.action, s.suit, s.count) for s in p.line.steps] == want and not p.unparsed
