"""The table of licences: every card the normal-play model allows besides best play, once.

Each row is one licence (or one restriction the model applies by switch): its name, what it means in a Director's
words, its source, the clause it applies, the classes of player it covers, and its bit in our solver's flags (None:
our solver does not read it). Everything else that names a licence comes from here: the model's switches
(engine/play/model.py ``GUIDELINES``, ``DEFAULT_SWITCHES``), the guideline rules and their sources
(rules/normal_play.py), the meaning and source each witness choice carries (facts ``Choice``), our solver's
constants (engine/play/_licences.h, written by ``python -m claimlaw.engine.play.normal.generate --header``) and the
table in docs/design.md (written by ``--doc``); tests/play/test_licences.py checks the header and the doc against
this table.

What each licence allows is code in engine/play/normal/licensing.py reading the claimer's view: on lead, one function
per licence (``LEAD_LICENCES``); following and void, ``following`` and ``void``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# the classes of player the footnote to Laws 70-71 speaks of (facts/case.py ``PlayerClass``)
# the bits of the switches that act only on a card the claimer is unaware of (core.py ``UNAWARE_ONLY``) that our solver
# reads: above the licences' bits (below 8) and the fields ``solver_flags`` packs from ``SEEN_SHIFT`` on
UNAWARE_SHIFT = 20
CLASSES: tuple[str, ...] = ("beginner", "club", "expert", "world_class")


@dataclass(frozen=True)
class Licence:
    """One row of the table."""

    name: str
    meaning: str                 # in a Director's words: the witness's label
    source: str                  # where Directors find it ("" for the model's own follow/discard rules)
    clause: str                  # the clause it applies
    switch: bool = True          # a model switch a rule or pack may turn on or off (False: always in force)
    default: bool = False        # on in ``NormalPlayModel.default``
    rule: str | None = None      # a general guideline rule asserts it, giving this reason (rules/normal_play.py)
    classes: tuple[str, ...] = CLASSES
    bit: int | None = None       # its bit in our solver's flags (engine/play/_licences.h)
    # our solver answers with it in force though it reads no bit: a switch that changes nothing where our solver
    # answers (engine/play/native.py: a claimer stating no line, his partner unrestricted; ``unaware_trump`` names
    # what the cards he is unaware of do, and our solver reads those cards themselves), or
    # a rule always in force that our solver models. A switch with neither a bit nor this leaves every question it
    # is on in to the Python search: a new one needs no C to be right
    solver_neutral: bool = False

    def text(self) -> str:
        """The witness's label: the meaning and, where there is one, the source."""
        return f"{self.meaning} ({self.source})" if self.source else self.meaning


LICENCES: tuple[Licence, ...] = (
    Licence("any_suit_order", "cashes his suits in any order: the worst one is ruled",
            "EBU claims notes; ACBL LC 2019 #1", "70.footnote", default=True, bit=0,
            rule="A claimer who thinks all his cards are good may cash his suits in any order: the worst one is "
                 "ruled."),
    Licence("continue_suit", "having started a suit, continues it until exhausted",
            "EBU claims notes; EBU TD forum 2023", "70.footnote", default=True, bit=1,
            rule="Having started to cash a suit he carries on with it until it is exhausted (no tortuous "
                 "switching)."),
    Licence("top_down", "cashes a suit from the top", "White Book 8.70.5; ACBL LC 2019 #1; 70E2 example",
            "70.footnote", default=True, bit=2,
            rule="Within a suit he plays from the top; several small equal cards in any order."),
    Licence("equal_small_any", "plays several small cards he sees as equal in any order", "White Book 8.70.5",
            "70.footnote", default=True, bit=3, rule="Cards he sees as equal may be played in any order."),
    Licence("ruff_low", "ruffs as low as possible", "ACBL LC 2019 #5; EBU claims notes", "70.footnote",
            default=True, bit=4,
            rule="When ruffing he ruffs as low as possible, then plays small trumps in any order."),
    Licence("finesse_or_drop", "takes the losing option of an unstated finesse or drop", "Law 70E1", "70E1",
            default=True, bit=5),
    # at once only while a conceded trick is still to lose, and only a loser whose trick, as he sees it, is one he
    # concedes: the opponents winning it take no more than he still concedes (licensing.py ``taken_after``; EBU
    # claims notes: he plays to lose *the* conceded trick; VixTD, BBO forums 2012: the trick he believes he must
    # lose; own review 2026-11-28, at-risk rows 2, 5, 6, 10, 14, 16, 19, 23; the third review, at-risk row 12: their
    # cards may lie over his, so they win a round with their cheapest card that beats his; sound row 6: at the end
    # his winners go first, his last trump among them where partner holds none)
    Licence("concede_now_or_end", "loses a conceded trick at once or at the end", "EBU claims notes", "70.footnote",
            default=True, bit=6,
            rule="A trick he concedes without saying when is lost at once or at the end, whichever is worse for "
                 "him; at once only while it is still to lose, and only with a loser whose trick, as he sees it, "
                 "gives the opponents no more than he concedes, however their cards lie; at the end after his "
                 "winners, his last trump too when none is out and partner holds none."),
    # a restriction, like continue_suit: a claimer aware (as he sees it) of a trump an opponent may hold, whose side's
    # trumps in his view draw every one of them on any layout, lets none of them score: on lead he leads trumps, or
    # side-suit cards none of them can in fact ruff, or whose ruff partner overruffs at no cost to the draw
    # (licensing.py ``draws_trumps_first``, ``ruff_now``, ``ruff_safe``); ruffing, he keeps the trumps that draw them
    # (``draw_spent``). Best play outside those is dropped too. A lead they cannot ruff stays a careless order (White
    # Book 8.70.4 makes failing to draw a trump careless only for a claimer unaware of it; EBU TD notes, the 4♣ and 7♠
    # claims; third review 2026-11-28: REJECT of lines by a claimer who had just drawn a round, 43575 board 7 and 42849
    # board 3 closed; shared reviewed verdict row 9, ACCEPT: a blocked suit with a trump out, 42475 board 27 closed)
    Licence("draw_trumps_first", "aware of a trump out that his trumps draw on any layout, does not let it score",
            "White Book 8.70.4; EBU TD notes on claims (the 4♣ and 7♠ claims)", "70C", default=True, bit=7,
            rule="A claimer who knows of a trump still out, and whose trumps draw it however the trumps lie, does not "
                 "let it score: he leads no side card it can ruff before drawing it, and ruffs with no trump he needs "
                 "to draw it."),
    Licence("unaware_trump", "plays as if the outstanding trump were gone", "Law 70C; White Book 8.70.4", "70C",
            solver_neutral=True),
    Licence("unaware_winner", "plays as if an outstanding winner were gone", "White Book 8.70.6", "70C",
            bit=UNAWARE_SHIFT,
            rule="A claimer who has forgotten an outstanding winner may discard or lead as if it were gone."),
    # always in force: the claimer's view (view.py) holds every card played and every show-out, so no rule sets it
    Licence("sees_played_cards", "sees the cards as they are played", "WBFLC 2001-10-30 #3 (as reported); EBU TD forum",
            "70.footnote", switch=False, solver_neutral=True),
    Licence("blocks_suit", "follows low under partner's winner, blocking a suit he should unblock",
            "EBU Club TD course, claims exercise (EBU TD forum 2022, 'Careless or irrational?')", "70.footnote",
            classes=("beginner",),
            rule="A beginner may carelessly follow low under partner's last card of a suit and block it, where a "
                 "club player or better overtakes."),
    Licence("safety_check_high_trump", "checks with a high trump first, drawing the trump he forgot",
            "ACBL Tech Files 1992 C (the 2019 guidelines, #3, say the opposite)", "70C", bit=UNAWARE_SHIFT + 1),
    Licence("partner_restricted", "a defender's partner also plays the least successful normal cards", "Law 70D2",
            "70D2", solver_neutral=True),
    # the model's own rules for following and discarding, and the stated line: always in force
    Licence("follow_low", "follows low or with the cheapest sure winner", "White Book 8.70.5", "70.footnote",
            switch=False, solver_neutral=True),
    Licence("discard", "discards what he sees as a loser", "", "70.footnote", switch=False, solver_neutral=True),
    Licence("line", "follows his stated line", "70D1", "70D1", switch=False),
    # the cards played after the claim, taken as a line he may follow (70D3 2007, 68D2(b) 2017): core.py
    Licence("played_after_claim", "plays as he played after the claim (evidence of his probable play)",
            "Law 70D3 (2007); Law 68D2(b) (2017)", "70D3", switch=False),
)

BY_NAME: dict[str, Licence] = {lic.name: lic for lic in LICENCES}

# our solver's flags beyond the licences' bits (engine/play/_endings.c ``wrules``): the hands the claimer sees (a bit
# per seat), the tricks the claim concedes and those the opponents have won since the claim (a position deep in the
# search: the concession licence ends once they are all lost)
SEEN_SHIFT = 8
CONCEDED_SHIFT = 12
LOST_SHIFT = 16


def covers(name: str, class_of_player: str) -> bool:
    """Licence ``name`` is normal for ``class_of_player`` (a name not in the table, or a class not named, covers)."""
    lic = BY_NAME.get(name)
    return lic is None or class_of_player not in CLASSES or class_of_player in lic.classes


def licence_text(name: str) -> str:
    """Licence ``name`` in a Director's words with its source, as a witness choice's ``why`` reads (the name itself
    for one not in the table)."""
    lic = BY_NAME.get(name)
    return name if lic is None else lic.text()


def solver_reads(names: Iterable[str]) -> bool:
    """Our solver may answer with every licence in ``names`` in force: each has its bit, or changes nothing there."""
    return all(BY_NAME[n].bit is not None or BY_NAME[n].solver_neutral for n in names)


def solver_flags(in_force: Iterable[str], seen: int = 0, conceded: int = 0, lost: int = 0) -> int:
    """Our solver's flags (engine/play/_endings.c ``wrules``): the bit of each licence in force that it reads, the
    hands the claimer sees (a bit per seat in SEATS order; 0: the side's two), the tricks the claim concedes and
    those the opponents have won since the claim (``Node.lost``)."""
    out = 0
    for name in in_force:
        bit = BY_NAME[name].bit
        if bit is not None:
            out |= 1 << bit
    return out | seen << SEEN_SHIFT | min(conceded, 15) << CONCEDED_SHIFT | min(lost, 15) << LOST_SHIFT
