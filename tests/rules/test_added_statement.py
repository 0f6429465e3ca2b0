"""Law 70D1: words the claimer added to his statement later are part of his line only when said before the
opponents' first objection (claim.added_statement, claim.added_before_objection)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from claimlaw.engine.api import rule
from claimlaw.engine.readers.facts_in import stated_line
from claimlaw.facts import CaseError, Ruling, case_from_dict
from tests.lawmarks import clause

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ENDING = "4-card-ending-finesse-named-after-the-claim"


def data(name: str = ENDING, **claim: object) -> dict:
    d = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
    d.pop("expect", None)
    d["claim"] = {k: v for k, v in {**d["claim"], **claim}.items() if v is not None}
    return d


def ruled(name: str = ENDING, edition: str | None = None, **claim: object) -> Ruling:
    d = data(name, **claim)
    if edition:
        d["edition"] = edition
    return rule(case_from_dict(d))


def fired(r: Ruling, name: str) -> bool:
    return any(s.rule == name for s in r.trace)


@clause("70D1")
def test_words_added_before_the_first_objection_are_read_with_the_statement_as_the_line() -> None:
    r = ruled(added_before_objection=True)
    assert r.outcome == "claim_allowed" and r.tricks == {"NS": 11, "EW": 2}
    assert fired(r, "70D1.added_before_objection")
    assert any("'taking the spade finesse' before the opponents objected" in n for n in r.notes)
    assert "♠Q" in r.witnesses[0].words  # the line ruled takes the finesse the added words name


@clause("70D1")
def test_words_added_after_the_first_objection_are_not_part_of_the_line_and_the_ruling_says_so() -> None:
    r = ruled(added_before_objection=False)
    assert r.outcome == "claim_adjusted" and r.tricks == {"NS": 10, "EW": 3}
    assert fired(r, "70D1.added_after_objection") and "70E1" in r.laws
    assert any(n.startswith("70D1:") and "only after the opponents objected" in n and "not part of his line" in n
               for n in r.notes)


@clause("70D1", "70A")
def test_words_added_at_a_time_the_case_does_not_give_are_not_part_of_the_line_as_doubt_goes_against_the_claimer(
        ) -> None:
    r = ruled()
    assert r.outcome == "claim_adjusted" and r.tricks == {"NS": 10, "EW": 3}
    assert fired(r, "70D1.added_when_not_found")
    assert any("70A" in n and "doubt goes against the claimer" in n and "not part of his line" in n for n in r.notes)


@clause("70D1")
def test_without_added_words_the_ending_is_ruled_as_an_unstated_finesse_and_no_added_words_rule_fires() -> None:
    r = ruled(added_statement=None)
    assert r.outcome == "claim_adjusted" and "70E1" in r.laws
    assert not any(s.rule.startswith(("70D1.added", "70D.added")) for s in r.trace)


@clause("70D")
@pytest.mark.parametrize("before, tricks", [(True, 11), (False, 10)])
def test_under_the_1997_laws_words_added_before_the_objection_count_and_words_added_after_do_not(
        before: bool, tricks: int) -> None:
    r = ruled(edition="1997", added_before_objection=before)
    assert r.tricks["NS"] == tricks
    assert fired(r, f"70D.added_{'before' if before else 'after'}_objection.1997")


@clause("70C1", "70D1")
def test_words_about_trumps_added_before_the_first_objection_are_a_statement_about_the_trump() -> None:
    before = ruled("4h-forgotten-trump-west", added_statement="drawing the last trump", added_before_objection=True)
    assert fired(before, "70C1.added_words_about_trump") and "70C3" not in before.laws
    assert not fired(before, "70C1.no_statement_about_trump")
    after = ruled("4h-forgotten-trump-west", added_statement="drawing the last trump", added_before_objection=False)
    assert fired(after, "70C1.no_statement_about_trump") and "70C3" in after.laws
    assert after.tricks == {"NS": 9, "EW": 4}


def test_a_structured_line_takes_the_steps_of_words_added_to_it_after_its_own() -> None:
    case = case_from_dict(data(line={"steps": [{"action": "cash", "suit": "H"}]}))
    line, _ = stated_line(case, added=True)
    assert line is not None and [(s.action, s.suit.value) for s in line.steps] == [("cash", "H"), ("finesse", "S")]
    assert [s.action for s in stated_line(case)[0].steps] == ["cash"]


@pytest.mark.parametrize("claim, message", [
    ({"added_statement": None, "added_before_objection": True},
     "claim.added_before_objection: says when words were added, but claim.added_statement gives no words"),
    ({"added_before_objection": "perhaps"}, "claim.added_before_objection: expected true or false, got 'perhaps'"),
    ({"added_statement": 3}, "claim.added_statement: expected text, got 3"),
    ({"says": "concede", "tricks": 1}, "claim.added_statement: words added to a concession are not read"),
])
def test_a_bad_added_statement_or_time_is_refused_in_one_line_naming_the_field(claim: dict, message: str) -> None:
    with pytest.raises(CaseError) as e:
        case_from_dict(data(**claim))
    assert str(e.value).startswith(message) and "\n" not in str(e.value)
