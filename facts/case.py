"""The case file: a table situation as a Director would write it down.

Every key is validated on load; a problem is reported as ``field: problem`` on one line.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from claimlaw.facts.cards import SEATS, Card, Seat, Side, Suit, parse_pbn_deal
from claimlaw.facts.contract import Contract
from claimlaw.facts.position import PlayError, Position, position_from_deal
from claimlaw.facts.reading import ReadError, check_shape, parse_json, parse_yaml, read_text


class CaseError(ValueError):
    """A case file that cannot be read: names the field and the problem."""

    def __init__(self, field: str, problem: str, *, cards: tuple[str, ...] = (), seats: tuple[str, ...] = ()) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem
        # what the problem is about, as data for a face that marks it (the web page's hands): cards as "SA", seats
        self.cards = cards
        self.seats = seats


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


def _edition(v: Any) -> Any:
    """An edition as a string: YAML reads an unquoted ``2007`` as a number."""
    return str(v) if isinstance(v, int) and not isinstance(v, bool) else v


def _number(v: Any) -> Any:
    """A number of minutes: true/false are not numbers."""
    if isinstance(v, bool):
        raise ValueError(f"expected a number, got {str(v).lower()}")
    return v


CardF = Annotated[Card, BeforeValidator(_card), PlainSerializer(str, return_type=str),
                  Field(json_schema_extra={"type": "string", "examples": ["SA", "♠3", "H10"]})]
SeatF = Annotated[Seat, BeforeValidator(_seat)]
SideF = Annotated[Side, BeforeValidator(_side)]
SuitF = Annotated[Suit, BeforeValidator(_suit)]
ContractF = Annotated[Contract, BeforeValidator(_contract), PlainSerializer(str, return_type=str),
                      Field(json_schema_extra={"type": "string", "examples": ["4S", "3NTX", "6HXX"]})]

EditionName = Literal["2017", "2007", "1997"]
EDITIONS: tuple[str, ...] = get_args(EditionName)  # the editions of the Laws claimlaw knows, newest first
DEFAULT_EDITION: str = EDITIONS[0]
CORRECTION_MINUTES = 30.0  # Law 79C: the correction period, unless the organiser (a case or a pack) sets another
Edition = Annotated[EditionName, BeforeValidator(_edition)]
Tricks = Annotated[StrictInt, Field(ge=0, le=13)]
Minutes = Annotated[float, BeforeValidator(_number), Field(allow_inf_nan=False, le=1_000_000)]
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
    count: Annotated[StrictInt, Field(ge=1, le=13)] | None = None
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
    won: dict[SideF, Tricks] | None = None

    @model_validator(mode="before")
    @classmethod
    def _vul(cls, data: Any) -> Any:
        if isinstance(data, dict) and "vulnerable" in data:
            v = data["vulnerable"]
            norm = {None: "none", False: "none", True: "all", "-": "none", "love": "none",
                    "none": "none", "ns": "NS", "ew": "EW", "all": "all", "both": "all"}
            key = v.lower() if isinstance(v, str) else v
            if (key is None or isinstance(key, str | bool)) and key in norm:
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
    """What the claimer or conceder said and did.

    ``added_statement``: words the claimer added to his statement later (while the claim was being discussed);
    ``added_before_objection``: whether he said them before the opponents' first objection (true), after it (false),
    or the Director has not found out (absent). 70D1 reads them with the statement only when said before.
    """

    by: SeatF
    says: Literal["claim", "concede"] = "claim"
    tricks: Tricks | None = None
    statement: str = ""
    added_statement: str = ""
    added_before_objection: bool | None = None
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
    ``correction_period_minutes`` is the Tournament Organizer's period (default ``CORRECTION_MINUTES``).
    """

    objection: Moment = "none"
    objection_by: SeatF | None = None
    within_correction_period: bool | None = None
    minutes_after_scores_posted: Annotated[Minutes, Field(ge=0)] | None = None
    correction_period_minutes: Annotated[Minutes, Field(gt=0)] | None = None


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
    would_likely_have_won: Tricks | None = None
    conceded_won_tricks: Tricks | None = None
    irrational_not_to: bool | None = None
    outcome_weights: dict[int, Annotated[float, BeforeValidator(_number), Field(allow_inf_nan=False)]] = Field(
        default_factory=dict)
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

    tricks: dict[SideF, Tricks] | None = None
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
    if exact is not None:
        # the seats with too many cards first: one misplaced card leaves another seat short
        wrong = sorted((s for s in SEATS if len(hands[s]) != exact), key=lambda s: -len(hands[s]))
        if wrong:
            said = ", ".join(f"{s.long_name} has {len(hands[s])} cards" for s in wrong)
            raise CaseError(where, f"{said}; a hand as dealt has {exact}", seats=tuple(s.value for s in wrong))
    dups = sorted(c for c, n in seen.items() if n > 1)
    if dups:
        raise CaseError(where, f"{', '.join(c.pretty for c in dups)} appears twice", cards=tuple(str(c) for c in dups))


def _tricks_left(b: Board, hands: dict[Seat, list[Card]]) -> int:
    """The tricks left in a claim diagram, each hand judged against the position's count: 13 less the tricks
    won when they are given and some hand holds that many, else the count most hands hold (a hand that played
    to the trick in progress holds one card fewer). Every hand off that count is named at once; hands that agree
    with each other leave a wrong count of tricks won to the board.won check."""
    assert b.leader is not None
    played, seat = set(), b.leader
    for _ in b.trick:
        played.add(seat)
        seat = seat.next
    counts = {s: len(hands[s]) + (1 if s in played else 0) for s in SEATS}
    if len(set(counts.values())) == 1:  # the hands agree: a wrong count of tricks won is told at board.won
        return counts[b.leader]
    if b.won is not None and 13 - sum(b.won.values()) in counts.values():
        n, why = 13 - sum(b.won.values()), f"with {sum(b.won.values())} trick(s) won"
    else:
        tally = Counter(counts.values())
        n = max(tally, key=lambda k: (tally[k], k == counts[b.leader], k))
        why = "as most hands hold"
    wrong = [s for s in SEATS if counts[s] != n]
    if wrong:
        said = ", ".join(f"{s.long_name} has {len(hands[s])} card(s)" for s in wrong)
        each = f"each hand should have {n}" + (f" ({n - 1} after playing to the trick in progress)" if played else "")
        raise CaseError("board.position", f"{said}; {why}, {each}", seats=tuple(s.value for s in wrong))
    return n


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
    n_lead = _tricks_left(b, hands)
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
    if b is not None and b.won is not None:
        if sum(b.won.values()) > 13:
            raise CaseError("board.won", f"{b.won.get(Side.NS, 0)}+{b.won.get(Side.EW, 0)} tricks won is more than 13")
        if b.deal is not None and pos is not None:
            for side in (Side.NS, Side.EW):
                if side in b.won and b.won[side] != pos.won[side]:
                    raise CaseError(f"board.won.{side.value}", f"{b.won[side]} tricks, but the play record gives "
                                    f"{side.value} {pos.won[side]}; leave won out when the deal and play are given")
    if pos is not None:
        if c.tricks is not None and c.tricks > pos.tricks_left:
            raise CaseError("claim.tricks", f"{c.tricks} tricks claimed but only {pos.tricks_left} remain")
        if c.current_trick_only and not pos.trick:
            raise CaseError("claim.current_trick_only", "no trick is in progress at the claim (no card of the "
                            "current trick has been played)")
        side_holds = pos.hands[c.by] | pos.hands[c.by.partner]
        for i, card in enumerate(case.findings.unaware_of):
            if card in side_holds:
                holder = c.by if card in pos.hands[c.by] else c.by.partner
                raise CaseError(f"findings.unaware_of[{i}]", f"{card.pretty} is in {holder.long_name}'s hand, on the "
                                "claimer's side; a claimer can only be unaware of an opponent's card")
        if case.responses.play_after_claim:
            after = pos.copy()
            for t_i, trick in enumerate(case.responses.play_after_claim):
                for c_i, card in enumerate(trick):
                    try:
                        after.play(card, where=f"responses.play_after_claim[{t_i}][{c_i}]")
                    except PlayError as e:
                        raise CaseError(e.field, e.problem) from None
    _check_findings(case, pos)
    _check_added(c)
    po = case.responses.play_on
    if po is not None and po.requested_by not in SEATS:
        raise CaseError("responses.play_on.requested_by", "unknown seat")
    if case.timing.objection != "none" and case.timing.objection_by is None:
        raise CaseError("timing.objection_by", "say which seat objected")


def _check_added(c: Claim) -> None:
    """Words added later belong to a claim (70D1), and when they were said needs the words."""
    added = c.added_statement.strip()
    if added and c.says != "claim":
        raise CaseError("claim.added_statement", "words added to a concession are not read (70D1 speaks of a "
                        "claim's statement); put what the conceder said in claim.statement")
    if not added and c.added_before_objection is not None:
        raise CaseError("claim.added_before_objection", "says when words were added, but claim.added_statement "
                        "gives no words")


def _check_findings(case: Case, pos: Position | None) -> None:
    """Findings never speak of more tricks than there are (remaining, or agreed lost)."""
    f, c = case.findings, case.claim
    left = pos.tricks_left if pos is not None else None
    if f.would_likely_have_won is not None and left is not None and f.would_likely_have_won > left:
        raise CaseError("findings.would_likely_have_won",
                        f"{f.would_likely_have_won} tricks, but only {left} remained at the claim")
    back = f.conceded_won_tricks
    if back is None:
        return
    if c.says == "concede":
        lost = c.tricks if c.tricks is not None else left
        if lost is not None and back > lost:
            raise CaseError("findings.conceded_won_tricks",
                            f"{back} tricks found won, but only {lost} {'was' if lost == 1 else 'were'} conceded")
    elif left is not None:
        claimed = c.tricks if c.tricks is not None else left
        agreed_lost = max(claimed, left - claimed)  # by the opponents (69B1) or by the claimer's side (71)
        if back > agreed_lost:
            raise CaseError("findings.conceded_won_tricks",
                            f"{back} tricks found won, but the claim of {claimed} of {left} remaining gave "
                            f"away at most {agreed_lost}")
    if left is not None and back > left:
        raise CaseError("findings.conceded_won_tricks", f"{back} tricks, but only {left} remained at the claim")


def _path(loc: tuple[Any, ...]) -> str:
    """A field path in one style: ``board.play[0][2]``, ``board.won.NS``."""
    out = ""
    for part in loc:
        p = str(part)
        if p.startswith("function-") or p == "[key]":
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            p = p if len(p) <= 40 else p[:39] + "…"  # a key of the file's own, perhaps hostile
            out += f".{p}" if out else p
    return out


def _shown(v: Any) -> str:
    """An input value as the message shows it."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    if v is None:
        return "nothing (null)"
    text = repr(v)
    return text if len(text) <= 40 else text[:39] + "…"


_EXPECTED = {
    "model_type": "a mapping of keys", "model_attributes_type": "a mapping of keys", "dict_type": "a mapping",
    "list_type": "a list", "int_type": "a whole number", "int_parsing": "a whole number",
    "int_from_float": "a whole number", "bool_type": "true or false", "bool_parsing": "true or false",
    "string_type": "text", "float_type": "a number", "float_parsing": "a number", "finite_number": "a finite number",
    "literal_error": "", "enum": "",
}


def _first_error(err: ValidationError) -> CaseError:
    e = err.errors()[0]
    loc = _path(tuple(e["loc"]))
    kind = e["type"]
    msg = e["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    ctx = e.get("ctx") or {}
    inner = ctx.get("error")
    if isinstance(inner, CaseError):
        return inner
    got = e.get("input")
    if kind == "missing":
        msg = "required"
    elif kind == "extra_forbidden":
        msg = "unknown key (see `claimlaw schema`)"
    elif kind == "literal_error" and "expected" in ctx:
        msg = f"got {_shown(got)}; expected {ctx['expected']}"
    elif kind in _EXPECTED:
        msg = f"expected {_EXPECTED[kind]}, got {_shown(got)}"
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = next(iter(ctx.values()), "")
        word = {"greater_than_equal": "at least", "greater_than": "more than", "less_than_equal": "at most",
                "less_than": "less than"}[kind]
        msg = f"{_shown(got)} is out of range; expected {word} {bound}"
    elif msg.startswith("Input should be "):  # any other type error, in our words
        msg = f"expected {msg.removeprefix('Input should be ').removeprefix('a valid ')}, got {_shown(got)}"
    if str(e["loc"][-1]) == "[key]" and len(e["loc"]) > 1:  # a mapping's key, not its value
        loc = _path(tuple(e["loc"])[:-2])
        if kind != "value_error":
            msg = f"key {_shown(e['loc'][-2])}: {msg}"
    return CaseError(loc, msg)


def _visible_key(path: str) -> str:
    """A field path built from the file's own keys, cut short and without control characters."""
    shown = "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in path[:80])
    return shown + ("…" if len(path) > 80 else "")


def case_from_dict(data: Any) -> Case:
    """Validate a parsed case; raise CaseError with one line on the first problem."""
    if not isinstance(data, dict):
        raise CaseError("", "a case file must be a mapping of keys (edition, board, claim, ...)")
    try:
        check_shape(data)
    except ReadError as e:
        raise CaseError(_visible_key(e.field), str(e)) from None
    try:
        return Case.model_validate(data)
    except CaseError:
        raise
    except ValidationError as err:
        raise _first_error(err) from None
    except RecursionError:  # pragma: no cover - check_shape bounds the nesting first
        raise CaseError("", "nested too deeply") from None


def load_case(path: str | Path) -> Case:
    """Read a YAML or JSON case file (within the limits of ``facts.reading``).

    A problem with the file itself is a CaseError whose field is empty (the caller names the file).
    """
    p = Path(path)
    try:
        text = read_text(p)
        data = parse_json(text) if p.suffix.lower() == ".json" else parse_yaml(text)
    except ReadError as e:
        raise CaseError("", str(e)) from None
    if data is None:
        raise CaseError("", "the file is empty; a case needs at least a claim")
    return case_from_dict(data)


def case_schema() -> dict[str, Any]:
    """The JSON Schema of a case file."""
    return Case.model_json_schema(mode="validation")
