"""A log with a 2 GiB hole of NUL bytes where records should be — right after the ``[`` line,
between two records, or glued to the last record before the closing bracket — as a crashed
copy or a file-system repair leaves it. Every command finishes, reports or repairs, and
loses no acknowledged record.

The holes are sparse (no disk) and each command runs in a forked child whose memory is
capped (a read of the hole fails there at once instead of swapping) and whose reads are
counted: a command that read the hole instead of stepping over it exits with
:data:`READ_TOO_MUCH`. No timing is asserted.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot.store.home import Home
from artibot.store.log.experiences import ExperienceLog
from artibot.store.log.log_layout import render
from tests.store.forked import run_child

HOLE = 2 << 30
READ_BUDGET = 64 << 20
"""Bytes a command may read: the log's records are a few KiB; the hole is 2 GiB."""
READ_TOO_MUCH = 87
MEMORY_HEADROOM = 512 << 20
WHERE = ("start", "between", "middle")


def record(rid: str, n: int) -> dict:
    return {"id": rid, "input": f"rename the helper in module {n}", "domain": "backend", "complexity": 0.4,
            "routed_to": "system1", "outcome": "success", "latency_ms": 12, "confidence": 0.8,
            "timestamp": "2026-01-05T10:00:00+00:00"}


IDS = [f"r{i:03d}" for i in range(12)]
NEW = {"input": "add a retry to the client", "domain": "backend", "complexity": 0.3, "routed_to": "system1",
       "outcome": "success", "latency_ms": 9, "confidence": 0.7}


def write_damaged(path: Path, where: str, hole: int = HOLE, *, sparse: bool = True) -> int:
    """The log of :data:`IDS` with ``hole`` NUL bytes at ``where``; returns the hole's offset."""
    data = render([record(rid, i) for i, rid in enumerate(IDS)])
    at = {"start": 2,  # right after the '[' line: the first record's line starts with the hole
          "between": data.index(b"\n,", len(data) // 2) + 1,  # after a record's newline, before ",{"
          "middle": len(data) - 3,  # glued to the last record, then the closing bracket's line
          "before-bracket": len(data) - 2}[where]  # after the last record's newline, then "]"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data[:at])
        if sparse:
            fh.seek(at + hole)
        else:
            for _ in range(hole >> 20):
                fh.write(bytes(1 << 20))
        fh.write(data[at:])
    os.chmod(path, 0o600)
    return at


def bounded(no_seek_data: bool = False, budget: int = READ_BUDGET):
    """An ``inject`` for the child: memory capped at what it holds plus :data:`MEMORY_HEADROOM`,
    reads past :data:`READ_BUDGET` end it (exit :data:`READ_TOO_MUCH`); ``no_seek_data``:
    a file system without ``SEEK_DATA``/``SEEK_HOLE``."""

    def inject() -> None:
        import resource

        with open("/proc/self/status") as fh:
            held = next(int(line.split()[1]) << 10 for line in fh if line.startswith("VmData:"))
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        resource.setrlimit(resource.RLIMIT_DATA, (held + MEMORY_HEADROOM, hard))
        done = 0

        def counted(real):
            def call(*args, **kwargs):
                nonlocal done
                out = real(*args, **kwargs)
                done += len(out)
                if done > budget:
                    os._exit(READ_TOO_MUCH)
                return out
            return call

        os.pread = counted(os.pread)
        os.read = counted(os.read)
        if no_seek_data:
            real_lseek = os.lseek

            def lseek(fd, pos, how):
                if how in (os.SEEK_DATA, os.SEEK_HOLE):
                    raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
                return real_lseek(fd, pos, how)

            os.lseek = lseek

    return inject


def cli(tmp_path: Path, argv: list[str], stdin: bytes = b"", no_seek_data: bool = False) -> tuple[int, str]:
    out = tmp_path / "out.txt"
    budget = 16 * READ_BUDGET if no_seek_data else READ_BUDGET  # the zeros are read there, a chunk at a time
    code = run_child(argv, stdin=stdin, output=out, inject=bounded(no_seek_data, budget))
    assert code != READ_TOO_MUCH, f"{argv} read more than {budget} bytes"
    return code, out.read_text()


@pytest.fixture
def home(artibot_home, tmp_path, monkeypatch) -> Home:
    monkeypatch.setenv("HOME", str(tmp_path))
    return Home(artibot_home)


def stored_ids(home: Home) -> list[str]:
    return [r["id"] for r in ExperienceLog(home).read()]


def kept_aside(home: Home) -> list[Path]:
    return sorted(home.quarantine_dir.iterdir()) if home.quarantine_dir.is_dir() else []


@pytest.mark.parametrize("where", WHERE)
def test_status_and_learn_report_the_hole_and_leave_the_log_alone(home, tmp_path, where):
    at = write_damaged(home.experiences, where)
    size = home.experiences.stat().st_size
    for argv in (["status", "--json"], ["status"], ["learn", "--yes", "--flush"]):
        code, out = cli(tmp_path, argv)
        assert code == 1 and "Traceback" not in out, (argv, out)
        assert f"2.0 GiB of zero bytes from byte {at:,}" in out and "artibot doctor --repair" in out, (argv, out)
    assert home.experiences.stat().st_size == size and kept_aside(home) == []  # readers wrote nothing


@pytest.mark.parametrize("where", WHERE)
def test_doctor_reports_the_hole_and_its_repair_keeps_every_record(home, tmp_path, where):
    at = write_damaged(home.experiences, where)
    size = home.experiences.stat().st_size
    code, out = cli(tmp_path, ["doctor"])
    assert code == 1 and f"is damaged (it holds 2.0 GiB of zero bytes from byte {at:,})" in out, out
    assert f"({len(IDS)} records)" in out, out
    assert home.experiences.stat().st_size == size and kept_aside(home) == []

    code, out = cli(tmp_path, ["doctor", "--repair"])
    assert code == 0, out
    assert stored_ids(home) == IDS
    kept, described = kept_aside(home)
    assert described.name == kept.name + ".zeros.json" and kept.name.endswith(".damaged")
    doc = orjson.loads(described.read_bytes())
    assert doc["bytes"] == size and at <= doc["zero_runs"][0][0] < at + (1 << 16) and \
        sum(n for _, n in doc["zero_runs"]) + kept.stat().st_size == size
    assert kept.stat().st_size < 1 << 20 and kept.stat().st_blocks * 512 < 1 << 20  # the hole is not copied
    assert b"\0" not in home.experiences.read_bytes()
    assert cli(tmp_path, ["status", "--json"])[0] == 0 and cli(tmp_path, ["doctor"])[0] == 0


@pytest.mark.parametrize("where", WHERE)
def test_collect_appends_beside_the_hole_and_the_repair_keeps_it_too(home, tmp_path, where):
    write_damaged(home.experiences, where)
    code, out = cli(tmp_path, ["collect", "--stdin"], orjson.dumps({**NEW, "id": "new"}))
    assert code == 0, out
    with open(home.experiences, "rb") as fh:
        fh.seek(-4096, os.SEEK_END)
        assert b'"id":"new"' in fh.read()
    code, out = cli(tmp_path, ["collect", "--stdin"], orjson.dumps({**NEW, "id": "r003"}))
    assert code == 2 and "already stored" in out, out  # the ids beside the hole still count
    assert cli(tmp_path, ["doctor", "--repair"])[0] == 0
    assert stored_ids(home) == [*IDS, "new"]


def test_a_hole_before_the_closing_bracket_is_a_torn_tail_the_writer_cuts(home, tmp_path):
    """Records, each line complete, then the hole and "]": a tail no append made, cut by the
    next writer into quarantine/ as a description, as with a zero-filled tail."""
    write_damaged(home.experiences, "before-bracket")
    code, out = cli(tmp_path, ["status", "--json"])
    assert code == 0 and orjson.loads(out)["unprocessed"] == len(IDS), out
    code, out = cli(tmp_path, ["doctor"])
    assert "the last append was interrupted" in out, out
    assert cli(tmp_path, ["collect", "--stdin"], orjson.dumps({**NEW, "id": "new"}))[0] == 0
    assert stored_ids(home) == [*IDS, "new"]
    [kept] = [p for p in kept_aside(home) if p.name.endswith(".torn")]
    assert kept.stat().st_size < 1 << 17


@pytest.mark.parametrize("where", ["start", "middle"])
def test_without_seek_data_zeros_are_stepped_over_a_chunk_at_a_time(home, tmp_path, where):
    """A file system without SEEK_DATA/SEEK_HOLE, and zeros written (not a hole): the same
    reports and the same repair, the zeros read a chunk at a time."""
    at = write_damaged(home.experiences, where, 16 << 20, sparse=False)
    code, out = cli(tmp_path, ["status", "--json"], no_seek_data=True)
    assert code == 1 and f"16.0 MiB of zero bytes from byte {at:,}" in out, out
    code, out = cli(tmp_path, ["doctor", "--repair"], no_seek_data=True)
    assert code == 0, out
    assert stored_ids(home) == IDS


# --------------------------------------------------------------------- fragments, whatever the chunks
@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"{}", b"\n", b"\0", b"\0" * 5, b'{"id":"x"}']), max_size=40),
       st.integers(1, 9), st.integers(0, 2))
def test_fragments_are_the_runs_without_a_newline_or_a_nul(pieces, chunk, hole_at):
    """Read any number of bytes at a time, with or without a sparse hole, the fragments and the
    zero runs are those of the whole bytes."""
    from artibot.store.log import log_tail, log_zeros

    data = b"".join(pieces)
    hole = 3 * 4096 if hole_at else 0  # a real hole: blocks never written
    at = len(data) // 2 if hole_at == 1 else len(data)
    whole = data[:at] + bytes(hole) + data[at:]
    want = [(m.start(), m.group(), whole[m.end():m.end() + 1] == b"\n") for m in re.finditer(rb"[^\n\0]+", whole)]
    want_zeros = [[m.start(), m.end() - m.start()] for m in re.finditer(rb"\0+", whole)]
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as m:
        m.setattr(log_tail, "CHUNK", chunk)
        path = Path(tmp) / "log"
        with open(path, "wb") as fh:
            fh.write(data[:at])
            fh.seek(at + hole)
            fh.write(data[at:])
            fh.truncate(len(whole))
        fd = os.open(path, os.O_RDONLY)
        try:
            zeros: list[list[int]] = []
            assert list(log_zeros.fragments(fd, 0, len(whole), zeros)) == want
            assert zeros == want_zeros
            assert log_zeros.first_zero(fd, 0, len(whole)) == (want_zeros[0][0] if want_zeros else None)
        finally:
            os.close(fd)


def test_learn_cuts_a_hole_before_the_closing_bracket_and_learns_every_record(home, tmp_path):
    write_damaged(home.experiences, "before-bracket")
    code, out = cli(tmp_path, ["learn", "--yes", "--flush"])
    assert code == 0, out
    archived = [r["id"] for p in sorted(home.archive_dir.glob("*.json"))
                for r in orjson.loads(p.read_bytes())["records"]]
    assert sorted(archived + stored_ids(home)) == IDS
    [kept] = [p for p in kept_aside(home) if p.name.endswith(".torn")]
    assert kept.stat().st_size < 1 << 17
