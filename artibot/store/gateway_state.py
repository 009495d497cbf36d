"""The gateway's files: the session spool (which turn a request belongs to, and its cost) and its pid file.

The prompt hook opens a turn in ``sessions/<sid>.json`` before Claude Code sends the
turn's first request, so the gateway finds the turn there by the request's session id.
Reads take a snapshot without the lock (spools are replaced by rename, never written in
place); the two writes take the spool's lock with a short timeout, the same lock the
hooks use, so a hook and the gateway never lose each other's change:

* :func:`fix_profile` — at a turn's first request, the profile the whole turn runs on;
* :func:`add_usage` — after each response, its tokens, cost and timing, added to the
  turn (open, stopped, or already waiting in the queue for the log) and to the
  session's running state (the model it is on and its cached prefix, for the
  model-switch rule).

A usage whose turn has already gone to the experience log (only a request still running
when its session ended) is reported back as not attributed; the caller counts it.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from artibot.store import hookfiles, hookio

LOCK_TIMEOUT_S = 1.0
"""A hook holds a spool lock for a millisecond or two; a request must not wait for more."""


def open_turn(root: str, session_id: str) -> dict[str, Any] | None:
    """The session's turn that a request now belongs to: the open one, else the one that
    last stopped (its background sub-agents may still run); None when there is none."""
    try:
        doc = hookio.Spool(root, session_id).read()
    except ValueError:
        return None  # a damaged spool: the next hook quarantines it; the request goes through untouched
    if doc is None:
        return None
    for key in ("turn", "done"):
        turn = doc.get(key)
        if isinstance(turn, dict) and isinstance(turn.get("id"), str):
            return turn
    return None


def _find(doc: Mapping[str, Any], turn_id: str) -> dict[str, Any] | None:
    for key in ("turn", "done"):
        turn = doc.get(key)
        if isinstance(turn, dict) and turn.get("id") == turn_id:
            return turn
    for record in doc.get("queue") or []:
        if isinstance(record, dict) and record.get("id") == turn_id:
            return record
    return None


def fix_profile(root: str, session_id: str, turn_id: str,
                choose: Callable[[Mapping[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
    """The profile fixed for ``turn_id``: the one already fixed, else ``choose(session_state)``
    stored on the turn. None when the turn is gone."""
    with hookio.Spool(root, session_id).edit(create=False, timeout=LOCK_TIMEOUT_S) as doc:
        if doc is None:
            return None
        turn = _find(doc, turn_id)
        if turn is None:
            return None
        fixed = turn.get("gateway")
        if isinstance(fixed, dict) and isinstance(fixed.get("profile"), dict):
            return fixed
        state = doc.get("gateway")
        fixed = choose(state if isinstance(state, dict) else {})
        turn["gateway"] = fixed
        return fixed


def add_usage(root: str, session_id: str, turn_id: str | None, entry: Mapping[str, Any],
              accumulate: Callable[[Any, Mapping[str, Any]], dict[str, Any]]) -> bool:
    """Add one response's ``entry`` to its turn (``turn_id``) and to the session state.
    True when the turn was found; a request of no routed turn (``turn_id`` None) only
    moves the session state."""
    spool = hookio.Spool(root, session_id)
    with spool.edit(create=False, timeout=LOCK_TIMEOUT_S) as doc:
        if doc is None:
            return False
        model = entry.get("model")
        if turn_id is not None and isinstance(model, str):
            doc["gateway"] = {"model": model, "cached_tokens": int(entry.get("cached_tokens") or 0)}
        if turn_id is None:
            return False
        turn = _find(doc, turn_id)
        if turn is None:
            return False
        turn["usage"] = accumulate(turn.get("usage"), entry)
        return True


# --------------------------------------------------------------------- the running gateway
def pid_path(root: str, port: int) -> str:
    return f"{root}/run/gateway-{int(port)}.pid"


def write_pid(root: str, port: int, pid: int) -> None:
    """Say that ``pid`` serves ``port`` (read by the hooks to tell whether to start one)."""
    hookio.ensure_dir(root)
    hookio.ensure_dir(f"{root}/run")
    hookio._write_atomic(pid_path(root, port), f"{pid}\n".encode("ascii"))


def read_pid(root: str, port: int) -> int | None:
    """The pid of the gateway serving ``port`` if that process is alive, else None."""
    import os

    try:
        data = hookio._read(pid_path(root, port))
    except OSError:
        return None
    try:
        pid = int(data or b"")
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return None
    except PermissionError:
        return pid  # alive, another user's: the port is taken either way
    return None if _zombie(pid) else pid


def _zombie(pid: int) -> bool:
    """A killed gateway whose parent has not reaped it yet (a detached child waits for init,
    and a container's init may never reap) still answers signal 0: its state says it is dead."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False  # no /proc (macOS): signal 0 is all there is
    return stat[stat.rfind(b")") + 2:stat.rfind(b")") + 3] in (b"Z", b"X")


def remove_pid(root: str, port: int, pid: int) -> None:
    """Remove the pid file if it still names ``pid`` (a newer gateway's stays)."""
    import os

    try:
        data = hookio._read(pid_path(root, port))
        if data is not None and data.strip() == str(pid).encode():
            os.unlink(pid_path(root, port))
    except OSError:
        pass


def ports(root: str) -> list[int]:
    """The ports with a gateway pid file in this data home."""
    names = hookfiles.files_in(f"{root}/run")
    out = []
    for path in names:
        name = path.rsplit("/", 1)[-1]
        if name.startswith("gateway-") and name.endswith(".pid") and name[8:-4].isdigit():
            out.append(int(name[8:-4]))
    return out
