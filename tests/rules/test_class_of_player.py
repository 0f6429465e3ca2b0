"""The footnote to Laws 70-71: "normal" includes careless or inferior play for the class of player involved. Which
licence covers which class comes from a source (engine/play/normal/licences.py ``classes``; docs/design.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimlaw.engine.api import rule
from claimlaw.engine.faces.cli import app
from claimlaw.engine.packdata import read_data_pack
from claimlaw.engine.play.model import NormalPlayModel
from claimlaw.engine.play.normal.licences import CLASSES, LICENCES
from claimlaw.facts import Seat, case_from_dict
from tests.lawmarks import clause
from tests.rules.helpers import make, ruled

# 3NT by South, South to lead, three tricks left. South's ♣Q is his last club; North holds ♣A-K-3 and no entry
# besides. Overtaking the queen takes all three tricks; following low blocks the clubs and West's ♦A takes one. The
# EBU Club TD course's claims exercise on such a layout (EBU TD forum 2022, "Careless or irrational?"): blocking it
# is beyond careless for an average club player; the course's tutor adds that less experienced players are quite
# capable of merely carelessly blocking it.
BLOCK = {"board": {"position": "N:...AK3 ..KQ.9 ..54.Q ..A.JT", "contract": "3NT", "declarer": "S", "leader": "S",
                   "won": {"NS": 7, "EW": 3}},
         "claim": {"by": "S", "says": "claim", "tricks": 3, "statement": "The rest are mine"},
         "responses": {"W": "disputes"}}


def of_class(cls: str | None, base: dict = BLOCK) -> dict:
    return make(base, findings={"class_of_player": cls} if cls else {})


@clause("70.footnote")
def test_a_beginner_is_deemed_to_block_a_suit_he_should_unblock_where_a_club_player_is_not() -> None:
    beginner, club = ruled(of_class("beginner")), ruled(of_class("club"))
    assert club.outcome == "claim_allowed" and club.tricks == {"NS": 10, "EW": 3}
    assert beginner.outcome == "claim_adjusted" and beginner.tricks == {"NS": 9, "EW": 4}
    assert any((ch.licence, ch.seat, ch.card) == ("blocks_suit", "N", "C3")
               for w in beginner.witnesses for ch in w.choices)


@clause("70.footnote")
@pytest.mark.parametrize("cls", ["expert", "world_class"])
def test_an_expert_or_world_class_claimer_is_not_deemed_to_block_the_suit_either(cls: str) -> None:
    r = ruled(of_class(cls))
    assert r.outcome == "claim_allowed" and r.tricks == {"NS": 10, "EW": 3} and r.class_of_player == cls


@clause("70.footnote")
def test_a_licence_its_sources_give_some_classes_only_is_not_set_for_another_class_and_not_in_its_trace() -> None:
    club = ruled(of_class("club"), verbose=True)
    beginner = ruled(of_class("beginner"), verbose=True)
    assert "guideline.blocks_suit" not in [s.rule for s in club.trace]
    assert "guideline.blocks_suit" in [s.rule for s in beginner.trace]


def test_every_licence_but_the_beginners_block_covers_every_class_as_no_source_distinguishes() -> None:
    restricted = {lic.name: lic.classes for lic in LICENCES if set(lic.classes) != set(CLASSES)}
    assert restricted == {"blocks_suit": ("beginner",)}


def test_the_model_for_a_class_drops_a_licence_not_normal_for_it_whatever_sets_it() -> None:
    m = NormalPlayModel.default(Seat.S).with_switches(blocks_suit=True)
    assert not m.on("blocks_suit")  # the default model is a club player's
    assert m.with_class("beginner").with_switches(blocks_suit=True).on("blocks_suit")
    assert not m.with_class("beginner").with_switches(blocks_suit=True).with_class("expert").on("blocks_suit")


@clause("70.footnote")
def test_a_case_naming_no_class_is_ruled_for_a_club_player_and_the_ruling_says_so() -> None:
    r = ruled(of_class(None))
    assert r.outcome == "claim_allowed"
    assert r.class_of_player == "club" and "default" in r.class_from
    data = r.as_json()
    assert data["class_of_player"] == "club" and data["class_from"] == r.class_from


@clause("70.footnote")
def test_a_case_naming_no_class_is_ruled_for_the_class_its_pack_gives_and_names_the_regulation() -> None:
    pack = read_data_pack({"name": "novices", "params": {"class_of_player": {
        "value": "beginner", "cite": "Novice night regulation 2"}}}, "novices", "test")
    r = rule(case_from_dict(of_class(None)), packs=[pack])
    assert r.class_of_player == "beginner" and "Novice night regulation 2" in r.class_from
    assert r.tricks == {"NS": 9, "EW": 4}
    named = rule(case_from_dict(of_class("club")), packs=[pack])  # the case's own finding wins over the pack
    assert named.class_of_player == "club" and named.tricks == {"NS": 10, "EW": 3}


def test_a_packs_class_of_player_must_be_a_class() -> None:
    from claimlaw.rules.rulebook import PackError

    with pytest.raises(PackError, match=r"params.class_of_player.value: 'novice' is not a class of player"):
        read_data_pack({"name": "p", "params": {"class_of_player": {"value": "novice", "cite": "R1"}}}, "p", "t")


def test_the_cli_names_the_class_it_ruled_for_in_its_default_output_and_its_json(tmp_path: Path) -> None:
    import yaml

    path = tmp_path / "block.yaml"
    path.write_text(yaml.safe_dump(of_class("beginner"), allow_unicode=True), encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["rule", str(path)])
    assert res.exit_code == 0, res.output
    assert "Class of player: beginner (the case's findings)" in res.output
    res = runner.invoke(app, ["rule", str(path), "--json"])
    assert json.loads(res.output)["class_of_player"] == "beginner"


# The same ending, the claim disputed and play continued after it: South led the ♣Q and North followed with the ♣3.
PLAYED = make(BLOCK, responses={"W": "disputes", "play_on": {"requested_by": "W", "all_concurred": False},
                                "play_after_claim": [["CQ", "CJ", "C3", "C9"]]})


@clause("70D3")
def test_play_after_the_claim_that_blocked_the_suit_is_a_line_the_count_takes_in_2007() -> None:
    r = ruled(PLAYED, edition="2007")
    assert r.tricks == {"NS": 9, "EW": 4} and "70D3" in r.laws
    assert any((ch.licence, ch.seat, ch.card) == ("played_after_claim", "N", "C3")
               for w in r.witnesses for ch in w.choices)


@clause("70D3")
def test_play_after_the_claim_no_worse_than_the_normal_lines_changes_nothing_and_leaves_the_chain() -> None:
    good = make(BLOCK, responses={"W": "disputes", "play_on": {"requested_by": "W", "all_concurred": False},
                                  "play_after_claim": [["CQ", "CJ", "CK", "C9"]]})
    r = ruled(good, edition="2007")
    assert r.tricks == {"NS": 10, "EW": 3} and r.outcome == "claim_allowed"
    assert "70D3" not in r.laws and "70D3" in [s.clause for s in r.considered]
