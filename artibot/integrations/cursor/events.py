"""Cursor's hook events onto the shared turn model — from Cursor's hooks documentation only.

Not run in the real client (Cursor's agent is an editor, with no headless runner
here): ``tests/integrations/test_cursor_contract.py`` feeds the documented payloads.
Every payload carries ``conversation_id`` (artibot's session), ``generation_id`` (one
per submitted prompt: artibot's prompt id), ``hook_event_name``, ``workspace_roots``,
and optionally ``model``, ``cursor_version``, ``user_email``, ``transcript_path``.

* ``sessionStart`` -> ``session-start``; the summary goes back as ``additional_context``;
* ``beforeSubmitPrompt`` (``prompt``) -> ``user-prompt-submit``. Its documented output
  is ``{"continue": bool, "user_message": str}`` only: Cursor offers no way to add
  context to a prompt, so the route is recorded but never reaches the model;
* ``postToolUse`` (``tool_name``, ``duration`` in ms) -> ``post-tool-use``;
* ``postToolUseFailure`` (``error_message``, ``failure_type``, ``is_interrupt``) ->
  ``post-tool-use-failure`` — the only event that says a tool failed
  (``afterShellExecution`` carries no exit code, ``afterFileEdit`` no error), so
  artibot uses these two and not those;
* ``stop`` -> ``stop`` when ``status`` is ``completed``; an ``aborted`` or ``error``
  turn is left open, so the next prompt (or ``sessionEnd``) closes it as interrupted,
  as an interrupted Claude Code turn is;
* ``sessionEnd`` -> ``session-end``.
"""

from __future__ import annotations

from artibot.hookpath.turns.call import context_of, number_field, text_field

TYPE_CHECKING = False  # not typing's: this client's every hook imports this module
if TYPE_CHECKING:
    from artibot.hookpath.turns.protocol import Output, Payload

EVENTS = {
    "sessionStart": "session-start",
    "beforeSubmitPrompt": "user-prompt-submit",
    "postToolUse": "post-tool-use",
    "postToolUseFailure": "post-tool-use-failure",
    "stop": "stop",
    "sessionEnd": "session-end",
}


def _cwd(payload: Payload) -> str | None:
    roots = payload.get("workspace_roots")
    first = roots[0] if isinstance(roots, list) and roots else None
    return text_field(payload, "cwd") or (first if isinstance(first, str) and first else None)


def translate(event: str, payload: Payload) -> tuple[str, Payload] | None:
    session = text_field(payload, "conversation_id") or text_field(payload, "session_id")
    fields: Payload = {"session_id": session, "cwd": _cwd(payload), "prompt_id": text_field(payload, "generation_id")}
    if event == "beforeSubmitPrompt":
        fields["prompt"] = payload.get("prompt")
    elif event in ("postToolUse", "postToolUseFailure"):
        fields["tool_name"] = text_field(payload, "tool_name")
        fields["duration_ms"] = number_field(payload, "duration")
        fields["is_interrupt"] = payload.get("is_interrupt") is True
    elif event == "stop" and payload.get("status") not in (None, "completed"):
        return None
    return EVENTS[event], fields


def render(event: str, output: Output | None) -> Output | None:
    if event == "beforeSubmitPrompt":
        return {"continue": True}  # artibot never blocks a prompt
    text = context_of(output)
    if event == "sessionStart" and text is not None:
        return {"additional_context": text}
    return None
