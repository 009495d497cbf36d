"""W2: W1 with a drift half-way. Does the router notice and recover?

At request ``requests // 2`` System 1 gets better in ``backend`` (break-even 0.5 ->
0.75) and worse in ``data`` (0.65 -> 0.35). Recovery is counted in the affected
domain's own requests after the drift: until its regret rate over a window of 250 of its
requests is back to at most 1.25x its rate over its last 1000 requests before the drift,
plus 2 per 1k (``experiments.metrics.recovery``).

    python experiments/run_w2.py --seeds 1 2 3 4 5
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
from experiments.simulate import compare, pool_map, world_stream
from experiments.worlds import w2

POLICIES = ("static-0.4", "seed", "evidence", "thompson", "epsilon-greedy")
AFFECTED = ("backend", "data")
CURVE_STEP = 100


@dataclass(frozen=True)
class Args:
    """W2: regret before and after a drift, and recovery of the affected domains."""

    name: str = "w2"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    """seeds of the table (not the tuning seeds 1001-1003)"""
    requests: int = 20_000
    """requests per run; the drift happens half-way"""
    night: int = 500
    """requests between two learning rounds"""
    ramp: int = 0
    """the first round after this many requests, each next after twice as many, up to ``night`` (0: off)"""
    price: float = 0.05
    """utility price of a System 2 call"""
    exploration: float = 0.05
    """router exploration of the product policies"""
    policies: tuple[str, ...] = POLICIES
    """policies to compare (the oracle always runs)"""
    window: int = 2_500
    """requests before / after the drift over which the regret rate is compared"""
    workers: int = 2
    """processes (one seed each)"""
    plots: bool = True
    """write PNG plots (needs matplotlib)"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def one_seed(args: Args, seed: int) -> dict:
    at = args.requests // 2
    world = w2(at, args.price)
    stream = world_stream(world, args.requests, seed)
    traces = compare(stream, standard_policies(args.price, seed, exploration=args.exploration,
                                               include=args.policies), night=args.night,
                     run_name=f"{args.name}-{seed}", ramp=args.ramp)
    w = min(args.window, at)
    summary = {}
    for t in traces:
        r = t.regret
        row = {"regret_1k": metrics.per_1k(r), "regret_1k_before": metrics.per_1k(r[at - w:at]),
               "regret_1k_after": metrics.per_1k(r[at:at + w]), "regret_1k_end": metrics.per_1k(r[-w:]),
               "s2_share": float(t.s2.mean()), "explored": float(t.explored.mean())}
        for name in AFFECTED:
            rate0, first, steps = metrics.recovery(t, stream, world.names.index(name), at)
            row[f"recovery_{name}"] = steps
            row[f"rate_before_{name}"], row[f"rate_after_{name}"] = rate0 * 1000, first * 1000
        summary[t.policy] = row
    return {"seed": seed, "summary": summary,
            "curves": {t.policy: np.cumsum(t.regret)[::CURVE_STEP].tolist() for t in traces},
            "thresholds": {t.policy: t.thresholds for t in traces if t.policy in ("seed", "evidence")},
            "nights": traces[0].nights}


COLUMNS = [
    ("regret_1k", "regret /1k (all)", "{:.2f}"), ("regret_1k_before", "regret /1k before drift", "{:.2f}"),
    ("regret_1k_after", "regret /1k after drift", "{:.2f}"), ("regret_1k_end", "regret /1k at the end", "{:.2f}"),
    ("recovery_backend", "backend: requests to recover", "{:.0f}"),
    ("recovery_data", "data: requests to recover", "{:.0f}"), ("s2_share", "System 2 share", "{:.3f}"),
]


def main(args: Args) -> dict:
    out = run_dir(args.name, args.out or None)
    runs = pool_map(partial(one_seed, args), list(args.seeds), args.workers)
    table = report.aggregate([r["summary"] for r in runs], COLUMNS, ["oracle", *args.policies])
    result = {"args": asdict(args), "table": table, "runs": [{"seed": r["seed"], "summary": r["summary"]}
                                                              for r in runs]}
    save_json(out / "results.json", result)
    (out / "table.md").write_text(table + "\n", encoding="utf-8")
    if args.plots and report.plots_available():
        at = args.requests // 2
        world = w2(at, args.price)
        curves = {name: [r["curves"][name] for r in runs] for name in runs[0]["curves"] if name != "oracle"}
        report.regret_curves(out / f"{args.name}_regret.png", curves, CURVE_STEP,
                             f"W2: cumulative regret, drift at {at} ({len(runs)} seeds)", drift_at=at)
        first = runs[0]
        if first["thresholds"]:
            oracle = {d: [world.oracle_thresholds(n)[d] for n in first["nights"]] for d in world.names}
            report.threshold_trajectories(out / f"{args.name}_thresholds.png", world.names, first["nights"],
                                          first["thresholds"], oracle,
                                          f"W2: thresholds after each night (seed {first['seed']})")
    return result


if __name__ == "__main__":
    result = main(parse(Args))
    print(result["table"])
