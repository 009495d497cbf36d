"""A member's team sync from SessionStart: push, then pull the team's latest state, in a
detached child, so SessionStart never waits on the database.

SessionStart asks :func:`start_if_due` on every session. It costs a file test (is this
home a member?) and one small read (when did the last sync start?); when the last sync
started more than :data:`SYNC_EVERY_MS` ago, it starts ``python -m artibot.team.sync``
in a new session with its stdio on ``/dev/null`` and returns. The child pushes the
queue and pulls the latest published state (:func:`artibot.team.member.pull`, which
caches it, writes the team's thresholds where the member has not learned its own, and
keeps the previous cached state when the new one does not parse). Every connection has
a connect and a statement timeout, and the child ends itself after
:data:`SYNC_DEADLINE_S` whatever happens: a dead or slow database costs a child that
gives up, never a session that waits. What SessionStart then routes by is the cached
copy on disk, the only thing it reads.

The stamp (``sessions/.team-sync.json``) holds when the last sync started and how the
last one ended (its pull's sentence in English, and the same as a message's JSON, ``said``,
for ``artibot status`` to say in the session's language); ``artibot status`` shows it beside
the cached state's round and age.
"""

from __future__ import annotations

import os

from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: SessionStart imports this module on every session of a member
if TYPE_CHECKING:
    from artibot.messages import Message
    from artibot.store.home import Home

SYNC_STAMP = ".team-sync.json"  # under sessions/
SYNC_EVERY_MS = 15 * 60 * 1000
"""SessionStart starts a team sync when none started for this long (a dead database is tried
at most this often, not at every session)."""
SYNC_DEADLINE_S = 60
"""The child ends itself after this long, whatever the database does."""
PULL_TIMEOUT_S = 5.0


def is_member(root: str) -> bool:
    return hookio.team_member(root)


def read_stamp(root: str) -> "dict[str, object] | None":
    """The sync stamp, or None when absent or unreadable (a scheduling hint, not state:
    a damaged one is replaced by the next sync)."""
    try:
        data = hookio.read_cache(root, SYNC_STAMP)
        doc = hookio.loads(data) if data is not None else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def _write_stamp(root: str, doc: "dict[str, object]") -> None:
    hookio.write_cache(root, SYNC_STAMP, hookio.dumps(doc).encode("ascii"))


def due(root: str, *, now: int) -> tuple[bool, str]:
    """Whether SessionStart should start a sync, and why (for the hook log)."""
    if not is_member(root):
        return False, "not a team member"
    stamp = read_stamp(root)
    started = stamp.get("started_ms") if stamp else None
    if not isinstance(started, int) or isinstance(started, bool):
        return True, "no team sync started yet"
    age = now - started
    if 0 <= age < SYNC_EVERY_MS:
        return False, f"last team sync started {age // 60_000} min ago"
    return True, f"last team sync started {max(age, 0) // 60_000} min ago"


def command() -> list[str]:
    import sys

    return [sys.executable, "-m", "artibot.team.sync"]


def start_if_due(root: str, *, now: int) -> str | None:
    """Start the detached sync when it is due; the sentence for the hook log, or None when
    this home is not a member."""
    go, why = due(root, now=now)
    if not go:
        return None if why == "not a team member" else f"team sync not needed: {why}"
    import subprocess

    env = dict(os.environ)
    env["ARTIBOT_HOME"] = root
    previous = read_stamp(root) or {}
    child = subprocess.Popen(command(), cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True)
    child.returncode = 0  # nobody waits for it: it outlives the hook
    _write_stamp(root, {"started_ms": now, "pid": child.pid, "last": previous.get("last")})
    return f"team sync started, pid {child.pid} ({why})"


def run(home: "Home", *, timeout_s: float = PULL_TIMEOUT_S) -> list[str]:
    """Push, then pull; one sentence each, never an exception (the child and the learner log them)."""
    from datetime import datetime, timezone

    from artibot.errors import ArtibotError
    from artibot.team.member import pull
    from artibot.team.push import try_push

    lines: list[str] = []
    try:
        pushed = try_push(home, timeout_s=timeout_s)
        said = pushed if isinstance(pushed, str) else pushed.message if pushed else "not a member"
        lines.append(f"team push: {said}")
    except ArtibotError as exc:
        lines.append(f"team push: {exc}")
    ok = False
    pulled: Message | None = None
    try:
        report = pull(home=home, timeout_s=timeout_s)
        ok = report.used or report.version is None
        lines.append(f"team pull: {report.message}")
        pulled = report.said
    except (ArtibotError, OSError) as exc:
        lines.append(f"team pull: {exc}")
        pulled = exc.message if isinstance(exc, ArtibotError) else None
    root = str(home.root)
    stamp = read_stamp(root) or {}
    last: dict[str, object] = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "ok": ok,
                               "message": lines[-1].removeprefix("team pull: ")}
    if pulled is not None:
        last["said"] = pulled.to_json()
    stamp["last"] = last
    try:
        _write_stamp(root, stamp)
    except OSError as exc:
        lines.append(f"team sync: the sync stamp could not be written ({exc})")
    return lines


def main() -> int:
    import signal
    import time

    from artibot.store.home import Home

    signal.alarm(SYNC_DEADLINE_S)  # the default action ends the process: a hung database cannot keep it
    home = Home.of(os.environ.get("ARTIBOT_HOME") or None)
    for line in run(home):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        try:
            hookio.append_log(str(home.root), f"{stamp}\tteam-sync\t{' '.join(line.split())[:2000]}")
        except OSError:
            pass  # the log is the last resort; the stamp holds how the sync ended
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
