"""Run ``artibot`` commands in a forked child, with faults injected by wrapping ``os``
functions in the child only (test code: the library reads no flag for this).

Forking from the test process, where the CLI and the learner are already imported, makes
a run cost a few milliseconds instead of a Python start-up.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from pathlib import Path
from typing import Callable

import artibot.round.cycle
import artibot.learning.evidence
import artibot.round.rollback  # noqa: F401
from artibot.cli.app import run

MUTATIONS = ("replace", "rename", "unlink", "pwrite", "write", "ftruncate", "truncate", "fsync", "fdatasync",
             "mkdir", "makedirs", "rmdir", "link", "symlink")
"""Every ``os`` function through which artibot changes the file system."""
KILLED = 86
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def run_child(argv: list[str], *, kill_at: int | None = None, stdin: bytes = b"", count: Path | None = None,
              output: Path | None = None, inject: Callable[[], None] | None = None) -> int:
    """``artibot argv`` in a forked child; its exit code. ``kill_at``: the child dies just before
    its ``kill_at``-th mutation; ``count``: the number of mutations is written there;
    ``output``: stdout and stderr go there; ``inject``: runs in the child before the command."""
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 70
        try:
            calls = 0

            def wrap(name: str) -> None:
                real = getattr(os, name)

                def counted(*args, **kwargs):
                    nonlocal calls
                    calls += 1
                    if calls == kill_at:
                        os._exit(KILLED)
                    return real(*args, **kwargs)

                setattr(os, name, counted)

            sink = os.open(output if output is not None else os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(sink, 1)
            os.dup2(sink, 2)
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
            sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", buffering=0, closefd=False), write_through=True)
            sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", buffering=0, closefd=False), write_through=True)
            if inject is not None:
                inject()
            for name in MUTATIONS:
                wrap(name)
            code = run(argv)
            if count is not None:
                count.write_text(str(calls))
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:  # noqa: BLE001 - the child is leaving anyway
                    pass
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def fail_writes(err: int) -> Callable[[], None]:
    """An ``inject`` that makes every write to the file system fail with ``err`` (ENOSPC: a full
    disk; EROFS: a read-only one), as the kernel would; reads still work."""

    def inject() -> None:
        def failing(name: str):
            def call(*args, **kwargs):
                raise OSError(err, os.strerror(err), str(args[0]) if args else None)
            return call

        real_open = os.open

        def open_(path, flags, *args, **kwargs):
            if flags & _WRITE_FLAGS:
                raise OSError(err, os.strerror(err), str(path))
            return real_open(path, flags, *args, **kwargs)

        os.open = open_
        for name in ("replace", "rename", "unlink", "pwrite", "ftruncate", "mkdir", "link", "fsync", "fdatasync"):
            setattr(os, name, failing(name))

    return inject


ENOSPC, EROFS = errno.ENOSPC, errno.EROFS
