"""Off-policy estimates for checkpoint 2: what the proposed thresholds would have done on the
traffic already logged, next to what the current thresholds would have done (pure).

Each logged record carries the probability ``p`` the router gave to the route it took
(:mod:`artibot.hookpath.router.policy`): ``1 - e`` or ``e`` inside the exploration band around the
threshold, 1 for every deterministic decision (outside the band, cache hits, requests
that ask for deliberate thinking). A threshold policy ``π`` is deterministic: on record
``i`` it takes route ``π(x_i)``, so its importance weight is ``w_i = 1[a_i = π(x_i)] / p_i``.

Records a threshold does not decide are *fixed*: cache hits (the pattern is in the
System 1 cache), forced System 2 (propensity 1 with confidence 1) and any other
deterministic route that disagrees with the greedy rule of the thresholds in force.
Both policies keep the logged route on them (weight ``1 / p = 1``).

Two estimators of a policy's success rate:

* **SNIPS** (self-normalised IPS): ``Σ w r / Σ w``; delta-method standard error.
* **DR** (doubly robust): ``mean(q(x, π(x)) + w (r - q(x, a)))`` with a reward model
  ``q`` (success per domain, system and complexity bin, shrunk towards the domain's and
  the system's mean), cross-fitted on two halves so that no record's own outcome is in
  its model.

The shipped method is the one with the smaller measured error (``experiments/run_offpolicy.py``,
README "Checked before and after"). The System 2 share of a deterministic policy needs
no estimate: it is the share of logged requests it would send to System 2.

The estimate is refused ("too thin") when the requests on which the two policies
differ carry too little randomized evidence: fewer explored records than ``min_support``
on either side of the change, or none at all.

>>> import numpy as np
>>> w = importance_weights(np.array([True, False]), np.array([True, True]), np.array([0.5, 1.0]))
>>> w.tolist()
[2.0, 0.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from artibot.messages import Message

METHODS = ("snips", "dr")
Z90 = 1.6448536269514722
BINS = 10
UNSUPPORTED_SHARE = 0.05
"""Share of the rerouted requests that may lack any randomized evidence before the estimate is refused."""
PRIOR_WEIGHT = 5.0
"""Pseudo-records with which a reward-model bin is shrunk towards its domain/system mean."""


@dataclass(frozen=True)
class Estimate:
    """A point estimate, its standard error and the per-record influence terms (for differences)."""

    value: float
    se: float
    influence: np.ndarray

    def interval(self, z: float = Z90) -> tuple[float, float]:
        """The normal interval clipped to [0, 1] (and always containing the point)."""
        lo, hi = self.value - z * self.se, self.value + z * self.se
        return max(0.0, min(lo, self.value)), min(1.0, max(hi, self.value))


def importance_weights(logged_s2: np.ndarray, target_s2: np.ndarray, propensity: np.ndarray) -> np.ndarray:
    """``1[a = π(x)] / p`` for a deterministic target policy."""
    p = np.asarray(propensity, dtype=float)
    return np.where(np.asarray(logged_s2) == np.asarray(target_s2), 1.0 / p, 0.0)


def effective_sample_size(w: np.ndarray) -> float:
    """Kish's ``(Σw)² / Σw²`` (0 for no weight)."""
    s2 = float(np.sum(np.square(w)))
    return float(np.sum(w)) ** 2 / s2 if s2 > 0 else 0.0


def snips(w: np.ndarray, r: np.ndarray) -> Estimate:
    """Self-normalised IPS; the influence terms ``w (r - V) / mean(w)`` give the delta-method error.

    >>> e = snips(np.array([1.0, 3.0, 0.0]), np.array([1.0, 0.0, 1.0]))
    >>> round(e.value, 4)
    0.25
    """
    w = np.asarray(w, dtype=float)
    r = np.asarray(r, dtype=float)
    n = len(w)
    total = float(w.sum())
    if n == 0 or total <= 0:
        return Estimate(math.nan, math.nan, np.zeros(n))
    # A weighted mean of rewards in [0, 1]; rounding can land it a hair outside.
    value = min(1.0, max(0.0, float(np.dot(w, r)) / total))
    influence = w * (r - value) / (total / n)
    return Estimate(value, _se(influence), influence)


def doubly_robust(w: np.ndarray, r: np.ndarray, q_logged: np.ndarray, q_target: np.ndarray) -> Estimate:
    """``mean(q(x, π(x)) + w (r - q(x, a)))``, clipped to [0, 1].

    >>> e = doubly_robust(np.array([2.0, 0.0]), np.array([1.0, 0.0]), np.array([0.5, 0.5]), np.array([0.5, 0.4]))
    >>> round(e.value, 4)
    0.95
    """
    terms = np.asarray(q_target, float) + np.asarray(w, float) * (np.asarray(r, float) - np.asarray(q_logged, float))
    n = len(terms)
    if n == 0:
        return Estimate(math.nan, math.nan, np.zeros(0))
    mean = float(terms.mean())
    return Estimate(min(1.0, max(0.0, mean)), _se(terms - mean), terms - mean)


def _se(influence: np.ndarray) -> float:
    n = len(influence)
    return float(np.sqrt(np.sum(np.square(influence - influence.mean())) / (n * max(1, n - 1)))) if n else math.nan


def reward_model(n_b: np.ndarray, k_b: np.ndarray) -> np.ndarray:
    """``q[a, d, bin]`` from counts ``n_b`` and successes ``k_b`` of shape (2, domains, bins): each
    bin's success rate shrunk towards its domain/system mean, which is shrunk towards the
    system's mean, which is shrunk towards 0.5 (``PRIOR_WEIGHT`` pseudo-records each)."""
    n_a, k_a = n_b.sum(axis=(1, 2)), k_b.sum(axis=(1, 2))
    base = (k_a + 0.5 * PRIOR_WEIGHT) / (n_a + PRIOR_WEIGHT)
    n_d, k_d = n_b.sum(axis=2), k_b.sum(axis=2)
    dom = (k_d + base[:, None] * PRIOR_WEIGHT) / (n_d + PRIOR_WEIGHT)
    q: np.ndarray = (k_b + dom[:, :, None] * PRIOR_WEIGHT) / (n_b + PRIOR_WEIGHT)
    return q


def _bin(complexity: np.ndarray) -> np.ndarray:
    return np.clip((np.asarray(complexity, dtype=float) * BINS).astype(np.int64), 0, BINS - 1)


def cross_fitted_q(domain: np.ndarray, complexity: np.ndarray, s2: np.ndarray, success: np.ndarray,
                   n_domains: int) -> np.ndarray:
    """``q[i, a]`` for every record, each from the model fitted on the other half (even/odd rows)."""
    n = len(domain)
    fold = np.arange(n) % 2
    a = np.asarray(s2, dtype=np.int64)
    cell = np.asarray(domain, np.int64) * BINS + _bin(complexity)
    size = 2 * 2 * n_domains * BINS
    index = (fold * 2 + a) * (n_domains * BINS) + cell
    shape = (2, 2, n_domains, BINS)
    n_b = np.bincount(index, minlength=size).reshape(shape).astype(float)
    k_b = np.bincount(index, weights=np.asarray(success, float), minlength=size).reshape(shape)
    # row i (fold f) is predicted by the model of the other fold
    q = np.stack([reward_model(n_b[1 - f], k_b[1 - f]).reshape(2, -1) for f in (0, 1)])  # (fold, a, cell)
    return np.stack([q[fold, 0, cell], q[fold, 1, cell]], axis=1)


@dataclass(frozen=True)
class LoggedWindow:
    """The logged records an estimate is computed on (arrays of one length)."""

    domain: np.ndarray
    """Domain codes indexing ``domains``."""
    domains: tuple[str, ...]
    complexity: np.ndarray
    system2: np.ndarray
    success: np.ndarray
    propensity: np.ndarray
    """NaN where the record had none (counted as a deterministic decision)."""
    fixed: np.ndarray
    """Records no threshold decides (cache hits, forced System 2): every policy keeps their route."""

    def __len__(self) -> int:
        return len(self.domain)


def threshold_route(window: LoggedWindow, thresholds: Mapping[str, float] | Sequence[float]) -> np.ndarray:
    """System 2 (True) per record under per-domain ``thresholds`` (indexed like ``window.domains``):
    the router's rule ``complexity < t -> System 1``; fixed records keep their logged route."""
    t = np.asarray(list(thresholds.values()) if isinstance(thresholds, Mapping) else thresholds, dtype=float)
    s2 = window.complexity >= t[window.domain]
    return np.where(window.fixed, window.system2, s2)


def fixed_records(system2: np.ndarray, propensity: np.ndarray, confidence: np.ndarray, in_cache: np.ndarray,
                  greedy_s2: np.ndarray) -> np.ndarray:
    """Which records were not decided by the threshold (see the module doc)."""
    deterministic = ~(np.asarray(propensity) < 1.0)  # NaN counts as deterministic
    forced = deterministic & np.asarray(system2) & (np.asarray(confidence) >= 1.0 - 1e-12)
    unexplained = deterministic & (np.asarray(system2) != np.asarray(greedy_s2))
    undecided: np.ndarray = np.asarray(in_cache, bool) | forced | unexplained
    return undecided


def _round(x: float, nd: int = 4) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), nd)


def evaluate(window: LoggedWindow, current: Sequence[float], proposed: Sequence[float], *,
             method: str = "dr", level: float = 0.9, min_support: int = 10) -> dict[str, Any]:
    """The checkpoint-2 block: each policy's success and System 2 share, the difference with its
    interval, the effective sample size, or a plain statement that the evidence is too thin.

    ``current`` and ``proposed`` are per-domain thresholds indexed like ``window.domains``.
    """
    if method not in METHODS:
        raise ValueError(Message("value.one_of", key="off-policy method", options=", ".join(METHODS), value=repr(method)))
    n = len(window)
    z = float(_z(level))
    p = np.where(np.isnan(window.propensity), 1.0, window.propensity)
    a = np.asarray(window.system2, bool)
    r = np.asarray(window.success, float)
    pol = {"current": threshold_route(window, current), "proposed": threshold_route(window, proposed)}
    w = {k: importance_weights(a, s, p) for k, s in pol.items()}
    changed = pol["current"] != pol["proposed"]
    explored = p < 1.0
    support = {k: int(np.sum(changed & explored & (a == s))) for k, s in pol.items()}
    # rerouted requests whose proposed route the router could not have taken (outside the band)
    unsupported = int(np.sum(changed & ~explored & (a != pol["proposed"])))
    out: dict[str, Any] = {
        "method": method, "level": level, "n": n, "changed": int(changed.sum()),
        "explored": int(explored.sum()), "no_propensity": int(np.isnan(window.propensity).sum()),
        "fixed": int(np.sum(window.fixed)), "support": support, "unsupported": unsupported,
        "ess": _round(effective_sample_size(w["proposed"]), 1),
        "ess_changed": _round(min(effective_sample_size(w[k][changed]) for k in pol), 1) if changed.any() else None,
    }
    shares = {k: float(s.mean()) if n else math.nan for k, s in pol.items()}
    for k in pol:
        out[k] = {"success": None, "interval": None, "system2_share": _round(shares[k])}
    out["difference"] = {"success": None, "system2_share": _round(shares["proposed"] - shares["current"])}
    out["interval"] = None
    if n == 0:
        return {**out, "verdict": "too_thin", **_said(Message("offpolicy.empty"))}
    thin = _thinness(out, int(changed.sum()), support, min_support, unsupported)
    if thin:
        return {**out, "verdict": "too_thin", **_said(thin)}
    if any(w[k].sum() <= 0 for k in pol):
        return {**out, "verdict": "too_thin", **_said(Message("offpolicy.no_route"))}
    est = _estimates(window, a, r, w, pol, method)
    # The variance rests on the few explored records where the policies differ: Student's t with
    # that effective count as degrees of freedom instead of the normal quantile.
    if out["ess_changed"]:
        z = _t(level, out["ess_changed"] - 1)
    for k, e in est.items():
        lo, hi = e.interval(z)
        out[k].update(success=_round(e.value), interval=[_round(lo), _round(hi)])
    diff = est["proposed"].value - est["current"].value
    se = _se(est["proposed"].influence - est["current"].influence)
    out["difference"]["success"] = _round(diff)
    out["interval"] = [_round(min(diff - z * se, diff)), _round(max(diff + z * se, diff))]
    out["verdict"] = "no_change" if not changed.any() else "estimated"
    out.update(_said(Message("offpolicy.no_change") if not changed.any() else
                     Message("offpolicy.rerouted", changed=int(changed.sum()), n=n)))
    return out


def _said(message: Message) -> dict[str, Any]:
    """The verdict's reason: its English sentence (``reason``, what the round's file and
    ``--json`` have always carried) and the message to say it in another language."""
    return {"reason": str(message), "message": message.to_json()}


def _thinness(out: Mapping[str, Any], changed: int, support: Mapping[str, int], min_support: int,
              unsupported: int) -> Message | None:
    if changed == 0:
        return None
    if out["explored"] == 0:
        return Message("offpolicy.unexplored")
    if unsupported > UNSUPPORTED_SHARE * changed:
        return Message("offpolicy.outside_band", unsupported=unsupported, changed=changed)
    least = min(support.values())
    if least < min_support:
        return Message("offpolicy.little_support", changed=changed, proposed=support["proposed"],
                       current=support["current"], needed=min_support)
    return None


def _estimates(window: LoggedWindow, a: np.ndarray, r: np.ndarray, w: Mapping[str, np.ndarray],
               pol: Mapping[str, np.ndarray], method: str) -> dict[str, Estimate]:
    if method == "snips":
        return {k: snips(w[k], r) for k in pol}
    q = cross_fitted_q(np.asarray(window.domain, np.int64), window.complexity, a, r, len(window.domains))
    rows = np.arange(len(a))
    q_logged = q[rows, a.astype(np.int64)]
    return {k: doubly_robust(w[k], r, q_logged, q[rows, s.astype(np.int64)]) for k, s in pol.items()}


def _t(level: float, df: float) -> float:
    """Student's t quantile by the Cornish-Fisher expansion around the normal one (within 0.2% for
    df >= 5; importing scipy.stats would cost seconds in the learner).

    >>> round(_t(0.9, 30), 3)
    1.697
    """
    z = _z(level)
    v = max(1.0, df)
    return z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v * v)


def _z(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + level / 2)
