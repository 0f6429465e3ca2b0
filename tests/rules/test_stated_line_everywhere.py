"""The stated line governs every count of the claimer's side: 70D1, and Laws 69B and 71 too (issue 26 item 5)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from claimlaw.facts import case_from_dict
from claimlaw.rules.counting import base_model, stated_line_for
from tests.lawmarks import clause
from tests.rules.helpers import ruled

# 1NT, South to lead: South ♠AK, North ♥AK, the opponents' cards all small (examples/1nt-concession-...)
MASTERS_1NT = {"position": "N:.AK.. ..32. AK... ...32", "contract": "1NT", "declarer": "S", "leader": "S",
               "won": {"NS": 5, "EW": 6}}


def _concession(statement: str) -> dict[str, Any]:
    return {"board": MASTERS_1NT,
            "claim": {"by": "S", "says": "concede", "tricks": 1, "statement": statement},
            "responses": {"W": "agrees", "E": "agrees"},
            "timing": {"objection": "after_next_call", "objection_by": "S", "minutes_after_scores_posted": 5}}


def _ctx(data: dict[str, Any]) -> SimpleNamespace:
    notes: list[str] = []
    return SimpleNamespace(case=case_from_dict(data), note=notes.append, notes=notes, facts=lambda kind: [])


@clause("71B")
def test_law_71_counts_the_conceding_side_on_its_stated_line_not_on_every_normal_line() -> None:
    r = ruled(_concession("I cash the ace and king of spades, and I have to lose one"), edition="2017")
    assert r.outcome == "concession_cancelled" and r.tricks == {"NS": 7, "EW": 6}
    (w,) = r.witnesses
    assert w.tricks_played[0][0] == "SA" and any(c.licence == "line" for c in w.choices), w.choices


@clause("71B")
def test_law_71_without_a_stated_line_still_counts_every_normal_line() -> None:
    r = ruled(_concession("I have to lose one"), edition="2017")
    (w,) = r.witnesses
    assert r.outcome == "concession_cancelled" and not any(c.licence == "line" for c in w.choices)


@clause("69B2", "71B")
def test_the_questions_of_69b_and_71_start_from_a_model_holding_the_statement_read_as_a_line() -> None:
    ctx = _ctx(_concession("I cash the ace and king of spades, and I have to lose one"))
    for question in ("likely", "normal"):
        model = base_model(ctx, "NS", question)
        assert model.line is not None and model.line.steps[0].action == "cash"
    assert base_model(ctx, "EW", "normal").line is None  # the other side stated nothing


@clause("70D1")
def test_a_conditional_step_reaches_the_play_core_with_its_condition() -> None:
    """The play core holds the claimer to it once he sees the condition hold (tests/play/test_stated_lines.py)."""
    ctx = _ctx(_concession("I cash the ace of spades, and if hearts are 3-1 I cash the king of spades"))
    line = stated_line_for(ctx, "NS")
    assert [st.cards[0].rank for st in line.steps] == [14, 13]
    assert line.steps[0].condition is None
    cond = line.steps[1].condition
    assert cond is not None and cond.lengths == [3, 1] and cond.suit is not None and cond.suit.value == "H"


@clause("71B")
def test_words_of_a_concession_that_cannot_be_read_stay_named_in_the_trace() -> None:
    r = ruled(_concession("I cash the ace and king of spades, and I have to lose one, squeeze or no squeeze"),
              edition="2017")
    assert any("could not read" in n and "squeeze" in n for n in r.notes), r.notes
