from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot.errors import InvalidInput
from artibot.hookpath.router import EXPLORATION_BAND, Decision, RoutingPolicy, pattern_key, score
from artibot.hookpath.router.domains import DomainTable
from artibot.hookpath.router.policy import CACHE_CONFIDENCE

from . import shipped_table

MIGRATION = ("Migrate the user database schema to the new architecture, then update the API and the "
             "React frontend, and deploy to production with a rollback plan.")


def policy(default: float = 0.4, domains: dict | None = None, cache: frozenset = frozenset(),
           exploration: float = 0.0) -> RoutingPolicy:
    return RoutingPolicy(default_threshold=default, domain_thresholds=domains or {}, cache=cache,
                         table=shipped_table(), exploration=exploration)


def test_threshold_routing():
    p = policy()
    easy = p.decide("fix the typo in README.md")
    hard = p.decide(MIGRATION)
    assert (easy.system, easy.reason, easy.domain, easy.propensity) == ("system1", "threshold", "docs", 1.0)
    assert (hard.system, hard.reason, hard.propensity) == ("system2", "threshold", 1.0)
    assert easy.pattern == "docs:fix:doc+typo"
    assert easy.threshold == hard.threshold == 0.4
    assert easy.complexity < 0.4 < hard.complexity


@pytest.mark.parametrize("text", ["ultrathink: fix the typo in README.md", "fix the typo --think",
                                  "README 오타를 깊게 생각해서 고쳐줘"])
def test_think_flags_force_system2_even_for_cached_patterns(text):
    key = pattern_key(text, shipped_table().classify(text))
    d = policy(cache=frozenset({key})).decide(text)
    assert (d.system, d.reason, d.propensity, d.confidence) == ("system2", "forced", 1.0, 1.0)


def test_a_cache_hit_routes_to_system1_whatever_the_complexity():
    key = pattern_key(MIGRATION, shipped_table().classify(MIGRATION))
    d = policy(cache=frozenset({key})).decide(MIGRATION)
    assert (d.system, d.reason, d.pattern, d.propensity) == ("system1", "cache", key, 1.0)
    assert d.confidence == CACHE_CONFIDENCE
    assert d.complexity > 0.9
    # a cache hit is never explored
    explored = policy(cache=frozenset({key}), exploration=0.5)
    rng = random.Random(0)
    assert {explored.decide(MIGRATION, rng=rng).reason for _ in range(200)} == {"cache"}


def test_the_domains_learned_threshold_is_used():
    p = policy(default=0.4, domains={"frontend": 0.8})
    front = p.decide("refactor the React button component")
    back = p.decide("refactor the login API endpoint")
    assert (front.domain, back.domain) == ("frontend", "backend")
    assert 0.45 < front.complexity < 0.75 and 0.45 < back.complexity < 0.75
    assert (front.system, front.threshold) == ("system1", 0.8)
    assert (back.system, back.threshold) == ("system2", 0.4)
    # an explicit domain overrides the classification, and with it the threshold
    assert p.decide("refactor the login API endpoint", domain="frontend").system == "system1"
    assert p.decide("리액트 버튼 컴포넌트를 리팩터링해줘").system == "system1"
    assert p.decide("세션 미들웨어를 리팩터링해줘").system == "system2"


def test_thresholds_are_clamped():
    p = RoutingPolicy(0.4, {"a": 0.95, "b": 0.01}, frozenset(), shipped_table(),
                      min_threshold=0.1, max_threshold=0.9)
    assert p.threshold_for("a") == 0.9
    assert p.threshold_for("b") == 0.1
    assert p.threshold_for("unknown") == 0.4


def test_confidence_grows_with_the_distance_to_the_threshold():
    p = policy()
    texts = ["fix the typo in README.md", "add a dark mode toggle to the settings page",
             "refactor the login API endpoint", MIGRATION]
    decisions = [p.decide(t) for t in texts]
    for d in decisions:
        assert 0.5 <= d.confidence <= 1.0
        side = (d.threshold - d.complexity) / d.threshold if d.system == "system1" else \
            (d.complexity - d.threshold) / (1 - d.threshold)
        assert d.confidence == pytest.approx(0.5 + 0.5 * side)
    typo, toggle = decisions[0], decisions[1]
    assert typo.confidence > toggle.confidence  # both System 1, the typo further from 0.4


def near_threshold_policy(text: str, offset: float, e: float) -> RoutingPolicy:
    c = score(text, max(1, len(shipped_table().touched(text)))).score
    return policy(default=min(0.9, max(0.1, c + offset)), exploration=e)


def test_exploration_near_the_threshold_flips_at_rate_e_with_logged_propensity():
    text = "add a dark mode toggle to the settings page"
    e = 0.05
    p = near_threshold_policy(text, 0.05, e)  # complexity just below: greedy is System 1
    rng = random.Random(20240601)
    n = 10_000
    decisions = [p.decide(text, rng=rng) for _ in range(n)]
    flipped = [d for d in decisions if d.reason == "explore"]
    assert abs(len(flipped) / n - e) < 0.007  # about 3 standard deviations
    assert all(d.system == "system2" and d.propensity == e for d in flipped)
    assert all(d.confidence <= 0.5 for d in flipped)
    greedy = [d for d in decisions if d.reason == "threshold"]
    assert len(greedy) + len(flipped) == n
    assert all(d.system == "system1" and d.propensity == pytest.approx(1 - e) for d in greedy)
    # same seed, same decisions
    rng2 = random.Random(20240601)
    assert [p.decide(text, rng=rng2).system for _ in range(200)] == [d.system for d in decisions[:200]]


def test_no_exploration_outside_the_band_or_without_an_rng():
    text = "add a dark mode toggle to the settings page"
    far = near_threshold_policy(text, EXPLORATION_BAND + 0.05, 0.5)
    rng = random.Random(7)
    assert {(d.reason, d.propensity) for d in (far.decide(text, rng=rng) for _ in range(500))} == \
        {("threshold", 1.0)}
    near = near_threshold_policy(text, 0.05, 0.5)
    assert {(d.reason, d.propensity) for d in (near.decide(text) for _ in range(500))} == {("threshold", 1.0)}
    assert {near.decide(text, rng=random.Random(s)).reason for s in range(100)} == {"threshold", "explore"}


def test_decision_to_json_is_json():
    d = policy().decide("fix the typo in README.md")
    data = d.to_json()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"system", "complexity", "domain", "pattern", "confidence", "threshold",
                         "propensity", "reason", "features"}
    assert isinstance(d, Decision)


@pytest.mark.parametrize("kwargs", [
    {"default_threshold": 1.5},
    {"default_threshold": float("nan")},
    {"domain_thresholds": {"x": -0.1}},
    {"exploration": 0.9},
    {"min_threshold": 0.8, "max_threshold": 0.2},
])
def test_invalid_policies_are_rejected(kwargs):
    args = {"default_threshold": 0.4, "domain_thresholds": {}, "cache": frozenset(),
            "table": shipped_table(), **kwargs}
    with pytest.raises(InvalidInput):
        RoutingPolicy(**args)


@settings(max_examples=120, deadline=None)
@given(
    text=st.text(max_size=1500),
    domain=st.one_of(st.none(), st.text(max_size=20)),
    threshold=st.floats(0, 1),
    exploration=st.floats(0, 0.5),
    seed=st.one_of(st.none(), st.integers(0, 2**32)),
)
def test_decide_never_raises(text, domain, threshold, exploration, seed):
    p = RoutingPolicy(threshold, {"frontend": 1 - threshold}, frozenset({"general:fix:typo"}),
                      shipped_table(), exploration=exploration)
    d = p.decide(text, domain=domain, rng=None if seed is None else random.Random(seed))
    assert d.system in ("system1", "system2")
    assert d.reason in ("cache", "threshold", "forced", "explore")
    assert 0 < d.propensity <= 1
    assert 0 <= d.confidence <= 1
    assert 0 <= d.complexity <= 1
    assert p.min_threshold <= d.threshold <= p.max_threshold
    json.dumps(d.to_json())


def test_decide_scored_applies_the_same_rule_to_a_given_complexity() -> None:
    from artibot.hookpath.router.domains import DomainTable
    from artibot.hookpath.router.policy import RoutingPolicy

    policy = RoutingPolicy(0.4, {"frontend": 0.8}, frozenset({"docs:fix:doc+typo"}), DomainTable.from_mapping({}))
    assert policy.decide_scored(0.6, "frontend").system == "system1"
    assert policy.decide_scored(0.6, "backend").system == "system2"
    hit = policy.decide_scored(0.95, "docs", "docs:fix:doc+typo")
    assert (hit.system, hit.reason, hit.propensity) == ("system1", "cache", 1.0)
    assert policy.decide_scored(0.1, "docs", forced="system2").reason == "forced"


# --------------------------------------------------------------------- exploration across the domain
def test_domain_exploration_flips_far_from_the_threshold_at_its_own_rate():
    from artibot.hookpath.router.domains import DomainTable

    p = RoutingPolicy(0.4, {}, frozenset(), DomainTable.from_mapping({}), exploration=0.05, domain_exploration=0.02)
    rng = random.Random(9)
    n = 20_000
    far = [p.decide_scored(0.8, "law", rng=rng) for _ in range(n)]  # 0.4 from the threshold: outside the band
    flipped = [d for d in far if d.reason == "explore"]
    assert abs(len(flipped) / n - 0.02) < 0.003  # ~3 standard deviations
    assert all(d.system == "system1" and d.propensity == 0.02 for d in flipped)
    assert all(d.system == "system2" and d.propensity == pytest.approx(0.98) for d in far if d.reason == "threshold")
    near = [p.decide_scored(0.45, "law", rng=rng) for _ in range(n)]
    assert abs(sum(d.reason == "explore" for d in near) / n - 0.05) < 0.005
    # without an rng, or with both rates 0, routing is deterministic
    assert p.decide_scored(0.8, "law").propensity == 1.0
    quiet = RoutingPolicy(0.4, {}, frozenset(), DomainTable.from_mapping({}))
    assert {quiet.decide_scored(0.8, "law", rng=rng).propensity for _ in range(100)} == {1.0}


@settings(max_examples=200, deadline=None)
@given(c=st.floats(0, 1), t=st.floats(0, 1), e=st.floats(0, 0.5), far=st.floats(0, 0.5), seed=st.integers(0, 2**32))
def test_the_logged_propensity_is_the_probability_of_the_route(c, t, e, far, seed):
    from artibot.hookpath.router.domains import DomainTable

    p = RoutingPolicy(t, {}, frozenset(), DomainTable.from_mapping({}), exploration=e, domain_exploration=far)
    d = p.decide_scored(c, "x", rng=random.Random(seed))
    rate = p.exploration_rate(c, p.threshold_for("x"))
    assert 0 < d.propensity <= 1
    greedy = "system1" if c < p.threshold_for("x") else "system2"
    if rate == 0:
        assert (d.system, d.propensity) == (greedy, 1.0)
    elif d.system == greedy:
        assert d.propensity == pytest.approx(1 - rate)
    else:
        assert (d.reason, d.propensity) == ("explore", rate)


def test_a_learned_domain_rate_replaces_domain_exploration_away_from_the_threshold():
    p = RoutingPolicy(0.4, {}, frozenset(), DomainTable.from_mapping({}), exploration=0.05, domain_exploration=0.01,
                      domain_rates={"law": 0.2, "art": 0.0})
    assert p.exploration_rate(0.9, 0.4, "law") == 0.2
    assert p.exploration_rate(0.9, 0.4, "art") == 0.0
    assert p.exploration_rate(0.9, 0.4, "other") == 0.01
    assert p.exploration_rate(0.45, 0.4, "law") == 0.05  # the band keeps its own rate
    rng = random.Random(3)
    decisions = [p.decide_scored(0.9, "law", rng=rng) for _ in range(4000)]
    flipped = [d for d in decisions if d.reason == "explore"]
    assert 0.17 < len(flipped) / len(decisions) < 0.23
    assert all(d.propensity == 0.2 and d.system == "system1" for d in flipped)
    assert all(d.system == "system2" and d.propensity == 1.0
               for d in (p.decide_scored(0.9, "art", rng=rng) for _ in range(200)))


def test_a_domain_rate_outside_the_allowed_range_is_rejected():
    with pytest.raises(InvalidInput, match="exploration rate of domain 'law'"):
        RoutingPolicy(0.4, {}, frozenset(), DomainTable.from_mapping({}), domain_rates={"law": 0.9})
