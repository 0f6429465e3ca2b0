"""Claim statements in plain English: the line, the order, the count, the trumps and the trace."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlaw.engine.readers.statement import NOT_REPRESENTABLE, parse_statement
from claimlaw.facts.cards import Card, Seat, Suit

S, H, D, C = Suit.S, Suit.H, Suit.D, Suit.C


def steps(text: str, trump: Suit | None = None, claimer: Seat | None = Seat.S) -> list[tuple]:
    """The line as (action, suit, count, hand, when) tuples."""
    p = parse_statement(text, trump=trump, claimer=claimer)
    return [(s.action, s.suit, s.count, s.hand, s.when) for s in p.line.steps]


# -- the phrases the issue names ------------------------------------------------------------

def test_the_rest_are_mine_claims_every_remaining_trick_and_plays_no_step() -> None:
    p = parse_statement("the rest are mine")
    assert p.line.steps == [] and not p.unparsed
    assert p.tricks_stated is not None and (p.tricks_stated.kind, p.tricks_stated.lose) == ("all", 0)


@pytest.mark.parametrize("text", ["drawing trumps", "I'll draw the last trump", "Draw the outstanding trumps",
                                  "pull trumps first", "trumps are drawn"])
def test_drawing_trumps_in_any_wording_is_a_draw_step_that_mentions_trumps(text: str) -> None:
    p = parse_statement(text, trump=H)
    assert [s.action for s in p.line.steps] == ["draw_trumps"]
    assert p.mentions_trumps and not p.unparsed


def test_cash_the_hearts_then_the_spades_is_an_ordered_line_of_two_cashes() -> None:
    p = parse_statement("cash the hearts then the spades")
    assert steps("cash the hearts then the spades") == [("cash", H, None, None, None), ("cash", S, None, None, None)]
    assert p.line.ordered and not p.count_only


def test_ruff_a_club_in_dummy_names_the_suit_and_dummy_as_the_claimers_partner() -> None:
    assert steps("ruff a club in dummy", trump=S, claimer=Seat.S) == [("ruff", C, None, Seat.N, None)]
    assert steps("ruff a club in dummy", trump=S, claimer=Seat.E) == [("ruff", C, None, Seat.W, None)]


def test_without_a_claimer_the_hand_is_left_open_but_kept_in_the_words() -> None:
    p = parse_statement("ruff a club in dummy", trump=S)
    assert p.line.steps[0].hand is None and "dummy" in (p.line.steps[0].text or "")


def test_taking_the_spade_finesse_is_a_spade_finesse() -> None:
    assert steps("taking the spade finesse") == [("finesse", S, None, None, None)]


def test_a_finesse_against_a_card_names_the_missing_honour() -> None:
    p = parse_statement("finesse against the queen of spades")
    assert p.line.steps[0].card == Card.parse("SQ") and p.line.steps[0].suit is S


def test_conceding_a_diamond_at_the_end_is_a_concession_at_the_end_and_all_but_one() -> None:
    assert steps("conceding a diamond at the end") == [("concede", D, None, None, "end")]
    p = parse_statement("conceding a diamond at the end")
    assert p.tricks_stated is not None and p.tricks_stated.kind == "all_but" and p.tricks_stated.lose == 1


def test_i_lose_a_club_is_a_club_concession_with_no_time_stated() -> None:
    assert steps("I lose a club") == [("concede", C, None, None, None)]


@pytest.mark.parametrize("text,lose", [("all but one", 1), ("All but two tricks", 2), ("all except one", 1),
                                       ("the rest but one", 1), ("everything but a trick", 1)])
def test_all_but_n_loses_n_tricks(text: str, lose: int) -> None:
    p = parse_statement(text)
    assert p.tricks_stated is not None and p.tricks_stated.kind == "all_but" and p.tricks_stated.lose == lose
    assert not p.unparsed


def test_four_hearts_three_spades_and_a_diamond_is_a_count_not_an_order() -> None:
    p = parse_statement("four hearts, three spades and a diamond")
    assert steps("four hearts, three spades and a diamond") == [
        ("cash", H, 4, None, None), ("cash", S, 3, None, None), ("cash", D, 1, None, None)]
    assert p.count_only and not p.line.ordered


def test_four_hearts_then_three_spades_and_a_diamond_is_an_order() -> None:
    p = parse_statement("four hearts then three spades and a diamond")
    assert p.line.ordered and not p.count_only


# -- statements quoted in the seed documents --------------------------------------------------

@pytest.mark.parametrize("text,kind,lose", [
    ("All mine", "all", 0),  # White Book 8.70.4(b)
    ("I don't think that you will win more than your ace", "all_but", 1),  # Kooijman-derived TD guidance
    ("The rest are mine", "all", 0),
])
def test_seed_document_statements_of_tricks_read_as_the_seeds_say(text: str, kind: str, lose: int) -> None:
    p = parse_statement(text)
    assert p.tricks_stated is not None and (p.tricks_stated.kind, p.tricks_stated.lose) == (kind, lose)


def test_six_diamonds_five_spades_and_two_clubs_is_a_count_as_in_ebu_appeal_focus() -> None:
    p = parse_statement("6 diamonds, 5 spades and 2 clubs")
    assert p.count_only and [s.count for s in p.line.steps] == [6, 5, 2]


def test_run_the_clubs_is_a_statement_of_intent_to_cash_the_clubs() -> None:
    assert steps("run the clubs") == [("cash", C, None, None, None)]


def test_i_claim_alone_states_no_line() -> None:
    p = parse_statement("I claim")
    assert p.line.steps == [] and p.tricks_stated is None and not p.unparsed


# -- order ------------------------------------------------------------------------------------

def test_after_puts_the_later_clause_first_in_the_line() -> None:
    p = parse_statement("cash the hearts after drawing trumps", trump=S)
    assert [s.action for s in p.line.steps] == ["draw_trumps", "cash"] and p.line.ordered


def test_a_leading_before_puts_the_main_clause_first() -> None:
    p = parse_statement("before cashing the hearts, draw trumps and ruff a club", trump=S)
    assert [s.action for s in p.line.steps] == ["draw_trumps", "ruff", "cash"]


def test_a_plain_list_of_actions_is_not_an_order() -> None:
    p = parse_statement("cash the spades, ruff a club and cross to dummy with a heart", trump=D)
    assert not p.line.ordered and not p.count_only and len(p.line.steps) == 3


def test_a_clause_with_no_verb_takes_the_verb_before_it() -> None:
    assert steps("ruff a club and a diamond in dummy", trump=S) == [
        ("ruff", C, None, None, None), ("ruff", D, None, Seat.N, None)]


# -- cards, trumps and concessions ------------------------------------------------------------

@pytest.mark.parametrize("text", ["cash the ace and king of spades", "cash ♠AK", "cash SA SK",
                                  "cash the spade ace-king", "cash the AK of spades"])
def test_cards_are_read_in_the_usual_spellings(text: str) -> None:
    p = parse_statement(text)
    assert p.line.steps[0].cards == [Card.parse("SA"), Card.parse("SK")] and not p.unparsed


def test_the_trump_suit_named_by_name_counts_as_mentioning_trumps() -> None:
    assert parse_statement("cash the spades", trump=S).mentions_trumps
    assert not parse_statement("cash the spades", trump=H).mentions_trumps


def test_ruffing_with_a_trump_says_nothing_about_the_opponents_trumps() -> None:
    p = parse_statement("ruff a club with a small trump", trump=S)
    assert [s.action for s in p.line.steps] == ["ruff"] and not p.mentions_trumps


def test_the_rest_with_a_concession_is_all_but_the_concessions() -> None:
    p = parse_statement("the rest are mine, conceding a trump at some point", trump=H)
    assert p.tricks_stated is not None and p.tricks_stated.lose == 1
    assert steps("the rest are mine, conceding a trump at some point", trump=H) == [("concede", H, None, None, None)]


@pytest.mark.parametrize("text,suit,when", [("you get your trump", "trump", None),
                                            ("a club to you at the end", C, "end"),
                                            ("duck a spade", S, "now"), ("giving up a heart first", H, "now")])
def test_what_the_opponents_are_given_is_a_concession(text: str, suit: Suit | str, when: str | None) -> None:
    p = parse_statement(text, trump=D)
    step = p.line.steps[0]
    assert step.action == "concede" and step.suit == (D if suit == "trump" else suit) and step.when == when


def test_losing_two_tricks_in_a_suit_is_two_concessions() -> None:
    assert steps("losing two spades") == [("concede", S, None, None, None)] * 2


def test_a_discard_on_a_winner_cashes_the_winner_then_names_the_suit_thrown_item_5() -> None:
    p = parse_statement("discard my club loser on the ace of hearts", trump=S)
    cash, discard = p.line.steps
    assert (cash.action, cash.suit, cash.cards) == ("cash", H, [Card(H, 14)])
    assert (discard.action, discard.suit) == ("discard", C) and "♥A" in (discard.text or "")


# -- what cannot be read is reported ----------------------------------------------------------

@pytest.mark.parametrize("text", ["squeeze East", "play for the drop in spades",
                                  "take the finesse; if it loses, one down"])
def test_lines_a_step_cannot_carry_are_reported_as_unparsed(text: str) -> None:
    assert parse_statement(text).unparsed


def test_stray_words_in_an_understood_clause_are_reported_not_dropped() -> None:
    p = parse_statement("ruff a club carefully", trump=S)
    assert [s.action for s in p.line.steps] == ["ruff"] and any("carefully" in u for u in p.unparsed)


def test_every_clause_appears_in_the_trace() -> None:
    p = parse_statement("Draw trumps, then cash the hearts, conceding a diamond at the end; squeeze East", trump=S)
    phrases = [ph for ph, _ in p.pieces]
    assert phrases == ["draw trumps", "cash the hearts", "conceding a diamond at the end", "squeeze east"]
    assert [st is None for _, st in p.pieces] == [False, False, False, True]
    assert any("not understood" in line for line in p.describe())


def test_the_vocabulary_of_the_unrepresentable_is_a_table() -> None:
    assert "squeeze" in NOT_REPRESENTABLE


words = st.sampled_from(["cash", "the", "hearts", "then", "ruff", "a", "club", "in", "dummy", "all", "but", "one",
                         "draw", "trumps", "finesse", "against", "♠Q", "SA", "and", ",", "concede", "at", "end",
                         "four", "spades", "you", "get", "rest", "mine", "before", "after", "xyzzy", "."])


@settings(max_examples=200, deadline=None)
@given(st.lists(words, max_size=14), st.sampled_from([None, S, H]), st.sampled_from([None, Seat.N, Seat.W]))
def test_any_run_of_words_parses_without_error_and_every_step_is_in_the_trace(
        ws: list[str], trump: Suit | None, claimer: Seat | None) -> None:
    p = parse_statement(" ".join(ws), trump=trump, claimer=claimer)
    traced = [stp for _, stp in p.pieces if stp is not None]
    assert set(map(id, p.line.steps)) <= set(map(id, traced))  # a repeat read once stays in the trace
    assert len(traced) == len(p.line.steps) + p.collapsed
    if "xyzzy" in ws:
        assert any("xyzzy" in u for u in p.unparsed)


@given(st.text(max_size=80))
@settings(max_examples=200, deadline=None)
def test_arbitrary_text_never_raises(text: str) -> None:
    parse_statement(text, trump=S, claimer=Seat.S)


def test_the_statement_parser_imports_nothing_but_the_facts_and_the_readers() -> None:
    code = ("import sys, claimlaw.engine.readers.statement; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('endplay', 'durable') or "
            "(m.startswith('claimlaw.') and m != 'claimlaw.engine' "
            "and not m.startswith(('claimlaw.facts', 'claimlaw.engine.readers')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
