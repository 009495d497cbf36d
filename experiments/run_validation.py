"""Validation after the fact: how fast a harmful applied change is flagged, how often a harmless one is.

Each trial logs ``before`` W1 requests under the current thresholds (0.4 everywhere) and then
``after`` requests under the applied thresholds, both with the router's rule and exploration
(``complexity < t`` -> System 1, the other system with probability ``exploration`` inside the
band), draws the outcomes, writes the two rounds' window counts as the learning log holds them
and asks :func:`artibot.learning.validation.validate` (the code behind ``artibot status``)
with the shipped settings (``learning.validation``: alpha 0.025, the next round only).

Changes (the truth is W1's expected success rate with exploration, plain success: price 0):

* **harmful**: every threshold raised by the smallest step of 0.05 that costs >= 5 points;
* **harmless**: the ``docs`` threshold 0.4 -> 0.9 (System 1 is as good as System 2 there);
* **helpful**: every threshold moved towards W1's break-even point by at most 0.1;
* **none**: the round changed something else (a promotion): the thresholds stay.

    python experiments/run_validation.py --trials 1000
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.config import default_settings
from artibot.learning.logged import counts
from artibot.learning.validation import validate
from experiments import report
from experiments.args import parse, run_dir, save_json
from experiments.worlds import EXPLORATION_BAND, World, w1


@dataclass(frozen=True)
class Args:
    """Detection rate of harmful changes and false-alarm rate of harmless ones."""

    name: str = "validation"
    """run folder under experiments/runs/"""
    trials: int = 1000
    """trials per change and window size (seeds 1..trials)"""
    before: tuple[int, ...] = (1000, 5000, 10000)
    """experiences logged before the change (the round and the unchanged rounds before it)"""
    after: tuple[int, ...] = (250, 500, 1000)
    """experiences after the change (the next round)"""
    exploration: float = 0.05
    """router exploration"""
    current: float = 0.4
    """current threshold of every domain"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def route(world: World, d: np.ndarray, c: np.ndarray, t: np.ndarray, e: float,
          rng: np.random.Generator) -> np.ndarray:
    """The router's rule, vectorized: System 2 iff c >= t, flipped with probability e near t."""
    s2 = c >= t[d]
    flip = (np.abs(c - t[d]) <= EXPLORATION_BAND) & (rng.random(len(c)) < e)
    return s2 ^ flip


def log(world: World, n: int, t: np.ndarray, e: float, rng: np.random.Generator) -> dict[str, int]:
    d, c = world.sample(n, rng)
    s2 = route(world, d, c, t, e, rng)
    ok = np.zeros(n, bool)
    for i in range(len(world.domains)):
        m = d == i
        p1, p2 = world.probs(i, c[m])
        ok[m] = rng.random(int(m.sum())) < np.where(s2[m], p2, p1)
    return counts(ok, s2)


def changes(world: World, args: Args) -> dict[str, tuple[np.ndarray, float]]:
    """name -> (thresholds, true success change)."""
    k = len(world.domains)
    cur = np.full(k, args.current)
    base = world.threshold_utility(dict(zip(world.names, cur)), exploration=args.exploration)

    def cost(t: np.ndarray) -> float:
        return world.threshold_utility(dict(zip(world.names, t)), exploration=args.exploration) - base

    harmful = cur
    for step in np.arange(0.05, 0.51, 0.05):
        harmful = np.clip(cur + step, 0.1, 0.9)
        if cost(harmful) <= -0.05:
            break
    docs = cur.copy()
    docs[world.names.index("docs")] = 0.9
    oracle = np.array(list(world.oracle_thresholds().values()))
    helpful = np.round(cur + np.clip(oracle - cur, -0.1, 0.1), 3)
    return {"harmful": (harmful, cost(harmful)), "harmless (docs)": (docs, cost(docs)),
            "helpful (towards the oracle)": (helpful, cost(helpful)), "none": (cur, 0.0)}


def entries(before: dict[str, int], after: dict[str, int], thresholds_moved: bool) -> list[dict]:
    """The two learning-log entries: the change (round A) and the next round (B)."""
    changes = {"*": {"old": 0.4, "new": 0.5 if thresholds_moved else 0.4}}
    a = {"round_id": "rA", "status": "applied", "thresholds_applied": True, "threshold_changes": changes,
         "transfers": {} if thresholds_moved else {"p": "promote"}, "params": {"window": {"all": before}},
         "inputs": {"remainder": 0}}
    b = {"round_id": "rB", "status": "applied", "thresholds_applied": False, "threshold_changes": {},
         "transfers": {}, "params": {"window": {"all": after, "after_previous": after}}}
    return [a, b]


def main(args: Args) -> dict:
    out_dir = run_dir(args.name, args.out or None)
    world = w1(price=0.0)
    settings = default_settings().validation
    cur = np.full(len(world.domains), args.current)
    found = changes(world, args)
    rows, results = [], {}
    for name, (thresholds, truth) in found.items():
        for nb in args.before:
            for na in args.after:
                flagged = 0
                for seed in range(1, args.trials + 1):
                    rng = np.random.default_rng(seed)
                    before = log(world, nb, cur, args.exploration, rng)
                    after = log(world, na, thresholds, args.exploration, rng)
                    v = validate(entries(before, after, name != "none"), window=settings.window,
                                 alpha=settings.alpha, price=0.0, min_experiences=settings.min_experiences,
                                 baseline=settings.baseline)
                    flagged += v[0]["verdict"] == "worse"
                rate = flagged / args.trials
                results[f"{name}|{nb}|{na}"] = rate
                rows.append([name, f"{truth * 100:+.1f}", nb, na, f"{rate:.3f}"])
    table = (f"{args.trials} trials per row, W1 at exploration {args.exploration}, alpha {settings.alpha}\n\n"
             + report.markdown_table(["change", "true success change (points)", "before", "after", "flagged worse"],
                                     rows) + "\n")
    result = {"args": asdict(args), "changes": {k: {"thresholds": v[0].tolist(), "truth": v[1]}
                                                for k, v in found.items()},
              "flag_rate": results, "table": table}
    save_json(out_dir / "results.json", result)
    (out_dir / "table.md").write_text(table, encoding="utf-8")
    print(table)
    return result


if __name__ == "__main__":
    main(parse(Args, sys.argv[1:]))
