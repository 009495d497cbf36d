"""A scripted stand-in for the Anthropic Messages API, on 127.0.0.1, for the real-client test.

Claude Code is pointed at it with ``ANTHROPIC_BASE_URL`` (and the proxy variables, so
a request for any other host lands here too and is refused). Each prompt a test types
carries a marker ``#sc:NAME``; the server finds the latest user text with a marker in
the conversation it is sent and answers with step *k* of scenario NAME, *k* being the
number of assistant messages after that user text. A step is a list of content blocks
(``text`` or ``tool_use``), or a function of the request that returns one (to answer
what the client sent); past the last step the answer is plain text. Requests
without a marker (side requests such as titles) get a short text answer.

Every answer is streamed as server-sent events when the request asks for a stream,
the way the real API does: ``message_start``, per block ``content_block_start`` /
``content_block_delta`` / ``content_block_stop``, then ``message_delta`` and
``message_stop``.

Given a :class:`~experiments.cache_model.PromptCache`, it answers as the real API does
about the prompt cache: usage from the cache model (per model and top-level effort, the
documented prefix rules, a 5-minute lifetime), a 400 for per-message effort without its
beta or on a model without it, and output tokens that shrink with the effort the
answer runs at; ``answered`` keeps each answer's effort and usage.

Run standalone for a manual session: ``python tests/e2e/fake_api.py PORT LOGFILE``.
"""

from __future__ import annotations

import http.server
import itertools
import json
import re
import threading
from typing import Any, Callable

from experiments import cache_model
from experiments.cache_model import PromptCache

MARKER = re.compile(r"#sc:([\w-]+)")

Block = dict[str, Any]
Step = Any  # a list of blocks, or a function of the request returning one
_ids = itertools.count(1)


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def tool(name: str, **tool_input: Any) -> Block:
    return {"type": "tool_use", "id": f"toolu_{next(_ids):06d}", "name": name, "input": tool_input}


def _user_text(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(b.get("text", "") for b in content
                     if isinstance(b, dict) and b.get("type") == "text")


def pick(request: dict, scenarios: dict[str, list[Step]]) -> tuple[str | None, Step]:
    """The scenario name and the step to answer ``request`` with."""
    messages = request.get("messages") or []
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") != "user":
            continue
        found = MARKER.findall(_user_text(message))
        if not found:
            continue
        name = found[-1]
        step = sum(1 for m in messages[index + 1:] if m.get("role") == "assistant")
        script = scenarios.get(name, [])
        if step < len(script):
            answer = script[step]
            return name, answer(request) if callable(answer) else answer
        return name, [text(f"done with {name}")]
    return None, [text("ok")]


NOTIFICATION = ("<task-notification>", "[SYSTEM NOTIFICATION - NOT USER INPUT]")
"""How a background sub-agent's report opens in the conversation (2.1.331 sends the second, in a
``<system-reminder>``, followed by an effort-only system message at its own effort)."""

FLAT_USAGE = {"input_tokens": 10, "output_tokens": 5}
"""What the fake reports for every answer when it models no cache."""


def sse(request: dict, blocks: Step, usage: dict[str, int] = FLAT_USAGE) -> bytes:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    start = {k: v for k, v in usage.items() if k != "output_tokens"} | {"output_tokens": 1}
    events: list[tuple[str, dict]] = [("message_start", {"type": "message_start", "message": {
        "id": f"msg_{next(_ids):06d}", "type": "message", "role": "assistant",
        "model": request.get("model", "claude"), "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": start}})]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                   "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": usage["output_tokens"]}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()


def whole(request: dict, blocks: Step, usage: dict[str, int] = FLAT_USAGE) -> bytes:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return json.dumps({"id": f"msg_{next(_ids):06d}", "type": "message", "role": "assistant",
                       "model": request.get("model", "claude"), "content": blocks, "stop_reason": stop,
                       "stop_sequence": None, "usage": usage}).encode()


class FakeAPI:
    """The server, in a thread. ``requests`` keeps (path, scenario, request) for assertions."""

    def __init__(self, scenarios: dict[str, list[Step]] | Callable[[], dict[str, list[Step]]],
                 log: Callable[[str], None] | None = None, cache: PromptCache | None = None):
        self.scenarios = scenarios
        self.cache = cache
        self.answered: list[dict[str, Any]] = []
        """With a ``cache``: per answer, its scenario, the effort it ran at, the usage reported."""
        self.requests: list[tuple[str, str | None, dict]] = []
        self.headers: list[dict[str, str]] = []
        self.refused: list[str] = []
        self._log = log
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: bytes, ctype: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("content-type", ctype)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_CONNECT(self) -> None:  # a proxied HTTPS request for some other host: refused
                api.refused.append(f"CONNECT {self.path}")
                self._send(403, b"")

            def do_GET(self) -> None:
                if not self.path.startswith("/v1/") and "127.0.0.1" not in self.headers.get("host", ""):
                    api.refused.append(f"GET {self.path}")
                self._send(404, b'{"type":"error","error":{"type":"not_found_error","message":"fake API"}}')

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {}
                if "/v1/messages/count_tokens" in self.path:
                    self._send(200, b'{"input_tokens": 10}')
                    return
                if "/v1/messages" not in self.path:
                    api.refused.append(f"POST {self.path}")
                    self._send(404, b'{"type":"error","error":{"type":"not_found_error","message":"fake API"}}')
                    return
                scenarios = api.scenarios() if callable(api.scenarios) else api.scenarios
                name, blocks = pick(request, scenarios)
                api.requests.append((self.path, name, request))
                api.headers.append({k.lower(): v for k, v in self.headers.items()})
                if api._log is not None:
                    api._log(json.dumps({"scenario": name, "answer": blocks}))
                usage = FLAT_USAGE
                if api.cache is not None and not (isinstance(blocks, dict) and "http_error" in blocks):
                    refused = cache_model.refusal(request, self.headers.get("anthropic-beta", ""))
                    if refused is not None:
                        blocks = {"http_error": 400, "message": refused}
                    else:
                        effort = cache_model.effort_of(request)
                        at_high = cache_model.THINKING + sum(cache_model.tokens_of(b) for b in blocks)
                        usage = {**api.cache.usage(request), "output_tokens": cache_model.output_tokens(at_high, effort)}
                        last = next((m for m in reversed(request.get("messages") or [])
                                     if isinstance(m, dict) and m.get("role") == "user"), {})
                        api.answered.append({"scenario": name, "effort": effort, "usage": usage,
                                             "model": request.get("model"),
                                             "agent": self.headers.get("x-claude-code-agent-id"),
                                             "compaction": "detailed summary of the conversation" in _user_text(last),
                                             "notification": any(sign in _user_text(last) for sign in NOTIFICATION)})
                if isinstance(blocks, dict) and "http_error" in blocks:  # a step that is an API error
                    self._send(int(blocks["http_error"]), json.dumps({"type": "error", "error": {
                        "type": blocks.get("type", "invalid_request_error"),
                        "message": blocks.get("message", "fake API error")}}).encode())
                elif request.get("stream"):
                    self._send(200, sse(request, blocks, usage), "text/event-stream")
                else:
                    self._send(200, whole(request, blocks, usage))

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeAPI":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
