"""Per-domain exploration rates from the evidence learner's posterior (probability matching).

The router explores a little near each threshold (``cognitive.router.exploration``) and,
away from it, at a rate per domain that the evidence learner sets after each round
(``thresholds.json``'s ``exploration``; :class:`artibot.hookpath.router.thresholds.Thresholds`).
Pure: numbers in, numbers out.

**The rate.** For each domain, ``p`` is the posterior probability that the *other*
system is the better one for the traffic routed away from the threshold: System 2's
gain over that traffic against its price, from the posterior mean and sd of the gain
(:func:`other_side_probability`). Routing that traffic to the other system with
probability ``p`` is probability matching (Thompson sampling per domain, with the
propensity computed, not sampled, so it is exact): a coin-flip call is split, a call
that rests on a few trials is tried often, a settled call (``p`` near 0) is not tried.
The posterior's width does the work of a slow start: right after a round that moved a
threshold on a handful of trials, ``p`` is still large, so the other system keeps being
tried until the evidence settles the call (a slow start that holds the threshold back
instead measured worse: :data:`artibot.learning.evidence.SLOW_Z`).

**Off by default** (``explorationBudget`` 0): on the tuning subjects of the online protocol
and on W1's tuning seeds the rates score no better than the fixed 1% while exploring more of
the traffic (``experiments/README.md``, "Learned exploration rates and a slow start: a
negative result").

**The budget** (:func:`water_fill`). The rates are clipped at a common cap, ``min(p,
cap)``, with the largest cap (at most the router's ``MAX_EXPLORATION``) at which the
expected explored share of the traffic (the band's rate near each threshold, these
rates elsewhere, weighted by each domain's recent records) stays within
``cognitive.router.explorationBudget``. The clip takes from the domains that would
explore most and leaves the settled ones their small ``p``. A rate below
:data:`SETTLED` is 0. ``domainExploration`` 0 or a budget of 0: no learned rates (the
configured ``domainExploration`` everywhere, as before).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from artibot.learning.bandit import N1, N2, POINTS, Fit, region_gain
from artibot.learning.posterior import normal_cdf

__all__ = ["other_side_probability", "band_mass", "water_fill", "rates"]

SIDE_MASS = 0.05
"""A side of the threshold holding less of the domain's traffic than this does not set its rate (set by hand)."""
SETTLED = 0.001
"""A rate below this is 0: the domain's call is settled (set by hand)."""
MAX_RATE = 0.5
"""The largest rate (the router's ``MAX_EXPLORATION``): a coin-flip call is split evenly."""


def other_side_probability(f: Fit, t: float, price: float, band: float, min_mass: float = SIDE_MASS) -> float:
    """Posterior probability that the other system is the better one for the traffic away from ``t``.

    Per side beyond the exploration band (System 1 below ``t - band``, System 2 from
    ``t + band``) holding at least ``min_mass`` of the domain's traffic: the probability
    that switching that whole side would raise utility, from the posterior mean and sd
    of System 2's gain averaged over it. The larger of the two sides; 0 with no traffic
    there.

    >>> import numpy as np
    >>> from artibot.learning.bandit import fit
    >>> from artibot.learning.posterior import Prior
    >>> counts = np.zeros((20, 4)); counts[16] = (3, 2, 60, 50)   # a few System 1 trials at 0.8
    >>> round(other_side_probability(fit(counts, 0.4, Prior()), 0.4, 0.05, 0.15), 2) > 0.05
    True
    """
    out = 0.0
    for lo, hi, sign in ((0.0, t - band, 1.0), (t + band, 1.01, -1.0)):
        if hi <= lo or float(f.mass[(POINTS >= lo) & (POINTS < hi)].sum()) < min_mass:
            continue
        mean, sd = region_gain(f, lo, hi)
        out = max(out, normal_cdf(sign * (mean - price) / max(sd, 1e-9)))
    return out


def band_mass(f: Fit, t: float, band: float) -> float:
    """Share of the domain's traffic within ``band`` of ``t`` (explored at the band's rate)."""
    return float(f.mass[np.abs(POINTS - t) <= band].sum())


def water_fill(p: Mapping[str, float], far: Mapping[str, float], room: float, top: float = MAX_RATE) -> float:
    """The largest cap ``c <= top`` with ``sum(far[d] * min(p[d], c)) <= room``.

    ``far[d]``: the weight of domain ``d``'s traffic away from its threshold (its share
    of the records times the share of its traffic outside the band).

    >>> water_fill({"a": 0.5, "b": 0.01}, {"a": 0.5, "b": 0.5}, 0.02)
    0.03
    >>> water_fill({"a": 0.2}, {"a": 1.0}, 0.5)
    0.5
    """
    if room <= 0:
        return 0.0
    if sum(far[d] * min(p[d], top) for d in p) <= room:
        return top
    low, high = 0.0, top
    for _ in range(50):
        mid = 0.5 * (low + high)
        if sum(far[d] * min(p[d], mid) for d in p) <= room:
            low = mid
        else:
            high = mid
    return round(low, 6)


def rates(fits: Mapping[str, Fit], cells: Mapping[str, np.ndarray], thresholds: Mapping[str, float],
          price: float, *, band: float, band_rate: float, budget: float) -> tuple[dict[str, float], dict[str, float]]:
    """``(rates, p)`` per domain of ``fits``: the router's rate away from the threshold, and
    the posterior probability it matches (see the module doc). ``thresholds``: each
    domain's threshold for the next round."""
    if budget <= 0 or not fits:
        return {}, {}
    weight = {name: float(cells[name][:, [N1, N2]].sum()) for name in fits}
    total = sum(weight.values()) or 1.0
    p, far, spent = {}, {}, 0.0
    for name, f in fits.items():
        t = thresholds.get(name, f.t)
        p[name] = other_side_probability(f, t, price, band)
        near = band_mass(f, t, band)
        spent += weight[name] / total * near * band_rate
        far[name] = weight[name] / total * (1.0 - near)
    cap = water_fill(p, far, budget - spent)
    out = {name: (round(min(p[name], cap), 6) if min(p[name], cap) >= SETTLED else 0.0) for name in sorted(fits)}
    return out, {name: round(v, 6) for name, v in sorted(p.items())}
