"""The table of licences (engine/play/normal/licences.py) is the one list: everything else that names a licence is
written or read from it."""

from __future__ import annotations

from pathlib import Path

from claimlaw.engine.play.model import DEFAULT_SWITCHES, GUIDELINES, NormalPlayModel
from claimlaw.engine.play.normal.generate import DESIGN, HEADER, doc_table, header, with_doc_table
from claimlaw.engine.play.normal.licences import BY_NAME, CLASSES, LICENCES, UNAWARE_SHIFT, licence_text, solver_flags
from claimlaw.facts import Seat
from claimlaw.rules.normal_play import GUIDELINES as GUIDELINE_RULES

ROOT = Path(__file__).resolve().parents[2]


def test_our_solvers_header_is_the_one_written_from_the_table() -> None:
    assert HEADER.read_text() == header(), ("engine/play/_licences.h is stale: run "
                                            "python -m claimlaw.engine.play.normal.generate --header and rebuild")


def test_our_solver_reads_its_licence_bits_from_the_header_alone() -> None:
    code = (ROOT / "engine" / "play" / "_endings.c").read_text()
    assert '#include "_licences.h"' in code
    for lic in LICENCES:
        if lic.bit is not None:
            assert f"LIC_{lic.name.upper()}" in code, f"our solver does not read {lic.name}'s bit"


def test_the_design_docs_table_of_licences_is_the_one_written_from_the_table() -> None:
    text = DESIGN.read_text()
    assert doc_table() in text
    assert with_doc_table(text) == text, ("docs/design.md's table is stale: run "
                                          "python -m claimlaw.engine.play.normal.generate --doc")


def test_every_licence_names_its_meaning_source_clause_and_classes_once() -> None:
    assert len(BY_NAME) == len(LICENCES)
    bits = [lic.bit for lic in LICENCES if lic.bit is not None]
    assert len(bits) == len(set(bits)) and all(0 <= b < 8 or UNAWARE_SHIFT <= b < 31 for b in bits)
    for lic in LICENCES:
        assert lic.meaning and lic.clause and lic.classes
        assert set(lic.classes) <= set(CLASSES)
        assert lic.source or not lic.switch, f"{lic.name}: a switch names its source"


def test_the_models_switches_and_defaults_come_from_the_table() -> None:
    assert set(GUIDELINES) == {lic.name for lic in LICENCES if lic.switch}
    assert DEFAULT_SWITCHES == {lic.name for lic in LICENCES if lic.default}
    assert NormalPlayModel.default(Seat.S).switches == DEFAULT_SWITCHES


def test_each_general_guideline_rule_cites_the_tables_reason_and_source() -> None:
    by_rule = {r.name: r for r in GUIDELINE_RULES}
    general = [lic for lic in LICENCES if lic.rule is not None]
    assert len(by_rule) == 2 * len(general)
    for lic in general:
        for name in (f"guideline.{lic.name}", f"guideline.{lic.name}.71"):
            assert by_rule[name].source == lic.source and by_rule[name].reason == lic.rule


def test_a_witness_label_is_the_tables_meaning_and_source() -> None:
    assert licence_text("ruff_low") == "ruffs as low as possible (ACBL LC 2019 #5; EBU claims notes)"
    assert licence_text("discard") == "discards what he sees as a loser"
    assert licence_text("line") == "follows his stated line (70D1)"


def test_our_solvers_flags_set_the_bit_of_each_licence_it_reads_and_no_other() -> None:
    assert solver_flags(["any_suit_order", "ruff_low", "unaware_trump"]) == 1 | 1 << 4
    assert solver_flags([], seen=0b0101, conceded=20) == 0b0101 << 8 | 15 << 12


def test_a_licence_our_solver_does_not_read_leaves_the_question_to_the_python_search(monkeypatch) -> None:
    """A new licence with no bit (and not marked as changing nothing there) is answered by the Python search alone:
    adding one needs no C to keep the counts right."""
    import claimlaw.engine.play.normal.licences as table
    from claimlaw.engine.play.native import licence_floor_sound, sees_all, whole_applies
    from claimlaw.engine.play.normal.node import Node

    new = table.Licence("a_new_guideline", "plays a new normal card", "a source", "70.footnote")
    monkeypatch.setitem(table.BY_NAME, new.name, new)
    model = NormalPlayModel.default(Seat.S)
    root = Node(hands=(frozenset(),) * 4, leader=Seat.S, trick=(), unaware=frozenset(), last_led=None,
                voids=frozenset())
    assert sees_all(root, model) and whole_applies(root, model) and licence_floor_sound(root, model)
    model = model.__class__(Seat.S, switches=model.switches | {new.name})
    assert not sees_all(root, model) and not whole_applies(root, model) and not licence_floor_sound(root, model)
    assert solver_flags([new.name]) == 0
