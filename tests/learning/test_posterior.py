"""The Laplace fit of :func:`artibot.learning.posterior.fit_pair` lands on the posterior's maximum."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from artibot.learning.evidence import PRIOR
from artibot.learning.posterior import _derivatives, fit_pair, smoothing_precision

# Cell counts of the `artibot demo`'s frontend domain on day 8 (bins 2, 3, 9 and 17 seen; n1 k1 n2 k2)
# with the pooled gap prior of the other three domains: an undamped Newton step overshot into
# saturated logits and "converged" to a gain of 0.000 everywhere, which moved the threshold
# from 0.50 to 0.90 past requests where System 2 wins by 0.78.
DEMO = {2: (26.75, 26.125, 1.5, 1.5), 3: (38.0, 36.375, 0.0, 0.0), 9: (129.875, 99.125, 25.125, 23.5625),
        17: (3.625, 0.0, 180.375, 173.0)}


def counts(cells: dict[int, tuple[float, float, float, float]]) -> np.ndarray:
    out = np.zeros((20, 4))
    for b, row in cells.items():
        out[b] = row
    return out


def gradient_at(pair, c: np.ndarray, gap_mean: np.ndarray, gap_sd: np.ndarray) -> np.ndarray:
    """The log posterior's gradient at the fit (zero at the maximum)."""
    b = 20
    q = np.zeros((2 * b, 2 * b))
    q[:b, :b] = smoothing_precision(b, PRIOR.tau, PRIOR.level_sd)
    q[b:, b:] = smoothing_precision(b, PRIOR.tau_gap, PRIOR.gap_sd) + np.diag(1 / gap_sd ** 2 - 1 / PRIOR.gap_sd ** 2)
    m0 = np.concatenate([np.full(b, PRIOR.level), gap_mean])
    grad, _ = _derivatives(pair.mean, c[:, 0], c[:, 1], c[:, 2], c[:, 3])
    return grad - q @ (pair.mean - m0)


def test_the_demo_case_that_diverged_fits_the_data() -> None:
    c = counts(DEMO)
    gap_mean, gap_sd = np.full(20, 2.884), np.full(20, 3.079)
    pair = fit_pair(c[:, 0], c[:, 1], c[:, 2], c[:, 3], PRIOR, gap_mean=gap_mean, gap_sd=gap_sd)
    assert np.all(np.isfinite(pair.mean))
    assert pair.gain[17] > 0.5          # System 1 0 of 3.6, System 2 173 of 180 there
    assert abs(pair.gain[3]) < 0.1      # System 1 36 of 38 at low complexity
    assert np.max(np.abs(gradient_at(pair, c, gap_mean, gap_sd))) < 1e-6


cell = st.tuples(st.floats(0, 300), st.floats(0, 1), st.floats(0, 300), st.floats(0, 1))


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.integers(0, 19), cell, min_size=1, max_size=6), st.floats(-4, 4), st.floats(0.3, 5))
def test_the_fit_is_the_posterior_maximum(cells, level, sd) -> None:
    c = counts({b: (n1, n1 * f1, n2, n2 * f2) for b, (n1, f1, n2, f2) in cells.items()})
    gap_mean, gap_sd = np.full(20, level), np.full(20, sd)
    pair = fit_pair(c[:, 0], c[:, 1], c[:, 2], c[:, 3], PRIOR, gap_mean=gap_mean, gap_sd=gap_sd)
    assert np.all(np.isfinite(pair.mean))
    assert np.max(np.abs(gradient_at(pair, c, gap_mean, gap_sd))) < 1e-5
