"""The append-only experience log: layout, appends, repairs, archive moves, links and modes."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import orjson
import pytest

from artibot.errors import CorruptFileError, StoreError, UnsafePathError, ValidationError
from artibot.experience import validate
from artibot.store import archive as archive_module
from artibot.store import documents, fs
from artibot.store.log import experiences as experiences_module
from artibot.store.log.experiences import EMPTY, MOVE_MARKER, ExperienceLog, encode, render
from artibot.store.home import Home
from tests.factories import record


def make(i: int, **extra) -> dict:
    return validate({**record(i, id=f"r{i:05d}", timestamp="2026-01-31T09:30:00+09:00", latency_ms=10,
                              confidence=0.8), **extra})


@pytest.fixture
def log(home) -> ExperienceLog:
    return ExperienceLog(home)


def ids(records) -> list[str]:
    return [r["id"] for r in records]


def seen_then_repaired(home: Home) -> list[str]:
    """What a reader sees (writing nothing), checked equal to what stays after a writer's repair."""
    before = home.experiences.read_bytes()
    seen = ids(ExperienceLog(home).read())
    assert home.experiences.read_bytes() == before  # readers never write
    ExperienceLog(home).repair()
    assert ids(ExperienceLog(home).read()) == seen
    return seen


def quarantined(home: Home) -> list[bytes]:
    if not home.quarantine_dir.exists():
        return []
    return [p.read_bytes() for p in sorted(home.quarantine_dir.iterdir())]


# ------------------------------------------------------------------ layout and appends
def test_a_missing_log_reads_as_empty_and_creates_nothing(home, log):
    assert log.read() == [] and log.count() == 0 and log.read_bytes() == EMPTY
    assert not home.root.exists()


def test_appends_keep_one_record_per_line_in_a_json_array(home, log):
    log.append([make(0)])
    log.append([make(1), make(2)])
    data = home.experiences.read_bytes()
    assert data == render([make(0), make(1), make(2)])
    assert data.startswith(b"[\n{") and data.endswith(b"}\n]\n")
    assert ids(json.loads(data)) == ["r00000", "r00001", "r00002"]  # any JSON reader loads it
    assert log.count() == 3


def test_an_empty_append_writes_nothing(home, log):
    assert log.append([]) == 0
    assert not home.root.exists()


def test_an_append_writes_only_its_own_bytes(home, log, monkeypatch):
    log.append([make(i) for i in range(3000)])
    inode = home.experiences.stat().st_ino
    written = []
    real = os.pwrite

    def spy(fd, data, offset):
        written.append(len(data))
        return real(fd, data, offset)

    monkeypatch.setattr(os, "pwrite", spy)
    log.append([make(3000)])
    monkeypatch.undo()
    line = len(encode(make(3000)))
    # the journal armed, the record alone, the journal blanked; then the id index: one
    # fingerprint and its header
    assert written == [64, len(b",") + line + len(b"\n]\n"), 64, 8, 64]
    assert home.experiences.stat().st_ino == inode  # appended in place, never replaced
    assert log.count() == 3001


def test_files_and_folders_are_private(home, log):
    log.append([make(0)])
    assert stat.S_IMODE(home.root.stat().st_mode) == 0o700
    assert stat.S_IMODE(home.experiences.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.experiences_lock.stat().st_mode) == 0o600


def test_the_umask_does_not_widen_modes(home, log):
    old = os.umask(0)
    try:
        log.append([make(0)])
    finally:
        os.umask(old)
    assert stat.S_IMODE(home.experiences.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.root.stat().st_mode) == 0o700


def test_unicode_and_newlines_inside_strings_stay_on_one_line(home, log):
    record = make(0, input="줄 하나\n줄 둘\r\n\u2028 end", note={"emoji": "🙂"})
    log.append([record])
    assert home.experiences.read_bytes().count(b"\n") == 3
    assert log.read() == [record]


# ------------------------------------------------------------------ torn tails (made by hand)
def start_torn_append(home: Home, log: ExperienceLog, batch: list[dict], keep: int) -> bytes:
    """Do what an append does, but stop after ``keep`` bytes of its payload, as a kill -9 would."""
    path = home.experiences
    size = path.stat().st_size
    start = size - 2
    payload = b"".join(b"," + encode(r) + b"\n" for r in batch) + b"]\n"
    journal = f"{start} {path.stat().st_ino}".encode().ljust(64)
    with open(home.experiences_lock, "r+b") as fh:
        fh.write(journal)
    with open(path, "r+b") as fh:
        fh.seek(start)
        fh.write(payload[:keep])
        fh.truncate(start + keep)
    return payload[:keep]


@pytest.mark.parametrize("keep", [1, 2, 40, 150, 300, 400])
def test_a_torn_batch_is_cut_whole_into_quarantine(home, log, keep):
    log.append([make(0), make(1)])
    batch = [make(2), make(3), make(4)]
    torn = start_torn_append(home, log, batch, keep)
    assert not home.experiences.read_bytes().endswith(b"\n]\n")
    assert seen_then_repaired(home) == ["r00000", "r00001"]
    assert quarantined(home) == [torn]
    assert home.experiences.read_bytes() == render([make(0), make(1)])


def test_a_torn_first_append_leaves_an_empty_array(home, log):
    log.append([make(0)])
    log.move_to_archive(["r00000"], "round-1")
    assert home.experiences.read_bytes() == EMPTY
    path = home.experiences
    payload = encode(make(1)) + b"\n]\n"
    with open(home.experiences_lock, "r+b") as fh:
        fh.write(f"2 {path.stat().st_ino}".encode().ljust(64))
    with open(path, "r+b") as fh:
        fh.seek(2)
        fh.write(payload[:30])
    assert seen_then_repaired(home) == []
    assert path.read_bytes() == EMPTY
    assert quarantined(home) == [payload[:30]]


def test_the_next_writer_repairs_before_appending(home, log):
    log.append([make(0)])
    start_torn_append(home, log, [make(1)], 25)
    writer = ExperienceLog(home)
    writer.append([make(2)])
    assert writer.last_repair is not None and writer.last_repair.cut_bytes == 25
    assert ids(writer.read()) == ["r00000", "r00002"]


def test_without_a_journal_every_complete_line_is_kept(home, log):
    log.append([make(0)])
    path = home.experiences
    data = path.read_bytes()[:-2] + b"," + encode(make(1)) + b"\n," + encode(make(2))[:20]
    path.write_bytes(data)
    home.experiences_lock.write_bytes(b"")  # journal lost
    assert seen_then_repaired(home) == ["r00000", "r00001"]
    assert quarantined(home) == [b"," + encode(make(2))[:20]]


def test_a_journal_for_another_file_is_ignored(home, log):
    log.append([make(0), make(1)])
    path = home.experiences
    home.experiences_lock.write_bytes(f"2 {path.stat().st_ino + 1}".encode().ljust(64))
    path.write_bytes(path.read_bytes()[:-2] + b",{\"id\":")
    assert ids(ExperienceLog(home).read()) == ["r00000", "r00001"]


def test_a_missing_closing_bracket_is_restored_without_quarantine(home, log):
    log.append([make(0)])
    path = home.experiences
    path.write_bytes(path.read_bytes()[:-2])
    home.experiences_lock.write_bytes(b"")
    assert seen_then_repaired(home) == ["r00000"]
    assert path.read_bytes().endswith(b"\n]\n") and quarantined(home) == []


# ------------------------------------------------------------------ damage that is not a torn tail
DAMAGED = [
    pytest.param(lambda good: good.replace(b'"r00001"', b'"r00001', 1), id="middle-line-broken-intact-tail"),
    pytest.param(lambda good: good.replace(b"\n,", b"\n,garbage\n,", 1)[:-10], id="middle-and-torn-tail"),
    pytest.param(lambda good: b"garbage" + good, id="bad-header"),
    pytest.param(lambda good: b"", id="empty-file"),
    pytest.param(lambda good: b"\x00" * 64, id="zeros"),
    pytest.param(lambda good: b'{"records": []}\n', id="an-object"),
]


@pytest.mark.parametrize("damage", DAMAGED)
def test_damage_is_reported_and_left_untouched(home, log, damage):
    log.append([make(i) for i in range(4)])
    home.experiences_lock.write_bytes(b"")
    bad = damage(home.experiences.read_bytes())
    home.experiences.write_bytes(bad)
    reader = ExperienceLog(home)
    with pytest.raises(CorruptFileError) as info:
        reader.read()
    assert info.value.path == home.experiences and "doctor" in str(info.value)
    assert home.experiences.read_bytes() == bad
    assert quarantined(home) == []


def test_damage_in_the_middle_is_not_cut_by_a_writer(home, log):
    log.append([make(i) for i in range(4)])
    home.experiences_lock.write_bytes(b"")
    bad = home.experiences.read_bytes().replace(b"\n,", b"\n,garbage\n,", 1)[:-10]
    home.experiences.write_bytes(bad)
    with pytest.raises(CorruptFileError):
        ExperienceLog(home).append([make(9)])
    assert home.experiences.read_bytes() == bad


# ------------------------------------------------------------------ links planted in the home
def test_a_symlink_in_place_of_the_log_is_refused(home, log, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_bytes(b"do not touch")
    home.ensure()
    os.symlink(target, home.experiences)
    with pytest.raises(UnsafePathError):
        log.append([make(0)])
    with pytest.raises(UnsafePathError):
        log.read()
    assert target.read_bytes() == b"do not touch"
    assert os.path.islink(home.experiences)


def test_a_symlink_in_place_of_the_lock_is_refused(home, log, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_bytes(b"do not touch")
    home.ensure()
    os.symlink(target, home.experiences_lock)
    with pytest.raises(UnsafePathError):
        log.append([make(0)])
    assert target.read_bytes() == b"do not touch"


def test_a_dangling_symlink_is_refused_and_nothing_is_created(home, log, tmp_path):
    home.ensure()
    os.symlink(tmp_path / "nowhere.json", home.experiences)
    with pytest.raises(UnsafePathError):
        log.append([make(0)])
    assert not (tmp_path / "nowhere.json").exists()


def test_a_symlinked_home_is_refused(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    os.symlink(real, tmp_path / "link")
    with pytest.raises(UnsafePathError):
        ExperienceLog(Home(tmp_path / "link")).append([make(0)])


# ------------------------------------------------------------------ move to archive
def test_move_to_archive_keeps_every_record(home, log):
    log.append([make(i) for i in range(6)])
    moved = log.move_to_archive(["r00001", "r00003", "nope"], "round-1", meta={"round": 1})
    assert moved == 2
    assert ids(log.read()) == ["r00000", "r00002", "r00004", "r00005"]
    archive = orjson.loads((home.archive_dir / "round-1.json").read_bytes())
    assert archive["schema_version"] == 1 and archive["meta"] == {"round": 1}
    assert ids(archive["records"]) == ["r00001", "r00003"]
    assert not (home.archive_dir / MOVE_MARKER).exists()
    log.append([make(6)])
    assert ids(log.read())[-1] == "r00006"


def test_move_to_archive_never_overwrites_an_archive(home, log):
    log.append([make(0), make(1)])
    log.move_to_archive(["r00000"], "round-1")
    before = (home.archive_dir / "round-1.json").read_bytes()
    with pytest.raises(StoreError, match="already exists"):
        log.move_to_archive(["r00001"], "round-1")
    assert (home.archive_dir / "round-1.json").read_bytes() == before
    assert ids(log.read()) == ["r00001"]


def test_nothing_to_move_writes_nothing(home, log):
    log.append([make(0)])
    assert log.move_to_archive([], "a") == 0 and log.move_to_archive(["zzz"], "b") == 0
    assert not (home.archive_dir / "a.json").exists() and not (home.archive_dir / "b.json").exists()


class Crash(BaseException):
    """Stands in for the process dying at this point."""


def crash_when_writing(monkeypatch, name: str, *, after: bool = False) -> None:
    """Make the atomic write of the file called ``name`` die just before (or just after) it happens."""
    real = fs.atomic_write_bytes

    def write(path, data, **kwargs):
        if Path(path).name == name and not after:
            raise Crash
        real(path, data, **kwargs)
        if Path(path).name == name:
            raise Crash

    for module in (experiences_module, documents, archive_module):  # every module the move may write through
        if hasattr(module, "atomic_write_bytes"):
            monkeypatch.setattr(module, "atomic_write_bytes", write)


@pytest.mark.parametrize("after", [False, True], ids=["before-log-rewrite", "after-archive-write"])
def test_a_crash_after_the_archive_write_is_finished_by_the_next_open(home, log, monkeypatch, after):
    log.append([make(i) for i in range(5)])
    if after:
        crash_when_writing(monkeypatch, "round-1.json", after=True)
    else:
        crash_when_writing(monkeypatch, "daily-experiences.json")
    with pytest.raises(Crash):
        log.move_to_archive(["r00000", "r00002"], "round-1")
    monkeypatch.undo()
    assert (home.archive_dir / MOVE_MARKER).exists()
    assert (home.archive_dir / "round-1.json").exists()
    assert home.experiences.read_bytes().count(b"\n") == 5 + 2  # the file still holds them...
    left = ExperienceLog(home).read()  # ...a reader sees the move finished, writing nothing...
    assert ids(left) == ["r00001", "r00003", "r00004"]
    assert (home.archive_dir / MOVE_MARKER).exists()
    ExperienceLog(home).repair()  # ...and the next writer finishes it
    assert ids(ExperienceLog(home).read()) == ids(left)
    assert home.experiences.read_bytes().count(b"\n") == 3 + 2
    assert not (home.archive_dir / MOVE_MARKER).exists()
    archived = ids(orjson.loads((home.archive_dir / "round-1.json").read_bytes())["records"])
    assert sorted(archived + ids(left)) == [f"r{i:05d}" for i in range(5)]


def test_a_crash_before_the_archive_write_leaves_the_log_as_it_was(home, log, monkeypatch):
    log.append([make(i) for i in range(3)])
    before = home.experiences.read_bytes()
    crash_when_writing(monkeypatch, "round-1.json")
    with pytest.raises(Crash):
        log.move_to_archive(["r00000"], "round-1")
    monkeypatch.undo()
    assert ids(ExperienceLog(home).read()) == ["r00000", "r00001", "r00002"]
    ExperienceLog(home).repair()
    assert home.experiences.read_bytes() == before
    assert not (home.archive_dir / MOVE_MARKER).exists()
    assert not (home.archive_dir / "round-1.json").exists()


def test_a_crash_after_the_log_rewrite_is_harmless(home, log, monkeypatch):
    log.append([make(i) for i in range(3)])
    real = os.unlink

    def die_on_marker(path, *args, **kwargs):
        if Path(path).name == MOVE_MARKER:
            raise Crash
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", die_on_marker)
    with pytest.raises(Crash):
        log.move_to_archive(["r00001"], "round-1")
    monkeypatch.undo()
    assert ids(ExperienceLog(home).read()) == ["r00000", "r00002"]
    ExperienceLog(home).repair()
    assert ids(ExperienceLog(home).read()) == ["r00000", "r00002"]
    assert not (home.archive_dir / MOVE_MARKER).exists()


def test_a_move_followed_by_its_restore_gives_the_same_file(home, log):
    log.append([make(i) for i in range(6)])
    before = home.experiences.read_bytes()
    log.move_to_archive(["r00001", "r00004"], "round-1")
    assert log.restore_archive("round-1") == 2
    assert home.experiences.read_bytes() == before
    assert log.restore_archive("round-1") == 0  # retired: restoring again adds nothing
    [retired] = home.archive_dir.glob("round-1.rolled-back-*.json")
    assert len(orjson.loads(retired.read_bytes())["records"]) == 2  # kept, no longer live


def test_a_pretty_printed_array_from_another_writer_is_adopted_not_cut(tmp_path) -> None:
    """The old JavaScript plugin wrote the log with JSON.stringify(..., null, 2) and no newline."""
    import json as _json

    from artibot.store.log.experiences import ExperienceLog
    from artibot.store.home import Home

    home = Home(tmp_path / "h").ensure()
    old = [{"id": "old1", "input": "a"}, {"id": "old2", "input": "b"}]
    original = _json.dumps(old, indent=2).encode()
    home.experiences.write_bytes(original)
    log = ExperienceLog(home)
    log.append([{"id": "new1"}])
    assert [r["id"] for r in orjson.loads(log.read_bytes())] == ["old1", "old2", "new1"]
    kept = list(home.quarantine_dir.glob("*.relaid"))
    assert len(kept) == 1 and kept[0].read_bytes() == original


# ------------------------------------------------------------------ the journal's life
def test_the_journal_is_blank_after_a_successful_append(home, log, monkeypatch):
    synced = []
    real = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: synced.append(os.readlink(f"/proc/self/fd/{fd}")) or real(fd))
    log.append([make(0), make(1)])
    monkeypatch.undo()
    assert home.experiences_lock.read_bytes()[:64].strip() == b""
    # armed and synced before the write, the data synced, then blanked (unsynced: a stale
    # journal never applies, see test_a_stale_journal_never_cuts_a_complete_append)
    assert [Path(p).name for p in synced] == [".daily-experiences.lock", "daily-experiences.json"]


def test_a_power_cut_mid_append_is_cut_at_the_journal_even_when_the_size_is_complete(home, log):
    log.append([make(0), make(1)])
    path = home.experiences
    start = path.stat().st_size - 2
    payload = b"," + encode(make(2)) + b"\n," + encode(make(3)) + b"\n]\n"
    # the journal reached the disk, the file grew, but the data blocks did not: zeros
    home.experiences_lock.write_bytes(f"{start} {path.stat().st_ino} {start + len(payload)}".encode().ljust(64))
    with open(path, "r+b") as fh:
        fh.seek(start)
        fh.write(b"\x00" * len(payload))
    assert seen_then_repaired(home) == ["r00000", "r00001"]


def test_a_stale_journal_never_cuts_a_complete_append(home, log):
    """The review's repro with the journal left armed (as if its blanking was lost in a power
    cut): bytes past the journalled append's end are not the append's, so only they go."""
    log.append([make(i) for i in range(3)])
    before = home.experiences_lock.read_bytes()
    size = home.experiences.stat().st_size
    log.append([make(i) for i in range(3, 8)])
    end = home.experiences.stat().st_size
    home.experiences_lock.write_bytes(f"{size - 2} {home.experiences.stat().st_ino} {end}".encode().ljust(64))
    data = home.experiences.read_bytes()
    home.experiences.write_bytes(data[:-2] + b',{"id":"torn","input":"half')
    assert seen_then_repaired(home) == [f"r{i:05d}" for i in range(8)]
    assert quarantined(home) == [b',{"id":"torn","input":"half'] and before.strip() == b""


def _torn_out_of_page_order(home: Home, log: ExperienceLog, batch: int) -> tuple[list[str], list[str]]:
    """An append whose last page (with the closing bracket) reached the disk while the page
    with its start still holds the old bytes and zeros: plausible with ext4 data=ordered.
    Returns (ids stored before, ids of the batch)."""
    from artibot.store.log import log_journal

    old = [make(i) for i in range(3)]
    log.append(old)
    path = home.experiences
    size = path.stat().st_size
    start = size - 2
    records = [make(100 + i, input="x" * 300) for i in range(batch)]
    payload = b"," + b"\n,".join(encode(r) for r in records) + b"\n]\n"
    assert len(payload) > 3 * 4096  # the batch spans pages
    lock = os.open(home.experiences_lock, os.O_RDWR)
    log_journal.arm(lock, start, path.stat().st_ino, start + len(payload), durable=False)
    os.close(lock)
    with open(path, "r+b") as fh:
        fh.seek(start)
        fh.write(payload)
        page_end = (start // 4096 + 1) * 4096  # the append's first page: old bytes, then zeros
        fh.seek(start)
        fh.write(b"]\n" + b"\x00" * (page_end - start - 2))
    assert path.read_bytes().endswith(b"\n]\n")
    return ids(old), ids(records)


@pytest.mark.parametrize("then", ["read", "append", "repair"])
def test_an_append_torn_out_of_page_order_is_cut_whole_by_its_journal(home, log, then):
    before, batch = _torn_out_of_page_order(home, log, 30)
    if then == "read":
        assert ids(ExperienceLog(home).read()) == before
        assert ExperienceLog(home).count() == len(before)
    elif then == "append":
        ExperienceLog(home).append([make(500)])
        assert ids(ExperienceLog(home).read()) == before + ["r00500"]
    else:
        assert ExperienceLog(home).repair() is not None
        assert ids(ExperienceLog(home).read()) == before
    if then != "read":
        [kept] = quarantined(home)
        assert b"r00129" in kept and kept.startswith(b"]\n\x00")  # the whole append, as it was on disk


def test_doctor_sees_an_append_torn_out_of_page_order_and_repairs_it_whole(home, log):
    from artibot.store import doctor

    before, batch = _torn_out_of_page_order(home, log, 30)
    [finding] = [f for f in doctor.check(home) if f.path == home.experiences]
    assert finding.severity == "warning" and "interrupted" in finding.problem
    doctor.repair(home)
    assert ids(ExperienceLog(home).read()) == before  # all of the batch gone, none kept half
    assert [f for f in doctor.check(home) if f.severity != "ok"] == []


def test_a_finished_append_with_its_journal_left_armed_is_kept(home, log):
    from artibot.store.log import log_journal

    log.append([make(0)])
    size = home.experiences.stat().st_size
    log.append([make(i) for i in range(1, 4)])
    lock = os.open(home.experiences_lock, os.O_RDWR)  # as if a kill came before the journal's blanking
    log_journal.arm(lock, size - 2, home.experiences.stat().st_ino, home.experiences.stat().st_size, durable=False)
    os.close(lock)
    assert ids(ExperienceLog(home).read()) == [f"r{i:05d}" for i in range(4)]
    ExperienceLog(home).append([make(9)])
    assert ids(ExperienceLog(home).read()) == [f"r{i:05d}" for i in (0, 1, 2, 3, 9)] and quarantined(home) == []


@pytest.mark.parametrize("sparse", [True, False], ids=["sparse", "written-zeros"])
def test_a_zero_filled_tail_is_described_in_quarantine_not_copied(home, log, sparse):
    log.append([make(0), make(1)])
    path = home.experiences
    size = path.stat().st_size
    zeros = 32 << 20
    with open(path, "r+b") as fh:
        if sparse:
            fh.truncate(size + zeros)  # a file grown whose data never landed
        else:
            fh.seek(size)
            for _ in range(zeros >> 20):
                fh.write(b"\0" * (1 << 20))
    ExperienceLog(home).append([make(2)])
    assert ids(ExperienceLog(home).read()) == ["r00000", "r00001", "r00002"]
    [kept] = [p for p in home.quarantine_dir.iterdir() if p.name.endswith(".torn")]
    described = orjson.loads(kept.with_name(kept.name + ".zeros.json").read_bytes())
    assert kept.stat().st_size < 1 << 17 and kept.read_bytes().startswith(b"]\n")
    assert described["bytes"] == zeros + 2 and sum(n for _, n in described["zero_runs"]) + kept.stat().st_size \
        == described["bytes"]


def test_without_a_boot_id_the_id_index_is_synced_as_written(home, log, monkeypatch, tmp_path):
    """Where a restart cannot be told, an unsynced index could be trusted after a power cut
    that lost part of it: each index write is synced instead."""
    from artibot.store.log import id_index

    monkeypatch.setattr(id_index, "BOOT_ID", tmp_path / "no-such-file")
    synced: list[str] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(os.readlink(f"/proc/self/fd/{fd}")) or real(fd))
    log.append([make(0)], given_ids=["r00000"])
    assert any(Path(p).name == ".daily-experiences.ids" for p in synced)
    assert home.experience_ids.read_bytes()[:64].split()[2] == b"-"


def test_an_id_index_from_an_earlier_boot_is_rebuilt(home, log, monkeypatch, tmp_path):
    from artibot.store.log import id_index

    boot = tmp_path / "boot_id"
    boot.write_text("boot-a\n")
    monkeypatch.setattr(id_index, "BOOT_ID", boot)
    log.append([make(0)], given_ids=["r00000"])
    data = home.experience_ids.read_bytes()
    home.experience_ids.write_bytes(data[:64])  # the header page kept, the fingerprints lost
    boot.write_text("boot-b\n")
    with pytest.raises(ValidationError, match="r00000"):
        log.append([make(0)], given_ids=["r00000"])
    assert ids(log.read()) == ["r00000"]
