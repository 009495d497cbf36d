"""Benchmark: one learning cycle over 10k, 100k and 1M experiences.

For each size a fresh child process builds a data home with N experiences (written
directly in the log's layout, so that set-up time is not measured), then measures:

* ``parse``: ``orjson.loads`` of ``daily-experiences.json`` (the floor: any cycle must read it);
* ``cycle``: ``artibot.learn(answers="defaults")`` — read, batch, compare, update,
  transfer, snapshot, archive the processed records and rewrite the log;
* ``peak RSS`` of the child (``ru_maxrss``) after the cycle.

Prints a table with the ratio cycle / parse (target ≤ 2×) and the growth per 10× of
data (target: linear, i.e. ~10×). Reproducible: ``--seed``.

    python scripts/bench_learn.py [--sizes 10000 100000 1000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, os, random, resource, sys, time
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
path = os.path.join(home, "daily-experiences.json")
with open(path, "wb") as fh:
    fh.write(b"".join(parts))
del parts
os.environ["ARTIBOT_HOME"] = home
import artibot
from artibot.cycle import learn
size = os.path.getsize(path)
t0 = time.perf_counter()
with open(path, "rb") as fh:
    data = orjson.loads(fh.read())
parse = time.perf_counter() - t0
del data
t0 = time.perf_counter()
report = learn(home=home, answers="defaults")
cycle = time.perf_counter() - t0
assert report.status == "applied", report.message
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"n": n, "bytes": size, "parse": parse, "cycle": cycle, "rss_mb": rss,
                  "processed": report.processed}))
"""


def run(n: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-c", CHILD, str(n), str(seed), os.path.join(tmp, "home")],
                             check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = [run(n, args.seed) for n in args.sizes]
    print(f"{'experiences':>12} {'file MB':>8} {'parse s':>8} {'cycle s':>8} {'cycle/parse':>11} "
          f"{'growth':>7} {'peak RSS MB':>11}")
    prev = None
    for r in rows:
        growth = f"{r['cycle'] / prev['cycle']:.1f}x" if prev else "—"
        print(f"{r['n']:>12,} {r['bytes'] / 1e6:>8.1f} {r['parse']:>8.3f} {r['cycle']:>8.3f} "
              f"{r['cycle'] / r['parse']:>10.2f}x {growth:>7} {r['rss_mb']:>11.0f}")
        prev = r
    print("\ncycle = read + batch + compare + update + transfer + snapshot + archive + rewrite of the log;"
          " parse = orjson.loads of the same file. Target: cycle/parse <= 2x, linear growth.")


if __name__ == "__main__":
    main()
