"""Off-policy estimates against the truth: SNIPS vs doubly robust, on W1 with known success curves.

Each trial logs ``requests`` W1 requests routed by the product's router
(:class:`artibot.hookpath.router.policy.RoutingPolicy`, exploration ``exploration`` in its band,
``forced`` of the requests asking for deliberate thinking) under the *current* thresholds,
draws the outcomes, and estimates the success rate of 10 *candidate* threshold vectors with
:func:`artibot.learning.offpolicy.evaluate`. The truth of a candidate is its expected
success rate on W1's request distribution (numerical integration of the world's curves),
so the error includes the sampling of the requests themselves.

Reported per method: the mean and 90th-percentile absolute error of the success estimate,
the coverage of its 90% interval, the coverage of the interval of the difference
(proposed - current), and how often the estimate was refused as too thin.

    python experiments/run_offpolicy.py --trials 200 --requests 10000
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from scipy import stats

from artibot.learning.logged import THRESHOLD_TOLERANCE
from artibot.learning.offpolicy import METHODS, LoggedWindow, evaluate
from artibot.hookpath.router.domains import DomainTable
from artibot.hookpath.router.policy import RoutingPolicy
from experiments import report
from experiments.args import parse, run_dir, save_json
from experiments.simulate import pool_map
from experiments.worlds import World, w1


@dataclass(frozen=True)
class Args:
    """Off-policy error and interval coverage of SNIPS and DR for 10 candidate threshold vectors."""

    name: str = "offpolicy"
    """run folder under experiments/runs/"""
    trials: int = 200
    """logged windows (one seed each; seeds 1..trials)"""
    requests: int = 10_000
    """logged experiences per window"""
    exploration: float = 0.05
    """router exploration while logging (the default helper L ships is <= 0.05)"""
    forced: float = 0.03
    """share of requests that ask for deliberate thinking (forced System 2, propensity 1)"""
    current: float = 0.4
    """current threshold of every domain (the shipped default)"""
    candidates: int = 10
    """candidate threshold vectors (current +- up to 0.1 per domain: the learner's trust region)"""
    min_support: int = 10
    walk: float = 0.0
    """logging thresholds before the current ones: a random walk of +-walk per domain and night, going back
    from the current thresholds (0: one logging policy; > 0: a window spanning rounds, as the product's)"""
    night: int = 500
    """requests per night (with walk > 0)"""
    """explored records needed on each side of the change (learning.offPolicy.minSupport)"""
    workers: int = 2
    """processes"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def candidate_vectors(world: World, args: Args) -> list[list[float]]:
    """Fixed candidates: 4 structured (all -0.1, all +0.1, towards the oracle by 0.1, mixed) and random ones."""
    k = len(world.domains)
    cur = np.full(k, args.current)
    oracle = np.array(list(world.oracle_thresholds().values()))
    out = [cur - 0.1, cur + 0.1, cur + np.clip(oracle - cur, -0.1, 0.1), cur + np.array([0.1, -0.1] * (k // 2))]
    rng = np.random.default_rng(12)
    while len(out) < args.candidates:
        out.append(cur + rng.uniform(-0.1, 0.1, k))
    return [np.round(np.clip(v, 0.1, 0.9), 3).tolist() for v in out[:args.candidates]]


def true_success(world: World, thresholds: list[float], forced: float, grid: int = 4001) -> float:
    """Expected success rate of a deterministic threshold policy on the world's requests."""
    c = np.linspace(0.0, 1.0, grid)
    total = 0.0
    for i, spec in enumerate(world.domains):
        w = stats.beta.pdf(np.clip(c, 1e-6, 1 - 1e-6), *spec.beta)
        w /= w.sum()
        p1, p2 = world.probs(i, c)
        routed = np.where(c >= thresholds[i], p2, p1)
        total += float(np.sum(w * ((1 - forced) * routed + forced * p2)))
    return total / len(world.domains)


def log_window(world: World, args: Args, seed: int) -> LoggedWindow:
    """``requests`` requests routed by the product's router with exploration, outcomes drawn."""
    rng = np.random.default_rng(seed)
    d, c = world.sample(args.requests, rng)
    forced = rng.random(args.requests) < args.forced
    names = world.names
    nights = -(-args.requests // args.night)
    steps = rng.uniform(-args.walk, args.walk, (nights, len(names))) if args.walk > 0 else np.zeros((nights, 6))
    steps[-1] = 0.0  # the last night runs on the current thresholds
    offsets = np.cumsum(steps[::-1], axis=0)[::-1]  # night j: current + the steps after it, undone
    s2 = np.zeros(args.requests, bool)
    prop = np.ones(args.requests)
    conf = np.ones(args.requests)
    logged_t = np.zeros(args.requests)
    table = DomainTable.from_mapping({})
    for j in range(nights):
        t = np.clip(args.current + offsets[j], 0.1, 0.9)
        router = RoutingPolicy(args.current, dict(zip(names, t.tolist())), frozenset(), table,
                               exploration=args.exploration)
        for i in range(j * args.night, min(args.requests, (j + 1) * args.night)):
            dec = router.decide_scored(float(c[i]), names[d[i]], None, rng, forced="system2" if forced[i] else None)
            s2[i], prop[i], conf[i] = dec.system == "system2", dec.propensity, dec.confidence
            logged_t[i] = dec.threshold
    ok = np.zeros(args.requests, bool)
    for i in range(len(names)):
        m = d == i
        p1, p2 = world.probs(i, c[m])
        ok[m] = rng.random(int(m.sum())) < np.where(s2[m], p2, p1)
    greedy = c >= logged_t  # each record's own threshold, as the product reads archived records
    from artibot.learning.offpolicy import fixed_records

    fixed = fixed_records(s2, prop, conf, np.zeros(args.requests, bool), greedy)
    # as the product tops up a window: earlier nights' records only if logged near the current thresholds
    keep = np.abs(logged_t - args.current) <= THRESHOLD_TOLERANCE
    keep[(nights - 1) * args.night:] = True
    return LoggedWindow(d[keep].astype(np.int64), names, c[keep], s2[keep], ok[keep], prop[keep], fixed[keep])


def one_trial(args: Args, cands: list[list[float]], truths: list[float], seed: int) -> dict:
    world = w1()
    window = log_window(world, args, seed)
    current = [args.current] * len(world.domains)
    out: dict = {"seed": seed, "truth_current": true_success(world, current, args.forced)}
    for method in METHODS:
        rows = []
        for cand, truth in zip(cands, truths):
            est = evaluate(window, current, cand, method=method, min_support=args.min_support)
            row = {"verdict": est["verdict"], "ess": est["ess"], "changed": est["changed"], "truth": truth,
                   "n": est["n"]}
            if est["proposed"]["success"] is not None:
                lo, hi = est["proposed"]["interval"]
                dlo, dhi = est["interval"]
                true_diff = truth - out["truth_current"]
                row.update(estimate=est["proposed"]["success"], error=est["proposed"]["success"] - truth,
                           covered=lo <= truth <= hi, diff_error=est["difference"]["success"] - true_diff,
                           diff_covered=dlo <= true_diff <= dhi, width=hi - lo)
            rows.append(row)
        out[method] = rows
    return out


def summarize(runs: list[dict], cands: list[list[float]]) -> dict:
    out = {}
    for method in METHODS:
        rows = [r for run in runs for r in run[method]]
        est = [r for r in rows if "error" in r]
        err = np.abs([r["error"] for r in est]) if est else np.array([np.nan])
        derr = np.abs([r["diff_error"] for r in est]) if est else np.array([np.nan])
        per_candidate = []
        for j in range(len(cands)):
            mine = [run[method][j] for run in runs if "error" in run[method][j]]
            e = np.abs([r["error"] for r in mine]) if mine else np.array([np.nan])
            per_candidate.append({"mae": float(np.mean(e)), "p90": float(np.quantile(e, 0.9)),
                                  "coverage": float(np.mean([r["covered"] for r in mine])) if mine else None,
                                  "thin": 1 - len(mine) / len(runs)})
        out[method] = {
            "mae": float(np.mean(err)), "rmse": float(np.sqrt(np.mean(np.square(err)))),
            "p90_abs_error": float(np.quantile(err, 0.9)), "p99_abs_error": float(np.quantile(err, 0.99)),
            "max_abs_error": float(np.max(err)), "share_over_0.02": float(np.mean(err > 0.02)),
            "coverage": float(np.mean([r["covered"] for r in est])) if est else None,
            "diff_mae": float(np.mean(derr)),
            "diff_coverage": float(np.mean([r["diff_covered"] for r in est])) if est else None,
            "mean_width": float(np.mean([r["width"] for r in est])) if est else None,
            "thin": 1 - len(est) / len(rows), "mean_window": float(np.mean([r["n"] for r in rows])),
            "per_candidate": per_candidate,
        }
    return out


def main(args: Args) -> dict:
    out_dir = run_dir(args.name, args.out or None)
    world = w1()
    cands = candidate_vectors(world, args)
    truths = [true_success(world, v, args.forced) for v in cands]
    runs = pool_map(partial(one_trial, args, cands, truths), list(range(1, args.trials + 1)), args.workers)
    summary = summarize(runs, cands)
    best = min(METHODS, key=lambda m: summary[m]["rmse"] if summary[m]["rmse"] == summary[m]["rmse"] else 9.0)
    headers = ["method", "mean |error|", "RMSE", "p90 |error|", "p99 |error|", "share > 0.02",
               "90% interval coverage", "difference coverage", "mean width", "too thin"]
    rows = [[m, f"{s['mae']:.4f}", f"{s['rmse']:.4f}", f"{s['p90_abs_error']:.4f}", f"{s['p99_abs_error']:.4f}",
             f"{s['share_over_0.02']:.4f}",
             f"{s['coverage']:.3f}" if s["coverage"] is not None else "—",
             f"{s['diff_coverage']:.3f}" if s["diff_coverage"] is not None else "—",
             f"{s['mean_width']:.4f}" if s["mean_width"] is not None else "—", f"{s['thin']:.3f}"]
            for m, s in summary.items()]
    table = (f"{args.trials} logged windows of {args.requests:,} W1 requests at exploration {args.exploration}, "
             f"{len(cands)} candidate threshold vectors each (current {args.current} everywhere)\n\n"
             + report.markdown_table(headers, rows) + f"\n\nchosen by RMSE: {best}\n")
    result = {"args": asdict(args), "candidates": cands, "truths": truths, "summary": summary, "chosen": best,
              "table": table}
    save_json(out_dir / "results.json", result)  # per-trial rows stay in memory: 1 MB of JSON explains nothing more
    result["runs"] = runs
    (out_dir / "table.md").write_text(table, encoding="utf-8")
    print(table)
    return result


if __name__ == "__main__":
    main(parse(Args, sys.argv[1:]))
