"""Metrics of the studies.

* Regret against the oracle: cumulative, per 1k requests, and the utility ratio.
* Operating point against the oracle's frontier: the oracle routed with every price
  traces the best (System 2 share, success) pairs; a policy's *success gap at equal
  share* and *excess System 2 share at equal success* are its distances to it.
* PGR, APGR and CPT as RouteLLM defines them (its paper, arXiv:2406.18665).
* Experiences until every domain's threshold stays within ±0.05 of the oracle's.
* Recovery after a drift.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from experiments.simulate import Stream, Trace


def per_1k(regret: np.ndarray) -> float:
    return float(np.mean(regret) * 1000) if len(regret) else float("nan")


def utility_ratio(trace: Trace, lo: int, hi: int) -> float:
    """Policy utility / oracle utility over requests ``[lo, hi)``."""
    return float(trace.utility[lo:hi].sum() / trace.oracle[lo:hi].sum())


def frontier(stream: Stream, lo: int = 0, hi: int | None = None,
             prices: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The oracle's ``(System 2 share, expected success)`` for a range of prices, sorted by share."""
    sl = slice(lo, hi)
    p1, p2 = stream.p1[sl], stream.p2[sl]
    gain = p2 - p1
    order = np.argsort(-gain, kind="stable")  # raising the price drops requests from the end of this order
    k = np.arange(len(order) + 1)
    success = (p1.sum() + np.concatenate([[0.0], np.cumsum(gain[order])])) / len(order)
    share = k / len(order)
    return share, success


def operating_gaps(trace: Trace, stream: Stream, lo: int = 0, hi: int | None = None) -> tuple[float, float]:
    """``(success gap at equal System 2 share, excess System 2 share at equal success)`` vs the oracle."""
    sl = slice(lo, hi)
    share_f, success_f = frontier(stream, lo, hi)
    share = float(trace.s2[sl].mean())
    success = float(np.where(trace.s2[sl], stream.p2[sl], stream.p1[sl]).mean())
    gap = float(np.interp(share, share_f, success_f)) - success
    reach = np.flatnonzero(success_f >= success - 1e-12)
    needed = float(share_f[reach[0]]) if len(reach) else 1.0
    return gap, share - needed


def pgr(accuracy: float, weak: float, strong: float) -> float:
    """Performance gap recovered: ``(accuracy - weak) / (strong - weak)``."""
    return (accuracy - weak) / (strong - weak)


def pgr_curve(score: np.ndarray, s1: np.ndarray, s2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PGR against System 2 share when the prompts with the highest ``score`` go to System 2."""
    order = np.argsort(-np.asarray(score, dtype=float), kind="stable")
    n = len(order)
    s1 = np.asarray(s1, dtype=float)
    s2 = np.asarray(s2, dtype=float)
    acc = (s1.sum() + np.concatenate([[0.0], np.cumsum((s2 - s1)[order])])) / n
    share = np.arange(n + 1) / n
    return share, np.array([pgr(a, s1.mean(), s2.mean()) for a in acc])


def apgr(share: np.ndarray, curve: np.ndarray) -> float:
    """Area under the PGR-vs-share curve (a random router scores 0.5)."""
    return float(np.trapezoid(curve, share) if hasattr(np, "trapezoid") else np.trapz(curve, share))


def cpt(share: np.ndarray, curve: np.ndarray, x: float) -> float:
    """Smallest System 2 share at which PGR reaches ``x`` (1.0 if never)."""
    reach = np.flatnonzero(curve >= x - 1e-12)
    return float(share[reach[0]]) if len(reach) else 1.0


def convergence(trace: Trace, stream: Stream, target: dict[str, float], tol: float = 0.05) -> dict[str, float | None]:
    """Per domain: that domain's experiences until its threshold stays within ``tol`` of ``target`` to the end.

    None if it is outside at the end (or the policy has no thresholds).
    """
    if trace.thresholds[-1] is None:
        return {name: None for name in target}
    out: dict[str, float | None] = {}
    for d, name in enumerate(stream.names):
        if name not in target:
            continue
        seen = np.concatenate([[0], np.cumsum(stream.domain == d)])
        inside = [abs(th[name] - target[name]) <= tol + 1e-9 for th in trace.thresholds]
        if not inside[-1]:
            out[name] = None
            continue
        k = len(inside) - 1
        while k > 0 and inside[k - 1]:
            k -= 1
        out[name] = float(seen[trace.nights[k]])
    return out


def recovery(trace: Trace, stream: Stream, domain: int, at: int, window: int = 250,
             before: int = 1000) -> tuple[float, float, int | None]:
    """``(pre-drift regret rate, post-drift rate over the first window, domain requests to recover)``.

    Recovered: the regret rate of the domain over a window of ``window`` of its requests
    is back to at most 1.25x the rate over its last ``before`` requests before the
    drift, plus 2 per 1k. Counted in the domain's own requests after the drift.
    """
    idx = np.flatnonzero(stream.domain == domain)
    r = trace.regret[idx]
    pre = r[idx < at][-before:]
    post = r[idx >= at]
    rate0 = float(pre.mean())
    bar = 1.25 * rate0 + 0.002
    if len(post) < window:
        return rate0, float(post.mean()) if len(post) else float("nan"), None
    rolling = np.convolve(post, np.ones(window) / window, mode="valid")
    ok = np.flatnonzero(rolling <= bar)
    return rate0, float(rolling[0]), int(ok[0]) if len(ok) else None


def mean_sd(values: Sequence[float | None], fmt: str = "{:.2f}") -> str:
    """``"m ± sd"`` over the values that are not None (with ``(k/n)`` when some are None)."""
    got = [v for v in values if v is not None and np.isfinite(v)]
    if not got:
        return "n/a"
    text = f"{fmt.format(np.mean(got))} ± {fmt.format(np.std(got, ddof=1) if len(got) > 1 else 0.0)}"
    return text if len(got) == len(values) else f"{text} ({len(got)}/{len(values)})"
