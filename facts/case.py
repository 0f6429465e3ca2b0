"""The case file: a table situation as a Director would write it down.

Every key is validated on load; a problem is reported as ``field: problem`` on one line.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    field_validator,
    model_validator,
)

from facts.cards import SEATS, Card, Seat, Side, Suit, parse_pbn_deal
from facts.contract import Contract
from facts.position import PlayError, Position, position_from_deal


class CaseError(ValueError):
    """A case file that cannot be read: names the field and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


def _card(v: Any) -> Card:
    return v if isinstance(v, Card) else Card.parse(str(v))


def _seat(v: Any) -> Seat:
    return v if isinstance(v, Seat) else Seat.parse(str(v))


def _side(v: Any) -> Side:
    return v if isinstance(v, Side) else Side.parse(str(v))


def _suit(v: Any) -> Suit:
    return v if isinstance(v, Suit) else Suit.parse(str(v))


def _clause_ids(v: Any) -> Any:
    """Clause ids as strings: YAML reads ``[71]`` as a number."""
    return [str(x) for x in v] if isinstance(v, list) else v


def _contract(v: Any) -> Contract:
    return v if isinstance(v, Contract) else Contract.parse(str(v))


CardF = Annotated[Card, BeforeValidator(_card), PlainSerializer(str, return_type=str),
                  Field(json_schema_extra={"type": "string", "examples": ["SA", "♠3", "H10"]})]
SeatF = Annotated[Seat, BeforeValidator(_seat)]
SideF = Annotated[Side, BeforeValidator(_side)]
SuitF = Annotated[Suit, BeforeValidator(_suit)]
ContractF = Annotated[Contract, BeforeValidator(_contract), PlainSerializer(str, return_type=str),
                      Field(json_schema_extra={"type": "string", "examples": ["4S", "3NTX", "6HXX"]})]

Edition = Literal["2017", "2007", "1997"]
Response = Literal["agrees", "disputes", "silent"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)


# -- the structured line of play ------------------------------------------------------

StepAction = Literal["cash", "draw_trumps", "finesse", "ruff", "cross", "concede", "play", "discard",
                     "ruffing_finesse"]


class Condition(_Model):
    """When a conditional step applies: ``suit`` is seen to lie ``lengths`` between the opponents ("3-1")."""

    suit: SuitF | None = None
    lengths: list[int] = Field(default_factory=list)
    text: str | None = None


class Step(_Model):
    """One step of a stated line (see docs/case-format.md).

    ``cash``: run ``suit`` from the top (``count`` rounds, default all);
    ``draw_trumps``: play trumps until the opponents have none;
    ``finesse``: finesse against ``card`` (the missing honour) in ``suit``, optionally with
    ``cards`` (the card finessed with);
    ``ruff``: ruff ``suit`` in ``hand``; ``cross``: get to ``hand`` (in ``suit`` if given);
    ``concede``: lose a trick (``suit``), ``when`` now or at the end;
    ``play``: these exact ``cards`` in this order (a ``suit`` and no cards: a card of that suit);
    ``discard``: throw ``cards`` on winners;
    ``ruffing_finesse``: lead ``suit`` through the opponent placed with ``card``: ruff if he covers,
    else discard a loser;
    ``condition``: the step applies only once the claimer sees the condition hold ("if trumps are 3-1").
    """

    action: StepAction
    suit: SuitF | None = None
    hand: SeatF | None = None
    card: CardF | None = None
    cards: list[CardF] = Field(default_factory=list)
    count: int | None = Field(default=None, ge=1, le=13)
    when: Literal["now", "end"] | None = None
    condition: Condition | None = None
    text: str | None = None  # the words this step was read from


class Line(_Model):
    """A claimer's line: steps, and whether their order was stated ("... then ...")."""

    steps: list[Step] = Field(default_factory=list)
    ordered: bool = False


# -- the parts of a case ---------------------------------------------------------------


class Board(_Model):
    """The deal (as dealt, with the play) or a claim diagram (the remaining cards)."""

    deal: str | None = None
    contract: ContractF | None = None
    declarer: SeatF | None = None
    vulnerable: Literal["none", "NS", "EW", "all"] = "none"
    play: list[list[CardF]] = Field(default_factory=list)
    position: str | None = None
    leader: SeatF | None = None
    trick: list[CardF] = Field(default_factory=list)
    won: dict[SideF, int] | None = None

    @model_validator(mode="before")
    @classmethod
    def _vul(cls, data: Any) -> Any:
        if isinstance(data, dict) and "vulnerable" in data:
            v = data["vulnerable"]
            norm = {None: "none", False: "none", True: "all", "-": "none", "love": "none",
                    "none": "none", "ns": "NS", "ew": "EW", "all": "all", "both": "all"}
            key = v.lower() if isinstance(v, str) else v
            if key in norm:
                data = dict(data, vulnerable=norm[key])
        return data

    @property
    def dummy(self) -> Seat | None:
        return self.declarer.partner if self.declarer else None

    @property
    def trump(self) -> Suit | None:
        return self.contract.strain.trump if self.contract else None

    def is_vulnerable(self, side: Side) -> bool:
        return self.vulnerable == "all" or self.vulnerable == side.value


class Claim(_Model):
    """What the claimer or conceder said and did."""

    by: SeatF
    says: Literal["claim", "concede"] = "claim"
    tricks: int | None = Field(default=None, ge=0, le=13)
    statement: str = ""
    line: Line | None = None
    shows_cards: bool = False
    suggests_curtailing: bool = False
    abandons_hand: bool = False
    current_trick_only: bool = False
    after_lead_out_of_turn: bool = False


class PlayOn(_Model):
    """Play continued after a doubted claim (68D2(b))."""

    requested_by: SeatF
    all_concurred: bool


class Responses(_Model):
    """What each player said to the claim, and what happened next."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    N: Response = "silent"
    E: Response = "silent"
    S: Response = "silent"
    W: Response = "silent"
    partner_objected_immediately: bool = False
    play_on: PlayOn | None = None
    play_after_claim: list[list[CardF]] = Field(default_factory=list)

    def of(self, seat: Seat) -> Response:
        return getattr(self, seat.value)


Moment = Literal["none", "at_once", "before_next_call", "after_next_call", "after_round_end"]


class Timing(_Model):
    """When a later objection came (69A, 69B, 71, 79C).

    ``objection``: when a side that had assented (or the conceding side) objected:
    ``none``, ``at_once``, ``before_next_call`` (before its next call on a subsequent board
    and before the round ended), ``after_next_call`` or ``after_round_end``.
    ``objection_by``: the seat that objected. ``within_correction_period`` or
    ``minutes_after_scores_posted`` place it against the Law 79C correction period;
    ``correction_period_minutes`` is the Tournament Organizer's period (default 30).
    """

    objection: Moment = "none"
    objection_by: SeatF | None = None
    within_correction_period: bool | None = None
    minutes_after_scores_posted: float | None = Field(default=None, ge=0)
    correction_period_minutes: float | None = Field(default=None, gt=0)


PlayerClass = Literal["beginner", "club", "expert", "world_class"]


class Findings(_Model):
    """The Director's findings of fact; each one overrides a rule's default.

    ``would_likely_have_won``: of the remaining tricks, how many the withdrawing side would
    likely have won had play continued (69B2). ``conceded_won_tricks``: tricks a side agreed
    to lose that it had in fact already won (69B1, 71A). ``irrational_not_to``: failing to
    take the unstated line would have been irrational (1997 and 2007 70E1 only).
    ``outcome_weights``: the Director's weighting of the claimer's side's tricks of those remaining
    (e.g. ``{11: 0.5, 12: 0.5}``), used only where a Regulating Authority allows a weighted result.
    """

    aware_of_trumps: bool | None = None
    class_of_player: PlayerClass | None = None
    unaware_of: list[CardF] = Field(default_factory=list)
    demonstrably_not_claim: bool | None = None
    would_likely_have_won: int | None = Field(default=None, ge=0, le=13)
    conceded_won_tricks: int | None = Field(default=None, ge=0, le=13)
    irrational_not_to: bool | None = None
    outcome_weights: dict[int, float] = Field(default_factory=dict)
    notes: str = ""

    @field_validator("outcome_weights")
    @classmethod
    def _weights_sum_to_one(cls, v: dict[int, float]) -> dict[int, float]:
        if not v:
            return v
        for tricks, w in v.items():
            if not 0 <= tricks <= 13:
                raise ValueError(f"{tricks} tricks is outside 0..13")
            if not 0 < w <= 1:
                raise ValueError(f"the weight of {tricks} tricks is {w}; weights lie in (0, 1]")
        if abs(sum(v.values()) - 1) > 1e-3:
            raise ValueError(f"the weights add up to {sum(v.values()):g}, not 1")
        return dict(sorted(v.items()))


class Expect(_Model):
    """The expected ruling, so a case doubles as a regression test."""

    tricks: dict[SideF, int] | None = None
    laws: Annotated[list[str], BeforeValidator(_clause_ids)] = Field(default_factory=list)
    outcome: str | None = None
    edition: Edition | None = None


class Case(_Model):
    """A table situation: the board, the claim, the responses, timing and findings."""

    title: str = ""
    source: str = ""
    edition: Edition = "2017"
    regulations: list[str] = Field(default_factory=list)
    board: Board | None = None
    claim: Claim
    responses: Responses = Field(default_factory=Responses)
    timing: Timing = Field(default_factory=Timing)
    findings: Findings = Field(default_factory=Findings)
    expect: Expect | None = None

    @model_validator(mode="after")
    def _check(self) -> Case:
        check_case(self)
        return self

    # -- derived facts -------------------------------------------------------------
    @property
    def claimer_side(self) -> Side:
        return self.claim.by.side

    def role_of(self, seat: Seat) -> Literal["declarer", "dummy", "defender"] | None:
        if not self.board or not self.board.declarer:
            return None
        if seat == self.board.declarer:
            return "declarer"
        if seat == self.board.declarer.partner:
            return "dummy"
        return "defender"

    def position(self) -> Position | None:
        """The position at the moment of the claim, or None when the case has no cards."""
        return build_position(self)


# -- validation ------------------------------------------------------------------------


def _count_check(hands: dict[Seat, list[Card]], where: str, exact: int | None) -> None:
    seen: Counter[Card] = Counter()
    for seat in SEATS:
        seen.update(hands[seat])
        if exact is not None and len(hands[seat]) != exact:
            raise CaseError(where, f"{seat.long_name} has {len(hands[seat])} cards; a hand as dealt has {exact}")
    dups = sorted(c for c, n in seen.items() if n > 1)
    if dups:
        raise CaseError(where, f"{', '.join(c.pretty for c in dups)} appears twice")


def build_position(case: Case) -> Position | None:
    b = case.board
    if b is None or (b.deal is None and b.position is None):
        return None
    trump = b.trump
    if b.deal is not None:
        try:
            hands = parse_pbn_deal(b.deal)
        except ValueError as e:
            raise CaseError("board.deal", str(e)) from None
        _count_check(hands, "board.deal", 13)
        if b.declarer is None:
            raise CaseError("board.declarer", "needed to know who led first")
        try:
            return position_from_deal(hands, trump, b.declarer.next, b.play)
        except PlayError as e:
            raise CaseError(e.field, e.problem) from None
    assert b.position is not None
    try:
        hands = parse_pbn_deal(b.position)
    except ValueError as e:
        raise CaseError("board.position", str(e)) from None
    _count_check(hands, "board.position", None)
    if b.leader is None:
        raise CaseError("board.leader",
                        "a claim diagram needs the leader of the trick in progress (or of the next trick)")
    for c in b.trick:
        if any(c in hands[s] for s in SEATS):
            raise CaseError("board.trick", f"{c.pretty} is both in a hand and in the trick in progress")
    if len(set(b.trick)) != len(b.trick):
        raise CaseError("board.trick", "a card appears twice")
    if len(b.trick) > 3:
        raise CaseError("board.trick", "a trick in progress has at most 3 cards")
    n_lead = len(hands[b.leader]) + (1 if b.trick else 0)
    seat = b.leader
    for i in range(4):
        expect = n_lead - 1 if i < len(b.trick) else n_lead
        if len(hands[seat]) != expect:
            raise CaseError("board.position", f"{seat.long_name} has {len(hands[seat])} cards; with "
                            f"{len(b.trick)} card(s) played to the trick in progress they should have {expect}")
        seat = seat.next
    won = {Side.NS: 0, Side.EW: 0}
    if b.won is not None:
        won.update(b.won)
    elif n_lead != 13:
        raise CaseError("board.won", "give the tricks already won per side, e.g. {NS: 8, EW: 3}")
    if won[Side.NS] + won[Side.EW] + n_lead != 13:
        raise CaseError("board.won", f"{won[Side.NS]}+{won[Side.EW]} tricks won plus {n_lead} left is not 13")
    pos = Position(hands={s: set(hands[s]) for s in SEATS}, trump=trump, leader=b.leader, won=won)
    for c in b.trick:
        pos.hands[pos.to_move].add(c)
        try:
            pos.play(c, where="board.trick")
        except PlayError as e:
            raise CaseError(e.field, e.problem) from None
    return pos


def check_case(case: Case) -> None:
    """Cross-field checks that the models alone cannot make."""
    b = case.board
    if b is not None:
        if b.deal is not None and b.position is not None:
            raise CaseError("board", "give either deal (with play) or position, not both")
        if b.position is not None and b.play:
            raise CaseError("board.play", "a claim diagram (board.position) has no play record; use board.trick")
        if b.contract is not None and b.declarer is None:
            raise CaseError("board.declarer", "a contract needs a declarer")
    pos = build_position(case)
    c = case.claim
    if pos is not None:
        left = pos.tricks_left - (1 if pos.trick else 0) if c.current_trick_only else pos.tricks_left
        if c.tricks is not None and c.tricks > pos.tricks_left:
            raise CaseError("claim.tricks", f"{c.tricks} tricks claimed but only {pos.tricks_left} remain")
        del left
        if case.responses.play_after_claim:
            after = pos.copy()
            for t_i, trick in enumerate(case.responses.play_after_claim):
                for c_i, card in enumerate(trick):
                    try:
                        after.play(card, where=f"responses.play_after_claim[{t_i}][{c_i}]")
                    except PlayError as e:
                        raise CaseError(e.field, e.problem) from None
    po = case.responses.play_on
    if po is not None and po.requested_by not in SEATS:
        raise CaseError("responses.play_on.requested_by", "unknown seat")
    if case.timing.objection != "none" and case.timing.objection_by is None:
        raise CaseError("timing.objection_by", "say which seat objected")


def _first_error(err: ValidationError) -> CaseError:
    e = err.errors()[0]
    loc = ".".join(str(p) for p in e["loc"] if not str(p).startswith("function-"))
    msg = e["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    ctx = e.get("ctx") or {}
    inner = ctx.get("error")
    if isinstance(inner, CaseError):
        return inner
    if e["type"] == "extra_forbidden":
        msg = "unknown key (see `claimlaw schema`)"
    if e["type"] == "literal_error" and "expected" in ctx:
        msg = f"got {e.get('input')!r}; expected {ctx['expected']}"
    return CaseError(loc, msg)


def case_from_dict(data: Any) -> Case:
    """Validate a parsed case; raise CaseError with one line on the first problem."""
    if not isinstance(data, dict):
        raise CaseError("", "a case file must be a mapping of keys (edition, board, claim, ...)")
    try:
        return Case.model_validate(data)
    except CaseError:
        raise
    except ValidationError as err:
        raise _first_error(err) from None


def load_case(path: str | Path) -> Case:
    """Read a YAML or JSON case file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise CaseError(str(path), f"cannot read the file ({e.strerror})") from None
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise CaseError(str(path), f"not valid JSON: {e.msg} at line {e.lineno}") from None
    else:
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            where = f" at line {mark.line + 1}" if mark else ""
            raise CaseError(str(path), f"not valid YAML{where}") from None
    return case_from_dict(data)


def case_schema() -> dict[str, Any]:
    """The JSON Schema of a case file."""
    return Case.model_json_schema(mode="validation")
