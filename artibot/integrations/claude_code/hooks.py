"""``artibot hook EVENT``: Claude Code's hook entry point (payload JSON on stdin).

Claude Code's events are the turn engine's own (:data:`artibot.integrations.turns.handlers.HANDLERS`,
by their kebab-case names), so nothing is translated here: the event runs its handler, and
a hook that keeps failing tells the user once a session in Claude Code's own channel
(``systemMessage``). What a hook may import, and why, is in :mod:`artibot.integrations.turns.call`.
"""

from __future__ import annotations

from artibot.integrations.turns.call import HookCall, emit, read_payload, settle_health
from artibot.store import hookio


def main(argv: list[str], client: str = "claude-code") -> int:
    """Run the hook named by ``argv[0]`` (``client``: the registry's name, always Claude Code here); always returns 0."""
    call = HookCall(event=argv[0] if argv else "")
    call.agent = client
    output = None
    try:
        from artibot.integrations.turns.handlers import HANDLERS

        call.root = hookio.home_root()
        call.now = hookio.now_ms()
        handler = HANDLERS.get(call.event)
        if handler is None:
            call.log(f"unknown hook event {call.event!r} (known: {', '.join(sorted(HANDLERS))})")
            return 0
        if call.event != "nightly-learner":  # the detached learner is not waited for
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
    message = settle_health(call) if call.event != "nightly-learner" else None
    if message:
        output = {**(output or {}), "systemMessage": message}
    try:
        if output is not None:
            emit(output)
    except BaseException as exc:  # noqa: BLE001 - as above
        call.log_error(exc)
    return 0
