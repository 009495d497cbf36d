"""How long a stale pattern stays in the System 1 cache under the aging rule, and how often a good one
is pushed out.

A pattern is promoted on day 0 with confidence ``c0``. Every night the learner runs (one round
a day), feeding the day's System 1 uses into :func:`artibot.learning.freshness.record_uses` and
asking :func:`~artibot.learning.freshness.demotion_reason` with the shipped
``learning.freshness`` settings and ``minConfidence``. Scenarios:

* **unused**: never used again;
* **good**: used ``uses_per_day`` times a day, System 1 succeeds with 0.95;
* **goes bad**: like good until day ``bad_from``, then System 1 succeeds with ``bad_success``.

Reported: days until the demotion is proposed (median, 90th percentile), the share demoted
within ``horizon`` days, and the first reason given.

    python experiments/run_staleness.py --trials 500
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.config import default_settings
from artibot.learning.freshness import DAY, FreshnessRules, demotion_reason, initial_state, record_uses
from experiments import report
from experiments.args import parse, run_dir, save_json


@dataclass(frozen=True)
class Args:
    """Days a stale pattern stays cached under the freshness decay; false demotions of good patterns."""

    name: str = "staleness"
    """run folder under experiments/runs/"""
    trials: int = 500
    """patterns per scenario (seeds 1..trials)"""
    c0: float = 0.9
    """confidence at promotion (the seed's promotion needs > 0.8)"""
    uses_per_day: tuple[int, ...] = (1, 5)
    """System 1 uses a day of a used pattern"""
    bad_from: int = 30
    """day on which a "goes bad" pattern's System 1 success drops"""
    bad_success: float = 0.5
    """System 1 success of a pattern gone bad"""
    horizon: int = 365
    """days simulated"""
    streak: int = 2
    """the seed's demotionThreshold, for comparison"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def simulate(args: Args, rules: FreshnessRules, success: Callable[[int], float], uses: int,
             seed: int) -> tuple[int | None, str, int | None]:
    """Day the aging rule first proposes the demotion (None within the horizon), its reason, and
    the day the seed's streak rule (``demotionThreshold`` consecutive System 1 failures) would."""
    rng = np.random.default_rng(seed)
    state = initial_state(args.c0, 0.0)
    streak, streak_day = 0, None
    for day in range(1, args.horizon + 1):
        p = success(day)
        times = [(day - 1) * DAY + (j + 1) * DAY / (uses + 1) for j in range(uses)]
        outcomes = [bool(rng.random() < p) for _ in times]
        for ok in outcomes:
            streak = 0 if ok else streak + 1
            if streak >= args.streak and streak_day is None:
                streak_day = day
        state = record_uses(state, list(zip(times, outcomes)), rules.recent_uses)
        reason = demotion_reason(state, day * DAY, rules)
        if reason:
            return day, reason, streak_day
    return None, "", streak_day


def _finite(x: float) -> float | None:
    return x if np.isfinite(x) else None


def _days(x: float, horizon: int) -> str:
    return f"{x:.0f}" if np.isfinite(x) else f"> {horizon}"


def main(args: Args) -> dict:
    out_dir = run_dir(args.name, args.out or None)
    s = default_settings()
    fr = s.freshness
    rules = FreshnessRules(fr.decay_per_day, fr.recent_uses, fr.recent_failures, s.system1.min_confidence)
    scenarios = [("unused", 0, lambda d: 1.0)]
    for u in args.uses_per_day:
        scenarios.append((f"good, {u}/day", u, lambda d: 0.95))
        scenarios.append((f"goes bad on day {args.bad_from}, {u}/day", u,
                          lambda d: 0.95 if d < args.bad_from else args.bad_success))
    rows, results = [], {}
    for name, uses, success in scenarios:
        runs = [simulate(args, rules, success, uses, seed) for seed in range(1, args.trials + 1)]
        days = np.array([d if d is not None else np.inf for d, _, _ in runs], dtype=float)
        done = np.isfinite(days)
        streak = np.array([d if d is not None else np.inf for _, _, d in runs], dtype=float)
        reasons = [r for _, r, _ in runs if r]
        first = str(reasons[0]).split(" (")[0] if reasons else "—"
        med, p90, s_med = (float(np.quantile(x, q, method="inverted_cdf")) for x, q in ((days, 0.5), (days, 0.9), (streak, 0.5)))
        results[name] = {"demoted_within_horizon": float(done.mean()), "median_days": _finite(med),
                         "p90_days": _finite(p90), "example_reason": first,
                         "streak_rule_within_horizon": float(np.isfinite(streak).mean()),
                         "streak_rule_median_days": _finite(s_med)}
        rows.append([name, f"{done.mean():.3f}", _days(med, args.horizon), _days(p90, args.horizon), first,
                     f"{np.isfinite(streak).mean():.3f}", _days(s_med, args.horizon)])
    table = (f"{args.trials} patterns per scenario, c0 {args.c0}, decayPerDay {fr.decay_per_day}, "
             f"minConfidence {rules.min_confidence}, horizon {args.horizon} days\n\n"
             + report.markdown_table(["scenario", f"demoted within {args.horizon} d", "median days",
                                      "p90 days", "reason", f"streak rule: demoted within {args.horizon} d",
                                      "streak rule: median days"], rows) + "\n")
    result = {"args": asdict(args), "results": results, "table": table}
    save_json(out_dir / "results.json", result)
    (out_dir / "table.md").write_text(table, encoding="utf-8")
    print(table)
    return result


if __name__ == "__main__":
    main(parse(Args, sys.argv[1:]))
