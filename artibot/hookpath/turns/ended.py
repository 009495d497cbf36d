"""Settling turns: the spool's waiting turns made final and handed to the experience log, the
last turn held for a resumed session, idle spools settled.

At ``SessionEnd`` the session's last turn is not written to the experience log at once:
it stays in the spool (``done``, with ``hold_until``) so that the first prompt of the
same session resumed (``claude --continue``/``--resume``, same ``session_id``) judges
it as any next prompt does (:func:`.handlers.user_prompt_submit`, ``closed_by``
``resumed-prompt``). Every other turn of the session is final and handed over at once.
Once the hold is over the turn is final unjudged (``closed_by`` ``timeout``) and handed
over by whatever comes first: the resumed session's next hook, another session's
``SessionStart``, step 1 of every learning round (``artibot learn``, ``/learn``, the
detached learner: :func:`artibot.round.cycle.learn` calls :func:`.call.settle_waiting_turns` itself) or
``artibot collect``.
The record keeps the id the turn got when it opened, so every hand-over stays
exactly-once under kills. Why a hold rather than a later amendment: docs/outcomes.md.
"""

from __future__ import annotations

from artibot.hookpath.turns import turn as turns
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: imported by prompt and stop hooks
if TYPE_CHECKING:
    from artibot.hookpath.turns.protocol import Call
    from artibot.shapes import ExperienceRecord, Turn
    from artibot.hookpath.store.hookio import SpoolDoc

STALE_SESSION_MS = 24 * 3600 * 1000
"""A spool not written for this long belongs to a session that crashed or never came back."""

MAX_STALE_PER_START = 20
"""Idle spools settled per call (bounds a hook's time; the rest wait for the next one)."""

NEVER_BACK = ("interrupted", "the session never came back to close the turn")
CUT_BY_END = ("interrupted", "the session ended before the turn's Stop (an API error, a turn limit or Ctrl-C)")


def _final(call: Call, doc: SpoolDoc, turn: Turn, outcome: str, reason: str, closed_by: str) -> ExperienceRecord:
    session_id = doc.get("session_id") if isinstance(doc.get("session_id"), str) else call.session_id
    record = turns.experience(turn, outcome=outcome, reason=reason, now=call.now,
                              session_id=session_id, closed_by=closed_by)
    doc.setdefault("queue", []).append(record)
    return record


def settle(call: Call, doc: SpoolDoc, *, closed_by: str, judgement: tuple[str, str] | None = None,
           open_turn: tuple[str, str] | None = None) -> list[ExperienceRecord]:
    """Make the spool's waiting turns final (queued for the log); the document is edited in place.
    Returns the records made final, oldest first.

    The stopped turn (``done``) takes ``judgement`` if one is given; an open turn (no
    ``Stop`` yet) is closed with ``open_turn`` (outcome, reason) if one is given, else stays
    open; a tool call of its own that failed or was interrupted makes it ``failed`` whatever
    cut it off (:func:`turns.cut_off`).
    """
    final: list[ExperienceRecord] = []
    done = doc.get("done")
    if done:
        doc["done"] = None
        outcome, reason = turns.finalize(done, judgement)
        final.append(_final(call, doc, done, outcome, reason, closed_by))
    turn = doc.get("turn")
    if turn and open_turn:
        doc["turn"] = None
        outcome, reason = turns.cut_off(turn, *open_turn)
        final.append(_final(call, doc, turn, outcome, reason, closed_by))
    return final


def flush(call: Call, spool: hookio.Spool) -> None:
    """Append the spool's final turns to the experience log (then drop them from the spool)."""
    with spool.edit(create=False) as doc:
        queue = list(doc.get("queue") or []) if doc is not None else []
        if doc is None or not queue:
            return
        from artibot.collector import collect_many
        from artibot.errors import LockTimeout, ValidationError

        try:  # ids fixed at the turn's start: a flush replayed after a kill stores nothing twice
            # (the inputs were anonymized at the prompt: see handlers._route)
            collect_many(queue, home=call.home(), label="turn", skip_stored=True, input_anonymized=True)
        except LockTimeout as exc:  # the hook's lock budget is spent: the turns wait in the spool
            raise hookio.HookLockWait(f"{len(queue)} turn(s) stay queued in {spool.path} for the next hook, "
                                     f"because {exc}") from None
        except ValidationError as exc:  # keep the good ones; a bad record is named in the log
            call.log_error(exc, "recording the session's turns")
            for record in queue:
                def collect_one(record: object = record) -> None:
                    collect_many([record], home=call.home(), label="turn", skip_stored=True, input_anonymized=True)

                call.attempt("recording a turn", collect_one)
        doc["queue"] = []


def settle_idle_sessions(call: Call) -> None:
    """Spools idle past the follow-up window (or the resume window, if shorter): their
    stopped or held turn is final once no prompt can judge it any more; past a day, all is."""
    window = resume_window_ms(call)
    idle_for = min(turns.FOLLOWUP_WINDOW_MS, window or turns.FOLLOWUP_WINDOW_MS)
    from artibot.hookpath.store import hook_reads

    idle = hook_reads.stale_spools(call.root, older_than_ms=idle_for, now=call.now, exclude=call.session_id)
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
                    settle(call, doc, closed_by="timeout" if not dead else "stale-session",
                                    open_turn=NEVER_BACK if dead else None)
                    still_open = bool(doc.get("turn"))
            flush(call, spool)
            if not still_open:
                spool.remove()

        call.attempt(f"settling idle spool {spool.path.rsplit('/', 1)[-1]}", settle_one)


def _may_be_judged(done: Turn | None, updated: object, now: int) -> bool:
    """Whether a prompt may still judge the spool's stopped turn: a held one until its
    ``hold_until``; one of a live session while its spool is younger than the follow-up window."""
    if not done:
        return False
    if isinstance(done.get("hold_until"), int):
        return now <= done["hold_until"]
    return isinstance(updated, int) and now - updated < turns.FOLLOWUP_WINDOW_MS


def resume_window_ms(call: Call) -> int:
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


def hold_last_turn(call: Call, doc: SpoolDoc, window_ms: int) -> None:
    """At session end: the session's last turn stays in the spool (``done``, with its
    ``hold_until``) for the resumed session's first prompt; every other turn is final."""
    turn = doc.get("turn")
    if turn:  # the last turn was cut off: the stopped one before it is final
        settle(call, doc, closed_by="session-end")
        doc["turn"] = None
        held = turns.hold(turn, now=call.now, window_ms=window_ms, cut=turns.cut_off(turn, *CUT_BY_END))
        if held is None:
            outcome, reason = turns.cut_off(turn, *CUT_BY_END)
            _final(call, doc, turn, outcome, reason, "session-end")
        doc["done"] = held
    elif doc.get("done"):
        held = turns.hold(doc["done"], now=call.now, window_ms=window_ms)
        if held is None:
            settle(call, doc, closed_by="session-end")
        else:
            doc["done"] = held
