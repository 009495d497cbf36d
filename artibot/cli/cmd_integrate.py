"""``artibot install|uninstall claude-code``, ``schedule``, ``hook``, ``demo``, ``drift``."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from artibot.store.home import Home
from artibot.config import claude_project_dir, claude_user_dir, load_settings
from artibot.errors import IntegrationError, InvalidInput
from artibot.messages import Message
from artibot.cli import completion
from artibot.cli.install_view import artibot_command, learn_command, print_data_home, saved_home, show_plan
from artibot.cli.quick import said
from artibot.cli.render import Hanging, console, emit_json, fmt, table, working
from artibot.cli.words import session_lang, w
from artibot.hookpath.clients import CLIENTS

if TYPE_CHECKING:
    from types import ModuleType

    from artibot.integrations.install_files import InstallPlan


def _plan(scope: str, install: bool, gateway_port: int | None = None) -> tuple[ModuleType, InstallPlan]:
    from artibot.integrations.claude_code import installer

    from artibot.integrations.claude_code.templates import hook_prefix

    kwargs: dict[str, Any] = {"user_dir": claude_user_dir(), "project_dir": claude_project_dir() or Path.cwd(),
              "command": learn_command(), "hook_prefix": hook_prefix(sys.executable, guard=True, home=saved_home())}
    if install:
        return installer, installer.plan_install(scope, gateway_port=gateway_port, **kwargs)
    return installer, installer.plan_uninstall(scope, **kwargs)


def _run_plan(target: str, scope: str, dry_run: bool, install: bool, gateway_port: int | None = None,
              models: list[str] | None = None) -> None:
    if target in CLIENTS and target != "claude-code":  # Claude Code's installer is its own: the gateway, the plugin
        from artibot.cli.cmd_agents import run_agent_plan

        if gateway_port == KEEP_PORT and target == "codex-cli":  # as for Claude Code below: the installed port stays
            from artibot.config import agent_user_dir
            from artibot.integrations.codex_cli.provider import installed_port

            gateway_port = (installed_port(agent_user_dir(target) / "config.toml")
                            or load_settings(None).gateway_server.port)
        return run_agent_plan(target, scope, dry_run, install=install, gateway_port=gateway_port, models=models)
    if models:
        raise InvalidInput(Message("args.model_claude", clients=_model_clients(), key="gateway.profiles"))
    if target not in CLIENTS:
        from difflib import get_close_matches

        guess = get_close_matches(target.lower(), list(CLIENTS), n=1, cutoff=0.6)
        raise InvalidInput(Message("args.unknown_target_guess", target=repr(target), clients=_known(),
                                   guess=repr(guess[0])) if guess else
                           Message("args.unknown_target", target=repr(target), clients=_known()))
    installed = _installed_port(scope)
    if gateway_port == KEEP_PORT:
        # --gateway without --port: the port already installed stays (moving it would leave
        # the old gateway serving nobody); the configured one is for a first install
        gateway_port = installed or load_settings(None).gateway_server.port
    installer, plan = _plan(scope, install, gateway_port)
    if not show_plan(plan, dry_run=dry_run, install=install, note=print_data_home if install else None):
        return
    installer.apply(plan)
    if install:
        print_data_home()
    lang = session_lang()
    print(w(lang, "in_done") + (w(lang, "in_restart", hint=w(lang, "in_claude_restart")) if install else ""))
    from artibot.gateway.launcher import stop_all, stop_port

    root = str(Home.of(None).root)
    stopped: list[int] = []
    if any(c.says("install.claude_gateway_off") for c in plan.changes):
        stopped = stop_all(root)
    elif installed is not None and gateway_port and gateway_port != installed:
        stopped = stop_port(root, installed)  # nothing sends to the old port any more
    if stopped:
        print(w(lang, "in_stopped", pids=", ".join(map(str, stopped))))


KEEP_PORT = -1
"""``--gateway`` without ``--port``: the installed port, else the configured one."""


def _installed_port(scope: str) -> int | None:
    from artibot.integrations.claude_code.installer import installed_gateway_port

    return installed_gateway_port(scope, user_dir=claude_user_dir(),
                                  project_dir=claude_project_dir() or Path.cwd())


def _known() -> Message:
    names = list(CLIENTS)
    return Message("args.clients_or", some=", ".join(names[:-1]), last=names[-1])


def _model_clients() -> str:
    return ", ".join(name for name, client in CLIENTS.items() if client.route_models)


def register(app: typer.Typer) -> None:
    @app.command("install")
    def install_cmd(
        target: str = typer.Argument(..., help=str(_known()),
                                     autocompletion=completion.agents),
        scope: str = typer.Option("user", "--scope", help="user, project or local."),
        dry_run: bool = typer.Option(False, "--dry-run", help="Show the changes; write nothing."),
        gateway: Optional[bool] = typer.Option(
            None, "--gateway/--no-gateway",
            help="Send Claude Code's (or Codex CLI's) requests through the local gateway, so that a route "
                 "changes the turn's effort (and model); --no-gateway stops it. Default: leave as it is."),
        port: Optional[int] = typer.Option(None, "--port", min=1, max=65535,
                                           help="The gateway's port (default: gateway.server.port)."),
        models: Optional[List[str]] = typer.Option(
            None, "--model", help="gemini-cli: ROUTE=MODEL (system1 or system2), the model a route's requests use."),
    ) -> None:
        """Register artibot's hooks and the /learn command."""
        gateway_port = None
        if gateway is True:
            gateway_port = port or KEEP_PORT
        elif gateway is False:
            gateway_port = 0
        _run_plan(target, scope, dry_run, install=True, gateway_port=gateway_port, models=models)

    @app.command("uninstall")
    def uninstall_cmd(
        target: str = typer.Argument(..., help=str(_known()),
                                     autocompletion=completion.agents),
        scope: str = typer.Option("user", "--scope", help="user, project or local."),
        dry_run: bool = typer.Option(False, "--dry-run"),
    ) -> None:
        """Remove exactly what `artibot install` added."""
        _run_plan(target, scope, dry_run, install=False)

    @app.command("schedule")
    def schedule_cmd(
        action: str = typer.Argument("show", help="show, install or remove."),
        dry_run: bool = typer.Option(False, "--dry-run"),
    ) -> None:
        """Manage the user crontab lines for the nightly learner and the weekly drift check."""
        from artibot.integrations import schedule

        if action not in ("show", "install", "remove"):
            raise InvalidInput(Message("args.takes", command="schedule", some="show, install", last="remove",
                                           value=repr(action)))
        home = Home.of(None)
        settings = load_settings(home.root)
        crontab = schedule.SystemCrontab()
        config = settings.source if settings.source and settings.source.parent != home.root else None
        wanted = schedule.schedule_lines(settings.schedule, artibot_command(), home.root, config=config)
        lang = session_lang()
        try:
            current: Optional[str] = crontab.read()
        except IntegrationError as exc:
            if action == "show" or dry_run:
                # showing what would be written needs no crontab; say why nothing is read
                print(w(lang, "sc_note", note=said(exc)))
                current = None
            else:
                raise
        if action == "show":
            # plain print: crontab lines must not be wrapped
            print(w(lang, "sc_now") if current is not None else w(lang, "sc_now_unknown"))
            for line in schedule.show(current or "") or [w(lang, "sc_none")]:
                print(line if line.startswith("  ") else f"  {line}")
            print(w(lang, "sc_would") if settings.schedule.enabled else w(lang, "sc_would_disabled"))
            for line in wanted:
                print(f"  {line}")
            return
        lines = []
        if action == "install":
            if not settings.schedule.enabled and not dry_run:
                raise InvalidInput(Message("args.schedule_disabled"))
            lines = wanted
        after = schedule.plan_schedule(current or "", lines)
        if dry_run:
            print(after if after else w(lang, "sc_empty"))
            print(w(lang, "sc_dry") + ("" if settings.schedule.enabled or action != "install" else
                                       w(lang, "sc_dry_disabled")))
            return
        if after == current:
            console.print(w(lang, "sc_unchanged"))
            return
        schedule.update(crontab, lines)
        console.print(w(lang, "sc_updated") + (":\n" + "\n".join(lines) if lines else w(lang, "sc_removed")))

    @app.command("hook", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def hook_cmd(event: str = typer.Argument(..., help="session-start, user-prompt-submit, post-tool-use, …"),
                 ) -> None:
        """Claude Code hook entry point (payload on stdin). Always exits 0."""
        from artibot.hookpath.turns.call import main as hook_main

        raise typer.Exit(hook_main([event]))

    @app.command("demo")
    def demo_cmd(
        rounds: int = typer.Option(8, "--rounds", min=1, max=100),
        seed: int = typer.Option(7, "--seed"),
        keep: Optional[Path] = typer.Option(None, "--keep", help="Run in this folder and keep it (by default the temporary homes are removed)."),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """A self-contained run on generated data in a temporary home."""
        from artibot.cli.interrupt import load_learning

        load_learning()
        from artibot.demo import remove_demo_home, run_demo

        with working(w(session_lang(), "demo_working", rounds=rounds)):
            result = run_demo(rounds=rounds, seed=seed, home=keep)
        try:
            _show_demo(result, as_json, kept=keep is not None)
        finally:
            if keep is None:
                remove_demo_home(result["home"])

    def _pct(x: float) -> str:
        return f"{x:.1%}"

    def _show_demo(result: dict[str, Any], as_json: bool, kept: bool) -> None:
        if as_json:
            emit_json(result)
            return
        from artibot.cli.words import price_said
        from artibot.round.checkpoint_evidence import reason_said

        lang = session_lang()
        where = w(lang, "demo_kept", home=result["home"]) if kept else w(lang, "demo_temp")
        console.print(w(lang, "demo_head", where=where))
        seed_rows, ev_rows = result["modes"]["seed"]["rounds"], result["modes"]["evidence"]["rounds"]
        # narrow columns: the table must read at 80 columns (one table per question)
        rows = [(a["round"], _pct(b["success_rate"]), _pct(b["system2_share"]), f"${b['usd_per_100']:.2f}",
                 _pct(a["success_rate"]), _pct(a["system2_share"]), f"${a['usd_per_100']:.2f}")
                for a, b in zip(seed_rows, ev_rows)]
        costs = result["modes"]["evidence"].get("costs_usd") or {}
        console.print(Hanging(w(lang, "demo_days", n=ev_rows[0]["experiences"] if ev_rows else 0)))
        console.print(Hanging(w(lang, "demo_seed_rule")))
        if costs:
            console.print(Hanging(w(lang, "demo_costs", s1=costs["system1"], s2=costs["system2"],
                                    retry=costs["retry"])))
        heads = [w(lang, "day")] + [w(lang, f"demo_{mode}_{col}") for mode in ("defaults", "seed")
                                    for col in ("ok", "s2", "usd")]
        console.print(table(None, heads, rows))
        last = ev_rows[-1]
        learned = [(d, fmt(result["oracle"].get(d), 2) if d in result["oracle"] else "—", fmt(v, 2))
                   for d, v in last["thresholds"].items()]
        price = last.get("price") or {}
        console.print(table(w(lang, "demo_learned"), [w(lang, "domain"), w(lang, "demo_truth"),
                                                      w(lang, "threshold")], learned))
        if price:
            console.print(Hanging(price_said(lang, price["value"], price["source"])))
        console.print(w(lang, "demo_changes"))
        for day in ev_rows:
            for domain, why in day.get("reasons", {}).items():
                numbers = day.get("reason_numbers", {}).get(domain)
                said = (reason_said({**numbers, "reason": why}, lang) if numbers else None) or why
                console.print(Hanging(said, first=w(lang, "demo_day", day=day["round"]), indent="    "))
        late = max(1, len(ev_rows) // 2)

        def mean(rows: list[dict[str, Any]], key: str) -> float:
            total: float = sum(r[key] for r in rows[-late:])
            return total / late

        summary = w(lang, "demo_summary", late=late, ev_ok=mean(ev_rows, "success_rate"),
                    ev_s2=mean(ev_rows, "system2_share"), seed_ok=mean(seed_rows, "success_rate"),
                    seed_s2=mean(seed_rows, "system2_share"), ev_usd=mean(ev_rows, "usd_per_100"),
                    seed_usd=mean(seed_rows, "usd_per_100"))
        # the hint points at a home only when it is still there
        console.print(Hanging(summary + (w(lang, "demo_more_kept", home=shlex.quote(result["home"] + "/evidence"))
                                         if kept else w(lang, "demo_more"))))

    @app.command("drift")
    def drift_cmd(as_json: bool = typer.Option(False, "--json")) -> None:
        """Test each domain's recent outcomes against its history (the weekly drift check)."""
        from artibot.cli.drift_view import run_drift

        run_drift(as_json)
