"""The gateway's process: ``python -m artibot.cli.gateway_main --port P [--upstream URL] [--quiet]``.

``artibot gateway`` (and a hook that starts one) ends up here, in a process of its own
that imports only the gateway, aiohttp and the config reader. The full command line
loads numpy and scipy for the learner; a server that runs all day should not carry them
(measured: 64 MB idle through the full CLI). Exit codes as the CLI's: 0 after SIGINT or
SIGTERM, 1 when it cannot listen, 2 for a bad option or config.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys

from artibot.config import gateway_upstream_env, load_settings, resolve_home
from artibot.config_validators import upstream_url
from artibot.errors import ArtibotError, ExitCode, GatewayError, InvalidInput
from artibot.gateway.profiles import Profile
from artibot.gateway.server import Counters, GatewayConfig, serve
from artibot.store import gateway_state
from artibot.cli.quick import said
from artibot.cli.words import session_lang, w


def _describe(profile: Profile, lang: str) -> str:
    return ", ".join([w(lang, "gw_effort", effort=profile.effort) if profile.effort else w(lang, "gw_client_effort"),
                      profile.model or w(lang, "gw_client_model")])


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
                         port=port or settings.gateway_server.port, profiles=settings.gateway_profiles.profiles(),
                         prices=settings.gateway_pricing.table())


def run(config: GatewayConfig, *, quiet: bool, lang: str = "en") -> Counters:
    pid = os.getpid()

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
        raise GatewayError(f"the gateway cannot listen on 127.0.0.1:{config.port}: {exc.strerror or exc} "
                           "(another program uses the port? try --port)") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="artibot gateway", description="The artibot API gateway.")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--upstream", default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.port is not None and not 1 <= args.port <= 65535:
            raise InvalidInput(f"--port must be from 1 to 65535, not {args.port}")
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
