"""What ``artibot report`` draws: the lead (what the person paid, what routing saved against
every turn at System 2, and the redos per 100 turns it added against System 2 alone, with the
turns still in open sessions that none of it counts yet), cost and success per route per day,
the share explored, each domain's threshold over the rounds with the checkpoint answers, the
round waiting.

One pass over the experiences (the log and the live archives) and the learning log; the
gateway's costs come from :func:`artibot.reports.costs.cost_report`. Everything is returned as
plain numbers per day or per round: the CLI draws them.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping

from artibot.reports.costs import cost_report
from artibot.hookpath.router.thresholds import domain_label
from artibot.store import archive
from artibot.store.round import rounds
from artibot.store.home import Home, HomeArg
from artibot.store.log.experiences import ExperienceLog
from artibot.store.sessions import pending_turns

ROUTES = ("system1", "system2")
LEAD_KEYS = ("routes", "judged", "unmeasured_turns", "total_usd", "all_system2_usd", "saved_usd", "saved_share",
             "redos", "redo_note")
"""The parts of :meth:`artibot.learning.route_costs.CostReport.to_json` the page's lead is made of."""


def _days(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per day: turns and successes per route, and how many were explored (sent against the
    greedy route, propensity below one half)."""
    days: dict[str, dict[str, Any]] = defaultdict(lambda: {"turns": {r: 0 for r in ROUTES},
                                                           "successes": {r: 0 for r in ROUTES},
                                                           "explored": 0, "total": 0})
    for record in records:
        stamp, route = record.get("timestamp"), record.get("routed_to")
        if not isinstance(stamp, str) or route not in ROUTES or record.get("outcome") == "interrupted":
            continue
        day = days[stamp[:10]]
        day["total"] += 1
        day["turns"][route] += 1
        day["successes"][route] += record.get("outcome") == "success"
        propensity = record.get("propensity")
        day["explored"] += isinstance(propensity, (int, float)) and propensity < 0.5
    return dict(sorted(days.items()))


def _thresholds(log: list[Any]) -> dict[str, list[dict[str, Any]]]:
    """Each domain's threshold after each round that changed it, with the round's answers and the
    round's number among the rounds that proposed a change (``n``, from 1; the value before a
    domain's first such round has the number before it)."""
    series: dict[str, list[dict[str, Any]]] = defaultdict(list)
    n = 0
    for entry in log:
        if not rounds.is_round(entry) or not entry.get("threshold_changes"):
            continue
        n += 1
        answers = {a.get("checkpoint"): a.get("answer") for a in entry.get("answers") or [] if isinstance(a, dict)}
        applied = entry.get("thresholds_applied") is not False and entry.get("status") == "applied" \
            and not entry.get("rolled_back")
        for key, change in entry["threshold_changes"].items():
            points = series[domain_label(key)]
            if not points:
                points.append({"round": None, "n": n - 1, "at": None, "value": change["old"], "answer": None})
            points.append({"round": entry["round_id"], "n": n, "at": entry.get("finished"),
                           "value": change["new"] if applied else points[-1]["value"],
                           "proposed": change["new"], "answer": answers.get(2), "applied": applied})
    return dict(sorted(series.items()))


def report_data(*, home: HomeArg = None) -> dict[str, Any]:
    """Everything the HTML report shows (see the module doc)."""
    h = Home.of(home)
    records = list(archive.records(h)) + ExperienceLog(h).read()
    costs = cost_report(home=h).to_json()
    s2 = costs["routes"]["system2"]
    cost_days = {}
    for day, by in costs["days"].items():
        spent = {r: by[r]["total_usd"] for r in ROUTES}
        # every turn at System 2: the System 1 turns priced at System 2's mean cost per turn
        all_s2 = by["system2"]["total_usd"] + by["system1"]["turns"] * s2["mean_usd"] if s2["turns"] else None
        cost_days[day] = {**spent, "all_system2": all_s2, "turns": sum(by[r]["turns"] for r in ROUTES)}
    pending = rounds.load_pending(h)
    waiting = None
    if pending is not None:
        proposal = pending.proposal()
        waiting = {"round_id": pending.round_id, "prepared": pending.context.created,
                   "processed": len(proposal.processed_ids),
                   "changes": {domain_label(d): {"old": old, "new": new}
                               for d, (old, new) in proposal.net_changes().items()}}
    lead = {key: costs[key] for key in LEAD_KEYS}
    lead["pending_turns"] = pending_turns(h)  # not in the log yet: none of the figures counts them
    return {"home": str(h.root), "lead": lead, "days": _days(records), "costs": cost_days,
            "cost_note": costs["note"], "thresholds": _thresholds(rounds.read_learning_log(h)),
            "waiting": waiting, "experiences": len(records)}
