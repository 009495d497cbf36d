"""The tokens a Messages API response reports, read as the bytes pass (pure).

A streamed answer reports ``usage`` in ``message_start`` (input and cache tokens, a first
output count) and in ``message_delta`` (the running output count, and on some releases
the input figures again); the last value of each field wins. A whole JSON answer has
one ``usage`` object. :class:`StreamReader` is fed the stream's chunks as they arrive,
split anywhere, and keeps only the current line: memory is bounded by a line, not by
the answer.

>>> r = StreamReader()
>>> r.feed(b'event: message_start\\ndata: {"type":"message_start","message":{"model":"m","usage":'
...        b'{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}}\\n\\nevent: message_del')
False
>>> r.feed(b'ta\\ndata: {"type":"message_delta","usage":{"output_tokens":7}}\\n\\n'
...        b'event: message_stop\\ndata: {"type":"message_stop"}\\n\\n')
True
>>> r.usage
Usage(input_tokens=10, output_tokens=7, cache_creation_input_tokens=0, cache_read_input_tokens=5)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, Mapping

MAX_LINE = 1 << 20
"""A longer SSE line is not a usage event (those are a few hundred bytes): it is skipped, not kept."""


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def merged(self, doc: Any) -> "Usage":
        """This usage with the fields ``doc`` reports replacing these (later reports win)."""
        if not isinstance(doc, Mapping):
            return self
        values = {}
        for f in fields(self):
            v = doc.get(f.name)
            if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
                values[f.name] = v
        return Usage(**{**self.to_json(), **values})

    def to_json(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def cached(self) -> int:
        """Tokens of the prompt prefix that sit in (or were just written to) the model's cache."""
        return self.cache_read_input_tokens + self.cache_creation_input_tokens


class StreamReader:
    """Usage and model from an SSE stream fed in arbitrary chunks."""

    def __init__(self) -> None:
        self.usage = Usage()
        self.model: str | None = None
        self.done = False
        self.seen = False
        self._line = bytearray()
        self._skipping = False

    def feed(self, chunk: bytes) -> bool:
        """Read ``chunk``; True once the stream's ``message_stop`` (or an ``error``) has been seen."""
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                rest = chunk[start:]
                if not self._skipping:
                    if len(self._line) + len(rest) > MAX_LINE:
                        self._line.clear()
                        self._skipping = True
                    else:
                        self._line += rest
                return self.done
            if self._skipping:
                self._skipping = False
            else:
                self._line += chunk[start:end]
                self._event(bytes(self._line))
            self._line.clear()
            start = end + 1

    WANTED: tuple[bytes, ...] = (b'"message_start"', b'"message_delta"', b'"message_stop"', b'"error"')
    """The events with usage or an end in them; the rest of a stream (the deltas) is not parsed."""

    def _parsed(self, line: bytes) -> dict[str, Any] | None:
        """The JSON object of a ``data:`` line naming one of :attr:`WANTED`, else None."""
        if not line.startswith(b"data:"):
            return None
        data = line[5:].strip()
        if not any(k in data for k in self.WANTED):
            return None
        try:
            doc = json.loads(data)
        except ValueError:
            return None
        return doc if isinstance(doc, dict) else None

    def _event(self, line: bytes) -> None:
        doc = self._parsed(line)
        if doc is None:
            return
        kind = doc.get("type")
        if kind == "message_start" and isinstance(doc.get("message"), dict):
            message = doc["message"]
            self.usage = self.usage.merged(message.get("usage"))
            self.model = message.get("model") if isinstance(message.get("model"), str) else self.model
            self.seen = True
        elif kind == "message_delta":
            self.usage = self.usage.merged(doc.get("usage"))
            self.seen = True
        elif kind in ("message_stop", "error"):
            self.done = True


class ResponsesStreamReader(StreamReader):
    """Usage and model from an OpenAI Responses API stream (Codex CLI's): the totals are in
    the last event, ``response.completed`` (or ``response.incomplete`` / ``response.failed``),
    as ``response.usage``: ``input_tokens`` (the whole prompt, the cached part included),
    ``input_tokens_details.cached_tokens``, ``output_tokens`` (reasoning included) and
    ``output_tokens_details.reasoning_tokens``. Read as :class:`Usage`: the cached part is
    ``cache_read_input_tokens`` and ``input_tokens`` the rest (the API reports no cache
    writes: caching is automatic and costs nothing extra on the models priced here).

    >>> r = ResponsesStreamReader()
    >>> r.feed(b'event: response.created\\ndata: {"type":"response.created","response":{"model":"gpt-6-astra"}}\\n\\n')
    False
    >>> r.feed(b'data: {"type":"response.completed","response":{"model":"gpt-6-astra","usage":{"input_tokens":'
    ...        b'2000,"input_tokens_details":{"cached_tokens":1536},"output_tokens":40,'
    ...        b'"output_tokens_details":{"reasoning_tokens":30}}}}\\n\\n')
    True
    >>> r.usage, r.reasoning_tokens
    (Usage(input_tokens=464, output_tokens=40, cache_creation_input_tokens=0, cache_read_input_tokens=1536), 30)
    """

    WANTED = (b'"response.completed"', b'"response.incomplete"', b'"response.failed"', b'"response.created"',
              b'"error"')

    def __init__(self) -> None:
        super().__init__()
        self.reasoning_tokens = 0

    def _event(self, line: bytes) -> None:
        doc = self._parsed(line)
        if doc is None:
            return
        kind = doc.get("type")
        response = doc.get("response")
        if isinstance(response, dict) and isinstance(response.get("model"), str):
            self.model = response["model"]
        if kind in ("response.completed", "response.incomplete", "response.failed"):
            got = responses_usage(response.get("usage") if isinstance(response, dict) else None)
            if got is not None:
                self.usage, self.reasoning_tokens = got
                self.seen = True
            self.done = True
        elif kind == "error":
            self.done = True


def responses_usage(doc: Any) -> tuple[Usage, int] | None:
    """A Responses API ``usage`` object as :class:`Usage` and the reasoning tokens; None if it is not one."""
    if not isinstance(doc, Mapping):
        return None

    def count(value: Any) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    details = doc.get("input_tokens_details")
    out_details = doc.get("output_tokens_details")
    prompt = count(doc.get("input_tokens"))
    cached = min(count(details.get("cached_tokens")) if isinstance(details, Mapping) else 0, prompt)
    reasoning = count(out_details.get("reasoning_tokens")) if isinstance(out_details, Mapping) else 0
    return Usage(input_tokens=prompt - cached, output_tokens=count(doc.get("output_tokens")),
                 cache_read_input_tokens=cached), reasoning


def from_responses_body(body: bytes) -> tuple[Usage | None, str | None]:
    """Usage and model of a whole (non-streamed) Responses API answer."""
    try:
        doc = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None, None
    if not isinstance(doc, dict):
        return None, None
    got = responses_usage(doc.get("usage"))
    model = doc.get("model")
    return (got[0] if got else None), model if isinstance(model, str) else None


def from_body(body: bytes) -> tuple[Usage | None, str | None]:
    """Usage and model of a whole (non-streamed) JSON answer; ``(None, None)`` if it reports none."""
    try:
        doc = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None, None
    if not isinstance(doc, dict) or not isinstance(doc.get("usage"), dict):
        return None, None
    model = doc.get("model")
    return Usage().merged(doc["usage"]), model if isinstance(model, str) else None


TOKEN_FIELDS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def entry(usage: Usage, *, model: str | None, cost_usd: float | None, ttfb_ms: float, duration_ms: float,
          profile: Mapping[str, Any] | None, why: str | None = None, sent_effort: str | None = None,
          rewrite_price: float | None = None) -> dict[str, Any]:
    """One response as the gateway records it on its turn (numbers only: no text of the request).

    ``sent_effort`` is the top-level effort the request went out with (the session's cache
    key) and ``rewrite_price`` the dollars a token of cache rewrite costs on its model
    (write minus read price), for the switch rule and the report."""
    return {**usage.to_json(), "model": model, "cost_usd": cost_usd, "ttfb_ms": round(ttfb_ms, 3),
            "duration_ms": round(duration_ms, 3), "cached_tokens": usage.cached,
            "profile": dict(profile) if profile else None, "why": why, "sent_effort": sent_effort,
            "rewrite_price": rewrite_price}


def accumulate(total: Any, item: Mapping[str, Any]) -> dict[str, Any]:
    """A turn's usage after one more response ``item`` (see :func:`entry`).

    Tokens and cost add up; ``ttfb_ms`` is the turn's first response's; ``duration_ms``
    sums the responses; ``unpriced`` counts responses whose model had no price (their
    tokens count, their cost does not).

    >>> t = accumulate(None, {"input_tokens": 10, "output_tokens": 5, "model": "m", "cost_usd": 0.5,
    ...                       "ttfb_ms": 3.0, "duration_ms": 9.0, "profile": {"effort": "low", "model": None}})
    >>> t = accumulate(t, {"input_tokens": 1, "output_tokens": 1, "model": "n", "cost_usd": None,
    ...                    "ttfb_ms": 7.0, "duration_ms": 2.0})
    >>> t["requests"], t["input_tokens"], t["cost_usd"], t["unpriced"], t["ttfb_ms"], t["models"]
    (2, 11, 0.5, 1, 3.0, ['m', 'n'])
    """
    out: dict[str, Any] = dict(total) if isinstance(total, Mapping) else empty()
    out["requests"] = _int(out.get("requests")) + 1
    for key in TOKEN_FIELDS:
        out[key] = _int(out.get(key)) + _int(item.get(key))
    if item.get("rewrite_tokens"):
        out["rewrite_tokens"] = _int(out.get("rewrite_tokens")) + _int(item.get("rewrite_tokens"))
        extra = item.get("rewrite_cost_usd")
        if isinstance(extra, (int, float)):
            out["rewrite_cost_usd"] = round(_num(out.get("rewrite_cost_usd")) + float(extra), 9)
    if item.get("reasoning_tokens"):  # OpenAI's: the part of output_tokens spent reasoning
        out["reasoning_tokens"] = _int(out.get("reasoning_tokens")) + _int(item.get("reasoning_tokens"))
    cost = item.get("cost_usd")
    if isinstance(cost, (int, float)) and not isinstance(cost, bool):
        out["cost_usd"] = round(_num(out.get("cost_usd")) + float(cost), 9)
    else:
        out["unpriced"] = _int(out.get("unpriced")) + 1
    if out.get("ttfb_ms") is None:
        out["ttfb_ms"] = item.get("ttfb_ms")
    out["duration_ms"] = round(_num(out.get("duration_ms")) + _num(item.get("duration_ms")), 3)
    models = list(out.get("models") or [])
    model = item.get("model")
    if isinstance(model, str) and model not in models and len(models) < 8:
        models.append(model)
    out["models"] = models
    if item.get("cut"):  # a stream that ended before message_stop: its tokens until then
        out["cut"] = int(out.get("cut") or 0) + 1
    if out.get("profile") is None and item.get("profile"):
        out["profile"] = item["profile"]
    if out.get("why") is None and isinstance(item.get("why"), str):
        out["why"] = item["why"]
    return out


def empty() -> dict[str, Any]:
    """A turn's usage before its first response."""
    return {"requests": 0, **{k: 0 for k in TOKEN_FIELDS}, "cost_usd": 0.0, "unpriced": 0, "ttfb_ms": None,
            "duration_ms": 0.0, "models": [], "profile": None}


def _int(value: Any) -> int:
    """A count read back from a spool: absent is 0; anything but a count is an error (the caller
    then records nothing rather than guess over what another version wrote)."""
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"a count of the wrong shape ({type(value).__name__})")


def _num(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise ValueError(f"a number of the wrong shape ({type(value).__name__})")
