"""A scripted stand-in for the OpenAI Responses API (``POST /v1/responses``, streamed), on 127.0.0.1.

Codex CLI is pointed at it by a model provider in ``config.toml``. As in
:mod:`.fake_api`, a prompt carries ``#sc:NAME``; the answer is step *k* of scenario
NAME, *k* being the number of tool outputs after the latest user message with a
marker. A step is a list of items: :func:`text` (an assistant message) or
:func:`shell` (a command for whichever shell tool the request offers), or a function of
the request that returns one. Requests
without a marker (titles, summaries) get a short text.

With a ``cache`` (:class:`experiments.responses_cache.PromptCache`) the usage each answer
reports is the documented cache's, and its output grows with the effort the request is
answered at (the last ``configuration_update`` item, else ``reasoning.effort``): 900
reasoning tokens at ``high``, scaled as :data:`SHARE`. Every answer is kept in ``answered``
(model, effort, usage). A ``configuration_update`` item sent to a model that does not take
it is refused with the API's 400, as GPT-5.6 does.
"""

from __future__ import annotations

import http.server
import itertools
import json
import re
import threading
from typing import Any

MARKER = re.compile(r"#sc:([\w-]+)")
SHARE = {"none": 0.0, "minimal": 0.1, "low": 0.3, "medium": 0.6, "high": 1.0, "xhigh": 1.3, "max": 1.6}
REASONING_AT_HIGH = 900
_ids = itertools.count(1)


def text(value: str) -> dict:
    return {"kind": "text", "text": value}


def shell(command: str) -> dict:
    return {"kind": "shell", "command": command}


def _message_text(item: dict) -> str:
    content = item.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(c.get("text", "") for c in content or [] if isinstance(c, dict))


def pick(request: dict, scenarios: dict[str, list[list[dict]]]) -> tuple[str | None, list[dict]]:
    items = request.get("input") or []
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if item.get("type", "message") != "message" or item.get("role") != "user":
            continue
        found = MARKER.findall(_message_text(item))
        if not found:
            continue
        name = found[-1]
        step = sum(1 for i in items[index + 1:] if str(i.get("type", "")).endswith("call_output"))
        script = scenarios.get(name, [])
        found_step = script[step] if step < len(script) else [text(f"done with {name}")]
        return name, found_step(request) if callable(found_step) else found_step
    return None, [text("ok")]


def thread_source(request: dict) -> str | None:
    """Which of Codex CLI's threads sent the request: ``user`` (the session), ``thread_title``
    (the title of a new session, a thread of its own), from ``client_metadata``."""
    meta = request.get("client_metadata")
    try:
        turn = json.loads(meta.get("x-codex-turn-metadata") or "{}") if isinstance(meta, dict) else {}
    except ValueError:
        return None
    return turn.get("thread_source") if isinstance(turn, dict) else None


def _tool_names(request: dict) -> set[str]:
    return {t.get("name") for t in request.get("tools") or [] if isinstance(t, dict)}


def _output_item(request: dict, step: dict) -> dict:
    if step["kind"] == "text":
        return {"type": "message", "role": "assistant", "id": f"msg_{next(_ids)}", "status": "completed",
                "content": [{"type": "output_text", "text": step["text"], "annotations": []}]}
    tools = _tool_names(request)
    if "exec_command" in tools:
        name, args = "exec_command", {"cmd": step["command"]}
    elif "shell_command" in tools:
        name, args = "shell_command", {"command": step["command"]}
    else:
        name, args = "shell", {"command": ["bash", "-lc", step["command"]]}
    return {"type": "function_call", "id": f"fc_{next(_ids)}", "call_id": f"call_{next(_ids)}", "name": name,
            "arguments": json.dumps(args), "status": "completed"}


def stream(request: dict, steps: list[dict], usage: dict | None = None) -> bytes:
    rid = f"resp_{next(_ids)}"
    events = [("response.created", {"type": "response.created", "response": {"id": rid}})]
    for index, step in enumerate(steps):
        events.append(("response.output_item.done", {"type": "response.output_item.done", "output_index": index,
                                                     "item": _output_item(request, step)}))
    events.append(("response.completed", {"type": "response.completed", "response": {
        "id": rid, "model": request.get("model"),
        "usage": usage or {"input_tokens": 10, "input_tokens_details": None, "output_tokens": 5,
                           "output_tokens_details": None, "total_tokens": 15}}}))
    return "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()


class FakeOpenAI:
    """The server in a thread; ``requests`` keeps (scenario, request) of every model call."""

    def __init__(self, scenarios: dict[str, list[list[dict]]], cache: Any = None):
        self.scenarios = scenarios
        self.cache = cache
        self.answered: list[dict] = []
        self.requests: list[tuple[str | None, dict]] = []
        self.refused: list[str] = []
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

            def do_CONNECT(self) -> None:
                api.refused.append(f"CONNECT {self.path}")
                self._send(403, b"")

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, b'{"object": "list", "data": [], "models": []}')
                    return
                api.refused.append(f"GET {self.path}")
                self._send(404, b'{"error": {"message": "fake OpenAI API"}}')

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {}
                if not self.path.split("?", 1)[0].endswith("/responses"):
                    api.refused.append(f"POST {self.path}")
                    self._send(404, b'{"error": {"message": "fake OpenAI API"}}')
                    return
                from experiments.responses_cache import UPDATE, effort_of, takes_updates

                items = request.get("input") if isinstance(request.get("input"), list) else []
                if any(isinstance(i, dict) and i.get("type") == UPDATE for i in items) and not takes_updates(
                        request.get("model")):
                    api.refused.append(f"configuration_update on {request.get('model')}")
                    self._send(400, json.dumps({"error": {
                        "type": "invalid_request_error", "code": "unsupported_value", "param": "input",
                        "message": "The 'configuration_update' item type is not supported with this model."}}).encode())
                    return
                source = thread_source(request)
                name, steps = (None, [text("Task title")]) if source == "thread_title" else pick(request, api.scenarios)
                api.requests.append((name, request))
                usage = None
                if api.cache is not None:
                    effort = effort_of(request)
                    reasoning = int(REASONING_AT_HIGH * SHARE.get(effort, 1.0))
                    usage = api.cache.usage(request, reasoning + 60, reasoning)
                    api.answered.append({"model": request.get("model"), "effort": effort, "usage": usage,
                                         "scenario": name, "source": source})
                self._send(200, stream(request, steps, usage), "text/event-stream")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
