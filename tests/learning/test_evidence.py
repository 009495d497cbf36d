"""Evidence mode: posterior math, threshold steps, transfers, persistence, invariants."""

from __future__ import annotations

import copy
import random
from datetime import datetime, timedelta, timezone

import numpy as np
import orjson
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from artibot.config import settings_from_mapping
from artibot.learning import PatternStats, RoundProposal, Thresholds, frame_from_records
from artibot.learning import bandit
from artibot.learning.evidence import LEARNER, PRIOR, decide, propose_round
from artibot.learning.learner import Learned
from artibot.learning.learner_state import EvidenceState
from artibot.learning.empirical_bayes import PRIOR_PRICE as DEFAULT_PRICE
from artibot.learning.posterior import beta_bounds, fit_pair
from artibot.learning.types import DEFAULT_KEY
from tests import factories

BASE = datetime(2026, 2, 1, tzinfo=timezone.utc)


def record(i: int, system: str, ok: bool, *, domain: str = "api", c: float = 0.5, pattern: str | None = None,
           propensity: float | None = 1.0) -> dict:
    return factories.record(i, domain=domain, complexity=c, routed_to=system, outcome="success" if ok else "failed",
                            confidence=0.7, pattern=pattern, id=f"e{i:06d}",
                            timestamp=(BASE + timedelta(seconds=i)).isoformat(), session_id=None, input="x",
                            latency_ms=1.0, propensity=propensity)


def config(**lifelong) -> object:
    return settings_from_mapping({"learning": {"lifelong": {"mode": "evidence", "batchSize": 50, **lifelong}}})


def world(n: int, seed: int, gain, *, domain: str = "api", start: int = 0, p2: float = 0.9,
          explore: float = 0.5) -> list[dict]:
    """Records with both systems tried everywhere: System 1 succeeds with ``p2 - gain(c)``."""
    rng = random.Random(seed)
    out = []
    for i in range(start, start + n):
        c = round(rng.random(), 3)
        s2 = rng.random() < explore
        p = p2 if s2 else p2 - gain(c)
        out.append(record(i, "system2" if s2 else "system1", rng.random() < p, domain=domain, c=c))
    return out


# --------------------------------------------------------------------- posterior math
def test_beta_bounds_hand_computed():
    # Beta(1 + 13, 1): lower 5% quantile is 0.05 ** (1 / 14)
    lo, hi = beta_bounds(13, 13)
    assert lo == pytest.approx(0.05 ** (1 / 14)) and hi == pytest.approx(0.95 ** (1 / 14))
    lo, hi = beta_bounds(0, 3)  # Beta(1, 4): upper 95% quantile is 1 - 0.05 ** (1 / 4)
    assert hi == pytest.approx(1 - 0.05 ** 0.25)


def test_fit_pair_recovers_equal_and_unequal_systems():
    n = np.full(10, 400)
    same = fit_pair(n, np.full(10, 320), n, np.full(10, 320))
    assert np.allclose(same.gain, 0.0, atol=1e-3)
    apart = fit_pair(n, np.full(10, 200), n, np.full(10, 360))
    assert np.allclose(apart.gain, 0.4, atol=0.01)
    assert np.all(np.diag(apart.cov) > 0)


def test_gap_is_extrapolated_where_system1_is_untried():
    # both systems tried on the left half and equal there; System 1 never tried on the right
    n1 = np.array([100] * 10 + [0] * 10)
    n2 = np.full(20, 100)
    fit = fit_pair(n1, (n1 * 0.8).astype(int), n2, np.full(20, 80), PRIOR)
    assert abs(fit.gain[12]) < 0.05  # continues the trend (no gap) instead of jumping to the prior
    sd = np.sqrt(np.einsum("ij,jk,ik->i", fit.gain_jacobian(), fit.cov, fit.gain_jacobian()))
    assert sd[19] > sd[12] > sd[5]  # and is less sure the further it goes


# --------------------------------------------------------------------- threshold steps
def cells_of(records: list[dict]) -> np.ndarray:
    f = frame_from_records(records)
    return bandit.count_cells(f.domain, f.complexity, f.system2, f.success, len(f.domains))[0]


def test_step_toward_system2_when_it_is_credibly_worth_its_price():
    counts = cells_of(world(4000, 1, lambda c: 0.4))  # System 2 better by 0.4 everywhere
    f = bandit.fit(counts, 0.5, PRIOR)
    choice = bandit.choose(f, price=0.05, lo=0.1, hi=0.9, max_step=0.1, level=0.8)
    assert choice.new == pytest.approx(0.4) and choice.probability >= 0.8
    assert choice.best == pytest.approx(0.1)


def test_step_toward_system1_when_system2_does_not_pay_its_price():
    counts = cells_of(world(4000, 2, lambda c: 0.0))
    f = bandit.fit(counts, 0.5, PRIOR)
    choice = bandit.choose(f, price=0.05, lo=0.1, hi=0.9, max_step=0.1, level=0.8)
    assert choice.new == pytest.approx(0.6)
    free = bandit.choose(f, price=0.0, lo=0.1, hi=0.9, max_step=0.1, level=0.99)
    assert free.new == pytest.approx(0.5)  # without a price, equal systems are no (credible) reason to move


def test_no_step_without_evidence():
    few = world(12, 3, lambda c: 0.3)
    f = bandit.fit(cells_of(few), 0.5, PRIOR)
    assert bandit.choose(f, price=0.05, lo=0.1, hi=0.9, max_step=0.1, level=0.8).new == 0.5


def test_round_moves_toward_the_break_even_point_and_stops_there():
    # System 2 gains 0.05 + (c - 0.6): break-even (gain == price) at 0.6
    records = world(6000, 4, lambda c: min(0.45, max(0.0, 0.05 + (c - 0.6))))
    s = config(system2Cost=0.05)
    learned = Learned(Thresholds(0.3, {}), {}, EvidenceState())
    for k in range(0, 6000, 1000):
        t = learned.thresholds
        p, learned = LEARNER.propose(frame_from_records(records[k:k + 1000]), learned, s)
        # 1000 records are 20 batches of 50: the chain may move up to 0.1 per batch
        assert abs(p.new.for_domain("api") - t.for_domain("api")) <= 0.1 * p.params.batches + 1e-9
    assert abs(learned.thresholds.for_domain("api") - 0.6) <= 0.1


def test_target_system2_share_sets_the_price():
    records = world(3000, 5, lambda c: 0.3 * c)  # gain grows with complexity
    low = propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, config(targetSystem2Share=0.1))
    high = propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, config(targetSystem2Share=0.9))
    assert low.params.price.source == "targetSystem2Share"
    assert low.params.price.value > high.params.price.value
    assert low.new.for_domain("api") >= high.new.for_domain("api")
    plain = propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, config(objective="success"))
    # the success objective with neither set: the price is estimated from the data (System 2's mean gain here is ~0.15)
    assert plain.params.price.source == "estimated"
    assert abs(plain.params.price.value - 0.15) < 0.05 and plain.params.price.value != DEFAULT_PRICE


# --------------------------------------------------------------------- the round
def test_round_shape_batches_remainder_and_flush():
    records = world(130, 6, lambda c: 0.1)
    p = propose_round(frame_from_records(records), Thresholds(0.4, {}), {}, config())
    assert p.mode == "evidence" and len(p.processed_ids) == 100 and p.remainder == 30
    assert len(p.batches) == 1 and all(g.batch == 0 for g in p.groups)
    assert sum(g.size for g in p.groups) == 100
    assert len(p.params.intervals.groups) == len(p.groups)
    assert [s.domain for s in p.steps] == [DEFAULT_KEY, "api"]
    flushed = propose_round(frame_from_records(records), Thresholds(0.4, {}), {}, config(), flush=True)
    assert len(flushed.processed_ids) == 130 and flushed.remainder == 0
    empty = propose_round(frame_from_records(records[:10]), Thresholds(0.4, {}), {}, config())
    assert empty.processed_ids == () and empty.steps == () and empty.new == Thresholds(0.4, {})


def _trials(state: Learned) -> float:
    assert isinstance(state.own, EvidenceState)
    return sum(c.n1 + c.n2 for bins in state.own.cells.values() for c in bins.values()) / bandit.SCALE


def test_cells_are_the_learners_own_state_and_accumulate():
    records = world(200, 7, lambda c: 0.1)
    p, after = LEARNER.propose(frame_from_records(records), Learned(Thresholds(0.4, {}), {}, EvidenceState()), config())
    assert isinstance(after.own, EvidenceState) and after.own.cells
    assert _trials(after) == 200
    assert not any(k.startswith("~") for k in p.patterns_after) and after.patterns == p.patterns_after
    _, again = LEARNER.propose(frame_from_records(world(200, 8, lambda c: 0.1, start=1000)), after, config())
    assert _trials(again) == pytest.approx(200 * 0.5 ** (200 / bandit.HALF_LIFE) + 200, abs=40 / bandit.SCALE)  # rounding


def test_a_contradicted_history_is_reset():
    good = [record(i, "system1", True, c=0.2 + 0.001 * (i % 100)) for i in range(400)]
    _, after = LEARNER.propose(frame_from_records(good), Learned(Thresholds(0.4, {}), {}, EvidenceState()), config())
    bad = [record(1000 + i, "system1", i % 4 == 0, c=0.2 + 0.001 * (i % 100)) for i in range(200)]
    q, later = LEARNER.propose(frame_from_records(bad), after, config())
    assert [(c["domain"], c["system"]) for c in q.params.extra["changes"]] == [("api", 1)]
    assert isinstance(later.own, EvidenceState)
    assert later.own.arrays()["api"][:, bandit.N1].sum() == pytest.approx(200)


def test_cache_records_are_left_out_of_the_threshold_evidence():
    active = {"api:fix:typo": PatternStats("api:fix:typo", status="active", n=5, n1=5, k1=5)}
    records = [record(i, "system1", True, pattern="api:fix:typo") for i in range(50)]
    p = propose_round(frame_from_records(records), Thresholds(0.4, {}), active, config())
    assert p.params.numbers["cache_records"] == 50 and p.groups == () and p.steps == ()
    assert [d.key for d in p.decisions] == ["api:fix:typo"]


def test_explored_records_are_counted():
    records = [record(i, "system2", True, propensity=0.05 if i % 10 == 0 else 0.95) for i in range(50)]
    p = propose_round(frame_from_records(records), Thresholds(0.4, {}), {}, config())
    assert p.params.numbers["explored"] == 5


# --------------------------------------------------------------------- transfers
def stats(status: str = "candidate", n1: int = 0, k1: int = 0, n2: int = 0, k2: int = 0) -> PatternStats:
    return PatternStats("api:fix:typo", status=status, n=n1 + n2, n1=n1, k1=k1, n2=n2, k2=k2)


@pytest.mark.parametrize(("s", "action", "code"), [
    (stats(n1=13, k1=13), "promote", "promote_s1"),       # lower bound 0.807 >= 0.8
    (stats(n1=12, k1=12), "hold", "hold_evidence"),       # lower bound 0.794
    (stats(n2=13, k2=13), "promote", "promote_s2"),       # System 2 credibly good, System 1 untried
    (stats(n1=2, k1=0, n2=30, k2=30), "hold", "hold_evidence"),  # System 1's record speaks against it
    (stats("active", n1=3, k1=0), "demote", "demote_bound"),     # upper bound 0.53 < 0.7
    (stats("active", n1=3, k1=1), "hold", "hold_active"),        # upper bound 0.81
    (stats("active", n1=20, k1=18), "hold", "hold_active"),
    (stats("demoted", n1=10, k1=5, n2=40, k2=40), "hold", "hold_evidence"),  # hysteresis
])
def test_transfer_decisions_by_bounds(s, action, code):
    d = decide(s, config())
    assert (d.action, d.code) == (action, code)


@pytest.mark.parametrize("s", [stats(n1=12, k1=12), stats(n1=2, k1=0, n2=30, k2=30), stats(n2=12, k2=12),
                               stats(n1=13, k1=13), stats(n1=1, k1=1, n2=1, k2=1),
                               # lower bounds 0.798 and 0.7996: shown as 0.80 they read as reaching 0.80
                               stats(n1=28, k1=26), stats(n1=42, k1=38), stats(n1=1, k1=0, n2=28, k2=26)])
def test_a_hold_never_shows_a_bound_that_reaches_the_bar(s):
    """A reason that says a bound falls short shows it short, and one that reaches says so."""
    import re

    d = decide(s, config())
    bar = config().transfer.promotion_confidence
    lo1, hi1 = map(float, re.search(r"System 1 \d+/\d+ \(success (\d\.\d+)-(\d\.\d+)\)", d.reason).groups())
    lo2 = float(re.search(r"System 2 \d+/\d+ \(success at least (\d\.\d+)\)", d.reason).group(1)) \
        if "System 2" in d.reason else None
    if "System 1 is surely below" in d.reason:  # System 2 reaches the bar, System 1's upper bound does not
        assert hi1 < bar and lo2 is not None and lo2 >= bar, d.reason
    elif d.action == "hold":
        assert "neither is surely at least 0.80" in d.reason and lo1 < bar and (lo2 or 0) < bar, d.reason
    else:
        assert lo1 >= bar or (lo2 is not None and lo2 >= bar), d.reason


def test_false_demotion_of_a_90_percent_pattern_over_50_uses_is_rare():
    """Exact probability, by dynamic programming over (successes, uses), checking after every use."""
    s = config()
    p, uses = 0.9, 50
    alive = {0: 1.0}
    demoted = 0.0
    for n in range(1, uses + 1):
        nxt: dict[int, float] = {}
        for k, prob in alive.items():
            nxt[k + 1] = nxt.get(k + 1, 0.0) + prob * p
            nxt[k] = nxt.get(k, 0.0) + prob * (1 - p)
        alive = {}
        for k, prob in nxt.items():
            if decide(stats("active", n1=n, k1=k), s).action == "demote":
                demoted += prob
            else:
                alive[k] = prob
    assert demoted <= 0.05
    assert demoted == pytest.approx(0.013, abs=0.005)


# --------------------------------------------------------------------- invariants
def assert_plain(value) -> None:
    """Only JSON's own Python types (exact types: a numpy float64 is a float subclass)."""
    if isinstance(value, dict):
        assert all(type(k) is str for k in value)
        for v in value.values():
            assert_plain(v)
    elif isinstance(value, list):
        for v in value:
            assert_plain(v)
    else:
        assert type(value) in (str, int, float, bool, type(None)), (type(value), value)


def test_params_of_a_round_with_a_reset_are_plain_json():
    good = [record(i, "system1", True, c=0.2 + 0.001 * (i % 100)) for i in range(400)]
    _, after = LEARNER.propose(frame_from_records(good), Learned(Thresholds(0.4, {}), {}, EvidenceState()), config())
    bad = [record(1000 + i, "system1", i % 4 == 0, c=0.2 + 0.001 * (i % 100)) for i in range(200)]
    q, _ = LEARNER.propose(frame_from_records(bad), after, config(targetSystem2Share=0.2))
    assert q.params.extra["changes"]
    assert_plain(q.params.to_json())


@st.composite
def rounds(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(0, 180))
    domains = ["api", "web", "data"][: draw(st.integers(1, 3))]
    records = []
    for i in range(n):
        c = round(rng.random(), 3)
        records.append(record(rng.randrange(10**6), rng.choice(("system1", "system2")), rng.random() < 0.7,
                              domain=rng.choice(domains), c=c,
                              pattern=rng.choice((None, "api:fix:typo", "web:add:button")),
                              propensity=rng.choice((None, 1.0, 0.95, 0.05))))
    uniq = {r["id"]: r for r in records}
    t = Thresholds(draw(st.floats(0.0, 1.0)), {d: draw(st.floats(0.0, 1.0)) for d in domains if rng.random() < 0.5})
    patterns = {"api:fix:typo": PatternStats("api:fix:typo", status=rng.choice(("candidate", "active")), n=4,
                                             n1=2, k1=2, n2=2, k2=1)}
    share = draw(st.sampled_from([None, 0.3]))
    return list(uniq.values()), t, patterns, share, draw(st.booleans())


@hsettings(max_examples=40, deadline=None)
@given(rounds())
def test_invariants(case):
    records, t, patterns, share, flush = case
    s = config(targetSystem2Share=share) if share is not None else config()
    records_copy, patterns_copy, t_copy = copy.deepcopy(records), copy.deepcopy(patterns), copy.deepcopy(t)
    p = propose_round(frame_from_records(records), t, patterns, s, flush=flush)
    assert records == records_copy and patterns == patterns_copy and t == t_copy  # inputs not mutated
    lo, hi = s.router.min_threshold, s.router.max_threshold
    for step in p.steps:
        assert lo <= step.new <= hi
        # the trust region: 0.1 per batch of the round, the batches chaining
        assert abs(step.new - min(max(step.old, lo), hi)) <= 0.1 * max(1, p.params.batches) + 1e-9
        assert p.params.numbers["reach"] == pytest.approx(0.1 * max(1, p.params.batches))
    assert set(p.new.domains) >= set(t.domains)
    again = propose_round(frame_from_records(records), t, patterns, s, flush=flush)
    assert again == p  # deterministic
    assert_plain(p.params.to_json())  # the store writes it with orjson, which refuses numpy scalars
    loaded = RoundProposal.from_json(orjson.loads(orjson.dumps(p.to_json())))
    assert loaded == p  # a pending round survives the JSON round trip
    assert len(p.params.intervals.groups) == len(p.groups)


# --------------------------------------------------------------------- through the cycle
def test_learn_in_evidence_mode_defers_and_applies(tmp_path):
    from artibot.collector import collect_many
    from artibot.round.cycle import learn
    from artibot.round.review import answer_pending

    s = config(system2Cost=0.05)
    collect_many(world(2000, 9, lambda c: 0.0), home=tmp_path)
    report = learn(home=tmp_path, answers="defer", settings=s)
    assert report.status == "deferred" and report.mode == "evidence"
    done = answer_pending(home=tmp_path, answers=["1=accept", "2=apply", "3=auto"], settings=s)
    assert done.status == "applied"
    assert done.threshold_changes["api"]["new"] > done.threshold_changes["api"]["old"]


# --------------------------------------------------------------------- price in force, words, reach
def test_status_and_checkpoint_2_show_the_price_and_each_change_in_words(tmp_path):
    from artibot.collector import collect_many
    from artibot.config import default_settings
    from artibot.round.cycle import learn
    from artibot.reports.status import status

    from dataclasses import replace

    s = default_settings()  # the shipped defaults with the success objective: evidence mode, price estimated
    s = replace(s, lifelong=replace(s.lifelong, objective="success"))
    assert s.lifelong.mode == "evidence" and s.lifelong.system2_cost is None
    before = status(home=tmp_path, settings=s)["price"]
    assert before == {"value": DEFAULT_PRICE, "source": "estimated", "round": None}
    collect_many(world(2000, 11, lambda c: 0.3 if c > 0.5 else 0.0), home=tmp_path)
    report = learn(home=tmp_path, answers="defaults", settings=s)
    assert report.status == "applied"
    after = status(home=tmp_path, settings=s)["price"]
    assert after["source"] == "estimated" and after["round"] == report.round_id
    assert 0.05 < after["value"] < 0.3  # System 2 gains 0.3 on half the traffic, 0 on the rest
    ev = report.evidence[2]
    assert ev.summary["price_source"] == "estimated"
    reasons = [r["reason"] for r in ev.rows]
    assert all(" is above its price " in r or " is below its price " in r for r in reasons)
    assert any(r.startswith("api: System 2's gain") and "(estimated)" in r for r in reasons)
    seed = settings_from_mapping({"learning": {"lifelong": {"mode": "seed"}}})
    assert status(home=tmp_path, settings=seed)["price"] is None  # the seed's rule has no price


def test_reason_in_words():
    from artibot.learning.evidence import reason

    assert reason("law", 0.14, 0.05, 0.1, "estimated", 0.4, 0.3) == \
        "law: System 2's gain 0.14 ± 0.05 is above its price 0.10 (estimated) → more System 2: threshold 0.40 → 0.30"
    assert reason("law", 0.06, 0.02, 0.09, "estimated", 0.4, 0.5) == \
        "law: System 2's gain 0.06 ± 0.02 is below its price 0.09 (estimated) → more System 1: threshold 0.40 → 0.50"
    assert reason("law", -0.031, 0.02, 0.1, "system2Cost", 0.4, 0.4) == \
        ("law: System 2's gain -0.03 ± 0.02 is below its price 0.10 (system2Cost) → threshold stays 0.40: no "
         "threshold within reach is surely better")


def test_a_round_of_many_batches_moves_as_far_as_the_evidence_supports():
    # System 2 never helps and costs 0.05: every threshold should rise, far, in one round of 40 batches
    records = world(2000, 12, lambda c: 0.0)
    one = propose_round(frame_from_records(records), Thresholds(0.2, {}), {}, config(system2Cost=0.05))
    assert one.params.batches == 40 and one.params.numbers["reach"] == pytest.approx(4.0)
    assert one.new.for_domain("api") - 0.2 > 0.1 + 1e-9  # more than one step of the seed's trust region
    # with a single batch the trust region is one step
    few = propose_round(frame_from_records(records[:50]), Thresholds(0.2, {}), {}, config(system2Cost=0.05))
    assert abs(few.new.for_domain("api") - 0.2) <= 0.1 + 1e-9


# --------------------------------------------------------------------- the first round
def routed(n: int, seed: int, *, t: float, lo: float = 0.0, hi: float = 1.0, band: float = 0.05,
           far: float = 0.01, domain: str = "api", gain: float = 0.0) -> list[dict]:
    """Records as the shipped router makes them at threshold ``t``: the other system is tried at
    ``band`` within 0.15 of ``t`` and at ``far`` beyond; System 2 succeeds 80%, System 1 ``gain`` less."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        c = round(lo + (hi - lo) * rng.random(), 3)
        s2 = (c >= t) != (rng.random() < (band if abs(c - t) <= 0.15 else far))
        out.append(record(i, "system2" if s2 else "system1", rng.random() < (0.8 if s2 else 0.8 - gain),
                          domain=domain, c=c))
    return out


def test_a_first_round_moves_no_farther_than_the_band_where_the_traffic_lies_around_the_threshold():
    # System 2 buys nothing here, so the evidence points up; but System 1 was tried beyond the
    # band only by the 1% exploration: the first round stops at the band's edge, the next goes on
    records = routed(1000, 21, t=0.4)
    s = config(system2Cost=0.05)
    first, after = LEARNER.propose(frame_from_records(records), Learned(Thresholds(0.4, {}), {}, EvidenceState()), s)
    assert first.new.for_domain("api") == pytest.approx(0.55)
    assert first.params.evidence["api"].reach == pytest.approx(0.15)
    more = routed(1000, 22, t=0.55)
    second, _ = LEARNER.propose(frame_from_records(more), after, s)
    assert second.new.for_domain("api") > 0.55 + 0.1
    # tried widely beyond the band (50% exploration everywhere), the first round goes as far as its evidence
    wide = routed(1000, 21, t=0.4, band=0.5, far=0.5)
    assert propose_round(frame_from_records(wide), Thresholds(0.4, {}), {}, s).new.for_domain("api") > 0.55 + 0.1


def test_a_first_round_may_switch_a_domain_whose_traffic_lies_away_from_its_threshold():
    # every request scores 0.66-0.90 against 0.4 (an MMLU subject): no traffic the band could show
    records = routed(1000, 23, t=0.4, lo=0.66, hi=0.9)
    p = propose_round(frame_from_records(records), Thresholds(0.4, {}), {}, config(system2Cost=0.05))
    assert p.new.for_domain("api") > 0.66


def test_the_default_threshold_does_not_move_on_a_handful_of_system1_trials():
    # all System 2 but for six System 1 successes, in three domains: the default stays where it is
    records = [r for k, d in enumerate(("a", "b", "c"))
               for r in routed(300, 30 + k, t=0.4, lo=0.66, hi=0.9, far=0.0, domain=d)]
    for i in range(6):
        records.append(record(900 + i, "system1", True, domain="abc"[i % 3], c=0.7 + 0.01 * i))
    records = [dict(r, id=f"e{i:06d}", timestamp=(BASE + timedelta(seconds=i)).isoformat())
               for i, r in enumerate(records)]
    p = propose_round(frame_from_records(records), Thresholds(0.4, {}), {}, config(system2Cost=0.05))
    assert p.new.default == pytest.approx(0.4)
    assert p.params.numbers["default_level"] == 0.8
    # both systems tried widely, System 2 buying nothing: the default follows the evidence
    wide = routed(1500, 33, t=0.4, band=0.5, far=0.5)
    assert propose_round(frame_from_records(wide), Thresholds(0.4, {}), {}, config(system2Cost=0.05)).new.default > 0.55
