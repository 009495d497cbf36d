"""The weekly drift check: the stratified test, the Bonferroni flag, and the report over a home."""

from __future__ import annotations

import copy
import random
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st
from scipy import stats

from artibot.learning.drift import drift_check, stratified_p_value, summarize
from tests.factories import record

NOW = datetime(2026, 3, 1, tzinfo=timezone.utc)
DAY = 86400.0


def rec(i: int, days_ago: float, system: str, ok: bool, *, domain: str = "api", c: float = 0.3) -> dict:
    return record(i, domain=domain, complexity=c, routed_to=system, outcome="success" if ok else "escalated",
                  confidence=0.8, id=f"d{i:06d}", timestamp=(NOW - timedelta(days=days_ago)).isoformat(),
                  session_id=None, input="x", latency_ms=1.0)


def outcomes(start: int, n: int, rate: float, days: tuple[float, float], seed: int, *, domain: str = "api",
             system: str = "system1") -> list[dict]:
    rng = random.Random(seed)
    return [rec(start + i, rng.uniform(*days), system, rng.random() < rate, domain=domain) for i in range(n)]


def test_identical_strata_give_p_one_and_a_big_change_a_tiny_p():
    same = np.array([[80, 100], [40, 50]])
    assert stratified_p_value(same, same * 3) == pytest.approx(1.0)
    assert stratified_p_value(np.array([[10, 20], [5, 20]]), np.array([[90, 100], [45, 50]])) < 1e-6


def test_one_shared_stratum_falls_back_to_fisher():
    recent, history = np.array([[3, 10], [0, 0]]), np.array([[40, 50], [0, 0]])
    assert stratified_p_value(recent, history) == pytest.approx(stats.fisher_exact([[3, 7], [40, 10]])[1])


def test_cmh_matches_the_textbook_formula():
    recent = np.array([[12, 20], [30, 40]])
    history = np.array([[50, 60], [70, 80]])
    # by hand: a = 12 + 30; E = sum n1*m1/N; V = sum n1*n2*m1*m0/(N^2 (N-1))
    e = 20 * 62 / 80 + 40 * 100 / 120
    v = 20 * 60 * 62 * 18 / (80 ** 2 * 79) + 40 * 80 * 100 * 20 / (120 ** 2 * 119)
    chi2 = (abs(42 - e) - 0.5) ** 2 / v
    assert stratified_p_value(recent, history) == pytest.approx(stats.chi2.sf(chi2, 1))


def test_a_drop_in_recent_success_is_flagged():
    records = (outcomes(0, 400, 0.9, (8, 60), 1) + outcomes(1000, 80, 0.5, (0, 7), 2)
               + outcomes(2000, 400, 0.8, (8, 60), 3, domain="web") + outcomes(3000, 80, 0.8, (0, 7), 4, domain="web"))
    rows = drift_check(records, now=NOW.timestamp())
    by = {(r.domain, r.system): r for r in rows}
    assert by["api", "system1"].drift and not by["web", "system1"].drift
    assert by["api", "system1"].recent_n == 80 and by["api", "system1"].history_n == 400
    summary, proposed = summarize(rows, days=7, alpha=0.05)
    assert [p["domain"] for p in proposed] == ["api"] and "drift in 1 of 2" in summary


def test_a_moved_threshold_is_not_drift():
    """System 1 now gets harder requests (a raised threshold): its pooled rate falls, each stratum's does not."""
    rng = random.Random(5)
    records = []
    for i in range(2000):
        recent = i >= 1600
        c = rng.uniform(0.0, 0.6 if recent else 0.4)  # recently up to 0.6
        p = 0.95 if c < 0.4 else 0.6
        records.append(rec(i, rng.uniform(0, 7) if recent else rng.uniform(8, 60), "system1", rng.random() < p, c=c))
    rows = drift_check(records, now=NOW.timestamp())
    assert not rows[0].drift and rows[0].p_value > 0.05
    recent_rate, history_rate = rows[0].recent_rate, rows[0].history_rate
    assert history_rate - recent_rate > 0.05  # a pooled test would have cried drift
    pooled = stats.fisher_exact([[rows[0].recent_k, rows[0].recent_n - rows[0].recent_k],
                                 [rows[0].history_k, rows[0].history_n - rows[0].history_k]])[1]
    assert pooled < 0.001


def test_untested_pairs_and_bonferroni_count():
    records = outcomes(0, 50, 0.9, (8, 30), 6) + outcomes(100, 10, 0.9, (0, 3), 7, domain="new")
    rows = drift_check(records, now=NOW.timestamp())
    assert [(r.domain, r.tested) for r in rows] == [("api", False), ("new", False)]
    assert all(r.p_value == 1.0 and not r.drift for r in rows)
    assert "nothing to test" in summarize(rows, days=7, alpha=0.05)[0]
    assert drift_check([], now=NOW.timestamp()) == []


@hsettings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120))
def test_invariants(seed, n):
    rng = random.Random(seed)
    records = [rec(i, rng.uniform(0, 30), rng.choice(("system1", "system2")), rng.random() < 0.7,
                   domain=rng.choice(("a", "b")), c=rng.random()) for i in range(n)]
    before = copy.deepcopy(records)
    rows = drift_check(records, now=NOW.timestamp())
    assert records == before
    assert rows == drift_check(records, now=NOW.timestamp())
    m = sum(r.tested for r in rows)
    for r in rows:
        assert 0.0 <= r.p_value <= 1.0
        assert r.drift == (r.tested and r.p_value < 0.05 / max(1, m))
        assert r.recent_n + r.history_n == sum(1 for x in records if (x["domain"], x["routed_to"]) ==
                                               (r.domain, r.system))


def test_drift_report_reads_the_archive_and_the_log(tmp_path):
    from artibot.collector import collect_many
    from artibot.config import settings_from_mapping
    from artibot.round.cycle import learn
    from artibot.reports.drift import drift_report

    old = outcomes(0, 300, 0.9, (10, 40), 8)
    collect_many(old, home=tmp_path)
    learn(home=tmp_path, answers="defaults", settings=settings_from_mapping({}))  # archives 300
    collect_many(outcomes(1000, 60, 0.4, (0, 5), 9), home=tmp_path)  # unprocessed, recent
    report = drift_report(home=tmp_path, now=NOW.timestamp())
    assert report["records"] == 360
    row = report["domains"][0]
    assert (row["domain"], row["system"], row["drift"]) == ("api", "system1", True)
    assert row["history"].endswith("/300") and row["recent"].endswith("/60")
    assert report["proposed"][0]["domain"] == "api" and isinstance(row["p_value"], float)
