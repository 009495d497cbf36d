"""Benchmark the experience store: append latency as the log grows, appends per second
with 1 and 8 processes, bulk import of 100k records, and the anonymizer. Seeded; works
in a temporary data home that is removed afterwards.

Run it:  python scripts/bench_store.py [--seed 0] [--quick]

Appends go through ``ExperienceLog.append`` exactly as shipped (``durable=True``: one
``fdatasync`` per append). The cost of that flush is a property of the disk, not of the
log, so the table also shows the same appends without it (``durable=False``), which is
what a ``kill -9`` needs (the page cache survives a killed process).
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing as mp
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import orjson  # noqa: E402

from artibot.collector import collect_many  # noqa: E402
from artibot.experience import validate  # noqa: E402
from artibot.hookpath.privacy import anonymize, anonymize_many  # noqa: E402
from artibot.store.log.experiences import ExperienceLog  # noqa: E402
from artibot.store.home import Home  # noqa: E402

DOMAINS = ("frontend", "backend", "security", "data", "general")
WORDS = ("refactor the login form", "why does this test fail", "add an index to the users table",
         "explain the stack trace", "rename the variable", "write a migration", "fix the flaky CI job",
         "bump numpy to 1.26", "profile the slow endpoint", "review this pull request")
SIZES = (1_000, 10_000, 100_000)


def raw_record(rng: random.Random, i: int) -> dict:
    system = rng.choice(("system1", "system2"))
    return {
        "session_id": f"s{rng.randrange(50)}",
        "input": " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8))),
        "domain": rng.choice(DOMAINS),
        "complexity": round(rng.random(), 4),
        "routed_to": system,
        "outcome": rng.choices(("success", "escalated", "failed"), (0.8, 0.1, 0.1))[0],
        "latency_ms": round(rng.uniform(50, 3000), 1),
        "confidence": round(rng.random(), 4),
        "pattern": f"{rng.choice(DOMAINS)}:{rng.randrange(40)}",
        "threshold": 0.4,
        "propensity": 1.0,
    }


def stored_records(rng: random.Random, n: int) -> list[dict]:
    return [validate(raw_record(rng, i)) for i in range(n)]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ------------------------------------------------------------------ latency as the log grows
def latency_rows(root: Path, rng: random.Random, samples: int, durable: bool) -> list[tuple[int, float, float]]:
    """p50/p99 of single-record appends to logs of each size, taken round-robin: the cost of a
    disk flush drifts over time on a shared machine, and interleaving keeps that drift out of
    the comparison between sizes."""
    logs = {}
    for size in SIZES:
        home = Home(root / f"latency-{durable}-{size}")
        ExperienceLog(home, durable=False).append(stored_records(rng, size))
        logs[size] = ExperienceLog(home, durable=durable)
    os.sync()  # flush the prefill, so the timed appends do not pay for it
    times: dict[int, list[float]] = {size: [] for size in SIZES}
    for round_ in range(samples + 10):
        for size, log in logs.items():
            record = validate(raw_record(rng, round_))
            t0 = time.perf_counter()
            log.append([record])
            if round_ >= 10:  # the first rounds warm up
                times[size].append(time.perf_counter() - t0)
    return [(size, percentile(times[size], 0.5) * 1e3, percentile(times[size], 0.99) * 1e3) for size in SIZES]


# ------------------------------------------------------------------ throughput, 1 and 8 processes
def _appender(root: str, seed: int, count: int, start, durable: bool) -> None:
    rng = random.Random(seed)
    log = ExperienceLog(Home(Path(root)), durable=durable)
    pool = stored_records(rng, count)
    start.wait()
    for record in pool:
        log.append([record])


def appends_per_second(root: Path, seed: int, processes: int, per_process: int, durable: bool) -> float:
    ctx = mp.get_context("fork")
    target = root / f"rate-{processes}-{durable}"
    ExperienceLog(Home(target), durable=False).append(stored_records(random.Random(seed), 1000))
    os.sync()
    start = ctx.Barrier(processes + 1)
    procs = [ctx.Process(target=_appender, args=(str(target), seed + i, per_process, start, durable))
             for i in range(processes)]
    for p in procs:
        p.start()
    start.wait()
    t0 = time.perf_counter()
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - t0
    if any(p.exitcode != 0 for p in procs):
        raise SystemExit("an appender process failed")
    total = ExperienceLog(Home(target)).count() - 1000
    assert total == processes * per_process, (total, processes * per_process)
    return total / elapsed


# ------------------------------------------------------------------ bulk import
def bulk_python(root: Path, rng: random.Random, n: int) -> tuple[float, dict[str, float]]:
    """Seconds for ``collect_many`` on ``n`` records, and the same work timed step by step."""
    records = [raw_record(rng, i) for i in range(n)]
    home = Home(root / "bulk-python")
    t0 = time.perf_counter()
    collect_many(records, home=home)
    elapsed = time.perf_counter() - t0
    assert ExperienceLog(home).count() == n
    steps = {}
    t0 = time.perf_counter()
    valid = [validate(r) for r in records]
    steps["validate"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for r, text in zip(valid, anonymize_many([r["input"] for r in valid])):
        r["input"] = text
    steps["anonymize (inputs, together)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    ExperienceLog(Home(root / "bulk-steps")).append(valid)
    steps["encode + append + id index"] = time.perf_counter() - t0
    return elapsed, steps


def bulk_cli(root: Path, rng: random.Random, n: int) -> tuple[float, float] | None:
    """``artibot collect --stdin`` on ``n`` JSON lines: (wall seconds, CPU seconds of the process,
    which a busy machine does not inflate), or None when the command is not there."""
    command = [sys.executable, "-m", "artibot", "collect"]
    probe = subprocess.run([*command, "--help"], capture_output=True, text=True)
    if probe.returncode != 0 or "--stdin" not in probe.stdout:
        return None
    home = root / "bulk-cli"
    payload = b"\n".join(orjson.dumps(raw_record(rng, i)) for i in range(n)) + b"\n"
    env = {**os.environ, "ARTIBOT_HOME": str(home)}
    env.pop("ARTIBOT_CONFIG", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([*command, "--stdin"], input=payload, capture_output=True, env=env, cwd=root)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"artibot collect --stdin failed: {done.stderr.decode()[-500:]}")
    assert ExperienceLog(Home(home)).count() == n
    return elapsed, cpu


# ------------------------------------------------------------------ anonymizer
def anonymizer_us_per_kb(seed: int) -> tuple[float, str]:
    path = REPO / "scripts" / "bench_privacy.py"
    if path.exists():
        spec = importlib.util.spec_from_file_location("bench_privacy", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        rows = [r for r in module.measure(seed=seed) if r["size_bytes"] <= 2048]
        worst = max(rows, key=lambda r: r["us_per_kb"])
        return worst["us_per_kb"], f"worst 2 KB kind: {worst['kind']} (scripts/bench_privacy.py)"
    rng = random.Random(seed)
    text = ""
    while len(text) < 2048:
        text += rng.choice(WORDS) + ". def f(x): return x * 2\n"
    text = text[:2048]
    runs = 200
    t0 = time.perf_counter()
    for _ in range(runs):
        anonymize(text)
    return (time.perf_counter() - t0) / runs * 1e6 / 2, "2 KB prose/code mix"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=300, help="timed appends per log size")
    parser.add_argument("--per-process", type=int, default=150, help="appends per process in the rate test")
    parser.add_argument("--bulk", type=int, default=100_000, help="records in the bulk import")
    parser.add_argument("--quick", action="store_true", help="a smoke run: small counts")
    parser.add_argument("--bulk-only", action="store_true", help="only the bulk import rows")
    args = parser.parse_args(argv)
    if args.quick:
        args.samples, args.per_process, args.bulk = 30, 10, 2_000
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="artibot-bench-"))
    try:
        print(f"artibot store benchmark  seed={args.seed}  python {sys.version.split()[0]}  "
              f"{os.cpu_count()} CPU(s)  temp home {root}")
        if not args.bulk_only:
            appends(root, rng, args)
        bulk(root, rng, args)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


def appends(root: Path, rng: random.Random, args: argparse.Namespace) -> None:
    fsync = fsync_ms(root)
    print(f"\none fdatasync of a 200-byte write on this disk: {fsync:.2f} ms (p50)\n")
    print(f"{'append latency (1 record)':<34} {'records':>8} {'p50 ms':>8} {'p99 ms':>8} {'p50 / 1k':>9}")
    for durable in (True, False):
        label = "durable (as shipped)" if durable else "without fdatasync"
        rows = latency_rows(root, rng, args.samples, durable)
        base = rows[0][1]
        for size, p50, p99 in rows:
            print(f"{label:<34} {size:>8} {p50:>8.3f} {p99:>8.3f} {p50 / base:>8.2f}x")
    print(f"\n{'appends per second':<34} {'procs':>8} {'rate/s':>8}")
    for durable in (True, False):
        label = "durable (as shipped)" if durable else "without fdatasync"
        for procs in (1, 8):
            per = args.per_process if durable else args.per_process * 10
            rate = appends_per_second(root, args.seed, procs, per, durable)
            print(f"{label:<34} {procs:>8} {rate:>8.0f}")


def bulk(root: Path, rng: random.Random, args: argparse.Namespace) -> None:
    print(f"\n{'bulk import':<34} {'records':>8} {'seconds':>8} {'rec/s':>9}")
    seconds, steps = bulk_python(root, rng, args.bulk)
    print(f"{'collect_many (Python API)':<34} {args.bulk:>8} {seconds:>8.2f} {args.bulk / seconds:>9.0f}")
    for step, spent in steps.items():
        print(f"{'  of which ' + step:<34} {'':>8} {spent:>8.2f} {args.bulk / spent:>9.0f}")
    timed = bulk_cli(root, rng, args.bulk)
    if timed is None:
        print(f"{'artibot collect --stdin':<34} {'(command not available)':>27}")
    else:
        seconds_cli, cpu = timed
        print(f"{'artibot collect --stdin':<34} {args.bulk:>8} {seconds_cli:>8.2f} "
              f"{args.bulk / seconds_cli:>9.0f}")
        print(f"{'  its CPU time (user + system)':<34} {'':>8} {cpu:>8.2f}")
    us, what = anonymizer_us_per_kb(args.seed)
    print(f"\nanonymizer: {us:.1f} us per KB ({what})")
    print("\ntargets: append p50 <= 1 ms and <= 1.5x from 1k to 100k records; 100k records in bulk <= 5 s")


def fsync_ms(root: Path) -> float:
    path = root / "fsync-probe"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    times = []
    try:
        for i in range(50):
            os.pwrite(fd, b"x" * 200, i * 200)
            t0 = time.perf_counter()
            os.fdatasync(fd)
            times.append(time.perf_counter() - t0)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times) * 1e3


if __name__ == "__main__":
    raise SystemExit(main())
