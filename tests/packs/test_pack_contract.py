"""What a pack writer relies on: the 70E2 orders each do what they say, a Python pack cites its own regulation, the
data pack's JSON Schema and the generated reference agree with the code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from claimlaw.engine.api import rule
from claimlaw.engine.faces.cli import app
from claimlaw.engine.packdata import CASE_FIELDS, FINDINGS
from claimlaw.engine.packs import PackError, load_pack
from claimlaw.engine.play.model import GUIDELINES
from claimlaw.facts import load_case
from claimlaw.rules.normal_play import GUIDELINES as GUIDELINE_RULES
from claimlaw.rules.params import ORDERS_70E2, PARAMS
from claimlaw.rules.rulebook import Pack
from tests.lawmarks import clause

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples"
runner = CliRunner()


def _order_pack(tmp_path: Path, order: str) -> str:
    p = tmp_path / f"{order}.yaml"
    p.write_text(f"name: ra\nparams:\n  order_70E2: {{value: {order}, cite: RA Regulation 9}}\n", encoding="utf-8")
    return str(p)


@clause("70E2")
@pytest.mark.parametrize("order,drop_only,finesse_only", [("top_down", 13, 12), ("worst_for_claimer", 12, 12)])
def test_each_70e2_order_has_its_effect_on_an_unclarified_guess(tmp_path: Path, order: str, drop_only: int,
                                                                finesse_only: int) -> None:
    # the drop-only ending: top down credits the drop; the worst order keeps the losing finesse licensed. A
    # finesse that works is never credited by either: the top card is a normal play in both
    drop = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml")
    r = rule(drop, packs=[_order_pack(tmp_path, order)])
    assert r.tricks is not None and r.tricks["EW"] == drop_only
    step = next(s for s in r.trace if s.rule == "70E2.ra_order")
    assert step.cites == [f"an unclarified suit is played {ORDERS_70E2[order].words}: RA Regulation 9 [pack ra]"]
    assert step.facts["order"] == order
    finesse = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml").model_copy(deep=True)
    finesse.board.position = "N:Q9...2 KJ..A. T..32. 74..5."  # the queen with North, guarded: only the finesse
    finesse.expect = None
    got = rule(finesse, packs=[_order_pack(tmp_path, order)])
    assert got.tricks is not None and got.tricks["EW"] == finesse_only


@pytest.mark.parametrize("order", ["the finesse, never the drop", "stop", "finesse", "top down", "drop"])
def test_a_70e2_order_that_is_not_one_of_the_enumeration_is_refused(tmp_path: Path, order: str) -> None:
    p = tmp_path / "ra.yaml"
    p.write_text(f"name: ra\nparams:\n  order_70E2: {{value: '{order}', cite: RA Regulation 9}}\n", encoding="utf-8")
    with pytest.raises(PackError, match="is not a 70E2 order"):
        load_pack(str(p))


@clause("70C3")
def test_a_python_pack_cites_its_own_regulation_for_the_deemed_aware_parameter_never_a_built_in_one() -> None:
    case = load_case(EXAMPLES / "4h-forgotten-trump-high-trump-held.yaml")
    ours = Pack(name="ours", source="Our RA's handbook", params={"high_trump_safety_check_normal": True},
                cites={"high_trump_safety_check_normal": "Our RA's handbook 12.3"})
    r = rule(case, packs=[ours])
    cites = [c for s in r.trace for c in s.cites]
    assert cites == ["a safety check with a high trump draws the single outstanding trump: Our RA's handbook 12.3 "
                     "[pack ours]"]
    bare = rule(case, packs=[Pack(name="bare", source="Bare rules", params={"high_trump_safety_check_normal": True})])
    assert [c for s in bare.trace for c in s.cites] == [
        "a safety check with a high trump draws the single outstanding trump: Bare rules [pack bare]"]


def test_a_python_pack_with_an_unknown_parameter_is_refused_but_its_own_rules_may_declare_theirs() -> None:
    with pytest.raises(PackError, match=r"params.correction_minuts: unknown parameter 'correction_minuts'; did you "
                                        r"mean 'correction_minutes'\?"):
        load_pack(Pack(name="typo", params={"correction_minuts": 60}))
    from claimlaw.rules.rulebook import Rule, fact

    own = Rule(name="own.rule", clause="70A", editions=("2017",), reason="r", when=(fact("adjudicate"),),
               then=lambda ctx, m: None, params={"own_limit": 3})
    assert load_pack(Pack(name="own", add=[own], params={"own_limit": 4})).params == {"own_limit": 4}


# ---------------------------------------------------------------------------------------
# The schema and the reference
# ---------------------------------------------------------------------------------------


def _valid(v: Any, s: dict[str, Any], where: str = "$") -> list[str]:
    """A small JSON Schema check (the keywords the data pack's schema uses): the problems found."""
    if "anyOf" in s and all(_valid(v, alt, where) for alt in s["anyOf"]):
        return [f"{where}: matches no alternative"]
    if "enum" in s and v not in s["enum"]:
        return [f"{where}: {v!r} not in {s['enum']}"]
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int, "number": (int, float)}
    t = s.get("type")
    if t and (not isinstance(v, kinds[t]) or (t in ("integer", "number") and isinstance(v, bool))):
        return [f"{where}: not {t}"]
    out: list[str] = []
    if t == "object":
        props = s.get("properties", {})
        out += [f"{where}.{k}: required" for k in s.get("required", []) if k not in v]
        for k, x in v.items():
            if k in props:
                out += _valid(x, props[k], f"{where}.{k}")
            elif s.get("additionalProperties") is False:
                out.append(f"{where}.{k}: not allowed")
    if t == "array":
        for i, x in enumerate(v):
            out += _valid(x, s.get("items", {}), f"{where}[{i}]")
    return out


def test_the_data_pack_schema_accepts_the_nbu_pack_and_names_every_parameter_fact_switch_and_guideline() -> None:
    res = runner.invoke(app, ["schema", "--pack"])
    assert res.exit_code == 0
    schema = json.loads(res.stdout)
    nbu = yaml.safe_load((HERE / "nbu.yaml").read_text(encoding="utf-8"))
    assert _valid(nbu, schema) == []
    props = schema["properties"]
    assert set(props["params"]["properties"]) == set(PARAMS)
    assert props["params"]["properties"]["order_70E2"]["properties"]["value"]["enum"] == list(ORDERS_70E2)
    rule_props = props["rules"]["items"]["properties"]
    assert set(rule_props["when"]["properties"]) == set(CASE_FIELDS)
    assert set(rule_props["then"]["properties"]["finding"]["properties"]) == set(FINDINGS)
    switches = set(rule_props["then"]["properties"]["switch"]["properties"])
    assert switches == set(GUIDELINES) - {"unaware_trump", "unaware_winner"}
    bad = {**nbu, "params": {"correction_minute": {"value": 60, "cite": "x"}}}
    assert _valid(bad, schema) == ["$.params.correction_minute: not allowed"]


def test_claimlaw_packs_reference_lists_the_parameters_facts_switches_guidelines_and_priorities_from_the_code(
        ) -> None:
    res = runner.invoke(app, ["packs", "--reference"])
    assert res.exit_code == 0
    text = res.stdout
    for name in [*PARAMS, *ORDERS_70E2, *CASE_FIELDS, *FINDINGS]:
        assert f"`{name}`" in text
    for g in GUIDELINES:
        if g not in ("unaware_trump", "unaware_winner"):
            assert f"| `{g}` |" in text
    for r in GUIDELINE_RULES:
        assert f"`{r.name}`" in text
    assert "## Priorities" in text and "70A.resolve" in text


@clause("70.footnote")
def test_a_python_pack_that_neutralises_a_guideline_says_so_once_in_the_chain_citing_its_source() -> None:
    case = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml")
    pack = Pack(name="club", source="Club regulations 2026", neutralise=["guideline.concede_now_or_end",
                                                                       "guideline.concede_now_or_end.71"])
    r = rule(case, packs=[pack])
    said = [(s.rule, c) for s in r.trace for c in s.cites]
    assert said == [("club.withdraw.concede_now_or_end", "not applied: Club regulations 2026")]
    assert rule(case, packs=[pack]).trace == r.trace  # the same pack compiles once and rules the same


def _data(tmp_path: Path, text: str) -> str:
    p = tmp_path / "ra.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


@clause("70E1")
def test_a_data_rule_that_switches_a_licence_off_where_its_conditions_hold_changes_the_count(tmp_path: Path) -> None:
    pack = _data(tmp_path, "name: ra\nrules:\n  - name: ra.5.experts\n    cite: RA Regulation 5\n"
                           "    text: An expert declarer is credited with the drop in a three-card ending.\n"
                           "    when: {claimer: declarer, remaining: {le: 3}, class_of_player: expert}\n"
                           "    then: {switch: {finesse_or_drop: false}}\n")
    case = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml").model_copy(deep=True)
    assert rule(case, packs=[pack]).tricks == {"EW": 12, "NS": 1}  # no class found: the regulation does not apply
    case.findings.class_of_player = "expert"
    r = rule(case, packs=[pack])
    assert r.tricks == {"EW": 13, "NS": 0}
    step = next(s for s in r.trace if s.rule == "ra.5.experts")
    assert step.reason == "An expert declarer is credited with the drop in a three-card ending."
    assert step.cites == ["finesse_or_drop off: RA Regulation 5 [pack ra]"] and step.pack == "ra"


@clause("70.footnote")
def test_a_data_rule_that_withdraws_a_guideline_is_an_exception_that_defeats_it_only_where_it_applies(
        tmp_path: Path) -> None:
    pack = _data(tmp_path, "name: ra\nrules:\n  - name: ra.6.endings\n    cite: RA Regulation 6\n"
                           "    when: {trick: {ge: 11}}\n    then: {withdraw: concede_now_or_end}\n")
    ending = load_case(EXAMPLES / "7nt-spade-guess-ending-drop-only.yaml")  # trick 11
    r = rule(ending, packs=[pack], verbose=True)
    names = [s.rule for s in r.trace]
    assert "ra.6.endings" in names and "guideline.concede_now_or_end" not in names
    assert next(s for s in r.trace if s.rule == "ra.6.endings").cites == [
        "concede_now_or_end not applied: RA Regulation 6 [pack ra]"]
    early = rule(load_case(HERE / "trick-one-claim.yaml"), packs=[pack], verbose=True)
    names = [s.rule for s in early.trace]
    assert "ra.6.endings" not in names and "guideline.concede_now_or_end" in names


@pytest.mark.parametrize("text,words", [
    ("withdraw: [{rule: 70E1.unstated_finese, cite: RA 1}]", "cannot neutralise unknown rule '70E1.unstated_finese' "
                                                            "(did you mean '70E1.unstated_finesse'?)"),
    ("withdraw: [{guideline: ruff_low}]", "withdraw[0].cite: must be a non-empty text"),
    ("rules: [{name: r1, cite: RA 1, when: {trick: 14}, then: {switch: {ruff_low: false}}}]",
     "rules[0].when.trick: 14 is not a whole number from 1 to 13"),
    ("rules: [{name: r1, cite: RA 1, when: {claimer: declarrer}, then: {switch: {ruff_low: false}}}]",
     "rules[0].when.claimer: 'declarrer' is not a value of claimer; did you mean 'declarer'?"),
    ("rules: [{name: r1, cite: RA 1, when: {trick: 1}, then: {switch: {ruff_lo: false}}}]",
     "rules[0].then.switch.ruff_lo: unknown key 'ruff_lo'; did you mean 'ruff_low'?"),
    ("rules: [{name: r1, cite: RA 1, when: {trick: 1}, then: {switch: {ruff_low: false}, finding: "
     "{class_of_player: club}}}]", "rules[0].then: give exactly one of switch, withdraw, finding"),
    ("rules: [{name: r1, cite: RA 1, when: {trick: {lee: 2}}, then: {withdraw: ruff_low}}]",
     "rules[0].when.trick.lee: unknown test 'lee'; did you mean 'le'?"),
    ("rules: [{name: r1, cite: RA 1, clause: 70Z, when: {trick: 1}, then: {withdraw: ruff_low}}]",
     "rules[0].clause: unknown clause '70Z'"),
    ("overrides: 3", "overrides: must name earlier packs"),
])
def test_each_mistake_in_a_data_pack_is_one_line_naming_the_field(tmp_path: Path, text: str, words: str) -> None:
    pack = _data(tmp_path, f"name: ra\n{text}\n")
    res = runner.invoke(app, ["rule", str(EXAMPLES / "current-trick-only.yaml"), "--pack", pack])
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
    assert words in " ".join(res.stderr.split()), res.stderr


def test_the_built_in_packs_combine_where_they_agree_and_acbl1992_may_stand_in_for_acbl_but_not_the_reverse() -> None:
    from claimlaw.engine.api import program_for

    assert program_for("2017", ["ebu", "acbl", "wbflc"]).param_pack == {
        "correction_minutes": "ebu", "weighted_scores": "ebu", "high_trump_safety_check_normal": "acbl"}
    p = program_for("2017", ["acbl", "acbl1992"])
    assert p.params["high_trump_safety_check_normal"] is True
    assert p.param_cite["high_trump_safety_check_normal"] == "ACBL Tech Files, Directions July/October 1992 C " \
                                                              "[pack acbl1992]"
    with pytest.raises(PackError, match=r"pack 'acbl': .*overrides: \[acbl1992\]"):
        program_for("2017", ["acbl1992", "acbl"])
