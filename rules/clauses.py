"""The clauses claimlaw encodes: our one-paragraph paraphrase of each (never the law's text).

``verified`` says whether the clause's text was read in a copy of the law itself (see
the project's laws reference); a clause we could only reconstruct is marked so everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from claimlaw.facts import CORRECTION_MINUTES, EDITIONS


@dataclass(frozen=True)
class Clause:
    id: str
    title: str
    paraphrase: str
    editions: tuple[str, ...]
    unverified_in: tuple[str, ...] = ()


CLAUSES: dict[str, Clause] = {c.id: c for c in [
    Clause("68.preamble", "Only tricks other than the one in progress",
           "A statement or action about the current trick alone is neither a claim nor a concession; play goes "
           "on, a defender's exposed cards are not penalty cards, and the laws on unauthorised information and "
           "premature play may apply.", ("2017", "2007"), ("2007",)),
    Clause("68A", "Claim defined",
           "Saying that a side will win a number of tricks is a claim of them; so is suggesting that play stop, "
           "or showing one's cards, unless the player demonstrably did not mean to claim (declarer facing his "
           "hand after an opening lead out of turn is Law 54's business).", EDITIONS,
           ("2007", "1997")),
    Clause("68B1", "Concession defined",
           "Saying that a side will lose a number of tricks concedes them; claiming some tricks concedes the "
           "rest; abandoning one's hand concedes all that remain.", ("2017", "2007")),
    Clause("68B", "Concession defined (1997)",
           "1997 put the definition and the partner's-objection rule in one paragraph.", ("1997",), ("1997",)),
    Clause("68B2", "A defender's concession that partner objects to",
           "If a defender tries to concede and his partner objects at once, nothing has been conceded (2017: and "
           "nothing claimed); the Director is called, play continues, exposed cards are not penalty cards but "
           "their information is unauthorised for partner (16C in 2017, 16D in 2007).", ("2017", "2007")),
    Clause("68C", "Clarification required",
           "A claim should come at once with a clear statement of the line of play, including the order of the "
           "cards; 2017 adds that the claimer or conceder faces his hand.", EDITIONS,
           ("1997",)),
    Clause("68D", "Play suspended",
           "After a claim or concession play stops: suspended (2017), ceases with later play usable as evidence "
           "(2007), ceases with later play voided (1997).", EDITIONS, ("1997",)),
    Clause("68D1", "Agreed", "A claim or concession nobody doubts is agreed and Law 69 applies.",
           EDITIONS),
    Clause("68D2", "Doubted", "If any player, dummy included, doubts it, the claim or concession is not agreed.",
           EDITIONS),
    Clause("68D2(a)", "Director summoned",
           "A doubted claim or concession is ruled on by the Director under Law 70; nothing is done until he "
           "comes.", ("2017",), ("2017",)),
    Clause("68D2(b)", "Play on at the non-claimers' request",
           "2017 only: the non-claiming side may ask to play on; if all four agree, the claim is void and the "
           "result of the play stands; otherwise the Director rules and the play is evidence.", ("2017",),
           ("2017",)),
    Clause("69A", "Agreement established",
           "Agreement is established when the side assents and raises no objection before its next call on a "
           "later board or the end of the round; the board is scored as claimed or conceded.",
           EDITIONS, ("1997",)),
    Clause("69B", "Agreement withdrawn",
           "Within the correction period a side may withdraw its agreement for the tricks named in 69B1 and 69B2.",
           EDITIONS, ("1997",)),
    Clause("69B1", "A trick in fact won",
           "Agreement to lose a trick the side had actually won can be withdrawn.", EDITIONS),
    Clause("69B2", "A trick likely won",
           "Agreement to lose a trick the side would likely have won had play continued can be withdrawn "
           "(1997, reconstructed: a trick that could not be lost by normal play).", ("2017", "2007")),
    Clause("70A", "General objective",
           "The Director rules as equitably as he can, but every doubtful point about a claim goes against the "
           "claimer.", EDITIONS),
    Clause("70B", "Clarification statement repeated",
           "The claimer repeats his statement; the opponents' objections are heard; the cards may be faced "
           "(1997: all hands are faced before the objections).", EDITIONS),
    Clause("70C", "Outstanding trump",
           "When an opponent still holds a trump, the opponents get the tricks that normal play could lose to "
           "it, if the claimer said nothing about it and was at all likely unaware of it.",
           EDITIONS),
    Clause("70C1", "No statement about the trump", "The claimer made no statement about that trump.",
           EDITIONS),
    Clause("70C2", "At all likely unaware",
           "It is at all likely that, when he claimed, the claimer did not know a trump was still out.",
           EDITIONS),
    Clause("70C3", "A trick could be lost to it", "Some normal play would lose a trick to that trump.",
           EDITIONS),
    Clause("70D", "Claimer proposes a new line (1997)",
           "1997: no successful line outside the statement when a less successful normal line exists.",
           ("1997",)),
    Clause("70D1", "Lines outside the statement",
           "No successful line outside the original statement is accepted if a less successful normal line "
           "exists.", ("2017", "2007")),
    Clause("70D2", "A defender's claim and partner's choice",
           "No part of a defender's claim that depends on his partner choosing one normal play among several is "
           "accepted.", ("2017", "2007")),
    Clause("70D3", "Play after the claim as evidence (2007)",
           "2007: play that happened after the claim may be taken as evidence of the probable play.", ("2007",)),
    Clause("70E", "Unstated finesse or drop (1997)",
           "1997: as 70E1, including the exception for a line it would be irrational not to take.", ("1997",)),
    Clause("70E1", "Unstated finesse or drop",
           "An unstated line that succeeds only by finding a card with one opponent rather than the other is "
           "not accepted, unless an opponent has shown out of that suit or would on any normal line (2007 also: "
           "unless failing to take it would be irrational).", ("2017", "2007")),
    Clause("70E2", "Regulating Authority's order",
           "The Regulating Authority may fix the order in which an unclarified suit is deemed played.",
           ("2017", "2007"), ("2017", "2007")),
    Clause("70.footnote", "Normal play",
           "For Laws 70 and 71 (1997: 69-71) normal play includes careless or inferior play for the class of "
           "player (1997: but not irrational play).", EDITIONS, ("1997",)),
    Clause("71", "Concession cancelled",
           "A concession stands once made, except that within the correction period the Director cancels it for "
           "the tricks in 71A and 71B and rescores the board.", EDITIONS, ("1997",)),
    Clause("71A", "A trick in fact won", "A conceded trick the side had actually won is given back.",
           ("2017", "1997"), ("1997",)),
    Clause("71B", "A trick that could not be lost",
           "A conceded trick that no normal play of the remaining cards could lose is given back.",
           ("2017", "1997"), ("1997",)),
    Clause("71.1", "A trick in fact won (2007)", "2007 numbering of 71A.", ("2007",)),
    Clause("71.2", "A trick that could not be lost (2007)", "2007 numbering of 71B.", ("2007",)),
    Clause("71C", "Timing (1997)",
           "1997 (reconstructed): an implausible concession may be cancelled at any time within the correction "
           "period.", ("1997",), ("1997",)),
    Clause("79B1", "Disagreement after a claim",
           "When a disagreement about tricks follows a claim or concession, the Director applies 69B or 71 "
           "(2007: Law 69).", ("2017", "2007"), ("2007",)),
    Clause("79C", "Correction period",
           f"Scores may be corrected until the correction period ends: {CORRECTION_MINUTES:g} minutes after the "
           "official score is available, unless the organiser sets another time.", EDITIONS, ("2007", "1997")),
]}


def normalise(clause: str) -> str:
    """'70c' -> '70C', '68 preamble' -> '68.preamble', '68D2a' / '68d2(B)' -> '68D2(a)'."""
    s = clause.strip().replace(" ", ".")
    if any(w in s.lower() for w in ("preamble", "footnote")):
        return s.lower()
    s = s[:2] + s[2:].upper()
    for letter in ("A", "B"):
        if s.endswith(f"D2{letter}") or s.endswith(f"D2({letter})"):
            s = s[: s.rindex("D2") + 2] + f"({letter.lower()})"
    return s
