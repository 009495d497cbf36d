"""The cost study runs end to end on a tiny budget: the real gateway and learner against the cache-faithful fake,
a failed turn redone by the person, and the effort fit that calibrates it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import cache_model, coding_sessions, gateway_cache, report  # noqa: E402
from experiments.fake_messages_api import Upstream  # noqa: E402


def test_gateway_cache_tiny(tmp_path):
    args = gateway_cache.Args(seeds=(1,), days=1, sessions=2, plots=report.plots_available(), out=str(tmp_path))
    result = gateway_cache.main(args)
    [run] = result["runs"]
    arms = run["arms"]
    s2, previous = arms[gateway_cache.S2], arms[gateway_cache.PREVIOUS]
    safe, cascade = arms[gateway_cache.ROUTED], arms[gateway_cache.CASCADE]
    assert len({a["turns"] for a in arms.values()}) == 1  # the same sessions every way
    assert s2["s2_share"] == 1.0 and s2["low"] == 0 and safe["low"] > 0 and cascade["s1_share"] == 1.0
    assert abs(safe["read_share"] - s2["read_share"]) < 0.02  # the cache is read as without the gateway
    # the cascade's markers stay in its history: it writes no more of the conversation than all-System-2
    # (dropping a past turn's marker rewrote the conversation after it: 1.76x the writes)
    assert cascade["written"] < 1.1 * s2["written"]
    assert previous["written"] > 1.2 * s2["written"]  # rewriting history writes the conversation again
    assert safe["cost"] < s2["cost"]
    # every failed first try is redone once, and the redo decides the final outcome
    for arm in arms.values():
        ok, final, redo = zip(*arm["outcomes"])
        assert all(r == 1 - o for o, r in zip(ok, redo)) and all(f >= o for o, f in zip(ok, final))
    # a failed System 1 turn's redo went to System 2 by the router's escalation rule
    assert safe["escalations"] >= 1
    # the bill the fake API sent and what the gateway recorded for the same requests agree
    assert run["gateway_recorded_cost"] == pytest.approx(safe["cost"], rel=1e-6)
    text = (tmp_path / "table.md").read_text()
    assert "| cache-safe gateway |" in text and "bill vs cascade" in text
    if args.plots:
        assert (tmp_path / "gateway_cache.png").stat().st_size > 0


def test_lower_effort_makes_fewer_tool_calls_and_less_output():
    [[session]] = coding_sessions.sessions(7, 1, 1)
    for turn in session.turns:
        low, medium, high = (turn.requests(e) for e in ("low", "medium", "high"))
        assert 1 <= low <= medium <= high == len(turn.outputs)
    assert sum(t.requests("low") for t in session.turns) < sum(t.requests("high") for t in session.turns)
    up = Upstream(output_share={**cache_model.OUTPUT_SHARE, **coding_sessions.EFFORT_SCALE})
    try:
        body = {"model": "claude-opus-5-5", "output_config": {"effort": "low"}, "messages": [
            {"role": "user", "content": "hi"}]}
        low = up.answer("a", body, "", 1000)
        high = up.answer("b", {**body, "output_config": {"effort": "high"}}, "", 1000)
        assert isinstance(low, dict) and isinstance(high, dict)
        assert low["output_tokens"] == round(1000 * coding_sessions.EFFORT_SCALE["low"]) < high["output_tokens"]
    finally:
        up.close()


def test_success_fit_puts_low_six_points_below_medium():
    w = [x / 10 for x in coding_sessions.LEVEL_WEIGHTS]
    gaps = [sum(wi * (full - low) for wi, (low, full) in zip(w, cells)) for cells in coding_sessions.SUCCESS.values()]
    assert sum(gaps) / len(gaps) == pytest.approx(coding_sessions.LOW_GAP, abs=5e-4)
    assert coding_sessions.SUCCESS["security"][3][0] < coding_sessions.SUCCESS["docs"][3][0]  # the shape stays


def test_calibration_hits_the_published_bill_ratios(tmp_path):
    args = gateway_cache.Args(days=1, sessions=2, seeds=(3,), calibration_seeds=(5,), out=str(tmp_path))
    up = Upstream()
    try:
        fit = gateway_cache.calibrate(args, up, steps=8)
    finally:
        up.close()
    assert 0 < fit["scale"]["low"] < fit["scale"]["medium"] < 1
    for effort, target in coding_sessions.BILL_TARGET.items():  # on the seed it was fitted on
        assert fit["bill_ratio"][effort] == pytest.approx(target, abs=0.02)
