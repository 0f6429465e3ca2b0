"""The vocabulary: cards, contracts, scores, and case-file validation with one-line errors."""

from __future__ import annotations

import json

import pytest

from claimlaw.facts import Card, CaseError, Contract, Seat, Side, Suit, case_from_dict, score
from claimlaw.facts.cards import parse_pbn_deal

SEED_4C = "N:AJT432.2.QT84.T4 87.QJT543.J7.AQ2 K95.K986.AK952.7 Q6.A7.63.KJ98653"
SEED_4C_PLAY = [["D4", "D7", "DA", "D3"], ["DK", "D6", "D8", "DJ"], ["SK", "S6", "S2", "S7"],
                ["S9", "SQ", "SA", "S8"], ["H2", "H3", "HK", "HA"]]


def case(**over: object) -> dict:
    base: dict = {
        "board": {"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": SEED_4C_PLAY},
        "claim": {"by": "W", "says": "claim"},
    }
    for k, v in over.items():
        base[k] = v
    return base


@pytest.mark.parametrize("text,suit,rank", [("S3", Suit.S, 3), ("♠3", Suit.S, 3), ("H10", Suit.H, 10),
                                            ("HT", Suit.H, 10), ("3S", Suit.S, 3), ("♦A", Suit.D, 14)])
def test_a_card_is_read_in_any_of_the_usual_spellings(text: str, suit: Suit, rank: int) -> None:
    c = Card.parse(text)
    assert (c.suit, c.rank) == (suit, rank)


def test_seats_sides_and_partners_follow_the_table() -> None:
    assert Seat.N.partner is Seat.S and Seat.E.next is Seat.S and Seat.W.side is Side.EW
    assert Side.NS.other is Side.EW


@pytest.mark.parametrize("text,level,doubled", [("4S", 4, 0), ("3NTX", 3, 1), ("6HXX", 6, 2), ("4♠", 4, 0)])
def test_a_contract_is_read_with_its_doubling(text: str, level: int, doubled: int) -> None:
    c = Contract.parse(text)
    assert (c.level, c.doubled) == (level, doubled)


@pytest.mark.parametrize("contract,tricks,vul,expected", [
    ("4S", 10, False, 420), ("3NT", 9, True, 600), ("4S", 9, False, -50), ("3NTX", 7, True, -500),
    ("6HXX", 12, False, 1620), ("1NT", 8, False, 120), ("7NT", 13, True, 2220)])
def test_the_score_follows_the_scoring_table(contract: str, tricks: int, vul: bool, expected: int) -> None:
    assert score(Contract.parse(contract), tricks, vul) == expected


def test_the_seed_4c_deal_replays_to_west_on_lead_with_eight_tricks_left() -> None:
    pos = case_from_dict(case()).position()
    assert pos is not None
    assert pos.to_move is Seat.W and pos.tricks_left == 8
    assert pos.won == {Side.NS: 4, Side.EW: 1}


@pytest.mark.parametrize("change,field,words", [
    ({"board": {"deal": SEED_4C.replace("AJT432", "AKJT432"), "contract": "4C", "declarer": "W"}},
     "board.deal", "14 cards"),
    ({"board": {"deal": SEED_4C.replace("87.QJT", "A7.QJT"), "contract": "4C", "declarer": "W"}},
     "board.deal", "twice"),
    ({"board": {"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": [["D4", "D7", "DA", "DQ"]]}},
     "board.play[0][3]", "North"),
    ({"board": {"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": [["D7"]]}},
     "board.play[0][0]", "North's turn"),
    ({"claim": {"by": "X"}}, "claim.by", "seat"),
    ({"board": {"deal": SEED_4C, "contract": "4Q", "declarer": "W"}}, "board.contract", ""),
    ({"edition": "2001"}, "edition", ""),
    ({"claim": {"by": "W", "tricks": 9}}, "claim.tricks", "8"),
])
def test_bad_case_files_get_a_one_line_error_naming_the_field(change: dict, field: str, words: str) -> None:
    with pytest.raises(CaseError) as err:
        case_from_dict(case(**change))
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(field), msg
    assert words in msg


def test_a_revoke_in_the_play_record_is_recorded_not_refused() -> None:
    # West holds D3 but discards a club... use a legal deal where South revokes in spades
    play = [["D4", "D7", "DA", "D3"], ["DK", "D6", "D8", "DJ"], ["SK", "S6", "S2", "C2"]]
    pos = case_from_dict(case(board={"deal": SEED_4C, "contract": "4C", "declarer": "W", "play": play})).position()
    assert pos is not None and len(pos.revokes) == 1
    assert pos.revokes[0].seat is Seat.E


def test_a_claim_diagram_gives_the_position_without_the_earlier_play() -> None:
    c = case_from_dict({
        "board": {"position": "N:.A.KQ. .2.AT. ..J.AK 3..32.", "contract": "3NT", "declarer": "W",
                  "leader": "E", "won": {"NS": 3, "EW": 7}},
        "claim": {"by": "N", "tricks": 2}})
    pos = c.position()
    assert pos is not None and pos.tricks_left == 3 and pos.to_move is Seat.E


def test_a_pbn_deal_is_read_from_any_first_seat() -> None:
    hands = parse_pbn_deal("E:" + " ".join(SEED_4C[2:].split()[1:] + SEED_4C[2:].split()[:1]))
    assert Card.parse("SA") in hands[Seat.N]


def test_a_witness_choice_round_trips_as_json_with_card_seat_trick_and_licence() -> None:
    from claimlaw.facts.ruling import Choice, Witness

    ch = Choice(seat="N", card="DA", trick=4, licence="line", meaning="follows his stated line", source="70D1")
    w = Witness(side="NS", tricks=3, question="worst_normal", choices=[ch])
    data = json.loads(w.model_dump_json())
    assert data["choices"] == [{"seat": "N", "card": "DA", "trick": 4, "licence": "line",
                                "meaning": "follows his stated line", "source": "70D1",
                                "text": "North plays ♦A: follows his stated line (70D1)"}]
    assert Witness.model_validate(data) == w


def test_a_witness_choice_whose_text_disagrees_with_its_fields_is_refused() -> None:
    from pydantic import ValidationError

    from claimlaw.facts.ruling import Choice

    data = {"seat": "S", "card": "CA", "trick": 2, "licence": "discard", "meaning": "discards what he sees as a loser",
            "text": "North plays ♦A: discards what he sees as a loser"}
    with pytest.raises(ValidationError, match="text"):
        Choice.model_validate(data)
    with pytest.raises(ValidationError, match="card"):
        Choice.model_validate({**data, "card": "♣A", "text": "South plays ♣A: discards what he sees as a loser"})


def _diagram_error(position: str, won: dict[str, int] | None, trick: list[str] | None = None) -> str:
    board: dict[str, object] = {"position": position, "leader": "E", "contract": "3NT", "declarer": "S"}
    if won is not None:
        board["won"] = won
    if trick:
        board["trick"] = trick
    with pytest.raises(CaseError) as e:
        case_from_dict({"board": board, "claim": {"by": "S"}}).position()
    return str(e.value)


def test_a_diagram_hand_over_the_count_is_judged_against_the_tricks_left_not_against_north() -> None:
    # North holds a card too many: the message names North, not the three hands that are right
    assert _diagram_error("N:AKQ2... T9.8.. J8.7.. 765...", {"NS": 10, "EW": 0}) == (
        "board.position: North has 4 card(s); with 10 trick(s) won, each hand should have 3")
    # without the tricks won, the count most hands hold
    assert _diagram_error("N:AKQ2... T9.8.. J8.7.. 765...", None) == (
        "board.position: North has 4 card(s); as most hands hold, each hand should have 3")


def test_hands_that_agree_leave_a_wrong_count_of_tricks_won_to_the_board_won_field() -> None:
    assert _diagram_error("N:AKQ... T9.8.. J8.7.. 765...", {"NS": 7, "EW": 4}).startswith("board.won:")


def test_a_hand_that_played_to_the_trick_in_progress_is_counted_with_its_card() -> None:
    # East led D2 to the trick: East holds one card fewer, and is right; South is short
    assert _diagram_error("N:AKQ... T9... J8... 765...", {"NS": 10, "EW": 0}, ["D2"]) == (
        "board.position: South has 2 card(s); with 10 trick(s) won, each hand should have 3 "
        "(2 after playing to the trick in progress)")
