"""Wall time of each Claude Code hook as a whole process, against bare ``python -c pass``.

Every hook runs as Claude Code runs it: ``python -m artibot hook EVENT`` with a payload
fixture on stdin (``tests/integrations/fixtures/``), in a temporary data home. A turn is
replayed in order (prompt, tools, stop) so each hook finds the state it would in a real
session. ``session-end`` is measured twice: without a full batch (no learner started)
and with one (a detached learner is spawned; the hook must still return at once).

Targets: prompt and tool hooks <= 60 ms above bare Python; session-end <= 100 ms.

    python scripts/bench_hooks.py --runs 30 --seed 0
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "integrations" / "fixtures"

PROMPTS = (
    "fix the typo in the README title",
    "rename the variable in utils to snake_case",
    "migrate the user service from REST to gRPC, update the React client and the Postgres schema, "
    "then add integration tests",
    "why does the login endpoint return 500 when the token expired?",
    "add a dark mode toggle to the settings page",
)


@dataclass
class Args:
    runs: int = 30
    """Measured runs per hook."""
    seed: int = 0
    """Seeds the choice of prompts and tools."""
    warmup: int = 3
    """Unmeasured runs first (page cache, .pyc files)."""
    bytecode: bool = True
    """Let Python cache bytecode (in a temporary prefix), as an installed package does;
    ``--no-bytecode`` compiles every module on every run (PYTHONDONTWRITEBYTECODE)."""


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=Args.runs)
    parser.add_argument("--seed", type=int, default=Args.seed)
    parser.add_argument("--warmup", type=int, default=Args.warmup)
    parser.add_argument("--no-bytecode", dest="bytecode", action="store_false")
    ns = parser.parse_args()
    return Args(runs=ns.runs, seed=ns.seed, warmup=ns.warmup, bytecode=ns.bytecode)


def fixture(name: str, **changes: object) -> bytes:
    doc = json.loads((FIXTURES / f"{name}.json").read_text())
    doc.update(changes)
    return json.dumps(doc).encode()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one whole process. CPU time is less disturbed by a busy machine."""
    cpu0, start = _children_cpu(), time.perf_counter()
    subprocess.run(cmd, input=stdin, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000, (_children_cpu() - cpu0) * 1000


def hook(event: str) -> list[str]:
    return [sys.executable, "-m", "artibot", "hook", event]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def bench(args: Args) -> dict[str, list[tuple[float, float]]]:
    rng = random.Random(args.seed)
    times: dict[str, list[tuple[float, float]]] = {}
    # a detached nightly learner (evidence mode, a few seconds) may still be writing at the end
    with tempfile.TemporaryDirectory(prefix="artibot-bench-", ignore_cleanup_errors=True) as tmp:
        home = Path(tmp) / "home"
        env = dict(os.environ, ARTIBOT_HOME=str(home))
        env.pop("ARTIBOT_CONFIG", None)
        if args.bytecode:
            # As installed: pip compiles .pyc files. Keep them out of the checkout.
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"

        def record(name: str, ms: tuple[float, float], measured: bool) -> None:
            if measured:
                times.setdefault(name, []).append(ms)

        for i in range(args.warmup + args.runs):
            measured = i >= args.warmup
            record("python -c pass", timed([sys.executable, "-c", "pass"], b"", env), measured)
            sid = f"bench-{i}"
            record("session-start", timed(hook("session-start"), fixture("session_start", session_id=sid), env),
                   measured)
            prompt = rng.choice(PROMPTS)
            record("user-prompt-submit", timed(hook("user-prompt-submit"),
                                               fixture("user_prompt_submit", session_id=sid, prompt=prompt), env),
                   measured)
            record("post-tool-use", timed(hook("post-tool-use"), fixture(
                "post_tool_use", session_id=sid, tool_name=rng.choice(["Edit", "Read", "Bash", "Grep"])), env),
                measured)
            record("post-tool-use-failure", timed(hook("post-tool-use-failure"),
                                                  fixture("post_tool_use_failure", session_id=sid), env), measured)
            record("stop", timed(hook("stop"), fixture("stop", session_id=sid), env), measured)
            record("session-end (no batch)", timed(hook("session-end"), fixture("session_end", session_id=sid), env),
                   measured)

        # A home with a full batch: every session-end spawns (or finds a running) learner.
        spawn_home = Path(tmp) / "spawn-home"
        spawn_home.mkdir(mode=0o700)
        (spawn_home / "artibot.config.json").write_text(
            json.dumps({"learning": {"lifelong": {"batchSize": 2, "grpoGroupSize": 2}}}))
        spawn_env = dict(env, ARTIBOT_HOME=str(spawn_home))
        for i in range(args.warmup + args.runs):
            sid = f"spawn-{i}"
            for _ in range(2):
                timed(hook("user-prompt-submit"), fixture("user_prompt_submit", session_id=sid), spawn_env)
                timed(hook("stop"), fixture("stop", session_id=sid), spawn_env)
            record("session-end (spawns learner)",
                   timed(hook("session-end"), fixture("session_end", session_id=sid), spawn_env), i >= args.warmup)
        time.sleep(2)  # let the last detached learner finish before its home is removed
    return times


def main() -> None:
    args = parse_args()
    times = bench(args)
    bare_wall = statistics.median(w for w, _ in times["python -c pass"])
    bare_cpu = statistics.median(c for _, c in times["python -c pass"])
    print(f"runs={args.runs} seed={args.seed} bytecode={args.bytecode} python={sys.version.split()[0]} "
          f"load={os.getloadavg()[0]:.2f} cpus={os.cpu_count()}")
    print(f"{'hook':<30} {'p50 ms':>7} {'p95 ms':>7} {'p50-bare':>9} {'p50/bare':>9} {'cpu p50':>8} {'cpu-bare':>9}")
    for name, values in times.items():
        wall = [w for w, _ in values]
        cpu = statistics.median(c for _, c in values)
        p50, p95 = statistics.median(wall), percentile(wall, 0.95)
        print(f"{name:<30} {p50:7.1f} {p95:7.1f} {p50 - bare_wall:+9.1f} {p50 / bare_wall:8.2f}x "
              f"{cpu:8.1f} {cpu - bare_cpu:+9.1f}")


if __name__ == "__main__":
    main()
