"""``artibot install|uninstall gemini-cli|codex-cli|cursor`` (called by :mod:`.cmd_integrate`)."""

from __future__ import annotations

import sys
from pathlib import Path

from artibot.config import agent_user_dir, claude_project_dir
from artibot.errors import InvalidInput
from artibot.integrations.adapter import AGENTS


def hook_file(agent: str, project_dir: Path, models: list[str] | None = None):
    """The client's :class:`~artibot.integrations.hook_files.HookFile` (``models``: Gemini CLI's ``--model``)."""
    if agent == "gemini-cli":
        from artibot.integrations.gemini_cli.installer import hook_file as make_gemini, parse_models

        return make_gemini(agent_user_dir(agent), project_dir, parse_models(models))
    if models:
        raise InvalidInput(f"--model is for gemini-cli; in {agent} the route is context only")
    if agent == "codex-cli":
        from artibot.integrations.codex_cli.installer import hook_file as make
    elif agent == "cursor":
        from artibot.integrations.cursor.installer import hook_file as make
    else:
        raise InvalidInput(f"unknown target {agent!r}: artibot installs into claude-code, {', '.join(AGENTS)}")
    return make(agent_user_dir(agent), project_dir)


def run_agent_plan(agent: str, scope: str, dry_run: bool, *, install: bool, gateway_port: int | None,
                   models: list[str] | None = None) -> None:
    from artibot.integrations import hook_files
    from artibot.integrations.claude_code.installer import apply
    from artibot.integrations.claude_code.templates import hook_prefix

    if gateway_port is not None:
        raise InvalidInput(f"--gateway is for claude-code; {agent} takes the route as context only")
    project = claude_project_dir() or Path.cwd()
    spec = hook_file(agent, project, models if install else None)
    from artibot.cli.cmd_integrate import artibot_command, show_plan

    plan = hook_files.plan(spec, scope, hook_prefix(sys.executable), install=install, command=artibot_command(),
                           project_dir=project)

    if not show_plan(plan, dry_run=dry_run, install=install):
        return
    apply(plan)
    print("done" + (f": {spec.restart_hint}" if install and spec.restart_hint else ""))
