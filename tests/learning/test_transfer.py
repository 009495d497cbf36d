"""Pattern streaks, confidence and transfer decisions (hand-computed)."""

from __future__ import annotations

import pytest

from artibot.learning import PatternStats, Thresholds, apply_decisions, frame_from_records, propose_round

from tests.factories import rec, settings

S1, S2 = "system1", "system2"
OK, ESC, FAIL = "success", "escalated", "failed"


def round_of(records, patterns=None, **kw):
    """All records processed (flush), one round."""
    return propose_round(frame_from_records(records), Thresholds(0.4), patterns or {},
                         settings(batch=1000, **kw), flush=True)


def seq(pairs, *, key="p", start=0, confidence=0.9):
    return [rec(start + i, s, o, pattern=key, confidence=confidence) for i, (s, o) in enumerate(pairs)]


def decision(p, key="p"):
    (d,) = [d for d in p.decisions if d.key == key]
    return d


def test_promotion_after_three_system2_successes() -> None:
    p = round_of(seq([(S2, OK)] * 3))
    d = decision(p)
    assert d.action == "promote" and d.code == "promote"
    assert d.reason == "3 consecutive System 2 successes (>= 3) and confidence 0.90 > 0.80"
    stats = p.patterns_after["p"]
    assert (stats.status, stats.promotion_streak, stats.n, stats.n2, stats.k2) == ("candidate", 3, 3, 3, 3)
    assert stats.confidence == pytest.approx(0.9)
    assert stats.first_seen == rec(0)["timestamp"] and stats.last_seen == rec(2)["timestamp"]


def test_promotion_streak_broken_by_a_failure() -> None:
    p = round_of(seq([(S2, OK), (S2, OK), (S2, FAIL), (S2, OK), (S2, OK)]))
    d = decision(p)
    assert d.action == "hold" and d.code == "hold_streak" and d.stats.promotion_streak == 2
    assert d.reason == "promotion streak 2 of 3"


def test_escalation_also_breaks_the_promotion_streak() -> None:
    p = round_of(seq([(S2, OK), (S2, OK), (S2, ESC)]))
    assert p.patterns_after["p"].promotion_streak == 0


def test_system1_records_leave_the_promotion_streak_alone() -> None:
    p = round_of(seq([(S2, OK), (S2, OK), (S1, FAIL), (S2, OK)]))
    stats = p.patterns_after["p"]
    assert stats.promotion_streak == 3 and stats.demotion_streak == 1
    assert (stats.n1, stats.k1, stats.n2, stats.k2) == (1, 0, 3, 3)
    assert decision(p).action == "promote"


def test_system2_records_leave_the_demotion_streak_alone() -> None:
    p = round_of(seq([(S1, FAIL), (S2, FAIL), (S1, ESC), (S2, OK)]))
    assert p.patterns_after["p"].demotion_streak == 2
    p = round_of(seq([(S1, FAIL), (S1, OK), (S1, FAIL)]))
    assert p.patterns_after["p"].demotion_streak == 1


def test_promotion_refused_for_low_confidence() -> None:
    p = round_of(seq([(S2, OK)] * 4, confidence=0.7))
    d = decision(p)
    assert d.action == "hold" and d.code == "hold_confidence"
    assert d.reason == "confidence 0.70 not above 0.80"


def test_confidence_equal_to_the_bar_is_not_above_it_and_close_values_are_told_apart() -> None:
    assert decision(round_of(seq([(S2, OK)] * 3, confidence=0.8))).action == "hold"
    d = decision(round_of(seq([(S2, OK)] * 3, confidence=0.801)))
    assert d.action == "promote" and "confidence 0.801 > 0.800" in d.reason


def active(**kw) -> dict[str, PatternStats]:
    base = dict(key="p", status="active", n=4, n1=4, k1=4, confidence_sum=3.6)
    base.update(kw)
    return {"p": PatternStats(**base)}


def test_demotion_by_demotion_streak() -> None:
    p = round_of(seq([(S1, FAIL), (S1, ESC)]), active())
    d = decision(p)
    assert d.action == "demote" and d.code == "demote_streak"
    assert d.reason == "2 consecutive System 1 failures or escalations (>= 2)"


def test_demotion_by_low_confidence() -> None:
    p = round_of(seq([(S1, OK)], confidence=0.3), active(n=1, n1=1, k1=1, confidence_sum=0.7))
    d = decision(p)
    assert d.stats.confidence == pytest.approx(0.5)
    assert d.action == "demote" and d.code == "demote_confidence"
    assert d.reason == "confidence 0.50 below the minimum 0.60"


def test_active_pattern_holds_while_it_works() -> None:
    p = round_of(seq([(S1, FAIL), (S1, OK)]), active())
    d = decision(p)
    assert d.action == "hold" and d.code == "hold_active" and d.stats.demotion_streak == 0
    # an active pattern is never "promoted" again, whatever its System 2 streak
    assert decision(round_of(seq([(S2, OK)] * 5), active())).action == "hold"


def test_streaks_and_confidence_continue_across_rounds() -> None:
    first = round_of(seq([(S2, OK), (S2, OK)], confidence=0.9))
    assert decision(first).action == "hold" and first.patterns_after["p"].promotion_streak == 2
    second = round_of(seq([(S2, OK)], start=10, confidence=0.6), first.patterns_after)
    stats = second.patterns_after["p"]
    assert stats.promotion_streak == 3 and stats.n == 3
    assert stats.confidence == pytest.approx(0.8)  # (0.9 + 0.9 + 0.6) / 3: not above 0.8
    assert decision(second).action == "hold"
    assert stats.first_seen == rec(0)["timestamp"] and stats.last_seen == rec(10)["timestamp"]
    assert second.patterns_before == first.patterns_after


def test_decision_on_the_end_of_round_state_only() -> None:
    # The streak reaches 3 mid-round, then a failure resets it: no promotion.
    p = round_of(seq([(S2, OK)] * 3 + [(S2, FAIL)]))
    assert decision(p).action == "hold"


def test_decisions_cover_patterns_seen_and_unseen_active_ones_below_min_confidence() -> None:
    before = {"old": PatternStats("old", status="active", n=2, n1=2, k1=2, confidence_sum=1.0),
              "fine": PatternStats("fine", status="active", n=2, n1=2, k1=2, confidence_sum=1.8),
              "empty": PatternStats("empty", status="active")}
    records = seq([(S2, OK)], key="b") + seq([(S1, OK)], key="a", start=1) + [rec(2, S1)]
    p = round_of(records, before)
    assert [(d.key, d.action) for d in p.decisions] == [("a", "hold"), ("b", "hold"), ("old", "demote")]
    assert set(p.patterns_after) == {"a", "b", "old", "fine", "empty"}
    assert p.patterns_after["fine"] is before["fine"]


def test_records_in_timestamp_order_not_input_order() -> None:
    records = [rec(0, S2, OK, pattern="p", seconds=30), rec(1, S2, FAIL, pattern="p", seconds=10),
               rec(2, S2, OK, pattern="p", seconds=20)]
    assert round_of(records).patterns_after["p"].promotion_streak == 2


def test_apply_decisions_resets_streaks() -> None:
    patterns = {"a": PatternStats("a", promotion_streak=3, demotion_streak=1, n=3),
                "b": PatternStats("b", status="active", promotion_streak=2, demotion_streak=2, n=4),
                "c": PatternStats("c", promotion_streak=1, n=1)}
    out = apply_decisions(patterns, {"a": "promote", "b": "demote", "c": "hold"})
    assert (out["a"].status, out["a"].promotion_streak, out["a"].demotion_streak) == ("active", 0, 0)
    assert (out["b"].status, out["b"].promotion_streak, out["b"].demotion_streak) == ("demoted", 0, 0)
    assert out["c"] == patterns["c"] and out["a"].n == 3
    assert patterns["a"].status == "candidate"  # input untouched
    with pytest.raises(ValueError, match="no pattern 'zz'"):
        apply_decisions(patterns, {"zz": "promote"})
    with pytest.raises(ValueError, match="must be one of"):
        apply_decisions(patterns, {"a": "keep"})


def test_promotion_threshold_and_confidence_come_from_settings() -> None:
    p = round_of(seq([(S2, OK)] * 2, confidence=0.7), promote=2, promote_conf=0.65)
    assert decision(p).action == "promote"
    p = round_of(seq([(S1, FAIL)] * 2), active(), demote=3)
    assert decision(p).reason.startswith("active; System 1 failure streak 2 of 3")
