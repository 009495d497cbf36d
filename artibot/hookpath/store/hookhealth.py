"""The hooks' failures since their last success, kept where ``status`` and ``doctor`` find them.

``logs/hooks.log`` says everything that went wrong, in order, but not whether it still
does. So each hook event keeps one small file while it fails::

    logs/hook-failures/<event>.json
        {"schema_version": 1, "event": str,
         "causes": {cause: {"count": int, "first": iso, "last": iso}}}

A hook call that logged an error adds to its event's file; a call that logged none
removes it (one ``unlink`` that finds nothing, on the healthy path: the prompt hook pays
about a microsecond). ``logs/hook-failures/.told.json`` lists the last sessions already
told, so that a hook that cannot work says so in the client's own visible channel once a
session, not on every prompt.

Standard library only: every hook imports this module (``scripts/bench_hooks.py``).
"""

from __future__ import annotations

import os
import time

from artibot.hookpath.names import HOOK_FAILURES_DIR, LOGS_DIR
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's own: every hook imports this module
if TYPE_CHECKING:
    from typing import Any

MAX_CAUSES = 5
"""Causes kept per event (the newest); the rest are in ``hooks.log``."""
MAX_TOLD = 50
TOLD = ".told.json"


def _dir(root: str) -> str:
    return f"{root}/{LOGS_DIR}/{HOOK_FAILURES_DIR}"


def _file_name(event: str) -> str:
    return hookio.spool_name(event.replace(" ", "-")) + ".json"


def cleared(root: str, event: str) -> None:
    """The hook ``event`` just worked: forget its failures."""
    try:
        os.unlink(f"{_dir(root)}/{_file_name(event)}")
    except FileNotFoundError:
        pass


def failed(root: str, event: str, causes: list[str], session_id: str | None) -> bool:
    """Count ``causes`` against ``event``; True when ``session_id`` has not been told yet
    (and it is now marked told)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    hookio.ensure_dir(root)
    hookio.ensure_dir(f"{root}/{LOGS_DIR}")
    folder = hookio.ensure_dir(_dir(root))
    path = f"{folder}/{_file_name(event)}"
    doc = _load(path)
    stored = doc.get("causes")
    known: dict[str, Any] = stored if isinstance(stored, dict) else {}
    for cause in causes:
        entry = known.pop(cause, None)
        if not isinstance(entry, dict) or not isinstance(entry.get("count"), int):
            entry = {"count": 0, "first": stamp}
        entry["count"] += 1
        entry["last"] = stamp
        known[cause] = entry  # re-inserted: the newest last
    kept = dict(list(known.items())[-MAX_CAUSES:])
    hookio.write_file(path, hookio.dumps({"schema_version": 1, "event": event, "causes": kept}).encode("ascii"))
    if not session_id:
        return False
    told_path = f"{folder}/{TOLD}"
    told = _load(told_path).get("sessions")
    told = [s for s in told if isinstance(s, str)] if isinstance(told, list) else []
    if session_id in told:
        return False
    told = (told + [session_id])[-MAX_TOLD:]
    hookio.write_file(told_path, hookio.dumps({"schema_version": 1, "sessions": told}).encode("ascii"))
    return True


def _load(path: str) -> dict[str, Any]:
    try:
        data = hookio.read_file(path)
        doc = hookio.loads(data) if data else {}
    except (OSError, ValueError, UnicodeDecodeError, hookio.HookIOError):
        return {}  # a damaged record of failures is started afresh: hooks.log keeps the history
    return doc if isinstance(doc, dict) else {}


def read_all(root: str) -> list[dict[str, Any]]:
    """Every failing event's record, as stored (for ``status`` and ``doctor``); damaged ones skipped."""
    folder = _dir(root)
    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []  # no failure kept (a file in the home's place is doctor's finding)
    records = []
    for name in names:
        if name.startswith(".") or not name.endswith(".json"):
            continue
        doc = _load(f"{folder}/{name}")
        if isinstance(doc.get("causes"), dict) and doc["causes"]:
            doc["path"] = f"{folder}/{name}"
            records.append(doc)
    return records
