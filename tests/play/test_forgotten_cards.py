"""A forgotten card never helps the claimer (engine/play/core.py ``aware_twin``, ``fewer``): his W unaware of a card
still out is never above his W aware of it (White Book 8.70.4 and 8.70.6 give the opponents the tricks a forgotten card
could lose; Law 70A resolves against him the doubt whether he forgot it)."""

from __future__ import annotations

import random

import pytest

from claimlaw.engine.play import NormalPlayModel, PlayCore
from claimlaw.engine.play.core import aware_twin
from claimlaw.facts import SUITS, Card, Seat, Side, Suit
from tests.lawmarks import clause
from tests.play.test_play_core import random_position, spec_position

CORE = PlayCore(budget=None)
CLASSES = ("beginner", "club", "expert", "world_class")


@clause("70A", "70C")
def test_a_claimer_who_forgot_the_king_and_follows_with_the_queen_he_thinks_wins_takes_no_more_than_aware() -> None:
    # West leads ♠5 into dummy's ♠AQ, East ruffs; West keeps the ♠K and gets in with the ♦A to lead it. Unaware of
    # the ♠K, dummy's cheapest card he sees as a sure winner is the ♠Q (he keeps the ♠A for the ♠K's trick); aware of
    # it, the ♠A (the queen is not sure), and the ♠Q then loses to the king
    pos = spec_position({Seat.N: "SA SQ C2", Seat.E: "H2 D2 C3", Seat.S: "CA CK D3", Seat.W: "SK S5 DA"}, Suit.H,
                        Seat.W)
    pos.play(Card.parse("S5"))
    model = NormalPlayModel.default(Seat.S)
    forgot = model.with_unaware(["SK"]).with_switches(unaware_winner=True)
    aware = CORE.worst_normal(pos, Side.NS, model)
    unaware = CORE.worst_normal(pos, Side.NS, forgot)
    assert CORE.double_dummy(pos, Side.NS).tricks == 1
    assert aware.tricks == 0 and aware.witness.tricks_played[0][1] == "SA"
    # the line of the claimer unaware of the ♠K alone would take a trick: his W is the aware line's
    alone = CORE._run(pos, Side.NS, forgot, "worst_normal")
    assert alone.tricks == 1 and alone.witness.tricks_played[0][1] == "SQ"
    assert unaware.tricks == 0 and unaware.witness.tricks_played[0][1] == "SA"


def test_a_card_already_played_or_none_forgotten_leaves_the_model_as_it_is() -> None:
    pos = spec_position({Seat.N: "SA SQ C2", Seat.E: "H2 D2 C3", Seat.S: "CA CK D3", Seat.W: "SK S5 DA"}, Suit.H,
                        Seat.W)
    model = NormalPlayModel.default(Seat.S)
    assert aware_twin(pos, model) is None
    assert aware_twin(pos, model.with_unaware(["SJ"])) is None  # played before the claim: nothing to forget
    twin = aware_twin(pos, model.with_unaware(["SK"]).with_switches(unaware_winner=True))
    assert twin is not None and not twin.unaware_of and twin.switches == model.switches


@clause("70A", "70C")
@pytest.mark.parametrize("seed", range(300))
def test_on_random_endings_the_claimers_count_unaware_of_a_card_is_never_above_his_count_aware_of_it(
        seed: int) -> None:
    rng = random.Random(31_000 + seed)
    trump = rng.choice([None, *SUITS])
    pos = random_position(rng, rng.randint(2, 5), trump, mid_trick=rng.random() < 0.35)
    side = rng.choice([Side.NS, Side.EW])
    claimer = side.seats[rng.randint(0, 1)]
    model = NormalPlayModel.default(claimer).with_class(rng.choice(CLASSES)).with_concedes(rng.choice([0, 0, 1]))
    if rng.random() < 0.3:  # a defender's claim, dummy one of the opponents
        model = model.as_defender(side.other.seats[rng.randint(0, 1)])
    theirs = sorted(c for s in side.other.seats for c in pos.hands[s])
    # mostly a card that fools him (his side holds a card just under it, above the opponents' others in the suit:
    # he sees that card as a winner), else any card of theirs, or two
    ours = [c for s in side.seats for c in pos.hands[s]]
    fooling = [c for c in theirs if any(d.suit == c.suit and d.rank < c.rank and all(
        o.rank < d.rank for o in theirs if o.suit == c.suit and o != c) for d in ours)]
    forgot = [rng.choice(fooling)] if fooling and rng.random() < 0.8 else rng.sample(theirs, min(len(theirs), 2))
    unaware = model.with_unaware(forgot).with_switches(
        unaware_winner=True, unaware_trump=any(c.suit == trump for c in forgot))
    w_aware = CORE.worst_normal(pos, side, model).tricks
    w_unaware = CORE.worst_normal(pos, side, unaware)
    assert w_unaware.exact
    assert w_unaware.tricks <= w_aware <= CORE.double_dummy(pos, side).tricks, (
        f"seed {seed}: unaware of {forgot} {w_unaware.tricks}, aware {w_aware}\n{pos.pbn()} {pos.trick}")
