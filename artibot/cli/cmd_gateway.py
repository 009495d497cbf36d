"""``artibot gateway``: the local API gateway, in the foreground until SIGINT/SIGTERM."""

from __future__ import annotations

import os
import sys
from typing import Optional

import typer

from artibot.cli import gateway_main


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
        gateway_main.config_from(port, upstream)  # a bad option or config stops here, with its sentence
        args = [sys.executable, "-m", "artibot.cli.gateway_main"]
        args += ["--port", str(port)] if port else []
        args += ["--upstream", upstream] if upstream else []
        args += ["--quiet"] if quiet else []
        sys.stdout.flush()
        os.execv(sys.executable, args)  # a process without the learner's numpy and scipy
