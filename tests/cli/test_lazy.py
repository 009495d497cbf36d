"""The lazy command table agrees with the commands the modules define, and the start-up
path of ``--help`` and TAB completion imports no command module, numpy or aiohttp."""

from __future__ import annotations

import os
import subprocess
import sys

from typing import Any

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
        heavy = {m for m in loaded if m.startswith(("artibot.cli.cmd_", "numpy", "aiohttp", "artibot.round.cycle"))}
        assert not heavy, (argv, sorted(heavy))


def _run_in(home: str, argv: list[str]) -> tuple[set[str], str]:
    """The modules loaded by ``artibot ARGV`` in a new process on ``home``, and what it printed."""
    code = ("import sys, runpy\nsys.argv = ['artibot', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('artibot', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('\\n@@modules\\n' + '\\n'.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code, *argv], env={**os.environ, "ARTIBOT_HOME": home,
                                                                    "COLUMNS": "120"},
                          capture_output=True, text=True, timeout=120)
    said, _, modules = done.stderr.partition("\n@@modules\n")
    return set(modules.split("\n")), done.stdout + said


def test_learn_review_and_drift_with_nothing_to_do_load_no_numpy_or_scipy(tmp_path) -> None:
    """numpy and scipy's distributions cost those commands most of their start-up: they load
    where a round or a test is computed, not to say that there is nothing to compute; and the
    plain forms are answered before the CLI framework loads, as ``status`` is."""
    import random

    from artibot import learn
    from artibot.collector import collect_many

    home = str(tmp_path / "home")
    rng = random.Random(3)
    records = [{"input": f"request {i}", "domain": rng.choice(["backend", "docs"]),
                "complexity": round(rng.random(), 3), "routed_to": rng.choice(["system1", "system2"]),
                "outcome": rng.choice(["success", "success", "failed"]), "latency_ms": 10.0, "confidence": 0.8}
               for i in range(120)]
    collect_many(records, home=home)
    assert learn(home=home, answers="defaults").processed == 100  # a round applied, 20 left: fewer than a batch
    heavy = ("numpy", "scipy", "typer", "click")
    for argv, said in ((["learn"], "20 unprocessed experience(s), fewer than a batch of 50"),
                       (["review"], "nothing is waiting for review"),
                       (["drift"], "nothing to test"),
                       (["status"], "")):
        loaded, out = _run_in(home, argv)
        assert said in out, (argv, out)
        assert not {m for m in loaded if m.split(".")[0] in heavy}, argv
    # and the check sees them where a round is computed
    loaded, out = _run_in(home, ["learn", "--flush", "--yes"])
    assert "applied: 20 experiences" in out, out
    assert {"numpy", "scipy"} <= loaded


def test_the_catalogue_s_english_help_is_the_commands_own() -> None:
    """``help.PATH.PARAM`` in English is the help the command defines (what ``--help`` shows in
    English), so the catalogue's other languages translate the text a reader of the code sees."""
    from artibot.cli.app import app
    from artibot.messages import catalogue

    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="artibot")
    own: dict[str, str | None] = {}

    def walk(command: Any, path: str) -> None:
        own[path] = command.help
        for p in command.params:
            own[f"{path}.{p.opts[0] if p.param_type_name == 'option' else p.name}"] = getattr(p, "help", None)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path}.{name}")

    walk(root, "help")
    for name in COMMANDS:
        command = root.get_command(ctx, name)
        assert command is not None
        walk(command, f"help.{name}")
    english = {k: v for k, v in catalogue("en").items() if k == "help" or k.startswith("help.")}
    assert len(english) > 100 and {k: (v, own.get(k)) for k, v in english.items() if own.get(k) != v} == {}
