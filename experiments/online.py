"""The online protocol: the product as a user gets it, on real outcomes.

Fresh ``ARTIBOT_HOME``, no config file (the shipped defaults; a mode comparison adds only
``{"learning": {"lifelong": {"mode": M}}}``). One pass over a file's rows shuffled with
``random.Random(seed)``. Each row: ``Router.route(prompt, domain=subject)``; the chosen
system's recorded outcome goes through ``artibot.collect`` with ``input`` = prompt[:200],
``latency_ms`` 200 / 2000 and the decision's ``complexity``, ``confidence``, ``pattern``,
``threshold``, ``propensity``. Every ``night`` rows ``learn(answers="defaults")`` runs and
the router is reloaded. Score over the second half of the pass: PGR − System 2 share,
with PGR = (accuracy − always-S1's) / (always-S2's − always-S1's) on those rows.

The router's random source is the product's own, unseeded one (``Router.load`` without
an ``rng``), so a figure averages over its draws as a user's would; ``router_seed``
seeds it to replay one run exactly. Baselines that are not the product (Thompson sampling, ε-greedy, the fixed
routers) see the same rows in the same order, the product's complexity score and the
subject, and the same bandit feedback; they learn after every row (an idealized baseline).

**Subject split.** ``mmlu-dev.csv``'s 28 subjects are cut once, in :data:`TUNING` (14
subjects the learner's constants were tuned on) and :data:`HELD_OUT` (the other 14,
never looked at while tuning). A run on a half keeps only that half's rows.
"""

from __future__ import annotations

import csv
import random
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from artibot.collector import collect
from artibot.config import settings_from_mapping
from artibot.round.cycle import learn
from artibot.errors import StoreError
from artibot.hookpath.record import experience_record
from artibot.hookpath.router.complexity import score
from artibot.learned_router import Router
from experiments.policies import Thompson, EpsilonGreedy

TUNING = (
    "astronomy", "college_chemistry", "conceptual_physics", "electrical_engineering", "high_school_biology",
    "high_school_macroeconomics", "high_school_physics", "high_school_world_history", "jurisprudence",
    "machine_learning", "miscellaneous", "philosophy", "professional_accounting", "public_relations",
)
"""The 14 MMLU subjects the constants were tuned on: ``subject_split(all 28)[0]``, cut
before any tuning (a test checks that the split reproduces these lists)."""
HELD_OUT = (
    "abstract_algebra", "clinical_knowledge", "college_mathematics", "college_physics", "formal_logic",
    "high_school_computer_science", "high_school_geography", "high_school_statistics", "human_sexuality",
    "marketing", "moral_scenarios", "professional_medicine", "sociology", "virology",
)
"""The 14 MMLU subjects no constant was tuned on."""
SPLIT_SEED = 9


def subject_split(subjects: list[str], seed: int = SPLIT_SEED) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(tuning, held_out)``: a seeded shuffle of the sorted subjects, cut in half."""
    order = sorted(subjects)
    random.Random(seed).shuffle(order)
    half = len(order) // 2
    return tuple(sorted(order[:half])), tuple(sorted(order[half:]))


@dataclass(frozen=True)
class Row:
    prompt: str
    domain: str
    s1: int
    s2: int


def load_rows(path: Path, subjects: tuple[str, ...] | None = None) -> list[Row]:
    """The rows of an outcome file (see :data:`experiments.replay.DATA_ENV`), optionally of some subjects only."""
    from experiments.replay import require

    require([path])
    with path.open(newline="", encoding="utf-8") as fh:
        rows = [Row(r["prompt"], r["domain"], int(r["s1_success"]), int(r["s2_success"])) for r in csv.DictReader(fh)]
    if subjects is not None:
        keep = set(subjects)
        rows = [r for r in rows if r.domain in keep]
    if not rows:
        raise ValueError(f"{path} has no rows" + (f" of subjects {subjects}" if subjects else ""))
    return rows


def shuffled(rows: list[Row], seed: int) -> list[Row]:
    out = list(rows)
    random.Random(seed).shuffle(out)
    return out


def score_half(s2: np.ndarray, rows: list[Row]) -> dict[str, float]:
    """PGR, System 2 share and PGR − share over the second half of the pass."""
    half = len(rows) // 2
    return score_rows(s2[half:], rows[half:])


def score_rows(chose: np.ndarray, rows: list[Row]) -> dict[str, float]:
    """PGR, System 2 share and PGR − share of the routes ``chose`` (True: System 2) on ``rows``."""
    a1 = np.array([r.s1 for r in rows], float)
    a2 = np.array([r.s2 for r in rows], float)
    acc = float(np.where(chose, a2, a1).mean())
    gap = float(a2.mean() - a1.mean())
    pgr = (acc - float(a1.mean())) / gap if gap else 0.0
    share = float(chose.mean())
    return {"pgr": pgr, "share": share, "score": pgr - share}


# --------------------------------------------------------------------- policies
class ProductRun:
    """The real artibot in a fresh home; ``config`` None means no config at all (shipped defaults)."""

    def __init__(self, name: str, config: Mapping[str, Any] | None, router_seed: int | None = None) -> None:
        self.name = name
        self._tmp = Path(tempfile.mkdtemp(prefix="artibot-online-"))
        self.home = self._tmp / "home"
        self.settings = settings_from_mapping(config) if config is not None else None
        self.rng = random.Random(router_seed) if router_seed is not None else None
        self.rounds: list[dict[str, Any]] = []
        self.retries = 0
        self.rate: dict[str, float] = {}
        """Per domain: the exploration rate away from the threshold at its last request."""
        self.router = self._load()

    def _load(self) -> Router:
        return Router.load(self.home, settings=self.settings, rng=self.rng)

    def route(self, row: Row, index: int) -> tuple[bool, float, bool]:
        d = self.router.route(row.prompt, domain=row.domain)
        self.rate[row.domain] = self.router.policy.far_exploration(row.domain)
        ok = row.s2 if d.system == "system2" else row.s1
        collect(experience_record(
            id=f"r{index:06d}", input=row.prompt[:200], domain=d.domain, complexity=d.complexity,
            routed_to=d.system, outcome="success" if ok else "failed",
            latency_ms=2000.0 if d.system == "system2" else 200.0, confidence=d.confidence,
            pattern=d.pattern, threshold=d.threshold, propensity=d.propensity, agent="simulation"), home=self.home)
        return d.system == "system2", d.propensity, d.reason == "explore"

    def night(self) -> None:
        try:
            report = learn(home=self.home, answers="defaults", settings=self.settings)
        except StoreError:  # a round id drawn twice in one second
            self.retries += 1
            time.sleep(1.0)
            report = learn(home=self.home, answers="defaults", settings=self.settings)
        self.rounds.append({"status": report.status, "processed": report.processed})
        self.router = self._load()

    def thresholds(self) -> dict[str, float]:
        p = self.router.policy
        return {"*": p.default_threshold, **p.domain_thresholds}

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)


class BaselineRun:
    """A non-product policy of :mod:`experiments.policies` on the product's complexity score."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.name = policy.name
        self._scores: dict[str, float] = {}

    def route(self, row: Row, index: int) -> tuple[bool, float, bool]:
        c = self._scores.get(row.prompt)
        if c is None:
            c = self._scores[row.prompt] = score(row.prompt).score
        r = self.policy.route(row.domain, c, None, index)
        ok = bool(row.s2 if r.s2 else row.s1)
        self.policy.feedback(row.domain, c, r.s2, ok)
        return r.s2, r.propensity, r.explored

    def night(self) -> None:
        return None

    def thresholds(self) -> dict[str, float]:
        return {}

    def close(self) -> None:
        return None


def product_config(name: str, price: float) -> Mapping[str, Any] | None:
    """The config of a product policy of the comparison (None: no config file at all)."""
    if name == "defaults":
        return None
    if name == "seed":
        return {"learning": {"lifelong": {"mode": "seed"}}}
    if name == "learned-rates":  # the evidence learner's per-domain exploration rates within a 5% budget
        return {"cognitive": {"router": {"explorationBudget": 0.05}}}
    if name == "readme-0.5":  # the configuration an earlier README recommended (kept to compare)
        return {"cognitive": {"router": {"exploration": 0.05}},
                "learning": {"lifelong": {"mode": "evidence", "system2Cost": round(price, 3)}}}
    raise ValueError(f"unknown product policy {name!r}")


PRODUCT = ("defaults", "learned-rates", "seed", "readme-0.5")
BASELINES = ("always-s1", "always-s2", "thompson", "epsilon-greedy")


def make(name: str, seed: int, price: float, router_seed: int | None = None) -> Any:
    """A policy of the comparison; ``router_seed`` seeds the product's router (None: unseeded, as shipped)."""
    from experiments.policies import Fixed

    if name in PRODUCT:
        return ProductRun(name, product_config(name, price), router_seed)
    if name == "always-s1":
        return BaselineRun(Fixed("always-s1", 1.01))
    if name == "always-s2":
        return BaselineRun(Fixed("always-s2", 0.0))
    if name == "thompson":
        return BaselineRun(Thompson(price, seed))
    if name == "epsilon-greedy":
        return BaselineRun(EpsilonGreedy(price, seed))
    raise ValueError(f"unknown policy {name!r}")


def run_protocol(rows: list[Row], policy: Any, seed: int, night: int = 500) -> dict[str, Any]:
    """One pass of the protocol over ``rows`` (shuffled with ``seed``); the score and a trace."""
    order = shuffled(rows, seed)
    n = len(order)
    s2 = np.zeros(n, bool)
    prop = np.ones(n)
    explored = np.zeros(n, bool)
    began = time.perf_counter()
    thresholds = []
    for i, row in enumerate(order):
        s2[i], prop[i], explored[i] = policy.route(row, i)
        if (i + 1) % night == 0 and i + 1 < n:
            policy.night()
            thresholds.append(policy.thresholds())
    out = score_half(s2, order)
    out.update({"explored": float(explored.mean()), "randomized": float((prop < 1).mean()),
                "seconds": time.perf_counter() - began, "thresholds": thresholds[-1] if thresholds else {},
                "curve": _curve(s2, order, night), "domains": per_domain(order, s2, explored, policy)})
    return out


def per_domain(rows: list[Row], s2: np.ndarray, explored: np.ndarray, policy: Any) -> dict[str, dict[str, float]]:
    """Per subject over the whole pass: rows, trials of each system, explored routes, and the product's
    exploration rate away from the threshold at the end (None for a baseline)."""
    domains = np.array([r.domain for r in rows])
    rate = getattr(policy, "rate", {})
    out = {}
    for name in sorted(set(domains.tolist())):
        m = domains == name
        out[name] = {"rows": int(m.sum()), "s1": int((m & ~s2).sum()), "s2": int((m & s2).sum()),
                     "explored": int((m & explored).sum()), "rate": rate.get(name)}
    return out


def _curve(s2: np.ndarray, rows: list[Row], night: int) -> list[float]:
    """PGR − share per night of the pass (each night's own rows)."""
    out = []
    for lo in range(0, len(rows) - night + 1, night):
        out.append(score_rows(s2[lo:lo + night], rows[lo:lo + night])["score"])
    return out
