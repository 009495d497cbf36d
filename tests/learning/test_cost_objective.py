"""The cost objective: System 1 first where ``c1 + (1 - p1)(c2 + redo) < c2`` (hand-computed cases)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from artibot.config import settings_from_mapping
from artibot.learning import bandit
from artibot.learning.evidence import propose_round
from artibot.learning.frame import frame_from_records
from artibot.learning.posterior import Prior
from artibot.learning.objective import RouteCosts, objective, route_costs
from artibot.hookpath.router.thresholds import Thresholds
from tests.learning.test_evidence import world


def config(**lifelong: object) -> object:
    return settings_from_mapping({"learning": {"lifelong": {"mode": "evidence", "batchSize": 50, **lifelong}}})


def test_break_even_and_saving_by_hand() -> None:
    c = RouteCosts(system1_usd=0.02, system2_usd=0.10, redo_usd=0.10)
    assert c.break_even == pytest.approx(0.08 / 0.20)
    # System 1 first, failing 25%: 0.02 + 0.25 * (0.10 + 0.10) = 0.07 against 0.10
    assert c.saving_usd(0.25) == pytest.approx(0.03)
    # failing 50%: 0.02 + 0.5 * 0.2 = 0.12 against 0.10, the cascade loses 0.02
    assert c.saving_usd(0.5) == pytest.approx(-0.02)
    # a cheap model that costs as much as the dear one never pays first
    assert RouteCosts(0.10, 0.10, 0.0).break_even == 0.0


def test_measured_costs_are_shrunk_toward_the_price_table_prior() -> None:
    s = config()
    prior = route_costs(s)
    assert prior.turns == (0, 0) and prior.system1_usd == pytest.approx(0.05) and prior.system2_usd == 0.10
    many = route_costs(s, {"system1": (10_000, 0.01), "system2": (10_000, 0.30)})
    assert many.system1_usd == pytest.approx(0.01, abs=1e-4) and many.system2_usd == pytest.approx(0.30, abs=1e-3)
    assert many.redo_usd == s.lifelong.redo_cost_usd


def test_an_explicit_success_price_picks_the_success_objective() -> None:
    assert objective(config()) == "cost"
    for key, value in (("system2Cost", 0.05), ("targetSystem2Share", 0.3), ("successValueUsd", 1.0)):
        assert objective(config(**{key: value})) == "success"
    assert objective(config(objective="success")) == "success"


def test_the_cascade_gain_is_system1s_failure_rate_with_its_jacobian() -> None:
    n = np.full(bandit.BINS, 200.0)
    counts = np.stack([n, 0.7 * n, n, 0.9 * n], axis=1)
    f = bandit.fit(counts, 0.5, Prior(), cascade=True)
    assert np.allclose(f.bin_gain(), 0.3, atol=0.01)  # 1 - p1, not p2 - p1 (0.2)
    x = f.pair.mean.copy()
    eps = 1e-6
    for j in (3, bandit.BINS + 3):  # the derivative of 1 - p1 in bin 3 by its two parameters
        x2 = x.copy()
        x2[j] += eps
        p1 = lambda v: 1 / (1 + math.exp(-(v[3] - v[bandit.BINS + 3])))  # noqa: E731
        numeric = ((1 - p1(x2)) - (1 - p1(x))) / eps
        assert f.jacobian()[3, j] == pytest.approx(numeric, rel=1e-3)


COSTS = RouteCosts(system1_usd=0.02, system2_usd=0.10, redo_usd=0.10)  # break-even failure rate 0.4


@pytest.mark.parametrize("seed", [1, 2])
def test_where_the_cascade_pays_more_goes_to_system1_first(seed: int) -> None:
    # System 1 fails 20% of the time (System 2 10%): below the break-even 0.4, so System 1 first pays,
    # though System 2 is better by 0.1, which a success price of 0.05 would buy
    records = world(3000, seed, lambda c: 0.1, p2=0.9)
    p = propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, config(), costs=COSTS)
    assert p.params.price.source == "cost" and p.params.price.value == pytest.approx(0.4)
    assert p.new.for_domain("api") > 0.5
    plain = propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, config(system2Cost=0.05))
    assert plain.new.for_domain("api") < 0.5


@pytest.mark.parametrize("seed", [1, 2])
def test_where_the_cascade_does_not_pay_more_goes_to_system2(seed: int) -> None:
    # System 1 fails 60% of the time: above the break-even 0.4, so System 2 goes first
    records = world(3000, seed, lambda c: 0.5, p2=0.9)
    p = propose_round(frame_from_records(records), Thresholds(0.5, {}), {}, config(), costs=COSTS)
    assert p.new.for_domain("api") < 0.5


def test_a_domain_with_too_little_evidence_moves_no_farther_than_its_prior_allows() -> None:
    # 50 requests, System 1 never tried: with no other domain to pool from, its prior is break-even,
    # so the default threshold (which needs 80% certainty) stays, and the domain's moves at most one band
    records = world(50, 3, lambda c: 0.1, p2=0.9, explore=1.0)
    p = propose_round(frame_from_records(records), Thresholds(0.5, {"api": 0.5}), {}, config(), costs=COSTS)
    assert p.new.default == pytest.approx(0.5)
    assert abs(p.new.for_domain("api") - 0.5) <= 0.15 + 1e-9
    assert p.params.evidence["api"].gain[0] == pytest.approx(COSTS.break_even, abs=0.02)  # indifferent: 1 - p1 = q


def test_checkpoint_2_says_a_cost_step_in_dollars_and_redos_in_either_language() -> None:
    from artibot.learning.evidence_reason import reason, row_message
    from artibot.messages import Message, render

    def threshold_reason_ko(row: dict[str, object]) -> str | None:
        message = row_message(row)
        return render(message, "ko") if isinstance(message, Message) else None

    row = {"domain": "law", "gain": 0.25, "sd": 0.05, "price": 0.4, "source": "cost", "old": 0.4, "new": 0.5,
           "usd_per_100": -1.234, "redos_per_100": 6.0}
    english = reason("law", 0.25, 0.05, 0.4, "cost", 0.4, 0.5, (-1.234, 6.0))
    assert english.endswith("threshold 0.40 → 0.50; per 100 of its turns: $1.23 less, 6.0 more redos")
    korean = threshold_reason_ko(row)
    assert korean is not None and korean.endswith("0.40 → 0.50; 이 도메인 100턴당 $1.23 절감, 재요청 6.0회 증가")
    back = {**row, "old": 0.5, "new": 0.4, "usd_per_100": 0.8, "redos_per_100": -6.0}
    said = threshold_reason_ko(back)
    assert said is not None and said.endswith("$0.80 증가, 재요청 6.0회 감소")
