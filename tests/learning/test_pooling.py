"""Pooled priors across domains and the estimated price (hand-computed cases and properties)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot.learning import empirical_bayes


def test_between_variance_hand_case():
    # two domains, one bin, variances 1: Q = 2 * 1^2 = 2 (mean 0), c = 2 - 2/2 = 1, tau^2 = (2 - 1) / 1
    values = np.array([[1.0], [-1.0]])
    assert empirical_bayes.between_variance(values, np.ones((2, 1))).tolist() == [1.0]
    # alike domains: no spread beyond their own noise
    assert empirical_bayes.between_variance(np.array([[0.1], [0.1]]), np.ones((2, 1))).tolist() == [0.0]
    assert empirical_bayes.between_variance(np.array([[3.0]]), np.ones((1, 1))).tolist() == [0.0]  # one domain


def test_pooled_mean_leaves_the_domain_out_and_none_when_alone():
    est = {"a": (np.array([0.0]), np.array([1.0])), "b": (np.array([2.0]), np.array([1.0])),
           "c": (np.array([4.0]), np.array([3.0]))}
    # tau^2 from all three: w = (1, 1, 1/3), mean 10/7, Q = 2.0408 + 0.3265 + 2.2041 = 4.5714,
    # c = 7/3 - (19/9) / (7/3) = 10/7, tau^2 = (4.5714 - 2) / (10/7) = 1.8
    tau2 = 1.8
    assert empirical_bayes.between_variance(np.array([[0.0], [2.0], [4.0]]), np.array([[1.0], [1.0], [3.0]]))[0] == \
        pytest.approx(tau2)
    expected = (2.0 / (1 + tau2) + 4.0 / (3 + tau2)) / (1 / (1 + tau2) + 1 / (3 + tau2))
    assert empirical_bayes.pooled_mean(est, exclude="a")[0] == pytest.approx(expected)  # 2.7368
    assert empirical_bayes.pooled({"a": est["a"]}, exclude="a") == (None, None)


def test_stratified_gain_and_two_sided_trials_hand_case():
    counts = np.array([[10, 6, 10, 9], [0, 0, 5, 5], [20, 10, 20, 14]], dtype=float)
    gain, weight = empirical_bayes.stratified_gain(counts)
    assert gain == pytest.approx((20 * 0.3 + 40 * 0.2) / 60) and weight == 60.0
    assert empirical_bayes.two_sided_trials(counts) == pytest.approx(10 * 10 / 20 + 20 * 20 / 40)
    assert empirical_bayes.stratified_gain(np.zeros((3, 4))) == (0.0, 0.0)


def test_estimated_price_starts_at_the_prior_and_follows_the_data():
    assert empirical_bayes.estimated_price({}) == empirical_bayes.PRIOR_PRICE
    few = {"law": np.array([[2, 1, 2, 2]], dtype=float)}  # one two-sided trial: close to the prior
    assert abs(empirical_bayes.estimated_price(few) - empirical_bayes.PRIOR_PRICE) < 0.02
    many = {"law": np.array([[2000, 1200, 2000, 1500]], dtype=float),  # gain 0.15
            "art": np.array([[1000, 800, 1000, 850]], dtype=float)}  # gain 0.05
    # traffic-weighted gain (4000 * 0.15 + 2000 * 0.05) / 6000 = 0.1167, trials 1500: ~3% prior
    lam = 1500 / (1500 + empirical_bayes.PRIOR_TRIALS)
    assert empirical_bayes.estimated_price(many) == pytest.approx(lam * 0.11667 + (1 - lam) * 0.05, abs=1e-4)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(-3, 3), st.floats(0.01, 4)), min_size=2, max_size=8))
def test_the_pooled_mean_lies_within_the_domains(pairs):
    est = {f"d{i}": (np.array([v]), np.array([s])) for i, (v, s) in enumerate(pairs)}
    mean = empirical_bayes.pooled_mean(est)[0]
    values = [v for v, _ in pairs]
    assert min(values) - 1e-9 <= mean <= max(values) + 1e-9
    assert empirical_bayes.between_variance(np.array([[v] for v in values]), np.array([[s] for _, s in pairs]))[0] >= 0


@settings(max_examples=100, deadline=None)
@given(st.floats(-1, 1), st.floats(0, 1e6))
def test_the_price_stays_in_bounds(gain, trials):
    assert 0.0 <= empirical_bayes.shrunk_price(gain, trials) <= empirical_bayes.MAX_PRICE
