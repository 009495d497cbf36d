"""Gemini CLI's hook events onto the shared turn model (read in Gemini CLI 0.61.0's source).

Every payload carries ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``
and ``timestamp``. What artibot reads:

* ``SessionStart`` -> ``session-start``; the summary goes back as
  ``hookSpecificOutput.additionalContext`` (Gemini CLI puts it before the first prompt);
* ``BeforeAgent`` (``prompt``) -> ``user-prompt-submit``; the route goes back as
  ``hookSpecificOutput.additionalContext``, which Gemini CLI appends to that prompt.
  Gemini CLI sends no prompt id to hooks, so every event of the session is taken to
  belong to the open turn;
* ``AfterTool`` (``tool_name``, ``tool_response``) -> ``post-tool-use``, or
  ``post-tool-use-failure`` when the tool failed: ``tool_response.error`` is set, or a
  ``run_shell_command`` result ends in ``Exit Code: N`` with N != 0 (Gemini CLI 0.61.0
  reports a failing command that way and sets no ``error``);
* ``AfterAgent`` -> ``stop`` (fired once per turn, when no tool call is pending);
* ``SessionEnd`` -> ``session-end`` (Gemini CLI does not wait for it; a turn it misses
  is made final by the next session's start).

The hook JSON for ``BeforeAgent`` and ``SessionStart`` has Claude Code's shape, with
Gemini CLI's event name in ``hookEventName``.
"""

from __future__ import annotations

from artibot.integrations.adapter import context_of, text_field

EVENTS = {
    "SessionStart": "session-start",
    "BeforeAgent": "user-prompt-submit",
    "AfterTool": "post-tool-use",
    "AfterAgent": "stop",
    "SessionEnd": "session-end",
}

SHELL_TOOL = "run_shell_command"
EXIT_MARK = "Exit Code: "


def _llm_text(response: dict) -> str:
    content = response.get("llmContent")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    if isinstance(content, dict):
        return str(content.get("text") or "")
    return ""


def tool_failed(tool: str | None, response: object) -> bool:
    """Whether an ``AfterTool`` result is a failure (see the module docstring).

    >>> tool_failed("run_shell_command", {"llmContent": "Output: x\\nExit Code: 3"})
    True
    >>> tool_failed("run_shell_command", {"llmContent": "Output: Exit Code: 0"})
    False
    >>> tool_failed("read_file", {"llmContent": "...", "error": {"message": "no such file"}})
    True
    """
    if not isinstance(response, dict):
        return False
    if response.get("error"):
        return True
    if tool != SHELL_TOOL:
        return False
    text = _llm_text(response)
    at = text.rfind(EXIT_MARK)
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return False
    code = text[at + len(EXIT_MARK):].split(None, 1)
    return bool(code) and code[0].lstrip("-").isdigit() and int(code[0]) != 0


def translate(event: str, payload: dict) -> tuple[str, dict] | None:
    fields = {"session_id": text_field(payload, "session_id"), "cwd": text_field(payload, "cwd")}
    handler = EVENTS[event]
    if event == "BeforeAgent":
        fields["prompt"] = payload.get("prompt")
    elif event == "AfterTool":
        tool = text_field(payload, "tool_name")
        fields["tool_name"] = tool
        if tool_failed(tool, payload.get("tool_response")):
            handler = "post-tool-use-failure"
    return handler, fields


def render(event: str, output: dict | None) -> dict | None:
    text = context_of(output)
    if text is None or event not in ("SessionStart", "BeforeAgent"):
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
