"""PBN (Portable Bridge Notation 2.1) records with a claim.

Read: ``Event``, ``Board``, ``Room``, ``Deal`` (one hand may be ``-``: derived from the other
three), ``Vulnerable``, ``Contract``, ``Declarer`` (``^`` irregular mark dropped), ``Play`` (the
opening leader) and its section, ``Result`` (declarer's tricks) and ``Score``. Comments (``;``,
``{...}``), ``%`` lines, notes ``=n=``, NAGs ``$n`` and suffixes ``!``/``?`` are skipped; a tag
value ``#`` repeats the previous game's value.

The play section lists each trick in seat order from the opening leader (a fixed column per
seat), not in the order played; ``-`` is a card not played and ``*`` ends the play: a claim.
The claimed total is ``Result``; a ``Score`` tag, when present, is the independent result it is
checked against.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from claimlaw.engine.readers.records.common import (
    ClaimRecord,
    ReadProblem,
    ReadReport,
    RecordError,
    Room,
    build_claim,
    tricks_from_score,
)
from claimlaw.facts.cards import SEATS, Card, Seat, Side, Suit, deal_pbn, parse_hand
from claimlaw.facts.contract import Contract
from claimlaw.facts.position import trick_winner

VULNERABILITY = {"none": "none", "love": "none", "-": "none", "ns": "NS", "ew": "EW", "all": "all", "both": "all"}
SECTION_TAGS = ("play", "auction")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


MAX_LINE = 1 << 20  # characters in one line once comments are taken out
MAX_TAG = 1 << 16  # characters in one tag value (a Deal is 67, a Note a few hundred)
MAX_GAME = 1 << 20  # characters of tags and play kept for one game


@dataclass
class PbnGame:
    """One game's tags and its play section tokens (nothing checked yet)."""

    tags: dict[str, str] = field(default_factory=dict)
    play: list[str] = field(default_factory=list)
    line: int = 0
    problem: str = ""  # why the game cannot be read whole (over the reader's limits)
    kept: int = 0


class _Stripper:
    """Takes ``{...}`` and ``;`` comments and ``%`` lines out of a text given a piece at a time; hands
    back whole lines (a comment spanning lines joins them: it must not leave a blank line, a game break)."""

    _QUOTE = re.compile(r'["\\]')
    _SPECIAL = re.compile(r'["{;]')

    def __init__(self) -> None:
        self.in_brace = self.in_quote = self.skip_rest = False
        self.line_start = True
        self.line = 1  # the physical line being read
        self.start = 1  # where the line being built began
        self.brace_line = 0
        self.out: list[str] = []
        self.held = 0
        self.over = 0  # characters of a line over MAX_LINE (then not held)

    def _emit(self, text: str) -> None:
        if self.over:
            self.over += len(text)
            return
        self.out.append(text)
        self.held += len(text)
        if self.held > MAX_LINE:
            self.over, self.out, self.held = self.held, [], 0

    def piece(self, text: str) -> None:
        """Part of a physical line (no newline in it)."""
        i, n = 0, len(text)
        while i < n and not self.skip_rest:
            if self.in_brace:
                j = text.find("}", i)
                if j < 0:
                    return
                self.in_brace = False
                self._emit(" ")
                i = j + 1
            elif self.in_quote:
                m = self._QUOTE.search(text, i)
                if m is None:
                    self._emit(text[i:])
                    return
                j = m.start()
                if text[j] == "\\":
                    self._emit(text[i:j + 2])
                    i = j + 2
                else:
                    self._emit(text[i:j + 1])
                    self.in_quote = False
                    i = j + 1
            else:
                if self.line_start and text[i] == "%":
                    self.skip_rest = True
                    return
                m = self._SPECIAL.search(text, i)
                stop = m.start() if m else n
                if stop > i:
                    self._emit(text[i:stop])
                self.line_start = False
                if m is None:
                    return
                i = m.end()
                if m.group() == '"':
                    self._emit('"')
                    self.in_quote = True
                elif m.group() == "{":
                    self.in_brace, self.brace_line = True, self.line
                else:  # ';': the rest of the line is a comment
                    self.skip_rest = True

    def end_line(self) -> tuple[int, str | int] | None:
        """The physical line ended: the line built (its first line number, and its text or, when over
        ``MAX_LINE``, its length), or None when a comment carries it on."""
        self.in_quote = self.skip_rest = False
        self.line += 1
        if self.in_brace:
            return None
        return self._take()

    def _take(self) -> tuple[int, str | int]:
        got: str | int = self.over if self.over else "".join(self.out)
        out = (self.start, got)
        self.out, self.held, self.over = [], 0, 0
        self.start, self.line_start = self.line, True
        return out

    def finish(self) -> tuple[int, str | int] | None:
        """The last line, if the text does not end in a newline."""
        if self.out or self.over:
            return self._take()
        return None


def comment_free_lines(chunks: Iterable[str], stripper: _Stripper | None = None) -> Iterator[tuple[int, str | int]]:
    """Lines of a PBN text given in chunks, comments out: (line number, text), or (line number, length)
    for a line over ``MAX_LINE``. ``stripper.in_brace`` at the end: a ``{`` comment never closed."""
    st = stripper or _Stripper()
    held = ""
    for chunk in _chain(chunks, [""]):
        text = held + chunk
        held = ""
        if text.endswith("\r") and chunk:
            text, held = text[:-1], "\r"  # a CR LF may be cut between two chunks
        parts = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for i, part in enumerate(parts):
            st.piece(part)
            if i < len(parts) - 1:
                got = st.end_line()
                if got is not None:
                    yield got
    last = st.finish()
    if last is not None:
        yield last


def _chain(first: Iterable[str], then: Iterable[str]) -> Iterator[str]:
    yield from first
    yield from then


def strip_comments(text: str) -> str:
    """The text without ``{...}`` and ``;`` comments or ``%`` lines (quoted tag values kept)."""
    return "\n".join(x if isinstance(x, str) else "" for _, x in comment_free_lines([text]))


def split_games(text: str) -> list[PbnGame]:
    """Games: tag pairs and the play section, a game ending at a blank line or a repeated tag."""
    return list(iter_games(comment_free_lines([text])))


def iter_games(lines: Iterable[tuple[int, str | int]]) -> Iterator[PbnGame]:
    """Games as the lines come: a game ends at a blank line or a repeated Board, Deal or Event tag."""
    cur = PbnGame()
    section: str | None = None
    previous: dict[str, str] = {}

    def keep(text: str) -> bool:
        cur.kept += len(text)
        if cur.kept > MAX_GAME and not cur.problem:
            cur.problem = f"the game holds more than {MAX_GAME:,} characters of tags and play: not read"
        return not cur.problem

    for lineno, raw in lines:
        if isinstance(raw, int):
            if not cur.problem:
                cur.problem = f"line {lineno} holds {raw:,} characters, over the limit of {MAX_LINE:,}: not read"
            cur.line = cur.line or lineno
            continue
        line = raw.strip()
        if not line:
            if cur.tags or cur.problem:
                yield cur
                previous = cur.tags
            cur = PbnGame()
            section = None
            continue
        pos = 0
        for m in _TAG.finditer(line):
            between = line[pos:m.start()].strip()
            if between and section == "play" and keep(between):
                cur.play.extend(between.split())
            name, value = m.group(1), m.group(2).replace('\\"', '"')
            key = name.lower()
            if key in cur.tags and key in ("board", "deal", "event"):
                if cur.tags or cur.problem:
                    yield cur
                    previous = cur.tags
                cur = PbnGame()
            if not cur.tags:
                cur.line = lineno
            if value == "#" and key in previous:
                value = previous[key]
            if len(value) > MAX_TAG:
                if not cur.problem:
                    cur.problem = (f"tag {name[:20]} holds {len(value):,} characters, over the limit of "
                                   f"{MAX_TAG:,}: not read")
                value = ""
            if key != "note" and keep(key + value):
                cur.tags[key] = value
            section = key if key in SECTION_TAGS else None
            pos = m.end()
        rest = line[pos:].strip()
        if rest and section == "play" and keep(rest):
            cur.play.extend(rest.split())
    if cur.tags or cur.problem:
        yield cur


# -- reading one game -----------------------------------------------------------------------

_CARD_TOKEN = re.compile(r"^([SHDC])(10|[2-9TJQKA])[!?]*$", re.IGNORECASE)


def play_tokens(tokens: list[str]) -> tuple[list[Card | None], bool]:
    """Cards and gaps (None for ``-``) in table order, and whether ``*`` (a claim) ended them."""
    out: list[Card | None] = []
    for tok in tokens:
        t = tok.strip()
        if not t or re.fullmatch(r"=\d+=|\$\d+|[!?]+", t):
            continue
        if t.startswith("*"):
            return out, True
        if t in ("-", "+"):
            out.append(None)
            continue
        t = re.sub(r"=\d+=$", "", t)
        m = _CARD_TOKEN.match(t)
        if not m:
            raise RecordError("bad-play", f"play section token {tok!r} is not a card")
        out.append(Card.parse(m.group(1) + m.group(2)))
    return out, False


def linear_play(table: list[Card | None], leader: Seat, trump: Suit | None) -> list[list[Card]]:
    """Tricks in the order played, each from its leader, from table rows in seat order from ``leader``."""
    column = {seat: i for i, seat in enumerate([leader, leader.next, leader.next.next, leader.rho])}
    tricks: list[list[Card]] = []
    lead = leader
    rows = [table[i:i + 4] for i in range(0, len(table), 4)]
    for r_i, row in enumerate(rows):
        row = row + [None] * (4 - len(row))
        order = [lead, lead.next, lead.next.next, lead.rho]
        cards = [row[column[s]] for s in order]
        played: list[Card] = []
        for c in cards:
            if c is None:
                break
            played.append(c)
        if any(c is not None for c in cards[len(played):]):
            shown = " ".join(str(c or "-") for c in row)
            raise RecordError("bad-play", f"trick {r_i + 1}: a card follows a gap ({shown})")
        if not played:
            break
        tricks.append(played)
        if len(played) < 4:
            if any(any(c is not None for c in later) for later in rows[r_i + 1:]):
                raise RecordError("bad-play", f"trick {r_i + 1} is incomplete but more cards follow")
            break
        lead = trick_winner(lead, played, trump)
    return tricks


def pbn_deal(text: str) -> str:
    """The PBN deal with every hand given; one hand shown as ``-`` is derived from the other three."""
    raw = text.strip()
    if len(raw) < 2 or raw[1] != ":":
        raise RecordError("bad-deal", f"Deal {text!r} does not start with a seat and a colon")
    try:
        first = Seat.parse(raw[0])
    except ValueError as e:
        raise RecordError("bad-deal", str(e)) from None
    parts = raw[2:].split()
    if len(parts) != 4:
        raise RecordError("bad-deal", f"Deal lists {len(parts)} hands, not four")
    hands: dict[Seat, list[Card]] = {}
    missing: list[Seat] = []
    seat = first
    for p in parts:
        if p == "-":
            missing.append(seat)
        else:
            try:
                hands[seat] = parse_hand(p)
            except ValueError as e:
                raise RecordError("bad-deal", f"{seat.long_name}'s hand: {e}") from None
        seat = seat.next
    if len(missing) > 1:
        raise RecordError("bad-deal", f"Deal gives only {4 - len(missing)} hands")
    if missing:
        seen = {c for cs in hands.values() for c in cs}
        hands[missing[0]] = [Card(s, r) for s in Suit for r in range(2, 15) if Card(s, r) not in seen]
    return deal_pbn(hands, Seat.N)


def read_pbn(text: str, source: str = "<pbn>", report: ReadReport | None = None) -> list[ClaimRecord | ReadProblem]:
    """Every claim in a PBN text as a ClaimRecord, every unreadable claim record as a ReadProblem."""
    return list(iter_pbn(text, source, report))


def iter_pbn(text: str, source: str = "<pbn>", report: ReadReport | None = None) -> Iterator[ClaimRecord | ReadProblem]:
    """Like ``read_pbn``, one item at a time; ``report`` (if given) counts boards by kind."""
    return stream_pbn([text], source, report)


def stream_pbn(chunks: Iterable[str], source: str = "<pbn>",
               report: ReadReport | None = None) -> Iterator[ClaimRecord | ReadProblem]:
    """Every claim of a PBN text read once as a stream of chunks (memory flat in the file's size).
    Every game that yields nothing for a reason, and every part of the file not read, is a ReadProblem."""
    stripper = _Stripper()
    boards = problems = games = 0
    try:
        for i, g in enumerate(iter_games(comment_free_lines(chunks, stripper))):
            games += 1
            board = _short(g.tags.get("board", "").strip()) or str(i + 1)
            room = _room(g.tags.get("room", ""))
            if g.problem:
                boards += 1
                problems += 1
                if report is not None:
                    report.boards += 1
                yield ReadProblem(source, board, g.problem, "oversize", room)
                continue
            if "deal" not in g.tags and "play" not in g.tags and "contract" not in g.tags:
                continue  # a header-only game (event data), not a board
            boards += 1
            if report is not None:
                report.boards += 1
            try:
                item = _game(g, source, board, room, report)
            except RecordError as e:
                yield ReadProblem(source, board, e.reason, e.kind, room)
                continue
            except Exception as e:  # noqa: BLE001 - one game the reader cannot handle is that game's problem
                msg = " ".join(str(e).split())[:300]
                yield ReadProblem(source, board, f"the reader failed on this game: {type(e).__name__}: {msg}",
                                  "bad-record", room)
                continue
            if item is not None:
                yield item
    except RecordError as e:
        yield ReadProblem(source, None, e.reason, e.kind)
        return
    if stripper.in_brace:
        problems += 1
        yield ReadProblem(source, None, f"a {{ comment opened at line {stripper.brace_line} is never closed: "
                                        "everything after it was skipped", "unterminated")
    if games == 0 and problems == 0:
        yield ReadProblem(source, None, "no PBN tag found (such as [Deal \"...\"]): not a PBN record?", "no-board")


def _short(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[:n] + "…"


def _room(text: str) -> Room | None:
    t = text.strip().lower()
    return "open" if t == "open" else "closed" if t == "closed" else None


def _game(g: PbnGame, source: str, board: str, room: Room | None, report: ReadReport | None) -> ClaimRecord | None:
    tags = g.tags
    table, claimed = play_tokens(g.play)
    n_cards = sum(1 for c in table if c is not None)
    if not claimed:
        if report is not None:
            if n_cards == 52:
                report.played_out += 1
            elif n_cards == 0:
                report.not_played += 1
            else:
                report.unfinished += 1
        return None
    if "deal" not in tags:
        raise RecordError("no-deal", "the play ends in a claim (*) but there is no Deal tag")
    deal = pbn_deal(tags["deal"])
    ctext = tags.get("contract", "").strip()
    if not ctext or ctext.lower() in ("pass", "p", "?"):
        raise RecordError("no-contract", f"the play ends in a claim (*) but the contract is {ctext or 'missing'!r}")
    try:
        contract = Contract.parse(ctext)
    except ValueError as e:
        raise RecordError("no-contract", str(e)) from None
    dtext = tags.get("declarer", "").strip().lstrip("^")
    try:
        declarer = Seat.parse(dtext)
    except ValueError:
        raise RecordError("no-contract", f"Declarer {tags.get('declarer', '')!r} is not a seat") from None
    vul = VULNERABILITY.get(tags.get("vulnerable", "none").strip().lower())
    if vul is None:
        raise RecordError("bad-vulnerability", f"Vulnerable {tags.get('vulnerable')!r} unreadable")
    notes: list[str] = []
    leader = declarer.next
    if tags.get("play", "").strip():
        try:
            leader = Seat.parse(tags["play"])
        except ValueError:
            raise RecordError("bad-play", f"Play tag {tags['play']!r} is not a seat") from None
        if leader != declarer.next:
            notes.append(f"the Play tag names {leader.value} as opening leader, not declarer's left-hand opponent")
    tricks = linear_play(table, leader, contract.strain.trump)
    rtext = tags.get("result", "").strip()
    if not re.fullmatch(r"[0-9]{1,2}", rtext):
        shown = rtext if len(rtext) <= 20 else f"{rtext[:20]}… ({len(rtext):,} characters)"
        raise RecordError("bad-claim", f"the play ends in a claim (*) but Result {shown!r} gives no total")
    claimed_total = int(rtext)
    result_total, words = _score_check(tags.get("score", ""), contract, declarer, vul, notes)
    players = {s: tags[s.long_name.lower()] for s in SEATS if tags.get(s.long_name.lower(), "").strip()}
    return build_claim(
        source=source, board=board, room=room, fmt="pbn", deal=deal, contract=contract, declarer=declarer,
        vulnerable=vul, tricks=tricks, claimed_total=claimed_total, result_total=result_total,
        result_words=words, event=tags.get("event", ""), players=players, notes=notes)


def _score_check(text: str, contract: Contract, declarer: Seat, vul: str,
                 notes: list[str]) -> tuple[int | None, str]:
    """Declarer's tricks implied by the Score tag (NS's view unless it says EW), if it fits one count."""
    t = text.strip()
    if not t:
        return None, ""
    m = re.fullmatch(r"(?:(NS|EW)\s+)?(-?[0-9]{1,6})", t, re.IGNORECASE)
    if not m:
        notes.append(f"Score {_short(t)!r} unreadable; not checked")
        return None, ""
    side = Side.parse(m.group(1)) if m.group(1) else Side.NS
    value = int(m.group(2))
    if side != declarer.side:
        value = -value
    dside = declarer.side
    vulnerable = vul == "all" or vul == dside.value
    fits = tricks_from_score(contract, vulnerable, value)
    if len(fits) != 1:
        notes.append(f"Score {t!r} fits {len(fits)} trick counts for {contract} by {declarer.value}; not checked")
        return None, ""
    return fits[0], f"the Score tag ({t})"
