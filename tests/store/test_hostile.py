"""The attacks of the data-safety review, as tests: a torn tail no append made, a full disk
(a real small tmpfs when the machine lets us mount one, and injected ENOSPC always), a
read-only home, a home that is a file, a hand-edited record, duplicate ids."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import orjson
import pytest

from artibot.store import doctor
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests.store.forked import ENOSPC, EROFS, fail_writes, run_child

pytestmark = pytest.mark.slow


def record(rid: str, n: int = 0, **extra) -> dict:
    return {"id": rid, "input": f"rename the helper in module {n}", "domain": "backend", "complexity": 0.4,
            "routed_to": "system1", "outcome": "success", "latency_ms": 12, "confidence": 0.8,
            "timestamp": "2026-01-05T10:00:00+00:00", **extra}


def jsonl(records: list[dict]) -> bytes:
    return b"\n".join(orjson.dumps(r) for r in records)


@pytest.fixture
def home(artibot_home, tmp_path, monkeypatch) -> Home:
    monkeypatch.setenv("HOME", str(tmp_path))
    return Home(artibot_home)


def cli(tmp_path: Path, argv: list[str], stdin: bytes = b"", inject=None) -> tuple[int, str]:
    out = tmp_path / "out.txt"
    code = run_child(argv, stdin=stdin, output=out, inject=inject)
    return code, out.read_text()


def ids(home: Home) -> list[str]:
    return [r["id"] for r in ExperienceLog(home).read()]


def one_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("artibot: "), text
    assert "Traceback" not in text
    return lines[0]


# ------------------------------------------------------------------ the torn tail no append made
def test_a_torn_tail_the_last_append_did_not_make_cuts_only_itself(home, tmp_path):
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record(f"a{i}") for i in range(3)]))[0] == 0
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record(f"b{i}") for i in range(5)]))[0] == 0
    data = home.experiences.read_bytes()
    home.experiences.write_bytes(data[:-2] + b',{"id":"torn","input":"half')
    code, out = cli(tmp_path, ["status", "--json"])
    assert code == 0 and orjson.loads(out)["unprocessed"] == 8
    assert home.experiences.read_bytes().endswith(b'"half')  # a reader wrote nothing
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record("c0")]))[0] == 0  # a writer repairs
    assert ids(home) == [*(f"a{i}" for i in range(3)), *(f"b{i}" for i in range(5)), "c0"]
    [cut] = home.quarantine_dir.iterdir()
    assert cut.read_bytes() == b',{"id":"torn","input":"half'


# ------------------------------------------------------------------ full disk
READERS = [["status", "--json"], ["history", "--json"], ["doctor"], ["review", "--json"]]


def test_injected_enospc_gives_one_line_and_readers_keep_working(home, tmp_path):
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record(f"a{i}") for i in range(4)]))[0] == 0
    before = home.experiences.read_bytes()
    full = fail_writes(ENOSPC)
    for argv in (["collect", "--stdin"], ["learn", "--yes", "--flush"]):
        code, out = cli(tmp_path, argv, jsonl([record("x0")]), inject=full)
        line = one_line(out)
        assert code == 1 and "disk is full" in line and str(home.root) in line, line
    for argv in READERS:
        code, out = cli(tmp_path, argv, inject=full)
        assert code == 0, (argv, out)
    assert home.experiences.read_bytes() == before
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record("x0")]))[0] == 0  # space freed: all works
    assert ids(home) == ["a0", "a1", "a2", "a3", "x0"]


@contextlib.contextmanager
def small_tmpfs(kb: int):
    mount = shutil.which("mount")
    point = Path(tempfile.mkdtemp(prefix="artibot-tmpfs-"))
    if mount is None or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root and mount(8); the injected-ENOSPC test covers the rest")
    done = subprocess.run([mount, "-t", "tmpfs", "-o", f"size={kb}k,mode=0700", "tmpfs", str(point)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        point.rmdir()
        pytest.skip(f"this machine does not allow mounting a tmpfs ({done.stderr.strip()}); "
                    "the injected-ENOSPC test covers the rest")
    try:
        yield point
    finally:
        subprocess.run(["umount", str(point)], check=False)
        point.rmdir()


def test_a_really_full_tmpfs(tmp_path, monkeypatch):
    with small_tmpfs(256) as point:
        home = Home(point / "artibot")
        monkeypatch.setenv("ARTIBOT_HOME", str(home.root))
        acknowledged = []
        for n in range(400):  # fill the disk with batches of ~8 KB until one is refused
            batch = [record(f"f{n}-{i}", input="x" * 1000) for i in range(8)]
            code, out = cli(tmp_path, ["collect", "--stdin"], jsonl(batch))
            if code != 0:
                line = one_line(out)
                assert code == 1 and "disk is full" in line, line
                break
            acknowledged += [r["id"] for r in batch]
        else:
            pytest.fail("the disk never filled up")
        for argv in READERS:
            code, out = cli(tmp_path, argv)
            assert code == 0, (argv, out)
        assert ids(home) == acknowledged  # nothing lost, no half batch
        assert not [f for f in doctor.check(home) if f.severity == "error"]


# ------------------------------------------------------------------ read-only home
def test_a_read_only_home(home, tmp_path):
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record(f"a{i}") for i in range(3)]))[0] == 0
    os.unlink(home.experiences_lock)  # the readers must not need to create it
    read_only = fail_writes(EROFS)
    for argv in READERS:
        code, out = cli(tmp_path, argv, inject=read_only)
        assert code == 0, (argv, out)
    code, out = cli(tmp_path, ["status", "--json"], inject=read_only)
    assert orjson.loads(out)["unprocessed"] == 3
    code, out = cli(tmp_path, ["collect", "--stdin"], jsonl([record("z")]), inject=read_only)
    assert code == 1 and "read-only" in one_line(out)


def test_a_really_read_only_mount(tmp_path, monkeypatch):
    with small_tmpfs(1024) as point:
        home = Home(point / "artibot")
        monkeypatch.setenv("ARTIBOT_HOME", str(home.root))
        assert cli(tmp_path, ["collect", "--stdin"], jsonl([record(f"a{i}") for i in range(3)]))[0] == 0
        os.unlink(home.experiences_lock)
        subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
        try:
            for argv in READERS:
                code, out = cli(tmp_path, argv)
                assert code == 0, (argv, out)
            code, out = cli(tmp_path, ["collect", "--stdin"], jsonl([record("z")]))
            assert code == 1 and "read-only" in one_line(out)
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(point)], check=True)


# ------------------------------------------------------------------ a home that is a file
@pytest.mark.parametrize("argv", [["status"], ["history"], ["collect", "--stdin"], ["learn", "--yes"], ["doctor"]])
def test_a_home_that_is_a_file(home, tmp_path, argv):
    home.root.parent.mkdir(parents=True, exist_ok=True)
    home.root.write_text("not a folder")
    code, out = cli(tmp_path, argv, jsonl([record("a")]))
    if argv == ["doctor"]:
        assert code == 1 and "is a file, not a folder" in " ".join(out.split())
        return
    line = one_line(out)
    assert code == 1 and str(home.root) in line and "not a folder" in line, line


# ------------------------------------------------------------------ a record breaking the schema
@pytest.mark.parametrize(("edit", "field"), [
    ((b',"outcome":"success"', b""), "outcome"),  # a field missing: another shape
    ((b'"complexity":0.4', b'"complexity":7'), "complexity"),  # the right type, out of range
])
def test_a_hand_edited_record_stops_learn_clearly_and_doctor_quarantines_it(home, tmp_path, edit, field):
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record(f"a{i}", i) for i in range(6)]))[0] == 0
    data = home.experiences.read_bytes()
    home.experiences.write_bytes(data.replace(*edit, 1))  # the first record, by hand
    code, out = cli(tmp_path, ["learn", "--yes", "--flush"])
    line = one_line(out)
    assert code == 1 and "daily-experiences.json" in line and "line 2" in line and field in line, line
    finding = next(f for f in doctor.check(home) if f.path == home.experiences and f.severity == "error")
    assert "line 2" in finding.problem and field in finding.problem
    assert cli(tmp_path, ["doctor", "--repair"])[0] == 0
    assert ids(home) == [f"a{i}" for i in range(1, 6)]
    assert len(list(home.quarantine_dir.glob("*.bad-records"))) == 1
    assert cli(tmp_path, ["learn", "--yes", "--flush"])[0] == 0


# ------------------------------------------------------------------ duplicate ids
def test_a_duplicate_id_is_refused_in_the_log_and_after_archiving(home, tmp_path):
    flags = ["collect", "--input", "fix it", "--domain", "backend", "--complexity", "0.3", "--routed-to",
             "system1", "--outcome", "success", "--latency-ms", "5", "--confidence", "0.9", "--id", "same"]
    assert cli(tmp_path, flags)[0] == 0
    code, out = cli(tmp_path, flags)
    assert code == 2 and "'same' is already stored" in one_line(out)
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record(f"r{i}", i) for i in range(5)]))[0] == 0
    assert cli(tmp_path, ["learn", "--yes", "--flush"])[0] == 0  # "same" moves to the archive
    code, out = cli(tmp_path, ["collect", "--stdin"], jsonl([record("new"), record("r3")]))
    assert code == 2 and "'r3' is already stored" in one_line(out)
    assert ids(home) == []
    rounds = sorted(p.name for p in home.snapshots_dir.iterdir() if p.is_dir())
    assert cli(tmp_path, ["rollback", rounds[0]])[0] == 0  # no record lost on the way back
    assert sorted(ids(home)) == sorted(["same", *(f"r{i}" for i in range(5))])


def test_the_id_index_is_rebuilt_when_it_does_not_match_the_log(home):
    log = ExperienceLog(home)
    from artibot.collector import collect_many

    collect_many([record(f"a{i}") for i in range(3)], home=home)
    home.experience_ids.unlink()  # lost, or out of date after a rewrite by hand
    with pytest.raises(Exception, match="'a1' is already stored"):
        collect_many([record("a1")], home=home)
    collect_many([record("b0")], home=home)
    assert [r["id"] for r in log.read()] == ["a0", "a1", "a2", "b0"]


def test_the_learner_moves_aside_what_killed_writes_left(home):
    from artibot.round.rollback import recover_interrupted

    home.ensure()
    (home.snapshots_dir / "r-bare").mkdir(parents=True)  # killed while taking its snapshot
    dead = home.root / ".thresholds.json.999999999.1.tmp"  # no such pid
    live = home.root / f".thresholds.json.{os.getpid()}.1.tmp"  # a write in progress
    dead.write_bytes(b"{}")
    live.write_bytes(b"{}")
    recover_interrupted(home)
    assert not dead.exists() and not (home.snapshots_dir / "r-bare").exists() and live.exists()
    assert sorted(p.name.split(".")[0] or p.name.split(".")[1] for p in home.quarantine_dir.iterdir()) == \
        ["snapshots__r-bare", "thresholds"]


# ------------------------------------------------------------------ a FIFO where a file should be
def _alarm(seconds: int):
    """In the forked child: a hang on a FIFO ends the child (exit 14) instead of the test run."""
    import signal

    return lambda: signal.alarm(seconds)


@pytest.mark.parametrize("where", [".daily-experiences.lock", "daily-experiences.json", "artibot.config.json",
                                   ".daily-experiences.ids"])
@pytest.mark.parametrize("argv", [["status"], ["collect", "--stdin"], ["learn", "--yes", "--flush"]])
def test_a_fifo_in_the_home_is_refused_with_a_sentence_never_waited_on(home, tmp_path, where, argv):
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record("a")]))[0] == 0
    path = home.root / where
    if path.exists():
        path.unlink()
    os.mkfifo(path, 0o600)
    out = tmp_path / "out.txt"
    code = run_child(argv, stdin=jsonl([record("b")]), output=out, inject=_alarm(20))
    text = " ".join(out.read_text().split())
    assert code != -14, f"{argv} hung on a FIFO at {where}"
    if (where == ".daily-experiences.ids") != (argv == ["collect", "--stdin"]) and where != "daily-experiences.json" \
            and where != ".daily-experiences.lock":
        return  # only an append reads the id index, and only collect does without the config
    assert code != 0 and str(path) in text and "not a regular file" in text, (code, text)


# ------------------------------------------------------------------ the home's own path
@pytest.mark.parametrize("argv", [["status", "--json"], ["doctor", "--json"], ["collect", "--stdin"], ["history"]])
def test_a_home_path_that_is_not_utf8_gets_a_sentence(tmp_path, monkeypatch, argv):
    monkeypatch.setenv("ARTIBOT_HOME", os.fsdecode(bytes(tmp_path) + b"/h\xff"))
    code, out = cli(tmp_path, argv, jsonl([record("a")]))
    line = one_line(out)
    assert code == 2 and "not valid UTF-8" in line and "ARTIBOT_HOME" in line, line


def test_a_symlinked_home_works_for_every_command_and_hook(tmp_path, monkeypatch):
    from tests.store.forked import run_child as run

    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    os.symlink(real, link)
    monkeypatch.setenv("ARTIBOT_HOME", str(link))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert run(["collect", "--stdin"], stdin=jsonl([record(f"r{i}", i) for i in range(3)])) == 0
    payload = {"session_id": "s1", "cwd": str(tmp_path), "transcript_path": "/dev/null"}
    for event, extra in (("session-start", {"source": "startup"}), ("user-prompt-submit", {"prompt": "fix the typo"}),
                         ("stop", {}), ("session-end", {"reason": "exit"})):
        assert run(["hook", event], stdin=orjson.dumps({**payload, **extra})) == 0
    assert len(ExperienceLog(Home(real)).read()) == 4  # three collected, one from the session
    for argv in (["status"], ["learn", "--yes", "--flush", "--quiet"], ["history"]):
        assert run(argv) == 0, argv
    out = tmp_path / "doctor.txt"
    assert run(["doctor"], output=out) == 0, out.read_text()
    hooks_log = real / "logs" / "hooks.log"
    assert not hooks_log.exists() or "Error" not in hooks_log.read_text()


def test_a_junk_file_in_the_archive_folder_is_reported_not_fatal_to_collect(home, tmp_path):
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record("a")]))[0] == 0
    (home.root / "archive").mkdir(mode=0o700)
    junk = home.root / "archive" / "notes.json"
    junk.write_text("my notes, not JSON")
    junk.chmod(0o600)
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record("b")]))[0] == 0
    assert cli(tmp_path, ["collect", "--stdin"], jsonl([record("a")]))[0] != 0  # still refused: in the log
    assert ids(home) == ["a", "b"]
    code, out = cli(tmp_path, ["doctor"])
    assert code == 1 and "notes.json" in out
    assert junk.read_text() == "my notes, not JSON"
