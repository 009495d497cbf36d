"""``artibot report cost`` and `status`: the turns' costs and counts, read from the store (the
learner takes its measured price from the same report, in :mod:`artibot.cycle`).

Every experience record that went through the gateway carries ``usage`` (tokens, dollars,
timing); the unprocessed log and the live archives together hold every turn that has not
been rolled back. The arithmetic is in :mod:`artibot.learning.costs`.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from artibot.learning.costs import CostReport, summarize
from artibot.store import archive
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home, HomeArg


def _rows(records: Iterator[Mapping[str, Any]]) -> Iterator[tuple[str, str, bool, float | None]]:
    for record in records:
        usage = record.get("usage")
        cost = usage.get("cost_usd") if isinstance(usage, Mapping) else None
        if isinstance(usage, Mapping) and usage.get("unpriced"):
            cost = None  # part of the turn ran on a model without a price: not a measured cost
        yield (str(record.get("routed_to")), str(record.get("timestamp") or "")[:10],
               record.get("outcome") == "success", float(cost) if isinstance(cost, (int, float)) else None)


def _records(h: Home) -> Iterator[Mapping[str, Any]]:
    yield from archive.records(h)
    yield from ExperienceLog(h).stream()  # a run of records at a time: memory bounded, not the log's size


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


def cache_tokens(*, home: HomeArg = None) -> dict[str, dict[str, int]]:
    """Prompt-cache tokens written and read per route: a model switch shows as writes
    (the new model's cache starts empty), a turn that stays on its model as reads."""
    out = {route: {"written": 0, "read": 0, "turns": 0} for route in ("system1", "system2")}
    for record in _records(Home.of(home)):
        usage, route = record.get("usage"), record.get("routed_to")
        if not isinstance(usage, Mapping) or route not in out:
            continue
        out[route]["turns"] += 1
        out[route]["written"] += int(usage.get("cache_creation_input_tokens") or 0)
        out[route]["read"] += int(usage.get("cache_read_input_tokens") or 0)
    return out
