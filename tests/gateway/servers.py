"""A fake upstream API and the real gateway, each on its own event loop in a thread."""

from __future__ import annotations

import asyncio
import gzip
import json
import threading
from typing import Any, Callable

from aiohttp import web

from artibot.gateway.server import GatewayConfig, serve


class Threaded:
    """Run ``start(loop, ready)`` on a private event loop until :meth:`stop`."""

    def __init__(self, start: Callable[[asyncio.Event, Callable[[int], None]], Any]):
        self._start = start
        self.port = 0
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self.result: Any = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def main() -> None:
            self._stop = asyncio.Event()

            def ready(port: int) -> None:
                self.port = port
                self._ready.set()

            self.result = await self._start(self._stop, ready)

        self._loop.run_until_complete(main())

    def __enter__(self) -> "Threaded":
        self._thread.start()
        assert self._ready.wait(10), "server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)


def usage_sse(model: str, usage: dict[str, int], text: str = "hello", *, chunks: int = 3) -> list[bytes]:
    """A streamed answer in the API's event order, cut into ``chunks`` pieces at odd places."""
    events = [
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": [],
            "usage": {k: v for k, v in usage.items() if k != "output_tokens"} | {"output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta", "text": text}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                           "usage": {"output_tokens": usage.get("output_tokens", 0)}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    data = "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()
    step = max(1, len(data) // chunks + 7)
    return [data[i:i + step] for i in range(0, len(data), step)]


class FakeUpstream:
    """Records each request (method, path, headers, body) and answers with ``answer(request_json)``."""

    def __init__(self, answer: Callable[[dict], tuple[str, Any]] | None = None, delay: float = 0.0):
        self.seen: list[dict[str, Any]] = []
        self.answer = answer or (lambda body: ("json", {"type": "message", "model": body.get("model"),
                                                        "usage": {"input_tokens": 10, "output_tokens": 5}}))
        self.delay = delay
        self.server = Threaded(self._serve)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        plain = gzip.decompress(raw) if request.headers.get("Content-Encoding") == "gzip" else raw
        try:
            body = json.loads(plain) if plain else {}
        except ValueError:
            body = None
        self.seen.append({"method": request.method, "path": request.path_qs, "headers": dict(request.headers),
                          "raw": raw, "body": body})
        kind, payload = self.answer(body if isinstance(body, dict) else {})
        if kind == "json":
            return web.json_response(payload)
        if kind == "status":
            return web.Response(status=payload[0], body=payload[1], content_type="application/json")
        response = web.StreamResponse(status=200, headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for i, chunk in enumerate(payload):
            if chunk is None:  # drop the connection mid-stream
                request.transport.close()
                return response
            await response.write(chunk)
            if self.delay:
                await asyncio.sleep(self.delay)
        await response.write_eof()
        return response

    async def _serve(self, stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        app = web.Application(client_max_size=128 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        runner = web.AppRunner(app, access_log=None, auto_decompress=False)  # sees the bytes as sent
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        ready(runner.addresses[0][1])
        await stop.wait()
        await runner.cleanup()

    def __enter__(self) -> "FakeUpstream":
        self.server.__enter__()
        self.url = f"http://127.0.0.1:{self.server.port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.__exit__(*exc)


def gateway(config: GatewayConfig) -> Threaded:
    async def start(stop: asyncio.Event, ready: Callable[[int], None]) -> Any:
        return await serve(config, ready=ready, stop=stop)

    return Threaded(start)


class RawUpstream:
    """An upstream on a bare asyncio socket: ``behave(writer)`` answers each request, then the
    time the gateway closed the connection is kept in ``closed`` (the test of "the client left")."""

    def __init__(self, behave: Callable[[asyncio.StreamWriter], Any]):
        self.behave = behave
        self.closed: list[float] = []
        self.requests = 0
        self.server = Threaded(self._serve)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        import time

        head = await reader.readuntil(b"\r\n\r\n")
        length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        await reader.readexactly(length)
        self.requests += 1
        behaviour = asyncio.ensure_future(self.behave(writer))
        eof = asyncio.ensure_future(reader.read())
        await asyncio.wait([behaviour, eof], return_when=asyncio.FIRST_COMPLETED)
        if not eof.done():  # the answer failed to write: the peer is gone
            await asyncio.wait([eof], timeout=5)
        self.closed.append(time.monotonic())
        behaviour.cancel()
        writer.close()

    async def _serve(self, stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        ready(server.sockets[0].getsockname()[1])
        await stop.wait()
        server.close()

    def __enter__(self) -> "RawUpstream":
        self.server.__enter__()
        self.url = f"http://127.0.0.1:{self.server.port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.__exit__(*exc)


def responses_sse(model: str, usage: dict[str, Any], text: str = "hello", *, chunks: int = 3) -> list[bytes]:
    """A streamed Responses API answer (Codex CLI's API) in its event order, cut into ``chunks`` pieces."""
    item = {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}
    events = [
        ("response.created", {"type": "response.created", "response": {"id": "resp_1", "model": model}}),
        ("response.output_text.delta", {"type": "response.output_text.delta", "delta": text}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": {"id": "resp_1", "model": model,
                                                                           "usage": usage}}),
    ]
    data = "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()
    step = max(1, len(data) // chunks + 7)
    return [data[i:i + step] for i in range(0, len(data), step)]
