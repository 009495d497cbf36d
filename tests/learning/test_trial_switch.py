"""A trial of the other system: a domain away from its threshold, its other system hardly tried.

91% of MMLU requests score 0.66-0.90 whatever they ask, so a subject is routed almost whole, and one left
on System 2 sees System 1 only through the 1% domain-wide exploration: a handful of trials in
a whole pass, and the pooled prior decides for it. ``evidence.TRY_Z`` lets such a domain move
when the improvement's upper bound (mean + ``TRY_Z`` sds) is above 0, so the other system is
tried for a round; once it has ``FIRST_TRIALS`` trials the ordinary rule decides again.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from artibot.learning import bandit, evidence
from artibot.learning.posterior import Pair


def _fit(gain_sd_logit: float, shortfall: float = 0.02) -> bandit.Fit:
    """All traffic at complexity 0.8 (away from 0.4), System 2 at 0.88, System 1 short of it by
    the price plus ``shortfall`` in expectation, with the gap's sd ``gain_sd_logit`` on the logit scale."""
    b = bandit.BINS
    p2 = 0.88
    p1 = p2 - 0.05 - shortfall
    gap = special.logit(p2) - special.logit(p1)
    mean = np.concatenate([np.full(b, special.logit(p2)), np.full(b, gap)])
    cov = np.diag(np.concatenate([np.full(b, 0.01), np.full(b, gain_sd_logit ** 2)]))
    mass = np.zeros(len(bandit.POINTS))
    mass[np.argmin(np.abs(bandit.POINTS - 0.8))] = 1.0
    return bandit.Fit(0.4, Pair(mean=mean, cov=cov, trials=(2.0, 200.0)), mass)


def test_without_optimism_an_expected_loss_is_not_taken() -> None:
    f = _fit(1.0)
    choice = bandit.choose(f, price=0.05, lo=0.1, hi=0.9, max_step=1.0, level=0.5)
    assert choice.new == choice.old == 0.4


def test_with_optimism_the_other_system_is_tried_when_its_upper_bound_gains() -> None:
    f = _fit(1.0)
    # System 1 for the traffic at 0.8: the threshold must pass it; expected change -0.02 per request
    choice = bandit.choose(f, price=0.05, lo=0.1, hi=0.9, max_step=1.0, level=0.5, optimism=1.0)
    assert choice.new > 0.8
    assert choice.improvement == pytest.approx(-0.02, abs=0.005)
    assert choice.probability < 0.5


def test_a_settled_loss_is_not_tried_whatever_the_optimism() -> None:
    f = _fit(0.01)  # the gap is known: mean + sd is still below 0
    choice = bandit.choose(f, price=0.05, lo=0.1, hi=0.9, max_step=1.0, level=0.5, optimism=1.0)
    assert choice.new == 0.4


def test_the_learner_tries_only_away_from_the_threshold_with_few_trials(monkeypatch) -> None:
    from artibot.learning.objective import Price

    monkeypatch.setattr(evidence, "TRY_Z", 1.0)
    price = Price(0.05, "system2Cost")
    away = _fit(1.0)
    step, _ = evidence._step("mmlu", 0.4, away, price, 0.1, 0.9, 1.0)
    assert step.new > 0.8
    tried = bandit.Fit(away.t, Pair(away.pair.mean, away.pair.cov, (evidence.FIRST_TRIALS, 200.0)), away.mass)
    assert evidence._step("mmlu", 0.4, tried, price, 0.1, 0.9, 1.0)[0].new == 0.4
    near = np.zeros(len(bandit.POINTS))
    near[np.argmin(np.abs(bandit.POINTS - 0.45))] = 1.0  # the traffic is in the band: the band explores it
    around = bandit.Fit(0.4, away.pair, near)
    assert evidence._step("mmlu", 0.4, around, price, 0.1, 0.9, 1.0)[0].new == 0.4
    monkeypatch.setattr(evidence, "TRY_Z", 0.0)
    assert evidence._step("mmlu", 0.4, away, price, 0.1, 0.9, 1.0)[0].new == 0.4
