"""A ruling: outcome, tricks, score, the traced chain of law references, witness lines."""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

Outcome = Literal[
    "not_a_claim",            # 68 preamble / 68A exception: play proceeds
    "no_concession",          # 68B2: neither a concession nor a claim, play continues
    "play_continues",         # play goes on regularly
    "agreed",                 # 69A: board scored as claimed or conceded
    "agreement_withdrawn",    # 69B: tricks transferred back
    "play_on_score_stands",   # 68D2(b): claim void, score obtained at the table stands
    "director_rules",         # 68D2(a)/70: the Director adjudicates
    "claim_allowed",          # 70: the claim is good
    "claim_adjusted",         # 70: tricks taken from the claimer
    "concession_cancelled",   # 71: tricks restored to the conceding side
    "concession_stands",      # 71 does not apply
    "claim_not_established",  # 70A: the search stopped before proving the claim (doubt against the claimer)
    "count_unproven",         # 69B/71: the search stopped before settling the count the law turns on
    "needs_play_core",        # a trick count was needed but no play core is attached
    "needs_facts",            # the case lacks a fact the law needs
]


class Choice(NamedTuple):
    """One entry of ``Witness.choices`` read back: the licence, the seat's name, the card as printed, why."""

    licence: str
    seat: str
    card: str
    why: str


_CHOICE = re.compile(r"^(?P<licence>[^:]+): (?P<seat>North|East|South|West) plays (?P<card>\S+): (?P<why>.*)$")


class CostlyCard(BaseModel):
    """The card of the claiming side after which, on the witness line, the claim can no longer be made (best play
    from there on, by both sides, gives fewer tricks than claimed), and the guideline that made it normal."""

    model_config = ConfigDict(extra="forbid")

    seat: str         # N, E, S or W
    card: str         # as in the witness line, e.g. "CA"
    trick: int        # the trick of the board it was played to
    licence: str      # the guideline (licence) that made the card normal; "" when no licence named it
    why: str          # the guideline in a Director's words, with its source
    at_most: int      # the side's tricks of those remaining at the claim, best play after the card
    sentence: str     # the same in one sentence


class Witness(BaseModel):
    """A line of play that produces a count: cards trick by trick, and the choices it used."""

    model_config = ConfigDict(extra="forbid")

    side: str
    tricks: int
    question: str  # "double_dummy", "worst_normal", "cannot_lose"
    tricks_played: list[list[str]] = Field(default_factory=list)  # each trick from its leader
    leaders: list[str] = Field(default_factory=list)
    choices: list[str] = Field(default_factory=list)  # the licences the line used, with sources
    words: str = ""  # the line in a Director's words
    costly: CostlyCard | None = None  # the card that first made the claim impossible (an adjusted claim's line)

    def parsed_choices(self) -> list[Choice | str]:
        """Each choice as (licence, seat, card, why); one not of the form "<licence>: <Seat> plays <card>: <why>"
        stays the plain string."""
        out: list[Choice | str] = []
        for ch in self.choices:
            m = _CHOICE.match(ch)
            out.append(Choice(m["licence"], m["seat"], m["card"], m["why"]) if m else ch)
        return out


class TraceStep(BaseModel):
    """One fired rule: the clause, the edition, why, what it rested on and what it concluded."""

    model_config = ConfigDict(extra="forbid")

    clause: str
    edition: str
    rule: str
    reason: str
    source: str = ""  # the law book, or the pack and document a rule comes from
    facts: dict[str, Any] = Field(default_factory=dict)
    concluded: dict[str, Any] = Field(default_factory=dict)
    text_verified: bool = True
    pack: str = ""  # the Regulating-Authority pack that supplied this rule ("" for the Laws themselves)
    packs: list[str] = Field(default_factory=list)  # the packs in force for the whole ruling
    cites: list[str] = Field(default_factory=list)  # the regulations that changed this step ("60 minutes: ...")


class WeightedResult(BaseModel):
    """One outcome of a weighted result: the board's tricks per side, its weight and score."""

    model_config = ConfigDict(extra="forbid")

    tricks: dict[str, int]
    weight: float
    score: int | None = None


class Ruling(BaseModel):
    """What the Director rules, and how the rules got there."""

    model_config = ConfigDict(extra="forbid")

    edition: str
    packs: list[str] = Field(default_factory=list)
    outcome: Outcome
    summary: str
    next_step: str = ""
    tricks: dict[str, int] | None = None  # total tricks of the board per side
    score: int | None = None              # for declarer's side, when the contract is known
    score_for: str | None = None
    contract: str | None = None
    class_of_player: str | None = None  # the class of player ruled for (the 70 footnote), and where it came from
    class_from: str = ""
    notes: list[str] = Field(default_factory=list)
    witnesses: list[Witness] = Field(default_factory=list)
    weighted: list[WeightedResult] = Field(default_factory=list)  # only where an RA allows a weighted result
    trace: list[TraceStep] = Field(default_factory=list)  # the law chain: the steps this ruling rests on
    considered: list[TraceStep] = Field(default_factory=list)  # rules that fired but changed nothing here
    proven: bool = True  # False: some count it rests on comes from a search stopped by its budget or by Ctrl-C

    def as_json(self, differences: list[str] | None = None) -> dict[str, Any]:
        """The ruling as ``claimlaw rule --json`` gives it: its fields, its law chain, and, with ``differences``
        (from the case's ``expect`` block), whether it matches."""
        data = self.model_dump(mode="json")
        data["laws"] = self.laws
        if differences is not None:
            data["expect"] = {"matches": not differences, "differences": differences}
        return data

    @property
    def laws(self) -> list[str]:
        """Clause ids in the order they fired (first occurrence)."""
        seen: list[str] = []
        for s in self.trace:
            if s.clause not in seen:
                seen.append(s.clause)
        return seen
