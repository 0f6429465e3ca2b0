"""The seams between the play core, the engine and the faces carry data, not text (issue 41 item 5): the witness's
choices are typed, a ruling's play core is a PlayCore or None, and a search stops through its cancel token."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import Any

import pytest

from claimlaw.engine.api import play_core, rule
from claimlaw.engine.faces.web.rulings import Stopper
from claimlaw.engine.play import PlayCore
from claimlaw.engine.play import search as search_mod
from claimlaw.facts import Choice, Witness, load_case
from tests.lawmarks import clause

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OURS = [p for d in ("engine", "facts", "rules") for p in (ROOT / d).rglob("*.py")]


def test_no_module_of_ours_parses_witness_text_back() -> None:
    offenders = []
    for p in OURS:
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if "parsed_choices" in line or (re.search(r"\bre\.\w+\(", line)
                                            and re.search(r"\.(words|choices|summary|why)\b", line)):
                offenders.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, offenders


def test_no_module_of_ours_stops_a_thread_by_injecting_an_exception() -> None:
    assert not [p for p in OURS if "SetAsyncExc" in p.read_text(encoding="utf-8")]


def test_an_adjusted_claims_witness_names_each_chosen_card_with_its_seat_trick_and_licence() -> None:
    r = rule(load_case(EXAMPLES / "3nt-three-discards-forgotten-jack.yaml"))
    w = r.witnesses[0]
    assert w.choices and all(isinstance(ch, Choice) for ch in w.choices)
    played = {c: i for i, trick in enumerate(w.tricks_played) for c in trick}
    first = 14 - sum(len(t) for t in w.tricks_played) // 4  # the board's trick of the line's first full trick
    for ch in w.choices:
        assert ch.card in played and ch.licence and ch.meaning
        assert ch.trick == first + played[ch.card]
        assert ch.text in w.words  # the Director's sentence is rendered from the same data
    assert len(w.winners) == len(w.tricks_played) and w.winners[:-1] == w.leaders[1:]
    back = Witness.model_validate(json.loads(json.dumps(r.as_json()["witnesses"][0])))
    assert back == w


def test_rule_with_no_play_core_named_and_with_a_play_core_of_its_own_agree() -> None:
    case = load_case(EXAMPLES / "3nt-three-discards-forgotten-jack.yaml")
    assert rule(case).as_json() == rule(case, play=PlayCore()).as_json() == rule(case, play=None).as_json()
    assert play_core() is play_core(None) and play_core(5000) is play_core(5000)
    assert play_core(5000, fresh=True) is not play_core(5000)


@clause("70A")
def test_a_set_cancel_token_ends_the_search_with_its_best_line_marked_unproven(monkeypatch: pytest.MonkeyPatch) -> None:
    core = PlayCore(budget=None)
    real = search_mod.Searcher.query

    def stopped_as_it_starts(self: Any, root: Any, k: int) -> Any:
        core.stop()  # as the web worker's signal handler does: it sets the token and raises nothing
        return real(self, root, k)

    monkeypatch.setattr(search_mod.Searcher, "query", stopped_as_it_starts)
    case = load_case(EXAMPLES / "7s-trump-round-both-followed.yaml")
    r = rule(case, play=core)
    assert r.outcome == "claim_not_established" and r.proven is False and r.witnesses and core.stopped
    monkeypatch.setattr(search_mod.Searcher, "query", real)
    core.resume()
    again = rule(case, play=core)
    assert again.outcome == "claim_allowed" and again.proven


def test_the_web_workers_stop_sets_the_play_cores_token_and_raises_nothing() -> None:
    class Seq:
        value = 0

    seq, sent = Seq(), []
    stopper = Stopper(seq, sent.append)
    stopper.begin(7)
    core = stopper.attach(PlayCore(budget=None))
    seq.value = 6  # a stop meant for an earlier ruling is ignored
    stopper.on_signal(signal.SIGINT, None)
    assert not core.stopped
    seq.value = 7
    assert stopper.on_signal(signal.SIGINT, None) is None and core.stopped
    late = stopper.attach(PlayCore(budget=None))  # a core taken after the stop starts stopped
    assert late.stopped


def test_the_editions_the_seat_names_and_the_correction_period_are_written_once_in_facts() -> None:
    home = {ROOT / "facts" / "case.py", ROOT / "facts" / "cards.py"}
    written = re.compile(r'"2017", "2007", "1997"|"N": "North"|"NS": "North-South"|"correction_minutes": 30'
                         r'|\b30(\.0)? ?(minutes|# Law 79C)')
    again = [f"{p.relative_to(ROOT)}:{n}" for p in OURS if p not in home
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if written.search(line)]
    assert not again, again
