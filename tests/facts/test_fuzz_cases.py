"""Fuzzed case dictionaries: validation raises CaseError and nothing else; a valid case without cards rules.

Hypothesis builds cases from the real keys with values of every JSON kind (plus cards, seats and
near-miss words), so most examples reach the cross-field checks, not only the type checks.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlaw.engine.api import rule
from claimlaw.facts import Case, CaseError, case_from_dict

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 20), st.integers(), st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["N", "E", "S", "W", "NS", "EW", "SA", "♠3", "H10", "CK", "4S", "3NTX", "claim", "concede",
                     "disputes", "agrees", "silent", "at_once", "after_round_end", "club", "2017", "2007", "1997",
                     "[/]", "\x1b[2J", "none", "all", "now", "end", "cash", "finesse"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                        st.dictionaries(st.text(max_size=4), inner, max_size=2)),
                      max_leaves=4)
DEAL = "N:AJT432.2.QT84.T4 87.QJT543.J7.AQ2 K95.K986.AK952.7 Q6.A7.63.KJ98653"


def _section(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(keys), VALUES, max_size=4)


CLAIM = _section(["by", "says", "tricks", "statement", "shows_cards", "current_trick_only", "abandons_hand",
                  "suggests_curtailing", "after_lead_out_of_turn", "line", "added_statement",
                  "added_before_objection"])
BOARD = st.one_of(
    _section(["deal", "contract", "declarer", "vulnerable", "play", "position", "leader", "trick", "won"]),
    st.fixed_dictionaries({"deal": st.just(DEAL), "contract": st.sampled_from(["4C", "3NT", 4]),
                           "declarer": st.sampled_from(["W", "N", True])},
                          optional={"play": st.lists(st.lists(st.sampled_from(["D4", "D7", "DA", "D3", "SK", "X"]),
                                                              max_size=4), max_size=2),
                                    "won": VALUES}),
)
CASES = st.fixed_dictionaries(
    {"claim": st.one_of(CLAIM, st.fixed_dictionaries({"by": st.sampled_from(["N", "E", "S", "W"])}), VALUES)},
    optional={
        "board": BOARD,
        "edition": st.one_of(st.sampled_from(["2017", "2007", "1997", 2007, 2031]), VALUES),
        "title": VALUES,
        "responses": _section(["N", "E", "S", "W", "partner_objected_immediately", "play_on", "play_after_claim"]),
        "timing": _section(["objection", "objection_by", "within_correction_period", "minutes_after_scores_posted",
                            "correction_period_minutes"]),
        "findings": _section(["aware_of_trumps", "class_of_player", "unaware_of", "demonstrably_not_claim",
                              "would_likely_have_won", "conceded_won_tricks", "irrational_not_to",
                              "outcome_weights"]),
        "expect": _section(["tricks", "laws", "outcome", "edition"]),
        "bogus": VALUES,
    },
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CASES)
def test_a_fuzzed_case_is_either_valid_or_refused_with_a_case_error(data: dict[str, Any]) -> None:
    try:
        case = case_from_dict(data)
    except CaseError as e:
        assert "\n" not in str(e) and "instance of" not in str(e)
        return
    assert isinstance(case, Case)
    if case.position() is None:  # no cards: ruling is instant
        ruling = rule(case, play=None)
        if ruling.tricks:
            assert all(n >= 0 for n in ruling.tricks.values())


YAMLISH = st.lists(st.sampled_from(["claim", ":", " ", "\n", "  ", "- ", "[", "]", "{", "}", ",", "&a", "*a", "!!",
                                    "by: N", "? ", "'", '"', "#", "---", "1e9", "0x1F", ".inf", "~", "<<: *a", "|",
                                    "\t", "9" * 30, "é", "\\"]), max_size=30).map("".join)


@settings(max_examples=200, deadline=None)
@given(st.one_of(YAMLISH, st.text(max_size=60)), st.booleans())
def test_fuzzed_file_text_is_read_or_refused_with_a_read_error(text: str, as_json: bool) -> None:
    from claimlaw.facts.reading import ReadError, decode_text, parse_json, parse_yaml

    try:
        data = (parse_json if as_json else parse_yaml)(decode_text(text.encode("utf-8", "surrogatepass")))
    except ReadError as e:
        assert "\n" not in str(e)
        return
    try:
        case_from_dict(data)
    except CaseError:
        pass


# Near-valid cases on a three-trick claim diagram: most pass validation and are ruled with the play core.
SEATS = st.sampled_from(["N", "E", "S", "W"])
RESPONSES = st.sampled_from(["agrees", "disputes", "silent"])
DIAGRAM_NT = {"position": "N:.A.K3. .2..32 ..J.KQ 3..AQ.", "contract": "3NT", "declarer": "W", "leader": "E",
              "won": {"NS": 3, "EW": 7}}
DIAGRAM_T = {"position": "N:.A.K3. .2..32 ..J.KQ 3..AQ.", "contract": "3H", "declarer": "N", "leader": "E",
             "won": {"NS": 5, "EW": 5}}
VALIDISH = st.fixed_dictionaries(
    {"claim": st.fixed_dictionaries({"by": SEATS}, optional={
        "says": st.sampled_from(["claim", "concede"]), "tricks": st.integers(0, 3),
        "statement": st.sampled_from(["", "the rest are mine", "I'll concede one",
                                      "cash the diamonds then the clubs", "all but one"]),
        "shows_cards": st.booleans(), "abandons_hand": st.booleans(), "suggests_curtailing": st.booleans(),
        "added_statement": st.sampled_from(["", "taking the diamond finesse", "drawing trumps first"]),
        "added_before_objection": st.one_of(st.none(), st.booleans())})},
    optional={
        "edition": st.sampled_from(["2017", "2007", "1997"]),
        "board": st.sampled_from([DIAGRAM_NT, DIAGRAM_T]),
        "responses": st.fixed_dictionaries({}, optional={
            **{seat: RESPONSES for seat in "NESW"},
            "partner_objected_immediately": st.booleans(),
            "play_on": st.fixed_dictionaries({"requested_by": SEATS, "all_concurred": st.booleans()})}),
        "timing": st.fixed_dictionaries({}, optional={
            "objection": st.sampled_from(["none", "at_once", "before_next_call", "after_next_call", "after_round_end"]),
            "objection_by": SEATS, "within_correction_period": st.one_of(st.none(), st.booleans()),
            "minutes_after_scores_posted": st.integers(0, 100)}),
        "findings": st.fixed_dictionaries({}, optional={
            "would_likely_have_won": st.integers(0, 3), "conceded_won_tricks": st.integers(0, 3),
            "aware_of_trumps": st.one_of(st.none(), st.booleans()),
            "class_of_player": st.sampled_from(["beginner", "club", "expert", "world_class"]),
            "demonstrably_not_claim": st.one_of(st.none(), st.booleans()),
            "irrational_not_to": st.one_of(st.none(), st.booleans())}),
    })


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(VALIDISH)
def test_a_near_valid_case_is_refused_or_ruled_within_the_tricks_that_exist(data: dict[str, Any]) -> None:
    try:
        case = case_from_dict(data)
    except CaseError:
        return
    ruling = rule(case)
    if ruling.tricks:
        won = case.board.won if case.board and case.board.won else {}
        assert all(n >= 0 for n in ruling.tricks.values()) and sum(ruling.tricks.values()) == 13
        assert all(ruling.tricks[side.value] >= n for side, n in won.items())  # no side loses a trick it won
