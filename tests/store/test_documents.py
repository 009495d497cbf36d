"""State documents: schema versions, migrations, atomic writes; damaged files are reported, never touched."""

from __future__ import annotations

import os
import stat

import orjson
import pytest

from artibot.errors import StoreError

from artibot.errors import CorruptFileError, UnsafePathError
from artibot.store import documents
from artibot.store.learned import state_files as state
from artibot.store.documents import dump_document, read_document, write_document
from artibot.store.fs import atomic_write_bytes
from artibot.store.home import Home
from tests.factories import write_pattern_stats, write_thresholds

GOOD = {
    "thresholds": {"default": 0.4, "domains": {"frontend": 0.35}},
    "system1-patterns": {"patterns": [{"key": "frontend:css", "status": "active"}]},
    "pattern-stats": {"patterns": {"frontend:css": {"s2_streak": 2}}},
    "learning-log": {"rounds": [{"round_id": "r1"}]},
    "transfer-log": {"events": [{"pattern": "frontend:css", "action": "promote"}]},
    "pending-review": {"round_id": "r2", "proposal": {"thresholds": {}}},
}

# kind -> (path on the home, reader)
FILES = {
    "thresholds": (lambda h: h.thresholds, state.read_thresholds),
    "system1-patterns": (lambda h: h.system1_patterns, state.read_system1_patterns),
    "pattern-stats": (lambda h: h.pattern_stats, state.read_pattern_stats),
    "learning-log": (lambda h: h.learning_log, state.read_learning_log),
    "transfer-log": (lambda h: h.transfer_log, state.read_transfer_log),
    "pending-review": (lambda h: h.pending_review, state.read_pending),
}


def good_bytes(kind: str) -> bytes:
    return dump_document(GOOD[kind], kind)


DAMAGE = {
    "not-json": lambda kind: b"{not json",
    "truncated": lambda kind: good_bytes(kind)[: len(good_bytes(kind)) // 2],
    "empty": lambda kind: b"",
    "nul-bytes": lambda kind: b"\x00" * 100,
    "array": lambda kind: b"[1, 2, 3]\n",
    "no-version": lambda kind: orjson.dumps(GOOD[kind]),
    "version-string": lambda kind: orjson.dumps({**GOOD[kind], "schema_version": "1"}),
    "version-bool": lambda kind: orjson.dumps({**GOOD[kind], "schema_version": True}),
    "foreign-newer": lambda kind: orjson.dumps({**GOOD[kind], "schema_version": 99}),
    "unknown-older": lambda kind: orjson.dumps({**GOOD[kind], "schema_version": 0}),
    "wrong-shape": lambda kind: orjson.dumps({"schema_version": 1, "something": "else"}),
}

SCHEMA_FAILURES = {
    "thresholds": [{"default": 2, "domains": {}}, {"default": 0.4, "domains": {"x": "high"}},
                   {"default": True, "domains": {}}, {"default": 0.4, "domains": []}],
    "system1-patterns": [{"patterns": {}}, {"patterns": [{"key": 1, "status": "active"}]},
                         {"patterns": [{"key": "a"}]}],
    "pattern-stats": [{"patterns": []}],
    "learning-log": [{"rounds": {}}],
    "transfer-log": [{"events": "none"}],
    "pending-review": [{"round_id": 3, "proposal": {}}, {"round_id": "r"}],
}


def place(home: Home, kind: str, data: bytes):
    path = FILES[kind][0](home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.chmod(path, 0o600)
    return path


@pytest.mark.parametrize("kind", list(FILES))
def test_state_files_round_trip(home, kind):
    path = place(home, kind, good_bytes(kind))
    doc = FILES[kind][1](home)
    if isinstance(doc, list):  # the logs return their entries
        assert doc == next(iter(GOOD[kind].values()))
    else:
        assert {k: v for k, v in doc.items() if k != "schema_version"} == GOOD[kind]
    assert path.read_bytes().startswith(b'{\n  "schema_version": 1')


@pytest.mark.parametrize("kind", list(FILES))
def test_missing_state_files_read_as_absent(home, kind):
    assert FILES[kind][1](home) in (None, [])


@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("kind", list(FILES))
def test_a_damaged_state_file_is_reported_and_left_byte_for_byte(home, kind, damage):
    bad = DAMAGE[damage](kind)
    path = place(home, kind, bad)
    before = os.stat(path)
    with pytest.raises(CorruptFileError) as info:
        FILES[kind][1](home)
    assert info.value.path == path
    assert str(path) in str(info.value) and "left untouched" in str(info.value)
    assert path.read_bytes() == bad
    after = os.stat(path)
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns, before.st_size)
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == []  # no temp left behind
    if damage == "foreign-newer":
        assert "upgrade artibot" in str(info.value)


@pytest.mark.parametrize("kind,doc", [(k, d) for k, docs in SCHEMA_FAILURES.items() for d in docs])
def test_a_state_file_failing_its_schema_is_reported(home, kind, doc):
    bad = dump_document(doc, kind)
    path = place(home, kind, bad)
    with pytest.raises(CorruptFileError) as info:
        FILES[kind][1](home)
    assert info.value.path == path and info.value.problem
    assert path.read_bytes() == bad


def test_a_symlink_in_place_of_a_state_file_is_refused(home, tmp_path):
    target = tmp_path / "elsewhere.json"
    original = good_bytes("thresholds")
    target.write_bytes(original)
    os.symlink(target, home.ensure().thresholds)
    with pytest.raises(UnsafePathError):
        state.read_thresholds(home)
    with pytest.raises(UnsafePathError):
        write_thresholds(home, {"default": 0.5, "domains": {}})
    assert target.read_bytes() == original and os.path.islink(home.thresholds)


def test_a_folder_in_place_of_a_state_file_is_refused(home):
    home.ensure().thresholds.mkdir()
    with pytest.raises(UnsafePathError, match="not a regular file"):
        state.read_thresholds(home)


def test_writes_are_atomic_private_and_versioned(home):
    write_thresholds(home, {"default": 0.5, "domains": {}})
    assert stat.S_IMODE(home.thresholds.stat().st_mode) == 0o600
    assert orjson.loads(home.thresholds.read_bytes())["schema_version"] == 1
    write_pattern_stats(home, {"patterns": {}})
    assert stat.S_IMODE(home.patterns_dir.stat().st_mode) == 0o700


def test_a_write_that_fails_leaves_the_old_file_and_no_temp(home, monkeypatch):
    write_thresholds(home, {"default": 0.5, "domains": {}})
    before = home.thresholds.read_bytes()

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(StoreError, match="thresholds.json: No space left on device; the disk is full"):
        write_thresholds(home, {"default": 0.6, "domains": {}})
    monkeypatch.undo()
    assert home.thresholds.read_bytes() == before
    assert [p.name for p in home.root.iterdir() if p.name.endswith(".tmp")] == []


def test_a_given_schema_version_is_replaced_by_the_current_one(home, tmp_path):
    path = tmp_path / "doc.json"
    write_document(path, {"schema_version": 7, "x": 1}, "thresholds")
    assert orjson.loads(path.read_bytes()) == {"schema_version": 1, "x": 1}


def test_migrations_run_in_memory_and_the_next_write_stores_the_new_version(home, monkeypatch):
    old = orjson.dumps({"schema_version": 1, "default": 0.4, "domains": {}})
    path = place(home, "thresholds", old)
    monkeypatch.setitem(documents.CURRENT_VERSION, "thresholds", 2)
    monkeypatch.setitem(documents.MIGRATIONS, ("thresholds", 1),
                        lambda doc: {**doc, "schema_version": 2, "history": []})
    doc = state.read_thresholds(home)
    assert doc["schema_version"] == 2 and doc["history"] == []
    assert path.read_bytes() == old  # reading never writes
    write_thresholds(home, doc)
    assert orjson.loads(path.read_bytes())["schema_version"] == 2


def test_a_version_without_a_migration_path_is_an_error(home, monkeypatch):
    place(home, "thresholds", orjson.dumps({"schema_version": 1, "default": 0.4, "domains": {}}))
    monkeypatch.setitem(documents.CURRENT_VERSION, "thresholds", 3)
    monkeypatch.setitem(documents.MIGRATIONS, ("thresholds", 1), lambda doc: {**doc, "schema_version": 2})
    with pytest.raises(CorruptFileError, match="no migration"):
        state.read_thresholds(home)


def test_every_kind_has_a_version():
    for kind in ("thresholds", "system1-patterns", "pattern-stats", "learning-log", "transfer-log",
                 "pending-review", "archive", "snapshot", "session"):
        assert documents.CURRENT_VERSION[kind] >= 1


def test_read_document_require_hook(tmp_path):
    path = tmp_path / "a.json"
    atomic_write_bytes(path, dump_document({"records": 3}, "archive"))
    with pytest.raises(CorruptFileError, match='"records" must be a list'):
        read_document(path, "archive", require=documents.list_field("records"))
