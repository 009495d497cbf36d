"""``artibot status`` and bash's TAB completion after a command run before typer is imported:
they load no CLI framework and no numpy, and say exactly what the full CLI says."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from artibot.cli.completion import quick_bash

HEAVY = ("typer", "click", "pydantic", "numpy", "scipy", "aiohttp", "artibot.cli.cmd_", "artibot.cli.app",
         "artibot.round.cycle", "artibot.learning.frame")

LOADED = ("import sys, runpy\nsys.argv = ['artibot', *sys.argv[1:]]\ncode = 0\n"
          "try:\n    runpy.run_module('artibot', run_name='__main__')\nexcept SystemExit as e:\n"
          "    code = e.code\nsys.stderr.write('\\n@@' + '\\n'.join(sorted(sys.modules)))\nsys.exit(code)\n")


def _artibot(argv: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``python -m artibot ARGV`` as a shell runs it, and the modules it had loaded at the end."""
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=120)
    err, _, modules = done.stderr.rpartition("\n@@")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, err), set(modules.split("\n"))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith(HEAVY))


def _tab(line: str, cword: int) -> dict[str, str]:
    return {"_ARTIBOT_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}


def _learned(cli) -> None:
    """A data home with one applied round, a pending decision of each kind and some left over."""
    recs = [{"input": f"request {i}", "domain": ("backend", "docs")[i % 2], "complexity": (i % 10) / 10,
             "routed_to": ("system1", "system2")[i % 3 == 0], "outcome": ("success", "failed")[i % 4 == 0],
             "latency_ms": 100.0, "confidence": 0.8} for i in range(160)]
    import orjson

    assert cli("collect", "--stdin", "--quiet", stdin=orjson.dumps(recs)).code == 0
    assert cli("learn", "--yes").code == 0
    assert cli("collect", "--stdin", "--quiet", stdin=orjson.dumps(recs[:30])).code == 0


@pytest.mark.parametrize("argv", [["status"], ["status", "--json"]])
def test_status_loads_no_framework_and_no_numpy(cli, argv: list[str]) -> None:
    _learned(cli)
    done, modules = _artibot(argv)
    assert done.returncode == 0, done.stderr
    assert _heavy(modules) == []
    assert ("rich" in modules) == (argv == ["status"]), "rich is for a person, not for --json"
    # nor the gateway, the team or the router's scorer: a report needs none of them (start-up time)
    assert not modules & {"artibot.gateway.profiles", "artibot.team.member", "artibot.hookpath.router.complexity"}
    # the same words through the full CLI (`--home` sends them there): the same output
    full = cli("--home", os.environ["ARTIBOT_HOME"], *argv)
    assert (full.code, full.out, full.err) == (0, done.stdout, done.stderr)


def test_status_fails_as_the_full_cli_does(cli, artibot_home: Path) -> None:
    artibot_home.parent.mkdir(parents=True, exist_ok=True)
    artibot_home.write_text("not a folder")
    done, modules = _artibot(["status"])
    full = cli("--home", str(artibot_home), "status")
    assert done.returncode == full.code != 0
    assert done.stderr == full.err and full.err.startswith("artibot: ") and full.err.count("\n") == 1
    assert artibot_home.read_text() == "not a folder"
    assert _heavy(modules) == []


def test_status_with_other_words_goes_through_the_full_cli() -> None:
    done, modules = _artibot(["status", "--jsn"])
    assert done.returncode == 2 and "--jsn" in done.stderr
    assert "typer" in modules


CASES = [("artibot rollback ", 2), ("artibot rollback --dry-run l", 3), ("artibot install ", 2),
         ("artibot uninstall c", 2), ("artibot review --answer ", 3), ("artibot review -i -a 2", 4),
         ("artibot route --domain ", 3), ("artibot collect --stdin --domain d", 4)]


@pytest.mark.parametrize("line,cword", CASES)
def test_tab_after_a_command_answers_as_typer_without_it(cli, monkeypatch: pytest.MonkeyPatch, capsys,
                                                          line: str, cword: int) -> None:
    _learned(cli)
    env = _tab(line, cword)
    done, modules = _artibot([], env)
    assert done.returncode == 0 and _heavy(modules) == [], (done.stderr, _heavy(modules))
    assert done.stdout.strip(), "completes something"
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    from artibot.cli.app import run

    capsys.readouterr()
    run([])  # typer's own completion of the same line
    assert done.stdout == capsys.readouterr().out


def test_the_round_ids_complete() -> None:
    # a data home without any round: only `last`, and nothing for a word that matches none
    assert quick_bash(_tab("artibot rollback ", 2)) == "last\n"
    assert quick_bash(_tab("artibot rollback x", 2)) == "\n"


@pytest.mark.parametrize("line,cword", [("artibot install --scope user ", 3), ("artibot rollback last ", 3),
                                        ("artibot rollback --", 2), ("artibot review --answer=1", 2),
                                        ("artibot route 'a b' --domain ", 4), ("artibot --home x status ", 3),
                                        ("artibot turns ", 2)])
def test_other_lines_are_left_to_typer(line: str, cword: int) -> None:
    assert quick_bash(_tab(line, cword)) is None


def test_the_light_reader_knows_the_learning_logs_version() -> None:
    from artibot.store.documents import CURRENT_VERSION
    from artibot.store.round.log_light import SCHEMA_VERSION

    assert SCHEMA_VERSION == CURRENT_VERSION["learning-log"]


def test_a_damaged_learning_log_completes_only_last(artibot_home: Path) -> None:
    artibot_home.mkdir(parents=True)
    (artibot_home / "learning-log.json").write_text('{"schema_version": 1, "rounds": {}}')
    assert quick_bash(_tab("artibot rollback ", 2)) == "last\n"
    (artibot_home / "learning-log.json").write_text('{"schema_version": 1, "rounds": [')
    assert quick_bash(_tab("artibot rollback ", 2)) == "last\n"


def test_the_config_check_knows_the_gateways_efforts() -> None:
    """The config check keeps its own list of efforts (not to load the gateway): the same list."""
    from artibot.config.validators import EFFORTS
    from artibot.gateway.profiles import EFFORTS as GATEWAY_EFFORTS

    assert EFFORTS == GATEWAY_EFFORTS


def _unwrapped(out: str) -> str:
    """typer renders each help through rich, which wraps a long one at the terminal's width;
    the values and helps are the same once the wrapping is undone."""
    return " ".join(out.split())


@pytest.mark.parametrize("shell", ["zsh", "fish"])
@pytest.mark.parametrize("line", ["artibot ", "artibot st", "artibot rollback ", "artibot install c",
                                  "artibot review --answer ", "artibot route --domain ", "artibot rollback zz"])
def test_zsh_and_fish_tab_answer_as_typer_without_it(cli, monkeypatch: pytest.MonkeyPatch, capsys, shell: str,
                                                      line: str) -> None:
    _learned(cli)
    actions = ["get-args", "is-args"] if shell == "fish" else [""]
    for action in actions:
        env = {"_ARTIBOT_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line,
               "_TYPER_COMPLETE_FISH_ACTION": action}
        done, modules = _artibot([], env)
        assert _heavy(modules) == [], _heavy(modules)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        from artibot.cli.app import run

        capsys.readouterr()
        code = run([])  # typer's own completion of the same line
        assert (done.returncode, _unwrapped(done.stdout)) == (code, _unwrapped(capsys.readouterr().out)), action


@pytest.mark.parametrize("line", ["artibot --h", "artibot turns ", "artibot rollback --dry", "artibot 'x' "])
def test_other_zsh_lines_are_left_to_typer(line: str) -> None:
    from artibot.cli.completion import quick_zsh_fish

    assert quick_zsh_fish({"_ARTIBOT_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": line}) is None
