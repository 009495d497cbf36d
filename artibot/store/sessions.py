"""Per-session spools of the Claude Code hooks: the turn in progress, one small file per session.

A Claude Code *turn* spans several hook processes (``UserPromptSubmit``, one
``PostToolUse``/``PostToolUseFailure`` per tool call, ``Stop``); the spool carries it
from one to the next. It holds no experience yet: the experience is built and
collected when the turn closes, and the turn is then cleared.

Layout under ``<home>/sessions/``::

    <sid>.json            {"schema_version": 1, "session_id": str, "updated_ms": int,
                           "turn": null | {decision fields, "input" (anonymized), counters}}
    .<sid>.lock           flock taken around every read-modify-write of <sid>.json
    .learner-stamp.json   {"schema_version": 1, "started_ms": int, "pid": int, "reason": str}

``<sid>`` is the payload's ``session_id`` when it is a plain file name, else a hash of
it. Spools are written atomically but without ``fsync``: they live for one turn, and
losing one to a power cut loses that turn only — not worth a disk flush on every tool call.

The hooks' own error log (``logs/hooks.log``) is appended here too, so that every
file the hooks touch goes through the store.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path
from typing import Any, Iterator

import orjson

from artibot.errors import CorruptFileError, LockTimeout
from artibot.store.documents import dump_document, parse_document
from artibot.store.fs import FileLock, atomic_write_bytes, check_regular, ensure_dir, open_fd, read_bytes
from artibot.store.home import Home

KIND = "session"
LOCK_TIMEOUT_S = 3.0
"""Hooks have a budget of a few seconds; a spool lock is only ever held for a millisecond or two."""

HOOK_LOG = "hooks.log"
HOOK_LOG_MAX_BYTES = 1_000_000
"""Past this size ``hooks.log`` is renamed ``hooks.log.1`` (one old copy kept)."""

LEARNER_STAMP = ".learner-stamp.json"
UNKNOWN_SESSION = "unknown-session"
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def spool_name(session_id: str | None) -> str:
    """The spool's file stem: the id itself when it is a safe file name, else a stable hash."""
    if not session_id:
        return UNKNOWN_SESSION
    if _PLAIN_ID.fullmatch(session_id):
        return session_id
    import hashlib  # rarely needed, and loading OpenSSL costs ~5 ms on every tool call

    return "h-" + hashlib.sha256(session_id.encode("utf-8", "replace")).hexdigest()[:32]


def _sessions_dir(home: Home) -> Path:
    home.ensure()  # the home first: ensure_dir gives only the leaf mode 0700
    return ensure_dir(home.sessions_dir)


class SessionSpool:
    """The spool file of one session."""

    def __init__(self, home: Home, session_id: str | None):
        self.home = home
        self.session_id = session_id
        name = spool_name(session_id)
        self.path = home.sessions_dir / f"{name}.json"
        self.lock_path = home.sessions_dir / f".{name}.lock"
        self.quarantined: Path | None = None

    @classmethod
    def from_path(cls, home: Home, path: Path) -> "SessionSpool":
        spool = cls(home, None)
        spool.path = path
        spool.lock_path = path.with_name(f".{path.stem}.lock")
        return spool

    def exists(self) -> bool:
        return check_regular(self.path)

    def read(self) -> dict[str, Any] | None:
        """The spool document, or None when there is none (no lock: a snapshot for reporting)."""
        data = read_bytes(self.path)
        return None if data is None else self._parse(data)

    def _parse(self, data: bytes) -> dict[str, Any]:
        doc = parse_document(data, self.path, KIND)
        turn = doc.get("turn")
        if turn is not None and not isinstance(turn, dict):
            raise CorruptFileError(self.path, '"turn" must be an object or null')
        return doc

    @contextlib.contextmanager
    def edit(self, *, create: bool, timeout: float = LOCK_TIMEOUT_S) -> Iterator[dict[str, Any] | None]:
        """Under the session lock, the spool document to modify in place; written back if changed.

        With ``create=False`` and no spool on disk this yields None and touches nothing
        (a tool call or a Stop outside any recorded turn). A damaged spool is moved
        aside under ``quarantine/`` and replaced by an empty one: it only ever holds the
        turn in progress; ``self.quarantined`` then names the copy, for the caller to log.
        """
        if not create and not self.exists():
            yield None
            return
        _sessions_dir(self.home)
        with FileLock(self.lock_path, timeout=timeout, holder="another artibot hook of this session"):
            data = read_bytes(self.path)
            doc: dict[str, Any] | None = None
            if data is not None:
                try:
                    doc = self._parse(data)
                except CorruptFileError:
                    self.quarantined = self._quarantine(data)
            if doc is None:
                if not create:
                    yield None
                    return
                doc = {"session_id": self.session_id, "turn": None}
            before = orjson.dumps(doc)
            yield doc
            if orjson.dumps(doc) != before:
                doc["updated_ms"] = now_ms()
                atomic_write_bytes(self.path, dump_document(doc, KIND), durable=False)

    def _quarantine(self, data: bytes) -> Path:
        """Keep a damaged spool's bytes and remove it, so the session can go on recording."""
        qdir = ensure_dir(self.home.quarantine_dir)
        target = qdir / f"session-{self.path.stem}-{now_ms()}.json"
        atomic_write_bytes(target, data, durable=False)
        self.path.unlink()
        return target

    def remove(self) -> None:
        """Delete the spool and its lock file (the session is over)."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        with contextlib.suppress(FileNotFoundError):
            self.lock_path.unlink()


def stale_spools(home: Home, *, older_than_ms: int, now: int, exclude: str | None = None) -> list[SessionSpool]:
    """Spools not written for ``older_than_ms`` (sessions that crashed or never came back)."""
    if not home.sessions_dir.is_dir():
        return []
    skip = spool_name(exclude) if exclude is not None else None
    out = []
    with os.scandir(home.sessions_dir) as entries:
        for entry in entries:
            if entry.name.startswith(".") or not entry.name.endswith(".json") or not entry.is_file(follow_symlinks=False):
                continue
            if entry.name[:-5] == skip:
                continue
            if now - int(entry.stat(follow_symlinks=False).st_mtime * 1000) >= older_than_ms:
                out.append(SessionSpool.from_path(home, Path(entry.path)))
    return sorted(out, key=lambda s: s.path.name)


def try_lock(path: Path) -> FileLock | None:
    """The lock at ``path`` if nobody holds it (the caller releases it), else None."""
    try:
        return FileLock(path, timeout=0).acquire()
    except LockTimeout:
        return None


# --------------------------------------------------------------------- learner start stamp
def read_learner_stamp(home: Home) -> dict[str, Any] | None:
    """When the last learner was started, or None if never. Raises CorruptFileError if damaged."""
    path = home.sessions_dir / LEARNER_STAMP
    data = read_bytes(path)
    if data is None:
        return None
    doc = parse_document(data, path, KIND)
    if not isinstance(doc.get("started_ms"), int):
        raise CorruptFileError(path, '"started_ms" must be a whole number of milliseconds')
    return doc


def write_learner_stamp(home: Home, *, started_ms: int, pid: int, reason: str) -> None:
    """Record a learner start. The stamp is a scheduling hint, so a damaged one is simply replaced."""
    path = _sessions_dir(home) / LEARNER_STAMP
    doc = {"started_ms": started_ms, "pid": pid, "reason": reason}
    atomic_write_bytes(path, dump_document(doc, KIND), durable=False)


# --------------------------------------------------------------------- hooks.log
def append_hook_log(home: Home, line: str) -> None:
    """Append one line to ``logs/hooks.log`` (0600), rotating it past HOOK_LOG_MAX_BYTES."""
    home.ensure()
    path = ensure_dir(home.logs_dir) / HOOK_LOG
    fd = open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        if os.fstat(fd).st_size > HOOK_LOG_MAX_BYTES:
            os.replace(path, path.with_name(HOOK_LOG + ".1"))
        os.write(fd, line.rstrip("\n").encode("utf-8", "replace") + b"\n")
    finally:
        os.close(fd)


def hook_log_path(home: Home) -> Path:
    return home.logs_dir / HOOK_LOG
