"""Law 79 — tricks won: a later disagreement (79B1) and the correction period (79C)."""

from __future__ import annotations

from claimlaw.facts import CORRECTION_MINUTES
from claimlaw.rules.common import E1997, E2007, E2017, Ctx, Facts
from claimlaw.rules.rulebook import Rule, fact, one_of

LATE = ("after_next_call", "after_round_end")


def _disagreement(laws: str) -> object:
    def act(ctx: Ctx, m: Facts) -> None:
        ctx.record(objection=m["table"]["objection"], objection_by=m["table"]["objection_by"])
        ctx.note(f"79B1: the Director first decides whether there was a claim or concession, then applies {laws}.")
    return act


DISAGREEMENT = Rule(
    name="79B1.claim_or_concession",
    clause="79B1",
    editions=(E2017,),
    reason="A later disagreement on tricks after a claim or concession is settled under 69B or 71.",
    when=(fact("established", alias="established"), fact("table", alias="table", objection=one_of(*LATE))),
    then=_disagreement("Law 69B or Law 71"),
)

DISAGREEMENT_2007 = Rule(
    name="79B1.claim_or_concession.2007",
    clause="79B1",
    editions=(E2007,),
    reason="2007: a later disagreement on tricks after a claim or concession is settled under Law 69.",
    when=(fact("established", alias="established"), fact("table", alias="table", objection=one_of(*LATE))),
    then=_disagreement("Law 69"),
    text_verified=False,
)


RAISED = ("at_once", "before_next_call", "after_next_call", "after_round_end")


def _within(t: Facts, minutes: float) -> str:
    """'yes', 'no' or 'unknown': a finding says so; else the minutes after the scores were posted against the period;
    an objection at once or before the next call comes before any score is posted."""
    if t["period_found"] != "unknown":
        return t["period_found"]
    if t["minutes_after_posted"] >= 0:
        return "yes" if t["minutes_after_posted"] <= minutes else "no"
    return "yes" if t["objection"] in ("at_once", "before_next_call") else "unknown"


def _period(ctx: Ctx, m: Facts) -> None:
    t, p = m["table"], m["params"]
    within = _within(t, p["correction_minutes"])
    ctx.assert_fact("correction_period", within=within, minutes=p["correction_minutes"])
    ctx.record(correction_minutes=p["correction_minutes"], within=within)
    if p.get("correction_minutes_cite"):
        ctx.cite(f"correction period {p['correction_minutes']:g} minutes: {p['correction_minutes_cite']}")
    if within == "unknown":
        ctx.note("79C: the case does not say whether the objection came within the correction period; neither 69B "
                 "nor 71 can be applied until the Director finds it.")


PERIOD = Rule(
    name="79C.correction_period",
    clause="79C",
    editions=(E2017, E2007, E1997),
    reason=f"Agreements and concessions can be reopened only within the correction period ({CORRECTION_MINUTES:g} "
           "minutes unless the organiser sets another): it decides whether 69B and 71 apply.",
    when=(fact("table", alias="table", objection=one_of(*RAISED)), fact("params", alias="params")),
    then=_period,
    params={"correction_minutes": CORRECTION_MINUTES},
)

RULES: list[Rule] = [DISAGREEMENT, DISAGREEMENT_2007, PERIOD]
