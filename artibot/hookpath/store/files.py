"""The file primitives every writer of the data home shares, on string paths: the safe open,
the atomic writer and the ``flock`` lock (with the hook's lock budget); and the JSON codec
of the hooks' files.

The hooks call them directly (:mod:`artibot.hookpath.store.hookio`); the library calls them
through :mod:`artibot.store.fs`, which takes :class:`~pathlib.Path` objects and turns
every ``OSError`` into a :class:`~artibot.errors.StoreError` sentence. Written here, once,
with nothing but :mod:`os`, :mod:`fcntl` and :mod:`time`, because :mod:`pathlib` alone costs
a hook about as much as the rest of its start-up (``docs/design.md``, "The hook's lean
floor"):

* an open never follows a symbolic link (``O_NOFOLLOW``) and never blocks: a FIFO planted
  in place of a data file would hang the process until a peer came, so it is refused;
* a file is replaced atomically: a temporary file beside it (``.<name>.<pid>.<ns>.tmp``),
  ``fsync`` when ``durable``, ``os.replace``; the temporary file is removed on any exception;
* a lock is an ``flock`` on a separate lock file, released by the kernel if its holder
  dies; a wait is capped by the running hook's lock budget (:func:`start_budget`);
* JSON goes through the C accelerator behind :mod:`json` (``_json``), driven directly:
  :mod:`json` itself imports its decoder, which compiles regular expressions as it loads
  (:mod:`re`), and ``orjson``, which the library uses for its large files, needs
  :mod:`site` (the hooks run under ``python -S``) and loads :mod:`dataclasses`, :mod:`enum`
  and :mod:`uuid` as it starts. Every hook file (the spools, the caches, the failure
  records, the gateway's token and pid files) goes through :func:`loads` and :func:`dumps`.

One module, not two: each module a hook imports costs it a fixed share of the bare
interpreter's start, whatever it holds (docs/benchmarks.md, "Costs behind the code").
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time

TYPE_CHECKING = False  # not typing's own: every hook imports this module
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

FILE_MODE = 0o600
DIR_MODE = 0o700
NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC

NOT_REGULAR = "not a regular file (a FIFO, socket or device)"

LOCK_BUDGET_S = 2.0
"""All the lock waits of one hook together (the spools' and the experience log's): well
under the shortest timeout Claude Code is given for a hook that takes a lock (5 s for
SessionEnd). A ``learn`` over 300k records holds the log's lock for under half a second,
so a hook that still finds it held leaves its work queued for the next hook."""


class HookIOError(OSError):
    """A file could not be used safely (a symbolic link, a FIFO, a lock held too long)."""

    transient = False
    """True for a wait that ran out (a lock held by another process): the next hook retries,
    so the user is not told (the log still has it)."""


class HookLockWait(HookIOError):
    """A lock stayed held for the whole wait allowed (``seconds``)."""

    transient = True

    def __init__(self, message: str, seconds: float = 0.0) -> None:
        super().__init__(message)
        self.seconds = seconds


class NotRegular(HookIOError):
    """Something other than a regular file where one is expected (``errno`` is ``ENXIO``)."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.ENXIO, f"{path} is {NOT_REGULAR}; artibot will not use it: remove it")
        self.filename = path

    def __str__(self) -> str:
        return str(self.strerror)


class NotAFolder(HookIOError):
    """A file, or a symbolic link (``link``), where a folder of the data home is expected."""

    def __init__(self, path: str, *, link: bool) -> None:
        super().__init__(f"{path} is not a plain directory (a symbolic link or a file); artibot will not use it")
        self.filename = path
        self.link = link


# --------------------------------------------------------------------- folders, opening and reading
def ensure_dir(path: str) -> str:
    """Create ``path`` (and its parents) 0700 if missing; :class:`NotAFolder` for a symbolic
    link or a non-folder in its place (another ``OSError`` as raised)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        os.makedirs(path, mode=DIR_MODE, exist_ok=True)
        os.chmod(path, DIR_MODE)
        return path
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise NotAFolder(path, link=stat.S_ISLNK(st.st_mode))
    return path


def open_regular(path: str, flags: int, mode: int = FILE_MODE) -> int:
    """``os.open`` of a regular file that never follows a symbolic link and never blocks;
    :class:`NotRegular` for a FIFO, socket or device, the ``OSError`` as raised otherwise."""
    try:
        fd = os.open(path, flags | NOFOLLOW | os.O_NONBLOCK, mode)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader, opened for writing
            raise NotRegular(path) from None
        raise
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        os.close(fd)
        raise
    if not regular:
        os.close(fd)
        raise NotRegular(path)
    return fd


def read_bytes(path: str) -> bytes | None:
    """The whole file, or None when it does not exist (the ``OSError`` as raised otherwise)."""
    try:
        fd = open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


# --------------------------------------------------------------------- the atomic writer
def temporary_name(path: str) -> str:
    """Where :func:`write_atomic` writes before its rename (``store/quarantine.py`` sweeps the
    ones a killed writer left)."""
    head, _, name = path.rpartition("/")
    return f"{head}{'/' if _ else ''}.{name}.{os.getpid()}.{time.monotonic_ns()}.tmp"


def write_atomic(path: str, chunks: bytes | Iterable[bytes], *, mode: int = FILE_MODE,
                 durable: bool = False) -> None:
    """Replace ``path`` with ``chunks`` (bytes, or an iterable of them, never all held in
    memory) atomically: a reader sees the old file or the new one, never a mix. ``durable``
    syncs the data before the rename (the folder is synced by the caller: :func:`fsync_dir`)."""
    tmp = temporary_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, mode)
    try:
        if isinstance(chunks, bytes):  # a hook's file: no buffered writer to build
            view = memoryview(chunks)
            while view:
                view = view[os.write(fd, view):]
        else:
            with open(fd, "wb", closefd=False) as fh:  # many small chunks: buffered
                for chunk in chunks:
                    fh.write(chunk)
        if durable:
            os.fsync(fd)
        os.fchmod(fd, mode)  # what the umask took away
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def fsync_dir(path: str) -> None:
    """Make a rename in the folder ``path`` durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --------------------------------------------------------------------- the lock and its budget
class _Budget:
    """When the running hook's lock waits must end (None: not in a hook, no budget)."""

    deadline: float | None = None


_budget = _Budget()


def start_budget(seconds: float | None = None) -> None:
    """Start this process's lock budget (a hook calls it once, as it starts; default
    :data:`LOCK_BUDGET_S`)."""
    _budget.deadline = time.monotonic() + (LOCK_BUDGET_S if seconds is None else seconds)


def reset_budget() -> None:
    _budget.deadline = None


def lock_wait_left(default: float | None) -> float | None:
    """How long a lock may still be waited for: ``default`` (None: for ever), capped by the
    budget if one runs."""
    if _budget.deadline is None:
        return default
    left = max(0.0, _budget.deadline - time.monotonic())
    return left if default is None else min(default, left)


def lock(fd: int, path: str, *, shared: bool = False, timeout: float | None,
         holder: str = "another artibot process") -> None:
    """``flock`` the open lock file ``fd`` (of ``path``, named in the error): shared or
    exclusive, waiting at most ``timeout`` seconds (None: for ever; ``0``: one try), capped by
    the hook's lock budget; :class:`HookLockWait` when the wait runs out. The descriptor
    stays open either way: closing it drops the lock."""
    op = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    timeout = lock_wait_left(timeout)
    if timeout is None:
        fcntl.flock(fd, op)
        return
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise HookLockWait(f"{path} stayed locked for {timeout:g} s by {holder}", timeout) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)


# --------------------------------------------------------------------- JSON (no `re`)
class _ScanContext:
    # What _json.make_scanner reads from json.JSONDecoder: the C scanner parses
    # objects, arrays, strings and numbers itself.
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        raise ValueError(f"{name} is not JSON")


_scanner: Any = None
_encoder: Any = None
_WS = " \t\n\r"


def loads(data: bytes | str) -> Any:
    """Parse one JSON document (``ValueError`` if it is not one; NaN and infinities refused)."""
    global _scanner
    try:
        import _json
    except ImportError:  # pragma: no cover - other Pythons: the regular module
        import json

        return json.loads(data)
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if _scanner is None:
        _scanner = _json.make_scanner(_ScanContext)  # type: ignore[arg-type]  # duck-typed decoder
    start = len(text) - len(text.lstrip(_WS))
    try:
        value, end = _scanner(text, start)
    except StopIteration:
        raise ValueError(f"not JSON at character {start}") from None
    if text[end:].strip(_WS):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


def dumps(value: object) -> str:
    """Compact JSON text (non-ASCII escaped; NaN and infinities refused)."""
    global _encoder
    try:
        import _json
    except ImportError:  # pragma: no cover
        import json

        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    if _encoder is None:
        def unknown(obj: object) -> None:
            raise TypeError(f"{type(obj).__name__} is not JSON serializable")

        _encoder = _json.make_encoder(None, unknown, _json.encode_basestring_ascii, None,
                                      ":", ",", False, False, False)
    return "".join(_encoder(value, 0))
