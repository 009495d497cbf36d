"""The files the hooks read besides their spools: Claude Code's transcript and slash
commands, the stamps of the files the router cache depends on, idle spools, whether a review
waits.

Split from :mod:`artibot.hookpath.store.hookio` (the spool, ``hooks.log``, the hooks' caches: what
every hook needs); the tool hooks import neither this module nor what it reads. Same rules:
nothing but ``os``, never blocking on a FIFO, never following a symbolic link where a file
of artibot's is expected.
"""

from __future__ import annotations

import os

from artibot.hookpath.names import PENDING_REVIEW, SESSIONS_DIR
from artibot.hookpath.store.hookio import HookIOError, Spool, open_regular, spool_name

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    from collections.abc import Iterable

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


# --------------------------------------------------------------------- idle spools
def stale_spools(root: str, *, older_than_ms: int, now: int, exclude: str | None = None) -> list[Spool]:
    """Spools not written for ``older_than_ms``, oldest name first."""
    sessions = f"{root}/{SESSIONS_DIR}"
    skip = spool_name(exclude) if exclude is not None else None
    out = []
    try:
        entries = list(os.scandir(sessions))
    except (FileNotFoundError, NotADirectoryError):
        return []
    for entry in entries:
        name = entry.name
        if name.startswith(".") or not name.endswith(".json") or not entry.is_file(follow_symlinks=False):
            continue
        if name[:-5] == skip:
            continue
        if now - int(entry.stat(follow_symlinks=False).st_mtime * 1000) >= older_than_ms:
            spool = Spool(root, None)
            spool.path, spool.lock_path = entry.path, f"{sessions}/.{name[:-5]}.lock"
            out.append(spool)
    return sorted(out, key=lambda s: s.path)


# --------------------------------------------------------------------- Claude Code's transcript
def read_tail(path: str, max_bytes: int) -> bytes | None:
    """The last ``max_bytes`` of a regular file, from a line start; None if it cannot be read
    (missing, not a regular file, a FIFO: the hook must never block on it)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW)
    except OSError:
        return None
    try:
        import stat

        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        start = max(0, st.st_size - max_bytes)
        data = os.pread(fd, st.st_size - start, start)
    except OSError:
        return None
    finally:
        os.close(fd)
    if start:
        cut = data.find(b"\n")
        data = data[cut + 1:] if cut >= 0 else b""
    return data


def read_start(path: str, max_chars: int) -> str | None:
    """The start of a small text file (a slash command's), decoded leniently; None if it is
    missing or cannot be read (never blocks on a FIFO)."""
    try:
        fd = open_regular(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4 * max_chars).decode("utf-8", "replace")[:max_chars]
    except OSError:
        return None
    finally:
        os.close(fd)


# --------------------------------------------------------------------- stamps and checks
def stamps(paths: Iterable[str]) -> list[list[str | int | None]]:
    """``[path, mtime_ns, size]`` of each path (``[path, None, None]`` for a missing one): a cache key."""
    out: list[list[str | int | None]] = []
    for path in paths:
        try:
            st = os.stat(path)
            out.append([path, st.st_mtime_ns, st.st_size])
        except OSError:
            out.append([path, None, None])
    return out


def files_in(directory: str, *, skip: tuple[str, ...] = ()) -> list[str]:
    """The regular files directly in ``directory`` whose names do not start with one of
    ``skip``, sorted; none if it is missing."""
    try:
        with os.scandir(directory) as entries:
            return sorted(e.path for e in entries
                          if not e.name.startswith(skip) and e.is_file(follow_symlinks=False))
    except (FileNotFoundError, NotADirectoryError):
        return []


def mtime_ns(path: str) -> int | None:
    """When ``path`` last changed (nanoseconds), None if there is nothing there."""
    try:
        return os.stat(path).st_mtime_ns
    except (FileNotFoundError, NotADirectoryError):
        return None


def file_exists(path: str) -> bool:
    """Whether ``path`` is a regular file (through a symbolic link, as :func:`os.path.isfile`)."""
    return os.path.isfile(path)


def review_waiting(root: str) -> bool:
    """Whether a round waits for review (``pending-review.json``: ``Home.pending_review``,
    without loading the store); a symbolic link there is refused, never followed."""
    path = f"{root}/{PENDING_REVIEW}"
    if os.path.islink(path):
        raise HookIOError(f"{path} is a symbolic link; artibot will not read it")
    return os.path.isfile(path)
