"""Low-level file primitives: safe opens, atomic writes and inter-process locks.

Every other module that touches the disk goes through these functions, so the
guarantees live in one place:

* files are created 0600, directories 0700;
* no open follows a symbolic link planted in place of a data file (``O_NOFOLLOW``);
* a state file is replaced atomically: temp file beside it, ``fsync``, ``os.replace``,
  then ``fsync`` of the directory; the temp file is removed on any exception;
* locks are ``flock`` locks on a *separate* lock file (locking the data file itself
  breaks when another process replaces it), released by the kernel if the holder dies.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import time
from pathlib import Path
from typing import Iterator

from artibot.errors import LockTimeout, StoreError, UnsafePathError

FILE_MODE = 0o600
DIR_MODE = 0o700


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents) with mode 0700 if missing; refuse a symlink."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        os.chmod(path, DIR_MODE)
        return path
    if stat.S_ISLNK(st.st_mode):
        raise UnsafePathError(path)
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafePathError(path, "not a directory")
    return path


def check_regular(path: Path) -> bool:
    """True if ``path`` is a regular file, False if it does not exist; raise otherwise."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(st.st_mode):
        raise UnsafePathError(path)
    if not stat.S_ISREG(st.st_mode):
        raise UnsafePathError(path, "not a regular file")
    return True


def open_fd(path: Path, flags: int, mode: int = FILE_MODE) -> int:
    """``os.open`` that never follows a symlink and explains why it failed."""
    try:
        return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafePathError(path) from None
        raise StoreError(f"cannot open {path}: {exc.strerror}") from exc


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when it does not exist. Never follows a symlink."""
    if not check_regular(path):
        return None
    fd = open_fd(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = FILE_MODE, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically: readers see the old or the new file, never a mix."""
    path = Path(path)
    check_regular(path)  # refuse to replace something we would not read
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    fd = open_fd(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(path.parent)


class FileLock:
    """An ``flock`` on a dedicated lock file. Shared for readers, exclusive for writers.

    ``timeout=None`` waits forever; ``0`` tries once. The kernel drops the lock when the
    holder exits or is killed, so a crash never leaves a stale lock behind.
    """

    def __init__(self, path: Path, *, shared: bool = False, timeout: float | None = 30.0,
                 holder: str = "another artibot process"):
        self.path = Path(path)
        self.shared = shared
        self.timeout = timeout
        self.holder = holder
        self._fd: int | None = None

    def acquire(self) -> "FileLock":
        fd = open_fd(self.path, os.O_RDWR | os.O_CREAT)
        op = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        try:
            if self.timeout is None:
                fcntl.flock(fd, op)
            else:
                deadline = time.monotonic() + self.timeout
                delay = 0.001
                while True:
                    try:
                        fcntl.flock(fd, op | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() >= deadline:
                            raise LockTimeout(self.path, self.timeout, self.holder) from None
                        time.sleep(delay)
                        delay = min(delay * 2, 0.05)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing drops the flock

    def __enter__(self) -> "FileLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextlib.contextmanager
def locked(path: Path, *, shared: bool = False, timeout: float | None = 30.0) -> Iterator[FileLock]:
    lock = FileLock(path, shared=shared, timeout=timeout)
    with lock:
        yield lock
