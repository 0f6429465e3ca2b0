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
from collections.abc import Iterator
from dataclasses import dataclass, field

from claimlaw.engine.records.common import (
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


@dataclass
class PbnGame:
    """One game's tags and its play section tokens (nothing checked yet)."""

    tags: dict[str, str] = field(default_factory=dict)
    play: list[str] = field(default_factory=list)
    line: int = 0


def strip_comments(text: str) -> str:
    """The text without ``{...}`` and ``;`` comments or ``%`` lines (quoted tag values kept)."""
    out: list[str] = []
    i, n = 0, len(text)
    in_quote = in_brace = False
    line_start = True
    while i < n:
        ch = text[i]
        if in_brace:
            if ch == "}":
                in_brace = False
                out.append(" ")  # a comment spanning lines must not leave a blank line (a game break)
            i += 1
            continue
        if in_quote:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == '"' or ch == "\n":
                in_quote = False
            i += 1
            continue
        if line_start and ch == "%":
            while i < n and text[i] != "\n":
                i += 1
            continue
        line_start = ch == "\n"
        if ch == '"':
            in_quote = True
            out.append(ch)
        elif ch == "{":
            in_brace = True
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def split_games(text: str) -> list[PbnGame]:
    """Games: tag pairs and the play section, a game ending at a blank line or a repeated tag."""
    games: list[PbnGame] = []
    cur = PbnGame()
    section: str | None = None
    previous: dict[str, str] = {}

    def close() -> None:
        nonlocal cur, previous
        if cur.tags:
            games.append(cur)
            previous = cur.tags
        cur = PbnGame()

    for lineno, raw in enumerate(strip_comments(text).splitlines(), start=1):
        line = raw.strip()
        if not line:
            close()
            section = None
            continue
        pos = 0
        for m in _TAG.finditer(line):
            between = line[pos:m.start()].strip()
            if between and section == "play":
                cur.play.extend(between.split())
            name, value = m.group(1), m.group(2).replace('\\"', '"')
            key = name.lower()
            if key in cur.tags and key in ("board", "deal", "event"):
                close()
            if not cur.tags:
                cur.line = lineno
            if value == "#" and key in previous:
                value = previous[key]
            if key != "note":
                cur.tags[key] = value
            section = key if key in SECTION_TAGS else None
            pos = m.end()
        rest = line[pos:].strip()
        if rest and section == "play":
            cur.play.extend(rest.split())
    close()
    return games


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
    try:
        games = split_games(text)
    except Exception as e:  # noqa: BLE001 - a file that cannot be split is reported, not raised
        yield ReadProblem(source, None, f"cannot split the file into games: {e}", "bad-file")
        return
    for i, g in enumerate(games):
        board = g.tags.get("board", "").strip() or str(i + 1)
        room = _room(g.tags.get("room", ""))
        if "deal" not in g.tags and "play" not in g.tags and "contract" not in g.tags:
            continue  # a header-only game (event data), not a board
        if report is not None:
            report.boards += 1
        try:
            item = _game(g, source, board, room, report)
        except RecordError as e:
            yield ReadProblem(source, board, e.reason, e.kind, room)
            continue
        if item is not None:
            yield item


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
    if not rtext.isdigit():
        raise RecordError("bad-claim", f"the play ends in a claim (*) but Result {rtext!r} gives no total")
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
    m = re.fullmatch(r"(?:(NS|EW)\s+)?(-?\d+)", t, re.IGNORECASE)
    if not m:
        notes.append(f"Score {t!r} unreadable; not checked")
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
