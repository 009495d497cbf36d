"""Knowledge transfer: false demotions and false promotions, seed rule vs evidence mode.

Patterns of four kinds, by System 1 success: 0.95, 0.9 (good), 0.7, 0.5 (bad); System 2
succeeds on every one with 0.95. Each pattern is used ``uses_per_night`` times a night
and the product learns every night, in a real temporary home.

* **Demotion**: every pattern starts in the System 1 cache (promoted by a first round of
  three System 2 successes each, with the seed's rule), so it is routed to System 1.
  False demotion: a good pattern (System 1 >= 0.9) leaves the cache within ``uses`` uses.
* **Promotion**: every pattern starts as a candidate at complexity ``complexity``
  (0.85: far above the threshold 0.4, so routed to System 2 with a router confidence
  above 0.8, which the seed's promotion rule requires). False promotion: a bad pattern
  (System 1 <= 0.7) enters the cache within ``uses`` uses. Also counted: bad patterns
  still in the cache at the end, and System 1 failures per bad pattern.

    python experiments/run_transfer.py --seeds 1 2 3 4 5
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.config import settings_from_mapping
from artibot.round.cycle import learn
from experiments import metrics, report
from experiments.args import parse, run_dir, save_json
from experiments.policies import Product, Routed, make_record
from experiments.simulate import pool_map

KINDS = (0.95, 0.9, 0.7, 0.5)
S2_SUCCESS = 0.95
DOMAIN = "api"


@dataclass(frozen=True)
class Args:
    """False demotion / promotion rates of the seed rule and evidence mode over a pattern's first uses."""

    name: str = "transfer"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    """seeds"""
    patterns: int = 25
    """patterns of each kind"""
    uses: int = 50
    """uses of each pattern"""
    uses_per_night: int = 1
    """uses of each pattern between two learning rounds (1: decisions after every use, the worst case)"""
    exploration: float = 0.05
    """router exploration of the product"""
    price: float = 0.05
    """system2Cost of evidence mode"""
    complexity: float = 0.85
    """complexity of every pattern's requests"""
    workers: int = 2
    """processes"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def _keys(args: Args) -> list[tuple[str, float]]:
    return [(f"{DOMAIN}:fix:k{int(p * 100)}n{i:03d}", p) for p in KINDS for i in range(args.patterns)]


def _promote_all(policy: Product, keys: list[tuple[str, float]], clock: list[int], c: float) -> None:
    """Three System 2 successes per pattern, learned with the seed's rule: every pattern is promoted."""
    records = []
    for _ in range(3):
        for key, _p in keys:
            routed = Routed(True, 1.0, 0.4, 0.9)
            records.append(make_record(clock[0], DOMAIN, c, routed, "success", 15000.0, key, run="boot"))
            clock[0] += 1
    seed_rules = settings_from_mapping({"learning": {"lifelong": {"mode": "seed"}}})
    from artibot.collector import collect_many

    collect_many(records, home=policy.home)
    learn(home=policy.home, answers="defaults", settings=seed_rules, flush=True)
    policy.reload()


def study(args: Args, mode: str, start: str, seed: int) -> dict:
    """One home, one mode, one starting state; returns per kind: share that switched, System 1 failures."""
    rng = np.random.default_rng(seed)
    config = {"lifelong": {"system2Cost": args.price}} if mode == "evidence" else {}
    policy = Product(mode, mode, seed, args.exploration, config)
    keys = _keys(args)
    clock = [0]
    try:
        if start == "cache":
            _promote_all(policy, keys, clock, args.complexity)
        first_switch: dict[str, int | None] = {k: None for k, _ in keys}
        s1_failures = {p: 0 for p in KINDS}
        initially = {k: k in policy.cache() for k, _ in keys}
        for night in range(args.uses // args.uses_per_night):
            records = []
            for _ in range(args.uses_per_night):
                for key, p in keys:
                    routed = policy.route(DOMAIN, args.complexity, key, clock[0])
                    ok = bool(rng.random() < (S2_SUCCESS if routed.s2 else p))
                    if not ok and not routed.s2:
                        s1_failures[p] += 1
                    outcome = "success" if ok else ("failed" if routed.s2 else "escalated")
                    records.append(make_record(clock[0], DOMAIN, args.complexity, routed, outcome,
                                               15000.0 if routed.s2 else 1500.0, key, run=f"t{seed}"))
                    clock[0] += 1
            policy.night(records)
            cache = policy.cache()
            for key, _p in keys:
                if first_switch[key] is None and (key in cache) != initially[key]:
                    first_switch[key] = (night + 1) * args.uses_per_night
        final = policy.cache()
    finally:
        policy.close()
    out = {}
    for p in KINDS:
        mine = [k for k, q in keys if q == p]
        out[str(p)] = {"switched": float(np.mean([first_switch[k] is not None for k in mine])),
                       "in_cache_at_end": float(np.mean([k in final for k in mine])),
                       "s1_failures_per_pattern": s1_failures[p] / len(mine)}
    return out


def one_seed(args: Args, seed: int) -> dict:
    return {"seed": seed, **{f"{mode}/{start}": study(args, mode, start, seed)
                             for mode in ("seed", "evidence") for start in ("cache", "candidate")}}


def main(args: Args) -> dict:
    out = run_dir(args.name, args.out or None)
    runs = pool_map(partial(one_seed, args), list(args.seeds), args.workers)
    rows = []
    for mode in ("seed", "evidence"):
        cache = [r[f"{mode}/cache"] for r in runs]
        cand = [r[f"{mode}/candidate"] for r in runs]
        rows.append([
            mode,
            metrics.mean_sd([c["0.9"]["switched"] for c in cache], "{:.3f}"),
            metrics.mean_sd([c["0.95"]["switched"] for c in cache], "{:.3f}"),
            metrics.mean_sd([c["0.5"]["switched"] for c in cache], "{:.3f}"),
            metrics.mean_sd([c["0.7"]["switched"] for c in cache], "{:.3f}"),
            metrics.mean_sd([c["0.5"]["switched"] for c in cand], "{:.3f}"),
            metrics.mean_sd([c["0.7"]["switched"] for c in cand], "{:.3f}"),
            metrics.mean_sd([c["0.9"]["switched"] for c in cand], "{:.3f}"),
            metrics.mean_sd([(c["0.5"]["in_cache_at_end"] + c["0.7"]["in_cache_at_end"]) / 2 for c in cand],
                            "{:.3f}"),
            metrics.mean_sd([(c["0.5"]["s1_failures_per_pattern"] + c["0.7"]["s1_failures_per_pattern"]) / 2
                             for c in cand], "{:.2f}"),
        ])
    headers = [
        "mode", "false demotion, S1 0.9", "false demotion, S1 0.95", "demotion, S1 0.5", "demotion, S1 0.7",
        "false promotion, S1 0.5", "false promotion, S1 0.7", "promotion, S1 0.9",
        "bad patterns cached at the end", "S1 failures per bad pattern",
    ]
    table = report.markdown_table(headers, rows)
    result = {"args": asdict(args), "table": table, "runs": runs}
    save_json(out / "results.json", result)
    (out / "table.md").write_text(table + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    print(main(parse(Args))["table"])
