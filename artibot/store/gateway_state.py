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

import os

from artibot.store import hookfiles, hookio

TYPE_CHECKING = False  # not typing's own: the hooks import this module when the gateway is on (bench_hooks.py)
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping

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
    """The pid in ``port``'s pid file if that process is alive, else None. Alive is not
    proof that it is the gateway (a reboot reuses pids): :func:`gateway_pid` checks that."""
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


def gateway_pid(root: str, port: int) -> int | None:
    """The pid in ``port``'s pid file if it is a live gateway process of ours for that port
    (its command line says so), else None: the only process the hooks ever signal."""
    pid = read_pid(root, port)
    if pid is None or pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except OSError:  # another user's (PermissionError) or gone
        return None
    args = _command_line(pid)
    if args is None or "artibot.cli.gateway_main" not in args:
        return None
    if "--port" in args:
        at = args.index("--port")
        return pid if args[at + 1:at + 2] == [str(int(port))] else None
    return pid  # started without --port (the configured one): the pid file's port is its


def _command_line(pid: int) -> list[str] | None:
    """The arguments of process ``pid`` (``/proc``; ``ps`` where there is none)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().decode("utf-8", "replace").split("\0")
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return None  # /proc is there: the process is gone
    except OSError:
        return None
    import subprocess

    try:
        out = subprocess.run(["ps", "-o", "command=", "-p", str(pid)], capture_output=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.decode("utf-8", "replace").split() or None


def token_path(root: str) -> str:
    return f"{root}/run/gateway.token"


def read_token(root: str) -> str | None:
    """The data home's gateway token (None before any gateway ran here)."""
    try:
        data = hookio._read(token_path(root))
    except OSError:
        return None
    token = (data or b"").strip().decode("ascii", "replace")
    return token if len(token) == 64 else None


def ensure_token(root: str) -> str:
    """The data home's gateway token, created (0600, never replaced) if missing: a health
    answer proves with it that the gateway belongs to this data home."""
    token = read_token(root)
    if token is not None:
        return token
    hookio.ensure_dir(root)
    hookio.ensure_dir(f"{root}/run")
    path = token_path(root)
    tmp = f"{path}.{os.getpid()}.tmp"
    hookio._write_atomic(tmp, os.urandom(32).hex().encode("ascii") + b"\n")
    try:
        os.link(tmp, path)  # never over a token another gateway has just written
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
    token = read_token(root)
    if token is None:
        raise hookio.HookIOError(f"{path} does not hold a gateway token (64 hex digits): remove it")
    return token


def remove_pid(root: str, port: int, pid: int) -> None:
    """Remove the pid file if it still names ``pid`` (a newer gateway's stays)."""
    try:
        data = hookio._read(pid_path(root, port))
        if data is not None and data.strip() == str(pid).encode():
            os.unlink(pid_path(root, port))
    except OSError:
        pass


def remove_stale_pid(root: str, port: int) -> None:
    """Remove ``port``'s pid file when it names no gateway of ours (a crash, a reboot)."""
    if gateway_pid(root, port) is None:
        try:
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
