"""The rule vocabulary: patterns, operators, rules, editions and composing packs (no durable)."""

from __future__ import annotations

from typing import Any

import pytest

from claimlaw.rules.rulebook import (
    Edition,
    Op,
    Pack,
    PackError,
    Rule,
    RulebookError,
    compose,
    compose_detailed,
    explain,
    fact,
    ge,
    gt,
    le,
    lt,
    ne,
    no,
    one_of,
)
from tests.engine.rulesets import AGREED, ALL, CLAIM, CLAIM_1997, CLUB, RULES


def nothing(ctx: Any, m: Any) -> None:
    return None


def test_the_rulebook_does_not_import_durable_rules() -> None:
    import claimlaw.rules.rulebook as rb

    source = open(rb.__file__).read()
    assert "import durable" not in source and "from durable" not in source


def test_a_literal_means_equality_and_an_alias_defaults_to_the_kind() -> None:
    p = fact("claim", says="claim", tricks=gt(2))
    assert p.alias == "claim" and not p.negated
    assert p.where == (("says", Op("eq", "claim")), ("tricks", Op("gt", 2)))
    assert p.matches({"kind": "claim", "says": "claim", "tricks": 3})
    assert not p.matches({"kind": "claim", "says": "claim", "tricks": 2})
    assert not p.matches({"kind": "concession", "says": "claim", "tricks": 3})


def test_each_operator_tests_as_durable_does_and_a_missing_field_fails_them_all() -> None:
    cases = [(ne("x"), "y", True), (ne("x"), "x", False), (lt(3), 2, True), (le(3), 3, True), (gt(3), 3, False),
             (ge(3), 3, True), (one_of("a", "b"), "b", True), (one_of("a", "b"), "c", False), (lt(3), "a", False)]
    for op, value, expected in cases:
        assert op.test(True, value) is expected, (op, value)
        assert op.test(False, None) is False
    assert fact("x", flag=True).matches({"kind": "x", "flag": 1})  # True == 1, as in durable


def test_bad_pattern_values_are_refused_when_the_rule_is_written() -> None:
    with pytest.raises(RulebookError, match="not a JSON scalar"):
        fact("claim", seats=["N", "S"])
    with pytest.raises(RulebookError, match="cannot be ordered"):
        gt(True)
    with pytest.raises(RulebookError, match="reserved"):
        fact("claim", id=3)
    with pytest.raises(RulebookError, match="alias"):
        fact("68A")
    with pytest.raises(RulebookError, match="at least one value"):
        one_of()


def test_a_negation_is_a_pattern_marked_negated() -> None:
    p = no("voided", by="68B2")
    assert p.negated and repr(p) == "no('voided', by=eq('68B2'))"


def test_a_rule_is_checked_when_it_is_written() -> None:
    base: dict[str, Any] = dict(name="X.rule", clause="X", editions=ALL, reason="r", when=(fact("claim"),),
                                then=nothing)
    assert Rule(**{**base, "editions": ["2017"]}).editions == ("2017",)
    for change, message in [({"clause": ""}, "clause"), ({"editions": ()}, "editions"), ({"when": ()}, "when"),
                            ({"when": (fact("claim"), fact("claim"))}, "alias 'claim'"),
                            ({"then": "not callable"}, "callable"), ({"priority": 1.5}, "priority"),
                            ({"overrides": ("X.rule",)}, "itself")]:
        with pytest.raises(RulebookError, match=message):
            Rule(**{**base, **change})


def test_rules_compare_by_identity_and_can_be_hashed() -> None:
    assert CLAIM == CLAIM and CLAIM != CLAIM_1997 and len({CLAIM, CLAIM_1997, CLAIM}) == 2


def test_an_edition_keeps_the_rules_naming_it() -> None:
    assert [r.name for r in compose(RULES, "1997")] == ["A.current_trick", "A.claim.1997", "D.suspended",
                                                        "69A.agreed", "D2.doubted"]
    assert "A.claim" in [r.name for r in compose(RULES, "2007")]
    with pytest.raises(RulebookError, match="unknown edition '2031'"):
        compose(RULES, "2031")


def test_an_edition_may_be_a_manifest_of_rule_names_or_a_predicate() -> None:
    manifest = Edition("club-2017", in_force=frozenset({"A.claim", "D.suspended"}))
    assert [r.name for r in compose(RULES, manifest)] == ["A.claim", "D.suspended"]
    verified = Edition("verified", in_force=lambda r: r.clause.startswith("68D"))
    assert {r.clause for r in compose(RULES, verified)} == {"68D", "68D2"}


def test_packs_apply_in_order_and_a_later_pack_can_change_an_earlier_packs_rule() -> None:
    late = Pack(name="late", neutralise=["69A.agreed"], params={"correction_minutes": 25}, overrides=["club"])
    comp = compose_detailed(RULES, "2017", [CLUB, late])
    names = [r.name for r in comp.rules]
    assert "club.agreed" not in names and "69A.agreed" not in names and "club.note" in names
    assert comp.neutralised == {"D2.doubted": "club", "club.agreed": "late"}
    assert comp.params == {"correction_minutes": 25}
    assert comp.origin == {"club.agreed": "club", "club.note": "club"}


def test_a_replacement_takes_the_place_of_the_rule_and_records_that_it_overrides_it() -> None:
    comp = compose_detailed(RULES, "2017", [CLUB])
    names = [r.name for r in comp.rules]
    assert names.index("club.agreed") == [r.name for r in compose(RULES, "2017")].index("69A.agreed")
    rep = comp.rules[names.index("club.agreed")]
    assert rep.overrides == ("69A.agreed",) and rep.source.startswith("club pack: ")


def test_a_pack_touching_a_rule_not_in_force_in_the_edition_leaves_it_alone() -> None:
    pack = Pack(name="modern", neutralise=["A.claim"])
    assert [r.name for r in compose(RULES, "1997", [pack])] == [r.name for r in compose(RULES, "1997")]


def test_pack_mistakes_are_errors_naming_the_pack_and_the_rule() -> None:
    twin = Rule(name="D.suspended", clause="68D", editions=ALL, reason="r", when=(fact("x"),), then=nothing)
    for pack, message in [
        (Pack(name="p1", neutralise=["A.clam"]), "pack 'p1': cannot neutralise unknown rule 'A.clam'"),
        (Pack(name="p2", replace={"Z.none": AGREED}), "pack 'p2': cannot replace unknown rule 'Z.none'"),
        (Pack(name="p3", add=[twin]), "pack 'p3': adds a rule named 'D.suspended', which exists already"),
        (Pack(name="p4", replace={"69A.agreed": twin}), "pack 'p4': replacement for '69A.agreed' reuses"),
    ]:
        with pytest.raises(PackError, match=message):
            compose(RULES, "2017", [pack])
    with pytest.raises(PackError, match="both replaced and neutralised"):
        Pack(name="p5", replace={"69A.agreed": AGREED}, neutralise=["69A.agreed"])
    with pytest.raises(PackError, match="pack name"):
        Pack(name="has space")


def test_a_rule_overriding_a_rule_that_does_not_exist_is_an_error() -> None:
    bad = Rule(name="B.bad", clause="B", editions=ALL, reason="r", when=(fact("x"),), then=nothing,
               overrides=("A.claimm",))
    with pytest.raises(RulebookError, match="'B.bad' overrides unknown rule 'A.claimm'.*did you mean 'A.claim'"):
        compose([*RULES, bad], "2017")


def test_two_rules_with_one_name_are_an_error() -> None:
    with pytest.raises(RulebookError, match="two rules are named 'A.claim'"):
        compose([CLAIM, CLAIM], "2017")


def test_explain_says_why_a_rule_did_not_match() -> None:
    lines = explain(AGREED, [{"kind": "suspended"}, {"kind": "table", "objection": "none"}])
    assert lines[0].startswith("fact('suspended'): matched by 1")
    assert lines[1] == "fact('claim_made', alias='made'): no fact of kind 'claim_made'"
    assert lines[2].endswith("doubted is missing")
