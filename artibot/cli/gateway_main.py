"""The gateway's process: ``python -m artibot.cli.gateway_main --port P [--upstream URL] [--quiet]``.

``artibot gateway`` (and a hook that starts one) ends up here, in a process of its own
that imports only the gateway, aiohttp and the config reader. The full command line
loads numpy and scipy for the learner; a server that runs all day should not carry them
(docs/benchmarks.md, "Costs behind the code"). Exit codes as the CLI's: 0 after SIGINT or
SIGTERM, 1 when it cannot listen, 2 for a bad option or config.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace as with_observer
import os
import re
import signal
import sys
import time

from artibot.config import gateway_upstream_env, load_settings, resolve_home
from artibot.config.validators import upstream_url
from artibot.errors import ArtibotError, ExitCode, GatewayError, InvalidInput, os_reason
from artibot.gateway import profiles as gateway_profiles
from artibot.gateway import price_table
from artibot.gateway.profiles import Profile
from artibot.gateway.server import Counters, GatewayConfig, Seen, serve
from artibot.hookpath.store import gateway_state
from artibot.messages import Message
from artibot.cli.quick import said
from artibot.cli.words import session_lang, w


def _describe(profile: Profile, lang: str) -> str:
    return ", ".join([w(lang, "gw_effort", effort=profile.effort) if profile.effort else w(lang, "gw_client_effort"),
                      profile.model or w(lang, "gw_client_model")])


_ROUTES = {"system1": "System 1", "system2": "System 2"}
_API_PATH = re.compile(r"(/v1|/openai)(/[a-z_]{1,40}){0,3}")
"""Paths shown as they are: the Messages API's, and the Responses API's under ``/openai`` (Codex CLI's)."""
"""A path shown as it is: the API's own names only (a path is the client's to choose, and
anything else in one, an id or a pasted key, stays off the screen)."""


def request_line(seen: Seen, lang: str) -> str:
    """One finished request, for the foreground gateway: when, what, the answer's status and
    time, how it was routed and what it cost. Only names and numbers: the gateway never
    shows or keeps a header, a query string or a body.

    >>> from artibot.gateway.usage import Usage
    >>> s = Seen("POST", "/v1/messages", 200, 1843.2, "system1", "turn", "low", "claude-sonnet-4-5",
    ...          Usage(1204, 311, 0, 80112), 0.0312)
    >>> request_line(s, "en")[9:]
    'POST /v1/messages 200 1843 ms · System 1, effort low, claude-sonnet-4-5 · 1,204 in + 80,112 cached, 311 out · $0.0312'
    >>> request_line(Seen("POST", "/openai/responses", 200, 900.0), "en")[9:]
    'POST /openai/responses 200 900 ms · not routed'
    """
    status = str(seen.status) if seen.status else w(lang, "gw_left")
    path = seen.path if _API_PATH.fullmatch(seen.path) else "/…"
    method = seen.method if seen.method.isalpha() and len(seen.method) <= 10 else "?"
    parts = [f"{time.strftime('%H:%M:%S')} {method} {path} {status} {seen.ms:.0f} ms"]
    if seen.route is None and seen.kind is None:
        if seen.path.startswith(("/v1/messages", "/openai/responses")) and seen.method == "POST":
            parts.append(w(lang, "gw_unrouted"))
    else:
        how = [_ROUTES.get(seen.route or "", seen.route or "?")]
        if seen.kind == "agent":
            how.append(w(lang, "gw_agent"))
        elif seen.kind == "housekeeping":
            how.append(w(lang, "gw_compaction"))
        if seen.effort:
            how.append(w(lang, "gw_effort", effort=seen.effort))
        if seen.model:
            how.append(seen.model)
        parts.append(", ".join(how))
    if seen.usage is not None:
        u = seen.usage
        parts.append(w(lang, "gw_tokens", fresh=f"{u.input_tokens + u.cache_creation_input_tokens:,}",
                       cached=f"{u.cache_read_input_tokens:,}", out=f"{u.output_tokens:,}"))
        parts.append(f"${seen.cost_usd:.4f}" if seen.cost_usd is not None else w(lang, "gw_unpriced"))
    return " · ".join(parts)


def config_from(port: int | None, upstream: str | None) -> GatewayConfig:
    """The gateway's configuration: the options, else the kept upstream, else the config file."""
    root = resolve_home(None)
    settings = load_settings(root)
    upstream = upstream or gateway_upstream_env()
    if upstream is not None:
        upstream, problem = upstream_url("--upstream", upstream)
        if problem:
            raise InvalidInput(problem)
    return GatewayConfig(root=str(root), upstream=upstream or settings.gateway_server.upstream,
                         openai_upstream=settings.gateway_server.openai_upstream,
                         port=port or settings.gateway_server.port, profiles=gateway_profiles.configured(settings.gateway_profiles),
                         prices=price_table.configured(settings.gateway_pricing))


def run(config: GatewayConfig, *, quiet: bool, lang: str = "en") -> Counters:
    pid = os.getpid()
    if not quiet:  # a line per request, on this terminal only: nothing of it is written to a file
        config = with_observer(config, observe=lambda seen: print(request_line(seen, lang), flush=True))

    async def main() -> Counters:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)

        def ready(bound: int) -> None:
            gateway_state.write_pid(config.root, bound, pid)
            if not quiet:
                print(w(lang, "gw_start", port=bound, upstream=config.upstream,
                        s1=_describe(config.profiles.system1, lang), s2=_describe(config.profiles.system2, lang)),
                      flush=True)

        try:
            return await serve(config, ready=ready, stop=stop)
        finally:
            gateway_state.remove_pid(config.root, config.port, pid)

    try:
        return asyncio.run(main())
    except OSError as exc:
        raise GatewayError(Message("gateway.cannot_listen", address=f"127.0.0.1:{config.port}",
                                   reason=os_reason(exc))) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="artibot gateway", description="The artibot API gateway.")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--upstream", default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.port is not None and not 1 <= args.port <= 65535:
            raise InvalidInput(Message("gateway.port_range", port=args.port))
        config = config_from(args.port, args.upstream)
        counters = run(config, quiet=args.quiet, lang=session_lang())
    except ArtibotError as exc:
        sys.stderr.write(f"artibot: {said(exc)}\n")
        return int(exc.exit_code)
    if not args.quiet:
        print(w(session_lang(), "gw_stopped", requests=counters.requests, routed=counters.routed,
                rewritten=counters.rewritten, refused=counters.refused, upstream_errors=counters.upstream_errors,
                client_gone=counters.client_gone, cut=counters.cut))
    return int(ExitCode.OK)


if __name__ == "__main__":
    sys.exit(main())
