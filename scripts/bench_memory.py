"""Peak memory (RSS) and wall time of ``status``, ``doctor`` and ``learn`` against the size
of the experience log, plus ``collect`` over a log with a zero-filled tail, and every
command over a log with a hole of zeros where records should be.

For each size, a data home in a temporary folder gets a log of that many bytes in
artibot's own layout (seeded records, ~330 bytes each), written directly (collecting a
2 GB log record by record would take hours). Each command runs as its own process
(``python -m artibot ...``); its peak RSS comes from ``wait4``. ``learn`` runs with
``--dry-run``, so every size starts from the same log.

``--pretty`` adds ``learn`` over the same records pretty-printed (a JSON array with one
field per line, as another writer leaves it): the learner relays it in artibot's layout
first, which it must do in bounded memory too.

Then the torn-tail case: a log of a few records followed by a zero-filled (sparse) tail
of ``--zeros`` bytes, and one ``collect``: its peak RSS, and what ``quarantine/`` holds
(apparent and allocated bytes).

Then the hole cases (``--holes``): a log of a few records with a sparse hole of that many
NUL bytes right after the ``[`` line ("start"), between two records ("between"), or glued
to the last record before the closing bracket ("middle"), as a crashed copy or a file-system
repair leaves it. Each of ``status``, ``doctor``, ``doctor --repair``, ``learn`` and
``collect`` runs on its own fresh copy (and on the same log without the hole, for
reference: most of a command's time on so small a log is the interpreter's start-up);
then an untimed ``doctor --repair`` and a count of the records the log and the archives
hold, against those written (and the one collected): none may be lost.

    python scripts/bench_memory.py --sizes 20M,200M,2G --pretty 200M,2G --zeros 2G --holes 2G --seed 0
    python scripts/bench_memory.py --sizes 20M,2G --commands status,doctor
    python scripts/bench_memory.py --sizes "" --zeros 0 --holes 2G
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DOMAINS = ("frontend", "backend", "security", "data", "general")
UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(text: str) -> int:
    text = text.strip().upper()
    return int(float(text[:-1]) * UNITS[text[-1]]) if text[-1] in UNITS else int(text)


def write_log(path: Path, size: int, rng: random.Random, pretty: bool = False) -> int:
    """A log of about ``size`` bytes; returns the number of records (``pretty``: pretty-printed,
    ``json.dumps(records, indent=2)``, without the last newline, as the old plugin wrote it)."""
    n = 0
    written = 0
    with open(path, "wb", buffering=1 << 22) as fh:
        fh.write(b"[\n")
        while written < size:
            domain = DOMAINS[rng.randrange(5)]
            line = (b"," if n and not pretty else b"") + (
                f'{{"id":"b{n:09d}","timestamp":"2026-01-{1 + n % 28:02d}T09:00:00+00:00","session_id":"s{n // 50}",'
                f'"input":"fix the failing test in module {n % 997} of the {domain} service","domain":"{domain}",'
                f'"complexity":{rng.random():.3f},"routed_to":"{"system1" if rng.random() < 0.6 else "system2"}",'
                f'"outcome":"{"success" if rng.random() < 0.8 else "escalated"}","latency_ms":{rng.randrange(5, 900)},'
                f'"confidence":{rng.random():.3f},"pattern":"{domain}:fix:{n % 7}","threshold":0.4,"propensity":1.0}}\n'
            ).encode()
            if pretty:
                line = (b",\n" if n else b"") + json.dumps(json.loads(line), indent=2).replace("\n", "\n  ").join(
                    ("  ", "")).encode()
            fh.write(line)
            written += len(line)
            n += 1
        fh.write(b"\n]" if pretty else b"]\n")
    return n


def run(argv: list[str], home: Path, stdin: bytes = b"") -> tuple[float, int, int, float]:
    """(wall seconds, peak RSS bytes, exit code, CPU seconds) of ``python -m artibot argv``."""
    env = {**os.environ, "ARTIBOT_HOME": str(home), "HOME": str(home.parent)}
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "artibot", *argv], env=env, cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.monotonic() - started, usage.ru_maxrss * 1024, proc.returncode, usage.ru_utime + usage.ru_stime


def fmt(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


COMMANDS = {"status": ["status"], "doctor": ["doctor"], "learn": ["learn", "--yes", "--flush", "--dry-run", "--quiet"]}
HOLE_COMMANDS = {"status": ["status", "--json"], "doctor": ["doctor"], "doctor --repair": ["doctor", "--repair"],
                 "learn": ["learn", "--yes", "--flush"], "collect": ["collect", "--stdin"]}
COLLECTED = (b'{"id":"collected","input":"rename the helper","domain":"backend","complexity":0.3,"routed_to":"system1",'
             b'"outcome":"success","latency_ms":12,"confidence":0.8}')


def write_holed_log(path: Path, hole: int, where: str, rng: random.Random) -> int:
    """A log of a few records with a sparse hole of ``hole`` NUL bytes at ``where`` (``"none"``:
    without one); returns the number of records."""
    n = write_log(path, 4096, rng)
    data = path.read_bytes()
    if where == "none":
        return n
    at = {"start": 2, "between": data.index(b"\n,", len(data) // 2) + 1, "middle": len(data) - 3}[where]
    with open(path, "wb") as fh:
        fh.write(data[:at])
        fh.seek(at + hole)  # never written: a hole, no disk
        fh.write(data[at:])
    os.chmod(path, 0o600)
    return n


def ids_kept(home: Path) -> set[str]:
    """The ids of the records in the log (without holes: after a repair), a line at a time,
    and in the archives (what a round processed)."""
    with open(home / "daily-experiences.json", "rb") as fh:
        kept = {json.loads(line.lstrip(b","))["id"] for line in fh if line.lstrip(b",").startswith(b"{")}
    for path in (home / "archive").glob("*.json"):
        kept.update(r["id"] for r in json.loads(path.read_bytes()).get("records", []))
    return kept


def holes(size: int, seed: int, tmpdir: str | None) -> None:
    print(f"\n{'hole':>8} {'where':<8} {'command':<16} {'exit':>4} {'wall s':>8} {'CPU s':>6} {'peak RSS':>11}  "
          "records kept")
    for where in ("none", "start", "between", "middle"):  # none: the same log without a hole, for reference
        for name, argv in HOLE_COMMANDS.items():
            with tempfile.TemporaryDirectory(dir=tmpdir) as tmp:
                home = Path(tmp) / "artibot"
                home.mkdir(mode=0o700)
                log = home / "daily-experiences.json"
                n = write_holed_log(log, size, where, random.Random(seed))
                wall, rss, code, cpu = run(argv, home, COLLECTED if name == "collect" else b"")
                run(["doctor", "--repair"], home)  # untimed: what is left must hold every record
                wanted = {f"b{i:09d}" for i in range(n)} | ({"collected"} if name == "collect" and code == 0 else set())
                kept = ids_kept(home) if log.stat().st_size < 1 << 30 else set()
                print(f"{fmt(size):>8} {where:<8} {name:<16} {code:>4} {wall:>8.2f} {cpu:>6.2f} {fmt(rss):>11}  "
                      f"{len(kept & wanted)}/{len(wanted)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="20M,200M", help="log sizes, comma-separated (K, M, G suffixes)")
    parser.add_argument("--commands", default="status,doctor,learn", help="which of status, doctor, learn")
    parser.add_argument("--pretty", default="", help="pretty-printed log sizes for learn, comma-separated")
    parser.add_argument("--zeros", default="2G", help="size of the zero-filled tail for the collect case (0: skip)")
    parser.add_argument("--holes", default="2G", help="size of the hole for the hole cases (0: skip)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dir", default=None, help="where the temporary homes go (default: the system's tmp)")
    args = parser.parse_args()
    commands = [c.strip() for c in args.commands.split(",") if c.strip()]
    if args.sizes.strip():
        print(f"{'log size':>10} {'records':>10} {'command':<8} {'exit':>4} {'wall s':>8} {'peak RSS':>11}")
    for text in filter(None, args.sizes.split(",")):
        size = parse_size(text)
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            home = Path(tmp) / "artibot"
            home.mkdir(mode=0o700)
            n = write_log(home / "daily-experiences.json", size, random.Random(args.seed))
            os.chmod(home / "daily-experiences.json", 0o600)
            for name in commands:
                wall, rss, code, cpu = run(COMMANDS[name], home)
                print(f"{fmt(size):>10} {n:>10} {name:<8} {code:>4} {wall:>8.2f} {fmt(rss):>11}", flush=True)
    for text in filter(None, args.pretty.split(",")):
        size = parse_size(text)
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            home = Path(tmp) / "artibot"
            home.mkdir(mode=0o700)
            n = write_log(home / "daily-experiences.json", size, random.Random(args.seed), pretty=True)
            os.chmod(home / "daily-experiences.json", 0o600)
            wall, rss, code, cpu = run(COMMANDS["learn"], home)
            print(f"{fmt(size):>10} {n:>10} {'learn':<8} {code:>4} {wall:>8.2f} {fmt(rss):>11}  (pretty-printed)",
                  flush=True)
    zeros = parse_size(args.zeros)
    if zeros:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            home = Path(tmp) / "artibot"
            home.mkdir(mode=0o700)
            log = home / "daily-experiences.json"
            write_log(log, 4096, random.Random(args.seed))
            os.chmod(log, 0o600)
            with open(log, "r+b") as fh:
                fh.truncate(log.stat().st_size + zeros)  # grown, its data never landed
            record = (b'{"input":"rename the helper","domain":"backend","complexity":0.3,"routed_to":"system1",'
                      b'"outcome":"success","latency_ms":12,"confidence":0.8}')
            wall, rss, code, cpu = run(["collect", "--stdin"], home, record)
            kept = [p for p in (home / "quarantine").iterdir()] if (home / "quarantine").is_dir() else []
            apparent = sum(p.stat().st_size for p in kept)
            allocated = sum(p.stat().st_blocks * 512 for p in kept)
            print(f"\ncollect over a log with a {fmt(zeros)} zero-filled tail: exit {code}, {wall:.2f} s, "
                  f"peak RSS {fmt(rss)}; quarantine/ holds {len(kept)} file(s), {fmt(apparent)} apparent, "
                  f"{fmt(allocated)} allocated")

    hole = parse_size(args.holes)
    if hole:
        holes(hole, args.seed, args.dir)


if __name__ == "__main__":
    main()
