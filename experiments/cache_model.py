"""A prompt cache that behaves as the Messages API documents it, for the fake APIs of the tests
and the experiments (pure but for the clock it is given).

What it models:

* **The prefix.** A request is read as one sequence of blocks: each tool, each ``system``
  block, then each message's content blocks in order (a message's role and its own fields,
  such as a per-message ``output_config``, belong to its first block; a message with no
  content is one block). A block's identity chains every block before it, so a change
  anywhere changes the identity of everything after it.
* **Separate caches.** One cache per ``(model, top-level effort)``: a request on another
  model or at another top-level effort starts from nothing.
* **Breakpoints.** A block with ``cache_control`` is a breakpoint (the marker itself is not
  part of the block's content: a client moves it forward as the conversation grows; and a
  string ``content`` is the same prompt as one text block holding it); a top-level
  ``cache_control`` (automatic caching) puts one on the last block. At most the last four
  count. A read looks for the longest prefix already stored that ends at a breakpoint or
  at one of the 20 blocks before it; the request then writes every breakpoint prefix
  longer than what it read. A prefix shorter than the model's minimum (1,024 tokens; 2,048
  for Haiku) is never stored.
* **Lifetime.** An entry lives 5 minutes from its last write or read.
* **Tokens.** A block costs ``len(canonical JSON) / 4`` tokens (at least one): a stand-in for
  the tokenizer that keeps sizes proportional and deterministic.

Usage is reported as the API does: ``cache_read_input_tokens`` (the prefix read),
``cache_creation_input_tokens`` (written after it, up to the last breakpoint) and
``input_tokens`` (the rest).

>>> cache = PromptCache(clock=lambda: 0.0)
>>> body = {"model": "claude-opus-5-5", "output_config": {"effort": "medium"},
...         "system": [{"type": "text", "text": "x" * 8000, "cache_control": {"type": "ephemeral"}}],
...         "messages": [{"role": "user", "content": [{"type": "text", "text": "hi",
...                                                    "cache_control": {"type": "ephemeral"}}]}]}
>>> first = cache.usage(body)
>>> first["cache_read_input_tokens"], first["cache_creation_input_tokens"] > 2000
(0, True)
>>> cache.usage(body)["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
True
>>> cache.usage({**body, "output_config": {"effort": "low"}})["cache_read_input_tokens"]  # another cache
0
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

TTL_S = 300.0
LOOKBACK = 20
MAX_BREAKPOINTS = 4
MIN_TOKENS = 1024
MIN_TOKENS_HAIKU = 2048


def _canon(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def tokens_of(value: Any) -> int:
    """The stand-in token count of a block. A simulated block may state its size in
    ``sim_tokens`` instead of carrying its text (a 150k-token conversation stays small)."""
    if isinstance(value, tuple):
        return max(1, sum(tokens_of(v) for v in value if v is not None))
    if isinstance(value, Mapping) and isinstance(value.get("sim_tokens"), int):
        return max(1, value["sim_tokens"])
    return max(1, len(_canon(value)) // 4)


@dataclass(frozen=True)
class Block:
    key: bytes
    """The identity of the prefix ending with this block."""
    tokens: int
    breakpoint: bool


def _has_cache_control(block: Any) -> bool:
    return isinstance(block, Mapping) and isinstance(block.get("cache_control"), Mapping)


def _content(block: Any) -> Any:
    """A block as the cache knows it: where a breakpoint sits is not part of the content."""
    if isinstance(block, Mapping) and "cache_control" in block:
        return {k: v for k, v in block.items() if k != "cache_control"}
    return block


def blocks(body: Mapping[str, Any]) -> list[Block]:
    """The request as the cache sees it: tools, then system, then messages."""
    items: list[tuple[Any, bool]] = []
    for tool in body.get("tools") or []:
        items.append((("tool", _content(tool)), _has_cache_control(tool)))
    system = body.get("system")
    if isinstance(system, str):
        items.append((("system", system), False))
    elif isinstance(system, list):
        for block in system:
            items.append((("system", _content(block)), _has_cache_control(block)))
    for message in body.get("messages") or []:
        if not isinstance(message, Mapping):
            continue
        head = {k: v for k, v in message.items() if k != "content"}
        content = message.get("content")
        if isinstance(content, str):  # the same prompt as one text block
            content = [{"type": "text", "text": content}]
        if isinstance(content, list) and content:
            for i, block in enumerate(content):
                items.append(((head if i == 0 else None, _content(block)), _has_cache_control(block)))
        else:
            items.append(((head, content), False))
    if items and isinstance(body.get("cache_control"), Mapping):
        items[-1] = (items[-1][0], True)
    marks = [i for i, (_, mark) in enumerate(items) if mark][-MAX_BREAKPOINTS:]
    out, digest = [], hashlib.sha256()
    for i, (item, _) in enumerate(items):
        digest.update(_canon(item))
        out.append(Block(digest.copy().digest(), tokens_of(item), i in marks))
    return out


def effort_of(body: Mapping[str, Any]) -> str:
    """The effort the request's answer runs at: the last per-message marker that applies to the
    last turn with new input, else the top-level value, else the API's default (``high``)."""
    top = body.get("output_config")
    effort = top.get("effort") if isinstance(top, Mapping) and isinstance(top.get("effort"), str) else "high"
    messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
    last_turn = max((i for i, m in enumerate(messages) if new_input(m)), default=-1)
    head = last_turn + 1
    while 0 <= last_turn and head < len(messages) and messages[head].get("role") == "system":
        head += 1
    for i, message in enumerate(messages):
        config = message.get("output_config")
        if message.get("role") == "system" and isinstance(config, Mapping) and isinstance(config.get("effort"), str):
            if i < head:
                effort = config["effort"]
    return effort


def new_input(message: Mapping[str, Any]) -> bool:
    """A user message with something other than tool results."""
    if message.get("role") != "user":
        return False
    content = message.get("content")
    return isinstance(content, str) or (isinstance(content, list) and any(
        not (isinstance(b, Mapping) and b.get("type") == "tool_result") for b in content))


def markers(body: Mapping[str, Any]) -> int:
    """How many per-message ``output_config`` markers the request carries."""
    return sum(1 for m in body.get("messages") or [] if isinstance(m, Mapping) and m.get("role") == "system"
               and "output_config" in m)


@dataclass
class PromptCache:
    """The API's prompt cache across requests (see the module doc); ``clock`` gives seconds."""

    clock: Callable[[], float] = time.monotonic
    ttl_s: float = TTL_S
    entries: dict[tuple[str, str], dict[bytes, float]] = field(default_factory=dict)

    def usage(self, body: Mapping[str, Any]) -> dict[str, int]:
        now = self.clock()
        model = str(body.get("model") or "")
        top = body.get("output_config")
        effort = str(top.get("effort")) if isinstance(top, Mapping) else ""
        store = self.entries.setdefault((model, effort), {})
        for key in [k for k, expiry in store.items() if expiry <= now]:
            del store[key]
        seq = blocks(body)
        cum, total = [], 0
        for block in seq:
            total += block.tokens
            cum.append(total)
        marks = [i for i, b in enumerate(seq) if b.breakpoint]
        hit = -1
        for mark in marks:
            for j in range(mark, max(-1, mark - LOOKBACK - 1), -1):
                if seq[j].key in store:
                    hit = max(hit, j)
                    break
        if hit >= 0:
            store[seq[hit].key] = now + self.ttl_s
        minimum = MIN_TOKENS_HAIKU if "haiku" in model else MIN_TOKENS
        written_to = hit
        for mark in marks:
            if mark > hit and cum[mark] >= minimum:
                store[seq[mark].key] = now + self.ttl_s
                written_to = max(written_to, mark)
        read = cum[hit] if hit >= 0 else 0
        written = cum[written_to] - read if written_to > hit else 0
        return {"input_tokens": total - read - written, "cache_creation_input_tokens": written,
                "cache_read_input_tokens": read}


BETAS = ("mid-conversation-output-config-2026-07-01", "per-turn-control-2026-07-01")
"""Betas under which a request may carry per-message effort: the documented one, and the one
Claude Code 2.1.331 sends with the markers it places itself (seen in its requests)."""

MARKER_MODELS = ("claude-opus-5", "claude-sonnet-5", "claude-haiku-5", "claude-fable-5", "claude-mythos-5")

OUTPUT_SHARE = {"low": 0.3, "medium": 0.6, "high": 1.0, "max": 1.3}
"""The fake's output tokens at each effort relative to ``high`` (an assumption: thinking is
most of an answer's output, and lower efforts think less)."""


def refusal(body: Mapping[str, Any], beta_header: str) -> str | None:
    """Why the API would refuse the request's per-message effort (a 400), or None."""
    if not markers(body):
        return None
    if str(body.get("model") or "").startswith(MARKER_MODELS) is False:
        return f"per-message output_config is not supported on {body.get('model')}"
    names = {v.strip() for v in beta_header.split(",")}
    if not names.intersection(BETAS):
        return "per-message output_config requires the mid-conversation-output-config-2026-07-01 beta"
    for message in body.get("messages") or []:
        if isinstance(message, Mapping) and message.get("role") == "system" and "output_config" in message:
            config = message["output_config"]
            if not isinstance(config, Mapping) or config.get("effort") not in (None, *OUTPUT_SHARE):
                return "output_config.effort must be one of low, medium, high, max"
    return None


THINKING = 1500
"""The fake's thinking tokens per answer at ``high`` (an assumption), before the answer's own."""


def output_tokens(at_high: int, effort: str) -> int:
    """An answer's output tokens at ``effort``, from what it would be at ``high``."""
    return max(1, round(at_high * OUTPUT_SHARE.get(effort, 1.0)))
