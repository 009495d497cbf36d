"""The gateway's HTTP edge (aiohttp): a loopback server that forwards to the upstream API.

For each ``POST /v1/messages`` that belongs to a routed turn (:mod:`.profiles`), the
turn's profile is applied to the body before it is forwarded, and so for each ``POST
/openai/responses`` (Codex CLI's provider: the rest of an ``/openai`` path goes to the
OpenAI upstream; :mod:`.responses`); every other request goes through unchanged. Responses are streamed back chunk by chunk as they arrive, bytes
untouched (compressed ones stay compressed); while they pass, :mod:`.usage` reads their
token counts, and the turn's cost is stored on its spool *before* the response's last
chunk is forwarded, so the client's ``Stop`` hook, which fires after it, finds it.

What is never kept: headers and bodies. Nothing of a request or a response is logged or
written; the spool gets numbers (tokens, dollars, milliseconds, model and profile).

Security: the server binds to 127.0.0.1 only; a request whose ``Host`` is not a loopback
name is refused (DNS rebinding), and so is any request a browser makes (:mod:`.edge`);
bodies are limited per path before they are read, forwarded byte for byte (compressed
ones too), and paths confined to the upstream's; TLS to the upstream is verified (the
platform's default context); a body the gateway cannot parse, or a session spool of a
shape it does not expect, means the request is forwarded unchanged. When the client
leaves, in any phase, the upstream request is closed at once (handler cancellation).
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import orjson
from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector, web
from yarl import URL

from artibot import __version__
from artibot.gateway import cachesafe as cs
from artibot.gateway import edge, health
from artibot.gateway import profiles as prof
from artibot.gateway import usage as use
from artibot.gateway.price_table import PriceTable
from artibot.gateway.routing import ResponsesRouter, Route, TurnRouter
from artibot.hookpath.store import gateway_state

log = logging.getLogger("artibot.gateway")

HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
                        "trailer", "trailers", "transfer-encoding", "upgrade", "host", "content-length"})
"""Headers that describe one connection, not the message: never forwarded as they are."""

MESSAGES = "/v1/messages"
MAX_BODY = 64 * 1024 * 1024
"""The API takes requests up to 32 MB; images in base64 and long conversations come close."""


@dataclass(frozen=True)
class GatewayConfig:
    root: str
    """The data home (where the session spools are)."""
    upstream: str = "https://api.anthropic.com"
    openai_upstream: str = "https://api.openai.com/v1"
    """Where ``/openai/...`` goes (Codex CLI's provider) unless the data home keeps the user's own
    provider ``base_url`` (:func:`artibot.hookpath.store.gateway_state.read_openai_upstream`)."""
    port: int = 41470
    host: str = "127.0.0.1"
    profiles: prof.Profiles = field(default_factory=prof.Profiles)
    prices: PriceTable = field(default_factory=PriceTable.shipped)
    max_body: int = MAX_BODY
    connect_timeout_s: float = 30.0
    read_timeout_s: float = 600.0
    """An answer may think for minutes between two chunks; past this the stream is cut."""
    observe: Callable[[Seen], None] | None = None
    """Called once per request as it ends (the foreground gateway prints a line of it)."""


@dataclass
class Seen:
    """One request as the foreground gateway shows it: names and numbers only, never a
    header, a query string or a body."""

    method: str
    path: str
    status: int = 0
    """The status sent to the client; 0 when the client left before it had one."""
    ms: float = 0.0
    route: str | None = None
    kind: str | None = None
    effort: str | None = None
    model: str | None = None
    usage: use.Usage | None = None
    cost_usd: float | None = None


@dataclass
class Counters:
    """What the gateway did (numbers only), for its log line at exit and its health answer."""

    requests: int = 0
    routed: int = 0
    rewritten: int = 0
    unattributed: int = 0
    refused: int = 0
    """Answered by the gateway itself: a foreign Host, a browser, a path or a body out of bounds."""
    upstream_errors: int = 0
    client_gone: int = 0
    """Clients that left before their answer ended (the upstream request was closed)."""
    cut: int = 0
    """Streams that ended before ``message_stop``, recorded with the usage seen so far."""
    spool_errors: int = 0
    """Requests forwarded unchanged because their session spool had a shape the gateway does not know."""


class Gateway:
    def __init__(self, config: GatewayConfig):
        self.config = config
        self.counters = Counters()
        self._session: ClientSession | None = None
        self._proxy: str | None = None
        self.port = config.port
        self._started = time.monotonic()
        self.router = TurnRouter(config.root, config.profiles, config.prices, self.counters)
        self.responses = ResponsesRouter(self.router)
        self._openai: tuple[object, str, str | None] = (None, config.openai_upstream, None)
        """(the kept upstream file's stamp, the OpenAI upstream, its proxy)."""

    # ------------------------------------------------------------------ lifecycle
    async def start_client(self, _app: web.Application | None = None) -> None:
        self.router.loop_thread = threading.get_ident()
        connector = TCPConnector(ssl=ssl.create_default_context(), limit=0)
        self._session = ClientSession(
            connector=connector, auto_decompress=False,
            skip_auto_headers=("User-Agent", "Accept-Encoding", "Content-Type"),
            timeout=ClientTimeout(total=None, connect=self.config.connect_timeout_s,
                                  sock_read=self.config.read_timeout_s))

        self._proxy = edge.proxy_for(self.config.upstream)
        self._openai = (None, self.config.openai_upstream, edge.proxy_for(self.config.openai_upstream))

    def openai_upstream(self) -> tuple[str, str | None]:
        """The OpenAI upstream and its proxy: the one ``install codex-cli --gateway`` kept in the
        data home (read again when that file changes: a stat per request), else the configured one."""
        stamp = gateway_state.openai_upstream_stamp(self.config.root)
        if stamp != self._openai[0]:
            url = (gateway_state.read_openai_upstream(self.config.root) if stamp is not None else None) \
                or self.config.openai_upstream
            self._openai = (stamp, url, edge.proxy_for(url))
        return self._openai[1], self._openai[2]

    async def close_client(self, _app: web.Application | None = None) -> None:
        if self._session is not None:
            await self._session.close()

    def app(self) -> web.Application:
        app = web.Application(client_max_size=self.config.max_body)
        app.router.add_route("*", "/{tail:.*}", self.handle)
        app.on_startup.append(self.start_client)
        app.on_cleanup.append(self.close_client)
        return app

    def _record(self, route: Route, reader_usage: use.Usage, model: str | None, ttfb: float,
                duration: float, *, cut: bool = False, reasoning_tokens: int = 0) -> None:
        prices = self.config.prices
        row = prices.row(model)
        item = use.entry(reader_usage, model=model, cost_usd=prices.cost(model, reader_usage),
                         ttfb_ms=ttfb * 1000, duration_ms=duration * 1000, profile=route.profile, why=route.why,
                         sent_effort=route.sent_effort,
                         rewrite_price=(row["cacheWrite"] - row["cacheRead"]) / 1e6 if row else None)
        if reasoning_tokens:
            item["reasoning_tokens"] = reasoning_tokens
        if cut:
            item["cut"] = True  # ended before message_stop: the tokens seen until then
        try:
            found = gateway_state.add_usage(self.config.root, route.session_id, route.turn_id, item, use.accumulate,
                                            kind=route.kind, empty=use.empty)
        except OSError as exc:
            log.warning("usage not recorded: %s", exc.strerror or type(exc).__name__)
            found = False
        if not found:
            self.counters.unattributed += 1

    # ------------------------------------------------------------------ the handler
    async def handle(self, request: web.Request) -> web.StreamResponse:
        observe = self.config.observe
        if observe is None or request.path == health.HEALTH_PATH:
            return await self._handle(request, None)
        seen = Seen(request.method, request.path)
        started = time.perf_counter()
        try:
            response = await self._handle(request, seen)
            seen.status = response.status
            return response
        finally:
            seen.ms = (time.perf_counter() - started) * 1000
            if seen.usage is not None:
                seen.cost_usd = self.config.prices.cost(seen.model, seen.usage)
            try:
                observe(seen)
            except Exception as exc:  # noqa: BLE001 - a broken terminal must not cost the client its answer
                log.warning("request line not shown (%s)", type(exc).__name__)

    async def _handle(self, request: web.Request, seen: Seen | None) -> web.StreamResponse:
        probe = request.path == health.HEALTH_PATH
        self.counters.requests += not probe  # the hooks' probes are not requests
        try:
            edge.check_origin(request.host, request.headers)
            if probe:
                return self._health(request)
            if request.method == "OPTIONS":  # a preflight: answered here, with no CORS grant
                return web.Response(status=204, headers={"Allow": "GET, HEAD, POST, OPTIONS"})
            path = edge.confined_path(request.raw_path)
            limit = edge.body_limit(request.method, path.partition("?")[0], self.config.max_body)
            if (request.content_length or 0) > limit:
                raise edge.too_large(limit)  # before a byte of it is read
            raw = await edge.read_bounded(request.content, limit)
            encoding = request.headers.get("Content-Encoding", "").strip().lower()
            plain = edge.inflated(raw, encoding, limit) if encoding not in ("", "identity") else raw
        except edge.Refused as exc:
            self.counters.refused += 1
            response = _error(exc.status, exc.kind, str(exc), openai=_is_openai(request.path))
            response.force_close()  # an unread body must not be taken for the next request
            return response
        route, beta = None, False
        drop = HOP_BY_HOP
        bare = path.partition("?")[0]
        openai = _is_openai(bare)
        upstream_base, proxy = self.config.upstream, self._proxy
        if openai:  # Codex CLI's provider: the rest of the path is the OpenAI upstream's
            (upstream_base, proxy), path = self.openai_upstream(), path[len(edge.OPENAI_PREFIX):]
        if openai and request.method == "POST" and bare == edge.RESPONSES_PATH and plain is not None:
            new, route = await self.responses.inspect(plain, request.headers)
            if seen is not None and route is not None:
                seen.route, seen.kind, seen.effort = route.system, route.kind, route.profile.get("effort")
            if new is not plain:
                raw, drop = new, HOP_BY_HOP | {"content-encoding"}
        elif request.method == "POST" and bare == MESSAGES and plain is not None:
            new, route, beta = await self.router.inspect(plain, request.headers)
            if seen is not None and route is not None:
                seen.route, seen.kind, seen.effort = route.system, route.kind, route.sent_effort
            if new is not plain:  # rewritten: the new JSON goes out as it is, not re-compressed
                raw, drop = new, HOP_BY_HOP | {"content-encoding"}
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in drop]
        if beta:  # per-message effort: the documented beta joins every one the client sent
            sent = [v for k, v in headers if k.lower() == "anthropic-beta"]
            headers = [(k, v) for k, v in headers if k.lower() != "anthropic-beta"]
            headers.append(("anthropic-beta", cs.merge_beta(sent)))
        url = URL(upstream_base.rstrip("/") + path, encoded=True)  # as confined: no second resolution
        assert self._session is not None
        started = time.perf_counter()
        try:
            upstream = await self._session.request(request.method, url, headers=headers, data=raw or None,
                                                   allow_redirects=False, proxy=proxy)
        except (ClientError, asyncio.TimeoutError, OSError) as exc:
            self.counters.upstream_errors += 1
            return _error(502, "api_error", f"artibot gateway: the upstream API did not answer ({type(exc).__name__})",
                          openai=openai)
        except asyncio.CancelledError:
            self.counters.client_gone += 1  # before the headers: the request is closed with the task
            raise
        try:
            relayed = await self._relay(request, upstream, route, started, seen)
        except BaseException:
            upstream.close()  # the client left: the upstream answer stops now, not at its read timeout
            raise
        upstream.release()
        return relayed

    def _health(self, request: web.Request) -> web.Response:
        """This gateway's proof for the caller's nonce (:mod:`.health`), version and counters."""
        nonce = request.query.get("nonce", "")
        headers = {}
        if 0 < len(nonce) <= 64:
            try:
                headers[health.PROOF_HEADER] = health.proof(gateway_state.ensure_token(self.config.root), nonce,
                                                            self.port)
            except OSError as exc:
                log.warning("no health proof: the token is unreadable (%s)", exc.strerror or type(exc).__name__)
        body = {"gateway": "artibot", "version": __version__, "pid": os.getpid(), "port": self.port,
                "uptime_s": round(time.monotonic() - self._started, 1), "counters": asdict(self.counters),
                "unrouted_models": sorted(self.responses.unrouted_models)}
        return web.Response(status=200, content_type="application/json", body=orjson.dumps(body), headers=headers)

    async def _relay(self, request: web.Request, upstream: Any, route: Route | None,
                     started: float, seen: Seen | None = None) -> web.StreamResponse:
        response = web.StreamResponse(status=upstream.status, reason=upstream.reason)
        if seen is not None:
            seen.status = upstream.status
        for key, value in upstream.headers.items():
            if key.lower() not in HOP_BY_HOP:
                response.headers.add(key, value)
        if upstream.headers.get("Content-Length") is not None:
            response.content_length = int(upstream.headers["Content-Length"])
        await edge.to_client(response.prepare(request))
        ctype = upstream.headers.get("Content-Type", "")
        encoded = upstream.headers.get("Content-Encoding", "identity").lower() not in ("", "identity")
        measure = route is not None and upstream.status == 200 and not encoded
        streaming = measure and ctype.startswith("text/event-stream")
        responses = route is not None and route.api == "responses"
        reader: use.StreamReader | None = None
        if streaming:
            reader = use.ResponsesStreamReader() if responses else use.StreamReader()
        whole = bytearray() if measure and not streaming else None
        ttfb: float | None = None
        try:
            async for chunk in upstream.content.iter_any():
                if ttfb is None:
                    ttfb = time.perf_counter() - started
                if reader is not None:
                    if reader.feed(chunk) and route is not None and reader.seen:
                        await self._record_async(route, reader.usage, reader.model, ttfb, started,
                                                 reasoning=getattr(reader, "reasoning_tokens", 0))
                        route = None  # recorded once, before the chunk that ends the answer
                    await edge.to_client(response.write(chunk))
                elif whole is not None:
                    if len(whole) <= MAX_BODY:
                        whole += chunk
                    await edge.to_client(response.write(chunk))
                else:
                    await edge.to_client(response.write(chunk))
        except (edge.ClientGone, asyncio.CancelledError):
            self.counters.client_gone += 1
            self._record_cut(reader, route, ttfb, started)
            if seen is not None:
                seen.status = 0  # the client left before its answer ended
                if reader is not None and reader.seen:
                    seen.usage, seen.model = reader.usage, reader.model
            raise
        except (ClientError, asyncio.TimeoutError) as exc:
            # The upstream dropped mid-answer: the client sees the same cut connection.
            self.counters.upstream_errors += 1
            log.warning("upstream stream ended early (%s)", type(exc).__name__)
            self._record_cut(reader, route, ttfb, started)
            if request.transport is not None:
                request.transport.close()
            return response
        if reader is not None and route is not None and reader.seen:
            await self._record_async(route, reader.usage, reader.model, ttfb or 0.0, started, cut=not reader.done)
        if seen is not None and reader is not None and reader.seen:
            seen.usage, seen.model = reader.usage, reader.model
        await edge.to_client(response.write_eof())
        if whole is not None and route is not None:
            # A whole answer is recorded after it went out: its turn stays in the spool
            # (open, stopped, or queued) long after the client's Stop, and add_usage finds it there.
            got, model = (use.from_responses_body if responses else use.from_body)(bytes(whole))
            if seen is not None and got is not None:
                seen.usage, seen.model = got, model
            if got is not None:
                await self._record_async(route, got, model, ttfb or 0.0, started)
        return response

    def _record_cut(self, reader: use.StreamReader | None, route: Route | None, ttfb: float | None,
                    started: float) -> None:
        """A stream cut before its end: the tokens it reported are billed, so they are recorded,
        marked cut (scheduled, not awaited: the handler may be cancelled)."""
        if reader is None or route is None or not reader.seen or reader.done:
            return  # nothing seen, or recorded already at message_stop
        self.counters.cut += 1
        duration = time.perf_counter() - started
        asyncio.get_running_loop().run_in_executor(None, self._record_safely, route, reader.usage, reader.model,
                                                   ttfb or 0.0, duration, True)

    async def _record_async(self, route: Route, got: use.Usage, model: str | None, ttfb: float,
                            started: float, *, cut: bool = False, reasoning: int = 0) -> None:
        if cut:
            self.counters.cut += 1
        duration = time.perf_counter() - started
        # Shielded: a client that closes its connection once it has the answer cancels the
        # handler (handler cancellation), and the record must still be made.
        await asyncio.shield(asyncio.get_running_loop().run_in_executor(None, self._record_safely, route, got,
                                                                        model, ttfb, duration, cut, reasoning))

    def _record_safely(self, route: Route, got: use.Usage, model: str | None, ttfb: float, duration: float,
                       cut: bool, reasoning: int = 0) -> None:
        try:
            self._record(route, got, model, ttfb, duration, cut=cut, reasoning_tokens=reasoning)
        except Exception as exc:  # noqa: BLE001 - a spool of an unexpected shape: the answer still goes out whole
            self.counters.spool_errors += 1
            log.warning("usage not recorded: a session spool of an unexpected shape (%s)", type(exc).__name__)


def _is_openai(path: str) -> bool:
    return path == edge.OPENAI_PREFIX or path.startswith(edge.OPENAI_PREFIX + "/")


def _error(status: int, kind: str, message: str, *, openai: bool = False) -> web.Response:
    """An error in the API's own shape (the Messages API's, or OpenAI's on ``/openai``), so the
    client reports it as it would the API's."""
    doc: dict[str, Any] = {"error": {"message": message, "type": kind, "code": None}} if openai else {
        "type": "error", "error": {"type": kind, "message": message}}
    return web.Response(status=status, content_type="application/json", body=orjson.dumps(doc))


async def serve(config: GatewayConfig, *, ready: Any = None, stop: asyncio.Event | None = None) -> Counters:
    """Serve until ``stop`` is set (or the task is cancelled); ``ready(port)`` once listening."""
    gateway = Gateway(config)
    gateway_state.ensure_token(config.root)  # before listening: the first health answer needs it
    # handler_cancellation: a client that leaves cancels its handler, which closes the upstream
    # request; auto_decompress off: request bodies are forwarded as they came.
    runner = web.AppRunner(gateway.app(), access_log=None, handle_signals=False, handler_cancellation=True,
                           auto_decompress=False, logger=edge.quiet_aiohttp_logs())
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port, reuse_address=True)
    try:
        await site.start()
        port = runner.addresses[0][1] if runner.addresses else config.port
        gateway.port = port
        if ready is not None:
            ready(port)
        await (stop or asyncio.Event()).wait()
    finally:
        await runner.cleanup()
    return gateway.counters
