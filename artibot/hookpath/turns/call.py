"""One hook call, as every client's hook runs it: the payload from stdin, the output to
stdout, the log line and the failures kept for ``status``.

Whatever happens — unknown event, empty or garbage stdin, missing fields, an
unwritable home, a bug — the hook exits 0 and prints nothing or valid hook JSON: a
non-zero exit would show an error in the user's session, and exit 2 would erase their
prompt. Errors go to ``<home>/logs/hooks.log`` (time, event, exception type and
message, never the prompt).

Every hook is a whole Python process that its client waits for, so this module and
the tool and stop paths import only :mod:`os`, :mod:`sys`, :mod:`time`,
:mod:`artibot.hookpath.store.hookio` and the client registry (``artibot.__main__`` reads it to
find the entry point); the prompt path adds the router and the anonymizer; the
rest (the experience log, the config, the learner) is imported only by the events
that need it. ``scripts/bench_hooks.py`` measures each event against ``python -c pass``.
What each event does is in :mod:`.handlers`.

Claude Code's events are the engine's own (the keys of :data:`.handlers.HANDLERS`, its
event names in kebab case), so its hooks enter here, at :func:`main`, with nothing to
translate; the other clients' enter at :mod:`artibot.hookpath.adapter`, which
translates their events into these. (A module of Claude Code's own for this would cost
every hook two more imports: its package and the module.)
"""

from __future__ import annotations

import sys
import time

from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: this module is on every hook's path
if TYPE_CHECKING:
    from typing import Callable, TypeVar

    from artibot.hookpath.turns.protocol import Output, Payload
    from artibot.store.home import Home

    T = TypeVar("T")

MAX_PAYLOAD_BYTES = 32_000_000
"""A larger payload is read and dropped (logged): Claude Code must never block on our stdin."""

LOG_MESSAGE_CHARS = 300
CAUSE_CHARS = 1000
"""A failure's cause as ``status`` shows it: long enough for a config error's list of allowed keys."""


class HookCall:
    """One hook invocation: the event, the data home, the payload and the time it started.

    (A plain class, not a dataclass: this module is imported on every tool call.)
    """

    def __init__(self, event: str) -> None:
        self.event = event
        self.root = ""
        self.payload: Payload = {}
        self.now = 0
        self.secret: str | None = None
        """The prompt text, kept out of every log line."""
        self.agent = "claude-code"
        """The client that ran the hook (another client's adapter sets its own name)."""
        self.errors: list[str] = []
        """What went wrong in this call (as logged): kept for ``status`` by :func:`settle_health`."""

    @property
    def session_id(self) -> str | None:
        sid = self.payload.get("session_id")
        return sid if isinstance(sid, str) and sid else None

    def field(self, name: str) -> str | None:
        value = self.payload.get(name)
        return value if isinstance(value, str) and value else None

    def home(self) -> Home:
        """The :class:`~artibot.store.home.Home` (imported only by the events that need it)."""
        from artibot.store.home import Home

        from pathlib import Path

        return Home(Path(self.root))

    def log(self, what: str) -> None:
        write_log(self.root, self.event, what)

    def log_error(self, exc: BaseException, doing: str = "") -> None:
        prefix = f"{doing}: " if doing else ""
        message = " ".join(str(exc).split())
        if self.secret:
            message = without_prompt(message, self.secret)
        line = f"{prefix}{type(exc).__name__}: {message}"
        if not getattr(exc, "transient", False):  # a lock wait: the next hook retries it
            self.errors.append(" ".join(line.split())[:CAUSE_CHARS])
        self.log(line)

    def attempt(self, doing: str, fn: Callable[[], T]) -> T | None:
        """``fn()``, or None after logging if it raised: one failing step never stops the others."""
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - a hook must go on (and exit 0) whatever one step hits
            self.log_error(exc, doing)
            return None


def without_prompt(text: str, prompt: str) -> str:
    """An error message with the prompt kept out: replaced where quoted whole, withheld if it
    quotes a part of it (any 16 characters), and what is left anonymized."""
    prompt = " ".join(prompt[:100_000].split())
    if not prompt:
        return text
    text = text.replace(prompt, "<PROMPT>")
    window = 16
    if any(prompt[i:i + window] in text for i in range(0, max(len(prompt) - window, 0) + 1, window // 2)):
        return "(message withheld: it quotes the prompt)"
    try:
        from artibot.hookpath.privacy import anonymize
    except Exception:  # noqa: BLE001 - without the anonymizer, keep nothing that might hold a secret
        return "(message withheld: the anonymizer is unavailable)"
    return anonymize(text)


def write_log(root: str, event: str, what: str) -> None:
    """Append one line to ``logs/hooks.log``; if even that fails, there is nowhere left to report."""
    try:
        text = " ".join(what.split())
        event = " ".join(event.split())[:40]
        if len(text) > LOG_MESSAGE_CHARS:
            text = text[:LOG_MESSAGE_CHARS] + "…"
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        hookio.append_log(root or hookio.home_root(), f"{stamp}\t{event or '-'}\t{text}")
    except Exception:  # noqa: BLE001 - the log is the last resort; a hook never fails over it
        pass


def settle_health(call: HookCall) -> str | None:
    """Keep this call's failures for ``status`` and ``doctor`` (:mod:`artibot.hookpath.store.hookhealth`),
    or forget the event's failures when it had none; the message to show the user once a
    session, or None.

    The healthy path is one ``unlink`` that finds nothing (the module is not even imported).
    """
    if not call.root or not call.event:
        return None
    try:
        if not call.errors:
            from artibot.hookpath.names import HOOK_FAILURES_DIR, LOGS_DIR
            import os

            name = hookio.spool_name(call.event.replace(" ", "-"))
            try:
                os.unlink(f"{call.root}/{LOGS_DIR}/{HOOK_FAILURES_DIR}/{name}.json")
            except FileNotFoundError:
                pass
            return None
        from artibot.hookpath.store import hookhealth

        if not hookhealth.failed(call.root, call.event, call.errors, call.session_id):
            return None
    except Exception:  # noqa: BLE001 - the record of failures is a help; the hook goes on without it
        return None
    return (f"artibot: its {call.event} hook failed, so this session's turns may not be recorded: "
            f"{call.errors[0]} (`artibot status` shows the failures; {call.root}/logs/hooks.log has them all)")


def read_payload(call: HookCall) -> Payload | None:
    """The payload object from stdin, or None (logged) when there is none or it is not JSON."""
    stream = sys.stdin
    if stream is None or stream.isatty():
        call.log("no payload: stdin is not a pipe")
        return None
    data = stream.buffer.read(MAX_PAYLOAD_BYTES + 1)
    if len(data) > MAX_PAYLOAD_BYTES:
        while stream.buffer.read(1 << 20):  # drain, so Claude Code's write never blocks
            pass
        call.log(f"payload larger than {MAX_PAYLOAD_BYTES} bytes, ignored")
        return None
    if not data.strip():
        call.log("empty payload on stdin")
        return None
    try:
        payload = hookio.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        call.log(f"payload is not JSON ({exc})")
        return None
    if not isinstance(payload, dict):
        call.log(f"payload is a JSON {type(payload).__name__}, not an object")
        return None
    return payload


def emit(output: Output) -> None:
    """The one place that writes hook JSON to stdout."""
    try:
        sys.stdout.write(hookio.dumps(output))
        sys.stdout.flush()
    except OSError:
        # Claude Code stopped reading: point stdout at /dev/null so the interpreter's own
        # flush at exit cannot fail too (that would turn the exit status into 120).
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        raise


def context_of(output: Output | None) -> str | None:
    """The text a handler hands the model (``hookSpecificOutput.additionalContext``)."""
    if not isinstance(output, dict):
        return None
    specific = output.get("hookSpecificOutput")
    text = specific.get("additionalContext") if isinstance(specific, dict) else None
    return text if isinstance(text, str) and text else None


def text_field(payload: Payload, name: str) -> str | None:
    value = payload.get(name)
    return value if isinstance(value, str) and value else None


def number_field(payload: Payload, name: str) -> float | None:
    value = payload.get(name)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def settle_waiting_turns(root: str, *, now: int | None = None) -> None:
    """Hand over the turns of ended or idle sessions whose judging time is over
    (:func:`.ended.settle_idle_sessions`, as a call of its own, outside any hook): step 1 of
    the learning cycle and ``collect`` call it first, so that they see them; problems go
    to ``hooks.log``."""
    from artibot.hookpath.turns.ended import settle_idle_sessions

    call = HookCall("settle-waiting-turns")
    call.root, call.now = root, hookio.now_ms() if now is None else now
    call.attempt("settling idle sessions", lambda: settle_idle_sessions(call))


def main(argv: list[str], client: str = "claude-code") -> int:
    """Run Claude Code's hook named by ``argv[0]`` (``client``: the registry's name for it); always returns 0."""
    call = HookCall(event=argv[0] if argv else "")
    call.agent = client
    output = None
    try:
        from artibot.hookpath.turns.handlers import HANDLERS

        call.root = hookio.home_root()
        call.now = hookio.now_ms()
        handler = HANDLERS.get(call.event)
        if handler is None:
            call.log(f"unknown hook event {call.event!r} (known: {', '.join(sorted(HANDLERS))})")
            return 0
        hookio.start_budget()
        payload = read_payload(call)
        if payload is None:
            return 0
        call.payload = payload
        output = handler(call)
    except BaseException as exc:  # noqa: BLE001 - exit 0 even on SystemExit/KeyboardInterrupt: exit 2 would block Claude
        call.log_error(exc)
    finally:
        hookio.reset_budget()
    # The user sees a hook that cannot work in Claude Code's own channel, once a session
    # (the model's context alone would keep it from them).
    message = settle_health(call)
    if message:
        output = {**(output or {}), "systemMessage": message}
    try:
        if output is not None:
            emit(output)
    except BaseException as exc:  # noqa: BLE001 - as above
        call.log_error(exc)
    return 0
