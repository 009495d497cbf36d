"""Codex CLI's requests in the OpenAI Responses API: which turn they belong to, and the
``configuration_update`` items that carry a route's effort (pure).

What Codex CLI sends (0.169.0, seen through the gateway): ``POST {base_url}/responses``,
streamed, with the whole conversation in ``input`` on every request (``store: false``, no
``previous_response_id``), the request-level ``reasoning.effort`` of the user's setting,
and ``client_metadata`` naming the session (``session_id``, the hooks' ``session_id``) and
the turn (``turn_id``, the hooks' ``turn_id``). A request with both is a turn's own work;
anything else goes through untouched.

How effort changes. A change of the request-level ``reasoning.effort`` can change the
model-side reasoning instructions and so misses the prompt cache (OpenAI's prompt-caching
guide). On the models that take it (:data:`UPDATE_MODELS`) a ``configuration_update`` input
item, ``{"type": "configuration_update", "reasoning": {"effort": "low"}}``, sets the effort
of the responses after it until another replaces it, and the prefix before it stays
cached. So a turn whose route wants another effort than the one in force gets one such
item right after its new input (:func:`new_update`); since Codex CLI re-sends the whole
history each time, every later request of the session gets each earlier item again at
the same place, with the same bytes (:func:`with_updates`). A place is the number of the
client's own items before it, kept with a digest of those items: a history the client
rewrote (compaction) no longer has that prefix, and the update is dropped rather than put
somewhere else. Models without the item (the GPT-5 family: GPT-5.6
answers it with a 400) are not routed: the route is context only there.

>>> body = {"model": "gpt-6-astra", "reasoning": {"effort": "high"}, "input": [{"type": "message",
...         "role": "user", "content": "hi"}], "client_metadata": {"session_id": "s-1", "turn_id": "t-1"}}
>>> session_of(body, {}), turn_of(body), takes_updates(body["model"]), takes_updates("gpt-5.1-codex")
('s-1', 't-1', True, False)
>>> update = new_update(body["input"], "low")
>>> with_updates(body["input"] + [{"type": "function_call_output", "output": "ok"}], [update])[0][1]
{'type': 'configuration_update', 'reasoning': {'effort': 'low'}}
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping, Sequence

import orjson

UPDATE = "configuration_update"
UPDATE_MODELS = ("gpt-6-astra",)
"""The models that take a ``configuration_update`` item (GPT-6 Astra; Codex CLI's own issue
tracker shows GPT-5.6 Luna, Terra and Sol refusing it with a 400). A model is matched by
name or by a dated or suffixed release of it (``gpt-6-astra-2026-09-03``)."""
EFFORTS = ("low", "medium", "high", "xhigh", "max")
"""The efforts an update may name (GPT-6 Astra's)."""
DEFAULT_EFFORT = "medium"
"""The effort a request that names none runs at (the Responses API's default for reasoning
models): what an update restores when the client sent no effort of its own."""
SESSION_HEADER = "session-id"
"""Codex CLI sends the session in this header too; the body's ``client_metadata`` wins."""


def takes_updates(model: object) -> bool:
    return isinstance(model, str) and any(model == m or model.startswith(m + "-") for m in UPDATE_MODELS)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= 200 else None


def session_of(body: Mapping[str, Any], headers: Mapping[str, str]) -> str | None:
    meta = body.get("client_metadata")
    sid = _text(meta.get("session_id")) if isinstance(meta, Mapping) else None
    return sid or _text(headers.get(SESSION_HEADER))


def turn_of(body: Mapping[str, Any]) -> str | None:
    meta = body.get("client_metadata")
    return _text(meta.get("turn_id")) if isinstance(meta, Mapping) else None


def is_turn_request(body: Mapping[str, Any]) -> bool:
    """A turn's own work: a conversation (``input`` a list) that names its turn."""
    return isinstance(body.get("input"), list) and turn_of(body) is not None


def client_effort(body: Mapping[str, Any]) -> str | None:
    """The request-level ``reasoning.effort`` the client sent (the prompt cache's key with the model)."""
    reasoning = body.get("reasoning")
    effort = reasoning.get("effort") if isinstance(reasoning, Mapping) else None
    return effort if isinstance(effort, str) else None


def update_item(effort: str) -> dict[str, Any]:
    return {"type": UPDATE, "reasoning": {"effort": effort}}


def _digests(items: Sequence[Any], upto: int) -> list[str]:
    """The digest of each prefix ``items[:k]``, for ``k`` from 1 to ``upto`` (chained: an item
    changed anywhere before the place changes it)."""
    out, running = [], hashlib.sha256()
    for item in items[:upto]:
        running.update(orjson.dumps(item, option=orjson.OPT_SORT_KEYS))
        out.append(running.copy().hexdigest()[:32])
    return out


def new_update(items: Sequence[Any], effort: str) -> dict[str, Any]:
    """The update a turn's first request gets: ``effort`` after the ``items`` the client sent
    (the turn's new input is the end of them), with the digest of everything before it."""
    return {"at": len(items), "after": _digests(items, len(items))[-1] if items else None, "effort": effort}


def is_update(entry: object) -> bool:
    """Whether ``entry`` has the shape :func:`new_update` writes (a spool is input the gateway does not control)."""
    if not isinstance(entry, Mapping):
        return False
    at, after, effort = entry.get("at"), entry.get("after"), entry.get("effort")
    return (isinstance(at, int) and not isinstance(at, bool) and at >= 0 and effort in EFFORTS
            and (after is None or isinstance(after, str)))


def with_updates(items: Sequence[Any], updates: Sequence[Mapping[str, Any]]) -> tuple[list[Any], int]:
    """The client's ``items`` with each update inserted at its place, and how many were placed.
    An update whose place is past the end, or whose prefix is not the one it followed, is left
    out (the history was rewritten), and so is every update after it."""
    ordered = sorted(updates, key=lambda u: int(u["at"]))
    if not ordered:
        return list(items), 0
    digests = _digests(items, min(int(ordered[-1]["at"]), len(items)))
    out: list[Any] = []
    placed, start = 0, 0
    for update in ordered:
        at = int(update["at"])
        if at > len(items) or (digests[at - 1] if at else None) != update.get("after"):
            break
        out.extend(items[start:at])
        out.append(update_item(str(update["effort"])))
        start = at
        placed += 1
    out.extend(items[start:])
    return out, placed


def effort_in_force(updates: Sequence[Mapping[str, Any]], requested: str | None) -> str | None:
    """The effort the next response runs at: the last update's, else the request's."""
    latest = max(updates, key=lambda u: int(u["at"]), default=None)
    return str(latest["effort"]) if latest is not None else requested
