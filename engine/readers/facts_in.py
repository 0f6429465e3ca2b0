"""Turn a validated case into the flat facts the rule session matches on.

Each fact is a plain dict with a ``kind``. The facts are observations about the table; what
they mean in law is decided by the rules. Unknown values are the string ``"unknown"`` (the
rule engine matches on JSON values, and ``None`` does not compare cleanly).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from claimlaw.facts import SEATS, Card, Case, Line, Position, Seat, Side


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


def with_added(statement: str, added: str) -> str:
    """The statement read together with words added to it later: one text, the added words last."""
    statement, added = statement.strip(), added.strip()
    if not statement or not added:
        return statement or added
    return f"{statement} {added}" if statement[-1] in ".,;:!?" else f"{statement}. {added}"


def stated_line(case: Case, *, added: bool = False) -> tuple[Line | None, bool]:
    """The claimer's line (the structured one, else parsed from the words) and whether it speaks of trumps.

    With ``added``, the words the claimer added later (``claim.added_statement``) are read with the statement: their
    steps follow a structured line's, or the two texts are read as one. Whether they belong to the line is the
    rules' question (70D1), not this reader's."""
    c = case.claim
    line = c.line
    mentions = False
    extra = c.added_statement if added else ""
    text = with_added(c.statement, extra) if c.line is None else c.statement
    if text.strip() or (c.line is not None and extra.strip()):
        try:
            from claimlaw.engine.readers.statement import parse_statement
        except ImportError:  # the parser is optional while it is being built
            parse_statement = None  # type: ignore[assignment]
        if parse_statement is not None:
            trump, by = case.board.trump if case.board else None, c.by
            parsed = parse_statement(text, trump=trump, claimer=by) if text.strip() else None
            mentions = bool(parsed and parsed.mentions_trumps)
            # a bare count by suit ("6 diamonds, 5 spades and 2 clubs") is a count of tricks, not a line or an order
            # of play (EBU Appeal Focus, Winter 2011: the appeals committee's reading): no line is stated
            if line is None and parsed is not None and parsed.line.steps and not parsed.count_only:
                line = parsed.line
            elif line is not None and extra.strip():  # a structured line, and words added to it
                more = parse_statement(extra, trump=trump, claimer=by)
                mentions = mentions or bool(more.mentions_trumps)
                if more.line.steps and not more.count_only:
                    line = line.model_copy(update={"steps": [*line.steps, *more.line.steps]})
        else:
            mentions = "trump" in text.lower()
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
    # words the claimer added later, and when (always present): whether they join the line is 70D1's question
    said = c.added_statement.strip()
    both, both_trumps = stated_line(case, added=True) if said else (line, mentions_trumps)
    facts.append({
        "kind": "added_words",
        "present": bool(said),
        "text": said,
        "when": ("none" if not said else "unknown" if c.added_before_objection is None
                 else "before" if c.added_before_objection else "after"),
        "line_steps": len(both.steps) if both is not None else 0,
        "mentions_trumps": both_trumps,
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
        conceded = remaining - claimed if remaining is not None and claimed is not None else None
        dummy = b.declarer.partner if b and b.declarer else None
        facts.append(position_fact(pos, side, claimer=c.by, dummy=dummy, conceded=conceded))
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
        "outcome_weights": {str(t): w for t, w in f.outcome_weights.items()},  # tricks (as text) -> weight
    })
    return facts


def position_fact(pos: Position, side: Side, *, claimer: Seat | None = None, dummy: Seat | None = None,
                  conceded: int | None = None) -> dict[str, Any]:
    """What the cards show at the claim: outstanding trumps and how the claimer's side stands to them. With the
    ``claimer``, ``dummy`` and the tricks the claim ``conceded``: which outstanding trumps he cannot see (a defender
    sees dummy's) and which of those the claim's count shows he counted (``counted_trumps``)."""
    trump = pos.trump
    opps = side.other
    opp_trumps = sorted((c for s in opps.seats for c in pos.hands[s] if c.suit == trump), reverse=True) if trump else []
    # a defender sees dummy's trumps (Law 41D: dummy is faced); declarer sees neither defender's hand
    unseen = [c for c in opp_trumps if not any(c in pos.hands[s] for s in opps.seats if s == dummy)]
    counted = counted_trumps(pos, side, unseen, conceded)
    own = {s: sorted((c for c in pos.hands[s] if c.suit == trump), reverse=True) for s in side.seats} if trump else {}
    k = len(opp_trumps)
    # enough of the side's trumps outrank every outstanding one to draw them all, however they lie
    above = sum(1 for cards in own.values() for c in cards if opp_trumps and c.rank > opp_trumps[0].rank)
    longest = max((len(v) for v in own.values()), default=0)
    top_ok = bool(k) and above >= k and longest >= k
    # a round of trumps both opponents followed to, in the trick in progress or the trick just completed (White Book
    # 8.70.4(b): one round cashed and "all mine" when both follow shows he knows the rest are out; a claim made after
    # leading to the next trick still comes right after it)
    round_drawn = show_out = False
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
        # the latest round of trumps, one opponent showing out on it: he has just seen where the rest of them are
        # (the claimer sees the cards as they are played: WBFLC minute as reported, EBU TD forum); a later round
        # under way when he claims is the latest (reviewed row atc 22: a claim in the next round, accepted as the
        # classic 70C trick)
        latest = next(((cards, leader) for cards, leader in rounds if cards and cards[0].suit == trump), None)
        if latest is not None and not round_drawn:
            opp_cards = [c for c, s in zip(latest[0], _rotation(latest[1]), strict=False) if s.side == opps]
            show_out = len(opp_cards) == 2 and any(c.suit == trump for c in opp_cards)
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
        "trump_round_show_out": show_out,
        "draws_trumps_whatever_layout": top_ok,
        "opp_trumps_unseen": [str(c) for c in unseen],
        "sees_every_trump": bool(opp_trumps) and not unseen,
        "counted_trumps": [str(c) for c in counted],
        "concession_counts_every_trump": bool(unseen) and len(counted) == len(unseen),
        "opp_shown_out": {s.value: sorted(x.value for x in pos.shown_out[s]) for s in opps.seats},
    }


def counted_trumps(pos: Position, side: Side, unseen: list[Card], conceded: int | None) -> list[Card]:
    """The outstanding trumps the claim's count shows he counted: the claim concedes exactly the tricks the
    opponents' trumps take in the trump suit (``trump_tricks``, over every split of them he cannot rule out), and
    without the card they would take fewer. A trump whose absence changes nothing (a low one beside a conceded high
    one) is not shown. The concession must be readable only as the trump tricks: where an opponent holds a card
    above the side's best in another suit that neither of the side's hands can ruff, the conceded trick may be that
    one, and a concession larger than the trump tricks may be for other losers; either shows nothing (any doubt
    goes against the claimer). None with a
    trump in the trick in progress (its trick is already half played) or more than 8 trumps out."""
    trump = pos.trump
    if trump is None or not unseen or conceded is None or conceded <= 0 or len(unseen) > 8:
        return []
    if any(c.suit == trump for c in pos.trick):
        return []
    for x in {c.suit for s in SEATS for c in pos.hands[s]} - {trump}:
        ours = max((c.rank for s in side.seats for c in pos.hands[s] if c.suit == x), default=0)
        theirs = max((c.rank for s in side.other.seats for c in pos.hands[s] if c.suit == x), default=0)
        ruffs = any(not any(c.suit == x for c in pos.hands[s]) and any(c.suit == trump for c in pos.hands[s])
                    for s in side.seats)
        if theirs > ours and not ruffs:
            return []  # a side-suit loser he can see and cannot ruff: the concession may be for it
    a = side.seats[0]
    opps = (a.next, a.partner.next)  # on the left of each of the side's hands
    seen = {s: frozenset(c.rank for c in pos.hands[s] if c.suit == trump and c not in unseen) for s in opps}
    known_void = {s: trump in pos.shown_out[s] for s in opps}

    def most(cards: list[Card]) -> int:
        best = 0
        for places in product(range(2), repeat=len(cards)):
            hands = {s: set(seen[s]) for s in opps}
            for c, i in zip(cards, places, strict=True):
                hands[opps[i]].add(c.rank)
            if any(known_void[s] and hands[s] for s in opps):
                continue
            best = max(best, trump_tricks(*(frozenset(c.rank for c in pos.hands[s] if c.suit == trump)
                                            for s in (a, a.partner)), frozenset(hands[opps[0]]),
                                          frozenset(hands[opps[1]])))
        return best

    full = most(unseen)
    if full != conceded:
        return []
    return [c for c in unseen if most([d for d in unseen if d != c]) < full]


@lru_cache(maxsize=4096)
def trump_tricks(a: frozenset[int], b: frozenset[int], o1: frozenset[int], o2: frozenset[int]) -> int:
    """The tricks the opponents' trumps (``o1`` on ``a``'s left, ``o2`` on its right, as ranks) take in the trump
    suit alone against the side's (``a`` and its partner ``b``): the side leads every round from the hand it
    chooses (entries elsewhere), each hand plays a trump while it has one, the highest wins; the side plays to give
    the fewest, the opponents to take the most. Once the side has none, each trump left takes a trick."""
    if not o1 and not o2:
        return 0
    if not a and not b:
        return len(o1) + len(o2)
    best: int | None = None
    for leader, order in ((a, "a"), (b, "b")):
        if not leader:
            continue
        # the rotation from the leader: a -> o1 -> b -> o2, b -> o2 -> a -> o1
        seats = ["a", "o1", "b", "o2"] if order == "a" else ["b", "o2", "a", "o1"]
        hands = {"a": a, "b": b, "o1": o1, "o2": o2}
        got = _round(hands, seats, 0, [])
        best = got if best is None else min(best, got)
    return best or 0


def _round(hands: dict[str, frozenset[int]], seats: list[str], i: int, played: list[tuple[str, int]]) -> int:
    """One round of ``trump_tricks`` from seat ``seats[i]`` on: the side minimises, the opponents maximise."""
    if i == 4:
        top = max(played, key=lambda p: p[1], default=None)
        won = 1 if top is not None and top[0] in ("o1", "o2") else 0
        return won + trump_tricks(hands["a"], hands["b"], hands["o1"], hands["o2"])
    seat = seats[i]
    cards = hands[seat]
    if not cards:
        return _round(hands, seats, i + 1, played)
    results = []
    for r in cards:
        results.append(_round({**hands, seat: cards - {r}}, seats, i + 1, [*played, (seat, r)]))
    return max(results) if seat in ("o1", "o2") else min(results)


def _rotation(leader: Any) -> list[Any]:
    seats = [leader]
    for _ in range(3):
        seats.append(seats[-1].next)
    return seats
