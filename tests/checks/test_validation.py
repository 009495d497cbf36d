"""Validation of applied rounds over the learning log."""

from __future__ import annotations

import math

import pytest

from artibot.learning.validation import compare, validate


def c(n, success, system2=0, system2_success=0):
    return {"n": n, "success": success, "system2": system2, "system2_success": system2_success}


def test_two_sample_z_by_hand():
    out = compare(c(1000, 850), c(1000, 800), alpha=0.025, price=0.0)
    se = math.sqrt(0.85 * 0.15 / 1000 + 0.8 * 0.2 / 1000)
    assert out["z"] == pytest.approx(round(-0.05 / se, 3))
    assert out["verdict"] == "worse"
    assert compare(c(1000, 850), c(1000, 840), alpha=0.025, price=0.0)["verdict"] == "no_change_detected"
    assert compare(c(1000, 800), c(1000, 850), alpha=0.025, price=0.0)["verdict"] == "better"


def test_a_drop_bought_with_fewer_system2_calls_at_the_users_price_is_not_worse():
    before = c(2000, 1700, system2=1200, system2_success=1100)
    after = c(2000, 1640, system2=200, system2_success=180)  # -3 points of success, -50 points of System 2
    assert compare(before, after, alpha=0.025, price=0.0)["verdict"] == "worse"
    assert compare(before, after, alpha=0.025, price=0.05)["verdict"] == "no_change_detected"


def test_too_few_experiences_wait():
    assert compare(c(1000, 850), c(10, 2), alpha=0.025, price=0.0, min_experiences=50)["verdict"] == "waiting"


def entry(rid, all_, after=None, moved=True, status="applied", **extra):
    window = {"all": all_}
    if after is not None:
        window["after_previous"] = after
    return {"round_id": rid, "status": status, "thresholds_applied": True,
            "threshold_changes": {"*": {"old": 0.4, "new": 0.5 if moved else 0.4}}, "transfers": {},
            "params": {"window": window}, **extra}


def test_validate_measures_the_next_round_after_the_remainder_and_names_the_rollback():
    log = [entry("r1", c(1000, 850)), entry("r2", c(1100, 900), after=c(1000, 780), moved=False)]
    out = validate(log, window=None, alpha=0.025, price=0.0, min_experiences=50)
    assert [v["round_id"] for v in out] == ["r1"]
    v = out[0]
    assert v["verdict"] == "worse" and v["after"]["n"] == 1000 and v["measured_over"] == ["r2"]
    assert v["rollback"] == "artibot rollback r1" and "`artibot rollback r1` undoes it" in v["message"]


def test_validate_extends_the_windows_over_rounds_that_changed_nothing():
    log = [entry("r0", c(500, 400), moved=True),
           entry("r1", c(500, 425), after=c(500, 425), moved=False),
           entry("r2", c(500, 425), after=c(500, 425), moved=True),  # the change measured
           entry("r3", c(300, 240), after=c(300, 240), moved=False),
           entry("r4", c(300, 240), after=c(300, 240), moved=False)]
    out = {v["round_id"]: v for v in validate(log, window=500, alpha=0.025, price=0.0, min_experiences=50)}
    assert out["r2"]["before"]["n"] == 1000  # r2 + r1 (r0 changed: its records were logged under another state)
    assert out["r2"]["after"]["n"] == 600 and out["r2"]["measured_over"] == ["r3", "r4"]


def test_rolled_back_and_reset_rounds_are_skipped():
    log = [entry("r1", c(1000, 850), rolled_back=True), entry("r2", c(1000, 850), status="reset"),
           entry("r3", c(1000, 850))]
    out = validate(log, window=None, alpha=0.025, price=0.0, min_experiences=50)
    assert [v["round_id"] for v in out] == ["r3"] and out[0]["verdict"] == "waiting"


def test_prediction_is_compared():
    first = entry("r1", c(1000, 850))
    first["params"]["off_policy"] = {"verdict": "estimated", "proposed": {"success": 0.86, "interval": [0.85, 0.87],
                                                                         "system2_share": 0.5}}
    log = [first, entry("r2", c(1000, 700), after=c(1000, 700), moved=False)]
    v = validate(log, window=None, alpha=0.025, price=0.0, min_experiences=50)[0]
    assert v["predicted"]["success"] == 0.86 and v["vs_prediction"] == "below the predicted interval"
    assert "is below the predicted interval [" in v["message"]


def test_a_worse_round_stops_being_reported_once_a_later_change_is_measured_fine():
    from artibot.round.checks import open_worse

    results = [{"round_id": "r1", "verdict": "worse"}, {"round_id": "r2", "verdict": "no_change_detected"},
               {"round_id": "r3", "verdict": "worse"}, {"round_id": "r4", "verdict": "worse"},
               {"round_id": "r5", "verdict": "waiting"}]
    assert [r["round_id"] for r in open_worse(results)] == ["r3", "r4"]
    assert open_worse(results[:2]) == []
