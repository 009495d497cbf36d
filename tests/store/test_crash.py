"""kill -9 at random instants: no acknowledged record is lost, a batch is all-or-nothing,
a reader sees the log without its torn tail, and the next writer repairs the file by itself,
keeping whatever it cuts in quarantine/."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home

pytestmark = pytest.mark.slow

CHILD = r"""
import os, random, string, sys
from pathlib import Path
from artibot.experience import validate
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home

home, ack, attempt, seed, mode, prefix = sys.argv[1:]
rng = random.Random(int(seed))
log = ExperienceLog(Home(Path(home)))
flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT

def note(path, line):
    fd = os.open(path, flags, 0o600)
    os.write(fd, line)
    os.fsync(fd)
    os.close(fd)

n = 0
while True:
    size = 1 if mode == "single" else rng.randint(1, 40)
    text = "".join(rng.choices(string.ascii_letters + " ", k=8192)) if mode == "batch" else "short request"
    batch = [validate({"id": f"{prefix}-{n + i}", "input": text, "domain": "data", "complexity": 0.5,
                       "routed_to": "system1", "outcome": "success", "latency_ms": 1, "confidence": 0.5})
             for i in range(size)]
    line = (" ".join(r["id"] for r in batch) + "\n").encode()
    note(attempt, line)
    log.append(batch)
    note(ack, line)
    n += size
"""


def complete_lines(path: Path) -> list[list[str]]:
    if not path.exists():
        return []
    text = path.read_text()
    return [line.split() for line in text.split("\n")[:-1]]  # a last line without "\n" was cut mid-write


def run_child(home: Path, work: Path, seed: int, mode: str, prefix: str, rng: random.Random):
    ack, attempt = work / f"{prefix}.ack", work / f"{prefix}.attempt"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(home), str(ack), str(attempt), str(seed), mode,
                              prefix])
    deadline = time.monotonic() + 20
    while not complete_lines(ack):  # let it get into its loop, then kill it at a random instant
        assert child.poll() is None, "the child died on its own"
        assert time.monotonic() < deadline, "the child never acknowledged an append"
        time.sleep(0.002)
    time.sleep(rng.uniform(0, 0.04))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    return complete_lines(ack), complete_lines(attempt)


def kill_loop(home_dir: Path, work: Path, *, mode: str, iterations: int, seed: int) -> int:
    """Kill a writer at random instants, checking the log after each kill; returns how many
    kills needed a repair (landed mid-write). Runs ``iterations`` kills, and more (up to eight
    times as many) until one has needed a repair: a kill lands mid-write about one time in
    eight for single appends, and the callers assert the count, so that "the next writer
    repairs the file" is never passed by a run whose kills all fell between writes."""
    rng = random.Random(seed)
    home = Home(home_dir)
    all_attempted: set[str] = set()
    repairs = 0
    it = -1
    while (it := it + 1) < iterations or (repairs == 0 and it < 8 * iterations):
        acked, attempted = run_child(home_dir, work, seed * 1000 + it, mode, f"k{it}", rng)
        all_attempted.update(i for batch in attempted for i in batch)
        ids = [r["id"] for r in ExperienceLog(home).read()]  # a reader leaves the torn tail out, writing nothing
        reader = ExperienceLog(home)
        reader.repair()  # the next writer cuts it: the same records stay
        assert [r["id"] for r in ExperienceLog(home).read()] == ids
        present = set(ids)
        assert len(ids) == len(present), f"iteration {it}: duplicate records"
        assert present <= all_attempted
        for batch in acked:
            assert set(batch) <= present, f"iteration {it}: acknowledged batch {batch[:3]}... lost"
        for batch in attempted:  # all-or-nothing, whatever the instant of the kill
            inside = [i in present for i in batch]
            assert all(inside) or not any(inside), f"iteration {it}: batch cut in half"
        json.loads(home.experiences.read_bytes())
        if reader.last_repair is not None:
            repairs += 1
            cut = reader.last_repair.quarantined_to
            if cut is not None:
                in_flight = {i for batch in attempted for i in batch} - present
                kept = cut.read_bytes()
                assert kept.startswith((b",", b"{"))
                for line in kept.split(b"\n")[:-1]:
                    assert orjson.loads(line.lstrip(b","))["id"] in in_flight
    assert home.experiences.read_bytes().endswith(b"\n]\n")
    return repairs


def test_kill_during_single_appends(artibot_home, tmp_path):
    assert kill_loop(artibot_home, tmp_path, mode="single", iterations=25, seed=7) >= 1, \
        "no kill landed mid-write: the repair was never exercised"


def test_kill_during_large_batch_appends(artibot_home, tmp_path):
    assert kill_loop(artibot_home, tmp_path, mode="batch", iterations=25, seed=11) >= 1, \
        "no kill landed mid-write: the repair was never exercised"


MOVE_CHILD = r"""
import os, signal, sys
from pathlib import Path
from artibot.experience import validate
from artibot.store import archive, documents, fs
from artibot.store.log import experiences
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home

home, where = sys.argv[1:]
log = ExperienceLog(Home(Path(home)))
log.append([validate({"id": f"m{i}", "input": "x", "domain": "data", "complexity": 0.5, "routed_to": "system1",
                      "outcome": "success", "latency_ms": 1, "confidence": 0.5}) for i in range(10)])
name, after = {"before-archive": ("round-1.json", False), "after-archive": ("round-1.json", True),
               "before-log-rewrite": ("daily-experiences.json", False)}[where]
real = fs.atomic_write_bytes

def write(path, data, **kwargs):
    if Path(path).name == name and not after:
        os.kill(os.getpid(), signal.SIGKILL)
    real(path, data, **kwargs)
    if Path(path).name == name:
        os.kill(os.getpid(), signal.SIGKILL)

for module in (experiences, documents, archive):
    if hasattr(module, "atomic_write_bytes"):
        module.atomic_write_bytes = write
log.move_to_archive([f"m{i}" for i in range(0, 10, 2)], "round-1")
"""


@pytest.mark.parametrize("where", ["before-archive", "after-archive", "before-log-rewrite"])
def test_kill_during_a_move_to_archive(artibot_home, where):
    child = subprocess.run([sys.executable, "-c", MOVE_CHILD, str(artibot_home), where], timeout=60)
    assert child.returncode == -signal.SIGKILL
    home = Home(artibot_home)
    ExperienceLog(home).repair()  # the next writer finishes or undoes the move
    left = [r["id"] for r in ExperienceLog(home).read()]
    archive = home.archive_dir / "round-1.json"
    archived = [r["id"] for r in orjson.loads(archive.read_bytes())["records"]] if archive.exists() else []
    assert sorted(left + archived) == sorted(f"m{i}" for i in range(10))  # nothing lost, nothing doubled
    assert archived == ([] if where == "before-archive" else ["m0", "m2", "m4", "m6", "m8"])
    assert not (home.archive_dir / ".move-in-progress.json").exists()
