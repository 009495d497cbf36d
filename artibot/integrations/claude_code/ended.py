"""Turns past their session's end: the last turn held for a resumed session, idle spools settled.

At ``SessionEnd`` the session's last turn is not written to the experience log at once:
it stays in the spool (``done``, with ``hold_until``) so that the first prompt of the
same session resumed (``claude --continue``/``--resume``, same ``session_id``) judges
it as any next prompt does (:func:`.handlers.user_prompt_submit`, ``closed_by``
``resumed-prompt``). Every other turn of the session is final and handed over at once.
Once the hold is over the turn is final unjudged (``closed_by`` ``timeout``) and handed
over by whatever comes first: the resumed session's next hook, another session's
``SessionStart``, ``artibot learn`` or ``artibot collect`` (:func:`settle_waiting_turns`).
The record keeps the id the turn got when it opened, so every hand-over stays
exactly-once under kills. Why a hold rather than a later amendment: docs/outcomes.md.
"""

from __future__ import annotations

from artibot.integrations.claude_code import handlers, turns
from artibot.store import hookfiles, hookio

STALE_SESSION_MS = 24 * 3600 * 1000
"""A spool not written for this long belongs to a session that crashed or never came back."""

MAX_STALE_PER_START = 20
"""Idle spools settled per call (bounds a hook's time; the rest wait for the next one)."""

NEVER_BACK = ("interrupted", "the session never came back to close the turn")
CUT_BY_END = ("interrupted", "the session ended before the turn's Stop (an API error, a turn limit or Ctrl-C)")


def settle_idle_sessions(call) -> None:
    """Spools idle past the follow-up window (or the resume window, if shorter): their
    stopped or held turn is final once no prompt can judge it any more; past a day, all is."""
    window = resume_window_ms(call)
    idle_for = min(turns.FOLLOWUP_WINDOW_MS, window or turns.FOLLOWUP_WINDOW_MS)
    idle = hookfiles.stale_spools(call.root, older_than_ms=idle_for, now=call.now, exclude=call.session_id)
    for spool in idle[:MAX_STALE_PER_START]:
        def settle_one(spool: hookio.Spool = spool) -> None:
            with spool.edit(create=False, timeout=0) as doc:
                if doc is None:
                    return
                updated = doc.get("updated_ms")
                dead = not isinstance(updated, int) or call.now - updated >= STALE_SESSION_MS
                if not dead and _may_be_judged(doc.get("done"), updated, call.now):
                    still_open = True  # the session's next prompt, or a resumed one's, may still judge it
                else:
                    handlers.settle(call, doc, closed_by="timeout" if not dead else "stale-session",
                                    open_turn=NEVER_BACK if dead else None)
                    still_open = bool(doc.get("turn"))
            handlers.flush(call, spool)
            if not still_open:
                spool.remove()

        call.attempt(f"settling idle spool {spool.path.rsplit('/', 1)[-1]}", settle_one)


def _may_be_judged(done: dict | None, updated: object, now: int) -> bool:
    """Whether a prompt may still judge the spool's stopped turn: a held one until its
    ``hold_until``; one of a live session while its spool is younger than the follow-up window."""
    if not done:
        return False
    if isinstance(done.get("hold_until"), int):
        return now <= done["hold_until"]
    return isinstance(updated, int) and now - updated < turns.FOLLOWUP_WINDOW_MS


def resume_window_ms(call) -> int:
    """How long the session's last turn waits for a resumed session: ``ARTIBOT_RESUME_WINDOW_MIN``
    minutes (0: written at session end), else :data:`turns.RESUME_WINDOW_MS`."""
    import os

    value = os.environ.get("ARTIBOT_RESUME_WINDOW_MIN")
    if not value:
        return turns.RESUME_WINDOW_MS
    try:
        minutes = float(value)
        if not 0 <= minutes <= 24 * 60:
            raise ValueError
    except ValueError:
        call.log(f"ARTIBOT_RESUME_WINDOW_MIN={value[:20]!r} is not a number of minutes from 0 to 1440; "
                 f"using {turns.RESUME_WINDOW_MS // 60_000}")
        return turns.RESUME_WINDOW_MS
    return int(minutes * 60_000)


def hold_last_turn(call, doc: dict, window_ms: int) -> None:
    """At session end: the session's last turn stays in the spool (``done``, with its
    ``hold_until``) for the resumed session's first prompt; every other turn is final."""
    turn = doc.get("turn")
    if turn:  # the last turn was cut off: the stopped one before it is final
        handlers.settle(call, doc, closed_by="session-end")
        doc["turn"] = None
        held = turns.hold(turn, now=call.now, window_ms=window_ms, cut=turns.cut_off(turn, *CUT_BY_END))
        if held is None:
            outcome, reason = turns.cut_off(turn, *CUT_BY_END)
            handlers._final(call, doc, turn, outcome, reason, "session-end")
        doc["done"] = held
    elif doc.get("done"):
        held = turns.hold(doc["done"], now=call.now, window_ms=window_ms)
        if held is None:
            handlers.settle(call, doc, closed_by="session-end")
        else:
            doc["done"] = held


def settle_waiting_turns(root: str, *, now: int | None = None) -> None:
    """Hand over the turns of ended or idle sessions whose judging time is over (``learn``
    and ``collect`` call it first, so that they see them); problems go to ``hooks.log``."""
    from artibot.integrations.claude_code.hooks import HookCall

    call = HookCall("settle-waiting-turns")
    call.root, call.now = root, hookio.now_ms() if now is None else now
    call.attempt("settling idle sessions", lambda: settle_idle_sessions(call))
