"""Codex CLI's hook events onto the shared turn model (the hook schemas inside Codex CLI 0.169.0).

Codex CLI's hooks take Claude Code's shape: ``session_id``, ``turn_id`` (artibot's
prompt id), ``cwd``, ``model``, ``hook_event_name``, ``transcript_path``; its output
for ``SessionStart`` and ``UserPromptSubmit`` is ``hookSpecificOutput.additionalContext``.

* ``SessionStart`` -> ``session-start``; ``UserPromptSubmit`` (``prompt``) ->
  ``user-prompt-submit``; both hand their context back;
* ``PostToolUse`` (``tool_name``, ``tool_use_id``) -> ``post-tool-use``, or
  ``post-tool-use-failure`` when the call failed. Codex CLI has no failure event, and
  for a shell command (``Bash``) its ``tool_response`` is the output text alone, with
  no exit code (0.169.0). The exit code is in the session's transcript
  (``transcript_path``): the ``item_completed`` event of that call, written before the
  hook runs, carries ``exit_code`` and ``status``. The hook reads the transcript's last
  :data:`TRANSCRIPT_TAIL_BYTES` for it (a call not found there counts as a success);
  a ``tool_response`` object with an ``exit_code`` or ``error`` is read directly;
* ``PermissionRequest`` -> ``permission-request``; ``Stop`` -> ``stop``;
  ``SessionEnd`` -> ``session-end`` (0.169.0 has it, besides the six events first
  documented; an interrupted turn gets no ``Stop`` and is closed as failed by the next
  prompt, as in Claude Code).

``$learn …`` is artibot's ``/learn`` equivalent, a skill (``skills/learn/SKILL.md``):
Codex CLI hands the hook only what was typed and sends the skill's text to the model
apart. When that skill exists (:func:`is_learn`) the hook passes the prompt on as the
command ``/artibot:learn``, which the shared prompt rules treat as a slash command: it
closes the previous turn, and nothing is routed or recorded.

Codex CLI's plan (``update_plan``) and a sub-agent's launch (``spawn_agent``) are passed
on as ``TodoWrite`` and ``Agent``, their counterparts in the shared turn model, so that a
System 1 turn that plans or delegates is ``escalated`` as in Claude Code
(:data:`PLANNING_NAMES`; whether 0.169.0 fires ``PostToolUse`` for them was not seen in the
real client).

A prompt or tool call with an ``agent_id`` is a sub-agent's: its prompt is harness
input (never the user's), its tool calls count in the sub-agent's own turn only.
"""

from __future__ import annotations

from artibot.hookpath.turns.call import context_of, text_field

TYPE_CHECKING = False  # not typing's: this client's every hook imports this module
if TYPE_CHECKING:
    from artibot.hookpath.turns.protocol import Output, Payload

EVENTS = {
    "SessionStart": "session-start",
    "UserPromptSubmit": "user-prompt-submit",
    "PostToolUse": "post-tool-use",
    "PermissionRequest": "permission-request",
    "Stop": "stop",
    "SessionEnd": "session-end",
}


TRANSCRIPT_TAIL_BYTES = 256 * 1024
"""Enough for the last few events of a turn; a whole transcript can be megabytes."""


def transcript_failure(path: str | None, call_id: str | None) -> bool:
    """Whether the transcript at ``path`` says the call ``call_id`` failed (see the module docstring)."""
    from artibot.hookpath.store import hook_reads
    from artibot.hookpath.store import hookio

    tail = hook_reads.read_tail(path, TRANSCRIPT_TAIL_BYTES) if path and call_id else None
    if not tail:
        return False
    needle = f'"id":"{call_id}"'.encode()
    for line in reversed(tail.split(b"\n")):
        if needle in line and b'"item_completed"' in line:
            try:
                item = hookio.loads(line)["payload"]["item"]
            except (ValueError, KeyError, TypeError):
                return False
            code = item.get("exit_code")
            return (isinstance(code, int) and code != 0) or item.get("status") == "failed"
    return False


def tool_failed(response: object) -> bool:
    """Whether a ``PostToolUse`` ``tool_response`` reports a failure.

    >>> tool_failed({"exit_code": 2, "output": "boom"}), tool_failed({"exit_code": 0}), tool_failed("ok")
    (True, False, False)
    >>> tool_failed({"error": "timed out"})
    True
    """
    if not isinstance(response, dict):
        return False
    code = response.get("exit_code", response.get("exitCode"))
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        return True
    return bool(response.get("error"))


PLANNING_NAMES = {"update_plan": "TodoWrite", "spawn_agent": "Agent"}
"""Codex CLI's planning and delegation tools -> the shared model's names for them."""

LEARN_SKILL = "$learn"
LEARN_COMMAND = "/artibot:learn"


def is_learn(prompt: object, cwd: str | None) -> bool:
    """Whether ``prompt`` invokes the ``learn`` skill (``$learn`` first, and the skill installed)."""
    import os

    if not isinstance(prompt, str):
        return False
    words = prompt.split(None, 1)
    if not words or words[0] != LEARN_SKILL:
        return False
    homes = [os.environ.get("CODEX_HOME") or os.path.expanduser("~/.codex")]
    if cwd:
        homes += [os.path.join(cwd, ".codex"), os.path.join(cwd, ".agents")]
    from artibot.hookpath.store import hook_reads

    return any(hook_reads.file_exists(os.path.join(home, "skills", "learn", "SKILL.md")) for home in homes)


def translate(event: str, payload: Payload) -> tuple[str, Payload] | None:
    cwd = text_field(payload, "cwd")
    fields: Payload = {"session_id": text_field(payload, "session_id"), "cwd": cwd,
                       "prompt_id": text_field(payload, "turn_id")}
    handler = EVENTS[event]
    if text_field(payload, "agent_id"):
        if event == "UserPromptSubmit":
            return None
        fields["agent_id"] = payload["agent_id"]
    if event == "UserPromptSubmit":
        prompt = payload.get("prompt")
        fields["prompt"] = LEARN_COMMAND if is_learn(prompt, cwd) else prompt
    elif event in ("PostToolUse", "PermissionRequest"):
        tool = text_field(payload, "tool_name")
        fields["tool_name"] = PLANNING_NAMES.get(tool or "", tool)
        if event == "PostToolUse" and (tool_failed(payload.get("tool_response")) or transcript_failure(
                text_field(payload, "transcript_path"), text_field(payload, "tool_use_id"))):
            handler = "post-tool-use-failure"
    return handler, fields


def render(event: str, output: Output | None) -> Output | None:
    if event == "UserPromptSubmit" and isinstance(output, dict) and output.get("decision") == "block":
        # the prompt hook stops the prompt (another program holds the gateway's port: the
        # request, and the key, must not go there); Codex CLI takes Claude Code's block
        return {"decision": "block", "reason": str(output.get("reason") or "artibot stopped the prompt")}
    text = context_of(output)
    if text is None or event not in ("SessionStart", "UserPromptSubmit"):
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
