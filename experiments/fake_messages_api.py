"""A fake Messages API over aiohttp that caches as the real one does (:mod:`experiments.cache_model`), one
cache per client ("arm", the ``x-sim-arm`` header) on a simulated clock, for the experiments.

Each answer is streamed as the API streams it (``message_start`` with the input and cache
figures, ``message_delta`` with the output tokens, ``message_stop``); per-message effort
without its beta, or on a model without it, is a 400. The output tokens are the request's
``x-sim-out`` (what the answer would take at ``high``) scaled by the effort the request's
markers give the answer (:attr:`Upstream.output_share`). Every answer's model, usage, effort
and kind (``x-sim-kind``) is kept in :attr:`Upstream.bills`; :meth:`Upstream.answer` gives the
same answer in process (the calibration's arms, which need no gateway).
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, Callable, Mapping

from experiments import cache_model

class Threaded:
    """``start(stop, ready)`` on a private event loop in a thread, until :meth:`close`."""

    def __init__(self, start: Callable[[asyncio.Event, Callable[[int], None]], Any]):
        self.port = 0
        self._start = start
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(15):
            raise RuntimeError("a simulated server did not start")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def main() -> None:
            self._stop = asyncio.Event()

            def ready(port: int) -> None:
                self.port = port
                self._ready.set()

            await self._start(self._stop, ready)

        self._loop.run_until_complete(main())

    def close(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)


class Upstream:
    """An aiohttp fake Messages API with one prompt cache per arm, on a simulated clock."""

    def __init__(self, output_share: Mapping[str, float] | None = None) -> None:
        self.output_share: Mapping[str, float] = output_share or cache_model.OUTPUT_SHARE
        """each effort's output tokens as a share of ``high``'s"""
        self.caches: dict[str, cache_model.PromptCache] = {}
        self.clock: dict[str, float] = {}
        self.bills: dict[str, list[dict[str, Any]]] = {}
        self.server = Threaded(self._start)

    def reset(self) -> None:
        self.caches.clear()
        self.clock.clear()
        self.bills.clear()

    def answer(self, arm: str, body: Mapping[str, Any], beta: str, at_high: int, kind: str = "turn"
               ) -> dict[str, int] | str:
        """The usage of ``body``'s answer for ``arm`` (billed), or why the API refuses it."""
        refused = cache_model.refusal(body, beta)
        if refused is not None:
            return refused
        cache = self.caches.setdefault(arm, cache_model.PromptCache(clock=lambda: self.clock.get(arm, 0.0)))
        effort = cache_model.effort_of(body)
        usage = {**cache.usage(body), "output_tokens": max(1, round(at_high * self.output_share.get(effort, 1.0)))}
        self.bills.setdefault(arm, []).append({"model": body["model"], "usage": usage, "effort": effort,
                                               "kind": kind})
        return usage

    async def _handle(self, request: Any) -> Any:
        from aiohttp import web

        body = json.loads(await request.read())
        usage = self.answer(request.headers["x-sim-arm"], body, request.headers.get("anthropic-beta", ""),
                            int(request.headers["x-sim-out"]), request.headers.get("x-sim-kind", "turn"))
        if isinstance(usage, str):
            return web.json_response({"type": "error", "error": {"type": "invalid_request_error",
                                                                 "message": usage}}, status=400)
        start = {k: v for k, v in usage.items() if k != "output_tokens"} | {"output_tokens": 1}
        events = [("message_start", {"type": "message_start", "message": {
            "id": "msg_sim", "type": "message", "role": "assistant", "model": body["model"], "content": [],
            "usage": start}}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                               "usage": {"output_tokens": usage["output_tokens"]}}),
            ("message_stop", {"type": "message_stop"})]
        response = web.StreamResponse(status=200, headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write("".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode())
        await response.write_eof()
        return response

    async def _start(self, stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        from aiohttp import web

        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("POST", "/v1/messages", self._handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        ready(runner.addresses[0][1])
        await stop.wait()
        await runner.cleanup()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def close(self) -> None:
        self.server.close()


