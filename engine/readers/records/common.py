"""What the hand-record readers hand back: claim records, read problems and a read report.

A record that holds a claim becomes a :class:`ClaimRecord` wrapping a validated ``facts.Case``
(the deal, contract, declarer, vulnerability and the play up to the claim). A record that cannot
be read becomes a :class:`ReadProblem` with a stated reason; nothing is dropped silently.

Totals are always tricks for **declarer's side over the whole board**, as LIN's ``mc|N|`` and
PBN's ``Result`` give them. Neither format records who claimed: the Case is built with declarer
as the claimer (an assumption, stated in ``ClaimRecord.claimer_note``); ``case_for(seat)``
rebuilds it for any other claimer with the same claimed total.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from claimlaw.facts.cards import Card, Seat, Side
from claimlaw.facts.case import Case, CaseError, case_from_dict
from claimlaw.facts.contract import Contract, score

Room = Literal["open", "closed"]
Format = Literal["lin", "pbn"]

CLAIMER_NOTE = ("the record does not say who claimed; the case names declarer as claimer of the "
                "recorded total (use case_for(seat) for another claimer)")


@dataclass(frozen=True)
class ReadProblem:
    """A record (or a whole file) that could not be read, with the reason in words.

    ``kind`` is a short category for reports: ``bad-file`` (cannot be read or split),
    ``no-deal`` (no deal to be had), ``bad-deal`` (hands that do not make a deal),
    ``bad-auction``/``no-contract`` (no final contract), ``bad-vulnerability``, ``bad-play`` (a card
    that is not a card, or a play that does not fit the deal), ``bad-claim`` (a total that cannot
    be: beyond 0..13 or outside what is left), ``bad-text`` (binary data, or text in no encoding
    the readers know), ``oversize`` (a tag, line, record or file over the readers' limits),
    ``unterminated`` (a PBN ``{`` comment never closed: the rest of the file is skipped),
    ``no-board`` (a file with no board at all), ``bad-record`` (a record the reader failed on),
    ``more-problems`` (past the first thousand problems of a file, the rest counted in one),
    ``changed`` (the file changed between the reader's passes over it).
    ``reason`` says what exactly is wrong.
    """

    source: str
    board: str | None
    reason: str
    kind: str = "unreadable"
    room: Room | None = None

    def __str__(self) -> str:
        where = self.source
        if self.board is not None:
            where += f" board {self.board}"
        if self.room:
            where += f" ({self.room} room)"
        return f"{where}: {self.reason}"


@dataclass(frozen=True)
class ClaimRecord:
    """One claim read from a hand record, as a validated case plus what the record says.

    ``claimed_total``: declarer's side's tricks for the board as the claim gave them (LIN ``mc``,
    PBN ``Result``). ``result_total``: the same count from an independent result in the record
    (LIN ``rs`` line; PBN ``Score`` tag), or None when there is none. ``disagrees`` is True when
    both exist and differ; ``disagreement`` then says how. ``claimer_known`` is False for LIN and
    PBN: the case's claimer (declarer) is an assumption.
    """

    source: str
    board: str
    room: Room | None
    format: Format
    case: Case
    claimed_total: int
    result_total: int | None
    disagrees: bool
    disagreement: str
    won_before: dict[Side, int]
    remaining: int
    claimer_known: bool = False
    claimer_note: str = CLAIMER_NOTE
    event: str = ""
    players: dict[Seat, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    # -- derived --------------------------------------------------------------------
    @property
    def declarer(self) -> Seat:
        assert self.case.board is not None and self.case.board.declarer is not None
        return self.case.board.declarer

    @property
    def contract(self) -> Contract:
        assert self.case.board is not None and self.case.board.contract is not None
        return self.case.board.contract

    @property
    def declarer_side(self) -> Side:
        return self.declarer.side

    @property
    def claimed_remaining(self) -> int:
        """Of the tricks left at the claim (the one in progress included), declarer's side's share."""
        return self.claimed_total - self.won_before[self.declarer_side]

    @property
    def to_move(self) -> Seat:
        """The seat to play next at the moment of the claim."""
        pos = self.case.position()
        assert pos is not None
        return pos.to_move

    @property
    def label(self) -> str:
        room = f" {self.room}" if self.room else ""
        return f"{self.source} board {self.board}{room}"

    def case_for(self, claimer: Seat, *, statement: str = "") -> Case:
        """The same claim with ``claimer`` as the claimer: its side gets its share of the recorded total."""
        share = self.claimed_remaining
        if claimer.side != self.declarer_side:
            share = self.remaining - self.claimed_remaining
        data = self.case.model_dump(mode="json")
        data["claim"] = dict(data["claim"], by=claimer.value, tricks=share, statement=statement)
        return case_from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """A flat summary for tables, CSV and JSON (the case itself is ``case.model_dump()``)."""
        b = self.case.board
        assert b is not None
        return {
            "source": self.source,
            "board": self.board,
            "room": self.room or "",
            "format": self.format,
            "contract": str(b.contract),
            "declarer": b.declarer.value if b.declarer else "",
            "vulnerable": b.vulnerable,
            "tricks_played": sum(self.won_before.values()),
            "won_NS": self.won_before[Side.NS],
            "won_EW": self.won_before[Side.EW],
            "remaining": self.remaining,
            "claimed_total": self.claimed_total,
            "claimed_remaining": self.claimed_remaining,
            "result_total": self.result_total,
            "disagrees": self.disagrees,
            "disagreement": self.disagreement,
            "claimer_known": self.claimer_known,
        }


@dataclass
class ReadReport:
    """Counts from a read: files, boards, claims, problems by kind, disagreements."""

    files: int = 0
    boards: int = 0
    claims: int = 0
    played_out: int = 0
    not_played: int = 0
    unfinished: int = 0
    compared: int = 0  # claims with an independent result to check the claimed total against
    problems: list[ReadProblem] = field(default_factory=list)
    disagreements: list[ClaimRecord] = field(default_factory=list)  # the first KEPT of them (each holds its case)
    disagreeing: int = 0  # all of them

    KEPT = 1000  # disagreeing claims kept whole: memory stays flat however many there are

    def add(self, item: ClaimRecord | ReadProblem) -> None:
        if isinstance(item, ReadProblem):
            self.problems.append(item)
        else:
            self.claims += 1
            if item.result_total is not None:
                self.compared += 1
            if item.disagrees:
                self.disagreeing += 1
                if len(self.disagreements) < self.KEPT:
                    self.disagreements.append(item)

    def problems_by_kind(self) -> Counter[str]:
        return Counter(p.kind for p in self.problems)

    def summary(self) -> str:
        """A few lines for people."""
        lines = [
            f"files {self.files}, boards {self.boards}, claims read {self.claims}, "
            f"played out {self.played_out}, no play {self.not_played}, stopped early {self.unfinished}",
            f"claimed total checked against a result in {self.compared} claims; differs in {self.disagreeing}"
            + (f" ({100 * self.disagreeing / self.claims:.1f}% of claims read)" if self.claims else ""),
            f"problems: {len(self.problems)}",
        ]
        for kind, n in self.problems_by_kind().most_common():
            lines.append(f"  {kind}: {n}")
        return "\n".join(lines)


# -- shared pieces for the readers --------------------------------------------------------

class RecordError(ValueError):
    """A record that cannot be read; ``kind`` is the report category."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


_RESULT = re.compile(r"^\s*([1-7])\s*(NT|N|[CDHS])\s*([NESW])\s*(XX|X|R)?\s*(=|[+-]\d{1,2})\s*$", re.IGNORECASE)


def parse_result_code(text: str) -> tuple[Contract, Seat, int] | None:
    """Read a result code like ``4SN-1``, ``3NTS=``, ``1HEx+2``: contract, declarer, declarer's tricks.

    None for an empty entry or a passed-out board (``PASS``); RecordError when unreadable.
    """
    t = text.strip()
    if not t or t.upper() in ("PASS", "P", "AP", "PASSED"):
        return None
    m = _RESULT.match(t)
    if not m:
        raise RecordError("bad-result", f"result {text!r} is not a result code like 4SN-1 or 3NS=")
    contract = Contract.parse(m.group(1) + m.group(2) + (m.group(4) or "").upper())
    delta = 0 if m.group(5) == "=" else int(m.group(5))
    tricks = contract.target + delta
    if not 0 <= tricks <= 13:
        raise RecordError("bad-result", f"result {text!r} gives {tricks} tricks")
    return contract, Seat(m.group(3).upper()), tricks


def tricks_from_score(contract: Contract, vulnerable: bool, declarer_score: int) -> list[int]:
    """The trick counts that give declarer's side ``declarer_score`` (usually one, or none)."""
    return [t for t in range(14) if score(contract, t, vulnerable) == declarer_score]


def build_claim(
    *,
    source: str,
    board: str,
    room: Room | None,
    fmt: Format,
    deal: str,
    contract: Contract,
    declarer: Seat,
    vulnerable: str,
    tricks: list[list[Card]],
    claimed_total: int,
    result_total: int | None,
    result_words: str,
    event: str = "",
    players: dict[Seat, str] | None = None,
    comments: list[str] | None = None,
    notes: list[str] | None = None,
) -> ClaimRecord:
    """Validate the pieces into a Case and a ClaimRecord; RecordError when they do not fit."""
    data: dict[str, Any] = {
        "title": f"{event} board {board}{' ' + room + ' room' if room else ''}".strip(),
        "source": f"{source} board {board}{' ' + room if room else ''}",
        "board": {
            "deal": deal,
            "contract": str(contract),
            "declarer": declarer.value,
            "vulnerable": vulnerable,
            "play": [[str(c) for c in t] for t in tricks],
        },
        "claim": {"by": declarer.value, "says": "claim"},
    }
    try:
        bare = case_from_dict(data)
        pos = bare.position()
    except CaseError as e:
        if e.field.startswith("board.play"):
            raise RecordError("bad-play", f"the play does not fit the deal: {e}") from None
        kind = "bad-deal" if e.field.startswith("board.deal") else "bad-case"
        raise RecordError(kind, str(e)) from None
    assert pos is not None
    won = dict(pos.won)
    remaining = pos.tricks_left
    side = declarer.side
    share = claimed_total - won[side]
    if not 0 <= share <= remaining:
        raise RecordError(
            "bad-claim",
            f"claim of {claimed_total} tricks for declarer's side, who already has {won[side]} "
            f"with {remaining} left: possible totals are {won[side]}..{won[side] + remaining}")
    if remaining == 0:
        raise RecordError("bad-claim", "claim after the last trick: nothing left to claim")
    # the share is within 0..remaining, the only check the claim adds: no second replay needed
    case = bare.model_copy(update={"claim": bare.claim.model_copy(update={"tricks": share})})
    disagrees = result_total is not None and result_total != claimed_total
    text = ""
    if disagrees:
        text = (f"claim gives declarer's side {claimed_total} tricks but {result_words} gives {result_total}"
                f" ({result_total - claimed_total:+d})")
    return ClaimRecord(
        source=source, board=board, room=room, format=fmt, case=case, claimed_total=claimed_total,
        result_total=result_total, disagrees=disagrees, disagreement=text, won_before=won,
        remaining=remaining, event=event, players=dict(players or {}), comments=list(comments or []),
        notes=list(notes or []))
