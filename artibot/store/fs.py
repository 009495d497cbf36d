"""Low-level file primitives: safe opens, atomic writes and inter-process locks.

Every other module of the library that touches the disk goes through these functions, which
take :class:`~pathlib.Path` objects and wrap the string-path primitives the hooks use
directly (:mod:`artibot.hookpath.store.files`: one open, one atomic writer, one lock), so the
guarantees live in one place:

* files are created 0600, directories 0700;
* no open follows a symbolic link planted in place of a data file (``O_NOFOLLOW``);
* a state file is replaced atomically: temp file beside it, ``fsync``, ``os.replace``,
  then ``fsync`` of the directory; the temp file is removed on any exception;
* locks are ``flock`` locks on a *separate* lock file (locking the data file itself
  breaks when another process replaces it), released by the kernel if the holder dies;
  a shared lock opens its file read-only, so readers work on a read-only home;
* an ``OSError`` never leaves this module raw: it becomes a :class:`StoreError` naming
  the file and what to do (a full disk, a read-only file system, a permission).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Iterable

from artibot.hookpath.store import files as lean
from artibot.hookpath.store.files import DIR_MODE, FILE_MODE, NOT_REGULAR
from artibot.errors import LockTimeout, NotAFolderError, StoreError, UnsafePathError

__all__ = ["DIR_MODE", "FILE_MODE", "NOT_REGULAR"]  # and the functions below


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents) with mode 0700 if missing; refuse a symlink
    (:func:`artibot.hookpath.store.files.ensure_dir`, its failures in the store's words)."""
    path = Path(path)
    try:
        lean.ensure_dir(os.fspath(path))
    except lean.NotAFolder as exc:
        raise (UnsafePathError(path) if exc.link else NotAFolderError(path)) from None
    except (FileExistsError, NotADirectoryError):  # a file (not a folder) on the way
        raise NotAFolderError(_first_non_dir(path)) from None
    except OSError as exc:
        raise StoreError.from_os(exc, path, "create the folder") from None
    return path


def check_regular(path: Path) -> bool:
    """True if ``path`` is a regular file, False if it does not exist; raise otherwise."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    except NotADirectoryError:
        raise NotAFolderError(_first_non_dir(path)) from None
    except OSError as exc:
        raise StoreError.from_os(exc, path, "read") from None
    if stat.S_ISLNK(st.st_mode):
        raise UnsafePathError(path)
    if not stat.S_ISREG(st.st_mode):
        raise UnsafePathError(path, NOT_REGULAR)
    return True


def _first_non_dir(path: Path) -> Path:
    """The first ancestor of ``path`` that exists and is not a folder (a data home that is a file)."""
    for parent in [*reversed(Path(path).parents), Path(path)]:
        if os.path.lexists(parent) and not os.path.isdir(parent):
            return parent
    return Path(path)


def open_fd(path: Path, flags: int, mode: int = FILE_MODE) -> int:
    """``os.open`` of a regular file that never follows a symlink, never blocks (a FIFO
    planted in the home would hang the open until a writer came) and explains why it
    failed (:func:`artibot.hookpath.store.files.open_regular`)."""
    try:
        return lean.open_regular(os.fspath(path), flags, mode)
    except lean.NotRegular:
        raise UnsafePathError(path, NOT_REGULAR) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafePathError(path) from None
        if exc.errno == errno.ENOTDIR:
            raise NotAFolderError(_first_non_dir(path)) from None
        doing = "write" if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) else "read"
        raise StoreError.from_os(exc, path, doing) from None


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when it does not exist. Never follows a symlink."""
    if not check_regular(path):
        return None
    fd = open_fd(path, os.O_RDONLY)
    try:
        with os.fdopen(fd, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise StoreError.from_os(exc, path, "read") from None


def fsync_dir(path: Path) -> None:
    lean.fsync_dir(os.fspath(path))


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = FILE_MODE, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically: readers see the old or the new file, never a mix."""
    atomic_write_chunks(path, data, mode=mode, durable=durable)


def atomic_write_chunks(path: Path, chunks: bytes | Iterable[bytes], *, mode: int = FILE_MODE,
                        durable: bool = True) -> None:
    """:func:`atomic_write_bytes` of the concatenated ``chunks``, never all held in memory
    (:func:`artibot.hookpath.store.files.write_atomic`, then the folder synced when ``durable``)."""
    path = Path(path)
    check_regular(path)  # refuse to replace something we would not read
    try:
        lean.write_atomic(os.fspath(path), chunks, mode=mode, durable=durable)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafePathError(path) from None
        if exc.errno == errno.ENOTDIR:
            raise NotAFolderError(_first_non_dir(path)) from None
        raise StoreError.from_os(exc, path, "write") from None
    if durable:
        try:
            fsync_dir(path.parent)
        except OSError as exc:
            raise StoreError.from_os(exc, path.parent, "sync the folder") from None


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

    @property
    def fd(self) -> int | None:
        """The open lock file (None for a shared lock that had no file to lock, see acquire)."""
        return self._fd

    def acquire(self) -> "FileLock":
        fd = self._open()
        if fd is None:
            return self
        # inside a hook, every wait is capped by the hook's lock budget (artibot.hookpath.store.files)
        try:
            lean.lock(fd, os.fspath(self.path), shared=self.shared, timeout=self.timeout, holder=self.holder)
        except lean.HookLockWait as exc:
            os.close(fd)
            raise LockTimeout(self.path, exc.seconds, self.holder) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def _open(self) -> int | None:
        """The lock file, open. A shared lock opens it read-only (``flock`` needs no write access),
        so readers work on a read-only home; when it does not exist and cannot be created
        (read-only or full), no writer can be writing under it: the reader goes on unlocked."""
        if not self.shared:
            return open_fd(self.path, os.O_RDWR | os.O_CREAT)
        try:
            return open_fd(self.path, os.O_RDONLY)
        except StoreError as exc:
            if os.path.lexists(self.path) and not isinstance(exc, UnsafePathError):
                raise
        try:
            return open_fd(self.path, os.O_RDWR | os.O_CREAT)
        except UnsafePathError:
            raise
        except StoreError:
            return None

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing drops the flock

    def __enter__(self) -> "FileLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
