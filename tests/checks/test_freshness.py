"""The aging System 1 cache: the decay by hand, its monotonicity, the reasons."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artibot.learning.freshness import DAY, FreshnessRules, confidence, demotion_reason, initial_state, record_uses

RULES = FreshnessRules(decay_per_day=0.015, recent_uses=5, recent_failures=2, min_confidence=0.6)


def state(alpha=0, beta=0, recent="", last_used=None, c0=0.9):
    return {**initial_state(c0, 0.0), "alpha": alpha, "beta": beta, "recent": recent, "last_used": last_used}


def test_decay_by_hand():
    # C0 e^(-λ (β+1)/(α+1) t): 0.9 e^(-0.015 * 3/2 * 10) = 0.9 e^(-0.225)
    assert confidence(state(alpha=1, beta=2), 10 * DAY, 0.015) == pytest.approx(0.9 * math.exp(-0.225))
    assert confidence(state(), 0.0, 0.015) == 0.9
    assert confidence(state(), -5 * DAY, 0.015) == 0.9  # before the promotion: no decay


def test_uses_update_counts_and_the_recent_window():
    s = record_uses(state(), [(1.0, True), (2.0, False), (3.0, True), (4.0, False), (5.0, False), (6.0, True)], keep=5)
    assert (s["alpha"], s["beta"], s["recent"], s["last_used"]) == (3, 3, "FTFFS".replace("T", "S"), 6.0)
    original = state()
    record_uses(original, [(1.0, False)], keep=5)
    assert original["beta"] == 0  # inputs are not modified


def test_uses_before_the_promotion_are_not_evidence():
    s = record_uses({**state(), "since": 100.0}, [(50.0, False), (150.0, True)], keep=5)
    assert (s["alpha"], s["beta"]) == (1, 0)


def test_unused_pattern_falls_below_the_floor_after_ln_ratio_over_lambda_days():
    days = math.log(0.9 / 0.6) / 0.015  # 27.03
    assert demotion_reason(state(), 27 * DAY, RULES) is None
    reason = demotion_reason(state(), 28 * DAY, RULES)
    assert reason is not None and str(reason).startswith("unused for 28 days") and days < 28


def test_recent_failures_are_the_reason_when_they_are_there():
    s = state(alpha=3, beta=2, recent="SFSSF", last_used=40 * DAY)
    reason = demotion_reason(s, 41 * DAY, RULES)
    assert reason is not None and str(reason).startswith("2 failures in its last 5 uses")


def test_a_used_pattern_that_decayed_says_how():
    s = state(alpha=0, beta=1, recent="F", last_used=19 * DAY)
    reason = demotion_reason(s, 20 * DAY, RULES)
    assert reason is not None and str(reason).startswith("confidence decayed over 20 days")


@given(st.floats(0, 400), st.floats(0, 400), st.integers(0, 50), st.integers(0, 50), st.integers(0, 5))
def test_decay_is_monotone_in_time_and_failures_and_antitone_in_successes(t1, t2, alpha, beta, more):
    lo, hi = sorted((t1, t2))
    s = state(alpha=alpha, beta=beta)
    assert confidence(s, hi * DAY, 0.015) <= confidence(s, lo * DAY, 0.015)
    assert confidence(state(alpha=alpha, beta=beta + more), hi * DAY, 0.015) <= confidence(s, hi * DAY, 0.015)
    assert confidence(state(alpha=alpha + more, beta=beta), hi * DAY, 0.015) >= confidence(s, hi * DAY, 0.015)
    assert 0 <= confidence(s, hi * DAY, 0.015) <= 0.9
