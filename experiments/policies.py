"""The routing policies compared by the studies. Every one records a propensity.

* :class:`Fixed` — always System 1, always System 2, or a static threshold (0.4).
* :class:`Oracle` — the world's oracle (knows the success curves; simulation only).
* :class:`Product` — the real artibot: ``Router.load(home)`` routes every request with
  ``RoutingPolicy.decide_scored`` (exploration near the threshold, propensity logged),
  each night's records go through ``collect_many`` into a real temporary ARTIBOT home and
  ``learn(home, answers="defaults")`` runs one round; the router is then reloaded. Mode
  ``seed`` is the seed's literal rule, mode ``evidence`` the evidence learner.
* :class:`Thompson` — Thompson sampling per (domain, complexity bin of 0.1) on Beta
  posteriors, with the price of System 2. The probability that the sample picks System 2
  is computed (:func:`thompson_probability`) and the route drawn with it, so the logged
  propensity is exact (it was a normal approximation, off by up to 0.08, in an earlier version).
  A request counts as explored when the route disagrees with the posterior means.
* :class:`EpsilonGreedy` — greedy on the same posteriors' means, a uniformly random
  system with probability epsilon.

Thompson and epsilon-greedy learn online after every request (an idealized baseline:
the product learns once a night).
"""

from __future__ import annotations

import math
import random
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Mapping, Protocol

import numpy as np

from artibot.collector import collect_many
from artibot.config import settings_from_mapping
from artibot.round.cycle import learn
from artibot.errors import StoreError
from artibot.hookpath.record import experience_record
from artibot.hookpath.router.policy import Decision, RoutingPolicy
from artibot.learned_router import Router

EPOCH = datetime(2026, 1, 5, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Routed:
    """A policy's choice for one request."""

    s2: bool
    propensity: float
    threshold: float | None = None
    confidence: float = 1.0
    explored: bool = False


class Policy(Protocol):
    name: str

    def route(self, domain: str, complexity: float, pattern: str | None, index: int) -> Routed: ...

    def feedback(self, domain: str, complexity: float, s2: bool, success: bool) -> None: ...

    def night(self, records: list[dict[str, Any]]) -> None: ...

    def thresholds(self, domains: tuple[str, ...]) -> dict[str, float] | None: ...

    def close(self) -> None: ...


class _Passive:
    """No learning: feedback and nights are ignored."""

    def feedback(self, domain: str, complexity: float, s2: bool, success: bool) -> None:
        return None

    def night(self, records: list[dict[str, Any]]) -> None:
        return None

    def thresholds(self, domains: tuple[str, ...]) -> dict[str, float] | None:
        return None

    def close(self) -> None:
        return None


@dataclass
class Fixed(_Passive):
    """Always System 1 (``threshold=1.01``), always System 2 (``0.0``) or a static threshold."""

    name: str
    threshold: float

    def route(self, domain: str, complexity: float, pattern: str | None, index: int) -> Routed:
        return Routed(complexity >= self.threshold, 1.0, self.threshold)

    def thresholds(self, domains: tuple[str, ...]) -> dict[str, float] | None:
        return {d: self.threshold for d in domains} if 0.0 < self.threshold <= 1.0 else None


@dataclass
class Oracle(_Passive):
    """Routes by a function that knows the truth: ``s2_of(domain, complexity, index) -> bool``."""

    s2_of: Any
    name: str = "oracle"

    def route(self, domain: str, complexity: float, pattern: str | None, index: int) -> Routed:
        return Routed(bool(self.s2_of(domain, complexity, index)), 1.0)


def decide_scored(policy: RoutingPolicy, complexity: float, domain: str, pattern: str | None,
                  rng: random.Random | None) -> Decision:
    """The product's rule for a request whose complexity the world gives.

    ``features`` is passed explicitly: ``RoutingPolicy.decide_scored``'s default for it
    uses ``MappingProxyType``, which ``artibot/hookpath/router/policy.py`` does not import yet.
    """
    return policy.decide_scored(complexity, domain, pattern, rng, features={})


@dataclass
class Product:
    """The real artibot in a temporary home, learning every night (see the module doc)."""

    name: str
    mode: str
    seed: int
    exploration: float = 0.05
    config: Mapping[str, Any] = field(default_factory=dict)
    """Extra config merged over the mode and exploration (e.g. ``system2Cost``)."""
    root: Path | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)
    retries: int = 0

    def __post_init__(self) -> None:
        self._tmp = Path(tempfile.mkdtemp(prefix=f"artibot-{self.mode}-", dir=self.root))
        self.home = self._tmp / "home"
        lifelong = {"mode": self.mode, **dict(self.config.get("lifelong", {}))}
        # the seed's studies keep their first router (explore near the threshold only)
        far = {"domainExploration": 0.0} if self.mode == "seed" else {}
        router = {"exploration": self.exploration, **far, **dict(self.config.get("router", {}))}
        self.settings = settings_from_mapping({"cognitive": {"router": router},
                                               "learning": {"lifelong": lifelong}})
        self._rng = random.Random(self.seed)
        self._load()

    def _load(self) -> None:
        self.router = Router.load(self.home, settings=self.settings, rng=self._rng)

    def reload(self) -> None:
        """Load the router again (after the home was changed from outside this object)."""
        self._load()

    def route(self, domain: str, complexity: float, pattern: str | None, index: int) -> Routed:
        d = decide_scored(self.router.policy, complexity, domain, pattern, self._rng)
        return Routed(d.system == "system2", d.propensity, d.threshold, d.confidence, d.reason == "explore")

    def feedback(self, domain: str, complexity: float, s2: bool, success: bool) -> None:
        return None

    def night(self, records: list[dict[str, Any]]) -> None:
        collect_many(records, home=self.home)
        try:
            report = learn(home=self.home, answers="defaults", settings=self.settings)
        except StoreError:  # a round id drawn twice in one second (see README: product notes)
            self.retries += 1
            report = learn(home=self.home, answers="defaults", settings=self.settings)
        self.rounds.append({"status": report.status, "processed": report.processed,
                            "changes": report.threshold_changes, "transfers": report.transfers})
        self._load()

    def thresholds(self, domains: tuple[str, ...]) -> dict[str, float] | None:
        return {d: self.router.policy.threshold_for(d) for d in domains}

    def cache(self) -> frozenset[str]:
        return self.router.policy.cache

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)


GRID = 2048
_MIDPOINTS = (np.arange(GRID) + 0.5) / GRID


def _density(a: float, b: float) -> np.ndarray:
    """Beta(a, b) probability mass on the :data:`GRID` cells of [0, 1] (midpoint rule, normalized)."""
    logp = (a - 1) * np.log(_MIDPOINTS) + (b - 1) * np.log1p(-_MIDPOINTS)
    w = np.exp(logp - logp.max())
    return w / w.sum()


def thompson_probability(a1: float, b1: float, a2: float, b2: float, price: float) -> float:
    """``P(X2 - price > X1)`` for ``X1 ~ Beta(a1, b1)``, ``X2 ~ Beta(a2, b2)`` independent.

    Both densities on a grid of :data:`GRID` cells; ``P(X2 > x + price)`` from the
    cumulated mass of ``X2``, interpolated. Within ~1e-4 of the exact integral for the
    counts of these studies; the policy then *draws its route with this probability*, so
    the logged propensity is the exact probability of the route taken whatever the
    quadrature error. Clipped into ``[1e-9, 1 - 1e-9]``: both routes stay possible.
    """
    f1, f2 = _density(a1, b1), _density(a2, b2)
    upper = np.concatenate([[0.0], np.cumsum(f2)])  # P(X2 <= edge), at the GRID + 1 cell edges
    edges = np.arange(GRID + 1) / GRID
    sf2 = 1.0 - np.interp(_MIDPOINTS + price, edges, upper, right=1.0)
    p = float(f1 @ sf2)
    return min(1.0 - 1e-9, max(1e-9, p))


class _Cells:
    """Beta(1, 1) posteriors per (domain, complexity bin of 0.1) and system."""

    def __init__(self, price: float) -> None:
        self.price = price
        self.counts: dict[tuple[str, int], list[float]] = {}

    def cell(self, domain: str, c: float) -> list[float]:
        return self.counts.setdefault((domain, min(int(c * 10), 9)), [1.0, 1.0, 1.0, 1.0])  # a1 b1 a2 b2

    def update(self, domain: str, c: float, s2: bool, success: bool) -> None:
        cell = self.cell(domain, c)
        cell[(2 if s2 else 0) + (0 if success else 1)] += 1.0

    def gain(self, domain: str, c: float) -> float:
        """Posterior mean advantage of System 2 net of its price (the routing score)."""
        a1, b1, a2, b2 = self.cell(domain, c)
        return a2 / (a2 + b2) - a1 / (a1 + b1) - self.price


@dataclass
class Thompson(_Passive):
    """Thompson sampling per (domain, complexity bin); ``rng`` drives the samples."""

    price: float
    seed: int
    name: str = "thompson"

    def __post_init__(self) -> None:
        self.cells = _Cells(self.price)
        self.rng = np.random.default_rng(self.seed)

    def route(self, domain: str, complexity: float, pattern: str | None, index: int) -> Routed:
        a1, b1, a2, b2 = self.cells.cell(domain, complexity)
        # P(a draw of p2 - price beats a draw of p1), computed, then used to randomize: the
        # route has exactly the distribution of Thompson sampling, and the logged propensity
        # is exactly the probability of the route taken (IPS on these logs is unbiased)
        p_s2 = thompson_probability(a1, b1, a2, b2, self.price)
        s2 = self.rng.random() < p_s2
        p = p_s2 if s2 else 1.0 - p_s2
        m1, m2 = a1 / (a1 + b1), a2 / (a2 + b2)
        greedy = m2 - self.price > m1
        return Routed(bool(s2), float(p), None, float(p), bool(s2 != greedy))

    def feedback(self, domain: str, complexity: float, s2: bool, success: bool) -> None:
        self.cells.update(domain, complexity, s2, success)


@dataclass
class EpsilonGreedy(_Passive):
    """Greedy on posterior means per (domain, complexity bin), a random system with probability epsilon."""

    price: float
    seed: int
    epsilon: float = 0.05
    name: str = "epsilon-greedy"

    def __post_init__(self) -> None:
        self.cells = _Cells(self.price)
        self.rng = random.Random(self.seed)

    def route(self, domain: str, complexity: float, pattern: str | None, index: int) -> Routed:
        greedy = self.cells.gain(domain, complexity) > 0
        explore = self.rng.random() < self.epsilon
        s2 = self.rng.random() < 0.5 if explore else greedy
        p = self.epsilon / 2 + (1 - self.epsilon) * (s2 == greedy)
        return Routed(bool(s2), p, None, p, explore and s2 != greedy)

    def feedback(self, domain: str, complexity: float, s2: bool, success: bool) -> None:
        self.cells.update(domain, complexity, s2, success)


def make_record(index: int, domain: str, complexity: float, routed: Routed, outcome: str, latency_ms: float,
                pattern: str | None = None, text: str | None = None, run: str = "sim") -> dict[str, Any]:
    """The experience record (:mod:`artibot.experience`) of one simulated request; one second per request."""
    return dict(experience_record(
        id=f"{run}-{index:07d}", timestamp=(EPOCH + timedelta(seconds=index)).isoformat(),
        session_id=f"{run}-{index // 500}", input=text if text is not None else f"{domain} request {index}",
        domain=domain, complexity=float(complexity), routed_to="system2" if routed.s2 else "system1",
        outcome=outcome, latency_ms=float(latency_ms), confidence=float(routed.confidence),
        pattern=pattern, threshold=routed.threshold, propensity=float(routed.propensity), agent="simulation",
    ))


def standard_policies(price: float, seed: int, *, exploration: float = 0.05, root: Path | None = None,
                      include: tuple[str, ...] | None = None, evidence_config: Mapping[str, Any] | None = None,
                      seed_exploration: float | None = None) -> list[Any]:
    """The policies of one comparison (``include`` filters by name)."""
    ev_config = {"lifelong": {"system2Cost": price}, **dict(evidence_config or {})}
    made = {
        "always-s1": lambda: Fixed("always-s1", 1.01),
        "always-s2": lambda: Fixed("always-s2", 0.0),
        "static-0.4": lambda: Fixed("static-0.4", 0.4),
        "seed": lambda: Product("seed", "seed", seed, exploration if seed_exploration is None else seed_exploration,
                                root=root),
        "evidence": lambda: Product("evidence", "evidence", seed, exploration, ev_config, root=root),
        "thompson": lambda: Thompson(price, seed),
        "epsilon-greedy": lambda: EpsilonGreedy(price, seed),
    }
    names = include or tuple(made)
    return [made[n]() for n in names]
