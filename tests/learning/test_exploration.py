"""The per-domain exploration rates the evidence learner sets (probability matching within a budget)."""

from __future__ import annotations

import numpy as np
import pytest

from artibot.config import settings_from_mapping
from artibot.learning import Thresholds, bandit, exploration, frame_from_records
from artibot.learning.evidence import PRIOR, propose_round
from artibot.hookpath.router.policy import EXPLORATION_BAND

from .test_evidence import cells_of, world


def settings(budget: float | None = None, **router) -> object:
    if budget is not None:
        router["explorationBudget"] = budget
    return settings_from_mapping({"cognitive": {"router": router},
                                  "learning": {"lifelong": {"mode": "evidence", "system2Cost": 0.05}}})


def test_the_probability_is_near_a_half_for_a_coin_flip_and_near_0_when_settled():
    marginal = bandit.fit(cells_of(world(2000, 1, lambda c: 0.05)), 0.1, PRIOR)  # gain == price
    settled = bandit.fit(cells_of(world(2000, 2, lambda c: 0.4)), 0.1, PRIOR)  # System 2 far better
    few = bandit.fit(cells_of(world(40, 3, lambda c: 0.4)), 0.1, PRIOR)  # the same, on 40 records
    p = [exploration.other_side_probability(f, 0.1, 0.05, EXPLORATION_BAND) for f in (marginal, settled, few)]
    assert 0.2 < p[0] < 0.8
    assert p[1] < 0.001
    assert p[1] < p[2]  # the same call on few trials is less settled


def test_water_fill_clips_the_largest_rates_first_and_keeps_the_budget():
    p = {"a": 0.5, "b": 0.2, "c": 0.001}
    far = {"a": 0.3, "b": 0.3, "c": 0.4}
    cap = exploration.water_fill(p, far, 0.05)
    spent = sum(far[d] * min(p[d], cap) for d in p)
    assert spent == pytest.approx(0.05, abs=1e-4)
    assert min(p["c"], cap) == 0.001  # a settled domain keeps its small rate
    assert min(p["a"], cap) == min(p["b"], cap) == cap
    assert exploration.water_fill(p, far, 1.0) == exploration.MAX_RATE
    assert exploration.water_fill(p, far, 0.0) == 0.0


def test_a_round_sets_high_rates_where_the_call_is_marginal_and_zero_where_it_is_settled():
    marginal = world(400, 14, lambda c: 0.05, domain="api")
    settled = world(4000, 15, lambda c: 0.4, domain="law", start=400)
    p = propose_round(frame_from_records(sorted(marginal + settled, key=lambda r: r["timestamp"])),
                      Thresholds(0.5, {"api": 0.5, "law": 0.1}), {}, settings(budget=0.5))
    rates = p.new.exploration
    assert rates["law"] == 0.0
    assert rates["api"] > 0.1
    assert p.params.evidence["api"].exploration == rates["api"]
    assert Thresholds.from_json(p.new.to_json()) == p.new


@pytest.mark.parametrize("budget", [0.02, 0.05])
def test_the_expected_explored_share_stays_within_the_budget(budget):
    records = world(1000, 16, lambda c: 0.05) + world(1000, 17, lambda c: 0.1, domain="law", start=1000)
    p = propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, settings(budget=budget))
    spent = 0.0
    for name in ("api", "law"):
        t = p.new.for_domain(name)
        f = bandit.fit(cells_of([r for r in records if r["domain"] == name]), t, PRIOR)
        near = exploration.band_mass(f, t, EXPLORATION_BAND)
        spent += 0.5 * (near * 0.05 + (1 - near) * p.new.exploration[name])
    assert spent <= budget + 1e-4
    assert max(p.new.exploration.values()) > 0


@pytest.mark.parametrize("router", [{"domainExploration": 0, "explorationBudget": 0.05}, {"explorationBudget": 0}, {}])
def test_no_learned_rates_when_domain_exploration_or_the_budget_is_off(router):
    # {}: the shipped default (explorationBudget 0: the learned rates measured no better, see experiments/)
    records = world(500, 18, lambda c: 0.05)
    assert propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, settings(**router)).new.exploration == {}


def test_the_seed_mode_learns_no_rates():
    records = world(500, 19, lambda c: 0.05)
    s = settings_from_mapping({"learning": {"lifelong": {"mode": "seed"}}})
    from artibot.learning.seed_mode import propose_round as seed_round
    assert seed_round(frame_from_records(records), Thresholds(0.5, {}), {}, s).new.exploration == {}


def test_rates_are_zero_for_domains_without_traffic_away_from_the_threshold():
    # every record within the band of the threshold: the band's rate covers it, no learned rate
    counts = np.zeros((bandit.BINS, 4))
    counts[10] = (20, 10, 20, 15)
    f = bandit.fit(counts, 0.5, PRIOR)
    assert exploration.other_side_probability(f, 0.5, 0.05, EXPLORATION_BAND) == 0.0
