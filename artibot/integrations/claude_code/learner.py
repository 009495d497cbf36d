"""Starting the learner from a hook: a fully detached child, never two at once.

``SessionEnd`` has about 1.5 s in all, so the hook only starts
``python -m artibot hook nightly-learner`` in a new session with its stdio on
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
import subprocess
import sys
from dataclasses import dataclass

from artibot.config import Settings
from artibot.errors import CorruptFileError
from artibot.store import sessions
from artibot.store.experiences import ExperienceLog
from artibot.store.fs import check_regular
from artibot.store.home import Home

STALE_AFTER_MS = 20 * 3600 * 1000
"""SessionStart starts a learner when none was started for this long (or ever)."""


@dataclass(frozen=True)
class Spawn:
    """What a spawn attempt did, for the hook log."""

    started: bool
    reason: str
    pid: int | None = None


def has_full_batch(home: Home, settings: Settings) -> bool:
    return ExperienceLog(home).count() >= settings.lifelong.batch_size


def stamp_is_stale(home: Home, *, now: int) -> tuple[bool, str]:
    """Whether the last learner start is older than STALE_AFTER_MS (or absent, or unreadable)."""
    try:
        stamp = sessions.read_learner_stamp(home)
    except CorruptFileError as exc:
        # The stamp is a scheduling hint, not state: a damaged one is replaced by the next start.
        return True, f"learner stamp unreadable ({exc.problem})"
    if stamp is None:
        return True, "no learner started yet"
    age = now - stamp["started_ms"]
    if age > STALE_AFTER_MS:
        return True, f"last learner started {age // 3_600_000} h ago"
    return False, f"last learner started {age // 60_000} min ago"


def learner_command() -> list[str]:
    return [sys.executable, "-m", "artibot", "hook", "nightly-learner"]


def child_environment(home: Home) -> dict[str, str]:
    """The hook's own environment, passed through, with the data home pinned explicitly."""
    env = dict(os.environ)
    env["ARTIBOT_HOME"] = str(home.root)
    return env


def spawn(home: Home, settings: Settings, *, now: int, reason: str) -> Spawn:
    """Start the detached learner if a batch is ready and no learner holds the lock."""
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
