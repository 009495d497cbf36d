"""``artibot hook AGENT EVENT``: a hook of another client, run through the turn engine's handlers.

Gemini CLI, Codex CLI and Cursor call hooks the way Claude Code does (a process per
event, the payload JSON on stdin, JSON on stdout), with their own event names, field
names and output shapes. Each client's module (``gemini_cli/events.py``,
``codex_cli/events.py``, ``cursor/events.py``) holds only that difference:

* ``EVENTS`` — the client's event name -> the handler it feeds (a key of
  :data:`artibot.hookpath.turns.handlers.HANDLERS`, named as Claude Code names its events);
* ``translate(event, payload)`` — the Claude Code fields the handlers read
  (``session_id``, ``prompt``, ``prompt_id``, ``tool_name``, ``duration_ms``,
  ``is_interrupt``, ``cwd``), and which handler runs, or None when the event means
  nothing for the turn (Cursor's aborted ``stop``: the turn stays open and the next
  prompt closes it as interrupted, as in Claude Code);
* ``render(event, output)`` — the handler's output (``hookSpecificOutput.additionalContext``
  or None) in the client's shape, or None to print nothing.

The turn model (:mod:`artibot.hookpath.turns`), the spool, the router, the learner
and the store are the same code for every client; the record says which client it came
from (``agent``). As for Claude Code the hook exits 0 whatever happens: every client here
reads exit 2 as "block". This module imports what Claude Code's hook does (:mod:`.turns.call`) and one
small module per client, so a client's hook costs what Claude Code's does
(``scripts/bench_hooks.py``). Which clients come here is the registry's word
(:mod:`artibot.hookpath.clients`).
"""

from __future__ import annotations

from artibot.hookpath import clients
from artibot.hookpath.turns.call import HookCall, emit, read_payload, settle_health
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: every other client's hook imports this module
if TYPE_CHECKING:
    from types import ModuleType

    from artibot.hookpath.turns.protocol import Handler, Output, Payload


def events_module(agent: str) -> ModuleType:
    """The client's event module (imported by name: only the one that runs is loaded)."""
    if agent not in clients.adapted():
        raise ValueError(f"unknown agent {agent!r} (known: {', '.join(clients.adapted())})")
    return clients.module(agent, "events")


def run(agent: str, event: str, payload: Payload, call: HookCall) -> Output | None:
    """The client's hook output for ``payload`` (None: print nothing); the handler's work done.

    A handler is the engine's (:data:`~.turns.handlers.HANDLERS`) unless the
    client's module has its own of that name (``OWN_HANDLERS``: what only that client
    can do, such as Gemini CLI's model per route).
    """
    events = events_module(agent)
    translated: tuple[str, Payload] | None = events.translate(event, payload)
    rendered: Output | None
    if translated is None:
        rendered = events.render(event, None)
        return rendered
    handler, call.payload = translated
    own: dict[str, Handler] = getattr(events, "OWN_HANDLERS", {})
    if handler in own:
        rendered = events.render(event, own[handler](call))
        return rendered
    from artibot.hookpath.turns.handlers import HANDLERS

    rendered = events.render(event, HANDLERS[handler](call))
    return rendered


def main(argv: list[str], agent: str) -> int:
    """Run ``agent``'s hook ``argv[0]`` with the payload on stdin; always returns 0."""
    event = argv[0] if argv else ""
    call = HookCall(event=f"{agent} {event}")
    call.agent = agent
    try:
        events = events_module(agent)
        call.root = hookio.home_root()
        call.now = hookio.now_ms()
        if event not in events.EVENTS:
            call.log(f"unknown {agent} hook event {event!r} (known: {', '.join(sorted(events.EVENTS))})")
            return 0
        payload = read_payload(call)
        if payload is None:
            return 0
        output = run(agent, event, payload, call)
        if output is not None:
            emit(output)
    except BaseException as exc:  # noqa: BLE001 - exit 0 even on SystemExit: exit 2 blocks the client's turn
        call.log_error(exc)
    settle_health(call)  # kept for status and doctor; these clients' output shapes carry no notice here
    return 0
