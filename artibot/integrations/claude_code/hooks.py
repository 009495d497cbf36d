"""``artibot hook EVENT``: the Claude Code hook entry point (payload JSON on stdin).

Whatever happens — unknown event, empty or garbage stdin, missing fields, an
unwritable home, a bug — the hook exits 0 and prints nothing or valid hook JSON: a
non-zero exit would show an error in the user's session, and exit 2 would erase their
prompt. Errors go to ``<home>/logs/hooks.log`` (time, event, exception type and
message, never the prompt).

The per-prompt and per-tool paths import only the store, the router and the
anonymizer: no numpy, scipy, typer, rich or pydantic (checked by a test).

What each event does:

* ``session-start`` — context for Claude (thresholds, System 1 patterns, a pending
  review); closes the open turns of spools idle for :data:`STALE_SESSION_MS` (sessions
  that crashed or never came back) as ``failed``; starts a learner if the last start is
  stale and a batch is ready.
* ``user-prompt-submit`` — closes an open turn as ``failed`` (no ``Stop`` came: the
  user interrupted), routes the prompt, keeps the decision and the *anonymized* text in
  the session spool, tells Claude the route in one line.
* ``post-tool-use`` / ``post-tool-use-failure`` — counts the tool call in the turn.
* ``stop`` — closes the turn with the outcome of :mod:`.turns` and collects it.
* ``session-end`` — closes an open turn as ``failed``, removes the spool, starts the
  detached learner and returns.
* ``nightly-learner`` — the learner itself: one unattended cycle.
* ``pre-tool-use`` — nothing (not installed by default).
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from artibot.store.home import Home

STALE_SESSION_MS = 24 * 3600 * 1000
"""A spool not written for this long belongs to a session that crashed or never came back."""

MAX_STALE_PER_START = 20
"""Stale spools closed per SessionStart (bounds the hook's time; the rest wait for the next one)."""

MAX_PAYLOAD_BYTES = 20_000_000
LOG_MESSAGE_CHARS = 300


class HookCall:
    """One hook invocation: the event, the data home, the payload and the time it started.

    (A plain class, not a dataclass: this module is imported on every tool call.)
    """

    def __init__(self, event: str):
        self.event = event
        self.home: "Home | None" = None
        self.payload: dict[str, Any] = {}
        self.now = 0
        self.secret: str | None = None
        """The prompt text, kept out of every log line."""

    @property
    def session_id(self) -> str | None:
        sid = self.payload.get("session_id")
        return sid if isinstance(sid, str) and sid else None

    def log(self, what: str) -> None:
        write_log(self.home, self.event, what)

    def log_error(self, exc: BaseException, doing: str = "") -> None:
        prefix = f"{doing}: " if doing else ""
        message = " ".join(str(exc).split())
        if self.secret:
            message = without_prompt(message, self.secret)
        self.log(f"{prefix}{type(exc).__name__}: {message}")

    def attempt(self, doing: str, fn: Callable[[], Any]) -> Any:
        """``fn()``, or None after logging if it raised: one failing step never stops the others."""
        try:
            return fn()
        except Exception as exc:  # a hook must go on (and exit 0) whatever one step hits
            self.log_error(exc, doing)
            return None


def without_prompt(text: str, prompt: str) -> str:
    """An error message with the prompt kept out: replaced where quoted whole, withheld if it
    quotes a part of it (any 16 characters), and what is left anonymized."""
    prompt = " ".join(prompt.split())
    if not prompt:
        return text
    text = text.replace(prompt, "<PROMPT>")
    window = 16
    if any(prompt[i:i + window] in text for i in range(0, max(len(prompt) - window, 0) + 1, window // 2)):
        return "(message withheld: it quotes the prompt)"
    try:
        from artibot.privacy import anonymize
    except Exception:  # noqa: BLE001 - without the anonymizer, keep nothing that might hold a secret
        return "(message withheld: the anonymizer is unavailable)"
    return anonymize(text)


def write_log(home: "Home | None", event: str, what: str) -> None:
    """Append one line to ``logs/hooks.log``; if even that fails, there is nowhere left to report."""
    try:
        text = " ".join(what.split())
        event = " ".join(event.split())[:40]
        if len(text) > LOG_MESSAGE_CHARS:
            text = text[:LOG_MESSAGE_CHARS] + "…"
        if home is None:
            from artibot.store.home import Home

            home = Home.resolve()
        from artibot.store.sessions import append_hook_log

        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        append_hook_log(home, f"{stamp}\t{event or '-'}\t{text}")
    except Exception:  # noqa: BLE001 - the log is the last resort; a hook never fails over it
        pass


def read_payload(call: HookCall) -> dict[str, Any] | None:
    """The payload object from stdin, or None (logged) when there is none or it is not JSON."""
    import orjson

    stream = sys.stdin
    if stream is None or stream.isatty():
        call.log("no payload: stdin is not a pipe")
        return None
    data = stream.buffer.read(MAX_PAYLOAD_BYTES + 1)
    if not data.strip():
        call.log("empty payload on stdin")
        return None
    if len(data) > MAX_PAYLOAD_BYTES:
        call.log(f"payload larger than {MAX_PAYLOAD_BYTES} bytes, ignored")
        return None
    try:
        payload = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        call.log(f"payload is not JSON ({exc})")
        return None
    if not isinstance(payload, dict):
        call.log(f"payload is a JSON {type(payload).__name__}, not an object")
        return None
    return payload


def emit(output: dict[str, Any]) -> None:
    """The one place that writes hook JSON to stdout."""
    import orjson

    try:
        sys.stdout.write(orjson.dumps(output).decode("utf-8"))
        sys.stdout.flush()
    except OSError:
        # Claude Code stopped reading: point stdout at /dev/null so the interpreter's own
        # flush at exit cannot fail too (that would turn the exit status into 120).
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        raise


def main(argv: list[str]) -> int:
    """Run the hook named by ``argv[0]``; always returns 0."""
    call = HookCall(event=argv[0] if argv else "")
    try:
        from artibot.store.home import Home
        from artibot.store.sessions import now_ms

        call.home = Home.resolve()
        call.now = now_ms()
        handler = HANDLERS.get(call.event)
        if handler is None:
            call.log(f"unknown hook event {call.event!r} (known: {', '.join(sorted(HANDLERS))})")
            return 0
        if call.event != "nightly-learner":
            payload = read_payload(call)
            if payload is None:
                return 0
            call.payload = payload
        output = handler(call)
        if output is not None:
            emit(output)
    except BaseException as exc:  # noqa: BLE001 - exit 0 even on SystemExit/KeyboardInterrupt: exit 2 would block Claude
        call.log_error(exc)
    return 0


# --------------------------------------------------------------------- closing turns
def close_turn(call: HookCall, doc: dict[str, Any], *, closed_by: str, forced_failure: str | None = None) -> None:
    """Collect the spool's open turn as an experience and clear it (under the caller's spool lock).

    The turn is cleared even if collecting fails (logged): a turn that could not be
    recorded now would otherwise be closed again later with the wrong outcome.
    """
    from artibot.integrations.claude_code import turns

    turn = doc.get("turn")
    if not turn:
        return
    doc["turn"] = None
    if forced_failure:
        outcome, reason = "failed", forced_failure
    else:
        outcome, reason = turns.infer_outcome(turn)
    session_id = doc.get("session_id") if isinstance(doc.get("session_id"), str) else call.session_id
    record = turns.experience(turn, outcome=outcome, reason=reason, now=call.now,
                              session_id=session_id, closed_by=closed_by)

    def save() -> None:
        from artibot.collector import collect

        collect(record, home=call.home)

    call.attempt(f"recording the {closed_by} turn", save)


def _spool(call: HookCall):
    from artibot.store.sessions import SessionSpool

    return SessionSpool(call.home, call.session_id)


def _note_quarantine(call: HookCall, spool: Any) -> None:
    if spool.quarantined is not None:
        call.log(f"damaged session spool moved to {spool.quarantined}")


# --------------------------------------------------------------------- handlers
def session_start(call: HookCall) -> dict[str, Any]:
    from artibot.integrations.claude_code import context
    from artibot.store.fs import check_regular

    problems: list[str] = []
    router = None
    try:
        from artibot.learned_router import Router

        router = Router.load(call.home)
    except Exception as exc:  # the context still goes out, naming the problem
        call.log_error(exc, "loading the learned state")
        problems.append(str(exc))
    call.attempt("closing stale sessions", lambda: close_stale_sessions(call))
    if router is not None:
        call.attempt("starting the learner", lambda: _start_learner(call, router.settings, stale_only=True))
    pending = bool(call.attempt("checking for a pending review", lambda: check_regular(call.home.pending_review)))
    notices: list[str] = []
    if router is not None:
        from artibot.round_checks import notices as worse_rounds

        notices = call.attempt("validating applied rounds", lambda: worse_rounds(call.home, router.settings)) or []
    text = context.session_context(router.summary() if router is not None else None,
                                   pending_review=pending, problems=problems, notices=notices)
    return context.hook_output("SessionStart", text)


def close_stale_sessions(call: HookCall) -> None:
    from artibot.store import sessions

    stale = sessions.stale_spools(call.home, older_than_ms=STALE_SESSION_MS, now=call.now,
                                  exclude=call.session_id)
    for spool in stale[:MAX_STALE_PER_START]:
        def close_one(spool: Any = spool) -> None:
            with spool.edit(create=False, timeout=0) as doc:
                if doc is not None:
                    close_turn(call, doc, closed_by="stale-session",
                               forced_failure="the session never came back to close the turn")
            spool.remove()

        call.attempt(f"closing stale spool {spool.path.name}", close_one)


def user_prompt_submit(call: HookCall) -> dict[str, Any] | None:
    prompt = call.payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        call.log("no prompt text in the payload; nothing routed")
        return None
    call.secret = prompt
    from artibot.collector import anonymize_input
    from artibot.integrations.claude_code import context, turns
    from artibot.learned_router import Router

    router = Router.load(call.home)
    decision = router.route(prompt)
    fields = {name: getattr(decision, name, None) for name in turns.DECISION_FIELDS}
    prompt_id = call.payload.get("prompt_id")
    turn = turns.open_turn(fields, anonymize_input(prompt), now=call.now,
                           prompt_id=prompt_id if isinstance(prompt_id, str) else None)

    def keep() -> None:
        spool = _spool(call)
        with spool.edit(create=True) as doc:
            close_turn(call, doc, closed_by="next-prompt",
                       forced_failure="no Stop before the next prompt (interrupted)")
            doc["turn"] = turn
        _note_quarantine(call, spool)

    call.attempt("keeping the turn", keep)
    return context.hook_output("UserPromptSubmit", context.routing_line(fields))


def pre_tool_use(call: HookCall) -> None:
    return None


def _tool_call(call: HookCall, *, failed: bool) -> None:
    from artibot.integrations.claude_code import turns

    tool = call.payload.get("tool_name")
    spool = _spool(call)
    with spool.edit(create=False) as doc:
        if doc is None or not doc.get("turn"):
            return
        doc["turn"] = turns.add_tool(
            doc["turn"], tool=tool if isinstance(tool, str) else None, failed=failed,
            interrupted=failed and call.payload.get("is_interrupt") is True,
            duration_ms=call.payload.get("duration_ms"), now=call.now)
    _note_quarantine(call, spool)


def post_tool_use(call: HookCall) -> None:
    _tool_call(call, failed=False)


def post_tool_use_failure(call: HookCall) -> None:
    _tool_call(call, failed=True)


def stop(call: HookCall) -> None:
    # Also with stop_hook_active: the first Stop closes the turn, later ones find none.
    spool = _spool(call)
    with spool.edit(create=False) as doc:
        if doc is not None:
            close_turn(call, doc, closed_by="stop")


def session_end(call: HookCall) -> None:
    spool = _spool(call)

    def close() -> None:
        with spool.edit(create=False) as doc:
            if doc is not None:
                close_turn(call, doc, closed_by="session-end",
                           forced_failure="the session ended before the turn's Stop")
        spool.remove()

    call.attempt("closing the session", close)

    def start() -> None:
        from artibot.config import load_settings

        _start_learner(call, load_settings(call.home.root), stale_only=False)

    call.attempt("starting the learner", start)


def _start_learner(call: HookCall, settings: Any, *, stale_only: bool) -> None:
    from artibot.integrations.claude_code import learner

    if stale_only:
        stale, why = learner.stamp_is_stale(call.home, now=call.now)
        if not stale:
            return
        result = learner.spawn(call.home, settings, now=call.now, reason=f"{call.event} ({why})")
    else:
        result = learner.spawn(call.home, settings, now=call.now, reason=call.event)
    call.log((f"learner started, pid {result.pid}: " if result.started else "") + result.reason)


def nightly_learner(call: HookCall) -> None:
    from artibot.errors import LockTimeout

    try:
        from artibot.cycle import learn
    except ImportError as exc:
        call.log(f"learner not available ({exc})")
        return
    call.log("learner running")
    try:
        report = learn(home=call.home.root, answers="unattended")
    except LockTimeout as exc:
        call.log(f"learner skipped: {exc}")
        return
    call.log(f"learner finished: {report.status} {report.round_id or 'no round'} ({report.message})")


HANDLERS: dict[str, Callable[[HookCall], dict[str, Any] | None]] = {
    "session-start": session_start,
    "user-prompt-submit": user_prompt_submit,
    "pre-tool-use": pre_tool_use,
    "post-tool-use": post_tool_use,
    "post-tool-use-failure": post_tool_use_failure,
    "stop": stop,
    "session-end": session_end,
    "nightly-learner": nightly_learner,
}
