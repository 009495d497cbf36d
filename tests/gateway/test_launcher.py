"""The hooks keep a gateway that *serves* (:func:`launcher.ensure`), with real gateway processes.

Reproduced: a gateway stopped with SIGSTOP kept its live pid, so nothing replaced it and
every request hung; a pid file naming any live process stopped the gateway from ever
starting. And another program on the port must be left alone and reported, never used.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from artibot.gateway import health, launcher
from artibot.hookpath.store import gateway_state
from tests.gateway.servers import FakeUpstream


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def home(tmp_path: Path, monkeypatch):
    with FakeUpstream() as up:
        monkeypatch.setenv("ARTIBOT_GATEWAY_UPSTREAM", up.url)
        monkeypatch.setenv("NO_PROXY", "*")
        root = tmp_path / "data"
        root.mkdir()
        started: list[int] = []
        yield str(root), started
        for port in gateway_state.ports(str(root)):
            pid = gateway_state.gateway_pid(str(root), port)
            if pid is not None:
                os.kill(pid, signal.SIGKILL)


def _serves(root: str, port: int) -> bool:
    return health.probe(port, gateway_state.read_token(root), 2.0)[0] == health.OK


def test_a_serving_gateway_is_left_as_it_is(home) -> None:
    root, _ = home
    port = _free_port()
    first = launcher.ensure(root, port)
    assert first.said.startswith(f"gateway started on port {port}") and not first.blocked
    pid = gateway_state.gateway_pid(root, port)
    again = launcher.ensure(root, port)
    assert (again.said, again.blocked) == ("", False)
    assert gateway_state.gateway_pid(root, port) == pid
    token = Path(gateway_state.token_path(root))
    assert token.stat().st_mode & 0o777 == 0o600


def test_a_stopped_gateway_is_replaced(home) -> None:
    root, _ = home
    port = _free_port()
    launcher.ensure(root, port)
    old = gateway_state.gateway_pid(root, port)
    os.kill(old, signal.SIGSTOP)  # the attack: the pid lives, nothing answers
    started = time.monotonic()
    outcome = launcher.ensure(root, port)
    assert f"(pid {old}) did not answer" in outcome.said and "gateway started" in outcome.said, outcome.said
    assert not outcome.blocked and time.monotonic() - started < 8
    new = gateway_state.gateway_pid(root, port)
    assert new not in (None, old) and _serves(root, port)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/v1/models")
    assert conn.getresponse().status == 200


def test_a_stale_pid_file_naming_a_live_unrelated_process_never_blocks_a_start(home) -> None:
    root, _ = home
    port = _free_port()
    unrelated = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        gateway_state.write_pid(root, port, unrelated.pid)  # after a crash and a reboot that reused the pid
        outcome = launcher.ensure(root, port)
        assert outcome.said.startswith("gateway started") and _serves(root, port)
        assert unrelated.poll() is None  # never signalled
        launcher.stop_all(root)
        gateway_state.write_pid(root, port, unrelated.pid)
        assert launcher.stop_all(root) == [] and unrelated.poll() is None
        assert not Path(gateway_state.pid_path(root, port)).exists()
    finally:
        unrelated.kill()
        unrelated.wait()


def _foreign(answer: bytes | None):
    """Another program on a port: answers ``answer`` to anything, or accepts and says nothing."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    seen: list[bytes] = []

    def run() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            seen.append(conn.recv(65536))
            if answer is not None:
                conn.sendall(answer)
                conn.close()

    threading.Thread(target=run, daemon=True).start()
    return server, seen


@pytest.mark.parametrize("answer", [b"HTTP/1.1 200 OK\r\nx-artibot-proof: 00\r\nContent-Length: 2\r\n\r\n{}", None],
                         ids=["answers without the proof", "accepts and is silent"])
def test_another_program_on_the_port_is_reported_and_never_used(home, answer) -> None:
    root, _ = home
    server, seen = _foreign(answer)
    port = server.getsockname()[1]
    try:
        outcome = launcher.ensure(root, port, budget=0.5)
        assert outcome.blocked and f"port {port}" in outcome.said and "another program" in outcome.said
        assert gateway_state.gateway_pid(root, port) is None  # nothing started beside it
        assert all(b"x-api-key" not in s.lower() for s in seen)  # the probe carries no key, no token
        token = gateway_state.read_token(root)
        assert token is None or all(token.encode() not in s for s in seen)
    finally:
        server.close()


def test_the_prompt_hook_stops_the_prompt_when_another_program_holds_the_port(home, tmp_path: Path) -> None:
    root, _ = home
    server, _ = _foreign(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
    port = server.getsockname()[1]
    env = {**os.environ, "ARTIBOT_HOME": root, "HOME": str(tmp_path), "ARTIBOT_GATEWAY_PORT": str(port)}
    payload = {"session_id": "s-1", "hook_event_name": "UserPromptSubmit", "prompt": "fix the typo",
               "prompt_id": "p1", "cwd": str(tmp_path), "transcript_path": str(tmp_path / "t.jsonl")}
    try:
        proc = subprocess.run([sys.executable, "-m", "artibot", "hook", "user-prompt-submit"], env=env,
                              input=json.dumps(payload), capture_output=True, text=True, timeout=60)
    finally:
        server.close()
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["decision"] == "block" and f"port {port}" in out["reason"]
    assert "another program" in (Path(root) / "logs" / "hooks.log").read_text()


def test_status_says_whether_the_gateway_serves_its_port_version_and_counters(home, monkeypatch) -> None:
    from artibot import __version__
    from artibot.reports.status import gateway_status

    root, _ = home
    port = _free_port()
    assert gateway_status(root, port) == []  # no gateway ever ran here: no port is asked
    launcher.ensure(root, port)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/v1/models")
    conn.getresponse().read()
    [up] = gateway_status(root, port)
    assert (up["port"], up["state"], up["version"]) == (port, "up", __version__)
    assert up["pid"] == gateway_state.gateway_pid(root, port) and up["counters"]["requests"] >= 1
    os.kill(up["pid"], signal.SIGSTOP)
    monkeypatch.setattr(health, "PROBE_BUDGET_S", 0.3)
    monkeypatch.setattr(health.probe, "__defaults__", (0.3,))
    assert [g["state"] for g in gateway_status(root, port)] == ["not answering"]
    os.kill(up["pid"], signal.SIGKILL)
    time.sleep(0.2)
    assert [g["state"] for g in gateway_status(root, port)] == ["down"]
