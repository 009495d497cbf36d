"""GRPO groups and advantages, hand-computed (batch 10, groups of 5 unless stated)."""

from __future__ import annotations

import pytest

from artibot.learning import Thresholds, frame_from_records, propose_round

from tests.factories import group_of, rec, settings

S1, S2 = "system1", "system2"
OK, ESC, FAIL = "success", "escalated", "failed"


def run(records, **kw):
    flush = kw.pop("flush", False)
    th = kw.pop("thresholds", Thresholds(0.4))
    return propose_round(frame_from_records(records), th, {}, settings(**kw), flush=flush)


def test_two_sided_and_one_sided_group() -> None:
    records = group_of([(S1, OK), (S1, FAIL), (S1, OK), (S2, OK), (S2, ESC)])
    records += group_of([(S2, OK)] * 4 + [(S2, FAIL)], start=5, c0=0.5)
    p = run(records)
    (g1, g2), = p.batches
    assert (g1.size, g1.n1, g1.k1, g1.n2, g1.k2) == (5, 3, 2, 2, 1)
    assert g1.s1 == pytest.approx(2 / 3) and g1.s2 == pytest.approx(1 / 2)
    assert g1.advantage == pytest.approx(1 / 2 - 2 / 3) and not g1.one_sided
    assert (g2.n1, g2.n2, g2.k2, g2.s1, g2.s2, g2.advantage) == (0, 5, 4, None, 0.8, None)
    assert g2.one_sided
    assert (g1.complexity_min, g1.complexity_max, g2.complexity_min, g2.complexity_max) == (0.0, 0.04, 0.5, 0.54)
    # only the two-sided group counts: A = -1/6, delta = 0.05 * -1/6, threshold rises
    default, backend = p.steps
    assert default.domain == "*" and backend.domain == "backend"
    for s in (default, backend):
        assert s.advantage == pytest.approx(-1 / 6)
        assert s.delta == pytest.approx(-0.05 / 6) and not s.clamped and not s.bounded
        assert s.old == 0.4 and s.new == pytest.approx(0.4 + 0.05 / 6)
    assert p.new.default == pytest.approx(0.4 + 0.05 / 6)
    assert p.new.domains == {"backend": pytest.approx(0.4 + 0.05 / 6)}


def test_last_group_of_one_joins_the_previous_group() -> None:
    records = [rec(i, S1 if i % 2 else S2, complexity=i / 100) for i in range(11)]
    p = run(records, batch=11)
    assert [g.size for g in p.batches[0]] == [5, 6]
    assert p.batches[0][1].complexity_min == 0.05 and p.batches[0][1].complexity_max == 0.10
    p = run(records + [rec(11, S1, complexity=0.11)], batch=12)
    assert [g.size for g in p.batches[0]] == [5, 5, 2]


def test_a_domains_only_record_stays_alone_and_domains_are_cut_separately() -> None:
    records = [rec(i, S1 if i % 2 else S2, domain="backend", complexity=i / 100) for i in range(6)]
    records += [rec(6, S1, domain="frontend")]
    records += [rec(7 + i, S2, domain="data", complexity=i / 10) for i in range(3)]
    p = run(records)
    assert [(g.domain, g.size) for g in p.batches[0]] == [("backend", 6), ("data", 3), ("frontend", 1)]
    assert p.batches[0][2].one_sided and p.batches[0][1].one_sided


def test_batch_sorts_by_domain_then_complexity_whatever_the_arrival_order() -> None:
    cs = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6, 0.0]
    records = [rec(i, S1, complexity=c) for i, c in enumerate(cs)]
    p = run(records)
    assert [(g.complexity_min, g.complexity_max) for g in p.batches[0]] == [(0.0, 0.4), (0.5, 0.9)]


def test_all_escalated_groups_have_zero_shares() -> None:
    records = group_of([(S1, ESC)] * 3 + [(S2, ESC)] * 2)
    records += group_of([(S1, ESC)] * 3 + [(S2, OK)] * 2, start=5, c0=0.5)
    p = run(records)
    g1, g2 = p.batches[0]
    assert (g1.s1, g1.s2, g1.advantage) == (0.0, 0.0, 0.0)
    assert (g2.s1, g2.s2, g2.advantage) == (0.0, 1.0, 1.0)
    # A = (5*0 + 5*1) / 10 = 0.5 -> delta 0.025
    assert p.steps[0].advantage == pytest.approx(0.5)
    assert p.new.default == pytest.approx(0.375)


def test_no_two_sided_group_means_no_step() -> None:
    records = group_of([(S2, OK)] * 5) + group_of([(S1, FAIL)] * 5, start=5, domain="frontend")
    p = run(records)
    assert len(p.steps) == 0
    assert p.new == Thresholds(0.4) and p.net_changes() == {}
    assert all(g.one_sided for g in p.batches[0])
