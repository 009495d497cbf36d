"""Off-policy estimators: hand-computed cases and properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot.learning.offpolicy import (
    LoggedWindow,
    cross_fitted_q,
    doubly_robust,
    effective_sample_size,
    evaluate,
    fixed_records,
    importance_weights,
    snips,
    threshold_route,
)


def test_weights_are_one_over_propensity_where_the_target_agrees():
    w = importance_weights(np.array([True, True, False, False]), np.array([True, False, False, True]),
                           np.array([0.95, 0.05, 1.0, 0.5]))
    assert w.tolist() == pytest.approx([1 / 0.95, 0.0, 1.0, 0.0])


def test_snips_by_hand():
    # weights 1, 3, 0; rewards 1, 0, 1  ->  (1*1 + 3*0) / (1 + 3) = 0.25
    e = snips(np.array([1.0, 3.0, 0.0]), np.array([1.0, 0.0, 1.0]))
    assert e.value == pytest.approx(0.25)
    # influence w (r - V) / mean(w) with mean(w) = 4/3: [0.5625, -0.5625, 0]
    assert e.influence.tolist() == pytest.approx([0.5625, -0.5625, 0.0])
    assert e.se == pytest.approx(math.sqrt(np.sum((e.influence - e.influence.mean()) ** 2) / (3 * 2)))


def test_snips_of_no_weight_is_nan_not_a_number_to_show():
    assert math.isnan(snips(np.zeros(3), np.ones(3)).value)


def test_doubly_robust_by_hand():
    # q(x, π(x)) + w (r - q(x, a)):  0.5 + 2 (1 - 0.5) = 1.5 and 0.4 + 0 = 0.4 -> mean 0.95
    e = doubly_robust(np.array([2.0, 0.0]), np.array([1.0, 0.0]), np.array([0.5, 0.5]), np.array([0.5, 0.4]))
    assert e.value == pytest.approx(0.95)


def test_doubly_robust_is_the_model_when_no_record_agrees_and_ips_when_the_model_is_zero():
    r = np.array([1.0, 0.0, 1.0, 1.0])
    w = np.array([2.0, 2.0, 0.0, 0.0])
    assert doubly_robust(w, r, np.zeros(4), np.zeros(4)).value == pytest.approx(np.mean(w * r))
    assert doubly_robust(np.zeros(4), r, np.zeros(4), np.full(4, 0.7)).value == pytest.approx(0.7)


def test_effective_sample_size():
    assert effective_sample_size(np.ones(10)) == pytest.approx(10)
    assert effective_sample_size(np.array([1.0, 0.0, 0.0])) == pytest.approx(1)
    assert effective_sample_size(np.zeros(3)) == 0.0


def test_reward_model_is_fitted_on_the_other_half():
    # even rows succeed, odd rows fail: each row's model comes from the other parity only
    n = 200
    domain = np.zeros(n, np.int64)
    c = np.full(n, 0.55)
    s2 = np.zeros(n, bool)
    ok = np.arange(n) % 2 == 0
    q = cross_fitted_q(domain, c, s2, ok, 1)
    assert q[0, 0] < 0.1 and q[1, 0] > 0.9


def _window(c, s2, ok, p, fixed=None, domain=None):
    n = len(c)
    return LoggedWindow(np.zeros(n, np.int64) if domain is None else np.asarray(domain), ("api",),
                        np.asarray(c, float), np.asarray(s2, bool), np.asarray(ok, bool), np.asarray(p, float),
                        np.zeros(n, bool) if fixed is None else np.asarray(fixed, bool))


def test_threshold_route_keeps_fixed_records():
    win = _window([0.2, 0.6, 0.6], [True, True, False], [1, 1, 1], [1, 1, 1], fixed=[True, False, True])
    assert threshold_route(win, [0.5]).tolist() == [True, True, False]


def test_fixed_records_are_cache_hits_forced_and_unexplained():
    s2 = np.array([True, False, False, True, False])
    p = np.array([1.0, 1.0, 0.95, 1.0, np.nan])
    conf = np.array([1.0, 0.95, 0.6, 0.8, 0.7])
    cache = np.array([False, True, False, False, False])
    greedy = np.array([True, False, False, False, True])
    # forced S2 (conf 1), cache hit, explored (never fixed), S2 against the greedy rule, S1 against it (NaN = 1)
    assert fixed_records(s2, p, conf, cache, greedy).tolist() == [True, True, False, True, True]


def test_evaluate_by_hand_on_a_small_window():
    # threshold 0.5 -> 0.4: the request at 0.45 moves to System 2
    c = [0.45] * 40 + [0.45] * 40 + [0.2] * 20
    s2 = [False] * 40 + [True] * 40 + [False] * 20
    ok = [True] * 20 + [False] * 20 + [True] * 40 + [True] * 20
    p = [0.5] * 80 + [1.0] * 20
    out = evaluate(_window(c, s2, ok, p), [0.5], [0.4], method="snips", min_support=30)
    assert out["verdict"] == "estimated" and out["changed"] == 80
    # current: S1 at 0.45 (half succeed), S1 at 0.2 -> (20*2*1 + 20*2*0 + 20*1) / (80 + 20) = 0.6
    assert out["current"]["success"] == pytest.approx(0.6)
    # proposed: S2 at 0.45 (all succeed) -> 1.0
    assert out["proposed"]["success"] == pytest.approx(1.0)
    assert out["current"]["system2_share"] == 0.0 and out["proposed"]["system2_share"] == 0.8
    assert out["difference"]["success"] == pytest.approx(0.4)
    lo, hi = out["interval"]
    assert lo <= 0.4 <= hi and out["support"] == {"current": 40, "proposed": 40}


def test_evaluate_says_too_thin_without_exploration():
    out = evaluate(_window([0.45, 0.2], [False, False], [True, True], [1.0, 1.0]), [0.5], [0.4])
    assert out["verdict"] == "too_thin" and "no logged decision was randomized" in out["reason"]
    assert out["proposed"]["success"] is None and out["interval"] is None
    assert out["proposed"]["system2_share"] == 0.5  # what it would route is known without randomization


def test_evaluate_says_too_thin_with_few_explored_records_on_the_new_route():
    c = [0.45] * 100
    s2 = [False] * 95 + [True] * 5
    out = evaluate(_window(c, s2, [True] * 100, [0.95] * 95 + [0.05] * 5), [0.5], [0.4], min_support=30)
    assert out["verdict"] == "too_thin" and "only 5 of them were explored" in out["reason"]


def test_evaluate_refuses_a_change_beyond_the_explored_band():
    c = [0.45] * 60 + [0.2] * 40
    s2 = [False] * 30 + [True] * 30 + [False] * 40
    p = [0.5] * 60 + [1.0] * 40
    out = evaluate(_window(c, s2, [True] * 100, p), [0.5], [0.1], min_support=10)
    assert out["verdict"] == "too_thin" and "outside the exploration band" in out["reason"]
    assert out["unsupported"] == 40


def test_no_change_is_reported_as_such():
    out = evaluate(_window([0.45, 0.2], [False, False], [True, False], [0.95, 1.0]), [0.5], [0.5])
    assert out["verdict"] == "no_change" and out["difference"]["success"] == 0.0


def test_unknown_method_is_an_error():
    with pytest.raises(ValueError, match="snips, dr"):
        evaluate(_window([0.5], [True], [True], [1.0]), [0.5], [0.5], method="ips")


@st.composite
def windows(draw):
    n = draw(st.integers(1, 60))
    c = draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
    s2 = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    ok = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    p = draw(st.lists(st.sampled_from([0.05, 0.5, 0.95, 1.0]), min_size=n, max_size=n))
    return _window(c, s2, ok, p)


@settings(max_examples=60, deadline=None)
@given(windows(), st.floats(0.1, 0.9), st.floats(0.1, 0.9), st.sampled_from(["snips", "dr"]))
def test_properties_of_the_estimate(win, current, proposed, method):
    a = np.asarray(win.system2)
    target = threshold_route(win, [proposed])
    w = importance_weights(a, target, win.propensity)
    assert np.all(w >= 0)
    if w.sum() > 0:
        v = snips(w, win.success).value
        assert 0.0 <= v <= 1.0
    out = evaluate(win, [current], [proposed], method=method, min_support=1)
    for name in ("current", "proposed"):
        value, interval = out[name]["success"], out[name]["interval"]
        if value is not None:
            assert 0.0 <= value <= 1.0
            assert interval[0] <= value <= interval[1]
    if out["interval"] is not None:
        assert out["interval"][0] <= out["difference"]["success"] <= out["interval"][1]


def test_snips_of_all_successes_is_exactly_one_despite_rounding():
    # Found by hypothesis in CI: dot(w, 1) / sum(w) is 1.0000000000000002 for these weights.
    w = np.array([1 / 0.95, 20.0, 2.0, 0.0, 1 / 0.95, 0.0, 1 / 0.95, 0.0, 1 / 0.95])
    assert float(np.dot(w, np.ones(9))) / float(w.sum()) > 1.0
    assert snips(w, np.ones(9)).value == 1.0
