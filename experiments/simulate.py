"""Run a policy over a stream of requests, night by night, and keep a trace.

A :class:`Stream` is a fixed sequence of requests with each system's success
probability (a simulated world) or outcome (a replayed file: probability 0 or 1) and
the random numbers that decide outcomes. Every policy of a comparison sees the same
stream and the same random numbers (common random numbers), so differences between
policies are not sampling noise of the requests.

The policy sees only the outcome of the system it chose (bandit feedback).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from experiments.policies import Product, make_record
from experiments.worlds import World


@dataclass(frozen=True, eq=False)
class Stream:
    names: tuple[str, ...]
    domain: np.ndarray
    complexity: np.ndarray
    p1: np.ndarray
    """Success probability of System 1 per request (0/1 when replaying real outcomes)."""
    p2: np.ndarray
    u: np.ndarray
    """Uniform draws: the chosen system succeeds iff ``u < p``."""
    u_escalate: np.ndarray
    latency_noise: np.ndarray
    price: float
    escalate: float = 0.7
    s1_latency_ms: float = 1500.0
    s2_latency_ms: float = 15000.0
    texts: tuple[str, ...] | None = None
    patterns: tuple[str | None, ...] | None = None

    def __len__(self) -> int:
        return len(self.domain)

    def utility(self, s2: np.ndarray) -> np.ndarray:
        return np.where(s2, self.p2 - self.price, self.p1)

    @property
    def oracle_utility(self) -> np.ndarray:
        return np.maximum(self.p1, self.p2 - self.price)

    @property
    def oracle_s2(self) -> np.ndarray:
        return self.p2 - self.price > self.p1


def world_stream(world: World, n: int, seed: int) -> Stream:
    """``n`` requests of ``world`` (drifts apply by request index)."""
    rng = np.random.default_rng(seed)
    d, c = world.sample(n, rng)
    t = np.arange(n)
    p1 = world.utility(d, c, np.zeros(n, bool), t)
    p2 = world.utility(d, c, np.ones(n, bool), t) + world.price
    return Stream(world.names, d, c, p1, p2, rng.random(n), rng.random(n), rng.lognormal(0.0, 0.3, n),
                  world.price, world.escalate, world.s1_latency_ms, world.s2_latency_ms)


@dataclass
class Trace:
    """What one policy did on one stream."""

    policy: str
    s2: np.ndarray
    propensity: np.ndarray
    explored: np.ndarray
    success: np.ndarray
    utility: np.ndarray
    """Expected utility of the route taken (the policy's choice, the world's probabilities)."""
    oracle: np.ndarray
    nights: list[int] = field(default_factory=list)
    """Request index at the end of each night."""
    thresholds: list[dict[str, float] | None] = field(default_factory=list)
    """Thresholds in force after each night (None for policies without thresholds)."""
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def regret(self) -> np.ndarray:
        return self.oracle - self.utility


def bounds(n: int, night: int, ramp: int = 0) -> list[int]:
    """Where the rounds of a run of ``n`` requests start: every ``night`` requests, or with ``ramp``
    the first after ``ramp`` requests and each next one after twice the last, up to ``night``.

    >>> bounds(10, 4), bounds(20, 8, ramp=2)
    ([0, 4, 8], [0, 2, 6, 14])
    """
    out, lo, size = [], 0, (min(ramp, night) if ramp > 0 else night)
    while lo < n:
        out.append(lo)
        lo += size
        size = min(night, size * 2)
    return out


def run(stream: Stream, policy: Any, *, night: int = 500, run_name: str = "sim", start: int = 0,
        ramp: int = 0) -> Trace:
    """Route every request of ``stream`` with ``policy``; a night ends every ``night`` requests
    (with ``ramp``, sooner at first: :func:`bounds`)."""
    n = len(stream)
    s2 = np.zeros(n, bool)
    prop = np.ones(n)
    explored = np.zeros(n, bool)
    success = np.zeros(n, bool)
    names = stream.names
    product = isinstance(policy, Product)
    began = time.perf_counter()
    trace = Trace(policy.name, s2, prop, explored, success, np.zeros(n), stream.oracle_utility)
    trace.thresholds.append(policy.thresholds(names))
    trace.nights.append(0)
    starts = bounds(n, night, ramp)
    for lo, hi in zip(starts, [*starts[1:], n]):
        records = []
        for i in range(lo, hi):
            domain = names[stream.domain[i]]
            c = float(stream.complexity[i])
            pattern = stream.patterns[i] if stream.patterns is not None else None
            r = policy.route(domain, c, pattern, start + i)
            ok = bool(stream.u[i] < (stream.p2[i] if r.s2 else stream.p1[i]))
            s2[i], prop[i], explored[i], success[i] = r.s2, r.propensity, r.explored, ok
            policy.feedback(domain, c, r.s2, ok)
            if product:
                if ok:
                    outcome = "success"
                elif r.s2 or stream.u_escalate[i] >= stream.escalate:
                    outcome = "failed"
                else:
                    outcome = "escalated"
                latency = (stream.s2_latency_ms if r.s2 else stream.s1_latency_ms) * stream.latency_noise[i]
                if outcome == "escalated":
                    latency += stream.s2_latency_ms
                text = stream.texts[i] if stream.texts is not None else None
                records.append(make_record(start + i, domain, c, r, outcome, round(latency, 1), pattern, text,
                                           run_name))
        policy.night(records)
        trace.nights.append(hi)
        trace.thresholds.append(policy.thresholds(names))
    trace.utility = stream.utility(s2)
    trace.seconds = time.perf_counter() - began
    if product:
        trace.extra["retries"] = policy.retries
        trace.extra["rounds"] = len(policy.rounds)
    return trace


def compare(stream: Stream, policies: list[Any], *, night: int, run_name: str, ramp: int = 0) -> list[Trace]:
    """Run the oracle and every policy on ``stream``; closes the policies (``ramp``: see :func:`bounds`)."""
    from experiments.policies import Oracle

    oracle_s2 = stream.oracle_s2
    traces = []
    for policy in [Oracle(lambda _d, _c, i: oracle_s2[i]), *policies]:
        try:
            traces.append(run(stream, policy, night=night, run_name=run_name, ramp=ramp))
        finally:
            policy.close()
    return traces


def pool_map(func: Any, items: list[Any], workers: int) -> list[Any]:
    """``[func(x) for x in items]``, in ``workers`` processes when more than one.

    A study of many jobs runs for minutes: each finished job is counted on stderr (one
    line, rewritten in place on a terminal) so the reader sees it moving.
    """
    done = _Progress(len(items))
    if workers <= 1 or len(items) <= 1:
        out = []
        for x in items:
            out.append(func(x))
            done.step()
        return out
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(min(workers, len(items))) as pool:
        out = []
        for result in pool.imap(func, items):
            out.append(result)
            done.step()
        return out


class _Progress:
    def __init__(self, total: int):
        self.total, self.count = total, 0
        self.tty = sys.stderr.isatty()
        self.began = time.perf_counter()

    def step(self) -> None:
        self.count += 1
        if self.total < 2:
            return
        line = f"  {self.count}/{self.total} jobs done ({time.perf_counter() - self.began:.0f} s)"
        if self.tty:
            sys.stderr.write("\r" + line + ("\n" if self.count == self.total else ""))
            sys.stderr.flush()
        elif self.count == self.total or self.count % max(1, self.total // 4) == 0:
            sys.stderr.write(line + "\n")
