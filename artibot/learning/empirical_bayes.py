"""Sharing strength across domains (empirical Bayes) and the price of a System 2 call.

**Pooled priors.** Each domain's curves are first fitted alone
(:func:`artibot.learning.posterior.fit_pair` with a vague gap prior). Its *gap level* —
System 2's logit advantage averaged over the domain's traffic (:func:`domain_level`) —
and that level's posterior variance go into a random-effects mean across domains:
weights ``1 / (v_d + tau^2)``, ``tau^2`` the between-domain variance by the
DerSimonian–Laird moment formula (:func:`pooled_level`). A domain's prior gap is then
the pooled level of the *other* domains (leave one out, so its own data does not count
twice), flat across complexity, with a per-bin sd of ``max(floor, spread * sqrt(bins))``
(``spread`` the sd of the domains' levels): the ridge over ``bins`` bins pins the level
about as tightly as domains differ. A domain seen for the first time starts from the
pooled level of all of them. With one domain there is nothing to pool: its prior stays
the base prior (gap 0). The level, not the curve, is pooled: domains whose break-even
points differ (W1) would otherwise pull each other's curves out of place.

**Estimated price.** With neither ``system2Cost`` nor ``targetSystem2Share``, the price
of a System 2 call is System 2's average advantage over System 1 in the logged traffic:
per domain the traffic-weighted posterior gain, averaged over domains by traffic. The
per-(domain, complexity bin) success rates behind it are unbiased whatever the routing,
because routing depends only on the domain, the complexity and the pattern and every
request has a positive probability of either system (the router's exploration): this
is the propensity-stratified estimate of the gain. It is shrunk toward
:data:`PRIOR_PRICE` by ``n / (n + PRIOR_TRIALS)``, ``n`` the two-sided trials behind
it (``sum over cells of 1 / (1/n1 + 1/n2)``), so a few explored requests do not set it.
At that price, the domains where System 2 gains more than it does on average get it;
the others get System 1 — the operating point that maximizes the quality gained per
System 2 call (RouteLLM's PGR minus the System 2 share).

>>> import numpy as np
>>> g = {"a": (np.array([0.2, 0.4]), np.array([0.01, 0.01])), "b": (np.array([0.6, 0.4]), np.array([0.01, 0.01]))}
>>> [round(float(x), 3) for x in pooled_mean(g, exclude="a")]
[0.6, 0.4]
>>> [round(float(x), 3) for x in pooled_mean(g)]
[0.4, 0.4]
>>> round(shrunk_price(0.15, 100.0), 4)  # (100 * 0.15 + 50 * 0.05) / 150
0.1167
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from artibot.learning.objective import PRIOR_PRICE  # the price before there is evidence (and the pull of a little)
PRIOR_TRIALS = 50.0
"""Two-sided trials that weigh as much as the prior price."""
MAX_PRICE = 0.5
BETWEEN_SPREAD = False
"""The prior's spread is the between-domain sd (DerSimonian–Laird, the levels' own noise taken
out) instead of the raw sd of the levels (noisy levels of domains with few trials widen it).
Off (for ablations): the tighter pooling measured no better on the tuning subjects, with the
learned exploration rates or without (``experiments/README.md``, "Learned exploration rates and
a slow start: a negative result")."""


def between_variance(values: np.ndarray, variances: np.ndarray) -> np.ndarray:
    """DerSimonian–Laird ``tau^2`` per column: rows are domains, columns bins."""
    k = values.shape[0]
    if k < 2:
        return np.zeros(values.shape[1])
    w = 1.0 / variances
    sw = w.sum(axis=0)
    mean = (w * values).sum(axis=0) / sw
    q = (w * (values - mean) ** 2).sum(axis=0)
    c = sw - (w * w).sum(axis=0) / sw
    tau2: np.ndarray = np.maximum(0.0, (q - (k - 1)) / np.maximum(c, 1e-12))
    return tau2


def pooled_mean(estimates: Mapping[str, tuple[np.ndarray, np.ndarray]], exclude: str | None = None) -> np.ndarray | None:
    """The random-effects mean per bin of ``{domain: (values, variances)}``, without ``exclude``.

    ``tau^2`` comes from all domains; None when no other domain is left.
    """
    return pooled(estimates, exclude)[0]


def pooled(estimates: Mapping[str, tuple[np.ndarray, np.ndarray]],
           exclude: str | None = None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(pooled mean, between-domain sd)`` per bin (see :func:`pooled_mean`); ``(None, None)``
    when no other domain is left."""
    names = sorted(estimates)
    if not names:
        return None, None
    values = np.array([estimates[n][0] for n in names], dtype=float)
    variances = np.maximum(np.array([estimates[n][1] for n in names], dtype=float), 1e-12)
    tau2 = between_variance(values, variances)
    keep = np.array([n != exclude for n in names])
    if not keep.any():
        return None, None
    w = 1.0 / (variances[keep] + tau2)
    return (w * values[keep]).sum(axis=0) / w.sum(axis=0), np.sqrt(tau2)


def domain_level(traffic: np.ndarray, gap: np.ndarray, variance: np.ndarray) -> tuple[float, float]:
    """A domain's gap averaged over its traffic per bin, and that average's variance
    (bins treated as independent).

    >>> level, var = domain_level(np.array([1.0, 3.0]), np.array([0.4, 0.8]), np.array([0.1, 0.2]))
    >>> round(level, 6), round(var, 6)  # 0.25 * 0.4 + 0.75 * 0.8, 0.0625 * 0.1 + 0.5625 * 0.2
    (0.7, 0.11875)
    """
    total = float(traffic.sum())
    w = traffic / total if total > 0 else np.full(len(traffic), 1.0 / len(traffic))
    return float(w @ gap), float((w * w) @ variance)


def pooled_level(levels: Mapping[str, tuple[float, float]], exclude: str | None, floor: float,
                 bins: int) -> tuple[float | None, float]:
    """``(prior mean, per-bin prior sd)`` of a domain's gap from the other domains' levels (module doc).

    >>> pooled_level({"a": (0.0, 0.01), "b": (1.0, 0.01)}, "a", 1.5, 20)[0]
    1.0
    >>> pooled_level({"a": (0.0, 0.01)}, "a", 1.5, 20)
    (None, 1.5)
    """
    est = {n: (np.array([v]), np.array([var])) for n, (v, var) in levels.items()}
    mean, tau = pooled(est, exclude=exclude)
    if mean is None or tau is None:
        return None, floor
    spread = float(tau[0]) if BETWEEN_SPREAD else float(np.std([v for v, _ in levels.values()]))
    return float(mean[0]), max(floor, spread * float(np.sqrt(bins)))


def shrunk_price(gain: float, trials: float) -> float:
    """The pooled gain shrunk toward :data:`PRIOR_PRICE`, clipped to ``[0, MAX_PRICE]``."""
    lam = trials / (trials + PRIOR_TRIALS)
    return float(min(MAX_PRICE, max(0.0, lam * gain + (1.0 - lam) * PRIOR_PRICE)))


def stratified_gain(counts: np.ndarray) -> tuple[float, float]:
    """``(gain, weight)`` of one domain's ``(bins, 4)`` counts: System 2's success rate minus
    System 1's per bin where both were tried, averaged with the bins' traffic as weights;
    ``weight`` is that traffic (0 when no bin saw both systems).

    >>> counts = np.array([[10, 6, 10, 9], [0, 0, 5, 5], [20, 10, 20, 14]], dtype=float)
    >>> gain, weight = stratified_gain(counts)  # (20 * 0.3 + 40 * 0.2) / 60
    >>> round(gain, 4), weight
    (0.2333, 60.0)
    """
    n1, k1, n2, k2 = (counts[:, i] for i in range(4))
    both = (n1 > 0) & (n2 > 0)
    if not both.any():
        return 0.0, 0.0
    w = (n1 + n2)[both]
    diff = k2[both] / n2[both] - k1[both] / n1[both]
    return float(w @ diff / w.sum()), float(w.sum())


def estimated_price(cells: Mapping[str, np.ndarray]) -> float:
    """The price from the logged evidence of every domain (see the module doc)."""
    gains = [stratified_gain(arr) for arr in cells.values()]
    total = sum(w for _, w in gains)
    if total <= 0:
        return PRIOR_PRICE
    gain = sum(g * w for g, w in gains) / total
    return shrunk_price(gain, sum(two_sided_trials(arr) for arr in cells.values()))


def two_sided_trials(counts: np.ndarray) -> float:
    """``sum over bins of 1 / (1/n1 + 1/n2)``: the trials a comparison of the two systems rests on."""
    n1, n2 = counts[:, 0], counts[:, 2]
    both = (n1 > 0) & (n2 > 0)
    return float(np.sum(n1[both] * n2[both] / (n1[both] + n2[both])))
