"""Statements as lines (issue 26 item 5): the phrasings of the seed notes and of the published rulings."""

from __future__ import annotations

import pytest

from claimlaw.engine.readers.statement import parse_statement
from claimlaw.facts import Line
from claimlaw.facts.cards import Card, Seat, Suit
from tests.lawmarks import clause

S, H, D, C = Suit.S, Suit.H, Suit.D, Suit.C


def test_discard_x_on_the_ys_cashes_the_ys_and_then_discards_x() -> None:
    p = parse_statement("I'll pitch my spade loser on the top hearts", trump=C, claimer=Seat.S)
    assert [(s.action, s.suit) for s in p.line.steps] == [("cash", H), ("discard", S)]
    assert not p.unparsed and not p.mentions_trumps


def test_discarding_on_trumps_named_as_the_winners_mentions_the_trumps() -> None:
    p = parse_statement("discard a diamond on the trumps", trump=S)
    assert [(s.action, s.suit) for s in p.line.steps] == [("cash", S), ("discard", D)]
    assert p.mentions_trumps


def test_on_which_i_discard_puts_the_named_card_of_dummy_on_the_cards_just_played() -> None:
    text = ("I play the ace and king of hearts, on which I discard dummy's five of spades, and then I play the "
            "jack of diamonds and you get one more trick.")
    p = parse_statement(text, trump=C, claimer=Seat.S)
    got = [(s.action, s.cards, s.hand) for s in p.line.steps]
    assert got == [("play", [Card(H, 14), Card(H, 13)], None), ("discard", [Card(S, 5)], Seat.N),
                   ("play", [Card(D, 11)], None), ("concede", [], None)]
    assert p.line.ordered and not p.unparsed


@pytest.mark.parametrize("text", ["a heart to the king and ace", "play a heart to the king and the ace",
                                  "lead a heart towards the king and ace"])
def test_honours_named_without_a_suit_take_the_suit_named_next_to_them(text: str) -> None:
    p = parse_statement(text, trump=S)
    assert [(s.action, s.suit, s.cards, s.count) for s in p.line.steps] == [
        ("cash", H, [Card(H, 13), Card(H, 14)], 2)]
    assert not p.unparsed


def test_an_honour_after_a_card_of_a_suit_is_of_that_suit() -> None:
    p = parse_statement("cash the ace of clubs and the king", trump=S)
    assert p.line.steps[0].cards == [Card(C, 14), Card(C, 13)] and not p.unparsed


def test_the_five_of_spades_after_a_determiner_is_a_card_and_without_one_a_count() -> None:
    assert parse_statement("discard dummy's five of spades").line.steps[0].cards == [Card(S, 5)]
    assert parse_statement("discard the two of clubs").line.steps[0].cards == [Card(C, 2)]
    counted = parse_statement("cash five of the spades").line.steps[0]
    assert (counted.count, counted.cards) == (5, [])


@pytest.mark.parametrize("text", ["take the ruffing finesse against the king of clubs",
                                  "ruffing finesse in clubs against the king", "I'll run a ruffing finesse in clubs"])
def test_a_ruffing_finesse_is_one_step_through_the_opponent_placed_with_the_honour(text: str) -> None:
    p = parse_statement(text, trump=S)
    (step,) = p.line.steps
    assert (step.action, step.suit) == ("ruffing_finesse", C)
    assert step.card in (None, Card(C, 13)) and not p.unparsed


@pytest.mark.parametrize("text", ["if trumps are 3-1 I ruff a club", "if trumps are 3-1, I will ruff a club",
                                  "I ruff a club if the trumps are 3-1", "if the trumps break 3-1 then I ruff a club"])
def test_if_trumps_are_3_1_gives_a_step_that_applies_only_under_that_condition(text: str) -> None:
    p = parse_statement(text, trump=S)
    (step,) = p.line.steps
    assert (step.action, step.suit) == ("ruff", C)
    assert step.condition is not None and (step.condition.suit, step.condition.lengths) == (S, [3, 1])
    assert p.mentions_trumps and not p.line.ordered and not p.unparsed


def test_a_condition_on_a_side_suit_does_not_mention_the_trumps() -> None:
    p = parse_statement("if spades are 4-1 I concede a spade", trump=H)
    assert p.line.steps[0].condition.suit == S and not p.mentions_trumps


@pytest.mark.parametrize("text", ["I cash the ace and king of clubs; if they are 4-1 I ruff a diamond",
                                  "the ♣A and ♣K, and if they break 4-1 I ruff a diamond"])
def test_a_split_said_of_they_is_the_split_of_the_suit_named_last_before_it(text: str) -> None:
    """St Petersburg 2000 (blakjak): "if they are 4-1" after the clubs are named is a condition on the clubs."""
    p = parse_statement(text, trump=H)
    (step,) = [st for st in p.line.steps if st.condition is not None]
    assert (step.action, step.suit) == ("ruff", D)
    assert (step.condition.suit, step.condition.lengths) == (C, [4, 1])


def test_a_conditional_line_survives_the_case_file_round_trip() -> None:
    line = parse_statement("if trumps are 3-1 I ruff a club", trump=S).line
    again = Line.model_validate_json(line.model_dump_json())
    assert again == line and again.steps[0].condition.lengths == [3, 1]


def test_cross_to_dummy_with_a_heart_is_a_crossing_in_hearts_to_dummy() -> None:
    p = parse_statement("cross to dummy with a heart", trump=S, claimer=Seat.S)
    assert [(s.action, s.suit, s.hand) for s in p.line.steps] == [("cross", H, Seat.N)] and not p.unparsed


def test_draw_trumps_then_a_count_keeps_the_order_but_a_bare_count_is_no_order() -> None:
    ordered = parse_statement("draw trumps, then cash the hearts", trump=S)
    assert [s.action for s in ordered.line.steps] == ["draw_trumps", "cash"] and ordered.line.ordered
    count = parse_statement("six diamonds, five spades and two clubs")
    assert count.count_only and not count.line.ordered
    assert [(s.suit, s.count) for s in count.line.steps] == [(D, 6), (S, 5), (C, 2)]


@pytest.mark.parametrize("text, trump", [
    ("There is nothing more to play for.", S),  # DBf 15-MAK-6
    ("The last two tricks to me.", None),  # EBU National Pairs (BBO forums)
    ("I will make the king and queen of hearts and the ten of clubs.", H),  # NBB Delft
    ("6 diamonds, 5 spades and 2 clubs", None),  # EBU Appeal Focus 2011
    ("I will discard my losing club on the high diamonds.", S),  # Rotem 2013
    ("All mine", S),  # EBU White Book 8.70.4 (b)
    ("I have the top three trumps", S),  # EBU TDs forum
    ("If the spades are 4-1 I'll take the ruffing finesse in hearts again.", D),  # USBF 2019 Mixed USBC
])
def test_every_statement_of_the_published_cases_and_seed_notes_is_read_without_unread_words(
        text: str, trump: Suit | None) -> None:
    assert parse_statement(text, trump=trump, claimer=Seat.S).unparsed == []


@clause("70D1")
def test_a_bare_count_by_suit_binds_the_claimer_to_no_line_but_an_ordered_statement_does() -> None:
    """EBU Appeal Focus 2011: '6 diamonds, 5 spades and 2 clubs' is a count of tricks, not a line or an order."""
    from pathlib import Path

    from claimlaw.engine.readers.facts_in import stated_line
    from claimlaw.facts import load_case

    case = load_case(Path(__file__).resolve().parents[2] / "examples" / "7nt-spade-guess.yaml")
    count = case.model_copy(update={"claim": case.claim.model_copy(
        update={"statement": "6 diamonds, 5 spades and 2 clubs", "line": None})})
    order = case.model_copy(update={"claim": case.claim.model_copy(
        update={"statement": "6 diamonds, then 5 spades and 2 clubs", "line": None})})
    assert stated_line(count)[0] is None
    line = stated_line(order)[0]
    assert line is not None and line.ordered and [s.suit for s in line.steps] == [Suit.D, Suit.S, Suit.C]


@clause("68C", "70D1")
def test_a_crossing_with_a_named_card_after_an_earlier_play_puts_the_plays_in_the_order_named() -> None:
    """St Petersburg 2000 (blakjak): 'the club queen, a club to the ace and the king of clubs' is a plan played in
    that order (the crossing says where the lead is when it comes); a list of tricks per suit stays a count (EBU
    TD notes: 'four hearts, three spades and a diamond' does not fix an order)."""
    plan = parse_statement("I shall play the club queen, a club to the ace and the king of clubs", trump=H)
    assert [s.text for s in plan.line.steps] == ["the ♣Q", "a club to ♣A", "the ♣K"] and plan.line.ordered
    count = parse_statement("four hearts, three spades and a diamond", trump=C)
    assert not count.line.ordered and count.count_only
    alone = parse_statement("a heart to the king and ace", trump=S)
    assert not alone.line.ordered  # a crossing with nothing before it orders nothing


# -- a Director's words (issue 42 item 7): each general rule once, by itself ------------------------------------

@pytest.mark.parametrize("text, want", [
    ("on the high diamonds I discard my losing club", [("cash", D, None), ("discard", C, None)]),
    ("in dummy I ruff a club", [("ruff", C, Seat.N)]),
    ("dummy ruffs a club", [("ruff", C, Seat.N)]),
])
def test_a_phrase_or_hand_put_before_the_verb_is_read_with_the_verb(text: str, want: list[tuple]) -> None:
    p = parse_statement(text, trump=S, claimer=Seat.S)
    assert [(s.action, s.suit, s.hand) for s in p.line.steps] == want and not p.unparsed


@pytest.mark.parametrize("text", ["should the clubs be 4-1 I ruff a diamond", "clubs 4-1, I ruff a diamond",
                                  "if they split 4-1 I ruff a diamond", "I ruff a diamond if clubs break 4-1"])
def test_a_condition_said_with_should_as_shorthand_or_of_they_is_the_same_condition(text: str) -> None:
    p = parse_statement("I cash the ♣A; " + text if "they" in text else text, trump=H)
    (step,) = [st for st in p.line.steps if st.condition is not None]
    assert (step.action, step.suit, step.condition.suit, step.condition.lengths) == ("ruff", D, C, [4, 1])
    assert not p.unparsed


def test_a_condition_with_no_problem_as_its_step_gives_no_step_and_leaves_nothing_unread() -> None:
    p = parse_statement("if clubs are 3-2 there is no problem; if they are 4-1 I ruff the fourth round", trump=H)
    assert [(s.action, s.condition.lengths) for s in p.line.steps] == [("ruff", [4, 1])] and not p.unparsed


def test_after_then_a_clause_with_no_verb_takes_the_verb_of_the_plays_not_of_the_discard_on_them() -> None:
    p = parse_statement("the ♥A and ♥K, pitching a spade, then the ♦J", trump=C, claimer=Seat.S)
    assert [s.action for s in p.line.steps] == ["play", "discard", "play"] and not p.unparsed
    listed = parse_statement("discard a spade, then a heart", trump=C)  # no play before: the discards go on
    assert [s.action for s in listed.line.steps] == ["discard", "discard"]


@pytest.mark.parametrize("text, kind, count", [
    ("we take the rest", "all", None), ("I'm taking the rest", "all", None), ("everything's mine", "all", None),
    ("the last two are mine", "more", 2), ("we get two more", "more", 2), ("another two for us", "more", 2),
    ("the next two are ours", "more", 2), ("I win this trick", "this_trick", None),
    ("all my cards are good", "all", None), ("there's no more to play for", "all", None)])
def test_the_claimers_side_as_subject_and_is_contracted_read_as_the_plain_claim(text: str, kind: str,
                                                                                 count: int | None) -> None:
    p = parse_statement(text, trump=S, claimer=Seat.S)
    assert (p.tricks_stated.kind, p.tricks_stated.count) == (kind, count)
    assert p.line.steps == [] and not p.unparsed


def test_a_spot_card_after_a_suit_word_is_a_card_and_cards_of_one_suit_joined_by_and_are_one_holding() -> None:
    p = parse_statement("I'll cash the ♥K and ♥Q, then discard dummy's spade five", trump=C, claimer=Seat.S)
    assert [(s.action, s.cards, s.hand) for s in p.line.steps] == [
        ("cash", [Card(H, 13), Card(H, 12)], None), ("discard", [Card(S, 5)], Seat.N)]
    named = parse_statement("I make the ♥K, the ♥Q and the ♣10", trump=C)  # cashes of one suit in a row: one holding
    assert [(s.suit, s.cards) for s in named.line.steps] == [(H, [Card(H, 13), Card(H, 12)]), (C, [Card(C, 10)])]
    apart = parse_statement("I play the ♣Q, a club to the ace and the king of clubs", trump=H)
    assert [s.cards for s in apart.line.steps] == [[Card(C, 12)], [Card(C, 14)], [Card(C, 13)]]  # a play apart
