"""Hand records read into cases: BBO LIN (vugraph and handviewer) and PBN, with problems reported.

The fixtures are small files copied from ../shared/data/bbo-vugraph (or cut from them):
``reisinger-42365.lin`` and ``three-hands-42519.lin`` whole; ``no-deal-45181.lin`` (board 9) and
``bad-play-45577.lin`` (board 22) cut to one board; ``empty-md-42409.lin`` is board 1 of 42409
with the closed room's ``md`` emptied; ``handviewer-42409.lin`` is the same board's open room as
a single-board handviewer record with three names and one hand left out; ``claims.pbn`` holds
boards 1 (both rooms) of 42409 and 24 (open) of 42365 written as PBN.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from claimlaw.engine.readers.records import (
    ClaimRecord,
    ReadProblem,
    ReadReport,
    parse_result_code,
    read_file,
    read_records,
)
from claimlaw.engine.readers.records.lin import contract_from_auction, lin_deal, read_lin, split_records
from claimlaw.engine.readers.records.pbn import linear_play, play_tokens, read_pbn
from claimlaw.facts.cards import Card, Seat, Side, parse_pbn_deal
from claimlaw.facts.case import Case

FIX = Path(__file__).parent / "fixtures"


def claims(path: Path) -> list[ClaimRecord]:
    return [r for r in read_records([path]) if isinstance(r, ClaimRecord)]


def problems(path: Path) -> list[ReadProblem]:
    return [r for r in read_records([path]) if isinstance(r, ReadProblem)]


def by_board(path: Path, board: str, room: str | None) -> ClaimRecord:
    return next(r for r in claims(path) if r.board == board and r.room == room)


# -- LIN: vugraph files ------------------------------------------------------------------------

def test_a_vugraph_file_gives_every_claim_of_both_rooms_as_a_validated_case() -> None:
    recs = claims(FIX / "reisinger-42365.lin")
    assert [(r.board, r.room) for r in recs] == [("22", "open"), ("22", "closed"), ("23", "open"), ("23", "closed"),
                                                ("24", "open"), ("24", "closed")]
    assert all(isinstance(r.case, Case) and r.case.position() is not None for r in recs)
    assert all(r.format == "lin" and r.event.startswith("E 2015 Reisinger Final") for r in recs)


def test_the_claim_total_is_declarers_sides_tricks_for_the_whole_board() -> None:
    r = by_board(FIX / "reisinger-42365.lin", "22", "open")  # 3C by N, rs 3CN-3: six tricks
    assert (str(r.contract), r.declarer) == ("3C", Seat.N)
    assert r.claimed_total == 6 == r.result_total and not r.disagrees
    assert r.claimed_remaining == r.claimed_total - r.won_before[Side.NS]
    assert r.case.claim.tricks == r.claimed_remaining


def test_a_claim_the_result_line_contradicts_is_reported_with_both_totals() -> None:
    r = by_board(FIX / "reisinger-42365.lin", "24", "open")  # mc|10| but rs 2HW= (8 tricks)
    assert (r.claimed_total, r.result_total, r.disagrees) == (10, 8, True)
    assert "10" in r.disagreement and "2HW=" in r.disagreement
    assert r.case.claim.tricks == 10 - r.won_before[Side.EW]  # the claim is kept as recorded, not replaced


def test_a_claim_in_the_middle_of_a_trick_keeps_the_trick_in_progress() -> None:
    r = by_board(FIX / "empty-md-42409.lin", "1", "open")  # pc|h7|mc|7|
    assert r.case.board is not None and r.case.board.play[-1] == [Card.parse("H7")]
    pos = r.case.position()
    assert pos is not None and pos.trick == [Card.parse("H7")] and r.remaining == 5


def test_an_empty_md_in_the_closed_room_takes_the_open_rooms_deal() -> None:
    o = by_board(FIX / "empty-md-42409.lin", "1", "open")
    c = by_board(FIX / "empty-md-42409.lin", "1", "closed")
    assert c.case.board is not None and o.case.board is not None
    assert c.case.board.deal == o.case.board.deal
    assert any("other room" in n for n in c.notes)


def test_a_deal_with_one_hand_left_out_gets_the_fourth_from_the_other_three() -> None:
    recs = claims(FIX / "three-hands-42519.lin")
    assert [(r.board, r.room) for r in recs] == [("13", "closed"), ("14", "open"), ("15", "closed")]
    assert lin_deal(["SAQ63H8432DT84C72", "S9842HQ975DK732CT", "SKT5HKJTDJ5CAKJ83"]) == \
        lin_deal(["SAQ63H8432DT84C72", "S9842HQ975DK732CT", "SKT5HKJTDJ5CAKJ83", ""])
    hands = parse_pbn_deal(recs[0].case.board.deal)  # type: ignore[union-attr]
    assert all(len(h) == 13 for h in hands.values())


def test_boards_without_a_claim_are_counted_not_returned() -> None:
    report = ReadReport()
    list(read_records([FIX / "three-hands-42519.lin"], report=report))
    assert (report.boards, report.claims, report.not_played) == (5, 3, 1)  # board 13 open is passed out
    assert report.played_out == 1


def test_names_come_from_the_right_room_of_an_eight_name_pn() -> None:
    o = by_board(FIX / "empty-md-42409.lin", "1", "open")
    c = by_board(FIX / "empty-md-42409.lin", "1", "closed")
    assert o.players[Seat.S] == "Beauchamp" and c.players[Seat.S] == "Brown" and c.players[Seat.E] == "Hoogervors"


def test_lin_records_say_the_claimer_is_unknown_and_name_declarer_as_an_assumption() -> None:
    r = by_board(FIX / "empty-md-42409.lin", "1", "closed")
    assert not r.claimer_known and r.case.claim.by == r.declarer and "does not say who claimed" in r.claimer_note


def test_the_same_claim_can_be_put_in_a_defenders_mouth() -> None:
    r = by_board(FIX / "reisinger-42365.lin", "24", "open")
    defender = r.declarer.next
    case = r.case_for(defender)
    assert case.claim.by == defender and case.claim.tricks == r.remaining - r.claimed_remaining


# -- LIN: handviewer records and odd headers ------------------------------------------------------

def test_a_single_board_handviewer_record_with_three_names_reads() -> None:
    r = claims(FIX / "handviewer-42409.lin")
    assert len(r) == 1 and r[0].board == "1" and r[0].room is None and r[0].result_total is None
    assert r[0].players == {Seat.S: "Beauchamp", Seat.W: "Klinger", Seat.N: "Hans"}
    o = by_board(FIX / "empty-md-42409.lin", "1", "open")
    assert r[0].case.board == o.case.board


def test_a_pn_with_more_than_four_names_does_not_stop_a_handviewer_record() -> None:
    text = (FIX / "handviewer-42409.lin").read_text().replace("pn|Beauchamp,Klinger,Hans|", "pn|a,b,c,d,e,f,g|")
    (rec,) = read_lin(text, "inline")
    assert isinstance(rec, ClaimRecord) and rec.players[Seat.E] == "d"


def test_a_record_that_stops_early_without_a_claim_is_counted_as_unfinished() -> None:
    text = "pn|a,b,c,d|md|3SAQ63H8432DT84C72,S9842HQ975DK732CT,SKT5HKJTDJ5CAKJ83,|sv|o|mb|1N|mb|p|mb|p|mb|p|pc|c5|"
    report = ReadReport()
    assert read_lin(text, "inline", report) == [] and report.unfinished == 1


# -- problems ------------------------------------------------------------------------------------

def test_a_board_whose_md_is_empty_in_both_rooms_is_a_no_deal_problem() -> None:
    (p,) = problems(FIX / "no-deal-45181.lin")
    assert (p.board, p.room, p.kind) == ("9", "closed", "no-deal") and "md is empty" in p.reason


def test_a_play_that_does_not_fit_the_deal_is_a_bad_play_problem_naming_the_card() -> None:
    (p,) = problems(FIX / "bad-play-45577.lin")
    assert p.kind == "bad-play" and "♠5" in p.reason and "does not fit the deal" in p.reason


@pytest.mark.parametrize("text,kind", [
    ("qx|o1|md|3SAQ63H8432DT84C72,S9842HQ975DK732CT,SKT5HKJTDJ5CAKJ83,|sv|o|mb|1N|mb|p|pc|c5|mc|7|", "no-contract"),
    ("qx|o1|md|3SAQ63H8432DT84C72,S9842HQ975DK732CT,SKT5HKJTDJ5CAKJ83,|sv|o|mb|1N|mb|p|mb|p|mb|p|pc|c5|mc|14|",
     "bad-claim"),
    ("qx|o1|md|3SAQ63H8432DT84C72,S9842HQ975DK732CT,,|sv|o|mb|1N|mb|p|mb|p|mb|p|pc|c5|mc|7|", "bad-deal"),
    ("qx|o1|md|3SAQ63H8432DT84C72,S9842HQ975DK732CT,SKT5HKJTDJ5CAKJ83,|sv|o|mb|1N|mb|p|mb|p|mb|p|pc|zz|mc|7|",
     "bad-play"),
    ("qx|o1|md|3SAQ63H8432DT84C72,S9842HQ975DK732CT,SKT5HKJTDJ5CAKJ83,|sv|o|mb|1N|mb|p|mb|p|mb|p|pc|c5|mc|x|",
     "bad-claim"),
])
def test_each_unreadable_claim_record_gets_a_kind_and_a_reason(text: str, kind: str) -> None:
    (p,) = read_lin(text, "inline")
    assert isinstance(p, ReadProblem) and p.kind == kind and p.reason and str(p).startswith("inline board 1")


def test_a_missing_file_or_a_file_of_noise_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    junk = tmp_path / "junk.lin"
    junk.write_bytes(b"\xff\xfe|||mc|9|pc|zz|qx|c|md|9|")
    items = list(read_records([tmp_path / "missing.lin", junk, FIX / "three-hands-42519.lin"]))
    kinds = [i.kind for i in items if isinstance(i, ReadProblem)]
    assert kinds[0] == "bad-file" and len([i for i in items if isinstance(i, ClaimRecord)]) == 3


# -- pieces ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("calls,dealer,expected", [
    (["1N", "p", "p", "p"], Seat.N, ("1NT", Seat.N)),
    (["p", "1S", "p", "2S", "p", "4S", "d", "p", "p", "p"], Seat.N, ("4SX", Seat.E)),
    (["1H!", "p", "1S", "p", "2H", "p", "4H", "p", "p", "r", "p", "p", "p"], Seat.S, ("4HXX", Seat.S)),
])
def test_the_auction_gives_the_contract_and_the_first_of_the_side_to_name_the_strain(
        calls: list[str], dealer: Seat, expected: tuple[str, Seat]) -> None:
    got = contract_from_auction(calls, dealer)
    assert got is not None and (str(got[0]), got[1]) == expected


def test_a_passed_out_auction_has_no_contract() -> None:
    assert contract_from_auction(["p", "p", "p", "p"], Seat.W) is None


@pytest.mark.parametrize("code,expected", [("4SN-1", ("4S", Seat.N, 9)), ("3NS=", ("3NT", Seat.S, 9)),
                                           ("1HEx-2", ("1HX", Seat.E, 5)), ("6NTW+1", ("6NT", Seat.W, 13))])
def test_a_result_code_gives_contract_declarer_and_tricks(code: str, expected: tuple[str, Seat, int]) -> None:
    got = parse_result_code(code)
    assert got is not None and (str(got[0]), got[1], got[2]) == expected
    assert parse_result_code("PASS") is None and parse_result_code("") is None


def test_records_split_at_qx_and_keep_comments() -> None:
    lf = split_records((FIX / "empty-md-42409.lin").read_text())
    assert [(r.board, r.room) for r in lf.records] == [("1", "open"), ("1", "closed")]
    assert lf.records[0].comments == ["vugrapha1: We have restarted early here."]
    assert lf.records[1].hands is None and lf.first_board == 1


# -- PBN -------------------------------------------------------------------------------------------

def test_a_pbn_claim_gives_the_same_case_as_the_lin_record_it_came_from() -> None:
    pbn = by_board(FIX / "claims.pbn", "1", "open")
    lin = by_board(FIX / "empty-md-42409.lin", "1", "open")
    assert pbn.format == "pbn" and pbn.case.board == lin.case.board
    assert (pbn.claimed_total, pbn.remaining, pbn.won_before) == (lin.claimed_total, lin.remaining, lin.won_before)


def test_the_pbn_score_tag_is_the_result_the_claim_is_checked_against() -> None:
    agree = by_board(FIX / "claims.pbn", "1", "closed")  # Result 8, Score NS 120
    differ = by_board(FIX / "claims.pbn", "24", "open")  # Result 10, Score EW 110 (2H=)
    assert (agree.result_total, agree.disagrees) == (8, False)
    assert (differ.claimed_total, differ.result_total, differ.disagrees) == (10, 8, True)
    assert "Score" in differ.disagreement
    assert by_board(FIX / "claims.pbn", "1", "open").result_total is None  # no Score tag: nothing to check


def test_the_pbn_play_section_is_in_seat_columns_and_is_put_in_the_order_played() -> None:
    # columns E S W N; North wins trick 1 with the ♣J and leads trick 2; South wins it and leads trick 3
    table, claimed = play_tokens("C5 C7 CT CJ S7 SQ S4 S5 - H7 - - *".split())
    tricks = linear_play(table, Seat.E, None)
    assert claimed and tricks[1] == [Card.parse(c) for c in ("S5", "S7", "SQ", "S4")]
    assert tricks[2] == [Card.parse("H7")]


def test_a_pbn_game_without_a_star_is_no_claim_and_a_dash_hand_is_derived() -> None:
    text = ('[Board "3"]\n[Deal "N:KT5.KJT.J5.AKJ83 J7.A6.AQ96.Q9654 AQ63.8432.T84.72 -"]\n[Contract "1NT"]\n'
            '[Declarer "N"]\n[Result "7"]\n[Play "E"]\nC5 C7 CT CJ\n\n'
            '[Board "4"]\n[Deal "#"]\n[Contract "1NT"]\n[Declarer "N"]\n[Result "7"]\n[Play "E"]\nC5 C7 CT CJ\n*\n')
    report = ReadReport()
    items = read_pbn(text, "inline", report)
    assert report.unfinished == 1 and len(items) == 1
    rec = items[0]
    assert isinstance(rec, ClaimRecord) and rec.board == "4"
    assert rec.case.board is not None and rec.case.board.deal.endswith("9842.Q975.K732.T")  # type: ignore[union-attr]


def test_a_pbn_claim_without_a_result_is_a_problem() -> None:
    text = ('[Board "5"]\n[Deal "N:KT5.KJT.J5.AKJ83 J7.A6.AQ96.Q9654 AQ63.8432.T84.72 9842.Q975.K732.T"]\n'
            '[Contract "1NT"]\n[Declarer "N"]\n[Play "E"]\nC5 C7 CT CJ\n*\n')
    (p,) = read_pbn(text, "inline")
    assert isinstance(p, ReadProblem) and p.kind == "bad-claim" and "Result" in p.reason


def test_read_file_tells_lin_from_pbn_by_suffix_and_counts_files() -> None:
    report = ReadReport()
    items = list(read_file(FIX / "claims.pbn", report)) + list(read_file(FIX / "handviewer-42409.lin", report))
    assert report.files == 2 and report.claims == len(items) == 4
    assert "claims read 4" in report.summary()


def test_a_claim_record_flattens_to_a_row_for_tables() -> None:
    row = by_board(FIX / "reisinger-42365.lin", "24", "open").to_dict()
    assert row["contract"] == "2H" and row["declarer"] == "W" and row["disagrees"] is True
    assert row["claimed_remaining"] + row["won_EW"] == row["claimed_total"]
