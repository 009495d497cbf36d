"""Typing into a client's interactive session through a pseudo-terminal (for several prompts per session).

:func:`type_session` starts the client on a pty, waits until ``ready()``, types each
prompt (then Enter) once ``turns()`` — a count of finished turns, read from what the
client's hooks captured — has grown past the previous prompt, then types ``/quit``
and presses Enter until the client exits. With ``submitted()`` (a count of the prompt
hook's payloads) it presses Enter again while a prompt has not gone: on a loaded
machine a client can take the text and the Enter for one paste, and keep the Enter as
a new line. It answers a cursor-position query
(``ESC [6n``), which full-screen clients send before drawing.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time
from pathlib import Path
from typing import Callable

ROWS, COLUMNS = 40, 120


def type_session(argv: list[str], *, env: dict[str, str], cwd: Path, prompts: tuple[str, ...],
                 ready: Callable[[bytes], bool], turns: Callable[[], int], timeout: float = 60,
                 submitted: Callable[[], int] | None = None) -> str:
    """Run the session; returns what the client drew (for assertion messages)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    screen = bytearray()

    def pump(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if not select.select([master], [], [], 0.1)[0]:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            screen.extend(data)
            if b"\x1b[6n" in data:
                os.write(master, b"\x1b[1;1R")

    def wait(what: str, done: Callable[[], bool]) -> None:
        end = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < end and proc.poll() is None, \
                f"{argv[0]}: no {what} in {timeout}s: {bytes(screen[-1500:]).decode(errors='replace')}"
            pump(0.2)

    try:
        wait("input box", lambda: ready(bytes(screen)))
        pump(1.0)
        for prompt in prompts:
            before, sent = turns(), submitted() if submitted else 0
            os.write(master, prompt.encode())
            pump(1.0)
            os.write(master, b"\r")
            for _ in range(3 if submitted else 0):
                end = time.monotonic() + 10
                while submitted() <= sent and turns() <= before and time.monotonic() < end:
                    pump(0.2)
                if submitted() > sent or turns() > before:
                    break
                os.write(master, b"\r")
            wait(f"end of the turn for {prompt!r}", lambda: turns() > before)
        os.write(master, b"/quit")
        pump(1.5)  # let the command menu settle before Enter
        end = time.monotonic() + timeout
        while proc.poll() is None and time.monotonic() < end:
            os.write(master, b"\r")
            pump(0.5)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)
    return bytes(screen).decode(errors="replace")
