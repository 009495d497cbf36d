"""Real coding work: the router as shipped, replayed on SWE-bench Verified (19 agents x 500 real issues).

System 1 is the cheaper agent of a pair, System 2 the dearer one. Per seed the 500 tasks come
in a shuffled order, each as one request whose prompt is the issue's title. The router as
shipped runs in a fresh temporary home through the public API (:class:`artibot.Router`,
:func:`artibot.collector.collect_many`, :func:`artibot.learn` with the checkpoints' defaults),
with a round every ``round_every`` tasks. It sees only what a user's agent would: the outcome
and cost of the agent it chose (bandit feedback), recorded as the gateway records a turn
(``usage.cost_usd``).

**The person's redo.** A task routed to System 1 that the cheap agent does not resolve is
asked again: the retry runs at System 2 (the router's escalation rule, ``route_reason:
"escalation"``), costs System 2's dollars, and counts one redo. A task routed to System 2 is
not retried. So every policy's final success is "solved by the route taken, or by the retry".

**Baselines**, on the same tasks: *all System 2* (every task on the dear agent); *the cascade*
(every task on the cheap agent first, its failures re-run on the dear one: what Anthropic
publishes for effort); *the oracle* (knows each outcome: the cheap agent where it resolves the
task, else the dear one); *hindsight per repository* (the better of "cascade" and "System 2"
per repository, chosen on the whole data: a table no router can know in advance).

**Figures per pair** (means over seeds with the standard error): final success, the API bill
as a share of all System 2's, redos per 100 tasks, System 1 share, the bill with the person's
time (``redo_usd`` per redo: the shipped ``redoCostUsd``), and the share of the gap between
the better baseline and the oracle that the router recovers.

**Tuning and reporting.** The pairs in :data:`TUNE` are the only ones any constant was
looked at on; :data:`REPORT` (other model families, one of very different cost ratios) is
what is reported. Domains: ``--domain text`` is the router as shipped (the title's keywords
pick the domain); ``--domain repo`` passes the repository as the domain, as a user would with
``artibot route --domain``.

Data: ``swebench-verified/`` under :data:`experiments.replay.DATA_DIR` (the public SWE-bench
leaderboard's per-instance results, CC BY-NC 4.0; not shipped in the repository).

    python experiments/run_coding.py [--pairs report] [--seeds 1 .. 10] [--domain text]
"""

from __future__ import annotations

import csv
import random
import shutil
import sys
import tempfile
from collections import defaultdict
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.collector import collect_many
from artibot.config import settings_from_mapping
from artibot.round.cycle import learn
from artibot.learned_router import Router
from experiments import replay
from experiments.args import parse, run_dir, save_json
from experiments.simulate import pool_map

TUNE = (("GPT-5 mini", "GPT-5 (2025"), ("o4-mini", "o3 (2025"), ("Gemini 2.5 Pro", "GPT-5.1 (2025"))
"""Pairs (cheap, dear; agent name prefixes) the constants were looked at on: cost ratios 0.13, 0.63, 0.94."""
REPORT = (("DeepSeek V3.2", "GPT-5.1 (2025"), ("GLM-4.6", "GPT-5.1-codex"), ("gpt-oss-120b", "Minimax M2"),
          ("Devstral small", "Devstral (2512)"), ("Qwen3-Coder", "Kimi K2"), ("GLM-4.5", "o3 (2025"))
"""Pairs reported on, of other model families: cost ratios 0.09, 0.16, 0.13, 0.35, 0.47, 0.89."""
T0 = datetime(2026, 1, 5, 9, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Args:
    """SWE-bench Verified replay: the router as shipped against all-System-2, the cascade and the oracle."""

    name: str = "coding"
    """run folder under experiments/runs/"""
    pairs: str = "report"
    """which pairs: report, tune or all"""
    seeds: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    """task orders (and the router's exploration draws)"""
    domain: str = "text"
    """text: the router classifies the title (as shipped); repo: the repository is the domain"""
    round_every: int = 50
    """tasks between two learning rounds"""
    redo_usd: float = -1.0
    """what a redo costs the person in the 'with time' bill; -1: the shipped redoCostUsd"""
    config: str = ""
    """extra config for the router, as JSON merged over the shipped defaults (ablations)"""
    data_dir: str = str(replay.DATA_DIR / "swebench-verified")
    """folder with tasks.csv and outcomes.csv"""
    workers: int = 2
    """processes"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


@dataclass(frozen=True)
class Task:
    task: str
    repo: str
    title: str
    s1: bool
    c1: float
    s2: bool
    c2: float


def load(data_dir: str, cheap: str, dear: str) -> tuple[list[Task], str, str]:
    """The 500 tasks with both agents' outcome and cost; the agents' full names."""
    folder = Path(data_dir)
    if not (folder / "outcomes.csv").is_file():
        raise replay.MissingData(f"{folder / 'outcomes.csv'} not found: pass --data-dir, the folder of the "
                                 "SWE-bench Verified outcomes (tasks.csv, outcomes.csv)")
    with open(folder / "tasks.csv", newline="", encoding="utf-8") as f:
        tasks = list(csv.DictReader(f))
    by_agent: dict[str, dict[str, tuple[bool, float]]] = defaultdict(dict)
    with open(folder / "outcomes.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            by_agent[row["agent"]][row["task"]] = (row["resolved"] == "1", float(row["cost_usd"]))

    def agent(prefix: str) -> str:
        names = [a for a in by_agent if a.startswith(prefix)]
        if len(names) != 1:
            raise SystemExit(f"agent prefix {prefix!r} matches {names or 'nothing'}")
        return names[0]

    a1, a2 = agent(cheap), agent(dear)
    out = [Task(t["task"], t["repo"], t["title"], *by_agent[a1][t["task"]], *by_agent[a2][t["task"]]) for t in tasks]
    return out, a1, a2


def repo_domain(repo: str) -> str:
    """``django/django`` -> ``django``, ``scikit-learn/scikit-learn`` -> ``scikit-learn``, ``sphinx-doc/sphinx`` -> ``sphinx``."""
    return repo.split("/")[-1].lower().replace(".", "-")


@dataclass
class Tally:
    tasks: int = 0
    solved: int = 0
    bill: float = 0.0
    redos: int = 0
    system1: int = 0

    def add(self, solved: bool, bill: float, redo: bool, system1: bool) -> None:
        self.tasks += 1
        self.solved += solved
        self.bill += bill
        self.redos += redo
        self.system1 += system1


def cascade_step(t: Task) -> tuple[bool, float, bool]:
    """System 1 first, its failure retried at System 2: (solved, bill, redo)."""
    return (True, t.c1, False) if t.s1 else (t.s2, t.c1 + t.c2, True)


def baselines(tasks: list[Task]) -> dict[str, Tally]:
    out = {name: Tally() for name in ("system2", "cascade", "oracle", "hindsight")}
    by_repo: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        out["system2"].add(t.s2, t.c2, False, False)
        out["cascade"].add(*cascade_step(t), True)
        out["oracle"].add(t.s1 or t.s2, t.c1 if t.s1 else t.c2, False, t.s1)
        by_repo[t.repo].append(t)
    for group in by_repo.values():
        first = sum(cascade_step(t)[1] for t in group) < sum(t.c2 for t in group)
        for t in group:
            if first:
                out["hindsight"].add(*cascade_step(t), True)
            else:
                out["hindsight"].add(t.s2, t.c2, False, False)
    return out


def record(t: Task, i: int, d: Any, system: str, success: bool, cost: float, domain: str, redo: bool,
           second: int) -> dict[str, Any]:
    stamp = (T0 + timedelta(minutes=2 * i, seconds=second)).isoformat()
    return {"timestamp": stamp, "session_id": f"task-{i}", "input": t.title, "domain": domain,
            "complexity": d.complexity, "routed_to": system, "outcome": "success" if success else "failed",
            "latency_ms": 0, "confidence": d.confidence, "pattern": d.pattern, "threshold": d.threshold,
            "propensity": 1.0 if redo else d.propensity, "route_reason": "escalation" if redo else d.reason,
            "agent": "replay", "usage": {"cost_usd": round(cost, 6)}}


def run_router(tasks: list[Task], seed: int, args: Args) -> dict[str, Any]:
    """One pass of the router as shipped over ``tasks`` (already in this seed's order)."""
    import json

    extra = json.loads(args.config) if args.config else {}
    settings = settings_from_mapping(extra)
    tmp = Path(tempfile.mkdtemp(prefix="artibot-coding-"))
    home = tmp / "home"
    rng = random.Random(seed)
    tally, pending, rounds = Tally(), [], 0
    thresholds: list[dict[str, float]] = []
    try:
        router = Router.load(home, settings=settings, rng=rng)
        for i, t in enumerate(tasks):
            d = router.route(t.title, domain=repo_domain(t.repo) if args.domain == "repo" else None)
            if d.system == "system1":
                pending.append(record(t, i, d, "system1", t.s1, t.c1, d.domain, False, 0))
                if t.s1:
                    tally.add(True, t.c1, False, True)
                else:  # the person asks again; escalation sends the retry to System 2
                    pending.append(record(t, i, d, "system2", t.s2, t.c2, d.domain, True, 30))
                    tally.add(t.s2, t.c1 + t.c2, True, True)
            else:
                pending.append(record(t, i, d, "system2", t.s2, t.c2, d.domain, False, 0))
                tally.add(t.s2, t.c2, False, False)
            if (i + 1) % args.round_every == 0:
                collect_many(pending, home=home)
                pending = []
                learn(home=home, answers="defaults", settings=settings)
                rounds += 1
                router = Router.load(home, settings=settings, rng=rng)
                thresholds.append({"default": router.policy.default_threshold, **router.policy.domain_thresholds})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"tally": asdict(tally), "rounds": rounds, "thresholds": thresholds[-1] if thresholds else {}}


def job(item: tuple[tuple[str, str], int, Args]) -> dict[str, Any]:
    (cheap, dear), seed, args = item
    tasks, a1, a2 = load(args.data_dir, cheap, dear)
    order = np.random.default_rng(seed).permutation(len(tasks))
    routed = run_router([tasks[k] for k in order], seed, args)
    return {"pair": [a1, a2], "seed": seed, **routed}


def summarize(results: list[dict[str, Any]], args: Args, redo_usd: float) -> list[dict[str, Any]]:
    rows = []
    for pair in dict.fromkeys(tuple(r["pair"]) for r in results):
        runs = [r for r in results if tuple(r["pair"]) == pair]
        tasks = load(args.data_dir, pair[0], pair[1])[0]
        base = baselines(tasks)
        s2 = base["system2"].bill
        better = min(base["system2"].bill, base["cascade"].bill)
        gap = better - base["oracle"].bill

        def stats(values: list[float]) -> tuple[float, float]:
            a = np.asarray(values, float)
            return float(a.mean()), float(a.std(ddof=1) / np.sqrt(len(a))) if len(a) > 1 else 0.0

        tallies = [r["tally"] for r in runs]
        n = tallies[0]["tasks"]
        row: dict[str, Any] = {
            "pair": f"{pair[0]} → {pair[1]}", "cost_ratio": sum(t.c1 for t in tasks) / s2, "seeds": len(runs),
            "success": stats([x["solved"] / n for x in tallies]),
            "bill": stats([x["bill"] / s2 for x in tallies]),
            "redos_per_100": stats([100 * x["redos"] / n for x in tallies]),
            "system1_share": stats([x["system1"] / n for x in tallies]),
            "bill_with_time": stats([(x["bill"] + redo_usd * x["redos"]) / s2 for x in tallies]),
            "recovered": stats([(better - x["bill"]) / gap if gap > 0 else 0.0 for x in tallies]),
            "thresholds": runs[0]["thresholds"],
        }
        for name, b in base.items():
            row[name] = {"success": b.solved / n, "bill": b.bill / s2, "redos_per_100": 100 * b.redos / n,
                         "bill_with_time": (b.bill + redo_usd * b.redos) / s2,
                         "recovered": (better - b.bill) / gap if gap > 0 else 0.0}
        row["better_baseline"] = better / s2
        rows.append(row)
    return rows


def table(rows: list[dict[str, Any]], redo_usd: float) -> str:
    def pm(v: tuple[float, float], d: int = 3) -> str:
        return f"{v[0]:.{d}f} ± {v[1]:.{d}f}"

    lines = ["| pair (System 1 → System 2) | cost ratio | arm | final success | bill / all-S2 | redos per 100 "
             f"| System 1 share | bill with ${redo_usd:.2f} a redo | gap to oracle recovered |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['pair']} | {r['cost_ratio']:.2f} | **router** | {pm(r['success'])} | **{pm(r['bill'])}** "
                     f"| {pm(r['redos_per_100'], 1)} | {pm(r['system1_share'], 2)} | {pm(r['bill_with_time'])} "
                     f"| {pm(r['recovered'], 2)} |")
        for name in ("system2", "cascade", "hindsight", "oracle"):
            b = r[name]
            lines.append(f"| | | {name} | {b['success']:.3f} | {b['bill']:.3f} | {b['redos_per_100']:.1f} | | "
                         f"{b['bill_with_time']:.3f} | {b['recovered']:.2f} |")
    bills = [r["bill"][0] for r in rows]
    betters = [r["better_baseline"] for r in rows]
    lines += ["", f"Mean over the pairs: router {np.mean(bills):.3f} of all-System-2, the better baseline "
                  f"{np.mean(betters):.3f}; pairs within 2% of the better baseline: "
                  f"{sum(b <= 1.02 * m for b, m in zip(bills, betters))} of {len(rows)}."]
    return "\n".join(lines) + "\n"


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    x = np.arange(len(rows))
    width = 0.2
    for k, (name, label) in enumerate((("system2", "all System 2"), ("cascade", "cascade"), ("router", "router"),
                                       ("oracle", "oracle"))):
        values = [r["bill"][0] if name == "router" else r[name]["bill"] for r in rows]
        errors = [r["bill"][1] if name == "router" else 0.0 for r in rows]
        ax.bar(x + (k - 1.5) * width, values, width, yerr=errors, label=label)
    ax.set_xticks(x, [r["pair"].replace(" → ", "\n→ ")[:60] for r in rows], fontsize=6)
    ax.set_ylabel("API bill / all System 2")
    ax.set_title("SWE-bench Verified: the bill of each way of routing (failed System 1 tries re-run at System 2)")
    ax.title.set_fontsize(8)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv)
    pairs = {"report": REPORT, "tune": TUNE, "all": TUNE + REPORT}[args.pairs]
    redo_usd = args.redo_usd if args.redo_usd >= 0 else settings_from_mapping({}).lifelong.redo_cost_usd
    out = run_dir(args.name, args.out or None)
    try:
        results = pool_map(job, [(p, s, args) for p in pairs for s in args.seeds], args.workers)
    except replay.MissingData as exc:
        raise SystemExit(str(exc)) from None
    rows = summarize(results, args, redo_usd)
    kept = {k: v for k, v in asdict(args).items() if k not in ("data_dir", "out")}  # no path of this machine
    save_json(out / "results.json", {"args": kept, "redo_usd": redo_usd, "rows": rows, "runs": results})
    text = table(rows, redo_usd)
    (out / "table.md").write_text(text, encoding="utf-8")
    plot(rows, out / "coding.png")
    print(text)


if __name__ == "__main__":
    main()
