"""The detached learner's side of ``sessions/``: its start stamp and its lock.

The per-session spools and ``logs/hooks.log`` are written by the hooks through
:mod:`artibot.hookpath.store.hookio` (stdlib only, at the interpreter's floor); this module keeps
what the learner needs, with the store's full checks::

    sessions/.learner-stamp.json   {"schema_version": 1, "started_ms": int, "pid": int, "reason": str}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from artibot.errors import CorruptFileError, LockTimeout
from artibot.store.documents import dump_document, parse_document
from artibot.store.fs import FileLock, atomic_write_bytes, ensure_dir, read_bytes
from artibot.store.home import Home
from artibot.hookpath.names import HOOK_LOG, LEARNER_STAMP
from artibot.shapes import HookFailure, PendingTurns

KIND = "session"


def _sessions_dir(home: Home) -> Path:
    home.ensure()  # the home first: ensure_dir gives only the leaf mode 0700
    return ensure_dir(home.sessions_dir)


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
def hook_log_path(home: Home) -> Path:
    return home.logs_dir / HOOK_LOG


def hook_failures(home: Home) -> list[HookFailure]:
    """Each hook event's failures since its last success, newest cause last (:mod:`.hookhealth`)."""
    from artibot.hookpath.store import hookhealth

    found: list[HookFailure] = []
    for doc in hookhealth.read_all(str(home.root)):
        for cause, entry in doc["causes"].items():
            if isinstance(entry, dict) and isinstance(entry.get("count"), int):
                found.append({"event": str(doc.get("event") or "?"), "cause": str(cause), "count": entry["count"],
                              "first": str(entry.get("first") or "?"), "last": str(entry.get("last") or "?")})
    return found


# --------------------------------------------------------------------- held turns
def held_turns(home: Home) -> int:
    """Turns of ended sessions waiting in their spool for a resumed session's first prompt
    (``done`` with ``hold_until``; not in the experience log yet). A spool that does not
    parse is not counted: the next hook moves it aside and ``doctor`` names it."""
    return pending_turns(home)["held"]


def spools(home: Home) -> list[dict[str, Any]]:
    """Every session spool that parses (one that does not is moved aside by the next hook and
    named by ``doctor``)."""
    from artibot.hookpath.store.hook_reads import files_in
    from artibot.hookpath.store.hookio import Spool

    found = []
    for path in files_in(str(home.sessions_dir), skip=(".",)):
        if not path.endswith(".json"):
            continue
        spool = Spool(str(home.root), None)
        spool.path = path
        try:
            doc = spool.read()
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        if isinstance(doc, dict):
            found.append(doc)
    return found


def pending_turns(home: Home) -> PendingTurns:
    """The turns the session spools hold that the experience log does not have yet."""
    counts: PendingTurns = {"sessions": 0, "open": 0, "waiting": 0, "queued": 0, "held": 0}
    for doc in spools(home):
        turn, done, queue = doc.get("turn"), doc.get("done"), doc.get("queue")
        opened = isinstance(turn, dict)
        stopped = isinstance(done, dict)
        queued = len(queue) if isinstance(queue, list) else 0
        counts["sessions"] += bool(opened or stopped or queued)
        counts["open"] += opened
        counts["waiting"] += stopped
        counts["queued"] += queued
        counts["held"] += isinstance(done, dict) and isinstance(done.get("hold_until"), int)
    return counts
