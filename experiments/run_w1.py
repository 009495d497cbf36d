"""W1: does the product's router learn? Every policy on the same simulated requests.

Six domains with known success curves (``experiments/worlds.py``); the seed rule and
evidence mode run through real temporary ARTIBOT homes, learning every night. Regret is
measured against the oracle with the world's expected utilities (no outcome noise).

    python experiments/run_w1.py --seeds 1 2 3 4 5 --requests 20000
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from experiments import metrics, report
from experiments.args import parse, run_dir, save_json
from experiments.policies import standard_policies
from experiments.simulate import Stream, Trace, compare, pool_map, world_stream
from experiments.worlds import World, w1

POLICIES = ("always-s1", "always-s2", "static-0.4", "seed", "evidence", "thompson", "epsilon-greedy")
PRODUCT = ("seed", "evidence")
CURVE_STEP = 100


@dataclass(frozen=True)
class Args:
    """W1: regret, convergence and operating points of every policy."""

    name: str = "w1"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    """seeds of the table (the learner was tuned on seeds 1001-1003, never on these)"""
    requests: int = 20_000
    """requests per run"""
    night: int = 500
    """requests between two learning rounds (one `learn` per night)"""
    ramp: int = 0
    """the first round after this many requests, each next after twice as many, up to ``night`` (0: off)"""
    price: float = 0.05
    """utility price of a System 2 call (system2Cost of evidence mode and of the world)"""
    exploration: float = 0.05
    """router exploration of the product policies (cognitive.router.exploration)"""
    policies: tuple[str, ...] = POLICIES
    """policies to compare (the oracle always runs)"""
    window: int = 5_000
    """requests of the early window (utility within 2% of the oracle after it) and of the late window"""
    workers: int = 2
    """processes (one seed each)"""
    plots: bool = True
    """write PNG plots (needs matplotlib)"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def summarize(trace: Trace, stream: Stream, world: World, args: Args) -> dict:
    """The metrics of one policy on one seed."""
    n, w = len(stream), min(args.window, len(stream))
    regret = trace.regret
    out = {
        "cum_regret": float(regret.sum()), "regret_1k": metrics.per_1k(regret),
        "regret_1k_early": metrics.per_1k(regret[:w]), "regret_1k_late": metrics.per_1k(regret[n - w:]),
        "utility_ratio_early": metrics.utility_ratio(trace, max(0, w - 1000), w),
        "s2_share": float(trace.s2.mean()), "success": float(trace.success.mean()),
        "explored": float(trace.explored.mean()), "seconds": trace.seconds, **trace.extra,
    }
    out["success_gap"], out["excess_share"] = metrics.operating_gaps(trace, stream, n - w)
    out["operating_point"] = [float(trace.s2[n - w:].mean()),
                              float(np.where(trace.s2, stream.p2, stream.p1)[n - w:].mean())]
    if trace.thresholds[-1] is not None:
        conv = metrics.convergence(trace, stream, world.oracle_thresholds(n))
        out["converged"] = conv
        out["converged_max"] = None if None in conv.values() else max(conv.values())
        k = int(np.searchsorted(trace.nights, w))
        e = args.exploration if trace.policy in PRODUCT else 0.0
        out["exact_ratio_early"] = (world.threshold_utility(trace.thresholds[k], 0, e) / world.oracle_utility(0))
    return out


def one_seed(args: Args, seed: int) -> dict:
    world = w1(args.price)
    stream = world_stream(world, args.requests, seed)
    policies = standard_policies(args.price, seed, exploration=args.exploration, include=args.policies)
    traces = compare(stream, policies, night=args.night, run_name=f"{args.name}-{seed}",
                     ramp=args.ramp)
    return {
        "seed": seed,
        "summary": {t.policy: summarize(t, stream, world, args) for t in traces},
        "curves": {t.policy: np.cumsum(t.regret)[::CURVE_STEP].tolist() for t in traces},
        "thresholds": {t.policy: t.thresholds for t in traces if t.policy in PRODUCT},
        "nights": traces[0].nights,
    }


def reductions(runs: list[dict], key: str) -> list[float]:
    """Per seed: 1 - evidence's value / the seed rule's value."""
    return [1 - r["summary"]["evidence"][key] / r["summary"]["seed"][key] for r in runs
            if "evidence" in r["summary"] and "seed" in r["summary"] and r["summary"]["seed"][key] > 0]


COLUMNS = [
    ("regret_1k", "regret /1k (all)", "{:.2f}"), ("regret_1k_early", "regret /1k (first window)", "{:.2f}"),
    ("regret_1k_late", "regret /1k (last window)", "{:.2f}"),
    ("utility_ratio_early", "utility / oracle (end of first window)", "{:.4f}"),
    ("exact_ratio_early", "policy utility / oracle (exact, after first window)", "{:.4f}"),
    ("s2_share", "System 2 share", "{:.3f}"), ("explored", "explored share", "{:.3f}"),
    ("success_gap", "success gap at equal S2 share", "{:.4f}"),
    ("excess_share", "excess S2 share at equal success", "{:.3f}"),
    ("converged_max", "experiences/domain to ±0.05", "{:.0f}"),
]


def main(args: Args) -> dict:
    out = run_dir(args.name, args.out or None)
    runs = pool_map(partial(one_seed, args), list(args.seeds), args.workers)
    names = ["oracle", *args.policies]
    table = report.aggregate([r["summary"] for r in runs], COLUMNS, names)
    world = w1(args.price)
    result = {
        "args": asdict(args), "oracle_thresholds": world.oracle_thresholds(), "oracle_utility": world.oracle_utility(),
        "table": table,
        "evidence_vs_seed_regret_reduction": metrics.mean_sd(reductions(runs, "cum_regret"), "{:.3f}"),
        "evidence_vs_seed_regret_reduction_early": metrics.mean_sd(reductions(runs, "regret_1k_early"), "{:.3f}"),
        "runs": [{"seed": r["seed"], "summary": r["summary"]} for r in runs],
    }
    save_json(out / "results.json", result)
    (out / "table.md").write_text(table + "\n", encoding="utf-8")
    if args.plots and report.plots_available():
        plot(out, args, runs, world)
    return result


def plot(out: Path, args: Args, runs: list[dict], world: World) -> None:
    curves = {name: [r["curves"][name] for r in runs] for name in runs[0]["curves"] if name != "oracle"}
    report.regret_curves(out / f"{args.name}_regret.png", curves, CURVE_STEP,
                         f"{args.name.upper()}: cumulative regret vs the oracle ({len(runs)} seeds, mean ± sd)")
    first = runs[0]
    if first["thresholds"]:
        oracle = world.oracle_thresholds()
        report.threshold_trajectories(
            out / f"{args.name}_thresholds.png", world.names, first["nights"], first["thresholds"],
            {d: [oracle[d]] * len(first["nights"]) for d in world.names},
            f"{args.name.upper()}: thresholds after each night (seed {first['seed']})")
    stream = world_stream(world, args.requests, first["seed"])
    w = min(args.window, args.requests)
    points = {name: [r["summary"][name]["operating_point"] for r in runs] for name in first["summary"]}
    report.share_vs_success(out / f"{args.name}_share_success.png", points,
                            metrics.frontier(stream, args.requests - w),
                            f"{args.name.upper()}: System 2 share vs success, last {w} requests",
                            "expected success")


if __name__ == "__main__":
    result = main(parse(Args))
    print(result["table"])
    print("evidence vs seed, cumulative regret reduction:", result["evidence_vs_seed_regret_reduction"])
