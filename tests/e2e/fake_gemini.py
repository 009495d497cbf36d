"""A scripted stand-in for the Gemini API (``generateContent``, ``streamGenerateContent``), on 127.0.0.1.

Gemini CLI is pointed at it with ``GOOGLE_GEMINI_BASE_URL`` (and the proxy variables,
so that a request for any other host lands here and is refused). As in
:mod:`.fake_api`, a prompt carries ``#sc:NAME``: the answer is step *k* of scenario
NAME, *k* being the number of ``model`` contents after the latest user text with a
marker. A step is a list of parts (``text`` / ``functionCall``), or a function of the request that returns one. A request that asks
for JSON (Gemini CLI's side questions: which model, who speaks next) gets a JSON
answer that says "the user speaks next" and "use the flash model". Streams are
server-sent events, one ``GenerateContentResponse`` per ``data:`` line.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
from typing import Any

MARKER = re.compile(r"#sc:([\w-]+)")
Part = dict[str, Any]


def text(value: str) -> Part:
    return {"text": value}


def call(name: str, **args: Any) -> Part:
    return {"functionCall": {"name": name, "args": args}}


def _texts(content: dict) -> str:
    return "\n".join(p.get("text", "") for p in content.get("parts") or [] if isinstance(p, dict))


def pick(request: dict, scenarios: dict[str, list[list[Part]]]) -> tuple[str | None, list[Part]]:
    contents = request.get("contents") or []
    for index in range(len(contents) - 1, -1, -1):
        content = contents[index]
        if content.get("role") != "user":
            continue
        found = MARKER.findall(_texts(content))
        if not found:
            continue
        name = found[-1]
        step = sum(1 for c in contents[index + 1:] if c.get("role") == "model")
        script = scenarios.get(name, [])
        found_step = script[step] if step < len(script) else [text(f"done with {name}")]
        return name, found_step(request) if callable(found_step) else found_step
    return None, [text("ok")]


def _wants_json(request: dict) -> bool:
    config = request.get("generationConfig") or {}
    return config.get("responseMimeType") == "application/json" or "responseJsonSchema" in config


def response(model: str, parts: list[Part]) -> dict:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": model}


SIDE_ANSWER = {"reasoning": "scripted", "next_speaker": "user", "model_choice": "flash", "complexity_score": 10}


class FakeGemini:
    """The server in a thread; ``requests`` keeps (model, scenario, request) of every model call."""

    def __init__(self, scenarios: dict[str, list[list[Part]]]):
        self.scenarios = scenarios
        self.requests: list[tuple[str, str | None, dict]] = []
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
                api.refused.append(f"GET {self.path}")
                self._send(404, b'{"error": {"code": 404, "message": "fake Gemini API"}}')

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {}
                path = self.path.split("?", 1)[0]
                match = re.search(r"/models/([^/:]+):(\w+)$", path)
                if not match:
                    api.refused.append(f"POST {self.path}")
                    self._send(404, b'{"error": {"code": 404, "message": "fake Gemini API"}}')
                    return
                model, method = match.groups()
                if method == "countTokens":
                    self._send(200, b'{"totalTokens": 10}')
                    return
                if _wants_json(request):
                    name, parts = None, [text(json.dumps(SIDE_ANSWER))]
                else:
                    name, parts = pick(request, api.scenarios)
                api.requests.append((model, name, request))
                body = response(model, parts)
                if method == "streamGenerateContent":
                    self._send(200, f"data: {json.dumps(body)}\r\n\r\n".encode(), "text/event-stream")
                else:
                    self._send(200, json.dumps(body).encode())

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def main_requests(self) -> list[tuple[str, str | None, dict]]:
        return [r for r in self.requests if r[1] is not None]

    def __enter__(self) -> "FakeGemini":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()



