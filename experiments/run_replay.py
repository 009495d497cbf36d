"""Replay of real routing outcomes under bandit feedback (RouteLLM's outcome files, :data:`experiments.replay.DATA_ENV`).

Per seed, a file is shuffled and cut in half. The policies learn on one half, streamed
``passes`` times, seeing only the outcome of the system they chose; the product
policies (seed rule, evidence mode) run through real temporary homes with nightly
rounds. Then each policy's final router is scored on the held-out half with full
information: PGR, System 2 share, PGR minus share, APGR and CPT (RouteLLM's
definitions, in its paper). Online PGR minus share (what the
policy did while learning) is reported beside it.

The price of a System 2 call defaults to System 2's accuracy gain over System 1 on the
learning half: utility per request is then ``(acc - acc1) - price * share``, which is
``price * (PGR - share)``, so the learners optimize exactly the target metric.

    python experiments/run_replay.py --files mmlu-dev.csv --seeds 1 2 3 4 5
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from experiments import metrics, replay, report
from experiments.args import parse, run_dir, save_json
from experiments.policies import Fixed, Product, standard_policies
from experiments.simulate import pool_map, run

POLICIES = ("always-s1", "always-s2", "static-0.4", "seed", "evidence", "thompson", "epsilon-greedy")


@dataclass(frozen=True)
class Args:
    """Replay of RouteLLM outcome files under bandit feedback; held-out PGR, APGR, CPT."""

    name: str = "replay"
    """run folder under experiments/runs/"""
    files: tuple[str, ...] = ("mmlu-dev.csv", "gsm8k.csv", "mt-bench.csv")
    """outcome files (names inside data-dir)"""
    data_dir: str = str(replay.DATA_DIR)
    """folder with the outcome files"""
    seeds: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    """seeds (shuffle, split and exploration)"""
    passes: int = 1
    """times the learning half is streamed (each pass in a new order)"""
    learn_share: float = 0.5
    """share of the rows to learn on; the rest is held out"""
    price: float = 0.0
    """utility price of a System 2 call; 0: System 2's accuracy gain on the learning half"""
    exploration: float = 0.05
    """router exploration of the product policies"""
    night: int = 500
    """requests between two learning rounds"""
    policies: tuple[str, ...] = POLICIES
    """policies to compare"""
    workers: int = 2
    """processes (one seed each)"""
    plots: bool = True
    """write PNG plots (needs matplotlib)"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def scorer(policy, names: tuple[str, ...]):
    """``score(domains, complexity) -> array``: route to System 2 where the score is > 0 (or >= 0)."""
    if isinstance(policy, (Product, Fixed)) and policy.thresholds(names) is not None:
        th = policy.thresholds(names)
        table = np.array([th[n] for n in names])
        return lambda d, c: c - table[d] + 1e-12  # System 2 iff c >= threshold
    if hasattr(policy, "cells"):
        return lambda d, c: np.array([policy.cells.gain(names[i], x) for i, x in zip(d.tolist(), c.tolist())])
    constant = 1.0 if isinstance(policy, Fixed) and policy.threshold <= 0 else -1.0
    return lambda d, c: np.full(len(d), constant)


def held_out(score: np.ndarray, held: replay.Rows) -> dict:
    s2 = score > 0
    acc = float(np.where(s2, held.s2, held.s1).mean())
    pgr = metrics.pgr(acc, float(held.s1.mean()), float(held.s2.mean()))
    share, curve = metrics.pgr_curve(score, held.s1, held.s2)
    return {"pgr": pgr, "share": float(s2.mean()), "pgr_minus_share": pgr - float(s2.mean()),
            "apgr": metrics.apgr(share, curve), "cpt50": metrics.cpt(share, curve, 0.5),
            "cpt80": metrics.cpt(share, curve, 0.8), "curve": (share[::20], curve[::20])}


def one(args: Args, job: tuple[str, int]) -> dict:
    file, seed = job
    rows = replay.load(Path(args.data_dir) / file)
    learn, held = replay.split(rows, seed, args.learn_share)
    price = args.price or float(learn.s2.mean() - learn.s1.mean())
    stream = replay.stream(learn, price, seed, args.passes)
    summary, curves = {}, {}
    hind = held_out(replay.hindsight_gain(learn)[held.domain] - price, held)
    summary["hindsight-table"], curves["hindsight-table"] = _split(hind)
    for policy in standard_policies(price, seed, exploration=args.exploration, include=args.policies):
        try:
            trace = run(stream, policy, night=args.night, run_name=f"{args.name}-{seed}")
            score = scorer(policy, rows.names)(held.domain, held.complexity)
        finally:
            policy.close()
        row, curve = _split(held_out(score, held))
        online = metrics.pgr(float(trace.success.mean()), float(stream.p1.mean()), float(stream.p2.mean()))
        row.update({"online_pgr_minus_share": online - float(trace.s2.mean()), "online_share": float(trace.s2.mean()),
                    "explored": float(trace.explored.mean()), "seconds": trace.seconds})
        summary[policy.name], curves[policy.name] = row, curve
    return {"file": file, "seed": seed, "price": price, "requests": len(stream), "summary": summary,
            "curves": curves}


def _split(result: dict) -> tuple[dict, tuple]:
    curve = result.pop("curve")
    return result, (curve[0].tolist(), curve[1].tolist())


COLUMNS = [
    ("online_pgr_minus_share", "online PGR − S2 share", "{:.3f}"), ("pgr", "held-out PGR", "{:.3f}"),
    ("share", "held-out S2 share", "{:.3f}"), ("pgr_minus_share", "held-out PGR − S2 share", "{:.3f}"),
    ("apgr", "APGR", "{:.3f}"), ("cpt50", "CPT(50%)", "{:.3f}"), ("cpt80", "CPT(80%)", "{:.3f}"),
    ("explored", "explored share", "{:.3f}"),
]


def main(args: Args) -> dict:
    replay.require([Path(args.data_dir) / f for f in args.files])
    out = run_dir(args.name, args.out or None)
    jobs = [(f, s) for f in args.files for s in args.seeds]
    runs = pool_map(partial(one, args), jobs, args.workers)
    tables = {}
    names = ["hindsight-table", *args.policies]
    for file in args.files:
        mine = [r for r in runs if r["file"] == file]
        tables[file] = report.aggregate([r["summary"] for r in mine], COLUMNS, names)
        if args.plots and report.plots_available():
            first = mine[0]
            stem = Path(file).stem
            report.pgr_curves(out / f"{args.name}_{stem}_pgr.png", first["curves"],
                              f"{stem}: held-out PGR vs System 2 share (seed {first['seed']}, "
                              f"{args.passes} pass{'es' if args.passes > 1 else ''})")
            points = {n: [(r["summary"][n]["share"], r["summary"][n]["pgr"]) for r in mine]
                      for n in names if n in first["summary"]}
            report.share_vs_success(out / f"{args.name}_{stem}_share_pgr.png", points, None,
                                    f"{stem}: held-out operating points", "PGR")
    result = {"args": asdict(args), "tables": tables,
              "prices": {f: metrics.mean_sd([r["price"] for r in runs if r["file"] == f], "{:.3f}")
                         for f in args.files},
              "runs": [{k: v for k, v in r.items() if k != "curves"} for r in runs]}
    save_json(out / "results.json", result)
    (out / "table.md").write_text("\n\n".join(f"### {f}\n\n{t}" for f, t in tables.items()) + "\n",
                                  encoding="utf-8")
    return result


if __name__ == "__main__":
    from experiments.replay import MissingData

    try:
        result = main(parse(Args))
    except MissingData as exc:
        sys.exit(f"error: {exc}")
    for file, table in result["tables"].items():
        print(f"### {file}\n{table}\n")
