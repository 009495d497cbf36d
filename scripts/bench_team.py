"""The team pool at scale: push rate, round time and the round's peak memory, on a real PostgreSQL.

Starts its own server (initdb + pg_ctl in a temporary folder, as the tests do; or
``--url`` for an existing empty database) and, per pool size:

1. **push**: ``--push`` records from one member's data home through the real push path
   (:func:`artibot.team.push.push`: the queue streamed, the keyed hash, batches of 5,000,
   the database's triggers: the alphabet and one row per record id), then the same again
   as a whole queue in memory (the push before it streamed) and streamed (all duplicates),
   each in a fresh process with its peak resident memory (``VmHWM``);
   and ``collect --stdin`` of ``--collect`` JSON lines, streamed from a file and from a
   pipe, and whole (as it ran before), each into a fresh home;
2. **fill**: the pool grown to the size by one server-side ``INSERT … SELECT`` of seeded
   synthetic rows (12 members, 12 domains, 5% explored with their propensities, 0.1% of
   rows malformed; their ids spread over the last 12 months, so over 12 monthly partitions), the way a bulk import would, since pushing 10^7 rows from one laptop
   measures the laptop;
3. **round**: ``artibot team learn --yes --flush`` over the whole pool in a fresh process,
   timed, with that process's peak resident memory (``VmHWM``).

    python scripts/bench_team.py --sizes 100000 1000000 10000000

Seeded (``--seed``); prints a table. The numbers are this machine's (2 shared cores).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from tests.team.pgserver import Server, find_bin  # noqa: E402

FILL = """
INSERT INTO artibot_team.experiences (record_id, member, member_ts, domain, complexity, routed_to, outcome,
                                      propensity, latency_ms, cost_usd, pattern_hash, month)
SELECT id, 'member' || (g %% 12), now()::text,
       CASE WHEN g %% 1000 = 7 THEN '~bad' ELSE 'domain' || (g %% 12) END,
       c, route, CASE WHEN random() < CASE WHEN route = 'system2' THEN 0.9 ELSE 1.05 - c END
                      THEN 'success' ELSE 'failed' END,
       CASE WHEN explored THEN 0.05 ELSE 0.95 END, 1000 + 5000 * c, CASE WHEN route = 'system2' THEN 0.05 ELSE 0.01 END,
       md5((g %% 5000)::text), artibot_team.id_month(id)
FROM (SELECT g, c, explored, 'exp_' || lpad(to_hex(%(t0)s::bigint + g * %(ms_per_row)s::bigint), 12, '0')
                                    || lpad(to_hex(g), 16, '0') AS id,
             CASE WHEN (c >= 0.5) <> explored THEN 'system2' ELSE 'system1' END AS route
      FROM (SELECT g, random() AS c, random() < 0.05 AS explored
            FROM generate_series(%(lo)s::bigint + 1, %(hi)s::bigint) AS g) s) t
"""

# VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the parent (this script, which
# held the pushed records), while VmHWM is the round process's own peak.
ROUND = """
import sys, time, tracemalloc
from artibot.cli.app import run
import artibot.team.round, artibot.learning.team_pool, scipy.stats  # imported before the heap is traced
tracemalloc.start() if sys.argv[2] == "1" else None
t = time.perf_counter()
code = run(["team", "learn", "--yes", "--flush", "--json", "--url", sys.argv[1]])
secs = time.perf_counter() - t
hwm = next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:"))
heap = tracemalloc.get_traced_memory()[1] if tracemalloc.is_tracing() else 0
print("ROUND", code, secs, hwm, heap)
"""


PEAK = """
import sys, time, os
sys.argv = sys.argv[1:]
t = time.perf_counter()
exec(compile(sys.argv[0], "<bench>", "exec"))
secs = time.perf_counter() - t
hwm = next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:"))
print("PEAK", secs, hwm, file=sys.stderr)
"""
# each measured in a fresh process (its own VmHWM): the way it runs now, and the way it ran before
# (the whole input or queue in memory), in one run so that the ratio is this machine's
PUSH_STREAM = "from artibot.team import push; r = push.push(); assert r.sent == int(sys.argv[1]), r"
PUSH_WHOLE = """
from artibot.store.home import Home
from artibot.store import team_files as files
from artibot.team import db, push
from artibot.team.outbound import outbound_row
h = Home.of(None)
m = files.read_membership(h)
waiting = push.queue(h)  # the whole queue, as a push held it before it streamed
with db.connect(m["url"]) as conn:
    key = bytes.fromhex(m["pattern_key"])
    for start in range(0, len(waiting), push.BATCH):
        batch = waiting[start:start + push.BATCH]
        push.insert_rows(conn, [outbound_row(r, key) for r in batch])
        files.add_pushed(h, (r["id"] for r in batch))
assert len(waiting) == int(sys.argv[1])
"""
COLLECT_STREAM = "from artibot.cli.app import run; assert run(['collect', '--stdin', '--quiet']) == 0"
COLLECT_WHOLE = """
from artibot.cli.cmd_collect import parse_stdin
from artibot.collector import collect_many
from artibot.round.cycle import collector_paused
with collector_paused():  # as `collect --stdin` did before it streamed
    records, label = parse_stdin(sys.stdin.buffer.read())
    collect_many(records, label=label)
"""


def peak(code: str, home: Path, *args: str, stdin: Path | None = None, pipe: bool = False) -> tuple[float, float]:
    """``code`` in a fresh process with ``ARTIBOT_HOME=home``: (seconds, peak resident MB)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARTIBOT_HOME": str(home)}
    cmd = [sys.executable, "-c", PEAK, code, *args]
    if pipe and stdin is not None:  # a pipe: the process cannot read its input twice
        with subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              env=env, text=False) as proc:
            assert proc.stdin is not None and proc.stderr is not None
            with open(stdin, "rb") as f:
                shutil.copyfileobj(f, proc.stdin)
            proc.stdin.close()
            err = proc.stderr.read().decode()
            proc.wait()
    else:
        with open(stdin or os.devnull, "rb") as f:
            err = subprocess.run(cmd, stdin=f, capture_output=True, env=env).stderr.decode()
    line = next((x for x in err.splitlines() if x.startswith("PEAK")), None)
    if line is None:
        sys.exit(f"the measured process failed:\n{err}")
    _, secs, kb = line.split()
    return float(secs), int(kb) / 1024


def push_bench(url: str, n: int, seed: int, tmp: Path) -> dict[str, tuple[float, float]]:
    """Push ``n`` records from a fresh home (streamed), then again as a whole queue (all duplicates)."""
    from artibot.collector import collect_many
    from artibot.team import member
    from tests.team.helpers import records

    home = tmp / "pusher"
    for start in range(0, n, 50_000):
        collect_many(records(min(50_000, n - start), seed=seed, prefix="push", start=start), home=home)
    member.join(url, home=home)
    out = {"push, streamed (new rows)": peak(PUSH_STREAM, home, str(n))}
    (home / "team" / "pushed.json").unlink()  # forget the acknowledgements: everything again, all duplicates
    out["push, whole queue (as before; duplicates)"] = peak(PUSH_WHOLE, home, str(n))
    (home / "team" / "pushed.json").unlink()
    out["push, streamed (duplicates)"] = peak(PUSH_STREAM, home, str(n))
    return out


def collect_bench(n: int, seed: int, tmp: Path) -> dict[str, tuple[float, float]]:
    """``collect --stdin`` of ``n`` JSON lines into fresh homes: from a file, from a pipe, and whole."""
    import orjson

    from tests.team.helpers import records

    data = tmp / "records.jsonl"
    with open(data, "wb") as f:
        for start in range(0, n, 50_000):
            for r in records(min(50_000, n - start), seed=seed, prefix="col", start=start):
                f.write(orjson.dumps(r) + b"\n")
    return {"collect --stdin, streamed, from a file": peak(COLLECT_STREAM, tmp / "c1", stdin=data),
            "collect --stdin, streamed, from a pipe": peak(COLLECT_STREAM, tmp / "c2", stdin=data, pipe=True),
            "collect --stdin, whole input (as before)": peak(COLLECT_WHOLE, tmp / "c3", stdin=data)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--push", type=int, default=100_000, help="records pushed through the real push path")
    ap.add_argument("--collect", type=int, default=100_000, help="JSON lines given to `collect --stdin`")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--url", help="an existing empty database (default: start a server in a temporary folder)")
    ap.add_argument("--heap", action="store_true", help="also trace the round's Python heap (tracemalloc; slower)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="artibot-bench-team-"))
    tmp.chmod(0o755)  # the server may run as another user (as root: `postgres`), under this folder
    os.environ["ARTIBOT_HOME"] = str(tmp / "reviewer")
    server = None
    try:
        if args.url:
            url = args.url
        else:
            bin_dir = find_bin()
            if bin_dir is None:
                sys.exit("no PostgreSQL server binaries (initdb, pg_ctl); install the postgresql package or pass --url")
            server = Server(tmp / "pg", bin_dir).start()
            with psycopg.connect(server.url(), autocommit=True) as conn:
                conn.execute("CREATE DATABASE bench")
            url = server.url("bench")
        from artibot.cli.app import run

        assert run(["team", "init", url]) == 0
        measured = {**push_bench(url, args.push, args.seed, tmp), **collect_bench(args.collect, args.seed, tmp)}
        print(f"\n{'':44} {'records':>9} {'s':>7} {'records/s':>10} {'peak MB':>8}")
        for what, (secs, mb) in measured.items():
            n = args.push if what.startswith("push") else args.collect
            print(f"{what:44} {n:>9,} {secs:>7.1f} {n / secs:>10,.0f} {mb:>8.0f}")
        ratio = (measured["push, whole queue (as before; duplicates)"][1] / measured["push, streamed (duplicates)"][1],
                 measured["collect --stdin, whole input (as before)"][1]
                 / measured["collect --stdin, streamed, from a file"][1])
        print(f"peak memory, before / streamed: push {ratio[0]:.1f}x, collect --stdin {ratio[1]:.1f}x\n")
        print(f"{'pool rows':>12} {'fill rows/s':>12} {'round s':>9} {'round peak MB':>14} {'table MB':>9}"
              + (f" {'Python heap MB':>13}" if args.heap else ""))
        have = args.push
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT setseed(%s)", (args.seed / 1000,))
            # the pool spans the last 12 months (artibot's ids carry their time): 12 monthly partitions
            t0 = conn.execute("SELECT (extract(epoch FROM now() - interval '365 days') * 1000)::bigint").fetchone()[0]
            times = {"t0": t0, "ms_per_row": max(1, 365 * 86_400_000 // max(args.sizes))}
            conn.execute("SELECT artibot_team.ensure_months(array(SELECT generate_series(now() - interval '13 months', "
                         "now(), interval '1 month')::date))")
            for size in sorted(args.sizes):
                t = time.perf_counter()
                step = 1_000_000
                for lo in range(have, size, step):
                    conn.execute(FILL, {"lo": lo, "hi": min(size, lo + step), **times})
                fill = (size - have) / max(time.perf_counter() - t, 1e-9) if size > have else 0.0
                conn.execute("VACUUM ANALYZE artibot_team.experiences")
                have = max(have, size)
                # every round learns the whole pool: withdraw the states so its window starts at 0
                conn.execute("UPDATE artibot_team.states SET status = 'rolled_back'")
                out = subprocess.run([sys.executable, "-c", ROUND, url, "1" if args.heap else "0"],
                                     capture_output=True, text=True,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)})
                line = next((x for x in out.stdout.splitlines() if x.startswith("ROUND")), None)
                if line is None:
                    sys.exit(f"the round failed:\n{out.stdout}\n{out.stderr}")
                _, code, secs, rss_kb, heap = line.split()
                table = conn.execute("SELECT sum(pg_total_relation_size(relid)) FROM "
                                     "pg_partition_tree('artibot_team.experiences')").fetchone()[0]
                print(f"{have:>12,} {fill:>12,.0f} {float(secs):>9.1f} {int(rss_kb) / 1024:>14.0f} "
                      f"{table / 2**20:>9.0f}" + (f" {int(heap) / 2**20:>13.1f}" if args.heap else ""), flush=True)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
