"""claimlaw's vocabulary: cards, positions, case files and rulings (imports nothing of ours)."""

from claimlaw.facts.cards import SEAT_NAMES, SEATS, SIDE_NAMES, SUITS, Card, Seat, Side, Strain, Suit
from claimlaw.facts.case import (
    CORRECTION_MINUTES,
    DEFAULT_EDITION,
    EDITIONS,
    Case,
    CaseError,
    Claim,
    Line,
    Step,
    case_from_dict,
    case_schema,
    load_case,
)
from claimlaw.facts.contract import Contract, score
from claimlaw.facts.position import PlayError, Position, Revoke, Trick
from claimlaw.facts.ruling import Choice, CostlyCard, Outcome, Ruling, TraceStep, WeightedResult, Witness

__all__ = [
    "CORRECTION_MINUTES", "DEFAULT_EDITION", "EDITIONS", "SEAT_NAMES", "SIDE_NAMES", "SEATS", "SUITS", "Card",
    "Case", "CaseError", "Claim", "Contract", "Line", "PlayError", "Position", "Revoke", "Seat", "Side", "Step",
    "Strain", "Suit", "Trick", "case_from_dict", "case_schema", "load_case", "score", "Choice", "CostlyCard",
    "Outcome", "Ruling", "TraceStep", "WeightedResult", "Witness",
]
