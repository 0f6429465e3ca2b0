"""Turn a validated case into the flat facts the rule session matches on.

Each fact is a plain dict with a ``kind``. The facts are observations about the table; what
they mean in law is decided by the rules. Unknown values are the string ``"unknown"`` (the
rule engine matches on JSON values, and ``None`` does not compare cleanly).
"""

from __future__ import annotations

from typing import Any

from claimlaw.facts import SEATS, Case, Line, Position, Side


def remaining_tricks(case: Case, pos: Position | None) -> int | None:
    """Tricks not yet completed at the claim, when the case says."""
    return pos.tricks_left if pos is not None else None


def claimed_for_side(case: Case, remaining: int | None) -> int | None:
    """Of the remaining tricks, how many the claim or concession leaves to the claimer's side."""
    c = case.claim
    if c.says == "claim":
        if c.tricks is not None:
            return c.tricks
        return remaining  # "the rest": all remaining tricks
    if remaining is None:
        return None
    if c.abandons_hand or c.tricks is None:
        return 0  # 68B1: abandoning the hand concedes all the remaining tricks
    return remaining - c.tricks


def stated_line(case: Case) -> tuple[Line | None, bool]:
    """The claimer's line (the structured one, else parsed from the words) and whether it speaks of trumps."""
    c = case.claim
    line = c.line
    mentions = False
    if c.statement.strip():
        try:
            from claimlaw.facts.statement import parse_statement
        except ImportError:  # the parser is optional while it is being built
            parse_statement = None  # type: ignore[assignment]
        if parse_statement is not None:
            parsed = parse_statement(c.statement, trump=case.board.trump if case.board else None, claimer=c.by)
            mentions = bool(parsed.mentions_trumps)
            # a bare count by suit ("6 diamonds, 5 spades and 2 clubs") is a count of tricks, not a line or an order
            # of play (EBU Appeal Focus, Winter 2011: the appeals committee's reading): no line is stated
            if line is None and parsed.line.steps and not parsed.count_only:
                line = parsed.line
        else:
            mentions = "trump" in c.statement.lower()
    if line is not None and any(s.action == "draw_trumps" for s in line.steps):
        mentions = True
    return line, mentions


def case_facts(case: Case, pos: Position | None) -> list[dict[str, Any]]:
    """The input facts of one case: the claim, each response, the table summary, timing, board."""
    c = case.claim
    side = case.claimer_side
    remaining = remaining_tricks(case, pos)
    claimed = claimed_for_side(case, remaining)
    role = case.role_of(c.by) or ("unknown")
    line, mentions_trumps = stated_line(case)
    facts: list[dict[str, Any]] = []
    facts.append({
        "kind": "claim",
        "by": c.by.value,
        "side": side.value,
        "role": role,
        "says": c.says,
        "tricks": c.tricks if c.tricks is not None else -1,
        "claimed_for_side": claimed if claimed is not None else -1,
        "remaining": remaining if remaining is not None else -1,
        "has_statement": bool(c.statement.strip()) or c.line is not None,
        "statement": c.statement,
        "has_line": c.line is not None,
        "line_steps": len(line.steps) if line is not None else 0,
        "mentions_trumps": mentions_trumps,
        "shows_cards": c.shows_cards,
        "suggests_curtailing": c.suggests_curtailing,
        "abandons_hand": c.abandons_hand,
        "current_trick_only": c.current_trick_only,
        "after_lead_out_of_turn": c.after_lead_out_of_turn,
        "not_intended": case.findings.demonstrably_not_claim is True,
        "partner_objected": case.responses.partner_objected_immediately,
    })
    disputers: list[str] = []
    assenters: list[str] = []
    for seat in SEATS:
        answer = case.responses.of(seat)
        facts.append({
            "kind": "response",
            "seat": seat.value,
            "side": seat.side.value,
            "role": case.role_of(seat) or "unknown",
            "answer": answer,
            "claimer_side": seat.side == side,
        })
        if answer == "disputes":
            disputers.append(seat.value)
        if answer == "agrees" and seat.side != side:
            assenters.append(seat.value)
    t = case.timing
    objector_side = t.objection_by.side.value if t.objection_by else "unknown"
    facts.append({
        "kind": "table",
        "doubted": bool(disputers),
        "disputers": disputers,
        "assented": bool(assenters),
        "assenters": assenters,
        "objection": t.objection,
        "objection_by": t.objection_by.value if t.objection_by else "unknown",
        "objector_side": objector_side,
        "objector_is_claimer_side": objector_side == side.value,
        # what the case says of the correction period (79C judges it against the period in force): an explicit
        # finding, and the minutes after the scores were posted (-1: not said)
        "period_found": ("yes" if t.within_correction_period else "no") if t.within_correction_period is not None
        else "unknown",
        "minutes_after_posted": t.minutes_after_scores_posted if t.minutes_after_scores_posted is not None else -1,
    })
    po = case.responses.play_on
    facts.append({  # always present, so no rule has to negate an input fact
        "kind": "play_on",
        "requested": po is not None,
        "requested_by": po.requested_by.value if po else "unknown",
        "by_non_claiming_side": bool(po and po.requested_by.side != side),
        "all_concurred": bool(po and po.all_concurred),
        "cards_played": sum(len(t) for t in case.responses.play_after_claim),
    })
    b = case.board
    facts.append({
        "kind": "board",
        "has_cards": pos is not None,
        "contract": str(b.contract) if b and b.contract else "unknown",
        "declarer": b.declarer.value if b and b.declarer else "unknown",
        "trump": (pos.trump.value if pos.trump else "none") if pos is not None else "unknown",
        "remaining": remaining if remaining is not None else -1,
        "won_NS": pos.won[Side.NS] if pos is not None else -1,
        "won_EW": pos.won[Side.EW] if pos is not None else -1,
        "revokes": len(pos.revokes) if pos is not None else 0,
        # the trick the claim came in (tricks completed before it, plus one) and whether dummy is on the table
        "tricks_played": pos.tricks_played if pos is not None else -1,
        "trick": pos.tricks_played + 1 if pos is not None else -1,
        "dummy_faced": (pos.tricks_played > 0 or bool(pos.trick)) if pos is not None else "unknown",
    })
    if pos is not None:
        facts.append(position_fact(pos, side))
    f = case.findings
    facts.append({
        "kind": "findings",
        "conceded_won_tricks": f.conceded_won_tricks if f.conceded_won_tricks is not None else -1,
        "aware_of_trumps": "unknown" if f.aware_of_trumps is None else f.aware_of_trumps,
        "class_of_player": f.class_of_player or "unknown",
        "unaware_of": [str(x) for x in f.unaware_of],
        "unaware_count": len(f.unaware_of),
        "irrational_not_to": "unknown" if f.irrational_not_to is None else f.irrational_not_to,
        "would_likely_have_won": -1 if f.would_likely_have_won is None else f.would_likely_have_won,
        "weights_given": bool(f.outcome_weights),
    })
    return facts


def position_fact(pos: Position, side: Side) -> dict[str, Any]:
    """What the cards show at the claim: outstanding trumps and how the claimer's side stands to them."""
    trump = pos.trump
    opps = side.other
    opp_trumps = sorted((c for s in opps.seats for c in pos.hands[s] if c.suit == trump), reverse=True) if trump else []
    own = {s: sorted((c for c in pos.hands[s] if c.suit == trump), reverse=True) for s in side.seats} if trump else {}
    k = len(opp_trumps)
    # enough of the side's trumps outrank every outstanding one to draw them all, however they lie
    above = sum(1 for cards in own.values() for c in cards if opp_trumps and c.rank > opp_trumps[0].rank)
    longest = max((len(v) for v in own.values()), default=0)
    top_ok = bool(k) and above >= k and longest >= k
    # a round of trumps both opponents followed to, in the trick in progress or the trick just completed (White Book
    # 8.70.4(b): one round cashed and "all mine" when both follow shows he knows the rest are out; a claim made after
    # leading to the next trick still comes right after it)
    round_drawn = False
    if trump is not None:
        rounds = []
        if pos.trick:
            rounds.append((list(pos.trick), pos.leader))
        if pos.history:
            rounds.append((list(pos.history[-1].cards), pos.history[-1].leader))
        for cards, leader in rounds:
            opp_cards = [c for c, s in zip(cards, _rotation(leader), strict=False) if s.side == opps]
            if cards and cards[0].suit == trump and len(opp_cards) == 2 and all(c.suit == trump for c in opp_cards):
                round_drawn = True
    return {
        "kind": "position",
        "trump": trump.value if trump else "none",
        "opp_trumps": [str(c) for c in opp_trumps],
        "opp_trump_count": k,
        "claimer_side_trumps": sum(len(v) for v in own.values()),
        "claimer_side_on_lead": pos.to_move.side == side and not pos.trick,
        # a claim diagram has no history of the earlier tricks: then nobody knows who led them
        "claimer_side_has_led": (any(t.leader.side == side for t in pos.history)
                                 if len(pos.history) == pos.tricks_played else "unknown"),
        "trump_round_both_followed": round_drawn,
        "draws_trumps_whatever_layout": top_ok,
        "opp_shown_out": {s.value: sorted(x.value for x in pos.shown_out[s]) for s in opps.seats},
    }


def _rotation(leader: Any) -> list[Any]:
    seats = [leader]
    for _ in range(3):
        seats.append(seats[-1].next)
    return seats
