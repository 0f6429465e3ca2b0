"""What a ruling hinges on: the findings the rules read that would change the ruling, and the question a Director
asks to settle each.

For each finding the rules read and the case bears on (awareness of trumps, a card the claimer may have forgotten,
whether words the claimer added came before the first objection, the class of player, when an objection came, the
correction period, whether a defender's partner objected at once, whether a 1997/2007 line was irrational not to
take, whether showing cards was meant as a claim), the case is ruled once under each answer the rules tell apart,
built with ``case_from_dict`` and ruled on the same play core, so its caches serve every variant. A finding is a
hinge when two of its answers give different rulings (outcome or tricks). A finding the case gives is listed too
(``given``): the ruling rests on it.

    >>> from engine.hinges import hinges
    >>> for h in hinges(case, base_ruling).hinges: print(h.text())
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from claimlaw.facts import CORRECTION_MINUTES, Case, Ruling, Seat, case_from_dict
from claimlaw.facts.cards import SEATS, Card

# the answers a Director can record for each finding, as the case file spells them
_LATE = ("after_next_call", "after_round_end")
# each moment as the question offers it (to the objector) and as an answer reads (of him)
_MOMENTS = {"at_once": ("at once", "at once"),
            "before_next_call": ("before your side's next call on a later board",
                                 "before his side's next call on a later board"),
            "after_next_call": ("after that call but before the round ended",
                                "after that call, before the round ended"),
            "after_round_end": ("after the round ended", "after the round ended")}
_JUDGE = "the Director's own judgement"  # ``ask`` for a finding no player can answer: the Director judges it
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
            11: "eleven"}
# the 70C2 guidelines under which the play shows a claimer knew a trump was out (rules/law70.py)
_AWARE_DEFAULTS = ("70C2.just_drew_a_round", "70C2.first_chance_safe_draw", "70C2.sees_every_trump",
                   "70C2.concedes_the_trump_tricks")
_CLASSES = ("beginner", "club", "expert", "world_class")
_CLASS_WORDS = {"beginner": "a beginner", "club": "a club player", "expert": "an expert", "world_class": "world class"}
_OUTCOME_WORDS = {
    "not_a_claim": "not a claim, play proceeds", "no_concession": "no concession, play continues",
    "play_continues": "play continues", "agreed": "the agreement stands",
    "agreement_withdrawn": "the agreement is withdrawn", "play_on_score_stands": "the score at the table stands",
    "director_rules": "the Director rules", "claim_allowed": "claim allowed", "claim_adjusted": "claim adjusted",
    "concession_cancelled": "concession cancelled", "concession_stands": "the concession stands",
    "claim_not_established": "claim not established", "count_unproven": "count unproven",
    "needs_play_core": "needs the play core", "needs_facts": "needs facts",
}


class HingeAnswer(BaseModel):
    """One answer to a hinge's question and the ruling under it."""

    model_config = ConfigDict(extra="forbid")

    answer: str                      # in the Director's words: "he knew", "he did not know"
    finding: dict[str, Any]          # the case keys it sets, e.g. {"findings.aware_of_trumps": true}
    outcome: str
    tricks: dict[str, int] | None = None
    law: str = ""                    # the clause that concluded the ruling under this answer
    ruling: str = ""                 # "10 tricks, claim allowed (70)"
    proven: bool = True


class Hinge(BaseModel):
    """A finding the ruling turns on: whom to ask, what, the ruling under each answer and which stands without one."""

    model_config = ConfigDict(extra="forbid")

    field: str                       # the case key: "findings.aware_of_trumps"
    ask: str                         # whom the Director asks ("South", "the tournament organiser", or _JUDGE)
    question: str                    # "when you claimed, did you know the ♥5 was still out?"
    given: bool = False              # the case records this finding: the ruling rests on it
    current: str = ""                # the answer the ruling was made under (given, or the rules' default)
    without_finding: str = ""        # which answer stands when the Director cannot find, and why
    answers: list[HingeAnswer] = Field(default_factory=list)
    spread: int = 0                  # how many tricks the answers move (for ordering)

    def asked(self) -> str:
        """The question with whom it is put to: "Ask South: ...", or "For the Director to judge: ..."."""
        whom = "For the Director to judge: " if self.ask == _JUDGE else f"Ask {self.ask}: "
        return f"{whom}{self.question}"

    def text(self) -> str:
        """The question and rulings in one paragraph, as the CLI prints it."""
        parts = [self.asked()]
        for a in self.answers:
            parts.append(f"{a.answer[:1].upper()}{a.answer[1:]}: {a.ruling}.")
        if self.given:
            parts.append(f"(The case records: {self.current}.)")
        elif self.without_finding:
            parts.append(f"Without a finding: {self.without_finding}.")
        return " ".join(parts)


@dataclass
class _Option:
    answer: str
    patch: dict[str, Any]  # dotted key -> value


@dataclass
class _Candidate:
    field: str
    ask: str
    question: str
    options: list[_Option]
    current: str           # label of the option the case as given stands for
    given: bool
    doubt: str             # which answer stands without a finding, and why ("" when the rules give no default)


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    part, _, rest = dotted.partition(".")
    if not rest:
        if value is None:
            data.pop(part, None)
        else:
            data[part] = value
        return
    inner = dict(data.get(part) or {})
    _set(inner, rest, value)
    data[part] = inner


def _steps(ruling: Ruling) -> list[str]:
    return [s.rule for s in [*ruling.trace, *ruling.considered]]


def _fired(ruling: Ruling, *prefixes: str) -> bool:
    return any(r.startswith(prefixes) for r in _steps(ruling))


def _opp_cards(case: Case, claimer: Seat) -> list[Card]:
    pos = case.position()
    if pos is None:
        return []
    return [c for s in SEATS if s.side != claimer.side for c in pos.hands[s]]


def candidates(case: Case, base: Ruling) -> list[_Candidate]:
    """The findings the rules read that bear on this case, each with the answers the rules tell apart."""
    c, f, t, r = case.claim, case.findings, case.timing, case.responses
    claimer = c.by
    name = claimer.long_name
    out: list[_Candidate] = []
    set_f = f.model_fields_set
    trump = case.board.trump if case.board else None
    opps = _opp_cards(case, claimer)
    adjudicated = _fired(base, "70", "71.footnote", "guideline.")
    # 68A: faced cards without a word may not have been meant as a claim
    if "demonstrably_not_claim" in set_f or (c.shows_cards and not c.statement.strip() and c.tricks is None):
        given = f.demonstrably_not_claim is not None
        cur = "he did not mean to claim" if f.demonstrably_not_claim else "he meant to claim"
        out.append(_Candidate(
            "findings.demonstrably_not_claim", name, "when you faced your cards, did you mean to claim?",
            [_Option("he meant to claim", {"findings.demonstrably_not_claim": False}),
             _Option("he demonstrably did not", {"findings.demonstrably_not_claim": True})],
            cur, given, "a claim (68A: showing cards is a claim unless he demonstrably did not mean one)"))
    # 68B2: a defender's concession that partner objects to at once
    if case.role_of(claimer) == "defender" and c.says == "concede" and not (c.current_trick_only
                                                                           and case.edition != "1997"):
        given = "partner_objected_immediately" in r.model_fields_set
        cur = "he objected at once" if r.partner_objected_immediately else "he did not object at once"
        out.append(_Candidate(
            "responses.partner_objected_immediately", claimer.partner.long_name,
            f"did you object to {name}'s concession at once, before anything else happened?",
            [_Option("he objected at once", {"responses.partner_objected_immediately": True}),
             _Option("he did not", {"responses.partner_objected_immediately": False})],
            cur, given, "not at once (68B2 needs an immediate objection)"))
    # 70C2: awareness of an outstanding trump, when a claim without a statement about trumps is adjudicated
    opp_trumps = sorted((x for x in opps if trump is not None and x.suit == trump), reverse=True)
    if c.says == "claim" and opp_trumps and (f.aware_of_trumps is not None or _fired(base, "70C")):
        n = len(opp_trumps)
        out_text = (f"the {_spoken(opp_trumps[0])} was" if n == 1
                    else f"{_NUMBERS.get(n, str(n))} trumps ({_and([_spoken(x) for x in opp_trumps])}) were")
        given = f.aware_of_trumps is not None
        default_aware = _fired(base, *_AWARE_DEFAULTS)
        cur = ("he knew" if f.aware_of_trumps else "he did not know") if given else (
            "he knew" if default_aware else "he did not know")
        doubt = ("he knew (the play, the table or the claim's count shows it: 70C2's guideline)" if default_aware else
                 "he did not know (70C2: unawareness at all likely; 70A: doubt goes against the claimer)")
        out.append(_Candidate(
            "findings.aware_of_trumps", name, f"when you claimed, did you know {out_text} still out?",
            [_Option("he knew", {"findings.aware_of_trumps": True}),
             _Option("he did not know, or you doubt it", {"findings.aware_of_trumps": False})],
            cur, given, doubt))
    # a winner the claimer may have forgotten (White Book 8.70.6): the opponents' top card of each plain suit
    if c.says == "claim" and adjudicated:
        if f.unaware_of:
            shown = _and([f"the {_spoken(x)}" for x in f.unaware_of])
            were = "was" if len(f.unaware_of) == 1 else "were"
            out.append(_Candidate(
                "findings.unaware_of", name, f"when you claimed, did you know {shown} {were} still out?",
                [_Option("he knew", {"findings.unaware_of": []}),
                 _Option("he had forgotten it", {"findings.unaware_of": [str(x) for x in f.unaware_of]})],
                "he had forgotten it", True, ""))
        else:
            tops: dict[Any, Card] = {}
            for x in opps:
                if x.suit != trump and (x.suit not in tops or x.rank > tops[x.suit].rank):
                    tops[x.suit] = x
            for x in sorted(tops.values(), key=lambda k: (k.suit.value, -k.rank)):
                out.append(_Candidate(
                    "findings.unaware_of", name, f"when you claimed, did you know the {_spoken(x)} was still out?",
                    [_Option("he knew", {"findings.unaware_of": []}),
                     _Option("he had forgotten it", {"findings.unaware_of": [str(x)]})],
                    "he knew", False, "he knew (a forgotten card is a finding, not a default)"))
    # 70D1: words the claimer added later are part of his line only when said before the first objection
    if c.says == "claim" and c.added_statement.strip() and adjudicated:
        words = " ".join(c.added_statement.split())
        words = words if len(words) <= 80 else words[:79] + "…"
        opponents = " and ".join(s.long_name for s in SEATS if s.side != claimer.side)
        given = c.added_before_objection is not None
        cur = ("before they objected" if c.added_before_objection else "after they objected") if given else ""
        out.append(_Candidate(
            "claim.added_before_objection", opponents,
            f"did {name} say '{words}' before or after you objected?",
            [_Option("before they objected", {"claim.added_before_objection": True}),
             _Option("after they objected", {"claim.added_before_objection": False})],
            cur, given, "after they objected (70A: doubt goes against the claimer, so the added words are not part "
                        "of his line, 70D1)"))
    # 70E1 in 1997/2007: a line it would be irrational not to take
    if c.says == "claim" and case.edition in ("1997", "2007") and (
            f.irrational_not_to is not None or _fired(base, "70E1")):
        given = f.irrational_not_to is not None
        out.append(_Candidate(
            "findings.irrational_not_to", _JUDGE,
            f"would it be irrational for {name} not to take the winning line?",
            [_Option("irrational not to", {"findings.irrational_not_to": True}),
             _Option("not irrational", {"findings.irrational_not_to": False})],
            "irrational not to" if f.irrational_not_to else "not irrational", given,
            "not irrational (70E1: the unstated line is not credited without the finding)"))
    # the footnote: careless or inferior play for the class of player
    if adjudicated:
        given = f.class_of_player is not None
        out.append(_Candidate(
            "findings.class_of_player", _JUDGE,
            f"what class of player is {name}: a beginner, a club player, an expert or world class?",
            [_Option(_CLASS_WORDS[k], {"findings.class_of_player": k}) for k in _CLASSES],
            _CLASS_WORDS[f.class_of_player or "club"], given,
            "a club player (the rules' default class)"))
    # 69/71 and 79C: when a later objection came, and the correction period
    if t.objection != "none":
        by = t.objection_by.long_name if t.objection_by else "the objector"
        out.append(_Candidate(
            "timing.objection", by, "when did you object: " + _either([q for q, _ in _MOMENTS.values()]) + "?",
            [_Option(a, {"timing.objection": k}) for k, (_, a) in _MOMENTS.items()],
            f"he objected {_MOMENTS[t.objection][1]}", True, ""))
        if t.objection in _LATE:
            within = f"did {by}'s objection come within the correction period (79C)?"
            if t.within_correction_period is None and t.minutes_after_scores_posted is None:
                out.append(_Candidate(
                    "timing.within_correction_period", _JUDGE, within,
                    [_Option("within it", {"timing.within_correction_period": True}),
                     _Option("after it", {"timing.within_correction_period": False})],
                    "within it", False, "within it (79C: taken as outside only when found so)"))
            elif t.within_correction_period is not None:
                out.append(_Candidate(
                    "timing.within_correction_period", _JUDGE, within,
                    [_Option("within it", {"timing.within_correction_period": True}),
                     _Option("after it", {"timing.within_correction_period": False})],
                    "within it" if t.within_correction_period else "after it", True, ""))
            else:
                m = t.minutes_after_scores_posted or 0.0
                period = t.correction_period_minutes
                ran = f"{m:g} minutes after the scores were posted"
                out.append(_Candidate(
                    "timing.correction_period_minutes", "the tournament organiser",
                    f"how long is the correction period? The objection came {ran}.",
                    [_Option(f"{max(m, 1.0):g} minutes or longer", {"timing.correction_period_minutes": max(m, 1.0)}),
                     *([_Option(f"shorter than {m:g} minutes", {"timing.correction_period_minutes": m / 2})]
                       if m > 0 else [])],
                    "", period is not None, f"{{current}} (the period in force: 79C's {CORRECTION_MINUTES:g} "
                    "minutes unless the organiser's regulation sets another)"))
    return [k for k in out if k.options]


def _either(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + (", or " if len(items) > 2 else " or ") + items[-1]


def _spoken(card: Card) -> str:
    """A card as a Director says it: the suit's symbol and the rank, ten as 10 (♣10, ♥5)."""
    return card.pretty.replace("T", "10")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _law(ruling: Ruling) -> str:
    """The clause the ruling turns on: the step that concluded it, or, where 70A's resolution adjusted the claim,
    the last 70C/70D/70E clause that bore on the count ("70C")."""
    law = next((s.clause for s in reversed(ruling.trace) if "outcome" in s.concluded), "")
    if law == "70A" and ruling.outcome == "claim_adjusted":
        law = next((c[:3] for c in reversed(ruling.laws) if c[:3] in ("70C", "70D", "70E")), law)
    return law


def _ruling_words(ruling: Ruling, case: Case) -> tuple[str, str]:
    law = _law(ruling)
    words = _OUTCOME_WORDS.get(ruling.outcome, ruling.outcome)
    side = case.claim.by.side.value
    if ruling.tricks and case.board and case.board.declarer:
        dside = case.board.declarer.side.value
        n = ruling.tricks.get(dside)
        who = "" if dside == side else (" to declarer" if case.role_of(case.claim.by) == "defender" else "")
        words = f"{n} trick{'s' if n != 1 else ''}{who}, {words}"
    elif ruling.tricks:
        words = f"{ruling.tricks.get(side)} tricks to {side}, {words}"
    return (f"{words} ({law})" if law else words), law


class HingeReport(BaseModel):
    """The hinges of one ruling, the candidate findings left unchecked or unsettled, and the time it took."""

    model_config = ConfigDict(extra="forbid")

    hinges: list[Hinge] = Field(default_factory=list)
    unchecked: list[str] = Field(default_factory=list)  # candidate findings not tried within the time allowed
    unsettled: list[str] = Field(default_factory=list)  # tried, but a variant's count was not proven
    seconds: float = 0.0


# the findings whose answers our solver cannot rule on (engine/play/normal/licences.py: no bit, not solver-neutral)
PYTHON_SEARCH = ("findings.unaware_of", "findings.class_of_player")
SECONDS = 10.0  # ``claimlaw rule`` and the page: no further candidate finding is tried after this long
STOP_SECONDS = 30.0  # and every search stops after this long (the Director waits at the table)


def hinges(case: Case, base: Ruling, *, rule_fn: Callable[[Case], Ruling] | None = None,
           seconds: float | None = None, limit: int = 12, core: Any = None,
           stop_after: float | None = None) -> HingeReport:
    """The findings whose answer changes the ruling of ``case`` (ruled ``base`` as given), most telling first.

    ``rule_fn`` rules a variant (default: ``engine.api.rule`` under the base ruling's edition and packs, on the
    process's play core, whose caches every variant shares, with one book of trick answers for all of them). At
    most ``limit`` candidate findings are tried, and none is started after ``seconds``; those are listed as
    unchecked. A finding whose variants' counts are not all proven is listed as unsettled unless its proven answers
    already differ.

    ``stop_after``: seconds after which every search of ``core`` (the play core ``rule_fn`` rules with; the
    process's own by default) stops with what it found, marked unproven, so a variant whose count needs a long search
    (a forgotten card takes it to the Python search) leaves its finding unsettled instead of holding the Director for
    minutes; the core is resumed before returning, unless something else had stopped it."""
    t0 = time.perf_counter()
    if core is None and rule_fn is None and stop_after is not None:
        from claimlaw.engine.api import play_core

        core = play_core()
    timer: threading.Timer | None = None
    fired: list[bool] = []
    if core is not None and stop_after is not None and not core.stopped:
        def stop() -> None:
            fired.append(True)
            core.stop()

        timer = threading.Timer(stop_after, stop)
        timer.daemon = True
        timer.start()
    try:
        return _hinges(case, base, rule_fn, seconds, limit, t0)
    finally:
        if timer is not None:
            timer.cancel()
            if fired:
                core.resume()


def _hinges(case: Case, base: Ruling, rule_fn: Callable[[Case], Ruling] | None, seconds: float | None, limit: int,
            t0: float) -> HingeReport:
    if rule_fn is None:
        from claimlaw.engine.api import rule

        book: dict[Any, Any] = {}  # the trick answers the variants share (engine/questions.py)

        def rule_fn(v: Case) -> Ruling:
            return rule(v, edition=base.edition, packs=list(base.packs), answers=book)

    data = case.model_dump(mode="json", exclude_unset=True)
    data.pop("expect", None)
    data["edition"] = base.edition
    report = HingeReport()
    found: list[Hinge] = []
    key = _key(base)
    # a forgotten card or a beginner's licence takes the count to the Python search, the slowest: those candidates
    # are tried last, so the findings our solver rules on at once are all checked first
    for i, cand in enumerate(sorted(candidates(case, base), key=lambda c: c.field in PYTHON_SEARCH)):
        label = f"{cand.field} ({cand.question})"
        if i >= limit or (seconds is not None and time.perf_counter() - t0 > seconds):
            report.unchecked.append(label)
            continue
        results: list[HingeAnswer] = []
        for opt in cand.options:
            v = {k: (dict(x) if isinstance(x, dict) else x) for k, x in data.items()}
            for dotted, value in opt.patch.items():
                _set(v, dotted, value)
            try:
                variant = case_from_dict(v)
            except ValueError:  # an answer this case cannot take
                continue
            same = all(_get(data, k) == val for k, val in opt.patch.items())
            r = base if same else rule_fn(variant)
            words, law = _ruling_words(r, case)
            results.append(HingeAnswer(answer=opt.answer, finding=opt.patch, outcome=r.outcome, tricks=r.tricks,
                                       law=law, ruling=words, proven=r.proven))
        proven = [a for a in results if a.proven]
        distinct = {(a.outcome, tuple(sorted((a.tricks or {}).items()))) for a in proven}
        if len(distinct) < 2:
            if len(proven) < len(results):
                report.unsettled.append(label)
            continue
        counts = [a.tricks.get(case.claimer_side.value, 0) for a in proven if a.tricks]
        spread = (max(counts) - min(counts)) if counts else 0
        # answers that give the same ruling read as one: "He objected at once, or ...: X"
        merged: list[HingeAnswer] = []
        for a in results:
            twin = next((m for m in merged if m.outcome == a.outcome and m.tricks == a.tricks), None)
            if twin is None:
                merged.append(a)
            else:
                twin.answer = f"{twin.answer}, or {a.answer}"
        current = cand.current or next((a.answer for a in results if (a.outcome, a.tricks) == key), "")
        found.append(Hinge(field=cand.field, ask=cand.ask, question=cand.question, given=cand.given,
                           current=current, without_finding=cand.doubt.replace("{current}", current),
                           answers=merged, spread=spread))
    order = {id(h): i for i, h in enumerate(found)}
    # open questions before recorded findings; the most tricks at stake first; 68A's "not meant as a claim" last
    found.sort(key=lambda h: (h.given, h.field == "findings.demonstrably_not_claim", -h.spread, order[id(h)]))
    report.hinges = found
    report.seconds = round(time.perf_counter() - t0, 3)
    return report


def _key(r: Ruling) -> tuple[str, dict[str, int] | None]:
    return (r.outcome, r.tricks)


def _get(data: dict[str, Any], dotted: str) -> Any:
    cur: Any = data
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return _DEFAULTS.get(dotted)
        cur = cur[part]
    return cur


# what an absent key means, so an answer equal to the case as given reuses the base ruling
_DEFAULTS: dict[str, Any] = {"findings.unaware_of": [], "responses.partner_objected_immediately": False}
