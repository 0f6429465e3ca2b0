"""A ruling: outcome, tricks, score, the traced chain of law references, witness lines."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from claimlaw.facts.cards import Card, Seat

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


class Choice(BaseModel):
    """One card of a witness line that a licence (a normal-play guideline) allowed rather than best play: who played
    it, which card, at which trick of the board, and the licence with its meaning and source (from the licence table,
    engine/play/normal/licences.py). ``text`` (in the JSON) is the sentence rendered from these."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: Literal["N", "E", "S", "W"]
    card: str = Field(pattern=r"^[SHDC][2-9TJQKA]$")  # as in ``tricks_played``, e.g. "DA"
    trick: int = Field(ge=1, le=13)  # the trick of the board it was played to
    licence: str      # the licence's name in the table, e.g. "unaware_winner"
    meaning: str      # what the licence allows, in a Director's words
    source: str = ""  # where Directors find it ("" for the model's own follow/discard rules)

    @model_validator(mode="before")
    @classmethod
    def _rendered_text(cls, data: Any) -> Any:
        """A choice read back from JSON brings its ``text``: it must be the one its fields render."""
        if isinstance(data, dict) and "text" in data:
            data = dict(data)
            text = data.pop("text")
            if text != cls.model_validate(data).text:
                raise ValueError(f"text {text!r} is not what the choice's fields say")
        return data

    @property
    def why(self) -> str:
        """The licence in a Director's words, with its source: "plays as if ... (White Book 8.70.6)"."""
        return f"{self.meaning} ({self.source})" if self.source else self.meaning

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """The choice as a sentence: "North plays ♦A: follows his stated line (70D1)"."""
        return f"{Seat(self.seat).long_name} plays {Card.parse(self.card).pretty}: {self.why}"


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
    winners: list[str] = Field(default_factory=list)  # the seat that won each trick of ``tricks_played``
    choices: list[Choice] = Field(default_factory=list)  # the cards a licence allowed, in the order played
    words: str = ""  # the line in a Director's words
    costly: CostlyCard | None = None  # the card that first made the claim impossible (an adjusted claim's line)


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
