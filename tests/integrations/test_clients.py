"""The client registry: every entry has its package, every hook reaches its own client's
entry point and loads no other client's modules, and the names are read from it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from artibot.config import agent_user_dir, claude_user_dir
import artibot.integrations
from artibot.hookpath import clients
from artibot.hookpath.clients import CLIENTS

PACKAGES = Path(artibot.integrations.__file__).parent


@pytest.mark.parametrize("name", list(CLIENTS))
def test_every_client_has_its_package_and_entry_point(name: str) -> None:
    client = CLIENTS[name]
    assert (PACKAGES / client.package / "__init__.py").is_file()
    assert callable(clients.module(name, "installer").hook_file if name in clients.adapted()
                    else clients.module(name, "installer").plan_install)
    assert callable(__import__(client.hook, fromlist=["main"]).main)
    if name in clients.adapted():
        events = clients.module(name, "events")
        assert events.EVENTS and callable(events.translate) and callable(events.render)


def test_only_claude_code_is_run_without_its_name() -> None:
    # its events are the engine's own: its hooks enter the engine with nothing translated
    assert [n for n, c in CLIENTS.items() if c.hook != clients.ADAPTER] == [clients.UNNAMED] == ["claude-code"]
    assert CLIENTS["claude-code"].hook == "artibot.hookpath.turns.call"


@pytest.mark.parametrize("args, name, rest", [
    (["stop"], "claude-code", ["stop"]),
    (["session-end"], "claude-code", ["session-end"]),
    ([], "claude-code", []),
    (["cursor", "stop"], "cursor", ["stop"]),
    (["gemini-cli", "AfterTool"], "gemini-cli", ["AfterTool"]),
    (["codex-cli"], "codex-cli", []),
    # as before the registry: Claude Code's hooks never carried its name, so the name is an event
    (["claude-code", "stop"], "claude-code", ["claude-code", "stop"]),
])
def test_a_hook_reaches_the_client_its_arguments_name(args: list[str], name: str, rest: list[str]) -> None:
    client, argv = clients.hook_target(args)
    assert (client.name, argv) == (name, rest)


def test_an_unknown_client_module_is_named() -> None:
    with pytest.raises(ValueError, match="unknown client 'vim' .*claude-code, gemini-cli, codex-cli, cursor"):
        clients.module("vim", "events")


def _imported(tmp_path: Path, *args: str, data: bytes = b"{}") -> set[str]:
    env = dict(os.environ, ARTIBOT_HOME=str(tmp_path / "home"))
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "artibot", "hook", *args], input=data,
                          env=env, cwd=tmp_path, capture_output=True, timeout=60)
    assert proc.returncode == 0
    return {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines()
            if line.startswith("import time:") and "|" in line}


@pytest.mark.parametrize("name", clients.adapted())
def test_a_clients_hook_loads_its_own_modules_and_no_others(tmp_path: Path, name: str) -> None:
    event = next(iter(clients.module(name, "events").EVENTS))
    imported = _imported(tmp_path, name, event)
    packages = {f"artibot.integrations.{c.package}" for c in CLIENTS.values()}
    assert f"artibot.integrations.{CLIENTS[name].package}.events" in imported
    assert {p for p in packages if p in imported} == {f"artibot.integrations.{CLIENTS[name].package}"}


def test_claude_codes_hook_loads_no_clients_package(tmp_path: Path) -> None:
    imported = _imported(tmp_path, "post-tool-use")
    assert "artibot.hookpath.turns.call" in imported
    assert not {m for m in imported if m.startswith(tuple(f"artibot.integrations.{c.package}" for c in CLIENTS.values()))
                or m == "artibot.hookpath.adapter"}


@pytest.mark.parametrize("name", list(CLIENTS))
def test_each_clients_settings_folder_comes_from_the_registry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                              name: str) -> None:
    client = CLIENTS[name]
    monkeypatch.setenv("HOME", str(tmp_path))
    for other in CLIENTS.values():
        if other.config_env:
            monkeypatch.delenv(other.config_env, raising=False)
    assert agent_user_dir(name) == tmp_path / client.config_dir
    if client.config_env:
        monkeypatch.setenv(client.config_env, str(tmp_path / "elsewhere"))
        assert agent_user_dir(name) == tmp_path / "elsewhere"


def test_claude_codes_folder_is_the_registrys(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    assert claude_user_dir() == tmp_path / ".claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/other")
    assert claude_user_dir() == tmp_path / "other"


def test_completion_offers_every_client() -> None:
    from artibot.cli.completion import agents

    assert [name for name, _ in agents("")] == list(CLIENTS)
    assert agents("c") == [("claude-code", "Claude Code"), ("codex-cli", "Codex CLI"), ("cursor", "Cursor")]


@pytest.mark.parametrize("entry", [
    ["-m", "artibot"],  # `python -m artibot hook …`
    ["-c", "import sys; from artibot.__main__ import main; sys.exit(main())"],  # launchers of earlier installs
    ["-c", "import sys; from artibot.__main__ import hook_process; sys.exit(hook_process())"],  # today's
])
def test_the_hook_commands_installs_wrote_reach_the_engine(tmp_path: Path, entry: list[str]) -> None:
    """Settings files keep the command an earlier install wrote: each form still runs the hook."""
    env = dict(os.environ, ARTIBOT_HOME=str(tmp_path / "home"))
    env.pop("ARTIBOT_CONFIG", None)
    proc = subprocess.run([sys.executable, *entry, "hook", "session-start"],
                          input=b'{"session_id": "s1", "source": "startup"}', env=env, cwd=tmp_path,
                          capture_output=True, timeout=60)
    assert proc.returncode == 0 and b"SessionStart" in proc.stdout
    log = tmp_path / "home" / "logs" / "hooks.log"
    assert not log.exists() or "unknown" not in log.read_text()
