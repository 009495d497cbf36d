"""What the routes cost, from the turns' measured usage (pure).

Each turn that went through the gateway carries ``usage.cost_usd``. Per route this
module keeps the count, mean and spread of the cost per turn, per day as well, and
answers two questions:

* **What did the routes save against "every turn at System 2"?** The counterfactual
  prices every System 1 turn at System 2's mean cost per turn:
  ``saved = n1 * (mean2 - mean1)``, with a normal 95% interval from both means'
  standard errors (Welch). System 2 turns are the harder prompts, so their mean is, if
  anything, above what System 2 would have cost on System 1's prompts: the figure leans
  toward overstating the saving, and says so.
* **Net of cache rewrites.** A turn whose route changed the session's model or top-level
  effort may have written the cached conversation again (``usage.rewrite_cost_usd``, the
  extra over reading it). Under "every turn at System 2" nothing switches, so those
  dollars are a cost of routing to System 1: a System 2 turn's own rewrite (the way back)
  is moved onto System 1's total. The saving and the price below are net of them.
* **What is a System 2 call worth in points of success?** With the value of one
  successful turn (``successValueUsd``), the measured price is
  ``(mean2 - mean1) / value``, clipped to [0, 1]: the extra dollars of a System 2 turn,
  in the success probability they would buy at that value.

>>> rows = [("system1", "2026-11-20", True, 0.01), ("system1", "2026-11-20", True, 0.03),
...         ("system2", "2026-11-21", True, 0.05), ("system2", "2026-11-21", False, 0.07)]
>>> report = summarize(rows)
>>> round(report.routes["system2"].mean - report.routes["system1"].mean, 3)
0.04
>>> round(report.saved.estimate, 3), report.all_system2_total == report.total + report.saved.estimate
(0.08, True)
>>> round(measured_price(report, value_usd=0.5, min_turns=2).price, 3)
0.08
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from artibot.shapes import JsonValue

Z95 = 1.959963984540054
ROUTES = ("system1", "system2")


@dataclass
class RouteCost:
    """Turns of one route with a measured cost: count, successes, sum and sum of squares."""

    turns: int = 0
    successes: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, success: bool, cost: float) -> None:
        self.turns += 1
        self.successes += bool(success)
        self.total += cost
        self.squares += cost * cost

    @property
    def mean(self) -> float:
        return self.total / self.turns if self.turns else 0.0

    @property
    def variance(self) -> float:
        if self.turns < 2:
            return 0.0
        return max(self.squares - self.turns * self.mean ** 2, 0.0) / (self.turns - 1)

    @property
    def success_rate(self) -> float | None:
        return self.successes / self.turns if self.turns else None

    def to_json(self) -> dict[str, float | int | None]:
        return {"turns": self.turns, "successes": self.successes, "success_rate": self.success_rate,
                "total_usd": round(self.total, 6), "mean_usd": round(self.mean, 6),
                "sd_usd": round(math.sqrt(self.variance), 6)}


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"estimate": round(self.estimate, 6), "low": round(self.low, 6), "high": round(self.high, 6)}


@dataclass
class CostReport:
    routes: dict[str, RouteCost] = field(default_factory=lambda: {r: RouteCost() for r in ROUTES})
    days: dict[str, dict[str, RouteCost]] = field(default_factory=dict)
    unmeasured: int = 0
    """Turns without a measured cost (recorded without the gateway)."""
    rewrites: dict[str, list[Any]] = field(default_factory=lambda: {r: [0, 0.0] for r in ROUTES})
    """Per route: turns whose requests wrote the cached prefix again, and what that cost over reading it."""

    @property
    def total(self) -> float:
        return sum(r.total for r in self.routes.values())

    @property
    def saved(self) -> Interval | None:
        """What the System 1 turns saved against running them at System 2 (None: a route has no turn)."""
        s1, s2 = self.routes["system1"], self.routes["system2"]
        if not s1.turns or not s2.turns:
            return None
        estimate = s1.turns * (s2.mean - s1.mean)
        se = s1.turns * math.sqrt(s2.variance / s2.turns + s1.variance / s1.turns)
        return Interval(estimate, estimate - Z95 * se, estimate + Z95 * se)

    @property
    def all_system2_total(self) -> float | None:
        saved = self.saved
        return None if saved is None else self.total + saved.estimate

    def to_json(self) -> dict[str, Any]:
        saved = self.saved
        return {
            "routes": {r: c.to_json() for r, c in self.routes.items()},
            "days": {d: {r: c.to_json() for r, c in by.items()} for d, by in sorted(self.days.items())},
            "total_usd": round(self.total, 6),
            "all_system2_usd": None if saved is None else round(self.total + saved.estimate, 6),
            "saved_usd": None if saved is None else saved.to_json(),
            "unmeasured_turns": self.unmeasured,
            "rewrites": {"turns": sum(int(v[0]) for v in self.rewrites.values()),
                         "cost_usd": round(sum(float(v[1]) for v in self.rewrites.values()), 6),
                         "routes": {r: {"turns": v[0], "cost_usd": round(v[1], 6)} for r, v in self.rewrites.items()}},
            "note": "all-System-2 prices each System 1 turn at System 2's mean cost per turn; System 2 turns "
                    "are the harder prompts, so the saving leans high; cache rewrites caused by route switches "
                    "are charged to System 1, so the saving is net of them",
        }


def summarize(rows: Iterable[tuple[str, str, bool, float | None] | tuple[str, str, bool, float | None, float]]
              ) -> CostReport:
    """A report from ``(routed_to, day, success, cost_usd or None[, rewrite_usd])`` per turn.

    >>> r = summarize([("system1", "d", True, 0.02, 0.01), ("system2", "d", True, 0.10, 0.04)])
    >>> round(r.routes["system1"].total, 3), round(r.routes["system2"].total, 3), r.rewrites
    (0.06, 0.06, {'system1': [1, 0.01], 'system2': [1, 0.04]})
    """
    summary = CostSummary()
    summary.add(rows)
    return summary.report()


@dataclass
class CostSummary:
    """:func:`summarize` a part at a time: rows from several passes (the archive, then the log
    as a round reads it) give the report one pass over all of them would."""

    partial: CostReport = field(default_factory=CostReport)
    moved: dict[str, float] = field(default_factory=dict)
    """Per day, the rewrites charged back to System 1 when the report is made."""

    def add(self, rows: Iterable[tuple[str, str, bool, float | None] | tuple[str, str, bool, float | None, float]]
            ) -> None:
        report, moved = self.partial, self.moved
        for row in rows:
            route, day, success, cost = row[:4]
            rewrite = row[4] if len(row) > 4 else 0.0
            if route not in ROUTES:
                continue
            if cost is None or not math.isfinite(cost) or cost < 0:
                report.unmeasured += 1
                continue
            if isinstance(rewrite, float) and math.isfinite(rewrite) and 0 < rewrite <= cost:
                report.rewrites[route][0] += 1
                report.rewrites[route][1] = round(report.rewrites[route][1] + rewrite, 9)
                if route == "system2":
                    cost -= rewrite
                    moved[day] = moved.get(day, 0.0) + rewrite
            report.routes[route].add(success, cost)
            report.days.setdefault(day, {r: RouteCost() for r in ROUTES})[route].add(success, cost)

    def report(self) -> CostReport:
        """The report of every row added so far (the summary itself is left as it was)."""
        p = self.partial
        report = CostReport({r: replace(c) for r, c in p.routes.items()},
                            {d: {r: replace(c) for r, c in by.items()} for d, by in p.days.items()},
                            p.unmeasured, {r: list(v) for r, v in p.rewrites.items()})
        for day, extra in self.moved.items():  # the way back is a cost of having gone to System 1
            report.routes["system1"].total += extra
            report.days[day]["system1"].total += extra
        return report


@dataclass(frozen=True)
class MeasuredPrice:
    price: float
    extra_usd: float
    """What a System 2 turn costs more than a System 1 turn, on average."""
    value_usd: float
    turns: tuple[int, int]

    def sentence(self) -> str:
        return (f"System 2 costs ${self.extra_usd:.3f} more per turn (measured on {self.turns[0]} System 1 and "
                f"{self.turns[1]} System 2 turns); at ${self.value_usd:.2f} per successful turn that is a price "
                f"of {self.price:.3f}")

    def to_json(self) -> dict[str, JsonValue]:
        turns: list[JsonValue] = [*self.turns]
        return {"price": round(self.price, 6), "extra_usd": round(self.extra_usd, 6), "value_usd": self.value_usd,
                "turns": turns}


def measured_price(report: CostReport, *, value_usd: float, min_turns: int) -> MeasuredPrice | None:
    """The price of a System 2 call from measured costs, once both routes have ``min_turns``."""
    s1, s2 = report.routes["system1"], report.routes["system2"]
    if s1.turns < min_turns or s2.turns < min_turns or value_usd <= 0:
        return None
    extra = s2.mean - s1.mean
    return MeasuredPrice(min(max(extra / value_usd, 0.0), 1.0), extra, value_usd, (s1.turns, s2.turns))
