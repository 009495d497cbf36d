"""What ``status`` and ``doctor`` say about the hooks: failures since their last success, and
the turns the session spools hold that the log does not have yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artibot.shapes import GatewayStatus, HookFailure, PendingTurns

if TYPE_CHECKING:
    from artibot.store.doctor import Finding
    from artibot.store.home import Home


def failure_lines(failures: list[HookFailure], hooks_log: str) -> list[str]:
    """One line per cause, then where the whole story is; nothing when every hook works."""
    if not failures:
        return []
    from artibot.cli.words import session_lang, w

    lang = session_lang()
    lines = [w(lang, "hf_head", n=len(failures))]
    for f in failures:
        times = w(lang, "hf_once", at=_minute(f["first"])) if f["count"] == 1 else w(
            lang, "hf_times", n=f["count"], first=_minute(f["first"]), last=_minute(f["last"]))
        lines.append(f"  {f['event']}: {f['cause']} — {times} UTC")
    lines.append(w(lang, "hf_tail", log=hooks_log))
    return lines


def pending_line(pending: PendingTurns | None, lang: str | None = None) -> str | None:
    """The turns in open or held sessions, which the counts and the costs do not include yet
    (in ``lang``, by default the session's)."""
    if not pending:
        return None
    total = pending["open"] + pending["waiting"] + pending["queued"]
    if not total:
        return None
    from artibot.cli.words import session_lang, w

    lang = lang or session_lang()
    parts = [w(lang, key, n=n) for n, key in ((pending["open"], "p_open"),
                                              (pending["waiting"] - pending["held"], "p_waiting"),
                                              (pending["held"], "p_held"), (pending["queued"], "p_queued")) if n]
    return w(lang, "pending", sessions=pending["sessions"], total=total, parts=", ".join(parts))


def _minute(stamp: str) -> str:
    return stamp[:16].replace("T", " ")


def hook_findings(home: Home) -> list[Finding]:
    """``doctor``'s findings about the hooks: each failing event is an error until it works again."""
    from artibot.store.doctor import Finding
    from artibot.store.sessions import hook_failures, hook_log_path

    from artibot.cli.words import session_lang, w

    lang = session_lang()
    found = []
    by_event: dict[str, list[HookFailure]] = {}
    for f in hook_failures(home):
        by_event.setdefault(f["event"], []).append(f)
    for event, failures in by_event.items():
        newest = failures[-1]
        count = sum(f["count"] for f in failures)
        found.append(Finding(
            path=hook_log_path(home), severity="error",
            problem=w(lang, "hook_problem", event=event, n=count, at=_minute(newest["last"]), cause=newest["cause"]),
            fix=w(lang, "hook_fix")))
    return found


def installed_ports(home: Home) -> list[int]:
    """The gateway ports Claude Code's settings (seen from here) send this home's requests to."""
    from pathlib import Path

    from artibot.config import claude_project_dir, claude_user_dir
    from artibot.integrations.claude_code.installer import gateway_ports

    return gateway_ports(str(home.root), user_dir=claude_user_dir(), project_dir=claude_project_dir() or Path.cwd())


def free_port_near(port: int) -> int:
    """A port after ``port`` that nothing listens on now (for the advice: a port to move to)."""
    import socket

    for candidate in range(port + 1, min(port + 50, 65535)):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return candidate
    return port + 1


def blocked_sentences(gw: GatewayStatus) -> tuple[str, str] | None:
    """Why every prompt is stopped and what to do, for an installed port another program holds."""
    if not gw.get("installed") or gw["state"] != "another program":
        return None
    from artibot.cli.words import session_lang, w

    lang = session_lang()
    pid = gw.get("pid")
    if gw.get("held_by") == "another data home":
        holder = w(lang, "gw_held_home", pid=pid) if pid else w(lang, "gw_held_home_nopid")
        what = w(lang, "gw_stop_pid", pid=pid) if pid else w(lang, "gw_stop_other")
    else:
        holder, what = w(lang, "gw_held_other"), w(lang, "gw_stop_other")
    return (w(lang, "gw_blocked", port=gw["port"], holder=holder),
            w(lang, "gw_blocked_fix", what=what, free=free_port_near(gw["port"])))


def gateway_findings(home: Home) -> list[Finding]:
    """``doctor``'s findings about the gateway: an installed port this home's gateway cannot have."""
    from artibot.config import load_settings
    from artibot.reports.status import gateway_status
    from artibot.store.doctor import Finding

    try:
        ports = installed_ports(home)
    except OSError:
        return []
    if not ports:
        return []
    found = []
    for gw in gateway_status(str(home.root), load_settings(home.root).gateway_server.port, ports):
        said = blocked_sentences(gw)
        if said is not None:
            found.append(Finding(path=home.root, severity="error", problem=said[0], fix=said[1]))
    return found
