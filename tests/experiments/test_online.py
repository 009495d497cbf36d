"""The online protocol, the Thompson baseline's exact propensity, the studies' --help."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import online, run_online  # noqa: E402
from experiments.policies import Thompson, thompson_probability  # noqa: E402
from experiments.replay import DATA_DIR  # noqa: E402


# --------------------------------------------------------------------- Thompson's propensity
@pytest.mark.parametrize("price, expected", [(0.0, 0.5), (0.2, 0.32), (0.5, 0.125)])
def test_thompson_probability_hand_cases(price, expected):
    # two uniform posteriors: P(X2 - X1 > price) = (1 - price)^2 / 2
    assert thompson_probability(1, 1, 1, 1, price) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("counts", [(3, 5, 8, 2), (40, 12, 55, 9), (1, 1, 6, 1), (200, 90, 230, 60)])
def test_thompson_probability_is_the_probability_of_the_sample(counts):
    a1, b1, a2, b2 = counts
    rng = np.random.default_rng(1)
    n = 400_000
    freq = float(np.mean(rng.beta(a2, b2, n) - 0.1 > rng.beta(a1, b1, n)))
    p = thompson_probability(a1, b1, a2, b2, 0.1)
    assert abs(freq - p) < 4 * np.sqrt(p * (1 - p) / n) + 1e-9


def test_ips_on_thompson_logs_is_unbiased():
    # One cell; System 1 succeeds 0.6, System 2 0.75, price 0.1: Thompson keeps hesitating.
    # IPS of "always System 1" from its logs must hit 0.6 (the normal approximation gave z ~ -2).
    estimates = []
    for seed in range(200):
        policy = Thompson(0.1, seed)
        rng = np.random.default_rng(10_000 + seed)
        total = 0.0
        for i in range(150):
            r = policy.route("d", 0.5, None, i)
            ok = bool(rng.random() < (0.75 if r.s2 else 0.6))
            policy.feedback("d", 0.5, r.s2, ok)
            assert 0.0 < r.propensity <= 1.0
            if not r.s2:
                total += ok / r.propensity
        estimates.append(total / 150)
    est = np.asarray(estimates)
    z = (est.mean() - 0.6) / (est.std(ddof=1) / np.sqrt(len(est)))
    assert abs(z) < 3.5, (est.mean(), z)


# --------------------------------------------------------------------- the protocol
def test_the_subject_split_is_reproducible_and_disjoint():
    tuning, held = online.subject_split(list(online.TUNING + online.HELD_OUT))
    assert (tuning, held) == (online.TUNING, online.HELD_OUT)
    assert len(tuning) == len(held) == 14 and not set(tuning) & set(held)


def test_score_on_hand_cases():
    rows = [online.Row("p", "d", s1, s2) for s1, s2 in ((0, 1), (1, 1), (0, 1), (0, 0))]
    # System 2 only where System 1 fails and System 2 succeeds: PGR 1 at share 0.5
    assert online.score_rows(np.array([True, False, True, False]), rows) == {"pgr": 1.0, "share": 0.5,
                                                                           "score": 0.5}
    assert online.score_rows(np.ones(4, bool), rows)["score"] == 0.0  # always System 2
    assert online.score_rows(np.zeros(4, bool), rows)["score"] == 0.0  # always System 1
    # the protocol scores the second half of the pass only
    both = rows + rows
    assert online.score_half(np.array([False] * 4 + [True, False, True, False]), both)["score"] == 0.5


def test_protocol_on_mt_bench_tiny(tmp_path):
    if not (DATA_DIR / "mt-bench.csv").is_file():
        pytest.skip(f"replay data not found at {DATA_DIR} (set ARTIBOT_ROUTING_DATA to the folder of RouteLLM's outcome files)")
    args = run_online.Args(datasets=("mt-bench",), seeds=(0,), policies=("defaults", "thompson"), night=60,
                           workers=1, plots=False, out=str(tmp_path))
    result = run_online.main(args)
    by = {r["policy"]: r for r in result["runs"]}
    assert set(by) == {"defaults", "thompson"}
    assert 0.0 < by["defaults"]["randomized"] <= 1.0  # exploration is on as shipped: propensities < 1
    assert by["defaults"]["explored"] <= 0.1
    assert "| defaults |" in (tmp_path / "table.md").read_text()
    subjects = by["defaults"]["domains"]
    assert sum(d["rows"] for d in subjects.values()) == 160
    assert all(d["s1"] + d["s2"] == d["rows"] and d["rate"] is not None for d in subjects.values())
    assert by["thompson"]["domains"] and all(d["rate"] is None for d in by["thompson"]["domains"].values())


def test_the_product_router_is_unseeded_unless_asked():
    for seed, seeded in ((None, False), (3, True)):
        run = online.ProductRun("defaults", None, router_seed=seed)
        try:
            assert (run.rng is not None) is seeded
        finally:
            run.close()


# --------------------------------------------------------------------- every script's --help
@pytest.mark.parametrize("script", ["experiments/run_w1.py", "experiments/run_w2.py", "experiments/run_replay.py",
                                    "experiments/run_transfer.py", "experiments/run_online.py",
                                    "scripts/run_experiments.py"])
def test_help_works(script):
    out = subprocess.run([sys.executable, str(ROOT / script), "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "usage" in out.stdout
