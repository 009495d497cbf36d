"""``artibot learn`` under a real pseudo-terminal: the prompts a person sees and answers."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import orjson

from artibot.collector import collect_many
from tests.factories import mixed


def read_until(fd: int, needle: bytes, timeout: float = 20.0) -> bytes:
    buf = b""
    end = time.monotonic() + timeout
    while needle not in buf:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timed out waiting for {needle!r}; got:\n{buf.decode(errors='replace')}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
    return buf


def test_learn_in_a_terminal(artibot_home: Path) -> None:
    collect_many(mixed(100))
    master, slave = pty.openpty()
    env = {**os.environ, "ARTIBOT_HOME": str(artibot_home), "COLUMNS": "160", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "artibot", "learn"], stdin=slave, stdout=slave, stderr=slave,
                            env=env, close_fds=True)
    os.close(slave)
    try:
        screen = read_until(master, b"Choose 1-2 [1]:")
        assert b"Checkpoint 1" in screen and b"Accept" in screen and b"Reset group data" in screen
        os.write(master, b"\n")  # Enter: the default (Accept)
        screen = read_until(master, b"Choose 1-2 [1]:")
        assert b"Checkpoint 2" in screen and b"Revert adjustment" in screen
        os.write(master, b"2\n")  # Revert
        screen = read_until(master, b"]:")
        if b"Checkpoint 3" in screen:
            os.write(master, b"\n")  # skip: automatic decisions
        read_until(master, b"applied")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    log = orjson.loads((artibot_home / "learning-log.json").read_bytes())["rounds"][-1]
    assert [(a["checkpoint"], a["answer"]) for a in log["answers"]][:2] == [(1, "accept"), (2, "revert")]
    assert {a["channel"] for a in log["answers"]} == {"terminal"}
    assert not (artibot_home / "thresholds.json").exists()
