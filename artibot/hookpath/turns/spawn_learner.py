"""Starting the learner from a hook: a fully detached child, never two at once.

``SessionEnd`` has about 1.5 s in all, so the hook only starts
``python -m artibot learn --unattended --quiet`` (the same job a crontab line runs,
:mod:`artibot.round.unattended`) in a new session with its stdio on
``/dev/null`` and returns. Sessions that crash never send ``SessionEnd``, so
``SessionStart`` also starts one when the last start is stale.

A learner is started only when the experience log holds at least one full batch
(``learning.lifelong.batchSize`` records) and no round waits for review in
``pending-review.json``: otherwise a round has nothing to do (it would prepare
nothing new, or refuse). Before spawning, the learner lock is tried without waiting; if it is held a
learner is running and none is started. The child takes the lock itself (inside the
cycle); the tiny window between our probe and its start is covered by the cycle,
which gives up with ``LockTimeout`` when another learner got there first.
"""

from __future__ import annotations

import os

from artibot.hookpath.names import LEARNER_CHECK as CHECK_STAMP  # under sessions/
from artibot.hookpath.names import LEARNER_STAMP  # written by artibot.store.sessions
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: SessionStart imports this module on every session
if TYPE_CHECKING:
    from artibot.config.settings import Settings
    from artibot.store.home import Home

STALE_AFTER_MS = 20 * 3600 * 1000
"""SessionStart starts a learner when none was started for this long (or ever)."""


CHECK_EVERY_MS = 3600 * 1000
"""SessionStart looks for a waiting batch at most this often (it costs the experience log's
import and a count); sessions that end normally start the learner at SessionEnd anyway."""


class Spawn:
    """What a spawn attempt did, for the hook log."""

    def __init__(self, started: bool, reason: str, pid: int | None = None):
        self.started, self.reason, self.pid = started, reason, pid


def has_full_batch(home: "Home", settings: "Settings") -> bool:
    from artibot.store.log.experiences import ExperienceLog

    return ExperienceLog(home).count() >= settings.lifelong.batch_size


def stamp_is_stale(root: str, *, now: int) -> tuple[bool, str]:
    """Whether the last learner start is older than STALE_AFTER_MS (or absent, or unreadable).

    Read without the store's document layer: SessionStart asks on every session, and a
    fresh stamp must cost no more than a file read.
    """
    try:
        data = hookio.read_cache(root, LEARNER_STAMP)
        stamp = hookio.loads(data) if data is not None else None
        started = stamp.get("started_ms") if isinstance(stamp, dict) else "?"
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        # The stamp is a scheduling hint, not state: a damaged one is replaced by the next start.
        return True, f"learner stamp unreadable ({exc})"
    if stamp is None:
        checked = _checked_ms(root)
        if checked is not None and 0 <= now - checked < CHECK_EVERY_MS:
            return False, f"no learner needed at the last check {(now - checked) // 60_000} min ago"
        return True, "no learner started yet"
    if not isinstance(started, int) or isinstance(started, bool):
        return True, "learner stamp unreadable (\"started_ms\" must be a whole number of milliseconds)"
    age = now - started
    if age > STALE_AFTER_MS:
        return True, f"last learner started {age // 3_600_000} h ago"
    return False, f"last learner started {age // 60_000} min ago"


def _checked_ms(root: str) -> int | None:
    try:
        data = hookio.read_cache(root, CHECK_STAMP)
        doc = hookio.loads(data) if data is not None else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    value = doc.get("checked_ms") if isinstance(doc, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def note_check(root: str, *, now: int) -> None:
    """Remember that no learner was needed at ``now`` (see :data:`CHECK_EVERY_MS`)."""
    hookio.write_cache(root, CHECK_STAMP, hookio.dumps({"checked_ms": now}).encode("ascii"))


def learner_command() -> list[str]:
    import sys

    return [sys.executable, "-m", "artibot", "learn", "--unattended", "--quiet"]


def child_environment(home: "Home") -> dict[str, str]:
    """The hook's own environment, passed through, with the data home pinned explicitly."""
    env = dict(os.environ)
    env["ARTIBOT_HOME"] = str(home.root)
    return env


def spawn(home: "Home", settings: "Settings", *, now: int, reason: str) -> Spawn:
    """Start the detached learner if a batch is ready and no learner holds the lock."""
    import subprocess

    from artibot.store import sessions
    from artibot.store.fs import check_regular

    if check_regular(home.pending_review):
        return Spawn(False, f"{reason}: a round is waiting for review (/learn), no learner needed")
    if not has_full_batch(home, settings):
        return Spawn(False, f"{reason}: fewer than {settings.lifelong.batch_size} experiences, no learner needed")
    home.ensure()
    probe = sessions.try_lock(home.learner_lock)
    if probe is None:
        return Spawn(False, f"{reason}: a learner is already running")
    probe.release()
    child = subprocess.Popen(
        learner_command(),
        cwd=home.root,
        env=child_environment(home),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,
    )
    # Nobody waits for it: it outlives this hook. Mark it as reaped so the interpreter
    # does not warn about a running child at exit.
    child.returncode = 0
    sessions.write_learner_stamp(home, started_ms=now, pid=child.pid, reason=reason)
    return Spawn(True, reason, child.pid)
