"""Gemini CLI's hook events onto the shared turn model (read in Gemini CLI 0.61.0's source).

Every payload carries ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``
and ``timestamp``. What artibot reads:

* ``SessionStart`` -> ``session-start``; the summary goes back as
  ``hookSpecificOutput.additionalContext`` (Gemini CLI puts it before the first prompt);
* ``BeforeAgent`` (``prompt``) -> ``user-prompt-submit``; the route goes back as
  ``hookSpecificOutput.additionalContext``, which Gemini CLI appends to that prompt.
  In a ``gemini -p`` run Gemini CLI puts the ``SessionStart`` context *into* the
  prompt, as ``<hook_context>…</hook_context>`` before the user's text, and sends that
  to ``BeforeAgent``: nobody typed it, so it is cut off (:func:`typed`) before routing.
  Gemini CLI sends no prompt id to hooks, so every event of the session is taken to
  belong to the open turn. artibot's ``/learn`` command (``commands/learn.toml``)
  reaches ``BeforeAgent`` already expanded: its text opens with :data:`LEARN_MARKER`,
  and the hook passes it on as the command ``/artibot:learn``, which the shared prompt
  rules treat as a slash command (it closes the previous turn; nothing is routed or
  recorded, as for ``/learn`` in Claude Code);
* ``AfterTool`` (``tool_name``, ``tool_response``) -> ``post-tool-use``, or
  ``post-tool-use-failure`` when the tool failed: ``tool_response.error`` is set, or a
  ``run_shell_command`` result ends in ``Exit Code: N`` with N != 0 (Gemini CLI 0.61.0
  reports a failing command that way and sets no ``error``);
  A planning or delegation tool of Gemini CLI's (:data:`PLANNING_NAMES`: ``write_todos``,
  plan mode, ``invoke_agent``, the task tracker) is passed on under its counterpart's name
  in the shared turn model (``TodoWrite``, ``EnterPlanMode``, ``Agent``, ``TaskCreate``
  …), so that a System 1 turn that plans or delegates is ``escalated`` as in Claude Code;
* ``AfterAgent`` -> ``stop`` (fired once per turn, when no tool call is pending);
* ``SessionEnd`` -> ``session-end`` (Gemini CLI does not wait for it; a turn it misses
  is made final by the next session's start);
* ``BeforeModel`` (``llm_request.model``; registered only when the user chose a model
  per route, ``artibot install gemini-cli --model system1=… --model system2=…``): the
  open turn's route picks the model from the hook's environment
  (:data:`MODEL_ENV`, set in the hook's ``env`` in ``settings.json``) and the hook
  answers ``hookSpecificOutput.llm_request.model``, which Gemini CLI uses for that
  request. A request outside a routed turn, or a route with no model, is left as it is;
  a switch away from the session's model is made only when it pays for the context it
  would send uncached (:func:`apply_profile`).

The hook JSON for ``BeforeAgent`` and ``SessionStart`` has Claude Code's shape, with
Gemini CLI's event name in ``hookEventName``.
"""

from __future__ import annotations

from artibot.hookpath.turns.call import context_of, text_field

TYPE_CHECKING = False  # not typing's: this client's every hook imports this module
if TYPE_CHECKING:
    from artibot.hookpath.turns.protocol import Call, Output, Payload
    from artibot.hookpath.store.hookio import SpoolDoc

EVENTS = {
    "BeforeModel": "apply-profile",
    "SessionStart": "session-start",
    "BeforeAgent": "user-prompt-submit",
    "AfterTool": "post-tool-use",
    "AfterAgent": "stop",
    "SessionEnd": "session-end",
}

MODEL_ENV = {"system1": "ARTIBOT_SYSTEM1_MODEL", "system2": "ARTIBOT_SYSTEM2_MODEL"}
"""The variables the ``BeforeModel`` hook entry sets (in its ``env``) to name a route's model."""

SHELL_TOOL = "run_shell_command"
PLANNING_NAMES = {
    "write_todos": "TodoWrite", "enter_plan_mode": "EnterPlanMode", "exit_plan_mode": "ExitPlanMode",
    "invoke_agent": "Agent", "tracker_create_task": "TaskCreate", "tracker_update_task": "TaskUpdate",
}
"""Gemini CLI 0.61.0's planning and delegation tools -> the shared model's names for them."""
EXIT_MARK = "Exit Code: "


def _llm_text(response: dict[str, object]) -> str:
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


HOOK_CONTEXT = ("<hook_context>", "</hook_context>")
LEARN_MARKER = "<!-- artibot:learn -->"
"""The first line of artibot's ``/learn`` prompt (``config/gemini-cli/commands/learn.toml``)."""
LEARN_COMMAND = "/artibot:learn"
"""What the handlers are given instead of the expanded ``/learn``: a command name, so never routed."""


def typed(prompt: object) -> object:
    """The prompt without the hooks' context Gemini CLI puts before it.

    >>> typed("<hook_context>artibot routes each prompt…</hook_context>\\n\\nfix the typo")
    'fix the typo'
    >>> typed("fix <hook_context> in the parser")
    'fix <hook_context> in the parser'
    """
    if not isinstance(prompt, str):
        return prompt
    opening, closing = HOOK_CONTEXT
    text = prompt
    while text.startswith(opening) and closing in text:
        text = text[text.index(closing) + len(closing):].lstrip("\n")
    return text


def translate(event: str, payload: Payload) -> tuple[str, Payload] | None:
    fields: Payload = {"session_id": text_field(payload, "session_id"), "cwd": text_field(payload, "cwd")}
    handler = EVENTS[event]
    if event == "BeforeAgent":
        prompt = typed(payload.get("prompt"))
        fields["prompt"] = LEARN_COMMAND if isinstance(prompt, str) and prompt.startswith(LEARN_MARKER) else prompt
    elif event == "BeforeModel":
        request = payload.get("llm_request")
        fields["model"] = request.get("model") if isinstance(request, dict) else None
        fields["context_tokens"] = _context_tokens(request.get("messages") if isinstance(request, dict) else None)
    elif event == "AfterTool":
        tool = text_field(payload, "tool_name")
        fields["tool_name"] = PLANNING_NAMES.get(tool or "", tool)
        if tool_failed(tool, payload.get("tool_response")):
            handler = "post-tool-use-failure"
    return handler, fields


def apply_profile(call: Call) -> Output | None:
    """``{"model": …}`` for the open turn's route, or None (no routed turn, no model for its route,
    or a switch that does not pay).

    Gemini's implicit prompt cache is per model too, so a model switch is weighed as the
    gateway weighs one (:func:`artibot.gateway.profiles.choose_profile`): the context the
    request carries (``llm_request.messages``, about four characters a token) is what a
    switch would send uncached. The choice is made at the turn's first request, kept on the
    turn (every later request of the turn reads it back), and the session remembers the
    model it is on."""
    import os

    from artibot.hookpath.store import hookio

    spool = hookio.Spool(call.root, call.session_id)
    doc = spool.read()
    turn = doc.get("turn") if isinstance(doc, dict) else None
    if not isinstance(turn, dict):
        return None
    fixed = turn.get("gateway")
    if not (isinstance(fixed, dict) and isinstance(fixed.get("profile"), dict)):
        system = (turn.get("decision") or {}).get("system")
        wanted = os.environ.get(MODEL_ENV.get(system, ""), "") if system else ""
        context = call.payload.get("context_tokens")
        context = context if isinstance(context, int) else 0
        with spool.edit(create=False, timeout=1.0) as live:
            turn = live.get("turn") if isinstance(live, dict) else None
            if not isinstance(live, dict) or not isinstance(turn, dict):
                return None
            fixed = _choose(live, turn, wanted or None, call.payload.get("model"), context)
    profile = fixed.get("profile") or {}  # a dict: checked above, or chosen just now
    model = profile.get("model") if isinstance(profile, dict) else None
    if not isinstance(model, str) or not model or model == call.payload.get("model"):
        return None
    return {"model": model}


def _context_tokens(messages: object) -> int:
    if not isinstance(messages, list):
        return 0
    chars = 0
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        chars += len(content) if isinstance(content, str) else len(str(content or ""))
    return chars // 4


def _choose(doc: SpoolDoc, turn: SpoolDoc, wanted: str | None, requested: object, context: int) -> dict[str, object]:
    """The model the turn runs on (see :func:`apply_profile`), stored on the turn."""
    from artibot.gateway.price_table import PriceTable
    from artibot.gateway.profiles import Profile, SessionState, choose_profile
    from artibot.hookpath.store.gateway_state import count_turn

    state = doc.get("gateway")
    if not isinstance(state, dict):
        state = {}
    doc["gateway"] = state
    system = (turn.get("decision") or {}).get("system")
    current = SessionState.from_json(state)
    current = SessionState(current.model, None, context,
                           {"input_tokens": 200, "output_tokens": 1000, "cache_read_input_tokens": context},
                           current.requests, current.turns)
    requested_model = requested if isinstance(requested, str) else None
    profile, why = choose_profile(Profile(None, wanted), system, requested_model=requested_model, requested_effort=None,
                                  markers=True, state=current, prices=PriceTable.shipped(), limit=10 ** 9)
    count_turn(state, system)
    state["model"] = profile.model or requested_model
    chosen: dict[str, object] = {"route": system, "profile": profile.to_json(), "why": why}
    turn["gateway"] = chosen
    return chosen


OWN_HANDLERS = {"apply-profile": apply_profile}


def render(event: str, output: Output | None) -> Output | None:
    if event == "BeforeModel":
        model = output.get("model") if isinstance(output, dict) else None
        return {"hookSpecificOutput": {"hookEventName": event, "llm_request": {"model": model}}} if model else None
    text = context_of(output)
    if text is None or event not in ("SessionStart", "BeforeAgent"):
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
