"""The lazy command table agrees with the commands the modules define, and the start-up
path of ``--help`` and TAB completion imports no command module, numpy or aiohttp."""

from __future__ import annotations

import os
import subprocess
import sys

import typer

from artibot.cli.lazy import COMMANDS, LazyGroup


def test_the_table_lists_every_command_with_its_own_help() -> None:
    from importlib import import_module

    for module in sorted({m for m, _ in COMMANDS.values()}):
        sub = typer.Typer()
        import_module(f"artibot.cli.{module}").register(sub)
        group = typer.main.get_group(sub)
        for name, command in group.commands.items():
            assert name in COMMANDS, f"{module} defines `{name}`, missing from artibot.cli.lazy.COMMANDS"
            assert COMMANDS[name][0] == module
            real = " ".join((command.help or "").split("\n\n")[0].split())
            assert real.startswith(COMMANDS[name][1].rstrip(".")), (name, real, COMMANDS[name][1])
    assert LazyGroup.__name__ == "LazyGroup"


def _modules_after(argv: list[str], env: dict[str, str]) -> set[str]:
    code = ("import sys, runpy\nsys.argv = ['artibot', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('artibot', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('\\n'.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code, *argv], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=60)
    return set(done.stderr.split("\n"))


def test_help_and_completion_load_no_command_module() -> None:
    for argv, env in ((["--help"], {}),
                      ([], {"_ARTIBOT_COMPLETE": "complete_bash", "COMP_WORDS": "artibot st", "COMP_CWORD": "1"})):
        loaded = _modules_after(argv, env)
        heavy = {m for m in loaded if m.startswith(("artibot.cli.cmd_", "numpy", "aiohttp", "artibot.cycle"))}
        assert not heavy, (argv, sorted(heavy))
