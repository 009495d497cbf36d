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
from pathlib import Path

import pytest

from artibot.gateway import health, launcher
from artibot.store import gateway_state
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
        assert f"the gateway on port {first} is stopped" in out and f"stopped the gateway (pid {old_pid})" in out
        assert "backup:" not in out  # the first install's backup stays the user's file
        assert health.probe(first, gateway_state.read_token(root), 2.0)[0] == health.REFUSED

        code, out = run(["uninstall", "claude-code"], artibot_home)
        assert code == 0 and "restored byte for byte from settings.json.artibot-backup" in out, out
        assert settings.read_bytes() == original
        assert not (claude_dir / "settings.json.artibot-backup").exists()
    finally:
        _kill_gateways(root)
