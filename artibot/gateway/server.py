"""The gateway's HTTP edge (aiohttp): a loopback server that forwards to the upstream API.

For each ``POST /v1/messages`` that belongs to a routed turn (:mod:`.profiles`), the
turn's profile is applied to the body before it is forwarded; every other request goes
through unchanged. Responses are streamed back chunk by chunk as they arrive, bytes
untouched (compressed ones stay compressed); while they pass, :mod:`.usage` reads their
token counts, and the turn's cost is stored on its spool *before* the response's last
chunk is forwarded, so the client's ``Stop`` hook, which fires after it, finds it.

What is never kept: headers and bodies. Nothing of a request or a response is logged or
written; the spool gets numbers (tokens, dollars, milliseconds, model and profile).

Security: the server binds to 127.0.0.1 only; a request whose ``Host`` is not a loopback
name is refused (DNS rebinding); TLS to the upstream is verified (the platform's
default context); bodies above ``max_body`` are refused with 413; a body the gateway
cannot parse is forwarded unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import orjson
from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector, web

from artibot.gateway import cachesafe as cs
from artibot.gateway import profiles as prof
from artibot.gateway import usage as use
from artibot.gateway.pricing import PriceTable
from artibot.store import gateway_state

log = logging.getLogger("artibot.gateway")

HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
                        "trailer", "trailers", "transfer-encoding", "upgrade", "host", "content-length"})
"""Headers that describe one connection, not the message: never forwarded as they are."""

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
MESSAGES = "/v1/messages"
MAX_BODY = 64 * 1024 * 1024
"""The API takes requests up to 32 MB; images in base64 and long conversations come close."""


@dataclass(frozen=True)
class GatewayConfig:
    root: str
    """The data home (where the session spools are)."""
    upstream: str = "https://api.anthropic.com"
    port: int = 41470
    host: str = "127.0.0.1"
    profiles: prof.Profiles = field(default_factory=prof.Profiles)
    prices: PriceTable = field(default_factory=PriceTable.shipped)
    max_body: int = MAX_BODY
    connect_timeout_s: float = 30.0
    read_timeout_s: float = 600.0
    """An answer may think for minutes between two chunks; past this the stream is cut."""


@dataclass
class Counters:
    """What the gateway did (numbers only), for its log line at exit."""

    requests: int = 0
    routed: int = 0
    rewritten: int = 0
    unattributed: int = 0
    refused: int = 0
    upstream_errors: int = 0


@dataclass
class _Route:
    session_id: str
    turn_id: str
    profile: dict[str, Any]
    kind: str = "turn"
    """``turn`` (the main conversation), ``agent`` (a sub-agent's) or ``housekeeping`` (compaction)."""
    why: str | None = None
    sent_effort: str | None = None


AGENT_HEADER = "x-claude-code-agent-id"
"""Claude Code sends it with every request of a sub-agent (seen in 2.1.331), never on the main loop's."""


class Gateway:
    def __init__(self, config: GatewayConfig):
        self.config = config
        self.counters = Counters()
        self._session: ClientSession | None = None
        self._proxy: str | None = None

    # ------------------------------------------------------------------ lifecycle
    async def start_client(self, _app: web.Application | None = None) -> None:
        connector = TCPConnector(ssl=ssl.create_default_context(), limit=0)
        self._session = ClientSession(
            connector=connector, auto_decompress=False,
            skip_auto_headers=("User-Agent", "Accept-Encoding", "Content-Type"),
            timeout=ClientTimeout(total=None, connect=self.config.connect_timeout_s,
                                  sock_read=self.config.read_timeout_s))

        self._proxy = proxy_for(self.config.upstream)

    async def close_client(self, _app: web.Application | None = None) -> None:
        if self._session is not None:
            await self._session.close()

    def app(self) -> web.Application:
        app = web.Application(client_max_size=self.config.max_body)
        app.router.add_route("*", "/{tail:.*}", self.handle)
        app.on_startup.append(self.start_client)
        app.on_cleanup.append(self.close_client)
        return app

    # ------------------------------------------------------------------ routing
    def _turn(self, body: dict[str, Any], session_id: str, agent_id: str | None) -> dict[str, Any] | None:
        """The turn the request belongs to, its profile fixed (at the turn's first request)."""
        root = self.config.root
        turn = gateway_state.read_turn(root, session_id, agent_id)
        if turn is not None:
            return turn
        profiles, prices = self.config.profiles, self.config.prices
        requested = body.get("model") if isinstance(body.get("model"), str) else None
        requested_effort = cs.client_effort(body)

        def choose(state: dict[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
            decision = turn.get("decision")
            system = decision.get("system") if isinstance(decision, Mapping) else None
            wanted = profiles.for_route(system) or prof.Profile()
            markers = cs.supports_markers(wanted.model or requested)
            profile, why = prof.choose_profile(
                wanted, system, requested_model=requested, requested_effort=requested_effort, markers=markers,
                state=prof.SessionState.from_json(state), prices=prices, limit=profiles.switch_max_cached_tokens)
            gateway_state.count_turn(state, system)
            return {"route": system, "profile": profile.to_json(), "why": why,
                    "effort": "markers" if markers else "top-level"}

        return gateway_state.fix_turn(root, session_id, choose, agent_id)

    def _route(self, body: dict[str, Any], headers: Mapping[str, str]) -> tuple[dict[str, Any], _Route | None, bool]:
        """The body to send, the turn it belongs to, and whether it now carries effort markers."""
        session_id = prof.session_of(body)
        if session_id is None or not prof.is_turn_request(body):
            return body, None, False
        agent_id = headers.get(AGENT_HEADER) or None
        messages = body.get("messages")
        compaction = agent_id is None and isinstance(messages, list) and cs.is_compaction(messages)
        turn = self._turn(body, session_id, agent_id)
        if turn is None:
            return body, None, False
        fixed = turn["gateway"]
        profile = prof.Profile.from_json(fixed.get("profile"))
        out: dict[str, Any] = dict(body)
        changed = False
        if compaction:
            kind = "housekeeping"  # the client's own profile: only the earlier turns' markers are kept
        else:
            kind = "agent" if agent_id is not None else "turn"
            out = prof.apply_top(out, prof.Profile(None, profile.model))
            if not cs.supports_markers(out.get("model")):  # effort can only be the top-level value
                out = prof.apply_top(out, prof.Profile(profile.effort, None))
        if cs.supports_markers(out.get("model")):
            agent_effort = (profile.effort or cs.client_effort(body)) if kind == "agent" else None
            out, changed = cs.rewrite(out, self.config.profiles.efforts(), agent_effort=agent_effort)
        top = out.get("output_config")
        route = _Route(session_id, turn["id"], dict(fixed.get("profile") or {}), kind,
                       fixed.get("why") if isinstance(fixed.get("why"), str) else None,
                       top.get("effort") if isinstance(top, Mapping) else None)
        return out, route, changed

    def _prepare(self, raw: bytes, headers: Mapping[str, str]) -> tuple[bytes, _Route | None, bool]:
        """The bytes to forward, the routed turn they belong to (if any), and whether the
        request now needs the per-message effort beta."""
        if b"session_id" not in raw or b'"tools"' not in raw:
            return raw, None, False  # no session or no tools: never routed, so never parsed
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return raw, None, False
        if not isinstance(body, dict):
            return raw, None, False
        try:
            new, route, beta = self._route(body, headers)
        except OSError as exc:  # the data home unreadable: the request still goes through
            log.warning("routing skipped: %s", exc.strerror or type(exc).__name__)
            return raw, None, False
        if route is None:
            return raw, None, False
        self.counters.routed += 1
        if new == body:
            return raw, route, False
        try:
            out = orjson.dumps(new)
        except TypeError:  # e.g. an integer beyond 64 bits: forward what the client sent
            return raw, route, False
        self.counters.rewritten += 1
        return out, route, beta

    def _record(self, route: _Route, reader_usage: use.Usage, model: str | None, ttfb: float,
                duration: float) -> None:
        prices = self.config.prices
        row = prices.row(model)
        item = use.entry(reader_usage, model=model, cost_usd=prices.cost(model, reader_usage),
                         ttfb_ms=ttfb * 1000, duration_ms=duration * 1000, profile=route.profile, why=route.why,
                         sent_effort=route.sent_effort,
                         rewrite_price=(row["cacheWrite"] - row["cacheRead"]) / 1e6 if row else None)
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
        self.counters.requests += 1
        host = (request.host or "").rsplit(":", 1)[0] if not (request.host or "").startswith("[") else \
            (request.host or "").split("]")[0] + "]"
        if host.lower() not in LOOPBACK_NAMES:
            self.counters.refused += 1
            return _error(403, "permission_error", "artibot gateway: only loopback host names are served")
        raw = await request.read()
        route, beta = None, False
        if request.method == "POST" and request.path == MESSAGES:
            # On the loop, not in a thread: parsing and a spool read take a fraction of a
            # millisecond, less than a hop to the thread pool and back (bench_gateway.py).
            raw, route, beta = self._prepare(raw, request.headers)
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP]
        if beta:
            sent = [v for k, v in headers if k.lower() == "anthropic-beta"]
            headers = [(k, v) for k, v in headers if k.lower() != "anthropic-beta"]
            headers.append(("anthropic-beta", cs.merge_beta(sent)))
        url = self.config.upstream.rstrip("/") + request.path_qs
        assert self._session is not None
        started = time.perf_counter()
        try:
            upstream = await self._session.request(request.method, url, headers=headers, data=raw or None,
                                                   allow_redirects=False, proxy=self._proxy)
        except (ClientError, asyncio.TimeoutError, OSError) as exc:
            self.counters.upstream_errors += 1
            return _error(502, "api_error", f"artibot gateway: the upstream API did not answer ({type(exc).__name__})")
        async with upstream:
            return await self._relay(request, upstream, route, started)

    async def _relay(self, request: web.Request, upstream: Any, route: _Route | None,
                     started: float) -> web.StreamResponse:
        response = web.StreamResponse(status=upstream.status, reason=upstream.reason)
        for key, value in upstream.headers.items():
            if key.lower() not in HOP_BY_HOP:
                response.headers.add(key, value)
        if upstream.headers.get("Content-Length") is not None:
            response.content_length = int(upstream.headers["Content-Length"])
        await response.prepare(request)
        ctype = upstream.headers.get("Content-Type", "")
        encoded = upstream.headers.get("Content-Encoding", "identity").lower() not in ("", "identity")
        measure = route is not None and upstream.status == 200 and not encoded
        streaming = measure and ctype.startswith("text/event-stream")
        reader = use.StreamReader() if streaming else None
        whole = bytearray() if measure and not streaming else None
        ttfb: float | None = None
        try:
            async for chunk in upstream.content.iter_any():
                if ttfb is None:
                    ttfb = time.perf_counter() - started
                if reader is not None:
                    if reader.feed(chunk) and route is not None and reader.seen:
                        await self._record_async(route, reader.usage, reader.model, ttfb, started)
                        route = None  # recorded once, before the chunk that ends the answer
                    await response.write(chunk)
                elif whole is not None:
                    if len(whole) <= MAX_BODY:
                        whole += chunk
                    await response.write(chunk)
                else:
                    await response.write(chunk)
        except (ClientError, asyncio.TimeoutError) as exc:
            # The upstream dropped mid-answer: the client sees the same cut connection.
            self.counters.upstream_errors += 1
            log.warning("upstream stream ended early (%s)", type(exc).__name__)
            if request.transport is not None:
                request.transport.close()
            return response
        if reader is not None and route is not None and reader.seen:
            await self._record_async(route, reader.usage, reader.model, ttfb or 0.0, started)
        await response.write_eof()
        if whole is not None and route is not None:
            # A whole answer is recorded after it went out: its turn stays in the spool
            # (open, stopped, or queued) long after the client's Stop, and add_usage finds it there.
            got, model = use.from_body(bytes(whole))
            if got is not None:
                await self._record_async(route, got, model, ttfb or 0.0, started)
        return response

    async def _record_async(self, route: _Route, got: use.Usage, model: str | None, ttfb: float,
                            started: float) -> None:
        duration = time.perf_counter() - started
        await asyncio.get_running_loop().run_in_executor(None, self._record, route, got, model, ttfb, duration)


def proxy_for(upstream: str) -> str | None:
    """The proxy the environment names for ``upstream`` (``HTTPS_PROXY``/``HTTP_PROXY``, minus
    ``NO_PROXY``), as Claude Code would use it: read once at start, not per request (aiohttp's
    ``trust_env`` looks it up, and ``~/.netrc``, for every request)."""
    import urllib.request
    from urllib.parse import urlsplit

    parts = urlsplit(upstream)
    proxies = urllib.request.getproxies_environment()
    bypass = getattr(urllib.request, "proxy_bypass_environment")  # public, but not in typeshed
    if not parts.hostname or bypass(parts.hostname, proxies):
        return None
    return proxies.get(parts.scheme) or None


def _error(status: int, kind: str, message: str) -> web.Response:
    """An error in the Messages API's shape, so the client reports it as it would the API's."""
    return web.Response(status=status, content_type="application/json",
                        body=orjson.dumps({"type": "error", "error": {"type": kind, "message": message}}))


async def serve(config: GatewayConfig, *, ready: Any = None, stop: asyncio.Event | None = None) -> Counters:
    """Serve until ``stop`` is set (or the task is cancelled); ``ready(port)`` once listening."""
    gateway = Gateway(config)
    runner = web.AppRunner(gateway.app(), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port, reuse_address=True)
    try:
        await site.start()
        port = runner.addresses[0][1] if runner.addresses else config.port
        if ready is not None:
            ready(port)
        await (stop or asyncio.Event()).wait()
    finally:
        await runner.cleanup()
    return gateway.counters
