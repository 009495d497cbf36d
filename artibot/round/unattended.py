"""The unattended round: the one job the detached learner and the crontab line both run.

``artibot learn --unattended`` is that job, whoever starts it: SessionEnd (and a stale
SessionStart) start it as a detached child (:mod:`artibot.hookpath.turns.spawn_learner`), cron
runs it from ``artibot schedule install``'s line. A team member's records go to the pool and
the team's state comes back first (the round then starts from what the team published); the
round is answered by ``learning.checkpoints.unattended``; the applied rounds are measured
afterwards so the next SessionStart reads their notices instead of measuring. Each step
writes its line to ``logs/hooks.log`` (event ``learner``), where ``status`` and a person
reading the log find what the learner did, and one failing step never stops the next.
"""

from __future__ import annotations

from typing import Callable

from artibot.round.cycle import RoundReport, learn
from artibot.errors import ArtibotError, LockTimeout
from artibot.config.settings import Settings
from artibot.store.home import Home

EVENT = "learner"
"""The learner's lines in ``logs/hooks.log``."""


def log_line(home: Home, what: str) -> None:
    """One line of the learner's in the hook log (never raises: the log is the last resort)."""
    from artibot.hookpath.turns.call import write_log

    write_log(str(home.root), EVENT, what)


def run(home: Home, settings: Settings, *, log: Callable[[str], None], flush: bool = False) -> RoundReport | None:
    """Sync with the team (a member only), one round answered unattended (``flush``: a last,
    smaller batch too), then the applied rounds measured. None: another learner holds the lock
    (logged; the next start retries)."""
    log("learner running")
    _step(log, "syncing with the team", lambda: _team_sync(home, log))
    try:
        report = learn(home=home, answers="unattended", settings=settings, flush=flush)
    except LockTimeout as exc:
        log(f"learner skipped: {exc}")
        return None
    log(f"learner finished: {report.status} {report.round_id or 'no round'} ({report.message})")

    def notices() -> None:
        from artibot.hookpath.turns.notices import save_notices

        save_notices(str(home.root), home)

    _step(log, "validating applied rounds", notices)
    return report


def _team_sync(home: Home, log: Callable[[str], None]) -> None:
    """A member's records go to the pool and the team's state comes back; a database that is
    down costs a few seconds and a line, the records stay queued."""
    from artibot.team import sync

    if not sync.is_member(str(home.root)):
        return
    for line in sync.run(home, timeout_s=3.0):
        log(line)


def _step(log: Callable[[str], None], doing: str, fn: Callable[[], None]) -> None:
    try:
        fn()
    except (ArtibotError, OSError, ValueError) as exc:
        log(f"{doing}: {type(exc).__name__}: {exc}")
