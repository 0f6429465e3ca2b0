"""Law 70 — contested claim or concession: the Director's adjudication.

The clause rules decide *which* question to ask: each one that applies sets a switch of the
normal-play model (a ``switch`` fact naming its clause). ``70A.resolve`` fires last, asks the
play core for the worst outcome over the claimer's normal lines under every switch set, and
gives the claimer's side that count (never a weighted figure).
"""

from __future__ import annotations

from typing import Any

from claimlaw.facts import Card, Side
from claimlaw.rules.common import ALL, E1997, E2007, E2017, SIDE_NAMES, SINCE_2007, Ctx, Facts, tricks_text
from claimlaw.rules.counting import RERUN, board_totals, model_from_switches, need_count, proven, side_count
from claimlaw.rules.params import ORDERS_70E2
from claimlaw.rules.rulebook import Rule, fact, gt, ne, no

RESOLVE_PRIORITY = 50  # after every clause rule has set its switch

# ---------------------------------------------------------------------------------------
# Law 70A — general objective
# ---------------------------------------------------------------------------------------


def _objective(ctx: Ctx, m: Facts) -> None:
    c, claim = m["contested"], m["claim"]
    ctx.assert_fact("adjudicate", side=c["side"], claimed=c["claimed"], says=claim["says"], by=claim["by"])
    ctx.record(claimer_side=c["side"], claimed_of_remaining=c["claimed"])


OBJECTIVE = Rule(
    name="70A.objective",
    clause="70A",
    editions=SINCE_2007,
    reason="The Director rules as equitably as possible, but every doubtful point about a claim goes against "
           "the claimer.",
    when=(fact("contested", alias="contested"), fact("claim", alias="claim")),
    then=_objective,
)

OBJECTIVE_1997 = Rule(
    name="70A.objective.1997",
    clause="70A",
    editions=(E1997,),
    reason="1997: in a contested claim, doubtful points are resolved against the claimer.",
    when=(fact("contested", alias="contested"), fact("claim", alias="claim")),
    then=_objective,
)

# ---------------------------------------------------------------------------------------
# Law 70B — clarification statement repeated
# ---------------------------------------------------------------------------------------


def _steps(order: list[str]) -> Any:
    def act(ctx: Ctx, m: Facts) -> None:
        claim, table = m["claim"], m["table"]
        ctx.record(statement=claim["statement"] or "(none)", objections_from=table["disputers"] or "(none recorded)",
                   steps=order)
    return act


CLARIFICATION = Rule(
    name="70B.clarification_repeated",
    clause="70B",
    editions=SINCE_2007,
    reason="The claimer repeats his statement, the opponents' objections are heard, the cards may be faced.",
    when=(fact("adjudicate", alias="adj"), fact("claim", alias="claim"), fact("table", alias="table")),
    then=_steps(["70B1 claimer repeats his statement", "70B2 opponents' objections heard",
                 "70B3 the Director may have the cards faced"]),
)

CLARIFICATION_1997 = Rule(
    name="70B.clarification_repeated.1997",
    clause="70B",
    editions=(E1997,),
    reason="1997: the claimer repeats his statement, all hands are faced, then the objections are heard.",
    when=(fact("adjudicate", alias="adj"), fact("claim", alias="claim"), fact("table", alias="table")),
    then=_steps(["70B1 claimer repeats his statement", "70B2 all hands are faced", "70B3 objections heard"]),
)

# ---------------------------------------------------------------------------------------
# Law 70C — there is an outstanding trump
# ---------------------------------------------------------------------------------------


def _outstanding(ctx: Ctx, m: Facts) -> None:
    # no record of its own: the step is in the law chain only where a later 70C step it leads to is (a trump out that
    # took no trick is not a law that applied)
    p = m["position"]
    ctx.assert_fact("outstanding_trump", cards=p["opp_trumps"])


OUTSTANDING = Rule(
    name="70C.outstanding_trump",
    clause="70C",
    editions=ALL,
    reason="An opponent still holds a trump: 70C1-3 decide whether tricks go to the opponents for it.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("position", alias="position", opp_trump_count=gt(0))),
    then=_outstanding,
)


def _no_statement(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("c1_no_statement")


NO_STATEMENT = Rule(
    name="70C1.no_statement_about_trump",
    clause="70C1",
    editions=ALL,
    reason="The claimer said nothing about the outstanding trump.",
    when=(fact("outstanding_trump", alias="trump"), fact("claim", alias="claim", mentions_trumps=False),
          no("clarification_added", mentions_trumps=True)),
    then=_no_statement,
)


def _mentioned(ctx: Ctx, m: Facts) -> None:
    ctx.record(statement=m["claim"]["statement"])
    ctx.note("70C1: the claimer's statement deals with trumps, so 70C does not take tricks from him.")


MENTIONED = Rule(
    name="70C1.statement_about_trump",
    clause="70C1",
    editions=ALL,
    reason="A claimer who spoke about the trumps is not ruled against under 70C.",
    when=(fact("outstanding_trump", alias="trump"), fact("claim", alias="claim", mentions_trumps=True)),
    then=_mentioned,
)


def _mentioned_later(ctx: Ctx, m: Facts) -> None:
    ctx.record(added=m["added"]["text"])
    ctx.note("70C1: the words the claimer added before the first objection deal with trumps, so 70C does not take "
             "tricks from him.")


MENTIONED_LATER = Rule(
    name="70C1.added_words_about_trump",
    clause="70C1",
    editions=ALL,
    reason="Words about the trumps added before the first objection are part of the statement, so 70C takes nothing.",
    when=(fact("outstanding_trump", alias="trump"), fact("claim", alias="claim", mentions_trumps=False),
          fact("clarification_added", alias="added", mentions_trumps=True)),
    then=_mentioned_later,
)


def _aware(why: str) -> Any:
    def act(ctx: Ctx, m: Facts) -> None:
        ctx.assert_fact("trump_awareness", aware=True, why=why)
        ctx.record(finding=why)
        # the reason the claim keeps its trump tricks: said in the ruling, so the chain shows why 70C took nothing
        ctx.note(f"70C2: the claimer is taken to have known a trump was out ({why}): 70C gives the opponents no "
                 "trick for it.")
    return act


def _unaware(why: str) -> Any:
    # the finding is in the asserted fact, not recorded: the step is in the chain only where 70C3 took a trick for it
    def act(ctx: Ctx, m: Facts) -> None:
        p = m.get("position")
        cards = [c for c in p["opp_trumps_unseen"] if c not in p["counted_trumps"]] if p else m["trump"]["cards"]
        ctx.assert_fact("trump_awareness", aware=False, why=why, cards=cards)
    return act


FOUND_UNAWARE = Rule(
    name="70C2.finding_unaware",
    clause="70C2",
    editions=ALL,
    reason="The Director finds the claimer was at all likely unaware of the trump.",
    when=(fact("c1_no_statement", alias="c1"), fact("outstanding_trump", alias="trump"),
          fact("findings", alias="findings", aware_of_trumps=False)),
    then=_unaware("Director's finding: at all likely unaware of the outstanding trump"),
    priority=-3,
)

FOUND_AWARE = Rule(
    name="70C2.finding_aware",
    clause="70C2",
    editions=ALL,
    reason="The Director finds the claimer was aware of the trump.",
    when=(fact("c1_no_statement", alias="c1"), fact("findings", alias="findings", aware_of_trumps=True)),
    then=_aware("Director's finding: aware of the outstanding trump"),
    priority=-3,
)

ROUND_DRAWN = Rule(
    name="70C2.just_drew_a_round",
    clause="70C2",
    editions=ALL,
    reason="Default: a claimer who has just led a round of trumps that both opponents followed knows trumps remain.",
    when=(fact("c1_no_statement", alias="c1"), fact("findings", alias="findings", aware_of_trumps="unknown"),
          fact("position", alias="position", trump_round_both_followed=True)),
    then=_aware("default: he claimed just after a round of trumps both opponents followed to"),
    priority=-2,
)

SHOW_OUT_ROUND = Rule(
    name="70C2.show_out_on_a_round",
    clause="70C2",
    editions=ALL,
    reason="Default: a claimer who has just seen an opponent show out on a round of trumps knows where the rest are.",
    when=(fact("c1_no_statement", alias="c1"), fact("findings", alias="findings", aware_of_trumps="unknown"),
          fact("position", alias="position", trump_round_show_out=True)),
    then=_aware("default: he claimed just after a round of trumps on which an opponent showed out"),
    priority=-2,
    source="White Book 8.70.4(b) (a round just drawn shows he knows the rest); the claimer sees the cards as they are "
           "played (WBFLC minute as reported; EBU TD forum)",
)

FIRST_CHANCE = Rule(
    name="70C2.first_chance_safe_draw",
    clause="70C2",
    editions=ALL,
    reason="Default: claiming at the first chance to draw trumps, when no layout of them can hurt, shows no "
           "unawareness.",
    when=(fact("c1_no_statement", alias="c1"), fact("findings", alias="findings", aware_of_trumps="unknown"),
          fact("position", alias="position", claimer_side_has_led=False, claimer_side_on_lead=True,
               draws_trumps_whatever_layout=True)),
    then=_aware("default: he claimed at his first chance to draw trumps, and top trumps draw them whatever the layout"),
    priority=-2,
)

SEES_THEM = Rule(
    name="70C2.sees_every_trump",
    clause="70C2",
    editions=ALL,
    reason="Default: a defender cannot be unaware of trumps he sees in dummy (Law 41D: dummy's hand is faced).",
    when=(fact("c1_no_statement", alias="c1"), fact("findings", alias="findings", aware_of_trumps="unknown"),
          fact("position", alias="position", sees_every_trump=True)),
    then=_aware("default: every outstanding trump is in dummy, face up before him"),
    priority=-2,
)


COUNTED = Rule(
    name="70C2.concedes_the_trump_tricks",
    clause="70C2",
    editions=ALL,
    reason="Default: a claim conceding exactly the tricks the outstanding trumps take, each trump counting, shows he "
           "counted them (Law 70C2 asks what he knew at the claim; White Book 8.70.4(b) reads it from what he did).",
    when=(fact("c1_no_statement", alias="c1"), fact("findings", alias="findings", aware_of_trumps="unknown"),
          fact("position", alias="position", concession_counts_every_trump=True)),
    then=_aware("default: his claim concedes exactly the tricks the outstanding trumps take, and each of them counts"),
    priority=-2,
)

AT_ALL_LIKELY = Rule(
    name="70C2.at_all_likely_unaware",
    clause="70C2",
    editions=ALL,
    reason="Default: with no statement and nothing showing awareness, unawareness is at all likely (of each trump his "
           "claim's count does not show he counted).",
    when=(fact("c1_no_statement", alias="c1"), fact("findings", alias="findings", aware_of_trumps="unknown"),
          fact("position", alias="position"), no("trump_awareness")),
    then=_unaware("default: nothing in the statement or the play shows he knew a trump was out"),
    priority=5,
)


def _could_lose(ctx: Ctx, m: Facts) -> None:
    adj, trump = m["adj"], m["trump"]
    params = m["params"]
    if params["high_trump_safety_check_normal"] and len(trump["cards"]) == 1:
        # a pack's regulation (as ACBL 1992 C): the claimer unaware of a single outstanding trump who holds a higher
        # one checks with it first; the switch, once asserted, is in every model built from the switches below
        cite = params.get("high_trump_safety_check_normal_cite") or "pack parameter high_trump_safety_check_normal"
        ctx.assert_fact("switch", name="safety_check_high_trump", clause="70C", value=True, source=cite,
                        why="a safety check with a high trump is a normal play, so he draws the single trump he "
                            "forgot")
        ctx.cite(f"a safety check with a high trump draws the single outstanding trump: {cite}")
    forgot = m["awareness"].get("cards") or trump["cards"]
    aware_model = model_from_switches(ctx, adj["side"], exclude=())
    if aware_model is None:
        need_count(ctx, "70C3 needs the tricks that could be lost to the trump")
        return
    aware = side_count(ctx, adj["side"], "normal", aware_model)
    # he may have forgotten every such trump, or only the small ones while knowing of a high one he concedes (White
    # Book 8.70.4(a) and the EBU claims notes' forgotten ♥5: a small trump is what is forgotten; own review 2026-11-28,
    # at-risk row 13, accepted: conceding the ♥Q, the ♥2 overlooked): where forgetting them all leaves the claim
    # standing, the lowest one, two, ... of them too, the worst count ruled (70A: a doubtful point goes against the
    # claimer). Where forgetting them all already loses a claimed trick, that count is ruled (no further searches)
    unaware, lost_set = None, forgot
    low_first = sorted(forgot, key=lambda c: Card.parse(c).rank)
    for j in range(len(low_first), 0, -1):
        if unaware is not None and unaware.tricks < adj["claimed"]:
            break
        model = model_from_switches(ctx, adj["side"], extra=[{"name": "unaware_trump", "clause": "70C",
                                                              "value": low_first[:j]}])
        got = side_count(ctx, adj["side"], "normal", model)
        if got is None:
            unaware = None
            break
        if unaware is None or got.tricks < unaware.tricks:
            unaware, lost_set = got, low_first[:j]
    if aware is None or unaware is None:
        need_count(ctx, "70C3 needs the tricks that could be lost to the trump")
        return
    if unaware.tricks < aware.tricks:
        ctx.record(with_awareness=aware.tricks, unaware=unaware.tricks)
        ctx.assert_fact("switch", name="unaware_trump", clause="70C3", value=lost_set,
                        source="Law 70C; White Book 8.70.4; ACBL LC 2019 #2",
                        why=f"{tricks_text(aware.tricks - unaware.tricks)} could be lost to the trump by normal play")
        return
    # the count stands as it is, but on the line ruled the opponents' trumps win more tricks than the claim concedes,
    # one of them a trump he forgot: that trick is lost to the trump (EBU claims notes: the forgotten ♥5 overruffs,
    # "the defence will be awarded a trump"), so 70C3 names it; no switch changes the count. A trick lost where the
    # trumps win no more than the concession is lost to something else (a discard, a ruff into a void), named there
    lost = _lost_to(aware.witness, trump["cards"], forgot, adj["claimed"])
    if aware.tricks < adj["claimed"] and lost is not None:
        ctx.record(with_awareness=aware.tricks, unaware=unaware.tricks, lost_to=lost)
        ctx.note(f"70C3: on the line ruled the {lost} he may have forgotten wins a trick: it goes to the opponents.")
    elif aware.tricks >= adj["claimed"]:
        # the claim stands although a trump he may have forgotten is out: that is 70C3's answer, and the ruling's
        # (NBB Delft, 4♠ with the ♠10 forgotten: ruffing low is the normal play, 70C takes nothing)
        ctx.record(with_awareness=aware.tricks, unaware=unaware.tricks)
        ctx.note("70C3: no normal play loses a trick to the outstanding trump.")


def _lost_to(witness: Any, outstanding: list[str], forgot: list[str], claimed: int) -> str | None:
    """On ``witness`` (the line ruled), where the outstanding trumps win more tricks than the claim concedes (the
    tricks left less ``claimed``), a forgotten trump among the winners, as ``♥5``; None otherwise."""
    if witness is None or not outstanding:
        return None
    out = {Card.parse(c) for c in outstanding}
    blind = {Card.parse(c) for c in forgot}
    trump = next(iter(out)).suit
    wins = []
    for trick in witness.tricks_played:
        cards = [Card.parse(c) for c in trick]
        if len(cards) < 4:
            continue
        top = max((c for c in cards if c.suit == trump), key=lambda c: c.rank, default=None)
        if top is not None and top in out:
            wins.append(top)
    conceded = len(witness.tricks_played) - claimed
    return next((c.pretty for c in wins if c in blind), None) if len(wins) > conceded else None


COULD_LOSE = Rule(
    name="70C3.trick_could_be_lost",
    clause="70C3",
    editions=ALL,
    reason="Tricks that any normal play could lose to the trump go to the opponents.",
    when=(fact("adjudicate", alias="adj"), fact("outstanding_trump", alias="trump"),
          fact("trump_awareness", alias="awareness", aware=False), fact("params", alias="params")),
    then=_could_lose,
    priority=10,
)

# ---------------------------------------------------------------------------------------
# Law 70D — the Director's considerations
# ---------------------------------------------------------------------------------------


def _stated_line(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("switch", name="line", clause="70D1", value="stated", source="Law 70D1",
                    why="the claimer is held to his stated line; where it is silent, any normal line")
    ctx.record(statement=m["claim"]["statement"])


STATED_LINE = Rule(
    name="70D1.stated_line",
    clause="70D1",
    editions=SINCE_2007,
    reason="No successful line outside the statement is accepted when a less successful normal line exists.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("claim", alias="claim", line_steps=gt(0))),
    then=_stated_line,
)

STATED_LINE_1997 = Rule(
    name="70D.stated_line.1997",
    clause="70D",
    editions=(E1997,),
    reason="1997: a claimer may not propose a new successful line when a less successful normal one exists.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("claim", alias="claim", line_steps=gt(0))),
    then=_stated_line,
)


def _quoted(text: str) -> str:
    return f"'{text}'" if len(text) <= 80 else f"'{text[:79]}…'"


def _added_before(ctx: Ctx, m: Facts) -> None:
    added = m["added"]
    ctx.assert_fact("clarification_added", text=added["text"], mentions_trumps=added["mentions_trumps"])
    if added["line_steps"] > 0:
        ctx.assert_fact("switch", name="line", clause="70D1", value="stated", source="Law 70D1",
                        why="the words added before the first objection are read with the statement as his line")
    ctx.record(added=added["text"], said="before the first objection")
    ctx.note(f"70D1: the claimer added {_quoted(added['text'])} before the opponents objected: those words are part "
             "of his clarification, and his line is read from the statement with them.")


def _added_after(ctx: Ctx, m: Facts) -> None:
    added = m["added"]
    ctx.record(added=added["text"], said="after the first objection")
    ctx.note(f"70D1: the claimer added {_quoted(added['text'])} only after the opponents objected: those words are "
             "not part of his line (at most evidence of what he meant), so the line is read from the statement "
             "alone.")


def _added_unknown(ctx: Ctx, m: Facts) -> None:
    added = m["added"]
    ctx.record(added=added["text"], said="not found", doubt="against the claimer (70A)")
    ctx.note(f"70D1 and 70A: the case does not say whether the claimer added {_quoted(added['text'])} before or "
             "after the opponents objected; doubt goes against the claimer, so those words are not part of his "
             "line, which is read from the statement alone.")


ADDED_BEFORE = Rule(
    name="70D1.added_before_objection",
    clause="70D1",
    editions=SINCE_2007,
    reason="Words the claimer added before the first objection belong to his clarification: the line is the "
           "statement with them.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("added_words", alias="added", when="before")),
    then=_added_before,
    priority=-5,  # before any rule reads the trumps or counts the line
)

ADDED_AFTER = Rule(
    name="70D1.added_after_objection",
    clause="70D1",
    editions=SINCE_2007,
    reason="Words the claimer added only after the opponents objected are not part of his original statement, so "
           "not of his line.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("added_words", alias="added", when="after")),
    then=_added_after,
    priority=-5,
)

ADDED_UNKNOWN = Rule(
    name="70D1.added_when_not_found",
    clause="70D1",
    editions=SINCE_2007,
    reason="Where it is not found whether the words came before the first objection, doubt goes against the claimer "
           "(70A): they are not part of his line.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("added_words", alias="added", when="unknown")),
    then=_added_unknown,
    priority=-5,
)

ADDED_BEFORE_1997 = Rule(
    name="70D.added_before_objection.1997",
    clause="70D",
    editions=(E1997,),
    reason="1997: words added before the first objection are part of the clarification, so not a new line.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("added_words", alias="added", when="before")),
    then=_added_before,
    priority=-5,
)

ADDED_AFTER_1997 = Rule(
    name="70D.added_after_objection.1997",
    clause="70D",
    editions=(E1997,),
    reason="1997: words added after the opponents objected propose a new line, which is not accepted.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("added_words", alias="added", when="after")),
    then=_added_after,
    priority=-5,
)

ADDED_UNKNOWN_1997 = Rule(
    name="70D.added_when_not_found.1997",
    clause="70D",
    editions=(E1997,),
    reason="1997: where it is not found when the words were added, doubt goes against the claimer (70A).",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("added_words", alias="added", when="unknown")),
    then=_added_unknown,
    priority=-5,
)


def _defender(ctx: Ctx, m: Facts) -> None:
    ctx.assert_fact("switch", name="partner_restricted", clause="70D2", value=True, source="Law 70D2",
                    why="a defender's claim gets no credit for his partner choosing the right normal play")


DEFENDER = Rule(
    name="70D2.defender_claim",
    clause="70D2",
    editions=SINCE_2007,
    reason="A defender's claim may not rely on his partner picking one normal play among several.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("claim", alias="claim", role="defender")),
    then=_defender,
)


def _evidence(clause: str) -> Any:
    def act(ctx: Ctx, m: Facts) -> None:
        ctx.assert_fact("switch", name="played_after_claim", clause=clause, value=True,
                        source="Law 70D3 (2007); 68D2(b)(i) (2017)",
                        why="the cards played after the claim are taken as the claimer's line so far")
    return act


EVIDENCE_2007 = Rule(
    name="70D3.play_as_evidence",
    clause="70D3",
    editions=(E2007,),
    reason="2007: play after the claim, though it should not have happened, may be evidence of the probable play.",
    when=(fact("adjudicate", alias="adj"), fact("play_on", alias="play_on", cards_played=gt(0))),
    then=_evidence("70D3"),
)

EVIDENCE_2017 = Rule(
    name="70.play_evidence",
    clause="70A",
    editions=(E2017,),
    reason="Play continued without a valid 68D2(b) agreement is evidence of the players' probable plays.",
    when=(fact("adjudicate", alias="adj"), fact("play_evidence", alias="evidence", cards=gt(0))),
    then=_evidence("68D2(b)"),
    source="Laws of Duplicate Bridge; EBU TD guidance on 68D2(b)",
)

# ---------------------------------------------------------------------------------------
# Law 70E — unstated line of play
# ---------------------------------------------------------------------------------------


def _unstated(ctx: Ctx, m: Facts) -> None:
    play, pos = ctx.play, ctx.position
    if pos is None:
        return  # no cards: no count for a guess to change
    in_view: str | bool = True
    if play is not None:
        model = model_from_switches(ctx, m["adj"]["side"])
        if model is not None:
            side = Side.parse(m["adj"]["side"])
            if not play.guess_at_stake(pos, side, model):
                return  # his winners as he sees them make the claim: no guess is at stake, 70E1 does not apply
            in_view = play.guess_in_view(pos, side, model)
    # ``at_stake``: a suit with a guess whose winning makes the claim is in view at the claim, so the claim rests on
    # it whatever line is ruled; otherwise 70E1 is among the reasons only where the line ruled takes such a guess
    ctx.assert_fact("switch", name="finesse_or_drop", clause="70E1", value=True, source="Law 70E1",
                    at_stake=bool(in_view),
                    why="an unstated finesse or drop is not credited unless an opponent has shown out, or would "
                        "on any normal line before the guess")
    if isinstance(in_view, str) and in_view:
        # say which card the claim rests on: the guess a Director names when he rules the losing option
        ctx.note(f"70E1: the claim rests on finding the {in_view}, a guess the claimer did not state: it is not "
                 "credited unless a show-out proves it.")


UNSTATED = Rule(
    name="70E1.unstated_finesse",
    clause="70E1",
    editions=(E2017,),
    reason="An unstated line that works only by finding a card with one opponent is not accepted, unless a "
           "show-out proves it.",
    when=(fact("adjudicate", alias="adj", says="claim"),),
    then=_unstated,
)


def _unstated_irrational(ctx: Ctx, m: Facts) -> None:
    if m["findings"].get("irrational_not_to") is True:
        ctx.note("70E1 (1997/2007): failing to adopt the winning line would be irrational (Director's finding), so "
                 "it is credited.")
        return
    _unstated(ctx, m)


UNSTATED_2007 = Rule(
    name="70E1.unstated_finesse.2007",
    clause="70E1",
    editions=(E2007,),
    reason="2007: as 2017, but the line is credited when failing to adopt it would be irrational.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("findings", alias="findings")),
    then=_unstated_irrational,
)

UNSTATED_1997 = Rule(
    name="70E.unstated_finesse.1997",
    clause="70E",
    editions=(E1997,),
    reason="1997: as 2007; the line is credited when failing to adopt it would be irrational.",
    when=(fact("adjudicate", alias="adj", says="claim"), fact("findings", alias="findings")),
    then=_unstated_irrational,
)


def _ra_order(ctx: Ctx, m: Facts) -> None:
    order = ORDERS_70E2[m["params"]["order_70E2"]]
    cite = m["params"].get("order_70E2_cite") or "the Regulating Authority"
    # the play core reads the order's words: "top" lets the guess licence lapse (engine/play/model.py)
    ctx.assert_fact("switch", name="guess_order", clause="70E2", value=order.words if order.top_down else order.name,
                    source=f"Law 70E2; {cite}",
                    why=f"the Regulating Authority's order for an unclarified suit: {order.words}")
    ctx.record(order=order.name, effect=order.effect)
    ctx.cite(f"an unclarified suit is played {order.words}: {cite}")


RA_ORDER = Rule(
    name="70E2.ra_order",
    clause="70E2",
    editions=SINCE_2007,
    reason="A suit the statement leaves unclarified is played in the Regulating Authority's specified order, if any.",
    when=(fact("adjudicate", alias="adj"), fact("params", alias="params", order_70E2=ne("none"))),
    then=_ra_order,
    text_verified=False,
)

# ---------------------------------------------------------------------------------------
# Law 70A applied — the count
# ---------------------------------------------------------------------------------------


def _resolve(ctx: Ctx, m: Facts) -> None:
    adj, b = m["adj"], m["board"]
    model = model_from_switches(ctx, adj["side"])
    if model is None:
        need_count(ctx, "Law 70 needs the worst outcome over the claimer's normal lines")
        return
    count = side_count(ctx, adj["side"], "normal", model)
    if count is None:
        need_count(ctx, "Law 70 needs the worst outcome over the claimer's normal lines")
        return
    claimed = adj["claimed"]
    side_name = SIDE_NAMES.get(adj["side"], adj["side"])
    settled = proven(ctx, count)
    ctx.record(worst_normal=count.tricks, claimed=claimed, line=count.witness.words if count.witness else "",
               proven=settled)
    ctx.conclude(witnesses=[count.witness])
    if not settled:
        # an unfinished search is a doubtful point: it can neither allow the claim nor fix the tricks
        what = "claim" if adj["says"] == "claim" else "concession"
        found = (f" The worst normal line it found gives {side_name} {tricks_text(count.tricks)}; a worse one "
                 "was not ruled out.")
        ctx.conclude(outcome="claim_not_established" if what == "claim" else "count_unproven", tricks=None,
                     summary=f"The {what} is not established: the search could not show that every normal line "
                             f"gives {side_name} the {tricks_text(claimed)} {'claimed' if what == 'claim' else 'kept'}."
                             f"{found}",
                     next_step=RERUN)
        return
    if adj["says"] == "claim":
        got = min(claimed, count.tricks)
        if got >= claimed:
            ctx.conclude(outcome="claim_allowed", tricks=board_totals(b, adj["side"], got),
                         summary=f"The claim is allowed: {side_name} take {tricks_text(claimed)} on every normal "
                                 "line.")
        else:
            ctx.conclude(outcome="claim_adjusted", tricks=board_totals(b, adj["side"], got),
                         summary=f"The claim fails on a normal line: {side_name} get {tricks_text(got)} of the "
                                 f"{tricks_text(claimed)} claimed; {tricks_text(claimed - got)} to the opponents.")
    else:
        got = count.tricks
        if got > claimed:
            ctx.conclude(outcome="concession_cancelled", tricks=board_totals(b, adj["side"], got),
                         summary=f"{tricks_text(got - claimed).capitalize()} conceded by {side_name} could not be "
                                 f"lost by normal play: they are given back.")
        else:
            ctx.conclude(outcome="concession_stands", tricks=board_totals(b, adj["side"], claimed),
                         summary=f"The concession stands: {side_name} could lose those tricks by normal play.")


RESOLVE = Rule(
    name="70A.resolve",
    clause="70A",
    editions=ALL,
    reason="The claimer's side gets the fewest tricks it takes on any normal line, never a weighted figure.",
    when=(fact("adjudicate", alias="adj"), fact("board", alias="board")),
    then=_resolve,
    priority=RESOLVE_PRIORITY,
)


def _weighted(ctx: Ctx, m: Facts) -> None:
    adj, b = m["adj"], m["board"]
    weights = {int(t): w for t, w in (m["findings"].get("outcome_weights") or {}).items()}
    remaining = b.get("remaining", -1)
    if not weights:
        ctx.note("The Regulating Authority allows a weighted result for a claim, but the Director gave no weights "
                 "(findings.outcome_weights): the whole-trick ruling stands.")
        return
    rows = []
    for t, w in weights.items():
        if remaining >= 0 and t > remaining:
            ctx.note(f"A weight for {t} tricks was ignored: only {remaining} tricks remained.")
            continue
        totals = board_totals(b, adj["side"], t)
        if totals is not None:
            rows.append({"tricks": totals, "weight": w})
    ctx.record(weights={str(k): v for k, v in weights.items()})
    if m["params"].get("weighted_scores_cite"):
        ctx.cite(f"weighted results allowed: {m['params']['weighted_scores_cite']}")
    ctx.conclude(weighted=rows)
    ctx.note("Weighted result (the Regulating Authority allows it): "
             + "; ".join(f"{r['weight']:.0%} of {r['tricks']}" for r in rows))


WEIGHTED = Rule(
    name="70A.weighted_result",
    clause="70A",
    editions=ALL,
    reason="Where a Regulating Authority allows it, the Director's weighting of the outcomes stands beside the "
           "whole-trick ruling.",
    when=(fact("adjudicate", alias="adj"), fact("board", alias="board"), fact("findings", alias="findings"),
          fact("params", alias="params", weighted_scores=True)),
    then=_weighted,
    priority=RESOLVE_PRIORITY + 1,
    source="pack parameter weighted_scores (some authorities and appeals committees have weighted claims)",
)


def _whole_tricks(ctx: Ctx, m: Facts) -> None:
    ctx.note("70A: the Director's weights are not used; a claim is ruled in whole tricks unless the Regulating "
             "Authority allows a weighted result.")


WHOLE_TRICKS = Rule(
    name="70A.whole_tricks",
    clause="70A",
    editions=ALL,
    reason="Without a Regulating Authority's leave, a claim is ruled in whole tricks, so weights are set aside.",
    when=(fact("adjudicate", alias="adj"), fact("findings", alias="findings", weights_given=True),
          fact("params", alias="params", weighted_scores=False)),
    then=_whole_tricks,
    priority=RESOLVE_PRIORITY + 1,
)

RULES: list[Rule] = [
    OBJECTIVE, OBJECTIVE_1997, EVIDENCE_2017, CLARIFICATION, CLARIFICATION_1997,
    OUTSTANDING, NO_STATEMENT, MENTIONED, MENTIONED_LATER, FOUND_UNAWARE, FOUND_AWARE, ROUND_DRAWN, SHOW_OUT_ROUND,
    FIRST_CHANCE, SEES_THEM, COUNTED, AT_ALL_LIKELY,
    COULD_LOSE,
    ADDED_BEFORE, ADDED_AFTER, ADDED_UNKNOWN, ADDED_BEFORE_1997, ADDED_AFTER_1997, ADDED_UNKNOWN_1997,
    STATED_LINE, STATED_LINE_1997, DEFENDER, EVIDENCE_2007,
    UNSTATED, UNSTATED_2007, UNSTATED_1997, RA_ORDER,
    RESOLVE, WEIGHTED, WHOLE_TRICKS,
]

