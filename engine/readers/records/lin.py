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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from claimlaw.engine.readers.records.common import (
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


MAX_VALUE = 1 << 16  # characters in one tag or value (the longest in the vugraph set: 407, an rs line)
MAX_RECORD = 1 << 20  # characters of calls, cards, comments and names kept for one record
MAX_BOARDS = 20_000  # boards whose deal is kept for a record with an empty md (a vugraph file has 64 at most)


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
    problem: str = ""  # why the record cannot be read whole (a tag or the record over the reader's limits)
    kept: int = 0  # characters kept so far

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


class Skipped(NamedTuple):
    """A tag whose tag or value was over ``MAX_VALUE`` characters: skipped, its size kept."""

    tag: str
    chars: int


def decode(raw: bytes) -> str:
    """Text of a LIN or PBN file: UTF-8 when it is, else Windows-1252 (BBO's older files)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def tag_pairs(text: str) -> list[tuple[str, str]]:
    """The ``tag|value|`` pairs of a LIN text, in order (line breaks removed)."""
    return [p for p in lin_tags([text]) if not isinstance(p, Skipped)]


def lin_tags(chunks: Iterable[str]) -> Iterator[tuple[str, str] | Skipped]:
    """The ``tag|value|`` pairs of a LIN text given in chunks, in order (line breaks removed).

    A tag or value longer than ``MAX_VALUE`` is not held: it comes as ``Skipped``. A last value
    without its closing ``|`` counts; a last tag without a value does not.
    """
    carry: list[str] = []
    held = 0  # characters in carry
    skipping = -1  # characters of an over-long field passed so far (-1: none)
    tag: str | None = None  # the tag read, awaiting its value
    tag_over = 0  # the tag itself was over-long (its size)
    for chunk in chunks:
        pieces = chunk.replace("\r", "").replace("\n", "").split("|")
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            if skipping >= 0:
                skipping += len(piece)
            else:
                carry.append(piece)
                held += len(piece)
                if held > MAX_VALUE:
                    skipping, carry, held = held, [], 0
            if last:
                break
            # a field ends here
            if skipping >= 0:
                size, skipping = skipping, -1
                if tag is None:
                    tag, tag_over = "", size
                else:
                    yield Skipped(tag or "(an over-long tag)", max(size, tag_over))
                    tag, tag_over = None, 0
                continue
            text, carry, held = "".join(carry), [], 0
            if tag is None:
                tag = text.strip().lower()
            else:
                if tag_over:
                    yield Skipped("(an over-long tag)", tag_over)
                else:
                    yield tag, text
                tag, tag_over = None, 0
    if tag is not None:
        if skipping >= 0 or tag_over:
            yield Skipped(tag or "(an over-long tag)", max(skipping, tag_over))
        else:
            yield tag, "".join(carry)


_KNOWN = frozenset("vg rs pn qx ah md sv mb an pc mc nt pg st bn rh px".split())


class Splitter:
    """Groups tags into records as they come: a record starts at ``qx``, or at ``md`` once the current
    one has a deal; ``feed`` returns the record that a tag ended, ``finish`` the last one."""

    def __init__(self) -> None:
        self.head = LinFile()
        self.names: list[str] = []
        self.cur: LinRecord | None = None
        self.count = 0
        self.board_header: str | None = None
        self.problems: list[str] = []  # over-long tags outside any record
        self.known = 0  # tags read that LIN has (none: not a LIN text)

    def _start(self) -> LinRecord | None:
        done = self.cur
        self.cur = LinRecord(index=self.count, names=list(self.names))
        self.count += 1
        return done

    def _keep(self, rec: LinRecord, value: str) -> bool:
        """Whether the record may keep ``value`` (else it is marked over the record limit)."""
        rec.kept += len(value)
        if rec.kept > MAX_RECORD:
            if not rec.problem:
                rec.problem = (f"the record holds more than {MAX_RECORD:,} characters of calls, cards and "
                               "comments: not read")
            return False
        return not rec.problem

    def feed(self, item: tuple[str, str] | Skipped) -> LinRecord | None:
        if isinstance(item, Skipped):
            why = f"tag {item.tag[:20]!r} holds {item.chars:,} characters, over the limit of {MAX_VALUE:,}"
            if self.cur is None:
                self.problems.append(why + ": skipped")
            elif not self.cur.problem:
                self.cur.problem = why + ": the record is not read"
            return None
        tag, value = item
        if tag in _KNOWN:
            self.known += 1
        head = self.head
        done: LinRecord | None = None
        cur = self.cur
        if tag == "vg":
            fields = value.split(",")
            head.event = ", ".join(f.strip() for f in fields[:2] if f.strip())
            if len(fields) > 3 and re.fullmatch(r"\s*[0-9]{1,9}\s*", fields[3]):
                head.first_board = int(fields[3])
        elif tag == "rs":
            head.results = value.split(",")
        elif tag == "pn":
            self.names = [n.strip() for n in value.split(",")]
            if cur is not None and not cur.hands and not cur.cards:
                cur.names = list(self.names)
        elif tag == "qx":
            done = self._start()
            cur = self.cur
            assert cur is not None
            head_text = value.split(",")[0].strip()
            if head_text[:1].lower() in ROOMS:
                cur.room = ROOMS[head_text[0].lower()]
                head_text = head_text[1:]
            cur.board = head_text or None
        elif tag == "ah":
            self.board_header = value.strip()
            if cur is not None and cur.board is None:
                cur.board = _board_from_header(self.board_header)
        elif tag == "md":
            if cur is None or cur.hands is not None or cur.cards:
                done = self._start()
                cur = self.cur
                assert cur is not None
                if self.board_header:
                    cur.board = _board_from_header(self.board_header)
            v = value.strip()
            if v[:1] in DEALER_DIGIT:
                cur.dealer = DEALER_DIGIT[v[0]]
                v = v[1:]
            # no card at all (``md||``, ``md|3|``, ``md|3SHDC,SHDC,SHDC,SHDC|``) counts as an empty md
            cur.hands = v.split(",") if re.search(r"[2-9TJQKA]|10", v.upper().replace("SHDC", "")) else None
        elif cur is None:
            return None
        elif tag == "sv":
            cur.vul = value.strip().lower()
        elif tag == "mb":
            if self._keep(cur, value):
                cur.calls.append(value)
        elif tag == "pc":
            if cur.claim is None:
                if self._keep(cur, value):
                    cur.cards.append(value)
            else:
                cur.after_claim += 1
        elif tag == "mc":
            if cur.claim is None:
                cur.claim = value.strip()
        elif tag == "nt":
            if self._keep(cur, value):
                cur.comments.append(value)
        return done

    def finish(self) -> LinRecord | None:
        done, self.cur = self.cur, None
        return done


def iter_records(chunks: Iterable[str], splitter: Splitter | None = None) -> Iterator[LinRecord]:
    """The records of a LIN text given in chunks, one at a time (``splitter`` keeps the header)."""
    sp = splitter or Splitter()
    for item in lin_tags(chunks):
        done = sp.feed(item)
        if done is not None:
            yield done
    last = sp.finish()
    if last is not None:
        yield last


def split_records(text: str) -> LinFile:
    """Group the tags into records: a record starts at ``qx``, or at ``md`` once the current one has a deal."""
    sp = Splitter()
    records = list(iter_records([text], sp))
    sp.head.records = records
    return sp.head


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
    return stream_lin(lambda: iter([text]), source, report)


@dataclass
class _Header:
    """What a first pass over the file learns for the second: the header, board numbers and deals."""

    event: str = ""
    first_board: int | None = None
    results: list[str] = field(default_factory=list)
    records: int = 0
    lowest: int | None = None
    deals: dict[str, tuple[Seat | None, list[str]]] = field(default_factory=dict)
    deals_cut: bool = False  # more boards than MAX_BOARDS: later boards' deals were not kept


def stream_lin(chunks: Callable[[], Iterable[str]], source: str = "<lin>",
               report: ReadReport | None = None) -> Iterator[ClaimRecord | ReadProblem]:
    """Every claim of a LIN text read twice as a stream (``chunks()`` starts it again): memory stays
    flat in the file's size. Every record that yields nothing, and every part of the file that could
    not be read, is a ReadProblem saying why."""
    try:
        head = _first_pass(chunks())
    except RecordError as e:
        yield ReadProblem(source, None, e.reason, e.kind)
        return
    first = head.first_board if head.first_board is not None else head.lowest
    lf = LinFile(event=head.event, first_board=first, results=head.results)
    sp = Splitter()
    boards = 0
    try:
        for rec in iter_records(chunks(), sp):
            boards += 1
            board = rec.board or str(rec.index + 1)
            if report is not None:
                report.boards += 1
            if rec.problem:
                yield ReadProblem(source, board, rec.problem, "oversize", rec.room)
                continue
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
                yield _claim(rec, lf, head, first, source, board)
            except RecordError as e:
                yield ReadProblem(source, board, e.reason, e.kind, rec.room)
            except Exception as e:  # noqa: BLE001 - one record the reader cannot handle is that record's problem
                yield ReadProblem(source, board, f"the reader failed on this record: {type(e).__name__}: "
                                  f"{_one_line(e)}", "bad-record", rec.room)
    except RecordError as e:
        yield ReadProblem(source, None, e.reason, e.kind)
        return
    for why in sp.problems:
        yield ReadProblem(source, None, why, "oversize")
    if boards == 0 and not sp.problems and not sp.known:
        yield ReadProblem(source, None, "no LIN tag found (such as vg|, qx|, md|): not a LIN record?", "no-board")


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())[:300]


def _first_pass(chunks: Iterable[str]) -> _Header:
    out = _Header()
    sp = Splitter()
    for rec in iter_records(chunks, sp):
        out.records += 1
        n = rec.number
        if n is not None and (out.lowest is None or n < out.lowest):
            out.lowest = n
        if rec.board is not None and rec.hands is not None and rec.board not in out.deals:
            if sum(map(len, rec.hands)) > 200 or len(rec.board) > 40:
                continue  # no deal to lend (a real md is some 70 characters); that record is a bad-deal itself
            if len(out.deals) < MAX_BOARDS:
                out.deals[rec.board] = (rec.dealer, rec.hands)
            else:
                out.deals_cut = True
    out.event, out.first_board, out.results = sp.head.event, sp.head.first_board, sp.head.results
    return out


def _claim(rec: LinRecord, lf: LinFile, head: _Header, first: int | None, source: str, board: str) -> ClaimRecord:
    notes: list[str] = []
    # the deal, borrowed from the other room when this record's md is empty
    hands, dealer = rec.hands, rec.dealer
    if hands is None:
        if rec.board is not None and rec.board in head.deals:
            dealer_other, hands = head.deals[rec.board]
            dealer = dealer or dealer_other
            notes.append("md is empty: the deal is the other room's record of this board")
        else:
            cut = f" (the file has over {MAX_BOARDS:,} boards; later boards' deals are not kept)"
            raise RecordError("no-deal", "md is empty or missing and no other record of this board gives the deal"
                              + (cut if head.deals_cut else ""))
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
    idx = _result_index(rec, lf, head.records, first)
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
    if not re.fullmatch(r"[0-9]{1,2}", rec.claim or ""):
        shown = _short(rec.claim or "")
        raise RecordError("bad-claim", f"claim mc|{shown}| is not a number of tricks")
    claimed = int(rec.claim or "")
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


def _short(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[:n] + f"… ({len(text):,} characters)"


def _result_words(code: str, result: tuple[Contract, Seat, int] | None, contract: Contract, declarer: Seat) -> str:
    words = f"the result line ({code})"
    if result is not None and (result[0], result[1]) != (contract, declarer):
        words += f", which is for {result[0]} by {result[1].value}, not {contract} by {declarer.value},"
    return words


def _result_index(rec: LinRecord, lf: LinFile, records: int, first: int | None) -> int | None:
    if not lf.results:
        return None
    if rec.room is None:
        return 0 if len(lf.results) == 1 and records == 1 else None
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
