"""The card that lost the trick: on an adjusted claim's witness line, the first card of the claiming side after which
best play by both sides gives fewer tricks than were claimed.

A Director explaining an adjustment points at one card ("on South's ♣A the ♥J is left to lose"). The witness line
is replayed card by card; after each card of the claiming side the play core's double-dummy count of what is left,
plus the tricks the side has taken on the line so far, says whether the claim could still be made. Cards of the
other side never lower it (they play best), so the first card that does is the claiming side's.
"""

from __future__ import annotations

from typing import Any

from claimlaw.facts import Card, CostlyCard, Position, Side, Witness


def costly_card(pos: Position, side: Side, witness: Witness, claimed: int, core: Any) -> CostlyCard | None:
    """The first card of ``side`` on ``witness`` after which best play gives it fewer than ``claimed`` of the tricks
    left at ``pos`` (None: the line never falls short). The caller has checked that best play at ``pos`` makes the
    claim."""
    if witness.tricks >= claimed:
        return None
    sim = pos.copy()
    start = sim.won[side]
    by_card = {ch.card: ch for ch in witness.choices}
    cards = [Card.parse(x) for trick in witness.tricks_played for x in trick][len(pos.trick):]
    for card in cards:
        seat = sim.to_move
        sim.play(card)
        if seat.side != side or not any(sim.hands[s] for s in sim.hands):
            continue
        best = sim.won[side] - start + core.double_dummy(sim, side).tricks
        if best < claimed:
            choice = by_card.get(str(card))
            licence, why = (choice.licence, choice.why) if choice is not None else ("", "")
            trick = sim.tricks_played + (1 if sim.trick else 0)
            who = seat.long_name
            because = f" — he {why} —" if why else ""
            return CostlyCard(seat=seat.value, card=str(card), trick=trick, licence=licence, why=why, at_most=best,
                              sentence=f"On {who}'s {card.pretty} at trick {trick}{because} the claim is lost: "
                                       f"best play from there gives {side.long_name} at most {best} of the "
                                       f"{claimed} claimed.")
    return None
