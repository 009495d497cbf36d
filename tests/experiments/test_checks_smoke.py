"""The issue-12 studies run end to end on a tiny budget, and their truths are right on hand cases."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import run_offpolicy, run_staleness, run_validation  # noqa: E402
from experiments.worlds import w1  # noqa: E402


def test_offpolicy_tiny(tmp_path):
    result = run_offpolicy.main(run_offpolicy.Args(trials=2, requests=2000, workers=1, out=str(tmp_path)))
    assert len(result["candidates"]) == 10 and result["chosen"] in ("snips", "dr")
    for method in ("snips", "dr"):
        s = result["summary"][method]
        assert 0.0 <= s["thin"] <= 1.0
        if s["coverage"] is not None:
            assert s["mae"] < 0.1  # 2,000 requests: loose, but a broken estimator is far off
    assert (tmp_path / "table.md").read_text().count("|") > 10


def test_true_success_matches_the_world_at_zero_price():
    world = w1(price=0.0)
    thresholds = [0.3, 0.35, 0.5, 0.5, 0.5, 0.5]
    direct = world.threshold_utility(dict(zip(world.names, thresholds)))
    assert run_offpolicy.true_success(world, thresholds, forced=0.0) == pytest.approx(direct, abs=1e-3)


def test_validation_tiny(tmp_path):
    result = run_validation.main(run_validation.Args(trials=20, before=(1000,), after=(1000,), out=str(tmp_path)))
    assert result["changes"]["harmful"]["truth"] <= -0.05
    assert result["changes"]["harmless (docs)"]["truth"] == pytest.approx(0.0, abs=1e-9)
    assert result["flag_rate"]["harmful|1000|1000"] >= 0.5  # a 5-point loss is seen most of the time


def test_staleness_tiny(tmp_path):
    result = run_staleness.main(run_staleness.Args(trials=10, horizon=60, out=str(tmp_path)))
    unused = result["results"]["unused"]
    assert unused["demoted_within_horizon"] == 1.0
    # C0 e^(-λ t) < minConfidence  <=>  t > ln(C0 / minConfidence) / λ
    assert unused["median_days"] == np.ceil(np.log(0.9 / 0.6) / 0.015)
    assert unused["example_reason"].startswith("unused for")


def test_run_experiments_quick_wires_the_checks_studies(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import run_experiments
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    timings = run_experiments.main(["--quick", "--only", "offpolicy", "validation", "staleness",
                                    "--out", str(tmp_path)])
    assert set(timings) == {"offpolicy", "validation", "staleness"}
    summary = (tmp_path / "summary.md").read_text()
    assert "### offpolicy" in summary and "### validation" in summary and "### staleness" in summary


def test_a_partial_run_keeps_the_other_studies_in_the_summary():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import run_experiments
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    old = "# Results (full suite, 3 s)\n\n### w1 (1 s)\n\nW1\n\n### online (2 s)\n\nONLINE\n"
    merged = run_experiments.merge_sections(old, ["### online (5 s)\n\nNEW\n"], ["w1", "w2", "online"])
    assert merged == ["### w1 (1 s)\n\nW1\n", "### online (5 s)\n\nNEW\n"]
