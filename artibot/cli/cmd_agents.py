"""``artibot install|uninstall CLIENT`` for the clients whose hooks go through the adapter
(called by :mod:`.cmd_integrate`; which clients those are, and where their parts are, is
:mod:`artibot.hookpath.clients`'s word)."""

from __future__ import annotations

import sys
from pathlib import Path

from artibot.cli.install_view import learn_command, print_data_home, saved_home, show_plan
from artibot.config import agent_user_dir, claude_project_dir
from artibot.errors import InvalidInput
from artibot.hookpath import clients
from artibot.messages import Message

TYPE_CHECKING = False  # typing is not needed at run time
if TYPE_CHECKING:
    from artibot.integrations.json_hooks import HookFile


def hook_file(agent: str, project_dir: Path, models: list[str] | None = None) -> HookFile:
    """The client's :class:`~artibot.integrations.json_hooks.HookFile` (``models``: ``--model``,
    for a client that takes a model per route)."""
    if agent not in clients.adapted():
        raise InvalidInput(Message("args.unknown_target", target=repr(agent),
                                   clients=", ".join(("claude-code", *clients.adapted()))))
    installer = clients.module(agent, "installer")
    spec: HookFile
    if clients.CLIENTS[agent].route_models:
        spec = installer.hook_file(agent_user_dir(agent), project_dir, installer.parse_models(models))
        return spec
    if models:
        raise InvalidInput(Message("args.model_context", agent=agent,
                                   clients=", ".join(n for n, c in clients.CLIENTS.items() if c.route_models)))
    spec = installer.hook_file(agent_user_dir(agent), project_dir)
    return spec


def run_agent_plan(agent: str, scope: str, dry_run: bool, *, install: bool, gateway_port: int | None,
                   models: list[str] | None = None) -> None:
    from artibot.integrations import json_hooks as hook_files
    from artibot.integrations.claude_code.installer import apply
    from artibot.integrations.claude_code.templates import hook_prefix

    provider = kept = None
    prefix = hook_prefix(sys.executable, home=saved_home())
    if agent == "codex-cli" and (scope == "user" or gateway_port):
        from artibot.integrations.codex_cli import provider as codex_provider

        if scope != "user":
            raise InvalidInput(Message("args.gateway_user", file="$CODEX_HOME/config.toml"))
        provider, gw = codex_provider.change(agent_user_dir(agent) / "config.toml", gateway_port, install=install)
        prefix = codex_provider.hook_env(gw) + prefix
        from artibot.store.home import Home

        kept = codex_provider.upstream_change(Home.of(None).root, gw, install=install)
    elif gateway_port is not None:
        raise InvalidInput(Message("args.gateway_clients", agent=agent))
    project = claude_project_dir() or Path.cwd()
    spec = hook_file(agent, project, models if install else None)
    plan = hook_files.plan(spec, scope, prefix, install=install, command=learn_command(), project_dir=project)
    if provider is not None and kept is not None:
        plan = plan.with_changes(provider, kept)

    if not show_plan(plan, dry_run=dry_run, install=install, note=print_data_home if install else None):
        return
    apply(plan)
    if install:
        print_data_home()
    from artibot.cli.words import session_lang, w
    from artibot.cli.words_errors import said_message

    lang = session_lang()
    print(w(lang, "in_done") + (w(lang, "in_restart", hint=said_message(lang, spec.restart_hint))
                                if install and spec.restart_hint is not None else ""))
