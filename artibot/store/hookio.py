"""The files the Claude Code hooks touch on every prompt and tool call, at the interpreter's floor.

A hook is a whole Python process per event, and Claude Code waits for it. This module
does the hooks' file work — the session spool, ``logs/hooks.log``, the learner stamp's
path — with nothing but ``os``, ``fcntl`` and ``time``: no ``pathlib`` (which alone
loads ``re``, ``fnmatch`` and ``urllib.parse``), no ``dataclasses``, no ``typing``, no
``orjson``, and JSON through the C accelerator behind :mod:`json` (``_json``) so that
``json``'s own ``re``-based module is never imported. Measured by
``scripts/bench_hooks.py``.

The files keep the layout of :mod:`artibot.store.sessions` (which reads them too)::

    sessions/<sid>.json    {"schema_version": 1, "session_id": str, "updated_ms": int,
                            "turn": null | {...}, "done": null | {...}, "queue": [record, ...]}
    sessions/.<sid>.lock   flock around every read-modify-write of <sid>.json

Spools are written atomically (temporary file + rename) without ``fsync``: a spool lives
for a few turns, and a power cut loses those turns only. A spool that does not parse is
moved under ``quarantine/`` and the session goes on with a fresh one.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import sys
import time

from artibot.names import HOOK_LOG, LOGS_DIR, QUARANTINE_DIR, SESSIONS_DIR, home_path

TYPE_CHECKING = False  # not typing's own: every hook imports this module (bench_hooks.py)
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Any

    SpoolDoc = dict[str, Any]
    """A session spool as parsed (see the module docstring for its keys)."""

SCHEMA_VERSION = 1
DIR_MODE = 0o700
FILE_MODE = 0o600
LOCK_TIMEOUT_S = 2.0
"""A spool lock is only ever held for a millisecond or two (or while its holder waits,
within its own budget, for the experience log)."""

LOCK_BUDGET_S = 2.0
"""All the lock waits of one hook together (the spools' and the experience log's): well
under the shortest timeout Claude Code is given for a hook that takes a lock (5 s for
SessionEnd). A ``learn`` over 300k records holds the log's lock for under half a second,
so a hook that still finds it held leaves its work queued for the next hook."""

HOOK_LOG_MAX_BYTES = 1_000_000
UNKNOWN_SESSION = "unknown-session"

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


class HookIOError(OSError):
    """A hook file could not be used safely (a symbolic link, a lock held too long)."""

    transient = False
    """True for a wait that ran out (a lock held by another hook): the next hook retries, so
    the user is not told (the log still has it)."""


class HookLockWait(HookIOError):
    transient = True


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
    """Parse one JSON document (``ValueError`` if it is not one)."""
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


# --------------------------------------------------------------------- the lock budget
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


# --------------------------------------------------------------------- paths
def home_root() -> str:
    """The data home: ``$ARTIBOT_HOME``, else ``~/.claude/artibot``; a home that is itself a
    symbolic link is used through its real path (as ``config.resolve_home``)."""
    root = home_path()
    return os.path.realpath(root) if os.path.islink(root) else root


def ensure_dir(path: str) -> str:
    """Create ``path`` (and parents) 0700 if missing; refuse a symbolic link or a non-directory."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        os.makedirs(path, mode=DIR_MODE, exist_ok=True)
        os.chmod(path, DIR_MODE)
        return path
    if not os.path.isdir(path) or os.path.islink(path):
        raise HookIOError(f"{path} is not a plain directory (a symbolic link or a file); artibot will not use it")
    return path


def spool_name(session_id: str | None) -> str:
    """The spool's file stem: the id itself when it is a safe file name, else a stable hash."""
    if not session_id:
        return UNKNOWN_SESSION
    if len(session_id) <= 128 and set(session_id) <= _PLAIN and session_id[0] not in ".-_":
        return session_id
    return "h-" + sha256_hex(session_id.encode("utf-8", "replace"))[:32]


SHA256_MODULES = ("_sha2", "_sha256") if sys.version_info >= (3, 12) else ("_sha256", "_sha2")
"""CPython's built-in SHA-256, named ``_sha2`` from 3.12: hashlib loads OpenSSL first (~5 ms in a hook)."""


def sha256_hex(data: bytes) -> str:
    """``hashlib.sha256(data).hexdigest()``, through :data:`SHA256_MODULES` when the interpreter has one."""
    for name in SHA256_MODULES:
        try:
            return str(__import__(name).sha256(data).hexdigest())
        except ImportError:
            pass
    import hashlib  # another interpreter, or a build without the module

    return hashlib.sha256(data).hexdigest()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def open_regular(path: str, flags: int) -> int:
    """Open a regular file without ever blocking: a FIFO in its place would hang the hook
    until Claude Code kills it (opening one blocks until a peer comes), so it is refused."""
    try:
        fd = os.open(path, flags | _NOFOLLOW | os.O_NONBLOCK, FILE_MODE)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader, opened for writing
            raise HookIOError(f"{path} is not a regular file (a FIFO, socket or device); "
                              "artibot will not use it: remove it") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise HookIOError(f"{path} is not a regular file (a FIFO, socket or device); artibot will not use it: "
                          "remove it")
    return fd


def team_member(root: str) -> bool:
    """Whether the data home at ``root`` has joined a team (``team/membership.json`` is a regular
    file): SessionStart's test, one ``lstat``, before it imports anything of the team."""
    try:
        return stat.S_ISREG(os.lstat(f"{root}/team/membership.json").st_mode)
    except OSError:
        return False


def _read(path: str) -> bytes | None:
    try:
        fd = open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    except HookIOError:
        raise
    except OSError as exc:
        raise HookIOError(f"cannot read {path}: {exc.strerror}") from None
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def _write_atomic(path: str, data: bytes) -> None:
    tmp = f"{os.path.dirname(path)}/.{os.path.basename(path)}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, FILE_MODE)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


# --------------------------------------------------------------------- the session spool
class Spool:
    """The spool of one session. ``with spool.edit(create=...) as doc`` (see :meth:`edit`)."""

    def __init__(self, root: str, session_id: str | None):
        self.root = root
        self.session_id = session_id
        self.dir = f"{root}/{SESSIONS_DIR}"
        name = spool_name(session_id)
        self.path = f"{self.dir}/{name}.json"
        self.lock_path = f"{self.dir}/.{name}.lock"
        self.quarantined: str | None = None

    def exists(self) -> bool:
        return os.path.isfile(self.path) and not os.path.islink(self.path)

    def read(self) -> SpoolDoc | None:
        """The document without the lock (a snapshot), or None; ``ValueError`` if damaged."""
        data = _read(self.path)
        return None if data is None else self._parse(data)

    def _parse(self, data: bytes) -> SpoolDoc:
        doc = loads(data)
        if not isinstance(doc, dict) or doc.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(f"not a version-{SCHEMA_VERSION} session spool")
        for key in ("turn", "done"):
            if doc.get(key) is not None and not isinstance(doc[key], dict):
                raise ValueError(f'"{key}" must be an object or null')
        if not isinstance(doc.get("queue", []), list):
            raise ValueError('"queue" must be a list')
        return doc

    def edit(self, *, create: bool, timeout: float = LOCK_TIMEOUT_S) -> "_Edit":
        """Under the session lock, the document to change in place; written back if it changed.

        With ``create=False`` and no spool on disk it yields None and touches nothing (a
        tool call or a Stop outside any recorded turn).
        """
        return _Edit(self, create, timeout)

    def remove(self) -> None:
        for path in (self.path, self.lock_path):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass

    def _quarantine(self, data: bytes) -> str:
        qdir = ensure_dir(f"{self.root}/{QUARANTINE_DIR}")
        target = f"{qdir}/session-{os.path.basename(self.path)[:-5]}-{now_ms()}.json"
        _write_atomic(target, data)
        os.unlink(self.path)
        return target


class _Edit:
    def __init__(self, spool: Spool, create: bool, timeout: float):
        self.spool, self.create, self.timeout = spool, create, timeout
        self.fd = -1
        self.before: str | None = None
        self.doc: SpoolDoc | None = None

    def __enter__(self) -> SpoolDoc | None:
        spool = self.spool
        if not self.create and not spool.exists():
            return None
        ensure_dir(spool.root)
        ensure_dir(spool.dir)
        self.fd = _lock(spool.lock_path, self.timeout)
        data = _read(spool.path)
        if data is not None:
            try:
                self.doc = spool._parse(data)
            except (ValueError, UnicodeDecodeError):
                spool.quarantined = spool._quarantine(data)
        if self.doc is None and self.create:
            self.doc = {"session_id": spool.session_id, "turn": None}
        if self.doc is not None:
            self.before = dumps(self.doc)
        return self.doc

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            if exc_type is None and self.doc is not None and dumps(self.doc) != self.before:
                body: SpoolDoc = {"schema_version": SCHEMA_VERSION}
                body.update((k, v) for k, v in self.doc.items() if k != "schema_version")
                body["updated_ms"] = now_ms()
                _write_atomic(self.spool.path, dumps(body).encode("ascii") + b"\n")
        finally:
            if self.fd >= 0:
                os.close(self.fd)  # closing the descriptor drops the flock


def _lock(path: str, timeout: float) -> int:
    fd = open_regular(path, os.O_RDWR | os.O_CREAT)
    timeout = lock_wait_left(timeout) or 0.0
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise HookLockWait(f"{path} stayed locked for {timeout:g} s by another artibot hook "
                                  "of this session") from None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)


# --------------------------------------------------------------------- hooks.log
def append_log(root: str, line: str) -> None:
    """Append one line to ``logs/hooks.log`` (0600), renaming it ``hooks.log.1`` past 1 MB."""
    ensure_dir(root)
    logs = ensure_dir(f"{root}/{LOGS_DIR}")
    path = f"{logs}/{HOOK_LOG}"
    fd = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        if os.fstat(fd).st_size > HOOK_LOG_MAX_BYTES:
            os.replace(path, path + ".1")
        os.write(fd, line.rstrip("\n").encode("utf-8", "replace") + b"\n")
    finally:
        os.close(fd)


# --------------------------------------------------------------------- the hooks' caches under sessions/
def read_cache(root: str, name: str) -> bytes | None:
    """The bytes of ``sessions/<name>``, or None."""
    return _read(f"{root}/{SESSIONS_DIR}/{name}")


def write_cache(root: str, name: str, data: bytes) -> None:
    """Replace ``sessions/<name>`` atomically (a cache: no ``fsync``)."""
    ensure_dir(root)
    _write_atomic(f"{ensure_dir(f'{root}/{SESSIONS_DIR}')}/{name}", data)
