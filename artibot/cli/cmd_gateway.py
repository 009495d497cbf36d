"""``artibot gateway``: the local API gateway, in the foreground until SIGINT/SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Optional

import typer

from artibot.cli.render import console
from artibot.config import gateway_upstream_env, load_settings
from artibot.errors import GatewayError
from artibot.store.home import Home


def register(app: typer.Typer) -> None:
    @app.command("gateway")
    def gateway_cmd(
        port: Optional[int] = typer.Option(None, "--port", min=1, max=65535,
                                           help="Port on 127.0.0.1 (default: gateway.server.port, 41470)."),
        upstream: Optional[str] = typer.Option(None, "--upstream",
                                               help="The API to forward to (default: gateway.server.upstream)."),
        quiet: bool = typer.Option(False, "--quiet", help="Print nothing (as the hooks start it)."),
    ) -> None:
        """Serve the local API gateway: each routed turn's requests get its route's profile.

        Point Claude Code at it with ANTHROPIC_BASE_URL=http://127.0.0.1:PORT (or
        `artibot install claude-code --gateway`). Nothing of a header or a body is logged
        or stored; a turn's tokens, cost and timing go on its experience record.
        """
        from artibot.config_checks import upstream_url
        from artibot.gateway.server import GatewayConfig, serve
        from artibot.store import gateway_state

        home = Home.of(None)
        settings = load_settings(home.root)
        upstream = upstream or gateway_upstream_env()
        if upstream is not None:
            upstream, problem = upstream_url("--upstream", upstream)
            if problem:
                raise typer.BadParameter(problem)
        config = GatewayConfig(
            root=str(home.root), upstream=upstream or settings.gateway_server.upstream,
            port=port or settings.gateway_server.port, profiles=settings.gateway_profiles.profiles(),
            prices=settings.gateway_pricing.table())
        home.ensure()
        logging.getLogger("artibot.gateway").setLevel(logging.WARNING)
        pid = os.getpid()

        async def main() -> object:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)

            def ready(bound: int) -> None:
                gateway_state.write_pid(config.root, bound, pid)
                if not quiet:
                    console.print(f"artibot gateway on http://127.0.0.1:{bound} -> {config.upstream} "
                                  f"(System 1: {_describe(config.profiles.system1)}; "
                                  f"System 2: {_describe(config.profiles.system2)}); Ctrl-C stops it")

            try:
                return await serve(config, ready=ready, stop=stop)
            finally:
                gateway_state.remove_pid(config.root, config.port, pid)

        try:
            counters = asyncio.run(main())
        except OSError as exc:
            raise GatewayError(f"the gateway cannot listen on 127.0.0.1:{config.port}: "
                               f"{exc.strerror or exc} (another program uses the port? try --port)") from None
        if not quiet:
            console.print(f"stopped: {counters.requests} request(s), {counters.routed} of routed turns, "
                          f"{counters.rewritten} rewritten, {counters.upstream_errors} upstream error(s)")


def _describe(profile: object) -> str:
    effort = getattr(profile, "effort", None)
    model = getattr(profile, "model", None)
    parts = [f"effort {effort}" if effort else "client's effort", model or "client's model"]
    return ", ".join(parts)
