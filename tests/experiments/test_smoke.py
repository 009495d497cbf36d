"""Every study runs end to end on a tiny budget (CI), and the metrics are right on hand cases."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import metrics, run_replay, run_transfer, run_w1, run_w2  # noqa: E402
from experiments.args import parse  # noqa: E402
from experiments.simulate import world_stream  # noqa: E402
from experiments.worlds import w1, w2  # noqa: E402


def test_w1_tiny(tmp_path):
    args = run_w1.Args(seeds=(1,), requests=1000, window=500, night=250, workers=1, plots=False, out=str(tmp_path))
    result = run_w1.main(args)
    summary = result["runs"][0]["summary"]
    assert set(summary) == {"oracle", *run_w1.POLICIES}
    assert summary["oracle"]["regret_1k"] == 0.0
    assert all(s["regret_1k"] >= -1e-9 for s in summary.values())  # nobody beats the oracle
    assert 0 < summary["evidence"]["explored"] <= 0.05
    assert (tmp_path / "results.json").is_file() and "| evidence |" in (tmp_path / "table.md").read_text()


def test_w2_tiny(tmp_path):
    args = run_w2.Args(seeds=(2,), requests=1000, window=250, night=250, workers=1, plots=False, out=str(tmp_path),
                       policies=("seed", "evidence"))
    result = run_w2.main(args)
    assert {"recovery_backend", "recovery_data"} <= set(result["runs"][0]["summary"]["evidence"])


def test_replay_tiny(tmp_path):
    from experiments.replay import DATA_DIR

    if not (DATA_DIR / "mt-bench.csv").is_file():
        # the data is not in the repository (experiments/README.md, Setup)
        pytest.skip(f"replay data not found at {DATA_DIR} (set ARTIBOT_ROUTING_DATA to the folder of RouteLLM's outcome files)")
    args = run_replay.Args(files=("mt-bench.csv",), seeds=(3,), workers=1, plots=False, out=str(tmp_path),
                           night=40)
    result = run_replay.main(args)
    run = result["runs"][0]
    assert run["requests"] == 80 and 0 < run["price"] < 1
    for name in ("always-s1", "always-s2"):
        assert run["summary"][name]["pgr"] == pytest.approx(0.0 if name == "always-s1" else 1.0)
    assert 0.0 <= run["summary"]["evidence"]["apgr"] <= 1.0


def test_transfer_tiny(tmp_path):
    # 4 kinds x 7 patterns x 2 uses = 56 records a night: one full batch of 50 per round
    args = run_transfer.Args(seeds=(4,), patterns=7, uses=6, uses_per_night=2, workers=1, out=str(tmp_path))
    result = run_transfer.main(args)
    run = result["runs"][0]
    assert set(run) == {"seed", "seed/cache", "seed/candidate", "evidence/cache", "evidence/candidate"}
    assert run["seed/candidate"]["0.5"]["switched"] == 1.0  # the seed promotes after 3 System 2 successes


def test_args_from_the_command_line():
    args = parse(run_w1.Args, ["--seeds", "7", "8", "--requests", "100", "--no-plots"])
    assert args.seeds == (7, 8) and args.requests == 100 and args.plots is False


def test_pgr_apgr_cpt_on_hand_cases():
    s1 = np.array([1, 0, 0, 1])
    s2 = np.array([1, 1, 1, 1])
    # perfect router: the two prompts System 1 fails go first
    share, curve = metrics.pgr_curve(np.array([0.0, 1.0, 0.9, 0.1]), s1, s2)
    assert curve.tolist() == [0.0, 0.5, 1.0, 1.0, 1.0]
    assert metrics.cpt(share, curve, 0.5) == 0.25 and metrics.cpt(share, curve, 1.0) == 0.5
    assert metrics.apgr(share, curve) == pytest.approx(0.75)
    assert metrics.pgr(0.75, 0.5, 1.0) == 0.5


def test_oracle_and_worlds():
    world = w1()
    assert world.oracle_thresholds() == {"security": 0.2, "frontend": 0.35, "backend": 0.5, "data": 0.65,
                                         "devops": 0.8, "docs": 0.9}
    stream = world_stream(world, 2000, 0)
    assert np.all(stream.oracle_utility >= stream.utility(np.zeros(2000, bool)))
    assert world.threshold_utility(world.oracle_thresholds()) == pytest.approx(world.oracle_utility(), abs=2e-4)
    drifted = w2(1000)
    assert drifted.oracle_thresholds(999)["data"] == 0.65 and drifted.oracle_thresholds(1000)["data"] == 0.35
