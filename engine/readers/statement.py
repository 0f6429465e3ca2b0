"""Plain-English claim statements read into the structured line of the case file.

    >>> p = parse_statement("Draw trumps, then cash the hearts, conceding a diamond at the end", trump=Suit.S)
    >>> [s.action for s in p.line.steps], p.line.ordered, p.tricks_stated.lose
    (['draw_trumps', 'cash', 'concede'], True, 1)

How a statement is read, in four passes (the word tables are just below; the table of
whole-clause IDIOMS sits with pass 3, next to what each idiom gives):

1. **Normalise**: lower case, contractions expanded, card names turned into card tokens
   (``♠A``, ``SA``, ``the ace of spades``, ``the spade ace``, ``AK of hearts``, ``♥AKQ``).
2. **Split** into sentences (``.`` ``;`` ``!`` ``?``) and each sentence into clauses at the
   CONNECTORS (``,``, ``and``, ``then``, ``before``, ``after``...). Sequencing connectors make
   the line ``ordered``; ``X after Y`` and ``before X, Y`` are put in the order of play.
3. **Read each clause**: first the IDIOMS (whole-clause phrases such as "the rest are mine",
   "all but one", "you get a club", "the hearts are good"); otherwise the first VERB decides
   the kind of step and the SLOTS around it (count, suit, cards, hand, when, "against",
   "with", "on") fill it in. A clause with no verb takes the previous clause's verb ("cash the
   hearts then the spades"), or is a count ("four hearts, three spades and a diamond").
4. **Report**: every clause appears in ``pieces`` with the step it gave (or None); words no
   table accounts for are listed in ``unparsed``, never dropped. A clause naming nothing of its own with "again"
   ("ruff again", "cash them again") is the step before it once more; a repeat of an earlier step that adds
   nothing (drawing trumps, running a suit, named cards) is read once (``collapsed`` counts them).

The same rules read a statement in the words a Director reports it in (tests/statement/paraphrases.yaml): the
claimer's side as subject ("we take the rest", "I'm taking ..."), "'s" as "is" before a predicate, a spot card
after a suit word ("dummy's spade five"), cards of one suit joined by "and" as one holding ("the ♥K and ♥Q"), a
phrase put before its verb ("on the diamonds I discard a club"), a condition put first, last, with "should" or as
shorthand ("clubs 3-2, no problem"), and after "then" a clause with no verb takes the verb of the plays, not of
the discard made on them ("the ♥AK, pitching the ♠5, then the ♦J").

Counts versus order: a list of tricks per suit with no sequencing word is a count, not an order
(``count_only``); "... then ..." is an order (``ordered``), and so is a list of plays with a crossing by a
named card after an earlier play ("the club queen, a club to the ace and the king"). ``mentions_trumps`` is
True when the statement says anything about trumps as a suit (a draw step, the word "trump(s)" other than as
the instrument of a ruff, or the trump suit named in a non-ruff step).

What the step fields mean here, beyond ``facts.case.Step``: ``finesse.card`` is the missing
honour ("against the ♠Q"); ``finesse.cards`` the card finessed with ("finesse the ♣J");
``ruff.cards`` the cards named in the ruff; ``play`` with a suit and no cards is "a card of that
suit"; ``hand`` is resolved only when ``claimer`` is given (dummy is then the claimer's partner:
the claimer is taken to be declarer when he speaks of dummy). Not representable, so reported as
unparsed: squeezes, endplays, playing for the drop, conditions ("if the hearts break").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from claimlaw.facts.cards import Card, Seat, Suit
from claimlaw.facts.case import Condition, Line, Step

# ======================================================================================
# The vocabulary
# ======================================================================================

NUMBER_WORDS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "both": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    **{str(n): n for n in range(1, 14)},
}

TRUMP = "trump"  # the suit word "trump(s)": the trump suit when it is known
SUIT_WORDS: dict[str, Suit | str] = {
    "spade": Suit.S, "spades": Suit.S, "heart": Suit.H, "hearts": Suit.H,
    "diamond": Suit.D, "diamonds": Suit.D, "club": Suit.C, "clubs": Suit.C,
    "trump": TRUMP, "trumps": TRUMP,
}
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}

RANK_WORDS: dict[str, int] = {
    "ace": 14, "king": 13, "queen": 12, "jack": 11, "knave": 11, "ten": 10, "nine": 9, "eight": 8,
    "seven": 7, "six": 6, "five": 5, "four": 4, "three": 3, "two": 2, "deuce": 2,
}

HandRef = Literal["dummy", "claimer"] | Seat
HAND_WORDS: dict[str, HandRef] = {
    "dummy": "dummy", "the dummy": "dummy", "table": "dummy", "the table": "dummy", "board": "dummy",
    "the board": "dummy", "hand": "claimer", "my hand": "claimer", "own hand": "claimer",
    "my own hand": "claimer", "closed hand": "claimer", "the closed hand": "claimer",
    "north": Seat.N, "south": Seat.S, "east": Seat.E, "west": Seat.W,
}

When = Literal["now", "end"]
WHEN_PHRASES: dict[str, When] = {
    "at the end": "end", "at the very end": "end", "at the death": "end", "in the end": "end",
    "at the finish": "end", "at trick thirteen": "end", "at trick 13": "end", "last": "end",
    "later": "end", "eventually": "end",
    "right now": "now", "now": "now", "first": "now", "immediately": "now", "right away": "now",
    "straight away": "now", "straightaway": "now", "at once": "now", "to begin with": "now",
    "to start with": "now", "to start": "now", "at the start": "now",
}
WHEN_UNSPECIFIED = ("at some point", "at some stage", "sometime", "some time", "whenever", "at any time", "somewhere",
                    "along the way")

# What a clause's verb says it is. A "take"/"play"/"get" clause is settled by its nouns
# (a finesse, a ruff, cards, a hand) in ``_build``.
VerbClass = Literal["cash", "play", "draw", "finesse", "take", "ruff", "crossruff", "cross",
                    "concede", "duck", "exit", "discard", "ruffing_finesse"]
VERB_PHRASES: dict[VerbClass, tuple[str, ...]] = {
    "ruffing_finesse": ("ruffing finesse", "ruffing-finesse", "ruffing finesses", "ruff-finesse", "ruff finesse"),
    "crossruff": ("cross-ruff", "cross-ruffing", "cross ruff", "cross ruffing", "crossruff", "crossruffing"),
    "discard": ("get rid of", "getting rid of", "throw away", "throwing away", "discard", "discards",
                "discarding", "pitch", "pitches", "pitching", "throw", "throws", "throwing", "shed",
                "shedding", "sluff", "sluffing", "slough", "sloughing", "dump", "dumping"),
    "draw": ("draw", "draws", "drawing", "drew", "pull", "pulls", "pulling", "extract", "extracting",
             "clear", "clearing", "knock out", "knocking out"),
    "finesse": ("finesse", "finesses", "finessing", "hook", "hooking"),
    "ruff": ("ruff", "ruffs", "ruffing", "trump", "trumping"),
    "concede": ("give up", "giving up", "give away", "giving away", "concede", "concedes", "conceding",
                "lose", "loses", "losing", "surrender", "surrendering"),
    "duck": ("duck", "ducks", "ducking"),
    "exit": ("exit", "exits", "exiting", "throw in", "throwing in"),
    "cross": ("get back", "getting back", "come back", "go back", "cross", "crosses", "crossing",
              "enter", "entering", "reach", "reaching", "return", "returning", "travel", "travelling",
              "go", "going", "come", "coming", "over", "back"),
    "take": ("take", "takes", "taking", "try", "trying", "get", "gets", "getting", "repeat", "repeats", "repeating"),
    "cash": ("play off", "playing off", "run off", "reel off", "rattle off", "cash", "cashes", "cashing",
             "run", "runs", "running", "win", "winning", "score", "scoring", "make", "makes", "making"),
    "play": ("play", "plays", "playing", "lead", "leads", "leading", "unblock", "unblocking"),
}

# Words a clause may open with that say nothing about the line.
PREFIX_FILLERS = (
    "i claim", "claiming", "claim", "i am going to", "going to", "i will", "i shall", "i am", "i would",
    "i can", "i plan to", "i intend to", "i want to", "let me", "we will",
    "i", "we", "will", "shall", "just", "simply", "then", "and", "so", "also", "now", "first", "next",
    "finally", "lastly", "ok", "okay", "well", "obviously", "of course", "by", "after that",
    "i am going to have to", "i have got to", "have got to", "got to", "i have to", "i need to", "i must",
    "have to", "need to", "must",
    "i have got", "i have", "there are", "there is", "that is", "with", "plus",
)
# Words a clause may close with that say nothing about the line.
SUFFIX_FILLERS = ("if that is ok", "is that ok", "if you like", "ok", "okay", "please", "thanks", "then",
                  "now", "first", "in any order", "in some order", "from the top", "as needed",
                  "as necessary", "all right", "alright", "as well", "too", "any more", "anymore")
# Whole clauses that are no part of the line.
NO_LINE_CLAUSES = ("i claim", "claim", "claiming", "i am claiming", "ok", "okay", "that is it", "that is all",
                   "here you are", "showing my hand", "cards on the table", "easy", "simple", "cold",
                   "i think", "ok?", "good", "right", "yes", "so", "(none)", "none", "no statement", "nothing said",
                   "there is no problem", "no problem", "that is fine", "fine", "nothing to do")

# Words inside a clause that carry no slot of their own.
NOISE_WORDS = frozenset(
    "the a an my your his her their our dummy's all every each of remaining last other small low little "
    "high top good losing established winning outstanding missing master long rest up out off away "
    "and then also just will i to it them those these from in on with cards card again".split())

# Clause connectors: splitting points; those that sequence make the line ordered.
THEN_CONNECTORS = ("and then", "then", "and after that", "after that", "afterwards", "followed by",
                   "next", "finally", "and finally", "after which")
AFTER_CONNECTORS = ("after", "once", "when", "as soon as")  # "X after Y": Y is played first
BEFORE_CONNECTORS = ("before",)  # "X before Y": X first; "before Y, X": X first
PLAIN_CONNECTORS = ("and", "plus", "but", "while", "&")

# Words that name a line the Step vocabulary cannot carry (reported as unparsed).
NOT_REPRESENTABLE = ("squeeze", "squeezed", "endplay", "end-play", "end play", "throw-in", "drop",
                     "strip", "if ", "unless", "break", "breaks", "splits")


# ======================================================================================
# The result
# ======================================================================================

TricksKind = Literal["all", "all_but", "none", "number", "more", "down", "making", "overtricks", "this_trick"]


@dataclass(frozen=True)
class TricksStated:
    """What the statement says about the number of tricks.

    ``all``: the rest are mine (``lose`` 0); ``all_but``: all but ``lose``; ``none``: the rest
    are yours; ``number``: ``count`` tricks as said (whether that counts tricks already won is
    for the reader); ``more``: ``count`` of the tricks still to play; ``down``/``overtricks``:
    ``count`` under or over the contract; ``making``; ``this_trick``: only the trick in progress
    (no claim under the footnote to Law 68).
    ``implied``: read from the stated concessions, not said as a number.
    """

    kind: TricksKind
    lose: int | None = None
    count: int | None = None
    words: str = ""
    implied: bool = False


Piece = tuple[str, Step | None]


@dataclass
class StatementParse:
    """The structured reading of a claim statement, with its trace."""

    text: str
    line: Line
    count_only: bool = False
    mentions_trumps: bool = False
    tricks_stated: TricksStated | None = None
    pieces: list[Piece] = field(default_factory=list)
    unparsed: list[str] = field(default_factory=list)
    collapsed: int = 0  # steps dropped as a repeat of an earlier step (see ``collapse_repeats``)

    def describe(self) -> list[str]:
        """The parse trace, one line per piece, for people."""
        out = []
        for phrase, step in self.pieces:
            out.append(f"{phrase!r} -> {describe_step(step) if step else '(no step)'}")
        if self.line.steps:
            out.append("line: " + "; ".join(describe_step(s) for s in self.line.steps))
        if self.tricks_stated:
            t = self.tricks_stated
            out.append(f"tricks: {t.kind}" + (f", lose {t.lose}" if t.lose is not None else "")
                       + (f", {t.count}" if t.count is not None else "") + (" (implied)" if t.implied else ""))
        out.append(f"ordered: {self.line.ordered}; count only: {self.count_only}; "
                   f"mentions trumps: {self.mentions_trumps}")
        if self.collapsed:
            out.append(f"repeated steps read once, or cards of one suit joined: {self.collapsed}")
        for u in self.unparsed:
            out.append(f"not understood: {u!r}")
        return out


def describe_step(step: Step) -> str:
    """A step in a few words: ``ruff ♣ in N``."""
    parts = [step.action]
    if step.count:
        parts.append(str(step.count))
    if step.suit:
        parts.append(step.suit.symbol)
    if step.card:
        parts.append(f"against {step.card.pretty}")
    if step.cards:
        parts.append(" ".join(c.pretty for c in step.cards))
    if step.hand:
        parts.append(f"in {step.hand.value}")
    if step.when:
        parts.append(f"({step.when})")
    return " ".join(parts)


# ======================================================================================
# Pass 1: normalise
# ======================================================================================

_CONTRACTIONS = {
    "i'll": "i will", "i'm": "i am", "i've": "i have", "i'd": "i would", "you'll": "you will",
    "you're": "you are", "you've": "you have", "they're": "they are", "they'll": "they will",
    "that's": "that is", "it's": "it is", "there's": "there is", "won't": "will not", "don't": "do not",
    "can't": "cannot", "we'll": "we will", "he'll": "he will", "she'll": "she will", "what's": "what is",
    "dummy's": "dummy's", "trumps'": "trumps", "one's": "one is", "partner's": "partner is",
}
_RANK_CH = "23456789TJQKA"
_RANK_WORD_RE = "|".join(sorted(RANK_WORDS, key=len, reverse=True))
_SUIT_WORD_RE = "|".join(sorted(SUIT_WORDS, key=len, reverse=True))
_SUIT_SING_RE = "spade|heart|diamond|club|trump"
_CARD_TOKEN = re.compile(r"\[([SHDC])([2-9TJQKA])\]")


def _rank_of(word: str) -> int | None:
    w = word.lower()
    if w in RANK_WORDS:
        return RANK_WORDS[w]
    if w == "10":
        return 10
    if len(w) == 1 and w.upper() in _RANK_CH:
        return _RANK_CH.index(w.upper()) + 2
    return None


def _suit_letter(word: str, trump: Suit | None) -> str | None:
    """The suit letter of a suit word; ``trump(s)`` only when the trump suit is known."""
    st = SUIT_WORDS.get(word.lower())
    if st == TRUMP:
        return trump.value if trump else None
    return st.value if isinstance(st, Suit) else None


def _tok(suit: str, rank: int) -> str:
    return f" [{suit}{_RANK_CH[rank - 2]}] "


def normalise(text: str, trump: Suit | None = None) -> str:
    """Lower-case text with card names turned into ``[SA]`` tokens (see the module docstring)."""
    t = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"').replace("–", "-")
    t = t.replace("—", "-").replace('"', " ")
    # symbol cards and holdings: ♠A, ♠10, ♠AKQ, A♠
    def sym(m: re.Match[str]) -> str:
        suit = SUIT_SYMBOLS[m.group(1)]
        ranks = m.group(2).upper().replace("10", "T")
        return "".join(_tok(suit, _RANK_CH.index(r) + 2) for r in ranks)
    t = re.sub(r"([♠♥♦♣♤♡♢♧])\s?((?:10|[2-9TJQKAtjqka])+)(?![a-zA-Z])", sym, t)
    t = re.sub(r"(?<![A-Za-z])(10|[2-9TJQKA])([♠♥♦♣♤♡♢♧])",
               lambda m: _tok(SUIT_SYMBOLS[m.group(2)], _rank_of(m.group(1)) or 2), t)
    # letter cards, upper case only so that words stay words: SA, HK, D10
    t = re.sub(r"(?<![A-Za-z0-9\[])([SHDC])(10|[2-9TJQKA])(?![A-Za-z0-9\]])",
               lambda m: _tok(m.group(1), _rank_of(m.group(2)) or 2), t)
    for sym_ch, letter in SUIT_SYMBOLS.items():  # a bare symbol is a suit word
        t = t.replace(sym_ch, f" {Suit(letter).long_name} ")
    t = t.lower()
    # "everything's mine", "this trick's mine": 's before a predicate is "is", not a possessive
    t = re.sub(r"\b([a-z]+)'s\s+(?=(?:all\s+)?(?:mine|ours|yours|good|high|gone)\b)", r"\1 is ", t)
    t = re.sub(r"[a-z]+'[a-z]*", lambda m: _CONTRACTIONS.get(m.group(), m.group()), t)
    t = re.sub(r"\[([shdc])([2-9tjqka])\]", lambda m: f"[{m.group(1).upper()}{m.group(2).upper()}]", t)
    t = t.replace("a couple of", "two")
    t = re.sub(r"\b(?:once\s+more|one\s+more\s+time|once\s+again)\b", "again", t)  # not "once" as "when"
    # "diamonds six, spades five": a count said after its suit is the same count ("clubs 3-2" is a split)
    t = re.sub(r"\b(spades|hearts|diamonds|clubs|trumps)\s+(one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
               r"twelve|thirteen|1[0-3]|[1-9])\b(?!\s*[-/]\s*\d)(?!\s+(?:of|more|tricks?)\b)", r"\2 \1", t)
    # "cash the diamonds pitching a club": a discard participle after what is played starts a clause of its own
    t = re.sub(r"([a-z]+|\])\s+(?=(?:pitching|throwing|discarding|shedding|sluffing|sloughing|dumping)\b)",
               lambda m: m.group(0) if m.group(1) in _NOT_AN_OBJECT else f"{m.group(1)} , ", t)

    # word cards: "ace, king and queen of spades", "the ace-king of trumps", "ak of hearts"
    rank_item = rf"(?:{_RANK_WORD_RE}|10|[akqjt2-9]{{1,6}})"
    holding = re.compile(rf"\b({rank_item}(?:\s*(?:,|and|&|-|\+)\s*{rank_item}|\s+{rank_item})*)"
                         rf"\s+of\s+(?:the\s+)?({_SUIT_WORD_RE})\b")

    def hold(m: re.Match[str]) -> str:
        suit = _suit_letter(m.group(2), trump)
        items = [w for w in re.split(r"[\s,&+-]+|\band\b", m.group(1)) if w]
        ranks: list[int] = []
        for w in items:
            r = _rank_of(w)
            if r is not None:
                ranks.append(r)
            elif re.fullmatch(r"[akqjt2-9]{2,6}", w) and len(set(w)) == len(w):
                ranks.extend(_RANK_CH.index(ch.upper()) + 2 for ch in w)
            else:
                return m.group()
        if suit is None or not ranks:
            return m.group()
        if m.group(2).endswith("s") is False and len(ranks) > 1:
            return m.group()
        # "two of the spades", "three of hearts": a count of cards, not the deuce or the trey;
        # but "the five of spades", "dummy's two of clubs" name one card
        if len(items) == 1 and items[0] in NUMBER_WORDS and items[0] not in ("ten",) and not _DETERMINER_BEFORE.search(
                m.string[:m.start()]):
            return m.group()
        return "".join(_tok(suit, r) for r in ranks)
    t = holding.sub(hold, t)

    # "the spade ace", "the trump king", "the club ace-king"
    honour = "(?:ace|king|queen|jack|ten)"
    # a spot card after a singular suit word ("the spade five") is a card: a count comes before its suit
    spot = "(?:nine|eight|seven|six|five|four|three|two|deuce)(?!\\s+(?:tricks?|more|of|times|rounds?)\\b)"
    suit_first = re.compile(rf"\b({_SUIT_SING_RE})\s+((?:{honour}|{spot})(?:\s*(?:-|and)\s*{honour})*)\b")

    def sfirst(m: re.Match[str]) -> str:
        suit = _suit_letter(m.group(1), trump)
        if suit is None:
            return m.group()
        ranks = [RANK_WORDS[w] for w in re.split(r"\s*(?:-|and)\s*", m.group(2)) if w in RANK_WORDS]
        return "".join(_tok(suit, r) for r in ranks)
    t = suit_first.sub(sfirst, t)
    t = _honours_next_to_suit(t, trump)
    # "the ♥K and ♥Q": cards of one suit joined by "and" are one holding, as "the ♥KQ" is ("the ♣A and the ♣K",
    # with a determiner of its own, stays two)
    t = re.sub(r"(\[([SHDC])[2-9TJQKA]\])\s*(?:,\s*|and\s+|&\s*)(?=\[\2[2-9TJQKA]\])", r"\1 ", t)
    t = re.sub(r"\s+", " ", t).strip()
    return t


_NOT_AN_OBJECT = frozenset(("and then am are is i we by keep while after before when on which " +
                            " ".join(AFTER_CONNECTORS + BEFORE_CONNECTORS + PLAIN_CONNECTORS)).split())
_DETERMINER_BEFORE = re.compile(r"\b(?:the|dummy's|my|his|her|your|partner's|declarer's)\s+$")
_HONOUR = r"(?:ace|king|queen|jack|ten(?!\s+(?:tricks?|more|of)\b))"
_HONOURS = rf"(?:the\s+)?{_HONOUR}(?:\s*(?:,|and|&)\s*(?:the\s+)?{_HONOUR})*"
_SUIT_TO_HONOURS = re.compile(rf"\b(?P<w>{_SUIT_SING_RE})\s+(?P<to>to|towards?|up\s+to)\s+(?P<h>{_HONOURS})\b")
_CARDS_AND_HONOURS = re.compile(rf"(?P<c>\[(?P<l>[SHDC])[2-9TJQKA]\](?:\s*\[(?P=l)[2-9TJQKA]\])*)"
                                rf"\s*(?:,|and|&)\s*(?P<h>{_HONOURS})\b")


def _honours_next_to_suit(t: str, trump: Suit | None) -> str:
    """Honours named without a suit take the suit named next to them.

    "a heart to the king and ace" -> "a heart to [HK] [HA]"; "[HA] and the king" -> "[HA] [HK]".
    """
    def tokens(letter: str, honours: str) -> str:
        return "".join(_tok(letter, RANK_WORDS[w]) for w in re.findall(_HONOUR, honours))

    def to_honours(m: re.Match[str]) -> str:
        letter = _suit_letter(m.group("w"), trump)
        if letter is None:
            return m.group()
        return f"{m.group('w')} {m.group('to')} {tokens(letter, m.group('h'))}"

    def after_cards(m: re.Match[str]) -> str:
        return m.group("c") + tokens(m.group("l"), m.group("h"))
    t = _SUIT_TO_HONOURS.sub(to_honours, t)
    return _CARDS_AND_HONOURS.sub(after_cards, t)


def pretty(text: str) -> str:
    """Card tokens shown as ``♠A``."""
    return _CARD_TOKEN.sub(lambda m: f"{Suit(m.group(1)).symbol}{m.group(2)}", text)


# ======================================================================================
# Pass 2: split into clauses
# ======================================================================================

Connector = Literal["start", "then", "after", "before", "plain"]


def _connector_kind(word: str) -> Connector:
    w = " ".join(word.split())
    if w in THEN_CONNECTORS:
        return "then"
    if w in AFTER_CONNECTORS:
        return "after"
    if w in BEFORE_CONNECTORS:
        return "before"
    return "plain"


_ALL_CONNECTORS = sorted(THEN_CONNECTORS + AFTER_CONNECTORS + BEFORE_CONNECTORS + PLAIN_CONNECTORS,
                         key=len, reverse=True)
# "but" is no connector in "all but one", "the rest but one", "everything but"
_SPLIT = re.compile(
    r"\s*(,|:|\b(?:" + "|".join(re.escape(c).replace(r"\ ", r"\s+") for c in _ALL_CONNECTORS if c != "&")
    + r")\b|&)\s*")


def split_clauses(sentence: str) -> list[tuple[Connector, str]]:
    """The clauses of one sentence, each with the connector before it (the stronger of two in a row)."""
    parts = _SPLIT.split(sentence)
    out: list[tuple[Connector, str]] = []
    conn: Connector = "start"
    pending: list[str] = []
    for i, part in enumerate(parts):
        if i % 2 == 0:  # words
            pending.append(part.strip())
            continue
        word = " ".join(part.split())
        if word == "but" and re.search(r"\b(?:all|rest|everything|remainder)\s*$", " ".join(pending)):
            pending.append("but")  # "all but one": no connector
            continue
        if word == "next" and re.search(r"\bthe\s*$", " ".join(pending)):
            pending.append("next")  # "the next two": no connector
            continue
        text = " ".join(pending).strip()
        pending = []
        kind: Connector = "plain" if word in (",", ":", "&") else _connector_kind(word)
        if text:
            out.append((conn, text))
            conn = kind
        elif kind != "plain":
            conn = kind
    text = " ".join(pending).strip()
    if text:
        out.append((conn, text))
    return out


# ======================================================================================
# Pass 3: read a clause
# ======================================================================================

_NUM_RE = "|".join(sorted((k for k in NUMBER_WORDS), key=len, reverse=True))
_HAND_RE = "|".join(sorted((re.escape(k) for k in HAND_WORDS), key=len, reverse=True))
_CARD_RE = r"\[[SHDC][2-9TJQKA]\]"
_CARDS_RE = rf"{_CARD_RE}(?:\s*{_CARD_RE})*"
_ADJ_RE = (r"(?:small|low|little|high|top|good|losing|established|winning|remaining|last|other|long|master|"
           r"outstanding|missing|spare|extra|more|side|big)")
_WHEN_RE = "|".join(sorted((re.escape(k) for k in WHEN_PHRASES), key=len, reverse=True))


@dataclass
class Slots:
    """What the words around a clause's verb say."""

    count: int | None = None
    suits: list[Suit | str] = field(default_factory=list)
    plural: bool = False
    cards: list[Card] = field(default_factory=list)
    hand: HandRef | None = None
    when: When | None = None
    against: Card | None = None
    against_words: str = ""
    with_cards: list[Card] = field(default_factory=list)
    with_suit: Suit | str | None = None
    on_target: str = ""
    on_suits: list[Suit | str] = field(default_factory=list)
    on_cards: list[Card] = field(default_factory=list)
    nouns: set[str] = field(default_factory=set)
    ranks: list[int] = field(default_factory=list)
    times: int = 1  # "twice", "three times": the step's count multiplied
    again: bool = False  # "again", "once more", or only a pronoun for what is played ("cash them"): see ``_as_before``
    ordering: bool = False
    leftover: list[str] = field(default_factory=list)


def _cards_of(text: str) -> list[Card]:
    return [Card(Suit(m.group(1)), _RANK_CH.index(m.group(2)) + 2) for m in _CARD_TOKEN.finditer(text)]


def _suit_of(word: str) -> Suit | str | None:
    return SUIT_WORDS.get(word.lower())


def read_slots(text: str, verb: VerbClass | None) -> Slots:
    """Fill the slots from the words of a clause (the verb already removed)."""
    s = Slots()
    t = f" {text} "

    def take(pattern: str, fn: Callable[[re.Match[str]], None]) -> None:
        nonlocal t

        def repl(m: re.Match[str]) -> str:
            fn(m)
            return " "
        t = re.sub(pattern, repl, t)

    def when(m: re.Match[str]) -> None:
        w = WHEN_PHRASES[" ".join(m.group(1).split())]
        if verb in ("concede", "duck", "exit") or s.when is None and verb is None:
            s.when = w
        else:
            s.ordering = True
    take(rf"\b({_WHEN_RE})\b(?!\s+(?:{_NUM_RE}|trumps?|round))", when)
    take(r"\b(?:" + "|".join(WHEN_UNSPECIFIED) + r")\b", lambda m: None)

    def against(m: re.Match[str]) -> None:
        cards = _cards_of(m.group(1))
        if cards:
            s.against = cards[0]
        s.against_words = m.group(1).strip()
        if not cards and m.group(1).strip() in RANK_WORDS:
            s.ranks.append(RANK_WORDS[m.group(1).strip()])
    take(rf"\bagainst\s+(?:the\s+|their\s+|(?:east|west|north|south)'s\s+)?({_CARD_RE}|{_RANK_WORD_RE})", against)

    def hand(m: re.Match[str]) -> None:
        s.hand = HAND_WORDS[" ".join(m.group(1).split())]
    take(rf"\b(?:in|to|into|from|on|onto|over\s+to|back\s+to|across\s+to|via|(?:ending|finishing|ends|finish|end)\s+in)"
         rf"\s+(?:the\s+)?({_HAND_RE})\b", hand)
    if verb == "cross":
        take(rf"\b({_HAND_RE})\b", hand)

    def on_target(m: re.Match[str]) -> None:
        s.on_target = pretty(m.group(0).strip())
        s.on_cards = _cards_of(m.group(0))
        s.on_suits = [x for w in re.findall(rf"\b(?:{_SUIT_WORD_RE})\b", _CARD_TOKEN.sub(" ", m.group(0)))
                      if (x := _suit_of(w)) is not None]
    if verb == "discard":
        take(rf"\bon(?:to)?\s+(?:the\s+|my\s+|dummy's\s+|his\s+)?(?:(?:{_NUM_RE})\s+)?(?:{_ADJ_RE}\s+)*"
             rf"(?:{_CARDS_RE}|(?:{_SUIT_WORD_RE})(?:\s+winners?)?|winners?|tops|tricks?|cards)"
             rf"(?:\s*(?:and|,)\s*(?:the\s+)?(?:{_CARDS_RE}|{_SUIT_WORD_RE}))*", on_target)
        # "discard dummy's five of spades": the card comes from dummy
        take(rf"\bdummy's\b(?=\s+(?:{_ADJ_RE}\s+)?(?:{_CARD_RE}|(?:{_SUIT_WORD_RE})\b))",
             lambda m: setattr(s, "hand", "dummy"))

    def instrument(m: re.Match[str]) -> None:
        cards = _cards_of(m.group(1))
        if cards:
            s.with_cards.extend(cards)
        else:
            word = m.group(1).strip()
            if word in RANK_WORDS:
                s.ranks.append(RANK_WORDS[word])
            else:
                s.with_suit = _suit_of(word)
    take(rf"\b(?:with|using|via|by)\s+(?:a\s+|an\s+|the\s+|my\s+|dummy's\s+|one\s+of\s+(?:my|the|dummy's)\s+)?"
         rf"(?:{_ADJ_RE}\s+)*({_CARDS_RE}|{_SUIT_WORD_RE}|{_RANK_WORD_RE})\b", instrument)

    def times(m: re.Match[str]) -> None:
        s.times = 2 if m.group(0) == "twice" else NUMBER_WORDS[m.group(1)]
    take(rf"\btwice\b|\b({_NUM_RE})\s+times\b", times)

    def again(m: re.Match[str]) -> None:
        s.again = True
    take(r"\bagain\b", again)

    def count(m: re.Match[str]) -> None:
        if s.count is None:
            s.count = NUMBER_WORDS[m.group(1)]
    take(rf"\b({_NUM_RE})\b(?=\s+(?:(?:of\s+)?(?:the\s+|my\s+|dummy's\s+)?)(?:{_ADJ_RE}\s+)*"
         rf"(?:{_SUIT_WORD_RE}|tricks?|rounds?|ruffs?|losers?|winners?|times|finesses?|{_CARD_RE})\b"
         rf"|\s+in\s+(?:the\s+)?(?:{_SUIT_WORD_RE})\b)", count)  # "five in spades": five tricks in them

    # "a heart to the king": a lead to a named card (of partner's, usually)
    take(rf"\b(?:to|towards?)\s+(?=(?:the\s+)?{_CARD_RE})", lambda m: s.nouns.add("to_card"))
    for noun, pat in (("ruffing_finesse", r"ruffing[\s-]+finesses?"),
                      ("finesse", r"finesses?|hooks?"), ("ruff", r"ruffs?"), ("loser", r"losers?"),
                      ("trick", r"tricks?"), ("winner", r"winners?|tops"),
                      ("round", r"(?:(?:second|third|fourth|fifth|sixth|seventh)\s+)?rounds?"),
                      ("entry", r"entry|entries")):
        def mark(m: re.Match[str], noun: str = noun) -> None:
            s.nouns.add(noun)
        take(rf"\b(?:{pat})\b", mark)

    def suit(m: re.Match[str]) -> None:
        word = m.group(1)
        st = _suit_of(word)
        if st is not None and st not in s.suits:
            s.suits.append(st)
        if word.endswith("s"):
            s.plural = True
    take(rf"\b({_SUIT_WORD_RE})\b", suit)

    s.cards = _cards_of(t)
    t = _CARD_TOKEN.sub(" ", t)

    def rank(m: re.Match[str]) -> None:
        s.ranks.append(RANK_WORDS[m.group(1)])
    take(rf"\b({_RANK_WORD_RE})\b", rank)

    if re.fullmatch(r"\s*(?:them|it|those|these|that|that\s+one|the\s+same)\s*", t):
        s.again = True  # only a pronoun for what is played: the same as the step before
    if s.count is None:
        def lone_count(m: re.Match[str]) -> None:
            s.count = NUMBER_WORDS[m.group(1)]
        take(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|1[0-3]|[1-9])\b", lone_count)

    if s.times > 1:
        s.count = min((s.count or 1) * s.times, 13)
    for w in t.replace(",", " ").split():
        if w in ("first", "last", "finally", "next"):
            s.ordering = True
        elif w not in NOISE_WORDS and w not in ("?", "!", "-", "'", "s"):
            s.leftover.append(w)
    return s


def _find_verb(words: str) -> tuple[VerbClass, str, str, str] | None:
    """The first verb phrase (the longest where two start together): class, words before, verb, words after."""
    best: tuple[int, int, VerbClass] | None = None
    for cls, phrases in VERB_PHRASES.items():
        for ph in phrases:
            m = re.search(rf"(?<![\w\[])({re.escape(ph)})(?![\w\]])", words)
            if m and (best is None or (m.start(), -len(ph)) < best[:2]):
                best = (m.start(), -len(ph), cls)
    if best is None:
        return None
    start, neglen, cls = best
    return cls, words[:start].strip(), words[start:start - neglen], words[start - neglen:].strip()


ORDER_WORDS = ("first", "next", "finally", "lastly", "then", "after that", "now")


def _strip_fillers(words: str) -> tuple[str, list[str]]:
    """The clause without filler words at either end, and the fillers taken off."""
    taken: list[str] = []
    changed = True
    w = words.strip(" ,?!")
    while changed:
        changed = False
        for f in sorted(PREFIX_FILLERS, key=len, reverse=True):
            if w == f or w.startswith(f + " "):
                taken.append(f)
                w = w[len(f):].strip(" ,")
                changed = True
                break
        for f in sorted(SUFFIX_FILLERS, key=len, reverse=True):
            if w == f or w.endswith(" " + f):
                taken.append(f)
                w = w[: len(w) - len(f)].strip(" ,?")
                changed = True
                break
    return w, taken


def _with_fillers(r: ClauseReading, taken: list[str]) -> ClauseReading:
    """Fillers that still mean something: "first"/"now" time a concession, else mark an order."""
    when = next((WHEN_PHRASES[f] for f in taken if f in WHEN_PHRASES), None)
    if when is not None and r.steps and all(st.action == "concede" for st in r.steps):
        r.steps = [st if st.when else st.model_copy(update={"when": when}) for st in r.steps]
    elif any(f in ORDER_WORDS and f != "now" for f in taken):
        r.ordering = True
    return r


# -- idioms: whole clauses read as a unit -----------------------------------------------

@dataclass
class ClauseReading:
    """What one clause gave: steps, a tricks statement, words not understood."""

    steps: list[Step] = field(default_factory=list)
    condition: Condition | None = None  # a clause that is only a condition ("if trumps are 3-1,")
    tricks: TricksStated | None = None
    leftover: list[str] = field(default_factory=list)
    verb: VerbClass | None = None
    ordering: bool = False
    trump_words: bool = False
    understood: bool = True
    again: bool = False  # the clause names nothing of its own and says "again" (or "them"): see ``_as_before``


def _n(word: str | None) -> int:
    return NUMBER_WORDS.get((word or "").strip(), 1)


IdiomHandler = Callable[[re.Match[str], Suit | None, Seat | None], ClauseReading]


def _tricks(kind: TricksKind, lose: int | None = None, count: int | None = None) -> IdiomHandler:
    def h(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
        n = count
        if n is None and "n" in m.groupdict() and m.group("n"):
            n = _n(m.group("n"))
        lo = lose if lose is not None else (n if kind == "all_but" else None)
        return ClauseReading(tricks=TricksStated(kind, lose=lo, count=None if kind == "all_but" else n,
                                                 words=pretty(m.group(0))))
    return h


def _all_but(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    what = m.group("what").strip()
    if re.fullmatch(rf"(?:{_NUM_RE})(?:\s+tricks?)?", what):
        n = _n(what.split()[0])
        return ClauseReading(tricks=TricksStated("all_but", lose=n, words=pretty(m.group(0))))
    r = _verb_clause("concede", what, trump, claimer=claimer)
    n = sum(1 for s in r.steps if s.action == "concede") or 1
    r.tricks = TricksStated("all_but", lose=n, words=pretty(m.group(0)))
    return r


def _opp_gets(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    what = re.sub(r"\bmore\s+(?=tricks?\b)", "", m.group("what").strip())  # "one more trick": one trick
    if re.fullmatch(_REST + r"|them\s+all|everything|the\s+lot", what):
        return ClauseReading(tricks=TricksStated("none", words=pretty(m.group(0))))
    if re.fullmatch(r"nothing|none|no\s+tricks?", what):
        return ClauseReading(tricks=TricksStated("all", lose=0, words=pretty(m.group(0))))
    return _verb_clause("concede", what, trump, claimer=claimer)


def _to_you(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    what = re.sub(r"\bmore\s+(?=tricks?\b)", "", m.group("what"))  # "one more trick to you": one trick
    return _verb_clause("concede", what + " " + (m.group("when") or ""), trump, claimer=claimer)


def _suit_good(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    return _verb_clause("cash", m.group("what"), trump, claimer=claimer)


def _goes_on(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    return _verb_clause("discard", m.group("what") + " " + (m.group("on") or ""), trump, claimer=claimer)


def _loser(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    return _verb_clause("concede", m.group("what"), trump, claimer=claimer)


def _trumps_drawn(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    return ClauseReading(steps=[Step(action="draw_trumps", text=pretty(m.group(0)))], verb="draw", trump_words=True)


def _to_hand(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    return _verb_clause("cross", m.group("what"), trump, claimer=claimer)


def _noun_finesse(m: re.Match[str], trump: Suit | None, claimer: Seat | None = None) -> ClauseReading:
    return _verb_clause("finesse", m.group("what"), trump, claimer=claimer)


def _alt(*words: str) -> str:
    """A regex alternation of phrases (spaces match any run of spaces)."""
    return "(?:" + "|".join(w.replace(" ", r"\s+") for w in words) + ")"


_OPP = _alt("you", "they", "the defence", "the defense", "the defenders", "the opponents", "opponents",
            "east", "west", "north", "south", "lho", "rho", "your side")
_GET = _alt("get", "gets", "will get", "can have", "have", "has", "will have", "win", "wins", "will win",
            "take", "takes", "will take", "make", "makes", "will make", "score", "scores", "are getting",
            "are entitled to")
_MINE = _alt("mine", "ours", "good", "high", "winners", "tops", "established")
_REST = (r"(?:(?:all\s+)?(?:the\s+)?" + _alt("rest", "remainder", "balance", "remaining tricks", "others")
         + r"(?:\s+of\s+(?:the\s+)?(?:tricks|them))?)")
_DOUBT = r"(?:(?:i\s+)?do\s+not\s+think\s+(?:that\s+)?)?"
_A_HAND = _alt("dummy", "the dummy", "my hand", "the hand", "hand", "my cards", "dummy's cards", "the cards",
               "they", "the board", "board", "the table", "table")
_ALL_MINE = _alt("mine", "ours", "the tricks", "of them", "thirteen", "13", "good", "high", "winners", "tops",
                 "top tricks", "claimed")
_BUT = _alt("but", "except", "except for", "bar", "less", "apart from")
_NO_MORE = _alt("no more than", "more than", "anything but", "anything except", "anything other than", "only")
_IS = _alt("are", "is", "will be")
_GOOD = _alt("good", "high", "winners", "established", "running", "solid", "set up", "cashing", "tops", "mine")
_GOES = _alt("go", "goes", "will go", "are going", "is going", "can go", "disappear", "disappears", "will disappear")
_MY = _alt("my", "the", "dummy's", "all my", "all the", "both my", "a", "one")
_SUIT_OR_CARDS = rf"(?:{_SUIT_WORD_RE}|{_CARDS_RE})"
_CLAIMS_N = _alt("i have", "i take", "i make", "i win", "i get", "that is", "making", "claim", "claiming", "for")
# "(we) take ...", "I am taking ...": the claimer's side says it wins what follows (the subject and "will" are fillers)
_TAKE_VERB = _alt("have", "have got", "got", "take", "taking", "win", "winning", "get", "getting", "make", "making",
                  "claim", "claiming", "score")
_I_TAKE = rf"(?:{_alt('i', 'we')}\s+)?(?:{_alt('am', 'are')}\s+)?{_TAKE_VERB}\s+"

# (name, pattern, what it gives): each pattern must match the whole clause (fillers stripped).
IDIOMS: list[tuple[str, re.Pattern[str], IdiomHandler]] = [(name, re.compile(pat), fn) for name, pat, fn in [
    ("nothing to play for", r"(?:there\s+is\s+)?(?:nothing\s+(?:more\s+|else\s+|left\s+)?|no\s+more\s+)to\s+play\s+for",
     _tricks("all", 0)),
    ("the last n tricks to me", rf"(?:{_I_TAKE})?(?:the\s+)?{_alt('last', 'remaining', 'final', 'other')}\s+"
                                rf"(?P<n>{_NUM_RE})(?:\s+tricks?)?"
                                rf"(?:\s+(?:{_alt('are', 'go', 'come')}\s+)?{_alt('to', 'for')}\s+"
                                rf"{_alt('me', 'us')}|\s+{_IS}\s+(?:all\s+)?{_alt('mine', 'ours')})?", _tricks("more")),
    ("the rest are mine",
     rf"(?:{_I_TAKE}(?:all\s+)?)?{_REST}(?:\s+{_IS}\s+(?:all\s+)?{_MINE}(?:,?\s+all\s+of\s+them)?)?",
     _tricks("all", 0)),
    ("all mine", rf"(?:{_alt('they are', 'it is', 'that is', 'these are')}\s+|{_I_TAKE})?"
                 rf"{_alt('all', 'everything', 'the lot')}(?:\s+{_alt('of them', 'the tricks', 'of the tricks')})?"
                 rf"(?:\s+(?:{_IS}\s+)?{_ALL_MINE})?", _tricks("all", 0)),
    ("a hand is high", rf"(?:{_alt('all', 'everything in', 'all the cards in', 'all of')}\s+)?{_A_HAND}\s+(?:is|are)\s+"
                       rf"(?:all\s+)?{_MINE}", _tricks("all", 0)),
    ("nothing for you", rf"{_DOUBT}{_OPP}\s+{_alt('get', 'will get', 'have', 'make', 'take', 'win')}\s+"
                        rf"{_alt('nothing', 'no tricks', 'no trick')}", _tricks("all", 0)),
    ("no losers", r"(?:i\s+have\s+)?no\s+losers?(?:\s+left)?", _tricks("all", 0)),
    ("all but", rf"{_alt('all', 'everything')}\s+{_BUT}\s+(?P<what>.+)", _all_but),
    ("the rest but", rf"{_REST}\s+{_BUT}\s+(?P<what>.+)", _all_but),
    ("the rest are yours", rf"{_REST}\s+(?:are|is)\s+yours|(?:all|they\s+are\s+all)\s+yours"
                           rf"|(?:i\s+)?(?:concede|give\s+you)\s+{_REST}", _tricks("none")),
    ("no more than", rf"{_DOUBT}{_OPP}\s+(?:{_alt('will', 'can', 'are going to')}\s+)?"
                     rf"{_alt('win', 'get', 'take', 'make', 'have')}\s+{_NO_MORE}\s+(?P<what>.+)", _all_but),
    ("the opponents get", rf"{_OPP}\s+{_GET}\s+(?P<what>.+)", _opp_gets),
    ("to you", rf"(?P<what>.+?)\s+(?:to|for)\s+{_alt('you', 'them', 'the defence', 'the defense')}"
               rf"(?:\s+(?P<when>{_WHEN_RE}))?", _to_you),
    ("a loser", rf"(?:{_alt('i have', 'i have got', 'there is', 'with')}\s+)?"
                rf"(?P<what>(?:{_NUM_RE})\s+{_SUIT_OR_CARDS}\s+losers?(?:\s+.+)?)", _loser),
    ("trumps are drawn", rf"(?:the\s+|their\s+)?trumps?\s+{_alt('are', 'is', 'have been', 'has been', 'will be')}\s+"
                         rf"{_alt('drawn', 'out', 'gone', 'pulled', 'cleared', 'done', 'finished')}", _trumps_drawn),
    ("no trumps out", rf"(?:there\s+are\s+)?no\s+(?:more\s+)?trumps?\s+{_alt('out', 'left', 'outstanding', 'missing')}"
                      rf"|(?:the\s+)?trumps?\s+(?:are\s+)?all\s+{_alt('out', 'gone', 'drawn', 'in')}",
     lambda m, t, c: ClauseReading(trump_words=True)),
    ("a suit is good", rf"(?P<what>(?:{_alt('the', 'my', 'dummy' + chr(39) + 's', 'all the', 'all my')}\s+)?"
                       rf"{_SUIT_OR_CARDS}(?:\s+in\s+(?:{_HAND_RE}))?)\s+{_IS}\s+(?:all\s+)?{_GOOD}", _suit_good),
    ("goes on", rf"(?P<what>{_MY}\s+.+?)\s+{_GOES}(?:\s+away)?(?P<on>\s+on\s+.+)?", _goes_on),
    ("to a hand", rf"(?:{_alt('back', 'over', 'across')}\s+)?(?:to|into)\s+"
                  rf"(?P<what>(?:the\s+)?(?:{_HAND_RE})(?:\s+.+)?)",
     _to_hand),
    ("the suit finesse", rf"(?P<what>(?:the\s+|a\s+)?(?:{_SUIT_WORD_RE})\s+(?:finesse|hook)(?:\s+.+)?)",
     _noun_finesse),
    ("crossruff", rf"(?:(?:play|playing)\s+)?(?:on|by|with)\s+a\s+(?:high\s+|simple\s+)?"
                  rf"{_alt('cross-ruff', 'cross ruff', 'crossruff')}(?:\s+.+)?",
     lambda m, t, c: _verb_clause("crossruff", "", t, claimer=c)),
    ("another n", rf"(?:{_I_TAKE})?(?:the\s+next|another)\s+(?P<n>{_NUM_RE})(?:\s+tricks?)?"
                  rf"(?:\s+(?:{_IS}\s+{_alt('mine', 'ours')}|{_alt('for', 'to')}\s+{_alt('me', 'us', 'our side')}))?",
     _tricks("more")),
    ("n more", rf"(?:{_CLAIMS_N}\s+|{_I_TAKE})?(?P<n>{_NUM_RE})\s+more(?:\s+tricks?)?"
               rf"(?:\s+{_alt('for us', 'for me', 'to us', 'to me', 'for our side')})?", _tricks("more")),
    ("this trick", rf"(?:{_I_TAKE})?this\s+{_alt('one', 'trick', 'one is', 'trick is')}"
                   rf"(?:\s+(?:is\s+)?{_alt('mine', 'ours')})?",
     _tricks("this_trick")),
    ("partner gets nothing", rf"(?:my\s+)?partner\s+(?:(?:is\s+)?{_alt('cannot', 'can not', 'will not', 'does not')}"
                             rf"\s+{_alt('have', 'get', 'win', 'take', 'make')}\s+"
                             rf"{_alt('anything', 'a trick', 'any tricks')}"
                             rf"|{_alt('gets', 'will get', 'has', 'takes', 'makes', 'wins')}\s+"
                             rf"{_alt('nothing', 'no tricks', 'no trick')})",
     _tricks("none")),
    ("n tricks", rf"(?:{_CLAIMS_N}\s+)?(?P<n>{_NUM_RE})\s+(?:more\s+)?tricks?"
                 rf"(?:\s+{_alt('in all', 'altogether', 'in total', 'total')})?", _tricks("number")),
    ("n down", rf"(?P<n>{_NUM_RE})\s+{_alt('down', 'off', 'light', 'under')}|down\s+(?P<n2>{_NUM_RE})",
     _tricks("down")),
    ("making", rf"(?:just\s+)?making(?:\s+{_alt('it', 'the contract', 'exactly', 'my contract')})?|contract\s+made",
     _tricks("making")),
    ("overtricks", rf"(?:making\s+)?(?:plus\s+(?P<n>{_NUM_RE})|(?P<n3>{_NUM_RE})\s+overtricks?|an\s+overtrick)",
     _tricks("overtricks")),
]]


def _idiom(clause: str, trump: Suit | None, claimer: Seat | None = None) -> tuple[str, ClauseReading] | None:
    for name, pat, fn in IDIOMS:
        m = pat.fullmatch(clause)
        if m:
            r = fn(m, trump, claimer)
            if name in ("n down",) and r.tricks and m.group("n2"):
                r.tricks = TricksStated("down", count=_n(m.group("n2")), words=r.tricks.words)
            if name == "overtricks" and r.tricks:
                n = m.group("n") or m.group("n3")
                r.tricks = TricksStated("overtricks", count=_n(n) if n else 1, words=r.tricks.words)
            return name, r
    return None


# -- verbs and their slots ----------------------------------------------------------------

def _resolve_suit(s: Suit | str | None, trump: Suit | None) -> Suit | None:
    if s == TRUMP:
        return trump
    return s if isinstance(s, Suit) else None


def _verb_clause(verb: VerbClass | None, rest: str, trump: Suit | None, *,
                 claimer: Seat | None = None) -> ClauseReading:
    """A clause read as ``verb`` with ``rest`` the words after it."""
    slots = read_slots(rest, verb)
    return _build(verb, slots, pretty(rest), trump, claimer)


def _hand_seat(ref: HandRef | None, claimer: Seat | None) -> Seat | None:
    if ref is None:
        return None
    if isinstance(ref, Seat):
        return ref
    if claimer is None:
        return None
    return claimer.partner if ref == "dummy" else claimer


def _build(verb: VerbClass | None, s: Slots, text: str, trump: Suit | None, claimer: Seat | None) -> ClauseReading:
    """Steps from a verb class and its slots (see the module docstring for the conventions)."""
    r = ClauseReading(verb=verb, leftover=list(s.leftover), ordering=s.ordering,
                      again=s.again and not (s.suits or s.cards or s.hand or s.against or s.with_cards or s.with_suit))
    suits_named = [_resolve_suit(x, trump) for x in s.suits if x != TRUMP or trump is not None]
    trump_word = TRUMP in s.suits or s.with_suit == TRUMP
    only_trump_word = s.suits == [TRUMP] and not s.cards
    hand = _hand_seat(s.hand, claimer)
    card_suits = sorted({c.suit for c in s.cards}, key=list(Suit).index)
    suit = next((x for x in suits_named if x is not None), None) or (card_suits[0] if len(card_suits) == 1 else None)

    def step(action: str, **kw: object) -> Step:
        if isinstance(kw.get("count"), int) and kw["count"] > 13:  # a card named twice is still one card
            kw["count"] = 13
        return Step(action=action, text=text or None, **kw)  # type: ignore[arg-type]

    cls = verb
    if "ruffing_finesse" in s.nouns and cls in (None, "take", "play", "finesse", "ruff", "cash"):
        cls = "ruffing_finesse"
    if cls is None:  # a clause with no verb of its own
        if "finesse" in s.nouns:
            cls = "finesse"
        elif "ruff" in s.nouns:
            cls = "ruff"
        elif "loser" in s.nouns:
            cls = "concede"
        elif s.cards and not s.suits and s.count is None:
            cls = "play"
        elif s.suits or s.cards or "winner" in s.nouns:  # "my winners": the winners are cashed
            cls = "cash"
        elif s.again:  # "and again" with no verb before it: nothing to repeat
            r.again = False
            return r
        else:
            r.understood = False
            return r
        r.verb = cls
    if "to_card" in s.nouns and s.cards and cls in ("play", "take", "cash"):
        cls = "cash"  # "a heart to the king and ace": the suit, won by the cards named
    if cls == "take":
        if "finesse" in s.nouns or "ruff" in s.nouns:
            cls = "finesse" if "finesse" in s.nouns else "ruff"
        else:
            cls = "cross" if (s.hand and not s.suits and not s.cards) else "cash"
    if cls == "play":
        if "finesse" in s.nouns:
            cls = "finesse"
        elif only_trump_word or (suit is not None and suit == trump and s.plural and not s.cards):
            cls = "draw"
        elif s.hand is not None and not s.cards and s.count in (None, 1):
            cls = "cross"
        elif not s.cards and s.plural:
            cls = "cash"
    if cls == "cash" and only_trump_word:
        cls = "draw"
    r.trump_words = trump_word and cls != "ruff"

    if cls == "draw":
        if s.suits and not only_trump_word and suit is not None and suit != trump:
            r.steps = [step("cash", suit=suit, count=s.count, cards=s.cards)]
        else:
            r.steps = [step("draw_trumps", cards=s.cards + s.with_cards)]
            r.trump_words = True
    elif cls == "cash":
        if s.cards and len(card_suits) > 1:
            r.steps = [step("cash", suit=cs, cards=[c for c in s.cards if c.suit == cs],
                            count=sum(1 for c in s.cards if c.suit == cs), hand=hand) for cs in card_suits]
        elif len([x for x in suits_named if x]) > 1 and not s.cards:
            r.steps = [step("cash", suit=x, hand=hand) for x in suits_named if x]
        else:
            count = len(s.cards) if s.cards and s.count in (None, 1) else s.count
            r.steps = [step("cash", suit=suit, count=count, cards=s.cards, hand=hand)]
        r.trump_words = r.trump_words or (trump is not None and any(x.suit == trump for x in r.steps))
    elif cls == "play":
        r.steps = [step("play", suit=suit if not s.cards else None, cards=s.cards, hand=hand,
                        count=s.count if not s.cards and s.count and s.count > 1 else None)]
        names_trump = suit == trump or any(c.suit == trump for c in s.cards)
        r.trump_words = r.trump_words or (trump is not None and names_trump)
    elif cls == "finesse":
        cards = s.cards + s.with_cards
        fsuit = suit or (s.against.suit if s.against else None)
        r.steps = [step("finesse", suit=fsuit, card=s.against, cards=cards, hand=hand)]
        r.trump_words = r.trump_words or (trump is not None and fsuit == trump)
    elif cls == "ruffing_finesse":
        rsuit = (next((x for x in suits_named if x is not None and x != trump), None)
                 or (s.against.suit if s.against else None) or (card_suits[0] if card_suits else None))
        against = s.against or (Card(rsuit, s.ranks[0]) if rsuit is not None and s.ranks else None)
        r.steps = [step("ruffing_finesse", suit=rsuit, card=against, cards=s.cards + s.with_cards, hand=hand)]
        r.trump_words = False
    elif cls in ("ruff", "crossruff"):
        if cls == "crossruff":
            r.steps = [step("ruff", hand=hand)]
        else:
            ruffed = [x for x in suits_named if x is not None and x != trump]
            if not ruffed and suit and suit != trump:
                ruffed = [suit]
            rsuit = ruffed[0] if ruffed else None
            if rsuit is None and s.cards:
                rsuit = next((c.suit for c in s.cards if c.suit != trump), None)
            r.steps = [step("ruff", suit=rsuit, count=s.count if s.count and s.count > 1 else None,
                            cards=s.cards + s.with_cards, hand=hand)]
        r.trump_words = False
    elif cls == "cross":
        entry = _resolve_suit(s.with_suit, trump) if s.with_suit else None
        cards = s.with_cards + s.cards
        esuit = entry or suit or (cards[0].suit if cards else None)
        r.steps = [step("cross", hand=hand, suit=esuit, cards=cards)]
        if s.hand is None:
            r.leftover.append("(no hand named)")
        r.trump_words = r.trump_words or (trump is not None and esuit == trump)
    elif cls in ("concede", "duck", "exit"):
        when = s.when or ("now" if cls in ("duck", "exit") else None)
        csuit = suit if suit is not None else _resolve_suit(s.with_suit, trump) if cls == "exit" else None
        n = s.count or 1
        r.steps = [step("concede", suit=csuit, when=when) for _ in range(min(n, 13))]
        r.trump_words = r.trump_words or (trump is not None and csuit == trump)
    elif cls == "discard":
        dsuit = suit if not s.cards else (card_suits[0] if len(card_suits) == 1 else None)
        r.steps = [step("discard", suit=dsuit, cards=s.cards, hand=hand,
                        count=s.count if s.count and s.count > 1 else None)]
        # "discard X on the Ys": the Ys are cashed, X goes on them
        on_suits = [x for x in (_resolve_suit(y, trump) for y in s.on_suits) if x is not None]
        on_card_suits = sorted({c.suit for c in s.on_cards}, key=list(Suit).index)
        cashed = [step("cash", suit=cs, cards=[c for c in s.on_cards if c.suit == cs],
                       count=sum(1 for c in s.on_cards if c.suit == cs)) for cs in on_card_suits]
        cashed += [step("cash", suit=x) for x in on_suits if x not in on_card_suits]
        r.steps = cashed + r.steps
        r.trump_words = r.trump_words or (trump is not None and any(x.suit == trump for x in cashed))
        r.trump_words = r.trump_words or (trump is not None and dsuit == trump)
    if s.ranks and cls in ("cash", "play", "discard", "cross", "draw"):  # an honour named without its suit
        r.leftover.extend(f"the {k} (which suit?)" for k in ("ace", "king", "queen", "jack")
                          if RANK_WORDS[k] in s.ranks)
    return r


_SPLIT_VERB = _alt("are", "is", "be", "break", "breaks", "split", "splits", "divide", "divides", "are divided",
                   "are split", "turn out", "turn out to be", "prove", "prove to be", "come", "lie")
_IF = _alt("if", "should", "in case", "provided", "provided that", "assuming")
# "if the clubs are 4-1, ...", "should the spades be 4-1 ...", and the shorthand "clubs 4-1, ..." (no verb needed)
_CONDITION_HEAD = re.compile(rf"(?:{_IF}\s+(?:the\s+|their\s+)?(?P<s>{_SUIT_WORD_RE})\s+{_SPLIT_VERB}"
                             rf"|(?:the\s+)?(?P<s2>{_SUIT_WORD_RE}))\s+"
                             rf"(?P<a>1[0-3]|\d)\s*[-/]\s*(?P<b>1[0-3]|\d)\s*,?\s*(?:then\s+)?(?P<rest>.*)")
_CONDITION_TAIL = re.compile(rf"(?P<rest>.+?)\s*,?\s+if\s+(?:the\s+|their\s+)?(?P<s>{_SUIT_WORD_RE})\s+{_SPLIT_VERB}\s+"
                             rf"(?P<a>1[0-3]|\d)\s*[-/]\s*(?P<b>1[0-3]|\d)")


_SUIT_PRONOUN = re.compile(rf"\b(?P<if>{_IF})\s+(?:(?:they|these|those)\s+(?=(?:{_SPLIT_VERB})\s+(?:1[0-3]|\d)\s*[-/])"
                           rf"|(?P<bare>)(?=(?:1[0-3]|\d)\s*[-/]\s*(?:1[0-3]|\d)\b))")
_SUIT_MENTION = re.compile(rf"\b(?:{_SUIT_WORD_RE})\b|\[[SHDC][2-9TJQKA]\]")


def _name_pronoun_suits(norm: str) -> str:
    """"If they are 4-1", "if 4-1": the pronoun (or the suit left out) is the suit last named before it (a word or a
    card), written out; left as it is when no suit was named."""
    out, last = [], 0
    for m in _SUIT_PRONOUN.finditer(norm):
        named = list(_SUIT_MENTION.finditer(norm, 0, m.start()))
        if named:
            word = named[-1].group(0)
            if word.startswith("["):
                word = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[word[1]]
            verb = "are " if m.group("bare") is not None else ""  # "if 4-1": "if clubs are 4-1"
            out.append(norm[last:m.start()] + f"{m.group('if')} {word} {verb}")
            last = m.end()
    return "".join(out) + norm[last:]


def _condition(words: str, trump: Suit | None) -> tuple[Condition, str] | None:
    """A split the step depends on ("if trumps are 3-1 ..."), and the words of the step; None if none."""
    m = _CONDITION_HEAD.fullmatch(words) or _CONDITION_TAIL.fullmatch(words)
    if m is None:
        return None
    suit = _resolve_suit(_suit_of(m.group("s") or m.group("s2")), trump)
    text = pretty(m.group(0)[: m.start("rest")] if m.re is _CONDITION_HEAD else m.group(0)[m.end("rest"):])
    cond = Condition(suit=suit, lengths=[int(m.group("a")), int(m.group("b"))], text=text.strip(" ,"))
    return cond, _strip_fillers(m.group("rest"))[0]


def read_clause(clause: str, trump: Suit | None, claimer: Seat | None,
                previous: VerbClass | None) -> tuple[str, ClauseReading]:
    """One clause: the idioms first, then its verb and slots, else the previous clause's verb.

    Returns the name of what read it (an idiom's name, ``verb cash``...) and the reading.
    """
    words, taken = _strip_fillers(clause)
    if not words or words in NO_LINE_CLAUSES or clause.strip(" ,?!") in NO_LINE_CLAUSES:
        return "no line", _with_fillers(ClauseReading(), taken)
    cond = _condition(words, trump)
    if cond is not None:  # "if trumps are 3-1 I ruff a club": the step applies only when that is seen
        condition, rest = cond
        if not rest:
            return "condition", ClauseReading(condition=condition)
        if rest in NO_LINE_CLAUSES:  # "if clubs are 3-2 there is no problem": nothing to do then
            return "condition, no line", ClauseReading()
        name, r = read_clause(rest, trump, claimer, previous)
        r.steps = [st.model_copy(update={"condition": condition}) for st in r.steps]
        r.trump_words = r.trump_words or (trump is not None and condition.suit == trump)
        return f"if: {name}", r
    rel = re.fullmatch(r"on\s+(?:which|them|these|those|that|it)\s+(?P<rest>.+)", words)
    if rel is not None and _find_verb(rel.group("rest")) is not None and \
            _find_verb(rel.group("rest"))[0] == "discard":  # "..., on which I discard X": X goes on those cards
        return read_clause(rel.group("rest"), trump, claimer, previous)
    for bad in NOT_REPRESENTABLE:
        if re.search(rf"(?<!\w){re.escape(bad.strip())}(?!\w)", words):
            return "not representable", ClauseReading(understood=False)
    hit = _idiom(words, trump, claimer)
    if hit is not None:
        name, r = hit
        return name, _with_fillers(r, taken)
    found = _find_verb(words)
    if found is not None:
        cls, before, _verb, after = found
        before_left, more = _strip_fillers(before)
        fronted = re.fullmatch(rf"(?P<pp>{_alt('on', 'onto', 'with', 'in', 'into', 'from', 'via', 'using')}\s+.+?)"
                               rf"(?:\s+{_alt('i', 'we', 'i will', 'we will', 'i shall', 'i can', 'i am going to')})?",
                               before_left)
        if fronted is not None:  # "on the diamonds I discard a club": the phrase belongs to the verb
            after, before_left = f"{after} {fronted.group('pp')}", ""
        elif re.fullmatch(rf"(?:the\s+)?(?:{_HAND_RE})", before_left):  # "dummy throws the ♠5": the hand that plays
            after, before_left = f"{after} in {before_left}", ""
        before_left = " ".join(w for w in before_left.split() if w not in NOISE_WORDS)  # "the ruffing finesse"
        r = _verb_clause(cls, after, trump, claimer=claimer)
        if before_left:
            r.leftover = before_left.split() + r.leftover
        return f"verb {cls}", _with_fillers(r, taken + more)
    inherit: VerbClass | None = previous if previous in ("cash", "ruff", "discard", "concede", "play", "finesse",
                                                         "duck", "take") else None
    r = _verb_clause(inherit, words, trump, claimer=claimer)
    return ("as before: " + inherit) if inherit else "no verb", _with_fillers(r, taken)


# ======================================================================================
# Pass 4: the whole statement
# ======================================================================================

def _as_before(new: list[Step], before: list[Step], *, any_kind: bool = False) -> list[Step]:
    """A step that names nothing of its own and says "again" ("ruff again", "cash them again", "and again") is the
    last step before it of the same kind (of any kind after "take"/"play": "take it again"), done once more (its
    count, if it says "twice", kept)."""
    if len(new) != 1:
        return new
    st = new[0]
    prev = next((b for b in reversed(before) if any_kind or b.action == st.action), None)
    if prev is None:
        return new
    return [prev.model_copy(update={"text": st.text, "count": st.count or prev.count,
                                    "condition": st.condition or prev.condition})]


def _repeat_is_empty(step: Step) -> bool:
    """Whether doing ``step`` a second time straight after the first adds nothing: drawing trumps, running a suit
    or the winners to the end (no count), or playing cards named (a card is played once)."""
    if step.action == "draw_trumps":
        return True
    if step.action == "cash":
        return bool(step.cards) or step.count is None
    return step.action == "play" and bool(step.cards)


def _one_holding(a: Step, b: Step) -> bool:
    """Whether ``b`` cashes more named cards of the suit ``a`` cashes just before it, from the same hand under the same
    condition ("the ♥K, the ♥Q": as "the ♥K and ♥Q")."""
    return (a.action == b.action == "cash" and a.suit is not None and a.suit == b.suit and bool(a.cards)
            and bool(b.cards) and a.count == len(a.cards) and b.count == len(b.cards) and a.hand == b.hand
            and a.condition == b.condition and a.when == b.when and not set(a.cards) & set(b.cards))


def _binds_discard(steps: list[Step], i: int) -> bool:
    """Whether a discard after step ``i`` is made on its winners (no cash, draw-trumps or play step between them)."""
    for st in steps[i + 1:]:
        if st.action == "discard":
            return True
        if st.action in ("cash", "draw_trumps", "play"):
            return False
    return False


def collapse_repeats(steps: list[Step], joined: dict[int, Step] | None = None) -> tuple[list[Step], int]:
    """The steps with each repeat of the step just before it dropped where the repeat adds nothing ("cash the clubs,
    then cash the clubs again"); a repeated ruff, finesse, discard, concession or counted cash is two steps and stays.
    Such a step repeated later ("cash the hearts, the clubs, the hearts, the clubs ...") is dropped too unless a discard
    is made on its winners: the stated-line follower marks a step of this kind done by the position alone (no master
    left in the suit, no trump out, the named cards gone), so the repeat is done the moment the first one is and never
    binds the claimer (engine/play/normal/line.py ``advance_line``).
    Cashes of named cards of one suit in a row are one cash of those cards in the order named. Returns the steps and
    how many were dropped or joined; ``joined`` (if given) maps the id of a step that was joined with the next to the
    joined step."""
    out: list[Step] = []
    first: list[int] = []  # the id of the step each of ``out`` was first read as
    for i, st in enumerate(steps):
        if out and _repeat_is_empty(st):
            bare = st.model_copy(update={"text": None})
            if bare == out[-1].model_copy(update={"text": None}):
                continue
            if not _binds_discard(steps, i) and any(bare == o.model_copy(update={"text": None}) for o in out):
                continue  # the same step read earlier: it is done when that one is (see the docstring)
        if out and _one_holding(out[-1], st):
            cards = out[-1].cards + st.cards
            out[-1] = out[-1].model_copy(update={"cards": cards, "count": min(len(cards), 13),
                                                 "text": f"{out[-1].text}, {st.text}"})
            if joined is not None:
                joined[first[-1]] = out[-1]
            continue
        out.append(st)
        first.append(id(st))
    return out, len(steps) - len(out)


MAX_STATEMENT_CHARS = 1000  # words past this are reported unread: a spoken claim is far shorter, and reading
# clause by clause costs about a millisecond a clause, so the cap keeps any statement well under a second


def parse_statement(text: str, *, trump: Suit | None = None, claimer: Seat | None = None) -> StatementParse:
    """Read a claim statement into a Line of Steps, with its trace and what it could not read.

    Only the first MAX_STATEMENT_CHARS characters are read; the rest is listed in ``unparsed``.
    """
    rest = text[MAX_STATEMENT_CHARS:]
    norm = _name_pronoun_suits(normalise(text[:MAX_STATEMENT_CHARS], trump))
    result = StatementParse(text=text, line=Line())
    steps: list[Step] = []
    ordered = False
    explicit: list[TricksStated] = []
    previous: VerbClass | None = None
    main: VerbClass | None = None  # the last verb of a play, not of a discard on it
    for sentence in re.split(r"[.;!?]+(?!\d)", norm):
        groups: list[list[Step]] = []  # this sentence's steps, clause by clause, in the order of play
        anchor: int | None = None  # while set, clauses go in before this group ("X after Y and Z")
        pending: Condition | None = None  # "if trumps are 3-1, ...": the condition of the next clause's steps
        for i, (conn, clause) in enumerate(split_clauses(sentence)):
            # "the ♥AK, on which I pitch the ♠5, then the ♦J": after "then" a clause with no verb of its own takes the
            # verb of the plays, not of the discard made on them
            verb_before = main if conn == "then" and previous == "discard" and main is not None else previous
            r = read_clause(clause, trump, claimer, verb_before)[1]
            phrase = pretty(clause)
            if r.condition is not None and not r.steps:
                pending = r.condition
                result.pieces.append((phrase, None))
                result.mentions_trumps = result.mentions_trumps or (trump is not None and pending.suit == trump)
                continue
            if pending is not None:
                if r.steps:
                    r.steps = [st if st.condition else st.model_copy(update={"condition": pending}) for st in r.steps]
                    conn = "plain" if conn == "then" else conn  # "if ..., then X": no order of play
                pending = None
            if not r.understood:
                result.pieces.append((phrase, None))
                result.unparsed.append(phrase)
                continue
            if r.again:
                r.steps = _as_before(r.steps, steps + [st for g in groups for st in g],
                                     any_kind=r.verb in ("take", "play"))
            if r.leftover:
                result.unparsed.append(f"{' '.join(r.leftover)} (in {phrase!r})")
            if r.tricks is not None:
                explicit.append(r.tricks)
            result.mentions_trumps = result.mentions_trumps or r.trump_words
            if r.steps:
                result.pieces.extend((phrase, st) for st in r.steps)
            else:
                result.pieces.append((phrase, None))
            if r.verb is not None:
                previous = r.verb
                main = r.verb if r.verb != "discard" else main
            if not r.steps:
                continue
            # a crossing with a named card after an earlier step ("the ♣Q, a club to the ♣A and the ♣K") says where
            # the lead is when it comes, so the plays are in the order named: a list of plays, not of tricks
            crossing = (bool(groups) or bool(steps)) and any(
                st.action == "cash" and st.cards and re.search(r"\bto\b", st.text) for st in r.steps)
            ordered = ordered or conn in ("then", "after", "before") or r.ordering or crossing
            group = list(r.steps)
            if conn == "after" and i > 0 and groups:  # "X after Y": Y first
                anchor = len(groups) - 1
            elif conn == "before" and not groups:  # "before X, Y": Y first
                groups.append(group)
                anchor = 0
                continue
            elif conn == "then":
                anchor = None
            if anchor is not None:
                groups.insert(anchor, group)
                anchor += 1
            else:
                groups.append(group)
        for g in groups:
            steps.extend(g)
    joined: dict[int, Step] = {}
    steps, result.collapsed = collapse_repeats(steps, joined)
    result.pieces = [(phrase, joined.get(id(st), st) if st is not None else None) for phrase, st in result.pieces]
    result.line = Line(steps=steps, ordered=ordered and len(steps) > 1)
    # a list of tricks per suit with no word of order is a count, not an order
    result.count_only = bool(steps) and not result.line.ordered and all(
        s.action == "cash" and s.count is not None and not s.cards for s in steps)
    concessions = sum(1 for s in steps if s.action == "concede")
    stated = explicit[0] if explicit else None
    if stated is not None and stated.kind == "all" and concessions:
        stated = TricksStated("all_but", lose=concessions, words=stated.words)
    elif stated is None and concessions:
        stated = TricksStated("all_but", lose=concessions, words="(the concessions stated)", implied=True)
    result.tricks_stated = stated
    if any(s.action == "draw_trumps" for s in steps):
        result.mentions_trumps = True
    if trump is not None and any(s.suit == trump and s.action != "ruff" for s in steps):
        result.mentions_trumps = True
    if rest.strip():
        result.unparsed.append(f"(the {len(text) - MAX_STATEMENT_CHARS} characters after the first "
                               f"{MAX_STATEMENT_CHARS} were not read)")
    return result
