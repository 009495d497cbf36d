"""The one set of file primitives (``artibot/hookpath/store/files.py``) as the hooks and the library
both use it: one lock, one atomic writer, one safe open, the hooks' JSON codec."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from artibot.hookpath.store import files as lean
from artibot.errors import LockTimeout, UnsafePathError
from artibot.store import fs
from artibot.hookpath.store import hookio


def test_the_library_lock_and_the_hook_lock_are_one_lock(tmp_path: Path) -> None:
    path = tmp_path / ".s1.lock"
    with fs.FileLock(path, timeout=0):
        with pytest.raises(hookio.HookLockWait, match="stayed locked for 0 s"):
            hookio._lock(str(path), 0.0)
    held = hookio._lock(str(path), 0.0)
    try:
        with pytest.raises(LockTimeout, match=r"waited 0 s"):
            fs.FileLock(path, timeout=0, holder="a hook").acquire()
    finally:
        os.close(held)


def test_the_hook_budget_caps_a_library_lock(tmp_path: Path) -> None:
    path = tmp_path / "learner.lock"
    with fs.FileLock(path):
        lean.start_budget(0.05)
        try:
            with pytest.raises(LockTimeout) as caught:
                fs.FileLock(path, timeout=30.0).acquire()
        finally:
            lean.reset_budget()
    waited = float(str(caught.value).split("(waited ")[1].split(" s)")[0])
    assert 0 < waited <= 0.05  # the budget's, not the lock's own 30 s


def test_a_failed_write_keeps_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_bytes(b"old")

    def chunks():
        yield b"new, half"
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        lean.write_atomic(str(target), chunks(), durable=True)
    assert target.read_bytes() == b"old" and sorted(os.listdir(tmp_path)) == ["state.json"]
    lean.write_atomic(str(target), [b"new", b" whole"], mode=0o640)
    assert target.read_bytes() == b"new whole" and target.stat().st_mode & 0o777 == 0o640


def test_a_fifo_is_refused_by_both_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "spool.json"
    os.mkfifo(fifo)
    with pytest.raises(lean.NotRegular, match=r"spool.json is not a regular file \(a FIFO"):
        lean.open_regular(str(fifo), os.O_WRONLY)
    with pytest.raises(hookio.HookIOError, match="not a regular file"):
        hookio.read_file(str(fifo))
    with pytest.raises(UnsafePathError):
        fs.read_bytes(fifo)


def test_the_codec_reads_and_writes_what_json_does() -> None:
    doc = {"a": [1, 2.5, None, True], "text": "café 한국어 \u2028", "nested": {"x": -0.0, "big": 10**20}}
    text = lean.dumps(doc)
    assert text == json.dumps(doc, separators=(",", ":"))
    assert lean.loads(text) == doc == lean.loads(b"  " + text.encode("ascii") + b"\n")
    for bad in ("NaN", "[1] x", "", "{'a': 1}"):
        with pytest.raises(ValueError):
            lean.loads(bad)
    with pytest.raises(ValueError):
        lean.dumps(float("nan"))
