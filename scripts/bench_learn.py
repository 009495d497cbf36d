"""Benchmark: one learning cycle over 10k, 100k and 1M experiences.

For each size a child process writes a data home with N experiences (directly in the
log's layout, so that set-up time is not measured). Then, ``--repeat`` times, on a fresh
copy of that home and each in a fresh process:

* ``parse``: ``orjson.loads`` of ``daily-experiences.json`` (the floor: any cycle must read it);
* ``cycle``: ``artibot.learn(answers="defaults")`` — read, batch, compare, update,
  transfer, snapshot, archive the processed records and rewrite the log.

Times are the best of the repeats (the machine may be busy with other work); peak RSS
(``ru_maxrss``) is that of the process that did only this, so the set-up does not count.
Prints a table with the ratio cycle / parse (target ≤ 2×) and the growth per 10× of data
(target: linear, i.e. ~10×). Reproducible: ``--seed``.

    python scripts/bench_learn.py [--sizes 10000 100000 1000000] [--seed 0] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WRITE = r"""
import os, random, sys
from datetime import datetime, timedelta, timezone
import orjson
n, seed, home = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
base = datetime(2026, 1, 1, tzinfo=timezone.utc)
domains = ["frontend", "backend", "security", "data", "docs", "general"]
patterns = [None] * 4 + [f"{d}:task{i}" for d in domains for i in range(50)]
parts = [b"[\n"]
for i in range(n):
    c = rng.random()
    s2 = rng.random() < 0.5
    p = 0.95 if s2 else (0.9 if c < 0.5 else 0.5)
    rec = {"id": f"e{i:08d}", "timestamp": (base + timedelta(seconds=i)).isoformat(), "session_id": "bench",
           "input": "refactor the api handler and update the tests " + str(i), "domain": rng.choice(domains),
           "complexity": round(c, 4), "routed_to": "system2" if s2 else "system1",
           "outcome": "success" if rng.random() < p else "failed", "latency_ms": 120.0,
           "confidence": round(0.5 + rng.random() / 2, 3), "pattern": rng.choice(patterns),
           "threshold": 0.4, "propensity": 1.0}
    if i:
        parts.append(b",")
    parts.append(orjson.dumps(rec))
    parts.append(b"\n")
parts.append(b"]\n")
os.makedirs(home, mode=0o700, exist_ok=True)
with open(os.path.join(home, "daily-experiences.json"), "wb") as fh:
    fh.write(b"".join(parts))
"""

PARSE = r"""
import json, os, resource, sys, time
import orjson
path = os.path.join(sys.argv[1], "daily-experiences.json")
t0 = time.perf_counter()
with open(path, "rb") as fh:
    data = orjson.loads(fh.read())
parse = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"parse": parse, "rss_mb": rss, "bytes": os.path.getsize(path)}))
"""

CYCLE = r"""
import json, os, resource, sys, time
home = sys.argv[1]
os.environ["ARTIBOT_HOME"] = home
from artibot.round.cycle import learn, load_round_modules
load_round_modules("evidence")  # numpy, scipy and the learner load on first use now: imports are not the round
t0 = time.perf_counter()
report = learn(home=home, answers="defaults")
cycle = time.perf_counter() - t0
assert report.status == "applied", report.message
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cycle": cycle, "rss_mb": rss, "processed": report.processed}))
"""


def child(code: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(n: int, seed: int, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        original = Path(tmp) / "original"
        subprocess.run([sys.executable, "-c", WRITE, str(n), str(seed), str(original)], check=True)
        parses, cycles = [], []
        for _ in range(repeat):
            home = Path(tmp) / "home"
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(original, home)
            parses.append(child(PARSE, str(home)))
            cycles.append(child(CYCLE, str(home)))
    return {"n": n, "bytes": parses[0]["bytes"], "parse": min(p["parse"] for p in parses),
            "cycle": min(c["cycle"] for c in cycles), "rss_mb": max(c["rss_mb"] for c in cycles),
            "parse_rss_mb": max(p["rss_mb"] for p in parses), "processed": cycles[0]["processed"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="runs per size; the best time of each is kept")
    args = ap.parse_args()
    rows = [run(n, args.seed, args.repeat) for n in args.sizes]
    print(f"{'experiences':>12} {'file MB':>8} {'parse s':>8} {'cycle s':>8} {'cycle/parse':>11} "
          f"{'growth':>7} {'peak RSS MB':>11} {'parse RSS MB':>12}")
    prev = None
    for r in rows:
        growth = f"{r['cycle'] / prev['cycle']:.1f}x" if prev else "—"
        print(f"{r['n']:>12,} {r['bytes'] / 1e6:>8.1f} {r['parse']:>8.3f} {r['cycle']:>8.3f} "
              f"{r['cycle'] / r['parse']:>10.2f}x {growth:>7} {r['rss_mb']:>11.0f} {r['parse_rss_mb']:>12.0f}")
        prev = r
    print(f"\ncycle = read + batch + compare + update + transfer + snapshot + archive + rewrite of the log;"
          f" parse = orjson.loads of the same file. Best of {args.repeat} runs, each in a fresh process;"
          " peak RSS of that process. Target: cycle/parse <= 2x, linear growth.")


if __name__ == "__main__":
    main()
