"""Reproduce every study of ``experiments/README.md`` and collect the results.

    python scripts/run_experiments.py            # the full suite -> experiments/results/
    python scripts/run_experiments.py --quick    # a tiny budget -> experiments/runs/quick/

Each study writes results.json, table.md and its PNG plots into ``<collect>/<name>/``
(``experiments/results/`` for the full suite, ``experiments/runs/quick/`` for --quick),
and ``<collect>/summary.md`` gets every table and the run times.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from experiments import (run_offpolicy, run_online, run_replay, run_staleness, run_transfer,  # noqa: E402
                         run_validation, run_w1, run_w2)
from experiments.args import RESULTS, RUNS  # noqa: E402
from experiments.replay import MissingData  # noqa: E402


def studies(quick: bool, workers: int) -> list[tuple[str, object, object]]:
    """``(name, module, Args)`` of every study; ``quick`` shrinks budgets to seconds."""
    if quick:
        return [
            ("w1", run_w1, run_w1.Args(name="w1", seeds=(1,), requests=1500, window=500, workers=1, plots=False)),
            ("w2", run_w2, run_w2.Args(name="w2", seeds=(1,), requests=1500, window=300, workers=1, plots=False)),
            ("replay", run_replay, run_replay.Args(name="replay", seeds=(1,), files=("mt-bench.csv",), workers=1,
                                                    plots=False)),
            ("transfer", run_transfer, run_transfer.Args(name="transfer", seeds=(1,), patterns=2, uses=10,
                                                         workers=1)),
            ("online", run_online, run_online.Args(name="online", datasets=("mt-bench",), seeds=(0,),
                                                   policies=("defaults", "thompson"), workers=1, plots=False)),
            *checks_studies(quick, workers),
        ]
    return [
        ("w1", run_w1, run_w1.Args(workers=workers)),
        ("w2", run_w2, run_w2.Args(workers=workers)),
        ("replay", run_replay, run_replay.Args(workers=workers)),
        ("replay-3pass", run_replay, run_replay.Args(name="replay-3pass", files=("mmlu-dev.csv",), passes=3,
                                                      workers=workers)),
        ("transfer", run_transfer, run_transfer.Args(workers=workers)),
        ("transfer-5", run_transfer, run_transfer.Args(name="transfer-5", uses_per_night=5, workers=workers)),
        ("online", run_online, run_online.Args(workers=workers)),
        *checks_studies(quick, workers),
    ]


def checks_studies(quick: bool, workers: int) -> list[tuple[str, object, object]]:
    """Checked before and after: off-policy error, validation alarms, cache staleness."""
    if quick:
        return [
            ("offpolicy", run_offpolicy, run_offpolicy.Args(trials=2, requests=2000, workers=1)),
            ("validation", run_validation, run_validation.Args(trials=20, before=(1000,), after=(250,))),
            ("staleness", run_staleness, run_staleness.Args(trials=10, horizon=60)),
        ]
    return [
        ("offpolicy", run_offpolicy, run_offpolicy.Args(workers=workers)),
        ("offpolicy-2k", run_offpolicy, run_offpolicy.Args(name="offpolicy-2k", requests=2000, workers=workers)),
        ("offpolicy-5k", run_offpolicy, run_offpolicy.Args(name="offpolicy-5k", requests=5000, workers=workers)),
        ("offpolicy-walk", run_offpolicy, run_offpolicy.Args(name="offpolicy-walk", walk=0.02, workers=workers)),
        ("validation", run_validation, run_validation.Args()),
        ("staleness", run_staleness, run_staleness.Args()),
    ]


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny budgets (the smoke test's)")
    parser.add_argument("--workers", type=int, default=2, help="processes per study")
    parser.add_argument("--out", default="", help="where to collect the results (default: see above)")
    parser.add_argument("--only", nargs="*", default=None, help="run only these studies")
    parser.add_argument("--summary-only", action="store_true",
                        help="run nothing: rebuild summary.md from the studies' folders")
    ns = parser.parse_args(argv)
    known = [name for name, _, _ in studies(ns.quick, 1)]
    unknown = [name for name in ns.only or () if name not in known]
    if unknown:
        parser.error(f"unknown stud{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}; "
                     f"the studies are: {', '.join(known)}")
    collect = Path(ns.out) if ns.out else (RUNS / "quick" if ns.quick else RESULTS)
    collect.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    sections = []
    for name, module, args in studies(ns.quick, ns.workers):
        if ns.summary_only or (ns.only and name not in ns.only):
            continue
        folder = collect / name
        args = replace(args, out=str(folder))
        began = time.perf_counter()
        print(f"{name}: running", file=sys.stderr, flush=True)
        try:
            result = module.main(args)
        except MissingData as exc:
            print(f"{name}: skipped: {exc}", file=sys.stderr, flush=True)
            continue
        timings[name] = time.perf_counter() - began
        tables = result.get("tables") or {"": result["table"]}
        body = "\n\n".join((f"#### {k}\n\n" if k else "") + t for k, t in tables.items())
        extra = {k: v for k, v in result.items() if k.startswith("evidence_vs_seed") or k == "prices"}
        sections.append(f"### {name} ({timings[name]:.0f} s)\n\n{body}\n\n"
                        + ("".join(f"- {k}: {json.dumps(v)}\n" for k, v in extra.items())))
        print(f"{name}: {timings[name]:.1f} s", flush=True)
    total = sum(timings.values())
    path = collect / "summary.md"
    order = [s[0] for s in studies(ns.quick, 1)]
    # a partial run replaces its studies' sections and keeps the others; a study run on its
    # own (python experiments/run_*.py --out ...) still gets a section from its table.md
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    sections = merge_sections(old, sections, order)
    have = {section.split(" ", 2)[1].strip() for section in sections}
    for name in order:
        table_md = collect / name / "table.md"
        if name not in have and table_md.is_file():
            sections.append(f"### {name} (time not recorded: run on its own)\n\n"
                            + re.sub(r"^### ", "#### ", table_md.read_text(encoding="utf-8").strip(), flags=re.M)
                            + "\n")
    sections.sort(key=lambda section: order.index(section.split(" ", 2)[1].strip()))
    total = sum(float(m) for m in re.findall(r"^### \S+ \((\d+) s\)$", "\n".join(sections), re.M))
    summary = f"# Results ({'quick' if ns.quick else 'full'} suite, {total:.0f} s)\n\n" + "\n".join(sections)
    path.write_text(summary, encoding="utf-8")
    print(f"total: {total:.1f} s -> {collect}")
    return timings


def merge_sections(old: str, new: list[str], order: list[str]) -> list[str]:
    """The sections of summary.md ``old`` with those of ``new`` put in their place, in study order.

    >>> merge_sections("# R\\n\\n### a (1 s)\\n\\nA\\n\\n### b (2 s)\\n\\nB\\n", ["### b (3 s)\\n\\nB2\\n"], ["a", "b"])
    ['### a (1 s)\\n\\nA\\n', '### b (3 s)\\n\\nB2\\n']
    """
    def name(section: str) -> str:
        return section.split(" ", 2)[1].strip()

    kept = {name(x): x for x in ("### " + part for part in re.split(r"^### ", old, flags=re.M)[1:])}
    kept.update({name(x): x for x in new})
    return [kept[n].rstrip("\n") + "\n" for n in order if n in kept]


if __name__ == "__main__":
    main()
