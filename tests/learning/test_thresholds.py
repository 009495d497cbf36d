"""Threshold steps: clamp, bounds, new domains, chaining batches (hand-computed)."""

from __future__ import annotations

import pytest

from artibot.config import RouterSettings
from artibot.learning import Thresholds, frame_from_records, propose_round
from artibot.learning.threshold_steps import step

from tests.factories import group_of, settings

S1, S2 = "system1", "system2"
OK, FAIL = "success", "failed"
S2_BETTER = [(S1, FAIL)] * 3 + [(S2, OK)] * 2   # advantage +1
S1_BETTER = [(S1, OK)] * 3 + [(S2, FAIL)] * 2   # advantage -1
HALF = [(S1, OK), (S1, FAIL), (S2, OK), (S2, OK), (S2, OK)]  # s1 0.5, s2 1.0: advantage +0.5


def run(records, thresholds=Thresholds(0.4), **kw):
    return propose_round(frame_from_records(records), thresholds, {}, settings(**kw))


@pytest.mark.parametrize("pattern, expected", [(S2_BETTER, 0.3), (S1_BETTER, 0.5)])
def test_clamp_caps_a_step_at_a_tenth(pattern, expected) -> None:
    p = run(group_of(pattern) + group_of(pattern, start=5, c0=0.5), rate=1.0)
    first = p.steps[0]
    assert abs(first.raw_delta) == 1.0 and abs(first.delta) == 0.1 and first.clamped
    assert p.new.default == pytest.approx(expected)
    assert p.new.domains["backend"] == pytest.approx(expected)


def test_threshold_stays_inside_bounds() -> None:
    low = run(group_of(S2_BETTER) * 1 + group_of(S2_BETTER, start=5, c0=0.5),
              thresholds=Thresholds(0.15, {"backend": 0.12}), rate=1.0)
    assert low.new.default == 0.1 and low.new.domains["backend"] == 0.1
    assert all(s.bounded for s in low.steps)
    high = run(group_of(S1_BETTER) + group_of(S1_BETTER, start=5, c0=0.5),
               thresholds=Thresholds(0.85), rate=1.0)
    assert high.new.default == 0.9 and high.steps[0].bounded


def test_step_arithmetic() -> None:
    router = RouterSettings(adapt_rate=0.05)
    s = step(3, "data", 0.5, 0.4, router)
    assert (s.batch, s.domain, s.raw_delta, s.delta) == (3, "data", 0.025, 0.025)
    assert not s.clamped and not s.bounded
    assert s.new == 0.4 - 0.025


def test_new_domain_starts_from_the_learned_default_before_the_batch_step() -> None:
    batch0 = group_of(S2_BETTER) + group_of([(S2, OK)] * 5, start=5, c0=0.5)          # backend only, A=+1
    batch1 = group_of(S1_BETTER, start=10) + group_of(HALF, start=15, domain="frontend")  # A -1 and +0.5
    p = run(batch0 + batch1, thresholds=Thresholds(0.4, {"security": 0.7}))
    steps = [(s.batch, s.domain, round(s.old, 10), round(s.new, 10)) for s in p.steps]
    assert steps == [
        (0, "*", 0.4, 0.35), (0, "backend", 0.4, 0.35),
        # default: A = (5*-1 + 5*0.5)/10 = -0.25 -> +0.0125
        (1, "*", 0.35, 0.3625), (1, "backend", 0.35, 0.4),
        # frontend starts from the default as it stood before batch 1's step (0.35)
        (1, "frontend", 0.35, 0.325),
    ]
    assert p.new.domains == {"backend": pytest.approx(0.4), "frontend": pytest.approx(0.325), "security": 0.7}
    assert p.net_changes() == {"*": (0.4, pytest.approx(0.3625)), "backend": (0.4, pytest.approx(0.4)),
                               "frontend": (0.4, pytest.approx(0.325))}


def test_one_sided_domain_is_not_added_and_absent_domain_keeps_its_value() -> None:
    records = group_of(S2_BETTER) + group_of([(S2, OK)] * 5, start=5, domain="frontend")
    p = run(records, thresholds=Thresholds(0.4, {"data": 0.2}))
    assert set(p.new.domains) == {"backend", "data"} and p.new.domains["data"] == 0.2


def test_batches_chain_each_from_the_last() -> None:
    records = []
    for b in range(4):
        records += group_of(S2_BETTER, start=10 * b) + group_of(S2_BETTER, start=10 * b + 5, c0=0.5)
    p = run(records, rate=1.0)
    assert [round(s.new, 10) for s in p.steps if s.domain == "*"] == [0.3, 0.2, 0.1, 0.1]
    assert p.steps[-1].bounded and p.new.default == 0.1
    olds = [s.old for s in p.steps if s.domain == "*"]
    news = [s.new for s in p.steps if s.domain == "*"]
    assert olds[1:] == news[:-1]
