"""``artibot report cost`` and `status`: the turns' costs and counts, read from the store (the
learner takes its measured price from the same report, in :mod:`artibot.round.cycle`).

Every experience record that went through the gateway carries ``usage`` (tokens, dollars,
timing); the unprocessed log and the live archives together hold every turn that has not
been rolled back. The arithmetic is in :mod:`artibot.learning.route_costs`.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable, Iterator, Mapping

from artibot.learning.route_costs import CostReport, CostSummary, summarize
from artibot.store import archive
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home, HomeArg


def _rows(records: Iterable[Mapping[str, Any]], last: dict[str, Any] | None = None
          ) -> Iterator[tuple[str, str, str, float | None, float]]:
    """Per turn: route, day, outcome, cost, and the cache rewrite its route switch caused (a
    turn whose profile differs from the session's previous turn and whose first request
    wrote more than it added). ``last``: each session's profile so far (carried from one
    pass to the next)."""
    last = {} if last is None else last
    for record in records:
        usage = record.get("usage")
        cost = usage.get("cost_usd") if isinstance(usage, Mapping) else None
        if isinstance(usage, Mapping) and usage.get("unpriced"):
            cost = None  # part of the turn ran on a model without a price: not a measured cost
        rewrite = 0.0
        if isinstance(usage, Mapping):
            session, profile = str(record.get("session_id")), usage.get("profile")
            switched = session in last and last[session] != profile
            last[session] = profile
            extra = usage.get("rewrite_cost_usd")
            if switched and isinstance(extra, (int, float)) and not isinstance(extra, bool):
                rewrite = float(extra)
        yield (str(record.get("routed_to")), str(record.get("timestamp") or "")[:10],
               str(record.get("outcome")), float(cost) if isinstance(cost, (int, float)) else None, rewrite)


def _records(h: Home) -> Iterator[Mapping[str, Any]]:
    yield from archive.records(h)
    yield from ExperienceLog(h).stream()  # a run of records at a time: memory bounded, not the log's size


class TurnCosts:
    """The cost report of a round, from the one read of the store the round makes: the
    archived turns when it starts (:meth:`of_archive`), then the unprocessed log's records as
    the round reads them into its frame (:meth:`add`), so the log is not read a second time."""

    def __init__(self, summary: CostSummary, last: dict[str, Any]):
        self._start = (summary, last)
        self._summary, self._last = copy.deepcopy(summary), dict(last)

    @classmethod
    def of_archive(cls, h: Home) -> TurnCosts:
        summary, last = CostSummary(), dict[str, Any]()
        summary.add(_rows(archive.records(h), last))
        return cls(summary, last)

    def add(self, records: Iterable[Mapping[str, Any]]) -> None:
        self._summary.add(_rows(records, self._last))

    def restart(self) -> None:
        """Forget the log's records added so far (the round reads the log again, another way)."""
        summary, last = self._start
        self._summary, self._last = copy.deepcopy(summary), dict(last)

    def report(self) -> CostReport:
        return self._summary.report()


def cost_report(*, home: HomeArg = None) -> CostReport:
    """Cost per route and per day over every turn kept (archived and unprocessed)."""
    return summarize(_rows(_records(Home.of(home))))


def report_and_counts(*, home: HomeArg = None) -> tuple[CostReport, dict[str, Any]]:
    """In one pass over every turn kept (archived and unprocessed): the cost report, how
    many turns were ``interrupted`` (recorded, left out of learning) and how many came from
    each client (``agent``; records of ``artibot collect`` without one count as ``other``)."""
    interrupted = 0
    agents: dict[str, int] = {}

    def counted(records: Iterator[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
        nonlocal interrupted
        for record in records:
            interrupted += record.get("outcome") == "interrupted"
            agent = str(record.get("agent") or record.get("source") or "other")
            agents[agent] = agents.get(agent, 0) + 1
            yield record

    report = summarize(_rows(counted(_records(Home.of(home)))))
    return report, {"interrupted": interrupted, "agents": dict(sorted(agents.items()))}


def cache_report(*, home: HomeArg = None) -> dict[str, Any]:
    """The prompt cache over every turn kept: tokens written and read per route, the turns whose
    route switched the session's profile (model or effort) and what their cache rewrites cost,
    the client's housekeeping (compaction), which no route caused, and the sub-agents' share of
    the turns' cost (already in it) with the models they ran on."""
    routes = {route: {"written": 0, "read": 0, "turns": 0} for route in ("system1", "system2")}
    switched = {"turns": 0, "rewrite_tokens": 0, "rewrite_cost_usd": 0.0}
    housekeeping = {"requests": 0, "cost_usd": 0.0}
    agents: dict[str, Any] = {"requests": 0, "cost_usd": 0.0, "models": []}
    last: dict[str, Any] = {}
    for record in _records(Home.of(home)):
        usage, route = record.get("usage"), record.get("routed_to")
        if not isinstance(usage, Mapping):
            continue
        chores = usage.get("housekeeping")
        if isinstance(chores, Mapping):
            housekeeping["requests"] += _count(chores.get("requests"))
            housekeeping["cost_usd"] += _dollars(chores.get("cost_usd"))
        helpers = usage.get("agents")
        if isinstance(helpers, Mapping):
            agents["requests"] += _count(helpers.get("requests"))
            agents["cost_usd"] += _dollars(helpers.get("cost_usd"))
            models = helpers.get("models")
            for model in models if isinstance(models, list) else ():
                if isinstance(model, str) and model not in agents["models"]:
                    agents["models"].append(model)
        session, profile = str(record.get("session_id")), usage.get("profile")
        if session in last and last[session] != profile:
            switched["turns"] += 1
            switched["rewrite_tokens"] += _count(usage.get("rewrite_tokens"))
            switched["rewrite_cost_usd"] += _dollars(usage.get("rewrite_cost_usd"))
        last[session] = profile
        if route in routes:
            routes[route]["turns"] += 1
            routes[route]["written"] += _count(usage.get("cache_creation_input_tokens"))
            routes[route]["read"] += _count(usage.get("cache_read_input_tokens"))
    switched["rewrite_cost_usd"] = round(switched["rewrite_cost_usd"], 6)
    housekeeping["cost_usd"] = round(housekeeping["cost_usd"], 6)
    agents["cost_usd"] = round(agents["cost_usd"], 6)
    return {"routes": routes, "switched": switched, "housekeeping": housekeeping, "agents": agents}


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _dollars(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else 0.0
