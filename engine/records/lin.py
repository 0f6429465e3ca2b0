"""BBO LIN: the single-board handviewer form and multi-board vugraph files.

A LIN file is a flat run of ``tag|value|`` pairs; line breaks carry no meaning. The tags read:

* ``vg`` event header: event, segment, scoring, first board, last board, teams and scores;
* ``rs`` results, one per room and board in the order open, closed (``4SN-1``, ``3NS=``, ``PASS``);
* ``pn`` player names, South, West, North, East (eight in a vugraph file: open then closed room;
  any other count is read as far as it goes);
* ``qx`` starts a record: ``o12`` open room board 12, ``c12`` closed room;
* ``ah`` board header (``Board 12``) in handviewer files;
* ``md`` the deal: dealer digit (1 South, 2 West, 3 North, 4 East) then the hands from South
  clockwise; one hand may be missing (derived from the other three); an empty ``md||`` in one
  room reuses the deal of the same board in the other room;
* ``sv`` vulnerability (``o`` none, ``n`` NS, ``e`` EW, ``b`` both);
* ``mb`` calls (``p``, ``d``, ``r``, ``1N``; a trailing ``!`` marks an alert), ``an`` explanations;
* ``pc`` cards in the order played; ``mc|N|`` a claim: declarer's side takes N tricks in all,
  possibly in the middle of a trick; ``nt`` comments; ``pg``, ``st`` and others are ignored.

The claimer is not recorded (see ``common.CLAIMER_NOTE``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from claimlaw.engine.records.common import (
    ClaimRecord,
    ReadProblem,
    ReadReport,
    RecordError,
    Room,
    build_claim,
    parse_result_code,
)
from claimlaw.facts.cards import RANK_CHARS, SEATS, Card, Seat, Suit, deal_pbn, parse_pbn_deal
from claimlaw.facts.contract import Contract

DEALER_DIGIT = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
HAND_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)  # md lists hands from South, clockwise
NAME_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)  # pn lists names the same way
VULNERABILITY = {"o": "none", "0": "none", "-": "none", "n": "NS", "e": "EW", "b": "all"}
ROOMS: dict[str, Room] = {"o": "open", "c": "closed"}

# The standard board rotation: dealer and vulnerability of board n (used when md or sv is silent).
_ROTATION_DEALER = (Seat.W, Seat.N, Seat.E, Seat.S)  # index n % 4
_ROTATION_VUL = ("EW", "none", "NS", "EW", "all", "NS", "EW", "all", "none",
                 "EW", "all", "none", "NS", "all", "none", "NS")  # index n % 16


@dataclass
class LinRecord:
    """One board as played at one table, as the tags give it (nothing checked yet)."""

    index: int
    board: str | None = None
    room: Room | None = None
    dealer: Seat | None = None
    hands: list[str] | None = None  # as in md, from South; None when md is absent or empty
    vul: str | None = None
    calls: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # pc values before the claim
    claim: str | None = None  # the mc value
    after_claim: int = 0  # cards recorded after the claim
    comments: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    @property
    def number(self) -> int | None:
        m = re.search(r"\d{1,9}", self.board or "")  # a board number, not thousands of digits
        return int(m.group()) if m else None


@dataclass
class LinFile:
    """The file header and its records."""

    event: str = ""
    first_board: int | None = None
    results: list[str] = field(default_factory=list)
    records: list[LinRecord] = field(default_factory=list)


def decode(raw: bytes) -> str:
    """Text of a LIN or PBN file: UTF-8 when it is, else Windows-1252 (BBO's older files)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def tag_pairs(text: str) -> list[tuple[str, str]]:
    """The ``tag|value|`` pairs of a LIN text, in order (line breaks removed)."""
    flat = text.replace("\r", "").replace("\n", "")
    parts = flat.split("|")
    return [(parts[i].strip().lower(), parts[i + 1]) for i in range(0, len(parts) - 1, 2)]


def split_records(text: str) -> LinFile:
    """Group the tags into records: a record starts at ``qx``, or at ``md`` once the current one has a deal."""
    out = LinFile()
    names: list[str] = []
    cur: LinRecord | None = None
    board_header: str | None = None

    def start() -> LinRecord:
        rec = LinRecord(index=len(out.records), names=list(names))
        out.records.append(rec)
        return rec

    for tag, value in tag_pairs(text):
        if tag == "vg":
            fields = value.split(",")
            out.event = ", ".join(f.strip() for f in fields[:2] if f.strip())
            if len(fields) > 3 and fields[3].strip().isdigit():
                out.first_board = int(fields[3])
        elif tag == "rs":
            out.results = value.split(",")
        elif tag == "pn":
            names = [n.strip() for n in value.split(",")]
            if cur is not None and not cur.hands and not cur.cards:
                cur.names = list(names)
        elif tag == "qx":
            cur = start()
            head = value.split(",")[0].strip()
            if head[:1].lower() in ROOMS:
                cur.room = ROOMS[head[0].lower()]
                head = head[1:]
            cur.board = head or None
        elif tag == "ah":
            board_header = value.strip()
            if cur is not None and cur.board is None:
                cur.board = _board_from_header(board_header)
        elif tag == "md":
            if cur is None or cur.hands is not None or cur.cards:
                cur = start()
                if board_header:
                    cur.board = _board_from_header(board_header)
            v = value.strip()
            if v[:1] in DEALER_DIGIT:
                cur.dealer = DEALER_DIGIT[v[0]]
                v = v[1:]
            # no card at all (``md||``, ``md|3|``, ``md|3SHDC,SHDC,SHDC,SHDC|``) counts as an empty md
            cur.hands = v.split(",") if re.search(r"[2-9TJQKA]|10", v.upper().replace("SHDC", "")) else None
        elif cur is None:
            continue
        elif tag == "sv":
            cur.vul = value.strip().lower()
        elif tag == "mb":
            cur.calls.append(value)
        elif tag == "pc":
            if cur.claim is None:
                cur.cards.append(value)
            else:
                cur.after_claim += 1
        elif tag == "mc":
            if cur.claim is None:
                cur.claim = value.strip()
        elif tag == "nt":
            cur.comments.append(value)
    return out


def _board_from_header(text: str) -> str | None:
    m = re.search(r"\d+", text)
    return m.group() if m else (text or None)


# -- the pieces of a record ------------------------------------------------------------------

def parse_lin_hand(text: str) -> list[Card]:
    """Read a LIN hand ``SAQ63H8432DT84C72`` (suits in any order, ``10`` for the ten)."""
    cards: list[Card] = []
    suit: Suit | None = None
    t = text.strip().upper().replace("10", "T")
    for ch in t:
        if ch in "SHDC":
            suit = Suit(ch)
        elif ch in RANK_CHARS and suit is not None:
            cards.append(Card(suit, RANK_CHARS.index(ch) + 2))
        elif ch.isspace():
            continue
        else:
            raise RecordError("bad-deal", f"hand {text!r}: unexpected {ch!r}")
    return cards


def lin_deal(hands: list[str]) -> str:
    """The PBN deal string from md's hands (from South), deriving one missing hand."""
    given = [h.strip() for h in hands[:4]]
    if len(hands) > 4 and any(h.strip() for h in hands[4:]):
        raise RecordError("bad-deal", f"md lists {len(hands)} hands")
    while len(given) < 4:
        given.append("")
    seats: dict[Seat, list[Card]] = {}
    missing = [HAND_ORDER[i] for i, h in enumerate(given) if not h]
    if len(missing) > 1:
        raise RecordError("bad-deal", f"md gives only {4 - len(missing)} hands; at most one may be left out")
    for i, h in enumerate(given):
        if h:
            seats[HAND_ORDER[i]] = parse_lin_hand(h)
    if missing:
        seen = {c for cards in seats.values() for c in cards}
        seats[missing[0]] = [Card(s, r) for s in Suit for r in range(2, 15) if Card(s, r) not in seen]
    return deal_pbn(seats, Seat.N)


_CALL_BID = re.compile(r"^([1-7])(NT|N|[CDHS])$")


def normal_call(text: str) -> str:
    """A call as ``P``, ``X``, ``XX`` or a bid like ``1N``/``4S`` (alert marks dropped)."""
    t = text.strip().upper().rstrip("!").strip()
    if t in ("P", "PASS", "PA"):
        return "P"
    if t in ("D", "X", "DBL", "DOUBLE"):
        return "X"
    if t in ("R", "XX", "RDBL", "REDOUBLE"):
        return "XX"
    m = _CALL_BID.match(t)
    if m:
        return m.group(1) + ("N" if m.group(2).startswith("N") else m.group(2))
    raise RecordError("bad-auction", f"unreadable call {text!r}")


def contract_from_auction(calls: list[str], dealer: Seat) -> tuple[Contract, Seat] | None:
    """The final contract and declarer; None when passed out; RecordError when the auction is unfinished."""
    norm = [normal_call(c) for c in calls]
    last_bid = max((i for i, c in enumerate(norm) if c not in ("P", "X", "XX")), default=None)
    if last_bid is None:
        if len(norm) >= 4:
            return None
        raise RecordError("no-contract", f"the auction stops after {len(norm)} passes")
    tail = norm[last_bid + 1:]
    passes = 0
    for c in reversed(tail):
        if c != "P":
            break
        passes += 1
    if passes < 3:
        raise RecordError("no-contract", f"the auction stops before it ends ({' '.join(norm) or 'no calls'})")
    doubled = 0
    for c in tail:
        if c == "X":
            doubled = 1
        elif c == "XX":
            doubled = 2
    bid = norm[last_bid]
    seat_of = [dealer]
    for _ in range(len(norm) - 1):
        seat_of.append(seat_of[-1].next)
    side = seat_of[last_bid].side
    strain = bid[1:]
    declarer = next(seat_of[i] for i, c in enumerate(norm)
                    if c not in ("P", "X", "XX") and c[1:] == strain and seat_of[i].side == side)
    return Contract.parse(bid + "X" * doubled), declarer


# -- from records to claims ------------------------------------------------------------------

def read_lin(text: str, source: str = "<lin>", report: ReadReport | None = None) -> list[ClaimRecord | ReadProblem]:
    """Every claim in a LIN text as a ClaimRecord, every unreadable claim record as a ReadProblem."""
    return list(iter_lin(text, source, report))


def iter_lin(text: str, source: str = "<lin>", report: ReadReport | None = None) -> Iterator[ClaimRecord | ReadProblem]:
    """Like ``read_lin``, one item at a time; ``report`` (if given) counts boards by kind."""
    try:
        lf = split_records(text)
    except Exception as e:  # noqa: BLE001 - a file that cannot be split is reported, not raised
        yield ReadProblem(source, None, f"cannot split the file into records: {e}", "bad-file")
        return
    deals = _deals_by_board(lf)
    first = lf.first_board
    if first is None:
        numbers = [n for n in (r.number for r in lf.records) if n is not None]
        first = min(numbers) if numbers else None
    for rec in lf.records:
        board = rec.board or str(rec.index + 1)
        if report is not None:
            report.boards += 1
        if rec.claim is None:
            if report is not None:
                n = len(rec.cards)
                if n == 52:
                    report.played_out += 1
                elif n == 0:
                    report.not_played += 1
                else:
                    report.unfinished += 1
            continue
        try:
            yield _claim(rec, lf, deals, first, source, board)
        except RecordError as e:
            yield ReadProblem(source, board, e.reason, e.kind, rec.room)


def _deals_by_board(lf: LinFile) -> dict[str, tuple[Seat | None, list[str]]]:
    """The first full md of each board, for records whose md is empty."""
    out: dict[str, tuple[Seat | None, list[str]]] = {}
    for rec in lf.records:
        if rec.board is not None and rec.hands is not None and rec.board not in out:
            out[rec.board] = (rec.dealer, rec.hands)
    return out


def _claim(rec: LinRecord, lf: LinFile, deals: dict[str, tuple[Seat | None, list[str]]],
           first: int | None, source: str, board: str) -> ClaimRecord:
    notes: list[str] = []
    # the deal, borrowed from the other room when this record's md is empty
    hands, dealer = rec.hands, rec.dealer
    if hands is None:
        if rec.board is not None and rec.board in deals:
            dealer_other, hands = deals[rec.board]
            dealer = dealer or dealer_other
            notes.append("md is empty: the deal is the other room's record of this board")
        else:
            raise RecordError("no-deal", "md is empty or missing and no other record of this board gives the deal")
    deal = lin_deal(hands)
    number = rec.number
    if dealer is None:
        if number is None:
            raise RecordError("no-deal", "md gives no dealer and the board number is unknown")
        dealer = _ROTATION_DEALER[number % 4]
        notes.append(f"dealer {dealer.value} from the board number (md gives none)")
    vul = VULNERABILITY.get(rec.vul or "")
    if vul is None:
        if number is None:
            raise RecordError("bad-vulnerability", f"vulnerability {rec.vul!r} unreadable and no board number")
        vul = _ROTATION_VUL[number % 16]
        notes.append(f"vulnerability {vul} from the board number (sv is {rec.vul!r})")

    # the result line, if any
    result = None
    result_code = ""
    idx = _result_index(rec, lf, first)
    if idx is not None and idx < len(lf.results):
        result_code = lf.results[idx].strip()
        try:
            result = parse_result_code(result_code)
        except RecordError as e:
            notes.append(f"result line entry unreadable: {e.reason}")

    # contract and declarer: the auction, checked against the result line and the opening lead
    cards = _cards(rec.cards)
    contract, declarer = _contract(rec, dealer, result, cards, deal, notes)

    tricks = [cards[i:i + 4] for i in range(0, len(cards), 4)]
    try:
        claimed = int(rec.claim or "")
    except ValueError:
        raise RecordError("bad-claim", f"claim mc|{rec.claim}| is not a number of tricks") from None
    if not 0 <= claimed <= 13:
        raise RecordError("bad-claim", f"claim mc|{claimed}| is not a number of tricks 0..13")
    result_total = None
    if result is not None:
        r_contract, r_decl, r_tricks = result
        result_total = r_tricks if r_decl.side == declarer.side else 13 - r_tricks
    if rec.after_claim:
        notes.append(f"{rec.after_claim} card(s) recorded after the claim were ignored")
    return build_claim(
        source=source, board=board, room=rec.room, fmt="lin", deal=deal, contract=contract,
        declarer=declarer, vulnerable=vul, tricks=tricks, claimed_total=claimed, result_total=result_total,
        result_words=_result_words(result_code, result, contract, declarer), event=lf.event, players=_players(rec),
        comments=rec.comments, notes=notes)


def _result_words(code: str, result: tuple[Contract, Seat, int] | None, contract: Contract, declarer: Seat) -> str:
    words = f"the result line ({code})"
    if result is not None and (result[0], result[1]) != (contract, declarer):
        words += f", which is for {result[0]} by {result[1].value}, not {contract} by {declarer.value},"
    return words


def _result_index(rec: LinRecord, lf: LinFile, first: int | None) -> int | None:
    if not lf.results:
        return None
    if rec.room is None:
        return 0 if len(lf.results) == 1 and len(lf.records) == 1 else None
    if first is None or rec.number is None:
        return None
    i = 2 * (rec.number - first) + (0 if rec.room == "open" else 1)
    return i if i >= 0 else None


def _cards(values: list[str]) -> list[Card]:
    out: list[Card] = []
    for i, v in enumerate(values):
        try:
            out.append(Card.parse(v))
        except ValueError:
            raise RecordError("bad-play", f"card {i + 1} of the play, {v!r}, is not a card") from None
    return out


def _contract(rec: LinRecord, dealer: Seat, result: tuple[Contract, Seat, int] | None,
              cards: list[Card], deal: str, notes: list[str]) -> tuple[Contract, Seat]:
    auction: tuple[Contract, Seat] | None = None
    problem: RecordError | None = None
    try:
        auction = contract_from_auction(rec.calls, dealer)
        if auction is None:
            problem = RecordError("no-contract", "the auction is passed out but the record has a claim")
    except RecordError as e:
        problem = e
    from_result = (result[0], result[1]) if result is not None else None
    if auction is None:
        if from_result is None:
            assert problem is not None
            raise problem
        notes.append(f"contract {from_result[0]} by {from_result[1].value} from the result line ({problem})")
        return from_result
    if from_result is not None and from_result != auction:
        leader = None
        if cards:
            hands = parse_pbn_deal(deal)
            leader = next((s for s in SEATS if cards[0] in hands[s]), None)
        pick = auction
        if leader is not None and leader != auction[1].next and leader == from_result[1].next:
            pick = from_result
        notes.append(f"the auction gives {auction[0]} by {auction[1].value}, the result line "
                     f"{from_result[0]} by {from_result[1].value}; read as {pick[0]} by {pick[1].value}"
                     + (" (the opening lead fits it)" if leader is not None and leader == pick[1].next else ""))
        return pick
    return auction


def _players(rec: LinRecord) -> dict[Seat, str]:
    names = rec.names
    if len(names) >= 8 and rec.room == "closed":
        names = names[4:8]
    return {seat: n for seat, n in zip(NAME_ORDER, names[:4], strict=False) if n}
