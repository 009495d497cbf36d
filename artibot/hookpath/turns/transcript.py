"""Which tool calls were one batch: read from the tail of Claude Code's transcript (pure).

The model may ask for several tool calls in one message. Claude Code runs read-only ones
together and the rest one after another, and fires one ``PostToolUse`` or
``PostToolUseFailure`` per call, in the order they finish: from the hooks alone, a batch
that ran one call after another looks like a failure and its retry. The transcript
(``transcript_path`` in every payload; JSON lines) says which calls the model asked for
together: each assistant line carries one content block and its message's ``id``, and
each ``tool_result`` line says ``is_error``.

:func:`last_batch_failed` answers for the turn's last batch: ``True`` when one of its
calls failed, ``False`` when none did, ``None`` when the tail does not show it (then the
hooks' own order-independent rule stands).

>>> lines = [
...   b'{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1"}]}}',
...   b'{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true}]}}',
...   b'{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t2"}]}}',
...   b'{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t3"}]}}',
...   b'{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t3","is_error":true}]}}',
...   b'{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2"}]}}',
...   b'{"type":"assistant","message":{"id":"m3","content":[{"type":"text","text":"done"}]}}']
>>> last_batch_failed(b"\\n".join(lines))
True
>>> last_batch_failed(b"\\n".join(lines[:2] + lines[6:]))
True
>>> ok = lines[4].replace(b',"is_error":true', b"")
>>> last_batch_failed(b"\\n".join(lines[2:4] + [ok] + lines[5:]))
False
>>> last_batch_failed(b"\\n".join(lines[2:4] + lines[5:])) is None  # t3's result is not in the tail
True
>>> last_batch_failed(b'{"type":"summary"}') is None
True
"""

from __future__ import annotations

from artibot.hookpath.store.hookio import loads

TYPE_CHECKING = False  # not typing's: imported by Stop hooks
if TYPE_CHECKING:
    from typing import Iterator

TAIL_BYTES = 1 << 20
"""How much of the transcript's end is read (a batch's results are rarely larger)."""

UNOFFERED = b"No such tool available"
"""What Claude Code answers a call to a tool the model was not offered (or that
``--disallowedTools`` removed), in a ``tool_result`` with ``is_error``; it fires no hook
for that call (seen in Claude Code 2.1.331)."""

PEEK_BYTES = 1 << 16
"""How much of the transcript's end every ``Stop`` looks through for :data:`UNOFFERED`
(one read, no parsing); the turn is parsed from :data:`TAIL_BYTES` only when it is there."""


def _blocks(tail: bytes, *, prompts: bool = False) -> Iterator[tuple[str, object, dict[str, object]]]:
    """``(kind, message id, block)`` for each ``tool_use`` and ``tool_result`` block of
    ``tail``'s lines, in order; with ``prompts``, ``("prompt", None, {})`` for each prompt
    line too (a user message with text: a new turn; ``{}`` for its block). Lines with neither are not parsed."""
    for line in tail.split(b"\n"):
        if b'"tool_use' not in line and b'"tool_result"' not in line and not (prompts and b'"type":"user"' in line):
            continue  # most lines: text, metadata
        try:
            doc = loads(line)
        except (ValueError, UnicodeDecodeError):
            continue  # the first line of a tail may be cut
        message = doc.get("message") if isinstance(doc, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if prompts and doc.get("type") == "user" and (isinstance(content, str) or isinstance(content, list) and any(
                isinstance(b, dict) and b.get("type") == "text" for b in content)):
            yield "prompt", None, {}
            continue
        if not isinstance(content, list) or not isinstance(message, dict):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") in ("tool_use", "tool_result"):
                yield block["type"], message.get("id"), block


def unoffered_call(tail: bytes) -> str | None:
    """The tool the model called without being offered it, when that call is in the
    current turn's last batch (after the last prompt in ``tail``); else None.

    >>> prompt = b'{"type":"user","message":{"role":"user","content":"fix it"}}'
    >>> call = b'{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Frob"}]}}'
    >>> error = (b'{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,'
    ...          b'"content":"<tool_use_error>Error: No such tool available: Frob</tool_use_error>"}]}}')
    >>> unoffered_call(b"\\n".join([prompt, call, error]))
    'Frob'
    >>> unoffered_call(b"\\n".join([prompt, call, error, prompt]))  # a later turn: not this one's
    >>> retry = call.replace(b'"m1"', b'"m2"').replace(b'"t1"', b'"t2"').replace(b"Frob", b"Edit")
    >>> unoffered_call(b"\\n".join([prompt, call, error, retry]))  # the model recovered
    """
    calls: dict[str, str] = {}
    last_batch: str | None = None
    batch_calls: dict[str, list[str]] = {}
    failed: set[str] = set()
    seen_prompt = False
    for kind, mid, block in _blocks(tail, prompts=True):
        if kind == "prompt":
            calls, last_batch, batch_calls, failed, seen_prompt = {}, None, {}, set(), True  # a new turn
        elif kind == "tool_use" and isinstance(mid, str):
            last_batch = mid
            calls[str(block.get("id"))] = str(block.get("name") or "?")
            batch_calls.setdefault(mid, []).append(str(block.get("id")))
        elif kind == "tool_result" and block.get("is_error") is True:
            text = block.get("content")
            if isinstance(text, str) and UNOFFERED.decode() in text:
                failed.add(str(block.get("tool_use_id")))
    if not seen_prompt or last_batch is None:
        return None
    named = [calls[c] for c in batch_calls[last_batch] if c in failed]
    return named[0] if named else None


def last_batch_failed(tail: bytes) -> bool | None:
    """Whether a call of the last tool batch in ``tail`` (whole JSON lines) failed."""
    batches: dict[str, list[str]] = {}
    order: list[str] = []
    errors: dict[str, bool] = {}
    for kind, mid, block in _blocks(tail):
        if kind == "tool_use" and isinstance(mid, str):
            if mid not in batches:
                batches[mid] = []
                order.append(mid)
            batches[mid].append(str(block.get("id")))
        elif kind == "tool_result":
            errors[str(block.get("tool_use_id"))] = block.get("is_error") is True
    if not order:
        return None
    last = batches[order[-1]]
    if not all(call in errors for call in last):
        return None  # a result is missing from the tail
    return any(errors[call] for call in last)
