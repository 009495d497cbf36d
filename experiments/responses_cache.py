"""A prompt cache that behaves as OpenAI's prompt-caching guide documents it for the Responses
API, for the fake Responses API of the tests and the cost study (pure but for the clock it is given).

What it models:

* **The prefix.** A request is read as one sequence of items: the request-level settings
  that render into the model's instructions (``reasoning.effort``, ``instructions``,
  ``text``, ``parallel_tool_calls``), each tool, then each ``input`` item in order. An
  item's identity chains every item before it, so a change anywhere changes the identity of
  everything after it. Caching is automatic: there are no breakpoints, the longest stored
  prefix is read, and the whole prompt is stored for the next request.
* **Separate caches.** One cache per model: a request on another model starts from
  nothing. A change of the request-level ``reasoning.effort`` changes the first item (the
  guide: it can change the model-side reasoning instructions), so it misses everything.
* **``configuration_update``.** An input item like any other: appending one keeps the
  prefix before it cached, and the effort it names applies to the responses after it (the
  last one in the input wins over the request-level effort). A model that does not take
  the item refuses the request (:func:`takes_updates`), as the API does with a 400.
* **Granularity.** A prefix shorter than 1,024 tokens is never read from the cache; the
  part read is counted in steps of 128 tokens past the first 1,024.
* **Lifetime.** An entry lives 5 minutes from its last write or read (``in_memory`` retention).
* **Tokens.** An item costs ``len(canonical JSON) / 4`` tokens (at least one), as in
  :mod:`experiments.cache_model`.

Usage is reported as the Responses API does: ``input_tokens`` (the whole prompt, cached
part included), ``input_tokens_details.cached_tokens``, ``output_tokens`` and
``output_tokens_details.reasoning_tokens``.

>>> cache = PromptCache(clock=lambda: 0.0)
>>> body = {"model": "gpt-6-astra", "reasoning": {"effort": "medium"}, "instructions": "x" * 8000,
...         "input": [{"type": "message", "role": "user", "content": "hi"}]}
>>> cache.usage(body)["input_tokens_details"]["cached_tokens"]
0
>>> later = {**body, "input": body["input"] + [{"type": "configuration_update", "reasoning": {"effort": "low"}}]}
>>> cache.usage(later)["input_tokens_details"]["cached_tokens"] >= 1024, effort_of(later)
(True, 'low')
>>> cache.usage({**body, "reasoning": {"effort": "low"}})["input_tokens_details"]["cached_tokens"]  # a miss
0
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

TTL_S = 300.0
MIN_TOKENS = 1024
STEP = 128
DEFAULT_EFFORT = "medium"
"""The effort a request that names none runs at (the Responses API's default for reasoning models)."""
UPDATE = "configuration_update"
UPDATE_MODELS = ("gpt-6-astra",)
"""Models that take a ``configuration_update`` item (GPT-5.6 Luna, Terra and Sol answer it with a 400)."""
RENDERED = ("instructions", "text", "parallel_tool_calls")
"""Request-level fields that render into the prompt ahead of the tools and the input."""


def _canon(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def tokens_of(value: Any) -> int:
    if isinstance(value, Mapping) and isinstance(value.get("sim_tokens"), int):
        return max(1, value["sim_tokens"])
    return max(1, len(_canon(value)) // 4)


def takes_updates(model: Any) -> bool:
    return isinstance(model, str) and any(model == m or model.startswith(m + "-") for m in UPDATE_MODELS)


def request_effort(body: Mapping[str, Any]) -> str | None:
    reasoning = body.get("reasoning")
    effort = reasoning.get("effort") if isinstance(reasoning, Mapping) else None
    return effort if isinstance(effort, str) else None


def effort_of(body: Mapping[str, Any]) -> str:
    """The effort the answer runs at: the last ``configuration_update`` in the input, else the
    request-level ``reasoning.effort``, else the default."""
    effort = request_effort(body) or DEFAULT_EFFORT
    for item in body.get("input") or []:
        if isinstance(item, Mapping) and item.get("type") == UPDATE:
            reasoning = item.get("reasoning")
            if isinstance(reasoning, Mapping) and isinstance(reasoning.get("effort"), str):
                effort = reasoning["effort"]
    return effort


def items(body: Mapping[str, Any]) -> list[tuple[bytes, int]]:
    """``(identity of the prefix ending here, tokens of this item)`` for each item of the prompt."""
    head = {"effort": request_effort(body), **{k: body.get(k) for k in RENDERED}}
    parts: list[Any] = [("head", head)]
    parts += [("tool", tool) for tool in body.get("tools") or []]
    raw = body.get("input")
    inputs = [{"type": "message", "role": "user", "content": raw}] if isinstance(raw, str) else raw or []
    parts += [("item", item) for item in inputs]
    out, digest = [], hashlib.sha256()
    for part in parts:
        digest.update(_canon(part))
        out.append((digest.copy().digest(), tokens_of(part[1]) if part[0] != "head" else tokens_of(head)))
    return out


@dataclass
class PromptCache:
    clock: Callable[[], float] = time.monotonic
    _entries: dict[tuple[str, bytes], float] = field(default_factory=dict)
    """(model, prefix identity) -> expiry."""

    def usage(self, body: Mapping[str, Any], output_tokens: int = 0, reasoning_tokens: int = 0) -> dict[str, Any]:
        """What the API reports for ``body`` (and stores it for the next request)."""
        model = str(body.get("model"))
        now = self.clock()
        seq = items(body)
        total = sum(t for _, t in seq)
        running, read = 0, 0
        for key, tokens in seq:
            running += tokens
            if self._entries.get((model, key), -1.0) > now:
                read = running
        if read < MIN_TOKENS:
            read = 0
        else:
            read = MIN_TOKENS + (read - MIN_TOKENS) // STEP * STEP
        for key, _ in seq:  # the whole prompt is stored, and what was read lives on
            self._entries[(model, key)] = now + TTL_S
        return {"input_tokens": total, "input_tokens_details": {"cached_tokens": read},
                "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
                "total_tokens": total + output_tokens}
