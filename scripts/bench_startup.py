"""Start-up time of the commands a person types most, against the bare interpreter.

Each command runs as a new process (as from a shell) in a fresh data home with a few
hundred experiences; the table gives the median and the best of ``--runs`` runs, and how
many times the bare ``python -c pass`` that is. TAB completion is what the shell runs on
each TAB (``_ARTIBOT_COMPLETE=complete_bash``, ``complete_zsh``, ``complete_fish``). Seeded
data; timings are of this machine.

``learn``, ``review`` and ``drift`` run where they have nothing to do (the round applied, fewer
experiences than a batch left, no round waiting, no domain with a history before the last
week): they must not cost more than twice ``status`` (the last column), since the nightly
learner and a person checking in run them so.
The modules' bytecode is cached first, as an installed package has it
(``PYTHONDONTWRITEBYTECODE`` is dropped from the commands' environment).

    python scripts/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KO_CONFIG = "{ko_config}"
"""Stands for a config file saying ``{"lang": "ko"}`` (written beside the data home)."""

CASES: list[tuple[str, list[str], dict[str, str]]] = [
    ("python -c pass", ["-c", "pass"], {}),
    ("artibot --help", ["-m", "artibot", "--help"], {}),
    ("artibot rollback --help", ["-m", "artibot", "rollback", "--help"], {}),
    ("artibot --help, lang ko", ["-m", "artibot", "--help"], {"ARTIBOT_CONFIG": KO_CONFIG}),
    ("artibot rollback --help, lang ko", ["-m", "artibot", "rollback", "--help"], {"ARTIBOT_CONFIG": KO_CONFIG}),
    ("artibot status", ["-m", "artibot", "status"], {}),
    ("artibot status --json", ["-m", "artibot", "status", "--json"], {}),
    ("artibot history", ["-m", "artibot", "history"], {}),
    ("artibot learn, nothing to learn", ["-m", "artibot", "learn"], {}),
    ("artibot review, nothing waiting", ["-m", "artibot", "review"], {}),
    ("artibot drift, nothing to test", ["-m", "artibot", "drift"], {}),
    ("TAB: artibot st<TAB>", ["-m", "artibot"],
     {"_ARTIBOT_COMPLETE": "complete_bash", "COMP_WORDS": "artibot st", "COMP_CWORD": "1"}),
    ("TAB: artibot rollback <TAB>", ["-m", "artibot"],
     {"_ARTIBOT_COMPLETE": "complete_bash", "COMP_WORDS": "artibot rollback ", "COMP_CWORD": "2"}),
    ("TAB: artibot install <TAB>", ["-m", "artibot"],
     {"_ARTIBOT_COMPLETE": "complete_bash", "COMP_WORDS": "artibot install ", "COMP_CWORD": "2"}),
    ("TAB: artibot review --answer <TAB>", ["-m", "artibot"],
     {"_ARTIBOT_COMPLETE": "complete_bash", "COMP_WORDS": "artibot review --answer ", "COMP_CWORD": "3"}),
    ("zsh TAB: artibot st<TAB>", ["-m", "artibot"],
     {"_ARTIBOT_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "artibot st"}),
    ("zsh TAB: artibot rollback <TAB>", ["-m", "artibot"],
     {"_ARTIBOT_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "artibot rollback "}),
    ("fish TAB: artibot rollback <TAB>", ["-m", "artibot"],
     {"_ARTIBOT_COMPLETE": "complete_fish", "_TYPER_COMPLETE_ARGS": "artibot rollback ",
      "_TYPER_COMPLETE_FISH_ACTION": "get-args"}),
]


def _home(root: Path) -> Path:
    """A data home with 320 seeded experiences: one applied round of 300, 20 waiting."""
    home = root / "home"
    env = {**os.environ, "ARTIBOT_HOME": str(home)}
    code = ("import random; from artibot import learn; from artibot.collector import collect_many\n"
            "rng = random.Random(0)\n"
            "recs = [{'input': f'request {i}', 'domain': rng.choice(['backend', 'docs']), "
            "'complexity': round(rng.random(), 3), 'routed_to': rng.choice(['system1', 'system2']), "
            "'outcome': rng.choice(['success', 'success', 'failed']), 'latency_ms': 100.0, 'confidence': 0.8} "
            "for i in range(320)]\n"
            "collect_many(recs); learn(answers='defaults')\n")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    return home


def measure(cases: list[tuple[list[str], dict[str, str]]], runs: int) -> list[list[float]]:
    """Milliseconds of each case's ``runs`` runs, the cases taken in turn (one run of each, then
    the next round): a machine whose load drifts weighs on every command alike, so the ratios
    hold where the absolute figures move."""
    times: list[list[float]] = [[] for _ in cases]
    for _ in range(runs):
        for (argv, env), out in zip(cases, times):
            start = time.perf_counter()
            subprocess.run([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            out.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="Runs per command.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = _home(Path(tmp))
        ko_config = Path(tmp) / "ko.config.json"
        ko_config.write_text('{"lang": "ko"}')
        base_env = {**os.environ, "ARTIBOT_HOME": str(home)}
        base_env.pop("PYTHONDONTWRITEBYTECODE", None)
        cases = [(argv, {**base_env, **{k: v.format(ko_config=ko_config) for k, v in extra.items()}})
                 for _name, argv, extra in CASES]
        for argv, env in cases:  # the bytecode cached, as an installed package has it
            subprocess.run([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = [(name, statistics.median(times), min(times))
                for (name, _argv, _extra), times in zip(CASES, measure(cases, args.runs))]
    bare = rows[0][1]
    status = next(median for name, median, _ in rows if name == "artibot status")
    print(f"| command ({args.runs} runs) | median ms | best ms | × python -c pass | × artibot status |")
    print("|---|---|---|---|---|")
    for name, median, best in rows:
        print(f"| {name} | {median:.0f} | {best:.0f} | {median / bare:.1f} | {median / status:.2f} |")


if __name__ == "__main__":
    main()
