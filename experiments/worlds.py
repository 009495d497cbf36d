"""Simulated worlds with a known ground truth, and their oracle.

A request has a domain and a complexity ``c`` in [0, 1]. Per domain, System 2 succeeds
with ``p2(c) = 0.97 - 0.25 c`` and System 1 with ``p1(c) = p2(c) - gain(c)``, where
System 2's *gain* is a ramp that is 0 for easy requests, equals the price of a System 2
call exactly at the domain's break-even complexity ``t*`` and grows past it::

    gain(c) = clip(price + slope * (c - t*), 0, 0.45)

The ramp is deliberately not a logistic curve (the evidence learner fits logistic
curves, so the world does not hand it its own model).

The **utility** of one request is ``1[success] - price * 1[System 2]`` (the product's
``system2Cost``, how many points of success one System 2 call must buy). The **oracle**
knows ``p1`` and ``p2`` and takes ``argmax(p1, p2 - price)`` per request; since the gain
grows with complexity that is the threshold rule ``System 2 iff c > t*`` (``t* = 1``
where System 1 is as good as System 2 everywhere). Clamped to the router's bounds
``[0.1, 0.9]`` it is the best policy the product can express.

Money and time are reported beside the utility: System 2 costs 12x System 1 and is
~10x slower; a System 1 failure is noticed and escalated (then paid for twice) with
probability ``escalate``, else it stays a silent failure.

* **W1**: six domains, break-even points 0.2-0.8 and one domain (``docs``) where
  System 1 is as good as System 2 everywhere.
* **W2**: W1 with a drift half-way: System 1 gets better in ``backend`` (``t*`` 0.5 ->
  0.75) and worse in ``data`` (``t*`` 0.65 -> 0.35).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy import stats

MAX_GAIN = 0.45
EXPLORATION_BAND = 0.15  # the router's band (artibot.hookpath.router.policy.EXPLORATION_BAND)


@dataclass(frozen=True)
class DomainSpec:
    """One domain: its complexity distribution and where System 2 starts paying off."""

    name: str
    beta: tuple[float, float]
    """Complexity ~ Beta(a, b)."""
    t_star: float | None
    """Break-even complexity (gain == price); None: System 1 as good as System 2 everywhere."""
    slope: float = 1.0
    """Growth of System 2's gain per unit of complexity past the break-even point."""

    def gain(self, c: np.ndarray, price: float) -> np.ndarray:
        if self.t_star is None:
            return np.zeros_like(c, dtype=float)
        return np.clip(price + self.slope * (c - self.t_star), 0.0, MAX_GAIN)


@dataclass(frozen=True)
class Drift:
    """From request ``at`` on, ``domain`` has break-even point ``t_star``."""

    at: int
    domain: str
    t_star: float | None


@dataclass(frozen=True)
class World:
    name: str
    domains: tuple[DomainSpec, ...]
    price: float = 0.05
    """Utility price of one System 2 call (the product's ``system2Cost``)."""
    escalate: float = 0.7
    """Probability that a System 1 failure is noticed and escalated to System 2."""
    s1_cost: float = 1.0
    s2_cost: float = 12.0
    s1_latency_ms: float = 1500.0
    s2_latency_ms: float = 15000.0
    drifts: tuple[Drift, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.domains)

    def spec(self, d: int, t: int = 0) -> DomainSpec:
        """Domain ``d`` as it is at request ``t`` (after the drifts that happened)."""
        spec = self.domains[d]
        for drift in self.drifts:
            if drift.domain == spec.name and t >= drift.at:
                spec = replace(spec, t_star=drift.t_star)
        return spec

    def probs(self, d: int, c: np.ndarray, t: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """``(p1, p2)``: success probabilities of System 1 and 2 at complexities ``c``."""
        c = np.asarray(c, dtype=float)
        p2 = 0.97 - 0.25 * c
        p1 = np.maximum(0.02, p2 - self.spec(d, t).gain(c, self.price))
        return p1, p2

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``n`` requests: domain indices (uniform) and complexities (each domain's Beta)."""
        d = rng.integers(0, len(self.domains), n)
        c = np.empty(n)
        for i, spec in enumerate(self.domains):
            mask = d == i
            c[mask] = rng.beta(*spec.beta, mask.sum())
        return d, np.round(c, 4)

    def utility(self, d: np.ndarray, c: np.ndarray, s2: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Expected utility of routing each request (``s2``: True for System 2); ``t`` request indices."""
        d, c, s2, t = (np.asarray(x) for x in (d, c, s2, t))
        out = np.empty(len(d))
        for key in set(zip(d.tolist(), self._epochs(t).tolist())):
            dom, epoch = key
            mask = (d == dom) & (self._epochs(t) == epoch)
            p1, p2 = self.probs(dom, c[mask], self._epoch_start(epoch))
            out[mask] = np.where(s2[mask], p2 - self.price, p1)
        return out

    def oracle_s2(self, d: np.ndarray, c: np.ndarray, t: np.ndarray) -> np.ndarray:
        """The oracle's route per request: System 2 iff ``p2 - price > p1``."""
        d, c, t = (np.asarray(x) for x in (d, c, t))
        u1 = self.utility(d, c, np.zeros(len(d), bool), t)
        u2 = self.utility(d, c, np.ones(len(d), bool), t)
        return u2 > u1

    def oracle_thresholds(self, t: int = 0, lo: float = 0.1, hi: float = 0.9) -> dict[str, float]:
        """Per domain, the oracle's threshold clamped to the router's bounds."""
        out = {}
        for i, spec in enumerate(self.domains):
            star = self.spec(i, t).t_star
            out[spec.name] = float(np.clip(1.0 if star is None else star, lo, hi))
        return out

    def draw(self, d: np.ndarray, c: np.ndarray, s2: np.ndarray, t: np.ndarray,
             rng: np.random.Generator) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Outcomes (``success``/``escalated``/``failed``), latency (ms) and money cost per request."""
        d, c, s2, t = (np.asarray(x) for x in (d, c, s2, t))
        u = self.utility(d, c, s2, t) + self.price * s2  # success probability of the route taken
        ok = rng.random(len(d)) < u
        noticed = rng.random(len(d)) < self.escalate
        outcome = np.where(ok, "success", np.where(s2, "failed", np.where(noticed, "escalated", "failed")))
        escalated = outcome == "escalated"
        latency = np.where(s2, self.s2_latency_ms, self.s1_latency_ms) * rng.lognormal(0.0, 0.3, len(d))
        latency = latency + escalated * self.s2_latency_ms
        cost = np.where(s2, self.s2_cost, self.s1_cost) + escalated * self.s2_cost
        return outcome.tolist(), np.round(latency, 1), cost

    def threshold_utility(self, thresholds: dict[str, float], t: int = 0, exploration: float = 0.0,
                          grid: int = 2001) -> float:
        """Expected utility per request of the threshold rule (with the router's exploration)."""
        c = np.linspace(0.0, 1.0, grid)
        total = 0.0
        for i, spec in enumerate(self.domains):
            w = stats.beta.pdf(np.clip(c, 1e-6, 1 - 1e-6), *spec.beta)
            w /= w.sum()
            th = thresholds.get(spec.name, 0.4)
            p_s2 = (c >= th).astype(float)
            near = np.abs(c - th) <= EXPLORATION_BAND
            p_s2 = np.where(near, p_s2 * (1 - exploration) + (1 - p_s2) * exploration, p_s2)
            p1, p2 = self.probs(i, c, t)
            total += float(np.sum(w * ((1 - p_s2) * p1 + p_s2 * (p2 - self.price))))
        return total / len(self.domains)

    def oracle_utility(self, t: int = 0, grid: int = 2001) -> float:
        """Expected utility per request of the oracle (unbounded: it knows p1 and p2)."""
        c = np.linspace(0.0, 1.0, grid)
        total = 0.0
        for i, spec in enumerate(self.domains):
            w = stats.beta.pdf(np.clip(c, 1e-6, 1 - 1e-6), *spec.beta)
            w /= w.sum()
            p1, p2 = self.probs(i, c, t)
            total += float(np.sum(w * np.maximum(p1, p2 - self.price)))
        return total / len(self.domains)

    # drift epochs: requests between two drift points share the same ground truth
    def _epochs(self, t: np.ndarray) -> np.ndarray:
        points = sorted({dr.at for dr in self.drifts})
        return np.searchsorted(np.asarray(points, dtype=float), np.asarray(t, dtype=float), side="right")

    def _epoch_start(self, epoch: int) -> int:
        points = sorted({dr.at for dr in self.drifts})
        return 0 if epoch == 0 else points[epoch - 1]


W1_DOMAINS = (
    DomainSpec("security", (2.5, 2.5), 0.20, 1.2),
    DomainSpec("frontend", (2.0, 3.0), 0.35, 1.0),
    DomainSpec("backend", (2.5, 2.5), 0.50, 1.0),
    DomainSpec("data", (3.0, 2.5), 0.65, 1.5),
    DomainSpec("devops", (3.0, 2.0), 0.80, 1.5),
    DomainSpec("docs", (2.0, 3.0), None),
)


def w1(price: float = 0.05) -> World:
    """W1: six domains, break-even points spread over 0.2-0.8, System 1 as good in ``docs``."""
    return World("W1", W1_DOMAINS, price=price)


def w2(drift_at: int = 10_000, price: float = 0.05) -> World:
    """W2: W1 where System 1 gets better in ``backend`` and worse in ``data`` at request ``drift_at``."""
    return World("W2", W1_DOMAINS, price=price,
                 drifts=(Drift(drift_at, "backend", 0.75), Drift(drift_at, "data", 0.35)))
