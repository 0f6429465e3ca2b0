"""A ruling never depends on how long the play core takes, and doubt from an unfinished search goes against
the claimer (70A): questions answered outside the rule session, the action-lease guard, Ctrl-C, invariants."""

from __future__ import annotations

import time
from typing import Any

import pytest

from claimlaw.engine import host as host_mod
from claimlaw.engine.api import InvariantError, check_invariants, play_core, rule
from claimlaw.engine.host import RuleError, compile_program
from claimlaw.engine.play import PlayCore
from claimlaw.engine.play import search as search_mod
from claimlaw.facts import Ruling, case_from_dict, load_case
from claimlaw.rules.rulebook import Rule, fact
from tests.conftest import EXAMPLES
from tests.lawmarks import clause


class SlowCore:
    """The play core, its first question delayed past durable_rules' five-second action lease (one is enough: an
    answer given inside an action that outlived the lease would be lost)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls = 0
        self.core = play_core()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.core, name)

        def slowed(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls == 1:
                time.sleep(self.seconds)
            return method(*args, **kwargs)

        return slowed


def _same(a: Ruling, b: Ruling) -> None:
    assert (a.outcome, a.tricks, a.laws, a.summary) == (b.outcome, b.tricks, b.laws, b.summary)
    assert [w.words for w in a.witnesses] == [w.words for w in b.witnesses]


@clause("70A", "70C")
def test_a_play_core_slowed_past_the_action_lease_rules_exactly_as_an_instant_one() -> None:
    case = load_case(EXAMPLES / "4h-forgotten-trump-west.yaml")
    fast = rule(case)
    slow_core = SlowCore(host_mod.ACTION_LEASE_SECONDS + 1.5)
    slow = rule(case, play=slow_core)
    assert slow_core.calls >= 1
    assert fast.outcome == "claim_adjusted" and fast.tricks == {"NS": 9, "EW": 4}
    _same(slow, fast)


def test_an_action_that_outlives_the_lease_guard_fails_the_run_instead_of_losing_its_conclusions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_mod, "ACTION_GUARD_SECONDS", 0.05)

    def slow(ctx: Any, m: Any) -> None:
        time.sleep(0.2)
        ctx.conclude(outcome="late")

    r = Rule(name="T.slow_action_guard", clause="T", editions=("2017", "2007", "1997"), reason="sleeps",
             when=(fact("x"),),
             then=slow)
    program = compile_program([r], edition="2017")
    with pytest.raises(RuleError, match="action lease"):
        program.run([{"kind": "x"}])


@clause("70A")
def test_an_unanswered_question_reruns_the_rules_and_every_run_sees_the_same_answers() -> None:
    from claimlaw.engine.questions import AnswerBook

    case = load_case(EXAMPLES / "4h-forgotten-trump-west.yaml")
    counted = SlowCore(0.0)
    ruling = rule(case, play=counted)
    # 70E1 asks whether a guess is at stake and whether one is in view at the claim; 70C3 compares two counts; 70A
    # reuses one; naming the card that lost the trick asks double dummy at the claim (best play already falls short
    # there, so no more)
    assert counted.calls == 5
    book = AnswerBook(play_core())
    assert book.proven and ruling.proven


@clause("70A")
def test_ctrl_c_during_a_search_rules_on_the_best_line_found_marked_unproven(monkeypatch: pytest.MonkeyPatch) -> None:
    real = search_mod.Searcher.query

    def interrupted(self: Any, root: Any, k: int) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(search_mod.Searcher, "query", interrupted)
    core = PlayCore(budget=None)
    r = rule(load_case(EXAMPLES / "7s-trump-round-both-followed.yaml"), play=core)
    assert r.outcome == "claim_not_established" and r.proven is False and r.tricks is None
    assert r.witnesses and core.stopped
    monkeypatch.setattr(search_mod.Searcher, "query", real)
    core.resume()
    again = rule(load_case(EXAMPLES / "7s-trump-round-both-followed.yaml"), play=core)
    assert again.outcome == "claim_allowed" and again.proven  # the cut-short count was not kept


@clause("71")
def test_a_concession_whose_count_the_budget_left_open_is_not_cancelled() -> None:
    r = rule(load_case(EXAMPLES / "1nt-concession-of-a-trick-that-could-not-be-lost.yaml"), play=PlayCore(budget=1))
    assert r.outcome in ("count_unproven", "concession_cancelled")
    if r.outcome == "count_unproven":
        assert r.tricks is None and not r.proven and "--budget" in r.next_step
    else:  # the count needed no search at all (best play alone settles it): then it is proven
        assert r.proven


def _ruling(**kw: Any) -> Ruling:
    return Ruling(edition="2017", outcome=kw.pop("outcome", "claim_adjusted"), summary="s", **kw)


CASE = {"board": {"contract": "3NT", "declarer": "S"}, "claim": {"by": "S", "says": "claim"}}


def test_a_ruling_whose_tricks_do_not_add_up_to_thirteen_is_an_internal_error() -> None:
    with pytest.raises(InvariantError, match="add up to 13"):
        check_invariants(case_from_dict(CASE), _ruling(tricks={"NS": 9, "EW": 5}))


def test_a_ruling_with_a_negative_trick_count_is_an_internal_error() -> None:
    with pytest.raises(InvariantError, match="negative"):
        check_invariants(case_from_dict(CASE), _ruling(tricks={"NS": 14, "EW": -1}))


def test_a_ruling_giving_a_side_fewer_tricks_than_it_has_won_is_an_internal_error() -> None:
    case = load_case(EXAMPLES / "4h-forgotten-trump-west.yaml")
    won = case.position().won
    ns = won[next(s for s in won if s.value == "NS")]
    with pytest.raises(InvariantError, match="already won"):
        check_invariants(case, _ruling(tricks={"NS": ns - 1, "EW": 14 - ns}))


@clause("70A")
def test_an_unproven_count_can_never_allow_a_claim() -> None:
    with pytest.raises(InvariantError, match="did not prove"):
        check_invariants(case_from_dict(CASE), _ruling(outcome="claim_allowed", proven=False))


def test_a_long_search_says_on_the_terminal_that_it_is_still_going_and_how_to_stop_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from claimlaw.engine.faces.cli import _progress

    monkeypatch.setenv("CLAIMLAW_PROGRESS", "1")
    with _progress(after=0.01, every=0.01):
        time.sleep(0.15)
    text = capsys.readouterr().err
    assert "searching the claimer's normal lines" in text and "Ctrl-C" in text


def test_a_quick_ruling_prints_no_progress(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from claimlaw.engine.faces.cli import _progress

    monkeypatch.setenv("CLAIMLAW_PROGRESS", "1")
    with _progress(after=5.0):
        pass
    assert capsys.readouterr().err == ""
