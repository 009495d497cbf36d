"""The price of a System 2 call, decided in one place.

Two objectives (``learning.lifelong.objective``):

* ``"cost"`` (the default): **the expected cost of a turn that gets done**. A System 1 attempt
  costs its own price ``c1``; when it fails, the person asks again and the retry runs at System 2,
  so it also costs ``c2`` and the person's time for the redo (``redoCostUsd``). System 1 goes
  first where ``c1 + (1 - p1) (c2 + redo) < c2``, that is where System 1's failure rate
  ``1 - p1`` is below the break-even rate ``q = (c2 - c1) / (c2 + redo)``. Per complexity bin the
  learner weighs ``(1 - p1) - q`` (System 2's saving per request, in units of ``c2 + redo``)
  the way the success objective weighs ``p2 - p1 - price``, so the threshold choice, its
  evidence rule and its trust region are the same; the price is ``q``. ``c1`` and ``c2`` are
  the turns' measured cost per route (:class:`RouteCosts`), each shrunk toward the price
  table's prior by :data:`PRIOR_TURNS` turns, so a route with few measured turns follows the
  prior and one with many its own measurements.
* ``"success"``: utility per request is ``P(success) - price * [System 2]``. The price is
  ``system2Cost`` (set by hand), else the one at which the best thresholds would send
  ``targetSystem2Share`` of the traffic to System 2 (a budget), else the measured one
  (``successValueUsd`` set, enough measured turns: :mod:`artibot.learning.route_costs`), else
  System 2's average advantage in the logged traffic, shrunk toward :data:`PRIOR_PRICE`
  (:func:`artibot.learning.empirical_bayes.estimated_price`).

An explicit ``system2Cost``, ``targetSystem2Share`` or ``successValueUsd`` is a choice of the
success objective and wins over the default (:func:`objective`). :func:`decide` is a round's
rule, and its :class:`Price` says which source it took (``source``). :func:`in_force` is the
same rule seen from outside a round (``artibot status``). This module imports no numpy until a
round decides (the status command reads it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from artibot.config.settings import Settings
from artibot.shapes import JsonValue
from artibot.messages import Message

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from artibot.learning.bandit import Fit
    from artibot.learning.route_costs import MeasuredPrice

SOURCES = ("cost", "system2Cost", "targetSystem2Share", "measured", "estimated")
OBJECTIVES = ("cost", "success")
PRIOR_PRICE = 0.05
"""The success objective's price before there is evidence (and the pull of a little evidence):
the estimate's starting value, toward which it is shrunk."""

PRIOR_SYSTEM2_USD = 0.10
"""A System 2 turn's cost before any is measured: a coding agent's turn of about two requests,
each reading some 50k cached tokens and writing 2k tokens of output, at Claude Opus 4.5's list
prices ($0.50 and $25 per million), is about $0.10."""
EFFORT_COST = {"low": 0.25, "medium": 0.5, "high": 1.0, "max": 1.3}
"""A turn's cost at each effort relative to ``high``, before any is measured: Anthropic's cost
guidance reports, on a SWE-bench Pro subset, ``medium`` at about half the cost of ``high`` and
``low`` at about a quarter (fewer tool calls and less thinking); ``max`` is our guess. A route
that keeps the client's effort (``null``) is taken at ``medium``, what Claude Code sends by default."""
PRIOR_TURNS = 10.0
"""How many measured turns the prior cost of a route weighs: with ``n`` measured turns the
estimate is ``(n * mean + PRIOR_TURNS * prior) / (n + PRIOR_TURNS)``."""

MeasuredJSON = Mapping[str, JsonValue]


@dataclass(frozen=True)
class RouteCosts:
    """What a turn costs on each route and what a redo costs the person: the cost objective's inputs.

    >>> c = RouteCosts(0.02, 0.10, 0.10, (40, 12), (0.025, 0.10))
    >>> round(c.break_even, 3)  # (0.10 - 0.02) / (0.10 + 0.10)
    0.4
    >>> round(c.saving_usd(0.25), 3)  # System 1 first on a turn it fails 25% of the time: 0.02 + 0.25 * 0.2 = 0.07
    0.03
    """

    system1_usd: float
    system2_usd: float
    redo_usd: float
    turns: tuple[int, int] = (0, 0)
    """Measured turns behind each route's estimate."""
    prior_usd: tuple[float, float] = (0.0, 0.0)
    """The price table's prior of each route's cost."""

    @property
    def break_even(self) -> float:
        """System 1's failure rate below which trying it first pays: ``(c2 - c1) / (c2 + redo)``, in [0, 1]."""
        denominator = self.system2_usd + self.redo_usd
        if denominator <= 0:
            return 0.0
        return float(min(max((self.system2_usd - self.system1_usd) / denominator, 0.0), 1.0))

    @property
    def unit_usd(self) -> float:
        """What one unit of the objective is in dollars: a failed System 1 try's retry and redo, ``c2 + redo``."""
        return self.system2_usd + self.redo_usd

    def saving_usd(self, failure: float) -> float:
        """Dollars per turn that trying System 1 first saves against System 2, at System 1's ``failure`` rate."""
        return self.system2_usd - (self.system1_usd + failure * (self.system2_usd + self.redo_usd))

    def to_json(self) -> dict[str, JsonValue]:
        return {"system1_usd": round(self.system1_usd, 6), "system2_usd": round(self.system2_usd, 6),
                "redo_usd": round(self.redo_usd, 6), "turns": [*self.turns],
                "prior_usd": [round(self.prior_usd[0], 6), round(self.prior_usd[1], 6)],
                "break_even": round(self.break_even, 6)}

    @classmethod
    def from_json(cls, d: Mapping[str, JsonValue]) -> RouteCosts:
        def number(key: str) -> float:
            v = d.get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ValueError(f"route_costs.{key} must be a number of dollars >= 0, not {v!r}")
            return float(v)

        def pair(key: str) -> tuple[float, float]:
            v = d.get(key)
            if not isinstance(v, list) or len(v) != 2 or not all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
                raise ValueError(f"route_costs.{key} must be a list of two numbers, not {v!r}")
            return float(v[0]), float(v[1])  # type: ignore[arg-type]

        turns = pair("turns")
        return cls(number("system1_usd"), number("system2_usd"), number("redo_usd"),
                   (int(turns[0]), int(turns[1])), pair("prior_usd"))


@dataclass(frozen=True)
class Price:
    """The price a round used and where it came from."""

    value: float
    source: str
    target_system2_share: float | None = None
    """The configured share, when there is one (the round records it whatever the source)."""
    measured_cost: MeasuredJSON | None = None
    """The measured costs the price came from (:meth:`artibot.learning.route_costs.MeasuredPrice.to_json`)."""
    costs: RouteCosts | None = None
    """The cost objective's inputs (source ``cost``)."""

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(Message("value.one_of", key="price: source", options=", ".join(SOURCES),
                                     value=repr(self.source)))

    @property
    def cascade(self) -> bool:
        """Whether the price is the cost objective's break-even failure rate (System 1 first, then System 2)."""
        return self.source == "cost"


def objective(settings: Settings) -> str:
    """``"cost"`` or ``"success"``: the configured objective, unless a price of the success
    objective is set by hand (``system2Cost``, ``targetSystem2Share``, ``successValueUsd``)."""
    return settings.lifelong.chosen_objective()


def prior_costs(settings: Settings) -> tuple[float, float]:
    """Each route's cost per turn before any is measured, from the gateway's profiles: System 2 at
    :data:`PRIOR_SYSTEM2_USD`, System 1 at the ratio of their efforts (:data:`EFFORT_COST`) and,
    when System 1 switches to a model the price table knows, of the two models' output prices."""
    profiles = settings.gateway_profiles
    effort1, model1 = profiles.system1 if profiles.system1 else ("low", None)
    effort2, model2 = profiles.system2 if profiles.system2 else (None, None)
    ratio = EFFORT_COST[effort1 or "medium"] / EFFORT_COST[effort2 or "medium"]
    if model1:
        from artibot.gateway.price_table import configured as price_table

        table = price_table(settings.gateway_pricing)
        row1 = table.row(model1)
        row2 = table.row(model2) if model2 else None
        if row1 is not None and row2 is not None and row2["output"] > 0:
            ratio *= row1["output"] / row2["output"]
    return PRIOR_SYSTEM2_USD * ratio, PRIOR_SYSTEM2_USD


def route_costs(settings: Settings, measured: Mapping[str, tuple[int, float]] | None = None) -> RouteCosts:
    """The cost objective's inputs: per route ``(turns, mean cost)`` measured (None: nothing
    measured), each shrunk toward :func:`prior_costs` by :data:`PRIOR_TURNS`.

    >>> from artibot.config.settings import Settings
    >>> c = route_costs(Settings(), {"system1": (30, 0.04), "system2": (10, 0.20)})
    >>> round(c.system1_usd, 4), round(c.system2_usd, 4), c.turns  # (30*0.04 + 10*0.05)/40, (10*0.2 + 10*0.1)/20
    (0.0425, 0.15, (30, 10))
    """
    prior = prior_costs(settings)
    measured = measured or {}
    estimates, turns = [], []
    for route, p in zip(("system1", "system2"), prior):
        n, mean = measured.get(route, (0, 0.0))
        n = max(int(n), 0)
        estimates.append((n * float(mean) + PRIOR_TURNS * p) / (n + PRIOR_TURNS))
        turns.append(n)
    return RouteCosts(estimates[0], estimates[1], settings.lifelong.redo_cost_usd, (turns[0], turns[1]), prior)


def configured(settings: Settings) -> Price | None:
    """The price set by hand (``system2Cost``), which every other source gives way to."""
    cost = settings.lifelong.system2_cost
    return None if cost is None else Price(float(cost), "system2Cost", settings.lifelong.target_system2_share)


def decide(settings: Settings, fits: Mapping[str, Fit], cells: Mapping[str, np.ndarray], lo: float, hi: float,
           measured: MeasuredPrice | None = None, costs: RouteCosts | None = None) -> Price:
    """A round's price from the evidence it holds (``fits``, ``cells``: per domain), the turns'
    measured costs (``costs``: the cost objective's inputs; ``measured``: the success objective's
    measured price)."""
    from artibot.learning import bandit
    from artibot.learning import empirical_bayes
    from artibot.learning.bandit import N1, N2

    share = settings.lifelong.target_system2_share
    measured_json = measured.to_json() if measured is not None else None
    if objective(settings) == "cost":
        costs = costs if costs is not None else route_costs(settings)
        return Price(costs.break_even, "cost", share, measured_json, costs)
    fixed = configured(settings)
    if fixed is not None:
        return Price(fixed.value, fixed.source, share, measured_json)
    if share is not None and fits:
        weights = {name: float(cells[name][:, [N1, N2]].sum()) for name in fits}
        return Price(bandit.price_for_share(fits, weights, share, lo, hi), "targetSystem2Share", share, measured_json)
    if measured is not None:
        return Price(measured.price, "measured", share, measured_json)
    return Price(empirical_bayes.estimated_price(cells), "estimated", share, measured_json)


def in_force(settings: Settings, last: Price | None) -> Price | None:
    """The price the learner uses now (None in seed mode): configured, else ``last`` (what the
    last round of this mode decided, when it used the same objective), else the starting value."""
    if settings.lifelong.mode == "seed":
        return None
    fixed = configured(settings)
    if fixed is not None:
        return fixed
    cost = objective(settings) == "cost"
    if last is not None and last.cascade == cost:
        return last
    if cost:
        costs = route_costs(settings)
        return Price(costs.break_even, "cost", None, None, costs)
    share = settings.lifelong.target_system2_share
    return Price(PRIOR_PRICE, "targetSystem2Share" if share is not None else "estimated", share)


__all__ = ["EFFORT_COST", "OBJECTIVES", "PRIOR_PRICE", "PRIOR_SYSTEM2_USD", "PRIOR_TURNS", "Price", "RouteCosts",
           "SOURCES", "configured", "decide", "in_force", "objective", "prior_costs", "route_costs"]
