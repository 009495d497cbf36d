"""The commit of a round's files (``artibot.store.round.commit``): all of them or none, after a
kill before any of its file-system mutations and after a power cut at any instant (strict
POSIX and ext4 models, ``tests/store/powercut.py``), once recovery has run."""

from __future__ import annotations

import os
import pickle
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Callable

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artibot.errors import CorruptFileError, StoreError, UnsafePathError
from artibot.store.home import Home
from artibot.store.round import commit as rc
from artibot.store.round.commit import RoundCommit
from tests.store import powercut
from tests.store.forked import KILLED, MUTATIONS

OLD = {"thresholds.json": b'{"old": 1}\n', "patterns/stats.json": b'{"old": 2}\n',
       "pending-review.json": b'{"pending": true}\n', "learning-log.json": b'{"rounds": []}\n'}
NEW = {"thresholds.json": b'{"new": 1}\n', "patterns/stats.json": b'{"new": 2}\n' * 3000,
       "learner/evidence.json": b'{"new": 3}\n', "learning-log.json": b'{"rounds": [1]}\n',
       "pending-review.json": None}
"""A round's change: three files rewritten (one over a page), one created in a folder that does
not exist yet, one removed."""


@pytest.fixture
def scratch(tmp_path):
    """In memory when the machine has /dev/shm (the power-cut models tell files apart by inode)."""
    shm = Path("/dev/shm")
    root = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path
    yield root
    if root != tmp_path:
        shutil.rmtree(root, ignore_errors=True)


def make_home(root: Path, files: dict[str, bytes]) -> Home:
    home = Home(root / "artibot")
    home.root.mkdir(mode=0o700, parents=True)
    for rel, data in files.items():
        (home.root / rel).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        (home.root / rel).write_bytes(data)
        (home.root / rel).chmod(0o600)
    return home


def contents(home: Home, rels) -> dict[str, bytes | None]:
    return {rel: (home.root / rel).read_bytes() if (home.root / rel).is_file() else None for rel in rels}


def staged(home: Home, change: dict[str, bytes | None]) -> RoundCommit:
    files = RoundCommit(home)
    for rel, data in change.items():
        if data is None:
            files.remove(home.root / rel)
        else:
            files.write(home.root / rel, data)
    return files


def forked(fn: Callable[[], None], *, kill_at: int | None = None, inject: Callable[[], None] | None = None) -> int:
    """``fn`` in a forked child whose ``os`` mutations are counted; it dies (exit KILLED) just
    before the ``kill_at``-th. Returns the child's exit code, or with ``kill_at=None`` the count."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            os.close(read)
            if inject is not None:
                inject()
            calls = 0
            for name in MUTATIONS:
                real = getattr(os, name)

                def counted(*args, _real=real, **kwargs):
                    nonlocal calls
                    calls += 1
                    if calls == kill_at:
                        os._exit(KILLED)
                    return _real(*args, **kwargs)

                setattr(os, name, counted)
            fn()
            os.write(write, str(calls).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        told = fh.read()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if kill_at is None:
        assert code == 0, f"the commit failed in the child (exit {code})"
        return int(told)
    return code


def all_or_none(home: Home, before: dict[str, bytes | None], change: dict[str, bytes | None], where: str) -> str:
    """Every target holds its old contents, or every one its new: which of the two."""
    now = contents(home, change)
    old = {rel: before.get(rel) for rel in change}
    assert now in (old, dict(change)), f"{where}: a mix of old and new: " + ", ".join(
        f"{rel}={'new' if now[rel] == change[rel] else 'old' if now[rel] == old[rel] else 'other'}" for rel in now)
    assert rc.leftovers(home) == [], f"{where}: the staging folder still holds {rc.leftovers(home)}"
    return "new" if now == dict(change) else "old"


# --------------------------------------------------------------------- the commit
def test_a_commit_writes_removes_and_leaves_nothing_behind(scratch):
    home = make_home(scratch, OLD)
    files = staged(home, NEW)
    assert files.staged(home.thresholds) == (True, NEW["thresholds.json"])
    assert files.staged(home.pending_review) == (True, None)
    assert files.staged(home.system1_patterns) == (False, None)
    assert contents(home, NEW) == {rel: OLD.get(rel) for rel in NEW}  # nothing before run()
    files.run()
    assert contents(home, NEW) == NEW
    assert rc.leftovers(home) == [] and not rc.recover(home)
    for rel, data in NEW.items():
        if data is not None:
            assert stat.S_IMODE(os.stat(home.root / rel).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(home.root / "learner").st_mode) == 0o700


def test_the_last_change_of_a_file_wins_and_an_empty_commit_touches_nothing(scratch):
    home = make_home(scratch, OLD)
    RoundCommit(home).run()
    assert not rc.staging_dir(home).exists()
    files = RoundCommit(home)
    files.write(home.thresholds, b"first")
    files.remove(home.thresholds)
    files.write(home.thresholds, b"last")
    files.run()
    assert home.thresholds.read_bytes() == b"last"


def test_a_commit_refuses_paths_outside_the_home_and_its_own_folder(scratch):
    home = make_home(scratch, OLD)
    files = RoundCommit(home)
    with pytest.raises(StoreError, match="outside the data home"):
        files.write(scratch / "elsewhere.json", b"x")
    with pytest.raises(StoreError, match="staging folder"):
        files.write(rc.staging_dir(home) / "journal.json", b"x")


def test_a_link_in_place_of_a_target_is_refused_before_any_file_changes(scratch):
    home = make_home(scratch, OLD)
    (scratch / "victim").write_bytes(b"keep")
    os.symlink(scratch / "victim", home.system1_patterns)
    files = staged(home, {**NEW, "system1-patterns.json": b"{}"})
    with pytest.raises(UnsafePathError):
        files.run()
    assert contents(home, OLD) == OLD and (scratch / "victim").read_bytes() == b"keep"
    assert rc.leftovers(home) == []


# --------------------------------------------------------------------- kills
def test_a_kill_before_any_mutation_of_a_commit_leaves_all_or_none_after_recovery(scratch):
    base = make_home(scratch / "base", OLD)
    total = forked(lambda: staged(base, NEW).run())
    assert contents(base, NEW) == NEW
    outcomes = []
    for n in range(1, total + 1):
        home = make_home(scratch / f"kill-{n}", OLD)
        assert forked(lambda: staged(home, NEW).run(), kill_at=n) == KILLED
        journaled = rc.read_journal(home) is not None
        assert rc.recover(home) == journaled
        outcome = all_or_none(home, OLD, NEW, f"killed at mutation {n}/{total}")
        if journaled:  # past the commit point: the round's files are committed
            assert outcome == "new", f"killed at mutation {n}/{total}: the journal was on disk, the commit was lost"
        outcomes.append(outcome)
        assert not rc.recover(home)  # recovery runs once: the second finds nothing to do
    assert outcomes[0] == "old" and outcomes[-1] == "new" and total >= 10


def test_a_kill_during_recovery_is_finished_by_the_next_recovery(scratch):
    base = make_home(scratch / "base", OLD)
    total = forked(lambda: staged(base, NEW).run())
    # killed just after the commit point: every rename is recovery's
    point = next(n for n in range(1, total + 1) if _journaled_after_kill(scratch / f"probe-{n}", n))
    probe = make_home(scratch / "recover-probe", OLD)
    assert forked(lambda: staged(probe, NEW).run(), kill_at=point) == KILLED
    steps = forked(lambda: rc.recover(probe))
    assert contents(probe, NEW) == NEW
    for n in range(1, steps + 1):
        home = make_home(scratch / f"rkill-{n}", OLD)
        assert forked(lambda: staged(home, NEW).run(), kill_at=point) == KILLED
        assert forked(lambda: rc.recover(home), kill_at=n) == KILLED
        rc.recover(home)
        assert all_or_none(home, OLD, NEW, f"recovery killed at mutation {n}/{steps}") == "new"


def _journaled_after_kill(root: Path, n: int) -> bool:
    home = make_home(root, OLD)
    assert forked(lambda: staged(home, NEW).run(), kill_at=n) == KILLED
    return rc.read_journal(home) is not None


_REL = st.sampled_from(["thresholds.json", "system1-patterns.json", "patterns/stats.json",
                        "learner/evidence.json", "snapshots/r1/manifest.json"])
_CHANGE = st.dictionaries(_REL, st.one_of(st.none(), st.binary(max_size=9000)), min_size=1, max_size=5)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.dictionaries(_REL, st.binary(max_size=300), max_size=5), change=_CHANGE,
       kill=st.integers(min_value=1, max_value=60))
def test_any_change_killed_anywhere_is_all_or_none(scratch, before, change, kill):
    root = Path(tempfile.mkdtemp(dir=scratch))
    home = make_home(root, before)
    code = forked(lambda: staged(home, change).run(), kill_at=kill)
    assert code in (0, KILLED)
    rc.recover(home)
    outcome = all_or_none(home, before, change, f"killed at mutation {kill}")
    if code == 0:
        assert outcome == "new"
    shutil.rmtree(root)


# --------------------------------------------------------------------- power cuts
def _traced(root: Path, fn: Callable[[], None], scratch: Path) -> powercut.Trace:
    out = scratch / "trace.bin"
    base = powercut.snapshot(root)
    assert forked(fn, inject=powercut._tracer(root, out)) > 0
    ops, data, at = [], out.read_bytes(), 0
    while at < len(data):
        n = int.from_bytes(data[at:at + 8], "little")
        ops.append(pickle.loads(data[at + 8:at + 8 + n]))
        at += 8 + n
    return powercut.Trace(root, base, ops, powercut.snapshot(root), 0)


@pytest.mark.parametrize("model", ["posix", "ext4", "random"])
def test_a_power_cut_anywhere_in_a_commit_leaves_all_or_none_after_recovery(scratch, model):
    home = make_home(scratch / "traced", OLD)
    tr = _traced(home.root, lambda: staged(home, NEW).run(), scratch)
    outcomes = set()
    for state in powercut.states(tr, model, seed=5):
        powercut.materialize(state, home.root)
        journal = state.files.get(f"{rc.STAGING}/{rc.JOURNAL}")
        rc.recover(home)
        outcome = all_or_none(home, OLD, NEW, state.label)
        if journal is not None:  # the commit point reached the disk: the round is committed
            assert outcome == "new", f"{state.label}: the journal was on disk, the commit was dropped"
        outcomes.add(outcome)
    assert outcomes == {"old", "new"}
    last = powercut.states(tr, model, seed=5)[-1]
    powercut.materialize(last, home.root)
    rc.recover(home)
    assert contents(home, NEW) == NEW  # a cut after the last sync keeps the whole commit


# --------------------------------------------------------------------- damage
def _killed_after_commit_point(scratch: Path) -> Home:
    base = make_home(scratch / "base", OLD)
    total = forked(lambda: staged(base, NEW).run())
    for n in range(1, total + 1):
        home = make_home(scratch / f"k{n}", OLD)
        assert forked(lambda: staged(home, NEW).run(), kill_at=n) == KILLED
        if rc.read_journal(home) is not None:
            return home
    raise AssertionError("no kill left the journal on disk")


def test_a_staged_file_that_does_not_match_its_checksum_stops_recovery_naming_it(scratch):
    home = _killed_after_commit_point(scratch)
    entry = next(e for e in rc.read_journal(home) if e["path"] == "thresholds.json")
    staged_file = rc.staging_dir(home) / entry["staged"]
    staged_file.write_bytes(b"something else")
    with pytest.raises(CorruptFileError, match="does not hold what the commit journal says"):
        rc.recover(home)
    assert home.thresholds.read_bytes() == OLD["thresholds.json"]


@pytest.mark.parametrize("journal", [b"{not json", orjson.dumps({"schema_version": 1, "files": [{"path": "../x",
                                                                                              "remove": True}]})])
def test_an_unreadable_journal_stops_recovery_and_changes_nothing(scratch, journal):
    home = make_home(scratch, OLD)
    rc.staging_dir(home).mkdir(mode=0o700)
    rc.journal_path(home).write_bytes(journal)
    with pytest.raises(CorruptFileError, match="unreadable journal"):
        rc.recover(home)
    assert contents(home, OLD) == OLD and rc.journal_path(home).exists()


# --------------------------------------------------------------------- doctor
@pytest.mark.parametrize("past_commit_point", [False, True])
def test_doctor_reports_an_interrupted_commit_and_its_repair_finishes_it(scratch, past_commit_point):
    from artibot.store import doctor

    # files doctor has no schema for, so that its findings are the commit's alone
    before = {"a.bin": b"old a", "notes/b.bin": b"old b"}
    change = {"a.bin": b"new a" * 2000, "notes/b.bin": None, "notes/c.bin": b"new c"}
    base = make_home(scratch / "base", before)
    total = forked(lambda: staged(base, change).run())
    for n in range(2, total + 1):
        home = make_home(scratch / f"d{n}", before)
        assert forked(lambda: staged(home, change).run(), kill_at=n) == KILLED
        if (rc.read_journal(home) is not None) == past_commit_point and rc.leftovers(home):
            break
    else:
        raise AssertionError("no kill left such a commit")
    found = [f for f in doctor.check(home) if f.severity != "ok"]
    assert [(f.path.name, f.severity) for f in found] == [(rc.STAGING, "warning")]
    assert ("finishes the commit" if past_commit_point else "drops the uncommitted copies") in found[0].fix
    from artibot.cli.words_errors import say_any

    assert say_any("ko", found[0].said or found[0].problem) == (
        "라운드의 파일이 커밋되었지만 모두 제자리에 놓이지는 않았습니다" if past_commit_point
        else "라운드 파일의 커밋이 커밋 지점 전에 중단되었습니다 (파일은 바뀌지 않았습니다)")
    assert say_any("ko", found[0].fix_said or found[0].fix) == "`artibot learn`이나 `artibot rollback`을 실행하세요 (또는 " \
        "이 복구): " + ("커밋을 마무리합니다" if past_commit_point else "커밋되지 않은 사본을 버립니다")
    doctor.repair(home)
    assert [f for f in doctor.check(home) if f.severity != "ok"] == []
    assert all_or_none(home, before, change, "after doctor --repair") == ("new" if past_commit_point else "old")


# --------------------------------------------------------------------- a round, end to end
ROUND_FILES = ("thresholds.json", "system1-patterns.json", "patterns/stats.json", "transfer-log.json")


@pytest.mark.slow
def test_learn_killed_anywhere_leaves_the_rounds_files_all_written_or_none(scratch, monkeypatch):
    """``learn`` killed before each of its mutations, then the one recovery: the round's state
    files are all as before the round or all as it left them (its records archived exactly
    when they are), never some of each."""
    from artibot.round.rollback import recover_interrupted
    from artibot.store import archive
    from tests.store.forked import run_child
    from tests.store.test_crash_points import jsonl

    monkeypatch.setenv("HOME", str(scratch))
    base = scratch / "base" / "artibot"
    monkeypatch.setenv("ARTIBOT_HOME", str(base))
    assert run_child(["collect", "--stdin"], stdin=jsonl([f"r-{i}" for i in range(30)])) == 0
    learn = ["learn", "--yes", "--flush", "--quiet"]
    probe = scratch / "probe" / "artibot"
    shutil.copytree(base, probe)
    monkeypatch.setenv("ARTIBOT_HOME", str(probe))
    count = scratch / "count"
    assert run_child(learn, count=count) == 0
    total = int(count.read_text())
    assert all((probe / rel).is_file() for rel in ROUND_FILES)
    seen = set()
    for n in range(1, total + 1):
        work = scratch / f"learn-{n}" / "artibot"
        shutil.copytree(base, work)
        monkeypatch.setenv("ARTIBOT_HOME", str(work))
        assert run_child(learn, kill_at=n) == KILLED
        home = Home(work)
        recover_interrupted(home)
        written = tuple((work / rel).is_file() for rel in ROUND_FILES)
        assert written in ((False,) * 4, (True,) * 4), f"killed at mutation {n}/{total}: {written}"
        assert bool(archive.live_paths(home)) == written[0], f"killed at mutation {n}/{total}"
        assert rc.leftovers(home) == []
        seen.add(written[0])
        shutil.rmtree(work.parent)
    assert seen == {False, True}
