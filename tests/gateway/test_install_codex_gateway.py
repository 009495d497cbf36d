"""``install codex-cli --gateway``: a model provider in ``config.toml``, the key left in the
user's environment, and the file's own bytes back at uninstall (through the real CLI)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from artibot.errors import IntegrationError, InvalidInput
from artibot.integrations.codex_cli import provider

MINE = (b'# my settings\nmodel = "gpt-6-astra"\nmodel_provider = "corp"   # the proxy\n\n'
        b'[model_providers.corp]\nname = "Corp"\nbase_url = "https://llm.corp.example/v1/"\n'
        b'env_key = "CORP_OPENAI_KEY"\nwire_api = "responses"\n\n[projects."/src"]\ntrust_level = "trusted"')
"""A user's file: comments, a provider of their own, no final newline."""


def _cli(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(tmp / "home"), "CODEX_HOME": str(tmp / "home" / ".codex"),
           "ARTIBOT_HOME": str(tmp / "data"), "CORP_OPENAI_KEY": "sk-corp-secret"}
    return subprocess.run([sys.executable, "-m", "artibot", *args], env=env, cwd=tmp, capture_output=True,
                          text=True, timeout=60)


@pytest.fixture
def codex(tmp_path: Path) -> Path:
    folder = tmp_path / "home" / ".codex"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_bytes(MINE)
    return folder


def test_install_adds_and_selects_a_provider_with_the_users_key_variable_and_uninstall_restores_the_bytes(
        tmp_path: Path, codex: Path) -> None:
    done = _cli(tmp_path, "install", "codex-cli", "--gateway", "--port", "41555")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = tomllib.loads((codex / "config.toml").read_text())
    assert doc["model_provider"] == "artibot"
    assert doc["model_providers"]["artibot"] == {"name": "artibot gateway", "base_url": "http://127.0.0.1:41555/openai",
                                                 "env_key": "CORP_OPENAI_KEY", "wire_api": "responses"}
    assert doc["model_providers"]["corp"]["base_url"] == "https://llm.corp.example/v1/"  # untouched
    hooks = json.loads((codex / "hooks.json").read_text())["hooks"]
    command = hooks["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert command.startswith("env ARTIBOT_GATEWAY_PORT=41555 ")
    kept = tmp_path / "data" / "run" / "openai-upstream"  # whichever hook starts the gateway, it forwards there
    assert kept.read_text() == "https://llm.corp.example/v1\n"
    for path in [*codex.rglob("*"), *(tmp_path / "data").rglob("*")]:
        if path.is_file():
            assert b"sk-corp-secret" not in path.read_bytes(), path
    again = _cli(tmp_path, "install", "codex-cli")  # a plain install keeps the gateway
    assert "model provider left as it is" in again.stdout
    assert json.loads((codex / "hooks.json").read_text())["hooks"]["UserPromptSubmit"][0]["hooks"][0][
        "command"] == command
    moved = _cli(tmp_path, "install", "codex-cli", "--gateway", "--port", "41556")  # a new port: no stacking
    assert moved.returncode == 0 and (codex / "config.toml").read_text().count("[model_providers.artibot]") == 1
    gone = _cli(tmp_path, "uninstall", "codex-cli")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert (codex / "config.toml").read_bytes() == MINE
    assert sorted(p.name for p in codex.iterdir()) == ["config.toml"] and not kept.exists()


def test_no_gateway_takes_the_provider_out_and_keeps_the_hooks(tmp_path: Path, codex: Path) -> None:
    assert _cli(tmp_path, "install", "codex-cli", "--gateway").returncode == 0
    off = _cli(tmp_path, "install", "codex-cli", "--no-gateway")
    assert off.returncode == 0, off.stdout + off.stderr
    assert (codex / "config.toml").read_bytes() == MINE
    command = json.loads((codex / "hooks.json").read_text())["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert not command.startswith("env ") and command.endswith("hook codex-cli Stop")


def test_an_edit_since_install_is_kept_and_only_artibots_part_goes(tmp_path: Path, codex: Path) -> None:
    _cli(tmp_path, "install", "codex-cli", "--gateway")
    path = codex / "config.toml"
    path.write_text(path.read_text() + '\n[profiles.fast]\nmodel = "gpt-5.1-codex-mini"\n')
    _cli(tmp_path, "uninstall", "codex-cli")
    text = path.read_text()
    assert "artibot" not in text and 'model_provider = "corp"   # the proxy' in text and "[profiles.fast]" in text
    assert tomllib.loads(text)["model_provider"] == "corp"


def test_the_builtin_openai_provider_keeps_its_key_variable_and_a_provider_without_a_key_is_refused(
        tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('model = "gpt-6-astra"\n')
    change, gw = provider.change(path, 41470, install=True)
    assert gw == provider.Gateway(41470, "https://api.openai.com/v1", "OPENAI_API_KEY")
    assert tomllib.loads(change.after.decode())["model_provider"] == "artibot"
    assert provider.remove(change.after.decode()) == path.read_text()
    path.write_text('model_provider = "chatgpt"\n[model_providers.chatgpt]\nbase_url = "https://x.example"\n')
    with pytest.raises(IntegrationError, match="needs base_url and env_key"):
        provider.change(path, 41470, install=True)
    path.write_text("model = [\n")
    with pytest.raises(IntegrationError, match="not valid TOML"):
        provider.change(path, 41470, install=True)
    assert path.read_text() == "model = [\n"


def test_the_gateway_option_goes_with_the_user_scope(tmp_path: Path, codex: Path) -> None:
    done = _cli(tmp_path, "install", "codex-cli", "--scope", "project", "--gateway")
    assert done.returncode != 0 and "user scope" in done.stdout + done.stderr
    assert (codex / "config.toml").read_bytes() == MINE


def test_the_codex_gateway_sentences_in_korean(tmp_path: Path) -> None:
    from artibot.cli.cmd_agents import run_agent_plan
    from artibot.cli.words_errors import said_message

    path = tmp_path / "config.toml"
    path.write_text('model_provider = "chatgpt"\n[model_providers.chatgpt]\nbase_url = "https://x.example"\n')
    with pytest.raises(IntegrationError) as refused:
        provider.change(path, 41470, install=True)
    path.write_text("model = [\n")
    with pytest.raises(IntegrationError) as broken:
        provider.change(path, 41470, install=True)
    path.write_text('model = "gpt-6-astra"\n')
    added, _ = provider.change(path, 41470, install=True)
    path.write_bytes(added.after)
    removed, _ = provider.change(path, 0, install=True)
    left, _ = provider.change(path, None, install=True)
    with pytest.raises(InvalidInput) as scope:
        run_agent_plan("codex-cli", "project", True, install=True, gateway_port=41470)
    with pytest.raises(InvalidInput) as context:
        run_agent_plan("cursor", "user", True, install=True, gateway_port=41470)
    assert str(scope.value) == "--gateway goes with the user scope: the model provider is in $CODEX_HOME/config.toml"
    assert str(context.value) == "--gateway is for claude-code and codex-cli; cursor takes the route as context only"
    assert left.note == "model provider left as it is"
    messages = [refused.value.message, broken.value.message, added.said, removed.said, scope.value.message,
                context.value.message, left.said]
    for message in messages:
        assert message is not None
        said = said_message("ko", message)
        assert said != str(message) and not any(w in said for w in (" needs ", "goes through", "left it", "not valid")), said
