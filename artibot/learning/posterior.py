"""Posterior math for evidence mode: Beta bounds and a local Bayesian logistic curve.

Pure functions of counts; deterministic (no sampling): intervals come from Beta
quantiles or from a Gaussian (Laplace) approximation.

* :func:`beta_bounds` — the ``(lower, upper)`` credible bounds of a success probability
  after ``k`` successes in ``n`` trials under a ``Beta(a0, b0)`` prior.
* :func:`fit_pair` — both systems' success probability per complexity bin, as System
  2's ``logit p`` and System 1's gap below it, each smoothed across bins by a
  second-order random-walk prior (a discrete smoothing spline), fitted to binned counts.
  The posterior is the Laplace approximation: the mode (Newton's method) and the
  inverse Hessian, so any linear functional of the curves gets a delta-method variance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats


def beta_bounds(k: float, n: float, level: float = 0.95, a0: float = 1.0, b0: float = 1.0) -> tuple[float, float]:
    """One-sided ``level`` credible bounds of ``p`` after ``k`` of ``n``: ``(q_{1-level}, q_level)``.

    >>> lo, hi = beta_bounds(9, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.636, 0.967)
    """
    a, b = a0 + k, b0 + (n - k)
    return float(stats.beta.ppf(1.0 - level, a, b)), float(stats.beta.ppf(level, a, b))


def beta_mean_var(k: np.ndarray, n: np.ndarray, a0: float = 1.0, b0: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Posterior mean and variance of ``p`` (elementwise over arrays of counts)."""
    a = a0 + np.asarray(k, dtype=float)
    b = b0 + np.asarray(n, dtype=float) - np.asarray(k, dtype=float)
    total = a + b
    return a / total, a * b / (total * total * (total + 1.0))


def normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def smoothing_precision(bins: int, tau: float, prior_sd: float) -> np.ndarray:
    """Prior precision of a second-order random walk over ``bins`` plus a weak ridge.

    ``x_{b+1} - 2 x_b + x_{b-1} ~ N(0, tau^2)``: curves are smooth, and where there is no
    data a curve continues the trend of its neighbours with a variance that grows with
    the distance. The ridge ``N(prior_mean, prior_sd^2)`` per bin only pins the level and
    slope that the random walk leaves free.
    """
    d2 = np.zeros((bins - 2, bins))
    for i in range(bins - 2):
        d2[i, i:i + 3] = (1.0, -2.0, 1.0)
    return d2.T @ d2 / (tau * tau) + np.eye(bins) / (prior_sd * prior_sd)


@dataclass(frozen=True)
class Pair:
    """Laplace posterior of both systems' success per complexity bin.

    Parameters ``x = (logit p2 per bin, gap per bin)`` with ``logit p1 = logit p2 - gap``:
    System 2's curve and System 1's shortfall are each smooth. The gap is the quantity
    routing depends on, and it is observed where both systems are tried (around the
    threshold, thanks to exploration); it is extrapolated from there, not System 1's
    curve from one side and System 2's from the other. Far from any bin where both
    systems were tried, the gap's weak prior ``N(0, gap_sd^2)`` slowly pulls it toward
    zero, with a wide posterior: the evidence decides, not the prior.
    """

    mean: np.ndarray
    cov: np.ndarray
    trials: tuple[float, float]
    """System 1 and System 2 trials behind the fit."""

    @property
    def bins(self) -> int:
        return len(self.mean) // 2

    @property
    def p2(self) -> np.ndarray:
        p2: np.ndarray = special.expit(self.mean[: self.bins])
        return p2

    @property
    def p1(self) -> np.ndarray:
        p1: np.ndarray = special.expit(self.mean[: self.bins] - self.mean[self.bins:])
        return p1

    @property
    def gain(self) -> np.ndarray:
        """``p2 - p1`` per bin at the posterior mode."""
        gain: np.ndarray = self.p2 - self.p1
        return gain

    def gain_jacobian(self) -> np.ndarray:
        """``d gain_b / d x`` as a ``(bins, 2 * bins)`` matrix (each row has two non-zeros)."""
        b = self.bins
        w1, w2 = self.p1 * (1 - self.p1), self.p2 * (1 - self.p2)
        jac = np.zeros((b, 2 * b))
        jac[np.arange(b), np.arange(b)] = w2 - w1
        jac[np.arange(b), b + np.arange(b)] = w1
        return jac


@dataclass(frozen=True)
class Prior:
    """The prior of :func:`fit_pair` (logit scale)."""

    tau: float = 0.05
    """sd of the second difference of System 2's ``logit p`` between neighbouring bins"""
    tau_gap: float = 0.2
    """the same for the gap: System 1's shortfall may bend faster than System 2's curve"""
    level: float = 1.0
    """prior mean of System 2's ``logit p`` (0.73)"""
    level_sd: float = 3.0
    gap_sd: float = 1.5
    """sd of the gap's pull toward zero"""

    def to_json(self) -> dict[str, float]:
        return {"tau": self.tau, "tau_gap": self.tau_gap, "level": self.level, "level_sd": self.level_sd,
                "gap_sd": self.gap_sd}


def fit_pair(n1: np.ndarray, k1: np.ndarray, n2: np.ndarray, k2: np.ndarray, prior: Prior = Prior(),
             *, iterations: int = 50, level_mean: np.ndarray | None = None,
             gap_mean: np.ndarray | None = None, gap_sd: np.ndarray | None = None) -> Pair:
    """Fit :class:`Pair` to per-bin counts (``k`` successes of ``n`` trials per system).

    ``level_mean`` and ``gap_mean`` (per bin, logit scale) replace the prior's means
    ``prior.level`` and 0, ``gap_sd`` (per bin) the gap's ``prior.gap_sd``: the pooled
    curve of the other domains and how far domains spread around it (empirical Bayes,
    see :mod:`artibot.learning.empirical_bayes`).

    >>> n = np.full(5, 200)
    >>> [round(float(x), 2) for x in fit_pair(n, np.full(5, 160), n, np.full(5, 180)).gain]
    [0.1, 0.1, 0.1, 0.1, 0.1]
    """
    n1, k1, n2, k2 = (np.asarray(a, dtype=float) for a in (n1, k1, n2, k2))
    b = len(n1)
    q = np.zeros((2 * b, 2 * b))
    q[:b, :b] = smoothing_precision(b, prior.tau, prior.level_sd)
    q[b:, b:] = smoothing_precision(b, prior.tau_gap, prior.gap_sd)
    if gap_sd is not None:  # the ridge per bin instead of the prior's one value
        q[b:, b:] += np.diag(1.0 / np.asarray(gap_sd, float) ** 2 - 1.0 / prior.gap_sd ** 2)
    m0 = np.concatenate([np.full(b, prior.level) if level_mean is None else np.asarray(level_mean, float),
                         np.zeros(b) if gap_mean is None else np.asarray(gap_mean, float)])
    x = m0.copy()
    value = _log_posterior(x, m0, q, n1, k1, n2, k2)
    for _ in range(iterations):
        grad, hess = _derivatives(x, n1, k1, n2, k2)
        grad -= q @ (x - m0)
        hess += q
        step = np.linalg.solve(hess, grad)
        # Newton with backtracking (Armijo): the log posterior is concave, but a full Newton
        # step from the prior mean can overshoot into saturated logits where the gradient
        # vanishes and the iteration "converges" far from the maximum
        slope = float(grad @ step)
        alpha = 1.0
        while True:
            trial = x + alpha * step
            trial_value = _log_posterior(trial, m0, q, n1, k1, n2, k2)
            # (the slack: near the maximum both values agree to rounding, and a Newton step
            # there is what converges; without it the search shrank to nothing and stopped early)
            if trial_value >= value + 1e-4 * alpha * slope - 1e-12 * abs(value) or alpha < 1e-8:
                break
            alpha *= 0.5
        x, value = trial, trial_value
        if float(np.max(np.abs(alpha * step))) < 1e-10:
            break
    _, hess = _derivatives(x, n1, k1, n2, k2)
    return Pair(mean=x, cov=np.linalg.inv(hess + q), trials=(float(n1.sum()), float(n2.sum())))


def _log_posterior(x: np.ndarray, m0: np.ndarray, q: np.ndarray, n1: np.ndarray, k1: np.ndarray, n2: np.ndarray,
                   k2: np.ndarray) -> float:
    """The binomial log-likelihood of both systems plus the Gaussian log prior (up to a constant)."""
    b = len(n1)
    theta2, theta1 = x[:b], x[:b] - x[b:]
    loglik = (k2 @ special.log_expit(theta2) + (n2 - k2) @ special.log_expit(-theta2)
              + k1 @ special.log_expit(theta1) + (n1 - k1) @ special.log_expit(-theta1))
    d = x - m0
    return float(loglik - 0.5 * d @ q @ d)


def _derivatives(x: np.ndarray, n1: np.ndarray, k1: np.ndarray, n2: np.ndarray,
                 k2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and negative Hessian of the binomial log-likelihood in ``x``."""
    b = len(n1)
    theta2, gap = x[:b], x[b:]
    p2 = special.expit(theta2)
    p1 = special.expit(theta2 - gap)
    r1, r2 = k1 - n1 * p1, k2 - n2 * p2
    w1, w2 = n1 * p1 * (1 - p1), n2 * p2 * (1 - p2)
    grad = np.concatenate([r1 + r2, -r1])
    hess = np.zeros((2 * b, 2 * b))
    i = np.arange(b)
    hess[i, i] = w1 + w2
    hess[i, b + i] = -w1
    hess[b + i, i] = -w1
    hess[b + i, b + i] = w1
    return grad, hess
