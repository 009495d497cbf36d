"""``artibot install`` and ``uninstall`` as a person runs them, in a real 80-column terminal.

Reproduced: ``install --gateway``, then ``install --gateway --port N``, then ``uninstall``
left ``{}`` and a backup holding artibot's own hooks (the second install had saved its
predecessor's file as the backup); ``install --gateway`` without ``--port`` silently moved
back to the configured port and left the old gateway running.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from artibot.gateway import health, launcher
from artibot.hookpath.store import gateway_state
from tests.cli.test_pty import Terminal
from tests.gateway.servers import FakeUpstream


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(argv: list[str], home: Path) -> tuple[int, str]:
    term = Terminal(argv, home)
    try:
        code = term.finish()
    finally:
        term.close()
    # paths are printed whole, never wrapped (they are read by Claude and copied by people)
    return code, " ".join(term.screen().split())


@pytest.fixture
def claude_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "dot-claude"
    path.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(path))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    return path


@pytest.fixture
def upstream(monkeypatch: pytest.MonkeyPatch):
    with FakeUpstream() as up:
        monkeypatch.setenv("ARTIBOT_GATEWAY_UPSTREAM", up.url)
        monkeypatch.setenv("NO_PROXY", "*")
        yield up


def _kill_gateways(root: str) -> None:
    for port in gateway_state.ports(root):
        pid = gateway_state.gateway_pid(root, port)
        if pid is not None:
            os.kill(pid, signal.SIGKILL)


def test_install_another_port_and_uninstall_give_the_first_bytes_back(artibot_home: Path, claude_dir: Path,
                                                                      upstream) -> None:
    original = json.dumps({"model": "opus", "permissions": {"allow": ["Bash(ls)"]}}, indent=2).encode() + b"\n"
    settings = claude_dir / "settings.json"
    settings.write_bytes(original)
    first, second = _free_port(), _free_port()
    root = str(artibot_home)
    try:
        code, out = run(["install", "claude-code", "--gateway", "--port", str(first)], artibot_home)
        assert code == 0 and "(backup: settings.json.artibot-backup)" in out, out
        # the gateway the hooks would start for this home, serving the installed port
        assert launcher.ensure(root, first).said.startswith("gateway started")
        old_pid = gateway_state.gateway_pid(root, first)

        code, out = run(["install", "claude-code", "--gateway"], artibot_home)  # no --port: stays
        assert code == 0 and "artibot is already installed" in out, out
        assert json.loads(settings.read_text())["env"]["ARTIBOT_GATEWAY_PORT"] == str(first)

        code, out = run(["install", "claude-code", "--gateway", "--port", str(second)], artibot_home)
        assert code == 0, out
        assert f"Claude Code's gateway moves from port {first} to port {second}" in out, out
        assert f"stopped this home's gateway on the old port (pid {old_pid})" in out
        assert "backup:" not in out  # the first install's backup stays the user's file
        assert health.probe(first, gateway_state.read_token(root), 2.0)[0] == health.REFUSED

        code, out = run(["uninstall", "claude-code"], artibot_home)
        assert code == 0 and "restored byte for byte from settings.json.artibot-backup" in out, out
        assert settings.read_bytes() == original
        assert not (claude_dir / "settings.json.artibot-backup").exists()
    finally:
        _kill_gateways(root)


def _hook_commands(settings: Path) -> list[str]:
    doc = json.loads(settings.read_text())
    return [h["command"] for groups in doc["hooks"].values() for g in groups for h in g["hooks"]]


def test_a_home_given_at_install_is_where_the_hooks_write(artibot_home: Path, claude_dir: Path,
                                                          tmp_path: Path) -> None:
    """``artibot --home X install claude-code`` said the data goes to X and wrote nothing that
    made it so: the hooks ran in Claude Code's environment and wrote to ~/.claude/artibot."""
    chosen = tmp_path / "my data"  # a space: the path is quoted in the commands
    code, out = run(["--home", str(chosen), "install", "claude-code"], artibot_home)
    assert code == 0, out
    assert f"experiences and learned state go to {chosen}, written into the hook commands" in out, out
    commands = _hook_commands(claude_dir / "settings.json")
    assert commands and all(f"ARTIBOT_HOME='{chosen}' " in c for c in commands)
    learn_md = (claude_dir / "commands" / "learn.md").read_text()
    assert f"--home '{chosen}' review --json --prepare" in learn_md
    assert f"--home '{chosen}' report cost" in learn_md and "`artibot report" not in learn_md

    # the hook as Claude Code runs it (through sh), in an environment without ARTIBOT_HOME
    env = {k: v for k, v in os.environ.items() if k != "ARTIBOT_HOME"}
    env["HOME"] = str(tmp_path / "user")
    start = next(c for c in commands if c.endswith(" hook session-start"))
    payload = json.dumps({"session_id": "s-1", "transcript_path": "", "cwd": str(tmp_path),
                          "hook_event_name": "SessionStart", "source": "startup"})
    done = subprocess.run(["sh", "-c", start], input=payload, text=True, env=env, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert chosen.is_dir() and any(chosen.iterdir())
    assert not (tmp_path / "user" / ".claude" / "artibot").exists()

    # installing again with another home (ARTIBOT_HOME in this shell) replaces the hooks, and says where
    code, out = run(["install", "claude-code"], artibot_home)
    assert "replacing 7 from an earlier install" in out and f"go to {artibot_home}, written into" in out, out
    commands = _hook_commands(claude_dir / "settings.json")
    assert len(commands) == 7 and all(f"ARTIBOT_HOME={artibot_home} " in c for c in commands)


def test_only_a_home_other_than_the_default_is_saved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from artibot.cli.install_view import saved_home

    monkeypatch.delenv("ARTIBOT_HOME")
    assert saved_home() is None  # the hooks find the default themselves: commands as before
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("ARTIBOT_HOME", "~/.claude/artibot")
    assert saved_home() is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ARTIBOT_HOME", "rel/home")
    assert saved_home() == str(tmp_path / "rel" / "home")  # hooks run in the project's folder: absolute


def test_the_install_sentences_in_korean() -> None:
    from artibot.cli.words import w
    from artibot.messages import Message, render
    from tests.cli.test_korean import english_sentences

    moves = Message("install.claude_gateway_moves", old="41470", new="41473",
                    env="ANTHROPIC_BASE_URL=http://127.0.0.1:41473")
    assert str(moves) == ("Claude Code's gateway moves from port 41470 to port 41473: env "
                          "ANTHROPIC_BASE_URL=http://127.0.0.1:41473")
    said = [w("ko", "in_home_saved", home="/data/x"), render(moves, "ko"),
            w("ko", "in_stopped", pids="12"), w("ko", "gw_blocked", port=1, holder=w("ko", "gw_held_home", pid=3)),
            w("ko", "gw_blocked_fix", what=w("ko", "gw_stop_pid", pid=3), free=2),
            w("ko", "gw_blocked", port=1, holder=w("ko", "gw_held_other")),
            w("ko", "gw_blocked_fix", what=w("ko", "gw_stop_other"), free=2)]
    assert english_sentences("\n".join(said)) == [], said


def test_another_homes_gateway_on_the_installed_port_is_told_by_status_and_doctor(
        artibot_home: Path, claude_dir: Path, tmp_path: Path, upstream) -> None:
    """Every prompt was stopped (another data home's gateway held the port) and neither
    ``status`` nor ``doctor`` said a word; after a move ``status`` still warned about the old port."""
    other = str(tmp_path / "other-home")
    held, moved = _free_port(), _free_port()
    artibot_home.mkdir(parents=True)
    # this home once ran a gateway, on the port its config names (the old warning's source)
    (artibot_home / "artibot.config.json").write_text(json.dumps({"gateway": {"server": {"port": held}}}))
    gateway_state.ensure_token(str(artibot_home))
    try:
        assert launcher.ensure(other, held).said.startswith("gateway started")
        other_pid = gateway_state.gateway_pid(other, held)
        code, out = run(["install", "claude-code", "--gateway", "--port", str(held)], artibot_home)
        assert code == 0, out

        code, out = run(["status"], artibot_home)
        assert code == 0, out
        assert (f"port {held}, where Claude Code sends this home's requests, is held by another data home's "
                f"artibot gateway (pid {other_pid}): the hooks stop every prompt") in out, out
        assert f"`kill {other_pid}`" in out and "`artibot install claude-code --gateway --port " in out
        code, out = run(["doctor"], artibot_home)
        assert code == 1 and f"port {held}, where Claude Code sends" in out and "--gateway --port" in out, out

        code, out = run(["install", "claude-code", "--gateway", "--port", str(moved)], artibot_home)
        assert code == 0 and "stopped" not in out, out  # the other home's gateway is not ours
        assert launcher.ensure(other, held).said == ""  # and still serves its own home
        code, out = run(["status"], artibot_home)
        assert f"port {held}" not in out and f"gateway on port {moved}: down" in out, out
        code, out = run(["doctor"], artibot_home)
        assert code == 0 and f"port {held}" not in out, out
    finally:
        _kill_gateways(other)
        _kill_gateways(str(artibot_home))
