"""A team of members pooling: W1 regret, W2 drift recovery, and a member joining a team.

Pooling is simulated as what it is for the learner: the team's requests (``members`` ×
a member's 500 a night) routed by the one published state, and one round a night over
all of them. The round is the same learner the team round runs on PostgreSQL (the
test ``tests/team/test_flow.py::test_the_team_round_is_the_personal_round_on_the_same_records``
checks that the SQL sums give the personal round's thresholds), so the simulation runs
it in a temporary home instead of a database: the learning is the same, the minutes are
fewer. Same worlds, same held-out seeds (1-10; the learner was tuned on 1001-1003) and
same metrics as ``run_w1.py`` and ``run_w2.py``, which are the one-person versions.

* **W1**: regret per 1k team requests over the same 40 nights a person's 20,000 requests take.
* **W2**: the drift half-way; recovery counted, as in ``run_w2.py``, in the affected
  domain's own requests after the drift; a member's share of them is that divided by
  ``members`` (each member sends 1/``members`` of every domain's requests).
* **Replay** (``--studies replay``): the online protocol on MMLU's 14 held-out subjects, the
  team's pass against one member's twelfth of it, each as a share of the per-subject table
  fitted with full information, on paired seeds (the router seeded by the seed), with the
  bound of bandit feedback and where the team's pass loses (:mod:`experiments.team_replay`);
  0.90 is judged by the team's score minus 0.90 × the table's, paired by seed.
  ``--studies bound`` computes the bound alone (fast). Both also give the table within the
  router's bounds: rows scoring above ``maxThreshold`` go to System 2 in every router whose
  thresholds stay at or below it; ``--replay-max-threshold 1.0`` runs the passes with that
  bound lifted (a config, not the default).
* **Joining**: a newcomer's first day routed by the team's table after a month (30
  nights) of pooling, against starting from scratch (every domain at the default 0.4):
  exact regret per 1k from the world's curves.

    python experiments/run_team.py --seeds 1 2 3
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Iterator
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.config.settings import Settings
from experiments import metrics, run_w1, run_w2
from experiments.args import parse, run_dir, save_json
from experiments.simulate import pool_map
from experiments.worlds import w1


@dataclass(frozen=True)
class Args:
    """A team pooling its records: W1, W2 and a member joining."""

    name: str = "team"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (1, 2, 3)
    """held-out seeds (the learner was tuned on 1001-1003)"""
    members: int = 12
    """members pooling"""
    nights: int = 40
    """nights of the run (a person's 20,000 requests at 500 a night)"""
    per_night: int = 500
    """requests of one member in one night"""
    month: int = 30
    """nights the team learned before a newcomer joins"""
    round_every: int = 0
    """pooled requests between two team rounds in W1 and W2 (0: one round a night, members × per_night)"""
    ramp: int = 0
    """W1 and W2: the first team round after this many pooled requests, each next after twice as many, up to
    the usual interval (``round_every``, else a night) (0: off)"""
    half_life: float = 0.0
    """the pool's evidence half-life in a domain's records (0: the team round's,
    ``bandit.pooled_half_life(members)``; 1000 is one person's, for the ablation)"""
    replay_every: int = 0
    """rows between two rounds in the replay, pooled or one member's (0: per_night)"""
    replay_max_threshold: float = 0.0
    """the router's ``maxThreshold`` in the replay's passes (0: the shipped default, 0.9; 1.0 lets a
    subject go wholly to System 1)"""
    replay_set: str = "mmlu-held-out"
    """the replay's rows: mmlu-held-out (the report) or mmlu-tuning (the other subjects, for choosing settings)"""
    studies: tuple[str, ...] = ("w1", "w2")
    """which studies to run: w1, w2, replay, bound (the replay's bound of bandit feedback alone; replay and bound
    need the MMLU outcome file, see experiments/README.md)"""
    workers: int = 2
    """processes (one job each)"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def replay(args: Args, seed: int) -> dict:
    """The online protocol on the 14 held-out MMLU subjects: the team's pass (every row, a round
    every ``replay_every`` pooled rows) and one member's pass (every ``members``-th row, a round
    every ``replay_every`` of its own), each against the per-subject table fitted with full
    information on the same seed, with the router seeded by the seed (paired and repeatable),
    the bound of bandit feedback and where the team's pass loses (:mod:`experiments.team_replay`)."""
    from experiments import online, run_online, team_replay
    from experiments.replay import DATA_DIR

    rows = run_online.rows_of(args.replay_set, str(DATA_DIR))
    table = run_online.references(args.replay_set, str(DATA_DIR), seed)
    reference = table[run_online.REFERENCES[0]]["score"]  # the table fitted on the pass's first half
    every = args.replay_every or args.per_night
    top = _top(args)
    config = {"cognitive": {"router": {"maxThreshold": top}}} if args.replay_max_threshold else None
    out: dict = {"study": "replay", "seed": seed, "table": reference, "max_threshold": top,
                 "bandit_table": team_replay.bandit_table(rows, seed),
                 "guarded_table": team_replay.guarded_table(rows, seed, top)}
    for label, part in (("team", rows), ("alone", online.shuffled(rows, seed)[::args.members])):
        with _half_life(args, pooled=label == "team"):
            result = team_replay.run(part, seed, every, seed, config)
        out[label] = result["score"]
        if label == "team":
            out["losses"] = result["losses"]
            out["explored"] = result["explored"]
    for label in ("team", "alone", "bandit_table", "guarded_table"):
        out[f"{label}_share_of_table"] = out[label] / reference if reference > 0 else None
    return out


def bound(args: Args, seed: int) -> dict:
    """Only the table and the bound of bandit feedback on ``replay_set`` (no product pass: fast)."""
    from experiments import run_online, team_replay
    from experiments.replay import DATA_DIR

    rows = run_online.rows_of(args.replay_set, str(DATA_DIR))
    table = run_online.references(args.replay_set, str(DATA_DIR), seed)[run_online.REFERENCES[0]]["score"]
    top = _top(args)
    out = {"study": "bound", "seed": seed, "table": table, "max_threshold": top,
           "bandit_table": team_replay.bandit_table(rows, seed),
           "guarded_table": team_replay.guarded_table(rows, seed, top),
           "guarded_bandit_table": team_replay.bandit_table(rows, seed, top=top)}
    for label in ("bandit_table", "guarded_table", "guarded_bandit_table"):
        out[f"{label}_share_of_table"] = out[label] / table if table > 0 else None
    return out


def _top(args: Args) -> float:
    """The router's ``maxThreshold`` in the replay: the one asked for, else the shipped default."""
    return args.replay_max_threshold or Settings().router.max_threshold


@contextmanager
def _half_life(args: Args, *, pooled: bool) -> Iterator[None]:
    """The simulations run the personal round on the pool: give it the half-life the team round
    uses (:func:`artibot.learning.bandit.pooled_half_life`), or one person's for one member, and
    put the learner's own back afterwards (a worker, or a test, runs several jobs in one process)."""
    from artibot.learning import bandit

    own = bandit.HALF_LIFE
    bandit.HALF_LIFE = (args.half_life or bandit.pooled_half_life(args.members)) if pooled else own
    try:
        yield
    finally:
        bandit.HALF_LIFE = own


def job(args: Args, item: tuple[str, int]) -> dict:
    study, seed = item
    if study == "replay":
        return replay(args, seed)
    if study == "bound":
        return bound(args, seed)
    with _half_life(args, pooled=True):
        return _world(args, study, seed)


def _world(args: Args, study: str, seed: int) -> dict:
    """W1 (with a newcomer joining) or W2 for one seed."""
    requests, night = args.members * args.per_night * args.nights, args.members * args.per_night
    night = args.round_every or night
    if study == "w1":
        a1 = replace(run_w1.Args(), requests=requests, night=night, ramp=args.ramp, policies=("evidence",),
                     plots=False)
        result = run_w1.one_seed(a1, seed)
        th = result["thresholds"]["evidence"]
        world = w1(a1.price)
        month = int(np.searchsorted(result["nights"], args.month * args.members * args.per_night, side="right")) - 1
        oracle = world.oracle_utility()
        joined = (oracle - world.threshold_utility(th[month], 0, a1.exploration)) * 1000
        scratch = (oracle - world.threshold_utility({}, 0, a1.exploration)) * 1000
        summary = result["summary"]["evidence"]
        return {"study": study, "seed": seed, "regret_1k": summary["regret_1k"],
                "regret_1k_late": summary["regret_1k_late"], "join_regret_1k": joined,
                "scratch_regret_1k": scratch, "explored": summary["explored"]}
    a2 = replace(run_w2.Args(), requests=requests, night=night, ramp=args.ramp, policies=("evidence",),
                 plots=False)
    result = run_w2.one_seed(a2, seed)
    s = result["summary"]["evidence"]
    return {"study": study, "seed": seed, "regret_1k": s["regret_1k"],
            **{f"recovery_{d}": s[f"recovery_{d}"] for d in run_w2.AFFECTED}}


def main(args: Args) -> dict:
    out = run_dir(args.name, args.out or None)
    items = [(study, seed) for study in args.studies for seed in args.seeds]
    runs = pool_map(partial(job, args), items, args.workers)
    table = render(args, runs)
    save_json(out / "results.json", {"args": asdict(args), "runs": runs, "table": table})
    (out / "table.md").write_text(table + "\n", encoding="utf-8")
    return {"table": table, "runs": runs, "per_seed": {f"{r['study']}-{r['seed']}": r for r in runs}}


def _seeds(runs: list[dict]) -> str:
    seeds = sorted(r["seed"] for r in runs)
    contiguous = seeds == list(range(seeds[0], seeds[-1] + 1))
    return f"{seeds[0]}–{seeds[-1]}" if contiguous and len(seeds) > 2 else ", ".join(map(str, seeds))


def render(args: Args, runs: list[dict]) -> str:
    """The tables of ``runs`` (of one or several runs of this script: their seeds are listed)."""
    every = (f"a team round every {args.round_every} pooled requests" if args.round_every
             else "one team round a night")
    lines = [f"{args.members} members, {args.per_night} requests each a night, {args.nights} nights, {every}", ""]
    w1_runs = [r for r in runs if r["study"] == "w1"]
    if w1_runs:
        lines += ["| W1 | regret /1k (all) | last window | a newcomer's first day, with the team's table | "
                  "from scratch |", "|---|---|---|---|---|",
                  f"| evidence, pooled, seeds {_seeds(w1_runs)} | "
                  + " | ".join(metrics.mean_sd([r[k] for r in w1_runs])
                               for k in ("regret_1k", "regret_1k_late", "join_regret_1k", "scratch_regret_1k"))
                  + " |", ""]
    w2_runs = [r for r in runs if r["study"] == "w2"]
    if w2_runs:
        lines += ["| W2 | regret /1k | backend: its requests to recover (per member) | "
                  "data: its requests to recover (per member) |", "|---|---|---|---|"]
        cells = [metrics.mean_sd([r["regret_1k"] for r in w2_runs])]
        for d in run_w2.AFFECTED:
            values = [r[f"recovery_{d}"] for r in w2_runs]
            per_member = [None if v is None else v / args.members for v in values]
            member_ok = sum(v is not None and v <= 500 for v in per_member)
            pooled_ok = sum(v is not None and v <= 500 for v in values)
            cells.append(f"{metrics.mean_sd(values, '{:.0f}')} ({metrics.mean_sd(per_member, '{:.0f}')}); "
                         f"recovered {sum(v is not None for v in values)}/{len(values)}, within 500 of a member's "
                         f"requests {member_ok}/{len(values)}, within 500 pooled {pooled_ok}/{len(values)}")
        lines += [f"| evidence, pooled, seeds {_seeds(w2_runs)} | " + " | ".join(cells) + " |"]
    replays = [r for r in runs if r["study"] == "replay"]
    if replays:
        lines += ["", *render_replay(args, replays)]
    bounds = [r for r in runs if r["study"] == "bound"]
    if bounds:
        shares = [r["bandit_table_share_of_table"] for r in bounds if r["bandit_table_share_of_table"] is not None]
        lines += ["", f"MMLU {args.replay_set}, seeds {_seeds(bounds)}: the bound of bandit feedback (first half "
                  f"uniform, then its table) reaches {metrics.mean_sd(shares, '{:.3f}')} of the full-information "
                  f"table (95% interval on the mean {_interval(shares)})."]
        top = _top(args)
        for label, what in (("guarded_table", "The table"), ("guarded_bandit_table", "The bound of bandit feedback")):
            shares = [r[f"{label}_share_of_table"] for r in bounds if r.get(f"{label}_share_of_table") is not None]
            if shares:
                lines += ["", f"{what} with the rows scoring above maxThreshold ({top:g}) on System 2 reaches "
                          f"{metrics.mean_sd(shares, '{:.3f}')} of the table (95% interval on the mean "
                          f"{_interval(shares)})."]
    return "\n".join(lines)


def _interval(values: list[float]) -> str:
    """``m ± h`` with ``h`` the half-width of the 95% interval on the mean (Student's t)."""
    from scipy import stats

    n = len(values)
    if n < 2:
        return f"{values[0]:.3f} (one seed)"
    half = float(stats.t.ppf(0.975, n - 1) * np.std(values, ddof=1) / np.sqrt(n))
    return f"{np.mean(values):.3f} ± {half:.3f}"


TARGET_SHARE = 0.90
"""The share of the full-information table the team's pass is asked to reach."""


def _target_test(replays: list[dict]) -> list[str]:
    """0.90 judged on paired seeds: the team's score minus 0.90 × the table's, seed by seed (its
    95% interval below 0: missed; above: met), the ratio of the mean scores with a bootstrap
    interval over seeds, and the team against the bound, paired."""
    team = np.array([r["team"] for r in replays])
    table = np.array([r["table"] for r in replays])
    out = [f"Paired by seed, the team's score minus {TARGET_SHARE:.2f} × the table's: "
           f"{_interval(list(team - TARGET_SHARE * table))} (95%; below 0: the target is missed, above: met)."]
    if len(replays) > 1:
        rng = np.random.default_rng(0)
        pick = rng.integers(0, len(replays), (10_000, len(replays)))
        ratios = team[pick].mean(axis=1) / table[pick].mean(axis=1)
        lo, hi = np.percentile(ratios, [2.5, 97.5])
        out.append(f"The team's mean score over the table's: {team.mean() / table.mean():.3f} "
                   f"(95% bootstrap interval over seeds {lo:.3f}–{hi:.3f}).")
    paired = [r["team_share_of_table"] - r["bandit_table_share_of_table"] for r in replays
              if r.get("team_share_of_table") is not None and r.get("bandit_table_share_of_table") is not None]
    if paired:
        out.append(f"Paired by seed, the team's share minus the bound's: {_interval(paired)}.")
    return out


def render_replay(args: Args, replays: list[dict]) -> list[str]:
    """The replay's table: each pass as a share of the table with the 95% interval on the mean
    share, paired by seed, and where the team's pass loses against the table."""
    subjects = "14 held-out subjects" if args.replay_set == "mmlu-held-out" else f"{args.replay_set} subjects"
    every = args.replay_every or args.per_night
    bound = f", maxThreshold {args.replay_max_threshold:g}" if args.replay_max_threshold else ""
    lines = [f"| MMLU, {subjects}, seeds {_seeds(replays)}, a round every {every} rows{bound} | PGR − S2 share | "
             "share of the full-information table (mean ± sd) | 95% interval on the mean share |", "|---|---|---|---|"]
    top = _top(args)
    for label, what in (("team", f"{args.members} members pooling"), ("alone", "one member alone (a twelfth)"),
                        ("bandit_table", "bound of bandit feedback: first half uniform, then its table"),
                        ("guarded_table", f"the table with the rows scoring above maxThreshold ({top:g}) on System 2")):
        shares = [r[f"{label}_share_of_table"] for r in replays if r.get(f"{label}_share_of_table") is not None]
        if not shares:  # a run from before the guarded table was added
            continue
        lines.append(f"| {what} | {metrics.mean_sd([r[label] for r in replays], '{:.3f}')} | "
                     f"{metrics.mean_sd(shares, '{:.3f}')} | {_interval(shares)} |")
    lines.append(f"| the table (full information) | {metrics.mean_sd([r['table'] for r in replays], '{:.3f}')} | 1 | |")
    lines += ["", *_target_test(replays)]
    with_losses = [r for r in replays if r.get("losses") and r["table"] > 0]
    if with_losses:
        def share(key: str) -> str:
            return metrics.mean_sd([r["losses"][key] / r["table"] for r in with_losses], "{:.3f}")

        lines += ["", "| where the team's pass loses, as a share of the table | mean ± sd |", "|---|---|",
                  f"| explored rows (the exploration's cost) | {share('explored')} |",
                  f"| other rows of subjects the table sends to System 1 (System 2 calls it does not make) | "
                  f"{share('table_s1_subjects')} |",
                  f"| other rows of subjects the table sends to System 2 (System 1 calls it does not make) | "
                  f"{share('table_s2_subjects')} |",
                  f"| all (1 − the share) | {share('total')} |"]
        names = sorted({n for r in with_losses for n in r["losses"]["subjects"]})
        worst = sorted(names, key=lambda n: -np.mean([r["losses"]["subjects"].get(n, {}).get("lost", 0.0) / r["table"]
                                                      for r in with_losses]))[:5]
        lines += ["", "Subjects losing most (share of the table, mean over seeds): " + ", ".join(
            f"{n} {np.mean([r['losses']['subjects'].get(n, {}).get('lost', 0.0) / r['table'] for r in with_losses]):.3f}"
            for n in worst) + "."]
    return lines


if __name__ == "__main__":
    print(main(parse(Args))["table"])
