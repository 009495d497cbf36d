"""The online protocol on every data file, for every policy (see :mod:`experiments.online`).

Data sets: ``mmlu-dev.csv`` whole, its 14 tuning subjects, its 14 held-out subjects
(no constant of the learner was tuned on them: the figure that counts), ``gsm8k.csv``
and ``mt-bench.csv``. Policies: the shipped defaults (no config at all), the seed's rule
(``mode: "seed"``, the rest shipped), evidence mode with the configuration the README
recommended in an earlier README (``readme-0.5``: exploration 0.05, ``system2Cost`` = System
2's gain on the file), Thompson sampling and ε-greedy (with the same price, learning
after every row). References: a per-subject table fitted with full information on the
first half of the pass, and one fitted in hindsight on the scored half itself.

    python experiments/run_online.py --seeds 0 1 2 3 4 5 6 7 8 9
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from experiments import online, report
from experiments.args import parse, run_dir, save_json
from experiments.replay import DATA_DIR
from experiments.simulate import pool_map

DATASETS = ("mmlu-dev", "mmlu-tuning", "mmlu-held-out", "gsm8k", "mt-bench")
POLICIES = ("defaults", "learned-rates", "seed", "readme-0.5", "thompson", "epsilon-greedy")
REFERENCES = ("table (full information, first half)", "table (hindsight)")


@dataclass(frozen=True)
class Args:
    """The online protocol: PGR − S2 share over the second half of one pass, per policy and data set."""

    name: str = "online"
    """run folder under experiments/runs/"""
    datasets: tuple[str, ...] = DATASETS
    """data sets: mmlu-dev, mmlu-tuning, mmlu-held-out, gsm8k, mt-bench"""
    data_dir: str = str(DATA_DIR)
    """folder with the outcome files"""
    seeds: tuple[int, ...] = tuple(range(10))
    """seeds of the shuffle of the pass (and of the baselines' own random draws)"""
    seed_router: bool = False
    """seed the product's router with the pass's seed (replays a run exactly; as shipped it is unseeded)"""
    policies: tuple[str, ...] = POLICIES
    """policies to compare"""
    night: int = 500
    """rows between two learn() calls"""
    workers: int = 2
    """processes"""
    plots: bool = True
    """write PNG plots (needs matplotlib)"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def rows_of(dataset: str, data_dir: str) -> list[online.Row]:
    folder = Path(data_dir)
    if dataset == "mmlu-tuning":
        return online.load_rows(folder / "mmlu-dev.csv", online.TUNING)
    if dataset == "mmlu-held-out":
        return online.load_rows(folder / "mmlu-dev.csv", online.HELD_OUT)
    if dataset in ("mmlu-dev", "gsm8k", "mt-bench"):
        return online.load_rows(folder / f"{dataset}.csv")
    raise ValueError(f"unknown data set {dataset!r}; known: {', '.join(DATASETS)}")


def gain_of(rows: list[online.Row]) -> float:
    return float(np.mean([r.s2 for r in rows]) - np.mean([r.s1 for r in rows]))


def one(args: Args, job: tuple[str, str, int]) -> dict:
    dataset, name, seed = job
    rows = rows_of(dataset, args.data_dir)
    policy = online.make(name, seed, gain_of(rows), seed if args.seed_router else None)
    try:
        result = online.run_protocol(rows, policy, seed, args.night)
    finally:
        policy.close()
    return {"dataset": dataset, "policy": name, "seed": seed, **result}


def references(dataset: str, data_dir: str, seed: int) -> dict[str, dict]:
    """The per-subject tables: System 2 where its gain beats the scored half's mean gain."""
    rows = online.shuffled(rows_of(dataset, data_dir), seed)
    half = len(rows) // 2
    first, tail = rows[:half], rows[half:]
    out = {}
    for label, source in zip(REFERENCES, (first, tail)):
        gains: dict[str, list[int]] = {}
        for r in source:
            g = gains.setdefault(r.domain, [0, 0])
            g[0] += 1
            g[1] += r.s2 - r.s1
        price = gain_of(tail)
        s2 = np.array([(gains[r.domain][1] / gains[r.domain][0] > price) if r.domain in gains else True
                       for r in tail])
        out[label] = online.score_rows(s2, tail)
    return out


COLUMNS = [("score", "PGR − S2 share (2nd half)", "{:.3f}"), ("pgr", "PGR", "{:.3f}"),
           ("share", "S2 share", "{:.3f}"), ("explored", "explored", "{:.3f}"),
           ("randomized", "propensity < 1", "{:.3f}")]
NOTE = {"mmlu-held-out": " — subjects no constant was tuned on", "mmlu-tuning": " — the constants were tuned here"}


SUBJECT_POLICY = {"defaults": "shipped defaults (domainExploration 1% everywhere: before)",
                  "learned-rates": "learned per-domain rates, explorationBudget 0.05 (after)"}


def subject_table(runs: list[dict], dataset: str, policy: str = "defaults") -> str:
    """Per subject, mean over seeds: trials of each system in the pass, the explored routes, and the
    router's exploration rate away from the threshold at the end of the pass."""
    per = [r["domains"] for r in runs if r["dataset"] == dataset and r["policy"] == policy and "domains" in r]
    if not per:
        return ""
    lines = ["| subject | rows | System 1 trials | System 2 trials | fewer of the two | explored | "
             "exploration rate at the end |", "|---|---|---|---|---|---|---|"]
    minority = []
    for name in sorted(per[0]):
        cells = [d[name] for d in per if name in d]

        def mean(key: str) -> float:
            return float(np.mean([c[key] for c in cells]))

        few = float(np.median([min(c["s1"], c["s2"]) for c in cells]))
        minority.append(few)
        rates = [c["rate"] for c in cells if c.get("rate") is not None]
        rate = f"{np.mean(rates):.3f}" if rates else "n/a"
        lines.append(f"| {name} | {mean('rows'):.0f} | {mean('s1'):.0f} | {mean('s2'):.0f} | {few:.0f} | "
                     f"{mean('explored'):.1f} | {rate} |")
    lines.append(f"| median over subjects | | | | {float(np.median(minority)):.0f} | | |")
    return "\n".join(lines)


def main(args: Args) -> dict:
    from experiments.replay import require

    files = {"mmlu-tuning": "mmlu-dev", "mmlu-held-out": "mmlu-dev"}
    require([Path(args.data_dir) / f"{files.get(d, d)}.csv" for d in args.datasets])
    out = run_dir(args.name, args.out or None)
    jobs = [(d, p, s) for d in args.datasets for p in args.policies for s in args.seeds]
    runs = pool_map(partial(one, args), jobs, args.workers)
    tables, summary = {}, {}
    for dataset in args.datasets:
        per_seed = []
        for seed in args.seeds:
            row = {r["policy"]: r for r in runs if r["dataset"] == dataset and r["seed"] == seed}
            row.update(references(dataset, args.data_dir, seed))
            per_seed.append(row)
        names = [*args.policies, *REFERENCES]
        tables[dataset] = report.aggregate(per_seed, COLUMNS, names)
        summary[dataset] = {n: [r[n]["score"] for r in per_seed if n in r] for n in names}
    if args.plots and report.plots_available():
        curves = {d: {p: [r["curve"] for r in runs if r["dataset"] == d and r["policy"] == p]
                      for p in args.policies} for d in args.datasets}
        report.online_bars(out / f"{args.name}_scores.png", summary, "online protocol: PGR − S2 share, 2nd half")
        for d in args.datasets:
            report.online_curves(out / f"{args.name}_{d}_nights.png", curves[d], args.night,
                                 f"{d}: PGR − S2 share per night (mean over seeds)")
    result = {"args": asdict(args), "tables": tables, "scores": summary,
              "runs": [{k: v for k, v in r.items() if k != "curve"} for r in runs]}
    save_json(out / "results.json", result)
    (out / "table.md").write_text(
        "\n\n".join(f"### {d}{NOTE.get(d, '')}\n\n{t}" for d, t in tables.items()) + "\n", encoding="utf-8")
    subjects = {(d, p): subject_table(runs, d, p) for d in args.datasets if d.startswith("mmlu")
                for p in ("defaults", "learned-rates")}
    (out / "subjects.md").write_text("\n\n".join(
        f"### {d}: per subject, {SUBJECT_POLICY[p]} (median of the fewer trials)\n\n{t}"
        for (d, p), t in subjects.items() if t) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    from experiments.replay import MissingData

    try:
        result = main(parse(Args))
    except MissingData as exc:
        sys.exit(f"error: {exc}")
    for dataset, table in result["tables"].items():
        print(f"### {dataset}{NOTE.get(dataset, '')}\n{table}\n")
