"""What ``status`` and ``doctor`` say about the hooks: failures since their last success, and
the turns the session spools hold that the log does not have yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artibot.shapes import HookFailure, PendingTurns

if TYPE_CHECKING:
    from artibot.store.doctor import Finding
    from artibot.store.home import Home


def failure_lines(failures: list[HookFailure], hooks_log: str) -> list[str]:
    """One line per cause, then where the whole story is; nothing when every hook works."""
    if not failures:
        return []
    lines = [f"hook failures since the hook last worked ({len(failures)} cause(s); turns may not be recorded):"]
    for f in failures:
        times = f"once, at {_minute(f['first'])}" if f["count"] == 1 else (
            f"{f['count']} times, first {_minute(f['first'])}, last {_minute(f['last'])}")
        lines.append(f"  {f['event']}: {f['cause']} — {times} UTC")
    lines.append(f"  every line is in {hooks_log}; the record clears on the hook's next success")
    return lines


def pending_line(pending: PendingTurns | None) -> str | None:
    """The turns in open or held sessions, which the counts and the costs do not include yet."""
    if not pending:
        return None
    total = pending["open"] + pending["waiting"] + pending["queued"]
    if not total:
        return None
    parts = [f"{n} {what}" for n, what in ((pending["open"], "in progress"),
                                           (pending["waiting"] - pending["held"], "waiting for the next prompt"),
                                           (pending["held"], "held for a resumed session"),
                                           (pending["queued"], "final, queued for the session's end")) if n]
    return (f"turns pending in {pending['sessions']} session(s): {total} ({', '.join(parts)}); "
            "not in the log, the counts or the costs until their session ends")


def _minute(stamp: str) -> str:
    return stamp[:16].replace("T", " ")


def hook_findings(home: Home) -> list[Finding]:
    """``doctor``'s findings about the hooks: each failing event is an error until it works again."""
    from artibot.store.doctor import Finding
    from artibot.store.sessions import hook_failures, hook_log_path

    found = []
    by_event: dict[str, list[HookFailure]] = {}
    for f in hook_failures(home):
        by_event.setdefault(f["event"], []).append(f)
    for event, failures in by_event.items():
        newest = failures[-1]
        count = sum(f["count"] for f in failures)
        found.append(Finding(
            path=hook_log_path(home), severity="error",
            problem=f"the {event} hook failed {count} time(s) since it last worked, last at {_minute(newest['last'])} "
                    f"UTC: {newest['cause']}",
            fix="fix the cause above (a config file it names, a folder's permissions); the next hook that works "
                "clears this"))
    return found
