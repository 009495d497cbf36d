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


def _describe(profile: Profile) -> str:
    return ", ".join([f"effort {profile.effort}" if profile.effort else "client's effort",
                      profile.model or "client's model"])


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


def run(config: GatewayConfig, *, quiet: bool) -> Counters:
    pid = os.getpid()

    async def main() -> Counters:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)

        def ready(bound: int) -> None:
            gateway_state.write_pid(config.root, bound, pid)
            if not quiet:
                print(f"artibot gateway on http://127.0.0.1:{bound} -> {config.upstream} "
                      f"(System 1: {_describe(config.profiles.system1)}; "
                      f"System 2: {_describe(config.profiles.system2)}); Ctrl-C stops it", flush=True)

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
        counters = run(config, quiet=args.quiet)
    except ArtibotError as exc:
        sys.stderr.write(f"artibot: {exc}\n")
        return int(exc.exit_code)
    if not args.quiet:
        print(f"stopped: {counters.requests} request(s), {counters.routed} of routed turns, "
              f"{counters.rewritten} rewritten, {counters.refused} refused, {counters.upstream_errors} upstream "
              f"error(s), {counters.client_gone} client(s) gone, {counters.cut} stream(s) cut")
    return int(ExitCode.OK)


if __name__ == "__main__":
    sys.exit(main())
