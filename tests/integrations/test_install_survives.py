"""Install and uninstall that survive the user: a removed virtualenv leaves hooks that exit 0
quietly, uninstall gives back the original bytes, and a real install shows the diff it mentions."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from artibot.integrations.claude_code.templates import hook_command, hook_prefix
from tests.cli.conftest import cli  # noqa: F401 - the fixture
from tests.integrations.test_installer import dirs, install, uninstall  # noqa: F401 - the fixture

# A file no serialiser of ours writes this way: tabs, escaped non-ASCII, keys spaced oddly.
ODD = b'{\t"model" : "opus",\n\t"language": "\\ud55c\\uad6d\\uc5b4"\n}'


def test_a_hook_whose_virtualenv_is_gone_exits_0_silently(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    command = hook_command(hook_prefix(str(venv / "bin" / "python"), guard=True), "stop")
    payload = json.dumps({"session_id": "s1", "hook_event_name": "Stop"}).encode()
    env = {"PATH": "/usr/bin:/bin", "ARTIBOT_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    alive = subprocess.run(["sh", "-c", command], input=payload, capture_output=True, env=env, timeout=60)
    assert alive.returncode == 0 and alive.stderr == b""
    shutil.rmtree(venv)  # what `pipx uninstall artibot` does before `artibot uninstall`
    for event in ("session-start", "user-prompt-submit", "stop", "session-end"):
        gone = subprocess.run(["sh", "-c", hook_command(hook_prefix(str(venv / "bin" / "python"), guard=True), event)],
                              input=payload, capture_output=True, env=env, timeout=60)
        assert (gone.returncode, gone.stdout, gone.stderr) == (0, b"", b"")
    unguarded = subprocess.run(["sh", "-c", hook_command(hook_prefix(str(venv / "bin" / "python")), "stop")],
                               input=payload, capture_output=True, env=env, timeout=60)
    assert unguarded.returncode == 127  # what the guard is for


def test_uninstall_restores_the_original_bytes(dirs) -> None:
    path = dirs["user_dir"] / "settings.json"
    path.write_bytes(ODD)
    install(dirs)
    assert path.read_bytes() != ODD
    plan = uninstall(dirs)
    assert path.read_bytes() == ODD
    assert "restored byte for byte" in " ".join(plan.summary())
    assert not path.with_name("settings.json.artibot-backup").exists()


def test_uninstall_after_another_change_keeps_the_backup(dirs) -> None:
    path = dirs["user_dir"] / "settings.json"
    path.write_bytes(ODD)
    install(dirs)
    data = json.loads(path.read_bytes())
    data["model"] = "sonnet"  # the user changed something since
    path.write_text(json.dumps(data, indent=2))
    uninstall(dirs)
    assert json.loads(path.read_bytes()) == {"model": "sonnet", "language": "한국어"}
    assert path.with_name("settings.json.artibot-backup").read_bytes() == ODD  # the original is still there


def test_a_real_install_prints_the_diff_it_mentions(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "claude"
    user.mkdir()
    (user / "settings.json").write_bytes(ODD)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(user))
    result = cli("install", "claude-code")
    assert result.code == 0, result.err
    assert "see the diff" in result.out
    assert "--- " in result.out and "+++ " in result.out and '-{\t"model" : "opus",' in result.out
    assert "learn.md\n@@" not in result.out  # only the file whose note points at the diff


def test_a_hook_whose_package_is_gone_exits_0_silently(tmp_path: Path) -> None:
    """`pip uninstall artibot` keeps the interpreter: the launcher finds no artibot and stops quietly."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    command = hook_command(hook_prefix(str(venv / "bin" / "python"), root=str(tmp_path / "removed"), guard=True),
                           "user-prompt-submit")
    env = {"PATH": "/usr/bin:/bin", "ARTIBOT_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    done = subprocess.run(["sh", "-c", command], input=b'{"session_id": "s1", "prompt": "fix it"}',
                          capture_output=True, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
