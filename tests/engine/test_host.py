"""The durable_rules host: chaining, negation, priority, errors, trace, editions, packs, sessions."""

from __future__ import annotations

import gc
import os
import threading
import time
import tracemalloc
from typing import Any

import pytest

from claimlaw.engine.host import Ctx, FactError, RuleError, compile_program
from claimlaw.rules.rulebook import Pack, Rule, RulebookError, fact, no
from tests.engine.rulesets import ALL, CLUB, RULES, claim

Facts = dict[str, dict[str, Any]]


def logger(log: list[str], name: str, **extra: Any) -> Any:
    def act(ctx: Ctx, m: Facts) -> None:
        log.append(name)
        for kind, fields in extra.items():
            ctx.assert_fact(kind, **fields)
    return act


def rule(name: str, *when: Any, then: Any, priority: int = 0, **kw: Any) -> Rule:
    return Rule(name=name, clause=name.split(".")[0], editions=ALL, reason=f"test rule {name}", when=tuple(when),
                then=then, priority=priority, **kw)


# ---------------------------------------------------------------------------------------
# Chaining, negation, priority
# ---------------------------------------------------------------------------------------


def test_a_fact_asserted_by_one_rule_is_matched_by_later_rules() -> None:
    r = compile_program(RULES, edition="2017").run(claim(), context={})
    assert [s.rule for s in r.trace] == ["A.claim", "D.suspended", "69A.agreed"]
    assert r.conclusions["outcome"] == "agreed" and r.conclusions["tricks"] == 3
    assert [f["kind"] for f in r.facts] == ["claim", "table", "claim_made", "suspended"]


def test_a_negation_written_first_still_works() -> None:
    log: list[str] = []
    rules = [rule("N.first", no("voided"), fact("claim"), then=logger(log, "fired"))]
    compile_program(rules, edition="2017").run([{"kind": "claim"}])
    assert log == ["fired"]
    compile_program(rules, edition="2017").run([{"kind": "claim"}, {"kind": "voided"}])
    assert log == ["fired"]


def test_a_rule_of_negations_only_fires_once_when_nothing_blocks_it() -> None:
    log: list[str] = []
    rules = [rule("N.only", no("claim"), then=logger(log, "nothing claimed"))]
    p = compile_program(rules, edition="2017")
    p.run([{"kind": "table"}])
    p.run([{"kind": "claim"}])
    assert log == ["nothing claimed"]


def test_lower_priority_fires_first_including_negative_numbers() -> None:
    log: list[str] = []
    prios = [3, -1, 7, 0, -9, 2, 5, 70000, -70000]
    rules = [rule(f"P.{i}", fact("claim"), then=logger(log, str(p)), priority=p) for i, p in enumerate(prios)]
    compile_program(rules, edition="2017").run([{"kind": "claim"}])
    assert log == [str(p) for p in sorted(prios)]


def test_equal_priorities_fire_in_the_order_the_rules_were_given() -> None:
    log: list[str] = []
    rules = [rule(f"T.{i}", fact("claim"), then=logger(log, str(i))) for i in range(6)]
    compile_program(rules, edition="2017").run([{"kind": "claim"}])
    assert log == [str(i) for i in range(6)]


def test_priority_orders_rules_across_all_the_input_facts() -> None:
    log: list[str] = []
    rules = [rule("S.claim_only", fact("claim"), then=logger(log, "claim only"), priority=5),
             rule("S.claim_and_table", fact("claim"), fact("table"), then=logger(log, "claim and table"), priority=1)]
    compile_program(rules, edition="2017").run([{"kind": "claim"}, {"kind": "table"}])
    assert log == ["claim and table", "claim only"]


def test_a_rule_made_ready_by_an_asserted_fact_takes_its_place_in_the_priority_order() -> None:
    log: list[str] = []
    rules = [rule("Q.a", fact("claim"), then=logger(log, "a", x={}), priority=1),
             rule("Q.b", fact("claim"), then=logger(log, "b"), priority=5),
             rule("Q.x", fact("x"), then=logger(log, "x"), priority=3)]
    compile_program(rules, edition="2017").run([{"kind": "claim"}])
    assert log == ["a", "x", "b"]


def test_a_negated_fact_asserted_by_an_earlier_rule_stops_a_rule_already_waiting() -> None:
    log: list[str] = []
    rules = [rule("V.claim", fact("claim"), no("voided"), then=logger(log, "claim")),
             rule("V.void", fact("claim", current=True), then=logger(log, "void", voided={}), priority=-5)]
    p = compile_program(rules, edition="2017")
    r = p.run([{"kind": "claim", "current": True}])
    assert log == ["void"] and r.skipped == ["V.claim"]
    p.run([{"kind": "claim", "current": False}])
    assert log == ["void", "claim"]


def test_a_field_the_fact_lacks_fails_every_test() -> None:
    log: list[str] = []
    rules = [rule("F.false", fact("claim", implied=False), then=logger(log, "implied=False")),
             rule("F.none", fact("claim", implied=None), then=logger(log, "implied=None"))]
    compile_program(rules, edition="2017").run([{"kind": "claim"}])
    assert log == []


def test_facts_no_rule_matches_are_kept_and_do_not_stop_the_run() -> None:
    log: list[str] = []
    rules = [rule("U.claim", fact("claim", says="claim"), then=logger(log, "claim", nobody_listens={"a": 1}))]
    facts = [{"kind": "weather", "sun": True}, {"kind": "claim", "says": "claim"}, {"kind": "claim", "says": "mumble"}]
    r = compile_program(rules, edition="2017").run(facts)
    assert log == ["claim"]
    assert [f["kind"] for f in r.facts] == ["weather", "claim", "claim", "nobody_listens"]


def test_identical_facts_are_both_accepted() -> None:
    log: list[str] = []
    rules = [rule("I.claim", fact("claim"), then=logger(log, "claim"))]
    compile_program(rules, edition="2017").run([{"kind": "claim"}, {"kind": "claim"}])
    assert log == ["claim", "claim"]


def test_an_exception_overrides_the_rule_it_names_once_it_fires() -> None:
    r = compile_program(RULES, edition="2017").run(claim(current_trick_only=True))
    assert [s.rule for s in r.trace] == ["A.current_trick"]
    assert r.conclusions["outcome"] == "not_a_claim"


def test_an_exception_that_cannot_fire_first_is_refused_at_compile_time() -> None:
    base = rule("O.base", fact("claim"), then=logger([], "base"), priority=-1)
    exc = rule("O.exception", fact("claim"), then=logger([], "exc"), priority=0, overrides=("O.base",))
    with pytest.raises(RulebookError, match="O.exception.*overrides 'O.base'.*after it"):
        compile_program([base, exc], edition="2017")


def test_an_exception_that_fires_after_its_default_is_an_error_naming_both() -> None:
    rules = [rule("L.exception", fact("late"), then=logger([], "exc"), overrides=("L.default",)),
             rule("L.default", fact("claim"), then=logger([], "default", late={}), priority=5)]
    with pytest.raises(RuleError, match="L.exception.*overrides 'L.default', which has already fired"):
        compile_program(rules, edition="2017").run([{"kind": "claim"}])


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------


def test_an_exception_inside_an_action_becomes_a_rule_error_naming_the_rule_and_cause() -> None:
    log: list[str] = []

    def boom(ctx: Ctx, m: Facts) -> None:
        raise KeyError("tricks")

    rules = [rule("E.first", fact("claim"), then=logger(log, "first"), priority=-1),
             rule("E.boom", fact("claim"), then=boom),
             rule("E.later", fact("claim"), then=logger(log, "later"), priority=1)]
    p = compile_program(rules, edition="2017")
    with pytest.raises(RuleError) as info:
        p.run([{"kind": "claim"}])
    e = info.value
    assert e.rule == "E.boom" and e.clause == "E" and "KeyError" in str(e) and "tricks" in str(e)
    assert isinstance(e.__cause__, KeyError)
    assert log == ["first"]  # durable would have run E.later; the host stops at the failure
    assert [s.rule for s in e.trace] == ["E.first"]
    assert p.live_sessions == 0
    with pytest.raises(RuleError, match="E.boom"):  # the program still runs, and fails the same way
        p.run([{"kind": "claim", "n": 2}])
    assert p.live_sessions == 0


def test_a_fact_that_is_not_json_is_an_error_naming_the_rule() -> None:
    rules = [rule("J.bad", fact("claim"), then=lambda ctx, m: ctx.assert_fact("x", value=object()))]
    with pytest.raises(RuleError, match="J.bad.*must be JSON"):
        compile_program(rules, edition="2017").run([{"kind": "claim"}])


def test_malformed_input_facts_are_refused_before_the_run() -> None:
    p = compile_program(RULES, edition="2017")
    with pytest.raises(FactError, match="kind"):
        p.run([{"says": "claim"}])
    with pytest.raises(FactError, match="'id' is reserved"):
        p.run([{"kind": "claim", "id": 3}])
    with pytest.raises(FactError, match="JSON"):
        p.run([{"kind": "claim", "when": object()}])
    assert p.live_sessions == 0


# ---------------------------------------------------------------------------------------
# Trace, context, conclusions
# ---------------------------------------------------------------------------------------


def test_the_trace_lists_clause_edition_rule_facts_and_conclusions_per_firing_in_order() -> None:
    r = compile_program(RULES, edition="2007").run(claim(tricks=4))
    first, second, third = r.trace
    assert (first.clause, first.edition, first.rule) == ("68A", "2007", "A.claim")
    assert first.reason == "a statement of tricks is a claim" and first.source == "Laws of Duplicate Bridge"
    assert first.facts == {"claim": {"kind": "claim", "says": "claim", "side": "NS", "tricks": 4,
                                     "current_trick_only": False}}
    assert first.concluded == {"outcome": "claim", "summary": "a claim was made",
                               "asserted": [{"kind": "claim_made", "side": "NS", "tricks": 4}]}
    assert second.rule == "D.suspended" and second.facts["made"]["kind"] == "claim_made"
    assert third.rule == "69A.agreed" and set(third.facts) == {"suspended", "made", "table"}
    assert third.concluded == {"outcome": "agreed", "tricks": 4, "minutes": 30}
    assert r.laws == ["68A", "68D", "69A"]
    assert [name for name, _ in r.history] == ["A.claim", "D.suspended", "69A.agreed"]
    assert all(s.text_verified for s in r.trace)


def test_actions_see_params_context_notes_records_and_the_sessions_facts() -> None:
    seen: dict[str, Any] = {}

    def act(ctx: Ctx, m: Facts) -> None:
        seen.update(edition=ctx.edition, packs=ctx.packs, params=dict(ctx.params), case=ctx.case, play=ctx.play,
                    board=ctx.board, claims=ctx.facts("claim"), big=ctx.facts("claim", n=2))
        ctx.note("a note")
        ctx.note("a note")
        ctx.record(extra={"why": "shown"})
        with pytest.raises(AttributeError, match="no attribute 'nothing'"):
            ctx.nothing  # noqa: B018

    rules = [rule("C.act", fact("claim", n=1), then=act, params={"k": 1, "j": 1})]
    p = compile_program(rules, edition="2017", params={"j": 2})
    r = p.run([{"kind": "claim", "n": 1}, {"kind": "claim", "n": 2}], context={"case": "the case", "board": 7})
    assert seen["edition"] == "2017" and seen["packs"] == () and seen["params"] == {"k": 1, "j": 2}
    assert seen["case"] == "the case" and seen["play"] is None and seen["board"] == 7
    assert seen["claims"] == [{"kind": "claim", "n": 1}, {"kind": "claim", "n": 2}]
    assert seen["big"] == [{"kind": "claim", "n": 2}]
    assert r.notes == ["a note"]
    assert r.trace[0].facts["extra"] == {"why": "shown"} and r.trace[0].concluded["notes"] == ["a note", "a note"]
    assert p.params == {"k": 1, "j": 2}


def test_the_last_conclusion_written_wins_and_history_keeps_every_one() -> None:
    rules = [rule("W.one", fact("claim"), then=lambda ctx, m: ctx.conclude(outcome="one", summary="s")),
             rule("W.two", fact("claim"), then=lambda ctx, m: ctx.conclude(outcome="two"), priority=1)]
    r = compile_program(rules, edition="2017").run([{"kind": "claim"}])
    assert r.conclusions == {"outcome": "two", "summary": "s"}
    assert r.history == [("W.one", {"outcome": "one", "summary": "s"}), ("W.two", {"outcome": "two"})]


# ---------------------------------------------------------------------------------------
# Editions and packs
# ---------------------------------------------------------------------------------------


def test_editions_filter_the_rules_in_force() -> None:
    r17 = compile_program(RULES, edition="2017").run(claim())
    r97 = compile_program(RULES, edition="1997").run(claim())
    assert r17.trace[0].rule == "A.claim" and r17.trace[0].edition == "2017"
    assert [s.rule for s in r97.trace] == ["A.claim.1997"] and r97.trace[0].edition == "1997"
    assert "A.claim" not in [x.name for x in compile_program(RULES, edition="1997").rules]


def test_a_pack_replaces_neutralises_adds_and_sets_params_and_the_trace_names_it() -> None:
    p = compile_program(RULES, edition="2017", packs=[CLUB])
    assert p.packs == ("club",) and p.params["correction_minutes"] == 20
    assert p.replaced == {"69A.agreed": ("club", "club.agreed")} and p.neutralised == {"D2.doubted": "club"}
    assert p.rule("club.agreed").overrides == ("69A.agreed",)
    r = p.run(claim())
    assert [s.rule for s in r.trace] == ["A.claim", "D.suspended", "club.agreed", "club.note"]
    assert r.conclusions["outcome"] == "agreed_by_club" and r.conclusions["minutes"] == 20
    assert r.trace[2].source == "club pack: Club handbook 2024, reg. 3"
    assert r.trace[3].source == "club pack: Club handbook 2024"
    assert r.notes == ["club regulation 4 applies"]
    doubted = p.run(claim(doubted=True, objection="at_once"))
    assert "D2.doubted" not in [s.rule for s in doubted.trace]


def test_pack_params_beat_program_params_which_beat_rule_defaults() -> None:
    plain = compile_program(RULES, edition="2017", params={"correction_minutes": 45})
    assert plain.run(claim()).conclusions["minutes"] == 45
    packed = compile_program(RULES, edition="2017", packs=[CLUB], params={"correction_minutes": 45})
    assert packed.run(claim()).conclusions["minutes"] == 20


def test_a_pack_naming_an_unknown_rule_is_an_error_naming_the_pack_and_the_rule() -> None:
    bad = Pack(name="typo", neutralise=["69A.agred"])
    with pytest.raises(RulebookError, match=r"pack 'typo'.*unknown rule '69A.agred'.*did you mean '69A.agreed'"):
        compile_program(RULES, edition="2017", packs=[bad])


def test_an_exception_to_a_rule_a_pack_replaced_under_a_new_name_still_defeats_the_replacement() -> None:
    # the pack replaces 69A.agreed by club2.agreed, and its exception names the old name: before the fix the
    # exception fired and the replacement fired after it anyway (the exception never applied)
    replacement = Rule(name="club2.agreed", clause="69A", editions=ALL, reason="the club's agreement rule",
                       when=(fact("suspended"), fact("claim_made", alias="made"), fact("table", doubted=False)),
                       then=lambda ctx, m: ctx.conclude(outcome="agreed_by_club"))
    exception = Rule(name="club2.small_claims", clause="69A", editions=ALL, reason="a claim of one trick is void",
                     when=(fact("suspended"), fact("claim", tricks=1)), priority=-5, overrides=("69A.agreed",),
                     then=lambda ctx, m: ctx.conclude(outcome="void_by_club"))
    pack = Pack(name="club2", replace={"69A.agreed": replacement}, add=[exception])
    p = compile_program(RULES, edition="2017", packs=[pack])
    assert p.rule("club2.small_claims").overrides == ("club2.agreed",)
    r = p.run(claim(tricks=1))
    assert r.conclusions["outcome"] == "void_by_club"
    assert ("club2.agreed", "club2.small_claims") in r.suppressed
    assert p.run(claim(tricks=3)).conclusions["outcome"] == "agreed_by_club"


def test_an_override_naming_no_rule_of_the_composed_system_is_an_error_when_the_pack_loads() -> None:
    stray = Rule(name="club3.x", clause="69A", editions=ALL, reason="r", when=(fact("suspended"),),
                 overrides=("69A.agred",), then=lambda ctx, m: None, priority=-5)
    with pytest.raises(RulebookError, match=r"pack 'club3': rule 'club3.x' overrides '69A.agred', which is no rule of "
                                            r"the composed system \(did you mean '69A.agreed'\?\)"):
        compile_program(RULES, edition="2017", packs=[Pack(name="club3", add=[stray])])


def test_two_packs_that_change_the_same_parameter_or_rule_are_an_error_unless_the_later_overrides_the_earlier(
        ) -> None:
    other = Pack(name="other", params={"correction_minutes": 45})
    with pytest.raises(RulebookError, match=r"pack 'other': sets parameter 'correction_minutes' to 45, but pack "
                                            r"'club' set it to 20.*overrides: \[club\]"):
        compile_program(RULES, edition="2017", packs=[CLUB, other])
    again = Pack(name="again", neutralise=["69A.agreed"])
    with pytest.raises(RulebookError, match=r"pack 'again': neutralises rule '69A.agreed', which pack 'club' already "
                                            r"changed"):
        compile_program(RULES, edition="2017", packs=[CLUB, again])
    same = Pack(name="same", params={"correction_minutes": 20})  # the same value is no disagreement
    assert compile_program(RULES, edition="2017", packs=[CLUB, same]).param_pack == {"correction_minutes": "club"}
    later = Pack(name="later", params={"correction_minutes": 45}, overrides=["club"], cites={
        "correction_minutes": "Later rule 2"})
    p = compile_program(RULES, edition="2017", packs=[CLUB, later])
    assert p.params["correction_minutes"] == 45
    assert p.param_pack == {"correction_minutes": "later"}
    assert p.param_cite == {"correction_minutes": "Later rule 2 [pack later]"}


def test_a_pack_loaded_by_path_from_a_directory_outside_the_project_takes_effect(tmp_path: Any) -> None:
    (tmp_path / "strict.yaml").write_text(
        "name: strict\ntitle: Strict club\nsource: house rules\n"
        "params: {correction_minutes: {value: 10, cite: house rule 1}}\n"
        "withdraw: [{rule: D.suspended, cite: house rule 2}]\n")
    p = compile_program(RULES, edition="2017", packs=[str(tmp_path / "strict.yaml")])
    r = p.run(claim())
    assert [s.rule for s in r.trace] == ["A.claim"] and p.params["correction_minutes"] == 10
    assert p.packs == ("strict",)


# ---------------------------------------------------------------------------------------
# Programs and sessions
# ---------------------------------------------------------------------------------------


def test_compiling_the_same_edition_and_packs_twice_reuses_the_program() -> None:
    a = compile_program(RULES, edition="2017", packs=[CLUB])
    b = compile_program(list(RULES), edition="2017", packs=[CLUB])
    assert a is b
    assert compile_program(RULES, edition="2007", packs=[CLUB]) is not a
    assert compile_program(RULES, edition="2017") is not a


def test_two_different_programs_coexist_in_one_process() -> None:
    plain = compile_program(RULES, edition="2017")
    club = compile_program(RULES, edition="2017", packs=[CLUB])
    old = compile_program(RULES, edition="1997")
    assert len({plain.name, club.name, old.name}) == 3
    for _ in range(3):
        assert plain.run(claim()).conclusions["outcome"] == "agreed"
        assert club.run(claim()).conclusions["outcome"] == "agreed_by_club"
        assert old.run(claim()).conclusions["outcome"] == "claim_1997"


def test_each_run_deletes_its_session() -> None:
    p = compile_program(RULES, edition="2017")
    sids = [p.run(claim()).session for _ in range(5)]
    assert len(set(sids)) == 5 and p.live_sessions == 0
    assert not any(p.session_alive(s) for s in sids)


def test_runs_from_several_threads_are_serialised_by_the_process_lock() -> None:
    p = compile_program(RULES, edition="2017")
    outcomes: list[str] = []

    def work() -> None:
        for _ in range(100):
            outcomes.append(p.run(claim()).conclusions["outcome"])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes == ["agreed"] * 400 and p.live_sessions == 0


def test_explain_says_which_pattern_failed_for_a_run() -> None:
    p = compile_program(RULES, edition="2017")
    r = p.run(claim(doubted=True))
    assert p.explain("69A.agreed", r)[2] == ("fact('table', doubted=eq(False)): 1 fact(s) of that kind fail, "
                                             "e.g. doubted=True fails eq(False)")


def _rss_kb() -> int:
    with open(f"/proc/{os.getpid()}/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads RSS from /proc")
def test_ten_thousand_runs_keep_memory_flat() -> None:
    p = compile_program(RULES, edition="2017", packs=[CLUB])
    facts = claim()
    for _ in range(1000):  # warm caches and allocator pools
        p.run(facts)
    gc.collect()
    rss = [_rss_kb()]
    t0 = time.perf_counter()
    firings = 0
    for i in range(10_000):
        r = p.run(facts, context={"case": i})
        firings += len(r.trace)
        if i in (4_999, 9_999):
            rss.append(_rss_kb())
    per_run = (time.perf_counter() - t0) / 10_000
    assert p.live_sessions == 0 and not p.session_alive(r.session) and not p.session_alive("1")
    tracemalloc.start()  # python-level allocations over a shorter loop (tracemalloc is slow)
    snap0 = tracemalloc.take_snapshot()
    for i in range(1_000):
        p.run(facts, context={"case": i})
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    print(f"\n10,000 runs: {per_run * 1e3:.3f} ms/run ({firings // 10_000} traced firings each); "
          f"RSS {rss[1] - rss[0]:+d} KiB over the first 5,000, {rss[2] - rss[1]:+d} KiB over the next 5,000; "
          f"python heap {grown / 1024:+.1f} KiB over 1,000 more")
    assert rss[2] - rss[0] < 4 * 1024, f"RSS grew by {rss[2] - rss[0]} KiB over 10,000 runs"
    assert rss[2] - rss[1] < 1024, f"RSS grew by {rss[2] - rss[1]} KiB over the second 5,000 runs"
    assert grown < 64 * 1024, f"python heap grew by {grown} bytes over 1,000 runs"
