"""A kill at EVERY file-system mutation of ``collect --stdin``, ``learn``, ``rollback`` and
``doctor --repair``: after the next command, every acknowledged record is in the log or
in a live archive exactly once, and ``doctor`` finds nothing to report (not even a warning).

How: the command runs in a forked child whose ``os`` mutation functions (``replace``,
``rename``, ``unlink``, ``pwrite``, ``ftruncate``, ``fsync``, ``fdatasync``, ``mkdir``, …)
count their calls; at the Nth the child ``os._exit``s before the call happens, as a
``kill -9`` would. A first run counts the mutations; then N = 1 … count, each from a
fresh copy of the same home. The injection is test code only: the library has no flag.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import orjson
import pytest

from artibot.store import archive, doctor
from artibot.store.home import Home
from artibot.store.log.log_layout import record_on
from tests.store.forked import KILLED, run_child

pytestmark = pytest.mark.slow

def jsonl(ids: list[str]) -> bytes:
    return b"\n".join(orjson.dumps({"id": i, "input": f"fix the failing test in module {i}", "domain": "backend",
                                    "complexity": 0.3 + (n % 5) / 10, "routed_to": "system1" if n % 3 else "system2",
                                    "outcome": "success" if n % 4 else "escalated", "latency_ms": 20,
                                    "confidence": 0.7, "pattern": f"backend:fix:{n % 3}",
                                    "timestamp": f"2026-01-{1 + n % 28:02d}T09:00:00+00:00"})
                      for n, i in enumerate(ids))


def stored_ids(home: Home) -> Counter[str]:
    """Every record id in the log (as a reader sees it) and in the live archives, counted."""
    data = home.experiences.read_bytes() if home.experiences.exists() else b"[\n]\n"
    found: Counter[str] = Counter()
    for line in data.split(b"\n")[1:-2]:
        record = record_on(line)
        assert record is not None, f"a line of the log is not a record: {line[:80]!r}"
        found[record["id"]] += 1
    for rid in archive.ids(home):
        found[rid] += 1
    return found


def check(home: Home, acknowledged: set[str], batch: set[str], where: str) -> None:
    found = stored_ids(home)
    twice = {rid: n for rid, n in found.items() if n > 1}
    assert not twice, f"{where}: records stored twice: {sorted(twice)[:5]}"
    lost = acknowledged - set(found)
    assert not lost, f"{where}: acknowledged records lost: {sorted(lost)[:5]}"
    if batch:  # the batch of a killed collect: all or nothing
        inside = batch & set(found)
        assert inside in (set(), batch), f"{where}: batch cut in half ({len(inside)} of {len(batch)})"
    problems = [f for f in doctor.check(home) if f.severity != "ok"]
    assert not problems, f"{where}: doctor found {[(f.path.name, f.problem) for f in problems]}"


def every_crash_point(tmp: Path, base: Path, argv: list[str], then: list[str], acknowledged: set[str], *,
                      stdin: bytes = b"", then_stdin: bytes = b"", batch: set[str] = frozenset(),
                      then_acks: set[str] = frozenset()) -> int:
    """Kill ``argv`` at each of its mutations (on a copy of ``base``), run ``then``, check."""
    probe = tmp / "probe"
    shutil.copytree(base, probe / "artibot")
    counted = tmp / "count"
    os.environ["ARTIBOT_HOME"] = str(probe / "artibot")
    assert run_child(argv, stdin=stdin, count=counted) == 0
    total = int(counted.read_text())
    assert total > 0
    for n in range(1, total + 1):
        work = tmp / f"kill-{n}"
        shutil.copytree(base, work / "artibot")
        home = Home(work / "artibot")
        os.environ["ARTIBOT_HOME"] = str(home.root)
        assert run_child(argv, kill_at=n, stdin=stdin) == KILLED, f"{argv} was not killed at mutation {n}"
        code = run_child(then, stdin=then_stdin)
        assert code == 0, f"{then} failed (exit {code}) after a kill at mutation {n} of {argv}"
        check(home, acknowledged | set(then_acks), batch, f"{' '.join(argv)} killed at mutation {n}/{total}")
        shutil.rmtree(work)
    return total


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A scratch folder, in memory when the machine has /dev/shm: the kills are about the order
    of operations, and ~2,000 real fsyncs would only make the test slow."""
    shm = Path("/dev/shm")
    root = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path
    monkeypatch.setenv("HOME", str(root))
    yield root
    if root != tmp_path:
        shutil.rmtree(root, ignore_errors=True)


def make_base(tmp: Path, name: str) -> Path:
    base = tmp / name / "artibot"
    os.environ["ARTIBOT_HOME"] = str(base)
    return base


def test_every_crash_point_of_collect_stdin(env):
    base = make_base(env, "base")
    old = [f"old-{i}" for i in range(3)]
    assert run_child(["collect", "--stdin"], stdin=jsonl(old)) == 0
    new = [f"new-{i}" for i in range(5)]
    n = every_crash_point(env, base, ["collect", "--stdin"], ["collect", "--stdin"], set(old),
                          stdin=jsonl(new), then_stdin=jsonl(["next-0"]), batch=set(new), then_acks={"next-0"})
    assert n >= 5


def test_every_crash_point_of_learn(env):
    base = make_base(env, "base")
    ids = [f"r-{i}" for i in range(30)]
    assert run_child(["collect", "--stdin"], stdin=jsonl(ids)) == 0
    learn = ["learn", "--yes", "--flush", "--quiet"]
    n = every_crash_point(env, base, learn, learn, set(ids))
    assert n >= 10


def test_every_crash_point_of_rollback(env):
    base = make_base(env, "base")
    first, second = [f"a-{i}" for i in range(20)], [f"b-{i}" for i in range(12)]
    learn = ["learn", "--yes", "--flush", "--quiet"]
    assert run_child(["collect", "--stdin"], stdin=jsonl(first)) == 0
    assert run_child(learn) == 0
    assert run_child(["collect", "--stdin"], stdin=jsonl(second)) == 0
    assert run_child(learn) == 0
    rounds = sorted(p.name for p in (base / "snapshots").iterdir() if p.is_dir())
    assert len(rounds) == 2
    n = every_crash_point(env, base, ["rollback", rounds[0]], learn, set(first + second))
    assert n >= 10


def test_every_crash_point_of_doctor_repair(env):
    base = make_base(env, "base")
    ids = [f"d-{i}" for i in range(8)]
    assert run_child(["collect", "--stdin"], stdin=jsonl(ids)) == 0
    assert run_child(["learn", "--yes", "--flush", "--quiet"]) == 0
    assert run_child(["collect", "--stdin"], stdin=jsonl([f"e-{i}" for i in range(4)])) == 0
    home = Home(base)
    # damage of three kinds: a record in both the log and a live archive, a record breaking
    # the schema (hand-edited), and a torn tail no journal explains
    [arch] = archive.live_paths(home)
    again = orjson.loads(arch.read_bytes())["records"][0]
    bad = {"id": "bad-0", "input": "x", "domain": "backend"}
    data = home.experiences.read_bytes()[:-2] + b"," + orjson.dumps(again) + b"\n," + orjson.dumps(bad) + b"\n]\n"
    home.experiences.write_bytes(data[:-2] + b',{"id":"torn","input":"half')
    acknowledged = set(ids) | {f"e-{i}" for i in range(4)}
    n = every_crash_point(env, base, ["doctor", "--repair"], ["doctor", "--repair"], acknowledged)
    assert n >= 5


def _power_cut_index(home: Home, base: Path, boot_file: Path) -> None:
    """A power cut after the kill: the id index was never synced, so keep its newest header
    page but lose the fingerprints the collect added (its length as in ``base``), and start a
    new boot."""
    index, before = home.experience_ids, base / ".daily-experiences.ids"
    if index.exists() and before.exists():
        data = index.read_bytes()
        index.write_bytes(data[:64] + before.read_bytes()[64:])
    boot_file.write_text(f"boot-{os.urandom(4).hex()}\n")


@pytest.mark.parametrize("power_cut,between", [(False, "learn"), (False, "rollback"), (False, "doctor --repair"),
                                               (True, "nothing"), (True, "learn"), (True, "rollback")],
                         ids=["kill-learn", "kill-rollback", "kill-doctor", "power-cut", "power-cut-learn",
                              "power-cut-rollback"])
def test_a_retry_after_a_crash_is_stored_exactly_once(env, monkeypatch, between, power_cut):
    """``collect`` killed at each of its mutations (data landed or not), maybe a power cut
    that loses the unsynced id index, then ``between``, then the client retries the same
    batch: the retry is refused exactly when the first try stored it, and each id is stored
    once."""
    from artibot.store.log import id_index

    boot = env / "boot_id"
    boot.write_text("boot-0\n")
    monkeypatch.setattr(id_index, "BOOT_ID", boot)
    base = make_base(env, "base")
    learn = ["learn", "--yes", "--flush", "--quiet"]
    old = [f"old-{i}" for i in range(6)]
    assert run_child(["collect", "--stdin"], stdin=jsonl(old)) == 0
    assert run_child(learn) == 0  # a round to roll back
    assert run_child(["collect", "--stdin"], stdin=jsonl(["mid-0", "mid-1"])) == 0
    [round_id] = [p.name for p in (base / "snapshots").iterdir() if p.is_dir()]
    then = {"nothing": None, "learn": learn, "rollback": ["rollback", round_id],
            "doctor --repair": ["doctor", "--repair"]}[between]
    batch = [f"new-{i}" for i in range(5)]
    probe, counted = env / "probe", env / "count"
    shutil.copytree(base, probe / "artibot")
    os.environ["ARTIBOT_HOME"] = str(probe / "artibot")
    assert run_child(["collect", "--stdin"], stdin=jsonl(batch), count=counted) == 0
    total = int(counted.read_text())
    refused = 0
    for n in range(1, total + 1):
        work = env / f"kill-{n}"
        shutil.copytree(base, work / "artibot")
        home = Home(work / "artibot")
        os.environ["ARTIBOT_HOME"] = str(home.root)
        assert run_child(["collect", "--stdin"], kill_at=n, stdin=jsonl(batch)) == KILLED
        if power_cut:
            _power_cut_index(home, base, boot)
        if then is not None:
            assert run_child(then) == 0, f"{then} failed after a kill at mutation {n}"
        landed = set(batch) <= set(stored_ids(home))
        code = run_child(["collect", "--stdin"], stdin=jsonl(batch))
        where = f"retry after a kill at mutation {n}/{total}{' and a power cut' if power_cut else ''}, {between}"
        assert (code != 0) == landed, f"{where}: the first try {'stored' if landed else 'did not store'} the " \
                                      f"batch, yet the retry exited {code}"
        refused += code != 0
        found = stored_ids(home)
        assert all(found[i] == 1 for i in batch + old + ["mid-0", "mid-1"]), \
            f"{where}: {sorted((i, c) for i, c in found.items() if c != 1)[:5]}"
        shutil.rmtree(work)
    assert 0 < refused < total  # some kills came after the data landed, some before
