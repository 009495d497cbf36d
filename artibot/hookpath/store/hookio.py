"""The files the Claude Code hooks touch on every prompt and tool call, at the interpreter's floor.

A hook is a whole Python process per event, and Claude Code waits for it. This module
does the hooks' file work — the session spool, ``logs/hooks.log``, the learner stamp's
path — with nothing but ``os`` and the hook's lean floor (:mod:`artibot.hookpath`): its safe open,
atomic writer and lock, which the library's :mod:`artibot.store.fs` wraps too, and its
JSON codec, re-exported here as :func:`loads` and :func:`dumps` (:mod:`artibot.hookpath.store.files`). Timed by ``scripts/bench_hooks.py``.

The files keep the layout of :mod:`artibot.store.sessions` (which reads them too)::

    sessions/<sid>.json    {"schema_version": 1, "session_id": str, "updated_ms": int,
                            "turn": null | {...}, "done": null | {...}, "queue": [record, ...]}
    sessions/.<sid>.lock   flock around every read-modify-write of <sid>.json

Spools are written atomically (temporary file + rename) without ``fsync``: a spool lives
for a few turns, and a power cut loses those turns only. A spool that does not parse is
moved under ``quarantine/`` and the session goes on with a fresh one.
"""

from __future__ import annotations

import os
import stat
import sys
import time

from artibot.hookpath.store.files import (FILE_MODE, HookIOError, HookLockWait, dumps, ensure_dir, loads, lock, lock_wait_left,
                                   open_regular, read_bytes, reset_budget, start_budget, write_atomic)
from artibot.hookpath.names import HOOK_LOG, LOGS_DIR, QUARANTINE_DIR, SESSIONS_DIR, home_path

TYPE_CHECKING = False  # not typing's own: every hook imports this module (bench_hooks.py)
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Any

    SpoolDoc = dict[str, Any]
    """A session spool as parsed (see the module docstring for its keys)."""

__all__ = ["FILE_MODE", "HookIOError", "HookLockWait", "dumps", "ensure_dir", "loads", "lock_wait_left", "open_regular",
           "reset_budget", "start_budget"]  # the hooks' file API, from the lean floor

SCHEMA_VERSION = 1
DIR_MODE = 0o700
LOCK_TIMEOUT_S = 2.0
"""A spool lock is only ever held for a millisecond or two (or while its holder waits,
within its own budget, for the experience log)."""

HOOK_LOG_MAX_BYTES = 1_000_000
UNKNOWN_SESSION = "unknown-session"

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


# --------------------------------------------------------------------- paths
def home_root() -> str:
    """The data home: ``$ARTIBOT_HOME``, else ``~/.claude/artibot``; a home that is itself a
    symbolic link is used through its real path (as ``config.resolve_home``)."""
    root = home_path()
    return os.path.realpath(root) if os.path.islink(root) else root


def spool_name(session_id: str | None) -> str:
    """The spool's file stem: the id itself when it is a safe file name, else a stable hash."""
    if not session_id:
        return UNKNOWN_SESSION
    if len(session_id) <= 128 and set(session_id) <= _PLAIN and session_id[0] not in ".-_":
        return session_id
    return "h-" + sha256_hex(session_id.encode("utf-8", "replace"))[:32]


SHA256_MODULES = ("_sha2", "_sha256") if sys.version_info >= (3, 12) else ("_sha256", "_sha2")
"""CPython's built-in SHA-256, named ``_sha2`` from 3.12: hashlib loads OpenSSL first, which costs a hook
more than its own work (docs/benchmarks.md, "Costs behind the code")."""


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


def team_member(root: str) -> bool:
    """Whether the data home at ``root`` has joined a team (``team/membership.json`` is a regular
    file): SessionStart's test, one ``lstat``, before it imports anything of the team."""
    try:
        return stat.S_ISREG(os.lstat(f"{root}/team/membership.json").st_mode)
    except OSError:
        return False


def read_file(path: str) -> bytes | None:
    """The bytes of the hook file at ``path``, or None when it does not exist; a
    :class:`HookIOError` naming it when it cannot be read."""
    try:
        return read_bytes(path)
    except HookIOError:
        raise
    except OSError as exc:
        raise HookIOError(f"cannot read {path}: {exc.strerror}") from None


def write_file(path: str, data: bytes) -> None:
    """Replace the hook file at ``path`` with ``data`` atomically, without ``fsync``: a hook's
    files are its spools, caches and records, which a power cut may cost, never tear."""
    write_atomic(path, data)


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
        data = read_file(self.path)
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
        write_file(target, data)
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
        data = read_file(spool.path)
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
                write_file(self.spool.path, dumps(body).encode("ascii") + b"\n")
        finally:
            if self.fd >= 0:
                os.close(self.fd)  # closing the descriptor drops the flock


def _lock(path: str, timeout: float) -> int:
    fd = open_regular(path, os.O_RDWR | os.O_CREAT)
    try:
        lock(fd, path, timeout=timeout, holder="another artibot hook of this session")
    except BaseException:
        os.close(fd)
        raise
    return fd


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
    return read_file(f"{root}/{SESSIONS_DIR}/{name}")


def write_cache(root: str, name: str, data: bytes) -> None:
    """Replace ``sessions/<name>`` atomically (a cache: no ``fsync``)."""
    ensure_dir(root)
    write_file(f"{ensure_dir(f'{root}/{SESSIONS_DIR}')}/{name}", data)
