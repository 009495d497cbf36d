"""Evidence mode's memory and threshold choice: counts per (domain, complexity bin).

**Cells.** Complexity is cut into :data:`BINS` bins of width 0.05. A domain's *cells*
hold, per bin, how often each system was tried and succeeded: a ``(BINS, 4)`` array with
columns ``n1, k1, n2, k2``. Cells accumulate over rounds with exponential forgetting
counted in the domain's own traffic: before a round's records are added, the old counts
are multiplied by ``0.5 ** (new records / HALF_LIFE)`` (:func:`merge`), so evidence
``HALF_LIFE`` records old weighs half, however often the learner runs. A domain-system
whose new outcomes contradict its history is reset to the new outcomes
(:func:`changed`).

Cells persist as the learner's own state (:class:`~artibot.learning.learner_state.EvidenceState`,
in its own file, snapshotted and rolled back with the other state files). Because
forgetting makes counts fractional, a cell stores them in units of ``1/SCALE`` trial
(``n1 = 160`` is 10 trials).

**Threshold choice** (:func:`choose`). For each system, a smooth curve of success
per complexity bin is fitted to the domain's cells (see
:mod:`artibot.learning.posterior`). Moving the threshold to ``t'`` changes the routing of
the requests between ``t`` and ``t'`` only, so its effect on utility per request is::

    D(t') = sign * sum over complexities u between t and t' of  mass(u) * (p2(u) - p1(u) - price)

(``sign = +1`` when lowering: those requests go to System 2; ``-1`` when raising).
``D`` is linear in the two curves, so its posterior mean and variance come from the
Laplace posteriors by the delta method. Among the candidate thresholds within the trust
region ``|t' - t| <= max_step`` (a 0.01 grid inside ``[lo, hi]``), those with
``P(D > 0) >= level`` are credible, and the credible one with the best *lower* ``level``
bound of ``D`` is taken (:data:`CAUTIOUS`): a long move whose first part the evidence
supports but whose far part it does not is cut where the bound stops growing. If none
passes, the threshold stays. Near-ties (within 1% of the best) go to the shortest move.

**No blind seeking.** The router explores every domain a little, not only near its
threshold (``cognitive.router.domainExploration``), so a domain whose requests all sit
far from its threshold still shows both systems, and the evidence rule moves the
threshold as far as that evidence supports. When no candidate is credible, the
threshold stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np
from scipy import stats as sstats

from artibot.learning.posterior import Pair, Prior, fit_pair, normal_cdf

BINS = 20
WIDTH = 1.0 / BINS
CENTERS = (np.arange(BINS) + 0.5) * WIDTH
HALF_LIFE = 1000.0
"""A domain's evidence loses half its weight over this many of its new records."""
SCALE = 16
"""Stored cell counts are in units of 1/SCALE trial."""
GRID = 0.01
CAUTIOUS = True
"""Rank credible candidates by the lower ``level`` bound of their improvement (False: by its mean)."""
NEAR_TIE = 0.01
"""Candidates within this relative distance of the best posterior mean count as ties."""
POINTS = (np.arange(200) + 0.5) / 200  # complexity points for the utility integral
N1, K1, N2, K2 = range(4)


def bin_of(c: np.ndarray) -> np.ndarray:
    return np.minimum((np.asarray(c, dtype=float) * BINS).astype(np.int64), BINS - 1)


def count_cells(domain_codes: np.ndarray, complexity: np.ndarray, system2: np.ndarray,
                success: np.ndarray, n_domains: int) -> np.ndarray:
    """``(n_domains, BINS, 4)`` counts (as floats) of the given records."""
    b = bin_of(complexity)
    flat = domain_codes.astype(np.int64) * BINS + b
    size = n_domains * BINS
    s2 = system2.astype(bool)
    ok = success.astype(bool)
    out = np.zeros((size, 4), np.int64)
    out[:, N1] = np.bincount(flat[~s2], minlength=size)
    out[:, K1] = np.bincount(flat[~s2 & ok], minlength=size)
    out[:, N2] = np.bincount(flat[s2], minlength=size)
    out[:, K2] = np.bincount(flat[s2 & ok], minlength=size)
    return out.reshape(n_domains, BINS, 4).astype(float)


def changed(history: np.ndarray, fresh: np.ndarray, z_crit: float, prior: Prior) -> list[tuple[int, float]]:
    """Systems (1, 2) whose fresh outcomes contradict their history: ``[(system, z), ...]``.

    Per system: the fresh successes against what the history's smooth posterior predicts
    for the same bins, with the variance of both the outcomes and the prediction.
    """
    if history[:, [N1, N2]].sum() <= 0:
        return []
    pair = fit_pair(history[:, N1], history[:, K1], history[:, N2], history[:, K2], prior)
    bins = len(history)
    w1, w2 = pair.p1 * (1 - pair.p1), pair.p2 * (1 - pair.p2)
    out = []
    for system, (n, k), p, grad in ((1, (N1, K1), pair.p1, np.concatenate([w1, -w1])),
                                    (2, (N2, K2), pair.p2, np.concatenate([w2, np.zeros(bins)]))):
        m = fresh[:, n]
        if m.sum() <= 0 or history[:, n].sum() <= 0:
            continue
        g = np.tile(m, 2) * grad  # d(expected successes) / d(parameters)
        variance = float(np.sum(m * p * (1 - p)) + g @ pair.cov @ g)
        z = (float(fresh[:, k].sum()) - float(m @ p)) / float(np.sqrt(variance))
        if abs(z) >= z_crit:
            out.append((system, z))
    return out


POOL_FACTOR = 2.0
"""A pool's half-life over one person's (:func:`pooled_half_life`)."""


def pooled_half_life(members: int) -> float:
    """The half-life of a pool of ``members``' records: :data:`HALF_LIFE` times
    :data:`POOL_FACTOR` once two or more members pool.

    Forgetting is counted in records so that it follows the traffic, not the clock; a pool of
    ``m`` members sends ``m`` times the records in the same days, so one person's half-life
    keeps only as much evidence as one person has, forgotten ``m`` times faster. Keeping more
    steadies the thresholds, but a domain where System 1 got better is seen only through the
    explored trials, and the old evidence that outweighs them has to fade first. Twice one
    person's half-life was chosen on the team simulation's tuning seeds: longer ones lowered
    W1's regret a little more but recovered from a System 1-better drift later
    (``docs/team.md``, "The team round", the half-life's table).

    >>> pooled_half_life(12), pooled_half_life(1), pooled_half_life(0)
    (2000.0, 1000.0, 1000.0)
    """
    return HALF_LIFE * (POOL_FACTOR if members >= 2 else 1.0)


def merge(history: np.ndarray, fresh: np.ndarray, reset: set[int], half_life: float | None = None) -> np.ndarray:
    """History, discounted by the fresh traffic (see the module doc), plus the fresh counts.

    A system in ``reset`` keeps only its fresh counts. ``half_life``: in the domain's
    records (None: :data:`HALF_LIFE`; a team's pool: :func:`pooled_half_life`).
    """
    out = history * 0.5 ** (float(fresh[:, [N1, N2]].sum()) / (half_life or HALF_LIFE))
    for system, cols in ((1, [N1, K1]), (2, [N2, K2])):
        if system in reset:
            out[:, cols] = 0.0
    decayed: np.ndarray = out + fresh
    return decayed


def z_critical(alpha: float, tests: int) -> float:
    """Two-sided normal critical value with a Bonferroni correction over ``tests``."""
    return float(sstats.norm.isf(alpha / (2 * max(1, tests))))


# --------------------------------------------------------------------- the threshold choice
@dataclass(frozen=True)
class Choice:
    """The evidence about one threshold and the step it supports."""

    old: float
    new: float
    best: float
    """The threshold with the best posterior mean utility anywhere in ``[lo, hi]``."""
    probability: float
    """Posterior probability that the move to ``new`` improves utility (0.0 if no candidate moved)."""
    gain_mean: float
    """Posterior mean of System 2's gain (``p2 - p1``, or ``1 - p1`` with the cost objective) at the old threshold."""
    gain_interval: tuple[float, float]
    improvement: float
    """Posterior mean improvement of utility per request of this domain's traffic."""
    trials: tuple[float, float]
    """Trials of System 1 and 2 behind the curves."""
    seeking: bool = False
    """Always False now that blind seeking is gone (steps follow the evidence); kept in the round's evidence for old readers."""


@dataclass(frozen=True)
class Fit:
    """The posterior of one domain's curves, its current threshold and its complexity mass."""

    t: float
    pair: Pair
    mass: np.ndarray
    """Share of the domain's records per point of :data:`POINTS`."""
    cascade: bool = False
    """The cost objective (:mod:`artibot.learning.objective`): System 2's gain per request is System 1's
    failure rate ``1 - p1`` (a failed System 1 try is retried at System 2), not ``p2 - p1``."""

    def bin_gain(self) -> np.ndarray:
        """Per bin, the posterior mode of System 2's gain: ``1 - p1`` (cascade) or ``p2 - p1``."""
        gain: np.ndarray = 1.0 - self.pair.p1 if self.cascade else self.pair.gain
        return gain

    def gain(self) -> np.ndarray:
        """The same at :data:`POINTS`."""
        gain: np.ndarray = self.bin_gain()[POINT_BIN]
        return gain

    def jacobian(self) -> np.ndarray:
        """``d bin_gain_b / d x`` as a ``(bins, 2 * bins)`` matrix (see :meth:`Pair.gain_jacobian`)."""
        if not self.cascade:
            return self.pair.gain_jacobian()
        b = self.pair.bins
        w1 = self.pair.p1 * (1 - self.pair.p1)  # logit p1 = x_b - x_{b + bins}
        jac = np.zeros((b, 2 * b))
        jac[np.arange(b), np.arange(b)] = -w1
        jac[np.arange(b), b + np.arange(b)] = w1
        return jac


POINT_BIN = bin_of(POINTS)


def fit(counts: np.ndarray, t: float, prior: Prior, gap_mean: np.ndarray | None = None,
        gap_sd: np.ndarray | None = None, *, cascade: bool = False) -> Fit:
    """Fit a domain's ``(BINS, 4)`` cell counts; ``t`` is its current threshold.

    ``gap_mean``, ``gap_sd``: the prior of the gap per bin (the pooled curve of other domains);
    ``cascade``: the cost objective's gain (:attr:`Fit.cascade`).
    """
    pair = fit_pair(counts[:, N1], counts[:, K1], counts[:, N2], counts[:, K2], prior, gap_mean=gap_mean,
                    gap_sd=gap_sd)
    total = (counts[:, N1] + counts[:, N2]).astype(float)
    per_bin = total / total.sum() if total.sum() > 0 else np.full(BINS, 1.0 / BINS)
    mass = per_bin[POINT_BIN]
    return Fit(t, pair, mass / mass.sum(), cascade)


def _between(t: float, candidates: np.ndarray) -> np.ndarray:
    """Rows: candidates; columns: points; +1 where a point moves to System 2, -1 to System 1."""
    lo = np.minimum(t, candidates)[:, None]
    hi = np.maximum(t, candidates)[:, None]
    switch = ((POINTS[None, :] >= lo) & (POINTS[None, :] < hi)).astype(float)
    signed: np.ndarray = switch * np.where(candidates < t, 1.0, -1.0)[:, None]
    return signed


def improvement(f: Fit, t_new: float, price: float) -> float:
    """Posterior mean change of utility per request of the domain when its threshold moves from ``f.t``."""
    return float((_between(f.t, np.array([t_new])) @ (f.mass * (f.gain() - price)))[0])


def best_threshold(f: Fit, price: float, lo: float, hi: float) -> float:
    """The threshold in ``[lo, hi]`` (0.01 grid) with the best posterior mean utility."""
    grid = np.round(np.arange(lo, hi + 1e-9, GRID), 6)
    mean = _between(f.t, grid) @ (f.mass * (f.gain() - price))
    return float(grid[int(np.argmax(np.round(mean, 12)))]) if mean.max() > 1e-12 else f.t


def _improvements(f: Fit, grid: np.ndarray, price: float) -> tuple[np.ndarray, np.ndarray]:
    """Posterior mean and sd of the utility change of moving ``f.t`` to each of ``grid``."""
    a = _between(f.t, grid) * f.mass[None, :]  # D = a @ (gain - price) over points
    per_bin = np.zeros((len(grid), BINS))  # the same weights summed per bin
    np.add.at(per_bin.T, POINT_BIN, a.T)
    mean = a @ (f.gain() - price)
    w = per_bin @ f.jacobian()
    sd = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", w, f.pair.cov, w), 1e-18))
    return mean, sd


def choose(f: Fit, *, price: float, lo: float, hi: float, max_step: float, level: float,
           optimism: float = 0.0) -> Choice:
    """The evidence-supported step of one threshold (see the module doc). ``optimism`` above 0:
    when no candidate is supported, the one whose improvement's upper bound ``mean + optimism *
    sd`` is highest, if that bound is above 0 (a trial of the other system; the caller decides
    when it is due)."""
    t = f.t
    b = int(bin_of(np.array([t]))[0])
    jac = f.jacobian()
    gain_mean = float(f.bin_gain()[b])
    gain_sd = float(np.sqrt(jac[b] @ f.pair.cov @ jac[b]))
    interval = (gain_mean - 1.645 * gain_sd, gain_mean + 1.645 * gain_sd)
    trials = f.pair.trials

    # a round of many batches may reach past [lo, hi]: the steps beyond it all clip to lo or hi,
    # so the grid stops there (a pooled round of 10^7 records made arrays of millions here)
    steps = min(int(round(max_step / GRID)), int(np.ceil(max(abs(t - lo), abs(hi - t)) / GRID)) + 1)
    grid = np.unique(np.clip(t + np.arange(-steps, steps + 1) * GRID, lo, hi))
    grid = grid[np.abs(grid - t) > 1e-9]
    best = best_threshold(f, price, lo, hi)
    if len(grid) == 0:
        return Choice(t, t, best, 0.0, gain_mean, interval, 0.0, trials)
    mean, sd = _improvements(f, grid, price)
    prob = np.array([normal_cdf(m / s) for m, s in zip(mean.tolist(), sd.tolist())])
    ok = (prob >= level) & (mean > 0)
    if not ok.any():
        moves = (np.abs(_between(t, grid)) * f.mass[None, :]).sum(axis=1) > 0  # a move that routes some traffic
        upper = np.where(moves, mean + optimism * sd, -np.inf)
        j = int(np.argmax(upper))
        if optimism > 0 and upper[j] > 0:
            return Choice(t, float(grid[j]), best, float(prob[j]), gain_mean, interval, float(mean[j]), trials)
        return Choice(t, t, best, 0.0, gain_mean, interval, 0.0, trials)
    # the best credible candidate; among near-ties the shortest move (a move through complexities
    # nobody asks about gains nothing and would only carry the exploration band away from the traffic)
    # "best": the posterior mean, or (CAUTIOUS) its lower `level` bound: a long move that the
    # evidence supports only in its first part is not taken whole
    value = mean - sstats.norm.ppf(level) * sd if CAUTIOUS else mean
    top = float(value[ok].max())
    near = np.flatnonzero(ok & (value >= top - NEAR_TIE * abs(top)))
    i = int(near[np.argmin(np.abs(grid[near] - t))])
    return Choice(t, float(grid[i]), best, float(prob[i]), gain_mean, interval, float(mean[i]), trials)


def price_for_share(fits: Mapping[str, Fit], weights: Mapping[str, float], target: float,
                    lo: float, hi: float) -> float:
    """The System 2 price at which the best thresholds would send ``target`` of the traffic to System 2.

    Bisection over the price (the share falls as the price rises); each domain's share is
    the mass at or above its best threshold, weighted by its traffic.
    """
    total = sum(weights.values()) or 1.0

    def share(price: float) -> float:
        s = 0.0
        for name, f in fits.items():
            t = best_threshold(f, price, lo, hi)
            s += weights[name] * float(f.mass[POINTS >= t].sum())
        return s / total

    low, high = -0.5, 1.0
    for _ in range(40):
        mid = 0.5 * (low + high)
        if share(mid) > target:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def region_mass(f: Fit, lo: float, hi: float) -> float:
    """The share of the domain's traffic with a complexity in ``[lo, hi)``: what a threshold move between them reroutes."""
    return float((f.mass * ((POINTS >= lo) & (POINTS < hi))).sum())


def region_gain(f: Fit, lo: float, hi: float) -> tuple[float, float]:
    """Posterior mean and sd of System 2's advantage averaged over the domain's traffic in ``[lo, hi)``.

    The whole domain when no traffic lies there.
    """
    w = f.mass * ((POINTS >= lo) & (POINTS < hi))
    if w.sum() <= 1e-12:
        w = f.mass
    w = w / w.sum()
    per_bin = np.zeros(BINS)
    np.add.at(per_bin, POINT_BIN, w)
    jac = f.jacobian()
    g = per_bin @ jac
    return float(w @ f.gain()), float(np.sqrt(max(float(g @ f.pair.cov @ g), 0.0)))

