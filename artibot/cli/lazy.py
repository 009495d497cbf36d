"""The top-level command group, loading a command's module only when that command runs.

Importing every command module at start-up brings numpy, the learner, the gateway's aiohttp
and rich along with ``--help`` or a TAB of completion (over a second). So the group knows
each command's name, module and one-line help from :data:`COMMANDS`, lists and completes
them from there, and imports a module the first time one of its commands is looked up.
``tests/cli/test_lazy.py`` checks the table against the commands the modules define.
"""

from __future__ import annotations

from difflib import get_close_matches
from importlib import import_module
from typing import Any

import typer
from typer.core import TyperGroup

try:  # typer vendors click since 0.2x
    from typer._click.core import Command, Context
    from typer._click.exceptions import UsageError
    from typer._click.formatting import HelpFormatter
    from typer._click.shell_completion import CompletionItem
except ImportError:  # pragma: no cover - older typer
    from click import Command, Context, HelpFormatter, UsageError  # type: ignore[no-redef,import-not-found,unused-ignore]
    from click.shell_completion import CompletionItem  # type: ignore[no-redef,import-not-found,unused-ignore]

from artibot.cli.command_table import COMMANDS
from artibot.cli.help_lang import LANG_KEY, LocalContext, adopt, columns
from artibot.cli.interrupt import deferred


class LazyGroup(TyperGroup):
    """A :class:`TyperGroup` whose commands come from :data:`COMMANDS` on first use."""

    context_class = LocalContext  # help screens in the configured language

    def list_commands(self, ctx: Context) -> list[str]:
        return list(dict.fromkeys([*COMMANDS, *self.commands]))

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self._load(COMMANDS[cmd_name][0])
        return self.commands.get(cmd_name)

    def _load(self, module_name: str) -> None:
        """Import the module and add every command it registers."""
        sub = typer.Typer(rich_markup_mode=None)
        with deferred():  # a Ctrl-C while the command's modules load: raised once they have
            module = import_module(f"artibot.cli.{module_name}")
        module.register(sub)
        for name, command in typer.main.get_group(sub).commands.items():
            adopt(command)
            self.commands.setdefault(name, command)

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        lang = ctx.meta.get(LANG_KEY, "en")
        if lang != "en":
            from artibot.cli.help_lang import help_text as said

            rows = [(name, _short((said(lang, name) or help_text).split("\n")[0], limit))
                    for name, (_module, help_text) in COMMANDS.items()]
        else:
            rows = [(name, _short(help_text, limit)) for name, (_module, help_text) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def shell_complete(self, ctx: Context, incomplete: str) -> list[CompletionItem]:
        names = [CompletionItem(name, help=help_text) for name, (_m, help_text) in COMMANDS.items()
                 if name.startswith(incomplete)]
        return names + list(Command.shell_complete(self, ctx, incomplete))

    def resolve_command(self, ctx: Context, args: list[str]) -> Any:
        try:
            return self._click_resolve_command(ctx, args)
        except UsageError as e:
            matches = get_close_matches(args[0], list(COMMANDS)) if args else []
            if matches:
                e.message = f"{e.message.rstrip('.')}. Did you mean {', '.join(repr(m) for m in matches)}?"
            raise


def _short(text: str, limit: int) -> str:
    """``text`` cut at a word to ``limit`` columns with ``...``, as click shortens help."""
    if columns(text) <= limit:
        return text
    cut = text
    while columns(cut) > limit - 3:
        cut = cut[: len(cut) - 1]
    return cut.rsplit(" ", 1)[0] + "..."
