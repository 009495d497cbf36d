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
* **What share of the bill is that?** ``saved / all-System-2 total``, the interval's ends
  divided by the same total (the total is the routed bill plus the estimate, taken as fixed).
* **How many more redos did routing cause?** A redo is a turn the person has to ask again:
  a System 1 turn that ``failed`` or was ``escalated`` (the session's next turn then goes
  to System 2), or a System 2 turn that ``failed``. Over every judged turn, measured cost
  or not, the routed redo rate is ``(f1 + f2) / (n1 + n2)``; System 2 alone, at its own
  failure rate ``q = f2 / n2`` on every turn, would have had ``q``. The difference is
  ``n1 / (n1 + n2) * (f1 / n1 - q)``: System 1's share times the gap between the two
  routes' failure rates, given per 100 turns, with Newcombe's 95% interval for a
  difference of two rates (each rate's Wilson interval). System 2's rate is measured on
  the harder prompts, so it overstates what System 2 would have failed on System 1's
  easier ones: the extra redos lean low, the same way the saving leans high.
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
>>> round(report.saved_share.estimate, 3)  # 0.08 of an all-System-2 bill of 0.16 + 0.08
0.333
>>> report.redos.extra.estimate  # no System 1 turn failed; System 2 failed 1 of 2: 2/4 of 50 fewer
-25.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from artibot.messages import Message
from artibot.shapes import JsonValue

Z95 = 1.959963984540054
ROUTES = ("system1", "system2")
FAILURES = ("failed", "escalated")
"""The outcomes of a turn the person has to ask again (``interrupted`` is neither: the turn was cut
off by something other than the route)."""

Outcome = bool | str
"""A turn's outcome: ``success``, ``failed``, ``escalated`` or ``interrupted``; ``True`` is a
success and ``False`` a failure."""


def is_success(outcome: Outcome) -> bool:
    return outcome is True or outcome == "success"


def is_failure(outcome: Outcome) -> bool:
    return outcome is False or outcome in FAILURES


@dataclass
class RouteCost:
    """Turns of one route with a measured cost: count, successes, failures (failed or escalated),
    sum and sum of squares."""

    turns: int = 0
    successes: int = 0
    total: float = 0.0
    squares: float = 0.0
    failures: int = 0

    def add(self, outcome: Outcome, cost: float) -> None:
        self.turns += 1
        self.successes += is_success(outcome)
        self.failures += is_failure(outcome)
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
                "failures": self.failures, "total_usd": round(self.total, 6), "mean_usd": round(self.mean, 6),
                "sd_usd": round(math.sqrt(self.variance), 6)}


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"estimate": round(self.estimate, 6), "low": round(self.low, 6), "high": round(self.high, 6)}

    def scaled(self, factor: float) -> Interval:
        return Interval(self.estimate * factor, self.low * factor, self.high * factor)


def wilson(k: int, n: int) -> Interval:
    """The rate ``k / n`` and its 95% Wilson score interval (``n`` > 0).

    >>> w = wilson(2, 20)  # centre (0.1 + 3.8415/40) / (1 + 3.8415/20) = 0.16445, half 0.13658
    >>> round(w.estimate, 3), round(w.low, 4), round(w.high, 4)
    (0.1, 0.0279, 0.301)
    >>> wilson(0, 10).low
    0.0
    """
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Interval(p, max(centre - half, 0.0), min(centre + half, 1.0))


def rate_difference(k1: int, n1: int, k2: int, n2: int) -> Interval:
    """``k1/n1 - k2/n2`` and Newcombe's 95% interval for it (the hybrid score method: each end
    from the two rates' Wilson intervals), which keeps its width when a rate is 0 or 1 as the
    plain normal interval does not.

    >>> d = rate_difference(12, 80, 2, 20)  # 0.15 (0.0879 to 0.2441) - 0.10 (0.0279 to 0.3010)
    >>> round(d.estimate, 3), round(d.low, 4), round(d.high, 4)  # 0.05 -/+ hypot(0.0621, 0.2010), (0.0941, 0.0721)
    (0.05, -0.1604, 0.1686)
    """
    a, b = wilson(k1, n1), wilson(k2, n2)
    d = a.estimate - b.estimate
    return Interval(d, d - math.hypot(a.estimate - a.low, b.high - b.estimate),
                    d + math.hypot(a.high - a.estimate, b.estimate - b.low))


@dataclass(frozen=True)
class Redos:
    """Redos per 100 turns, routed and with System 2 alone, and the extra that routing caused."""

    routed: float
    system2_alone: float
    extra: Interval
    turns: tuple[int, int]
    """Judged turns (success, failed or escalated) of System 1 and of System 2."""
    failures: tuple[int, int]

    def to_json(self) -> dict[str, JsonValue]:
        turns: list[JsonValue] = [*self.turns]
        failures: list[JsonValue] = [*self.failures]
        return {"routed_per_100": round(self.routed, 6), "system2_alone_per_100": round(self.system2_alone, 6),
                "extra_per_100": dict[str, JsonValue](self.extra.to_json()), "turns": turns, "failures": failures}


def redos(f1: int, n1: int, f2: int, n2: int) -> Redos | None:
    """Redos per 100 turns from each route's failures and judged turns (None: a route has no turn).

    Routed: ``(f1 + f2) / (n1 + n2)``; System 2 alone: ``f2 / n2`` on every turn; the extra,
    their difference, is ``n1 / (n1 + n2)`` times the two routes' failure rates' difference,
    and so is its interval.

    >>> r = redos(12, 80, 2, 20)  # 14 redos in 100 turns; System 2 alone 10 in 100; 0.8 * (15 - 10) more
    >>> r.routed, r.system2_alone, round(r.extra.estimate, 6)
    (14.0, 10.0, 4.0)
    >>> round(r.extra.low, 2), round(r.extra.high, 2)
    (-12.83, 13.49)
    """
    if n1 <= 0 or n2 <= 0:
        return None
    n = n1 + n2
    return Redos(100 * (f1 + f2) / n, 100 * f2 / n2, rate_difference(f1, n1, f2, n2).scaled(100 * n1 / n),
                 (n1, n2), (f1, f2))


@dataclass
class Judged:
    """Turns of one route with a judged outcome (success, failed or escalated), measured cost or
    not, and how many of them failed or were escalated."""

    turns: int = 0
    failures: int = 0


@dataclass
class CostReport:
    routes: dict[str, RouteCost] = field(default_factory=lambda: {r: RouteCost() for r in ROUTES})
    days: dict[str, dict[str, RouteCost]] = field(default_factory=dict)
    unmeasured: int = 0
    """Turns without a measured cost (recorded without the gateway)."""
    rewrites: dict[str, list[Any]] = field(default_factory=lambda: {r: [0, 0.0] for r in ROUTES})
    """Per route: turns whose requests wrote the cached prefix again, and what that cost over reading it."""
    judged: dict[str, Judged] = field(default_factory=lambda: {r: Judged() for r in ROUTES})
    """Per route: every turn with a judged outcome, measured cost or not (for the redos)."""

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

    @property
    def saved_share(self) -> Interval | None:
        """The saving as a share of the all-System-2 bill, its interval divided by the same bill."""
        saved, whole = self.saved, self.all_system2_total
        if saved is None or whole is None or whole <= 0:
            return None
        return saved.scaled(1 / whole)

    @property
    def redos(self) -> Redos | None:
        """Redos per 100 turns, routed against System 2 alone (None: a route has no judged turn)."""
        s1, s2 = self.judged["system1"], self.judged["system2"]
        return redos(s1.failures, s1.turns, s2.failures, s2.turns)

    def to_json(self) -> dict[str, Any]:
        saved, share, redone = self.saved, self.saved_share, self.redos
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
            "note": str(SAVING_NOTE),
            "saved_share": None if share is None else share.to_json(),
            "judged": {r: {"turns": j.turns, "failures": j.failures} for r, j in self.judged.items()},
            "redos": None if redone is None else redone.to_json(),
            "redo_note": str(REDO_NOTE),
        }


SAVING_NOTE = Message("costs.saving_note")
"""How the saving is estimated, and which way it leans (the report's ``note``)."""

REDO_NOTE = Message("costs.redo_note")
"""How the extra redos are counted, and which way they lean (the report's ``redo_note``)."""


Row = tuple[str, str, Outcome, float | None] | tuple[str, str, Outcome, float | None, float]
"""One turn: ``(routed_to, day, outcome, cost_usd or None[, rewrite_usd])``."""


def summarize(rows: Iterable[Row]) -> CostReport:
    """A report from ``(routed_to, day, outcome, cost_usd or None[, rewrite_usd])`` per turn.

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

    def add(self, rows: Iterable[Row]) -> None:
        report, moved = self.partial, self.moved
        for row in rows:
            route, day, outcome, cost = row[:4]
            rewrite = row[4] if len(row) > 4 else 0.0
            if route not in ROUTES:
                continue
            if is_success(outcome) or is_failure(outcome):
                report.judged[route].turns += 1
                report.judged[route].failures += is_failure(outcome)
            if cost is None or not math.isfinite(cost) or cost < 0:
                report.unmeasured += 1
                continue
            if isinstance(rewrite, float) and math.isfinite(rewrite) and 0 < rewrite <= cost:
                report.rewrites[route][0] += 1
                report.rewrites[route][1] = round(report.rewrites[route][1] + rewrite, 9)
                if route == "system2":
                    cost -= rewrite
                    moved[day] = moved.get(day, 0.0) + rewrite
            report.routes[route].add(outcome, cost)
            report.days.setdefault(day, {r: RouteCost() for r in ROUTES})[route].add(outcome, cost)

    def report(self) -> CostReport:
        """The report of every row added so far (the summary itself is left as it was)."""
        p = self.partial
        report = CostReport({r: replace(c) for r, c in p.routes.items()},
                            {d: {r: replace(c) for r, c in by.items()} for d, by in p.days.items()},
                            p.unmeasured, {r: list(v) for r, v in p.rewrites.items()},
                            {r: replace(j) for r, j in p.judged.items()})
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
