"""Effort per turn without breaking the prompt cache (pure).

A conversation's requests are cheap because each one re-sends the last one's messages and
the API serves that prefix from its cache. The cache is keyed by the model and the
*top-level* effort, and a change anywhere in the prefix recomputes everything after it.
So a route must never change the top-level ``output_config`` nor rewrite a message that
was already sent. The Messages API's per-message effort (beta
:data:`BETA`) is the cache-safe lever: a ``role: "system"`` message carrying
``output_config: {"effort": …}`` sets the effort of the answers to the user turn with new
input just before it, until the next such marker.

The rewrite (:func:`rewrite`):

* splits the messages into *turns*: each starts at a user message with new input (a user
  message holding only ``tool_result`` blocks is not new input) and runs to the next one;
* gives every turn an effort: a main-conversation turn takes the route written in its own
  hook context (the prompt hook's ``artibot router: System 1 (fast)`` line, which the
  client re-sends with the turn forever), compaction and turns without a route line run at
  the client's effort, and a sub-agent's conversation runs at the effort of the turn that
  launched it;
* places that effort on the turn's markers: on every marker the client put in the turn,
  else — when it differs from the effort in force — on the turn's hook-context system
  message, else on an effort-only system message (empty content) inserted right after the
  turn's new input.

Everything a turn gets depends only on the turn itself and the turns before it, so every
later request of the session reproduces the same bytes for it (no state is kept, and a
restarted gateway agrees), and the messages a request shares with the previous one are
byte-identical to what went upstream before.

>>> body = {"model": "claude-opus-5-5", "output_config": {"effort": "medium"}, "messages": [
...     {"role": "user", "content": "fix the typo"},
...     {"role": "system", "content": "artibot router: System 1 (fast) — x. Answer directly.",
...      "output_config": {"effort": "medium"}},
...     {"role": "assistant", "content": "done"},
...     {"role": "user", "content": "now design the service"},
...     {"role": "system", "content": "artibot router: System 2 (deliberate) — y. Plan before acting."}]}
>>> out, changed = rewrite(body, Efforts(system1="low", system2=None), client="medium")
>>> out["output_config"], [m.get("output_config") for m in out["messages"]], changed
({'effort': 'medium'}, [None, {'effort': 'low'}, None, None, {'effort': 'medium'}], True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

BETA = "mid-conversation-output-config-2026-07-01"
"""The ``anthropic-beta`` value that per-message effort needs (a marker without it is refused)."""

PER_MESSAGE_MODELS = ("claude-opus-5", "claude-sonnet-5", "claude-haiku-5")
"""Model name prefixes that accept per-message effort (the 5.x families; not 4.x)."""

DEFAULT_EFFORT = "high"
"""The API's effort when a request names none."""

ROUTE_PREFIX = "artibot router: System "
ROUTE_LINES = (("artibot router: System 1 (fast)", "system1"), ("artibot router: System 2 (deliberate)", "system2"))
"""The prompt hook's route line, as the client re-sends it in the turn's own context."""

COMPACTION_SIGNS = ("Your task is to create a detailed summary of the conversation so far",)
"""The instruction Claude Code's ``/compact`` (and auto-compaction) appends to the conversation."""


@dataclass(frozen=True)
class Efforts:
    """The effort per route (``None``: the client's own)."""

    system1: str | None = "low"
    system2: str | None = None

    def of(self, route: str | None, client: str) -> str:
        wanted = self.system1 if route == "system1" else self.system2 if route == "system2" else None
        return wanted or client


def supports_markers(model: Any) -> bool:
    """Whether ``model`` takes per-message effort."""
    return isinstance(model, str) and model.startswith(PER_MESSAGE_MODELS)


def client_effort(body: Mapping[str, Any]) -> str:
    """The top-level effort the client asked for (the API's default when it names none)."""
    top = body.get("output_config")
    effort = top.get("effort") if isinstance(top, dict) else None
    return effort if isinstance(effort, str) else DEFAULT_EFFORT


def _blocks_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def is_new_input(message: Any) -> bool:
    """A user message with something other than tool results (a prompt, a command, a notice)."""
    if not isinstance(message, dict) or message.get("role") != "user":
        return False
    content = message.get("content")
    if isinstance(content, str):
        return True
    if not isinstance(content, list):
        return False
    return any(not (isinstance(b, dict) and b.get("type") == "tool_result") for b in content)


def _is_marker(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") == "system" and isinstance(
        message.get("output_config"), dict)


def turn_starts(messages: Sequence[Any]) -> list[int]:
    """The index of each turn's new-input user message."""
    return [i for i, m in enumerate(messages) if is_new_input(m)]


def head_end(messages: Sequence[Any], start: int) -> int:
    """One past the turn's head: its new input and the system messages right after it."""
    end = start + 1
    while end < len(messages) and isinstance(messages[end], dict) and messages[end].get("role") == "system":
        end += 1
    return end


def route_of(messages: Sequence[Any], start: int, end: int | None = None) -> str | None:
    """The route the prompt hook wrote into the head of the turn starting at ``start`` (ending
    before ``end``): the last route line of the head's last message that has one (the hook
    context follows the prompt)."""
    for message in reversed(messages[start:head_end(messages, start) if end is None else end]):
        text = _blocks_text(message.get("content"))
        if ROUTE_PREFIX not in text:
            continue
        found: tuple[int, str | None] = (-1, None)
        for line, route in ROUTE_LINES:
            at = text.rfind(line)
            if at > found[0]:
                found = (at, route)
        if found[1] is not None:
            return found[1]
    return None


def is_compaction(messages: Sequence[Any], starts: Sequence[int] | None = None) -> bool:
    """Whether the conversation's last turn is the client's request to summarise it (``/compact``)."""
    starts = turn_starts(messages) if starts is None else starts
    if not starts:
        return False
    last = messages[starts[-1]]
    return any(sign in _blocks_text(last.get("content")) for sign in COMPACTION_SIGNS)


def efforts_for(messages: Sequence[Any], efforts: Efforts, client: str, *, agent_effort: str | None,
                starts: Sequence[int] | None = None, heads: Sequence[int] | None = None) -> list[str]:
    """The effort of each turn (see the module doc); ``agent_effort`` is set for a sub-agent's conversation."""
    starts = turn_starts(messages) if starts is None else starts
    out = []
    for n, start in enumerate(starts):
        if agent_effort is not None:
            out.append(agent_effort)
        elif n == len(starts) - 1 and is_compaction(messages, starts):
            out.append(client)
        else:
            out.append(efforts.of(route_of(messages, start, None if heads is None else heads[n]), client))
    return out


def _marked(message: Mapping[str, Any], effort: str) -> dict[str, Any]:
    config = message.get("output_config")
    return {**message, "output_config": {**(config if isinstance(config, dict) else {}), "effort": effort}}


def rewrite(body: Mapping[str, Any], efforts: Efforts, *, client: str | None = None,
            agent_effort: str | None = None, starts: Sequence[int] | None = None) -> tuple[dict[str, Any], bool]:
    """A copy of ``body`` with each turn's effort on its markers; True when a marker differs from
    what the client sent (the request then needs :data:`BETA`). The top level is never touched.
    ``starts`` (:func:`turn_starts`) saves the caller who has them a second pass."""
    messages = body.get("messages")
    if not isinstance(messages, list):
        return dict(body), False
    client = client or client_effort(body)
    starts = turn_starts(messages) if starts is None else starts
    heads = [head_end(messages, start) for start in starts]
    wanted = efforts_for(messages, efforts, client, agent_effort=agent_effort, starts=starts, heads=heads)
    out: list[Any] = list(messages[:starts[0]] if starts else messages)
    changed = False
    in_force = client
    for n, start in enumerate(starts):
        stop = starts[n + 1] if n + 1 < len(starts) else len(messages)
        effort, end, base = wanted[n], heads[n], len(out)
        head_marked = False
        for i in range(start, stop):
            message = messages[i]
            if _is_marker(message):
                head_marked = head_marked or i < end
                if message["output_config"].get("effort") != effort:
                    message = _marked(message, effort)
                    changed = True
            out.append(message)
        if effort != in_force and not head_marked:
            if end - start > 1:  # the hook context the client put after the new input carries the marker
                out[base + end - start - 1] = _marked(out[base + end - start - 1], effort)
            else:
                out.insert(base + 1, {"role": "system", "content": [], "output_config": {"effort": effort}})
            changed = True
        in_force = effort
    return {**body, "messages": out}, changed


def without_markers(body: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``body`` for a model without per-message effort: no message carries
    ``output_config`` (such a model refuses the request), and a system message that held
    nothing but a marker is left out. The top level is not touched.

    >>> without_markers({"output_config": {"effort": "low"}, "messages": [
    ...     {"role": "user", "content": "hi"},
    ...     {"role": "system", "content": "context", "output_config": {"effort": "high"}},
    ...     {"role": "system", "content": [], "output_config": {"effort": "high"}}]})
    {'output_config': {'effort': 'low'}, 'messages': [{'role': 'user', 'content': 'hi'}, {'role': 'system', 'content': 'context'}]}
    """
    messages = body.get("messages")
    if not isinstance(messages, list):
        return dict(body)
    out: list[Any] = []
    for message in messages:
        if _is_marker(message):
            if not message.get("content"):
                continue
            message = {k: v for k, v in message.items() if k != "output_config"}
        out.append(message)
    return {**body, "messages": out}


def merge_beta(values: Sequence[str], beta: str = BETA) -> str:
    """The ``anthropic-beta`` header with ``beta`` added once; every value the client sent is kept.

    >>> merge_beta(["a,b", "c"])
    'a,b,c,mid-conversation-output-config-2026-07-01'
    >>> merge_beta(["mid-conversation-output-config-2026-07-01"])
    'mid-conversation-output-config-2026-07-01'
    """
    names = [v.strip() for value in values for v in value.split(",") if v.strip()]
    if beta not in names:
        names.append(beta)
    return ",".join(names)
