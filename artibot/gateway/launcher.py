"""Keep a gateway running while Claude Code needs it (stdlib only: this is on the hook path).

``artibot install claude-code --gateway`` points Claude Code at the gateway
(``ANTHROPIC_BASE_URL`` in the settings' ``env``) and sets ``ARTIBOT_GATEWAY_PORT``
there too; Claude Code passes both to its hooks. The ``SessionStart`` and prompt hooks
call :func:`ensure`: a pid check when the gateway runs (a file read and a signal 0),
and when it does not — never started, killed, crashed — a detached start and a wait
until the port answers, before Claude Code sends the prompt's request. A dead gateway
thus costs one prompt a start-up (about half a second), never the session.
"""

from __future__ import annotations

import os
import sys
import time

from artibot.store import gateway_state

PORT_ENV = "ARTIBOT_GATEWAY_PORT"
START_WAIT_S = 4.0
"""How long a hook waits for a gateway it started to listen (the prompt hook's timeout is 10 s)."""


def wanted_port() -> int | None:
    """The port the hooks must keep a gateway on, from Claude Code's environment; None: no gateway."""
    value = os.environ.get(PORT_ENV, "")
    return int(value) if value.isdigit() and 0 < int(value) < 65536 else None


def _answers(port: int, timeout: float = 0.2) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def ensure(root: str, port: int, *, wait_s: float = START_WAIT_S) -> str:
    """Make sure a gateway serves ``port``; returns what was done, in words."""
    pid = gateway_state.read_pid(root, port)
    if pid is not None:
        return ""
    if _answers(port):
        return f"port {port} answers, but not as an artibot gateway of this data home; left alone"
    import subprocess

    env = dict(os.environ)
    env["ARTIBOT_HOME"] = root
    proc = subprocess.Popen([sys.executable, "-m", "artibot.cli.gateway_main", "--port", str(port), "--quiet"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env, start_new_session=True, close_fds=True)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if _answers(port, timeout=0.1):
            return f"gateway started on port {port}, pid {proc.pid}"
        if proc.poll() is not None:
            return f"the gateway did not start on port {port} (it exited {proc.returncode}; `artibot gateway` says why)"
        time.sleep(0.02)
    return f"the gateway on port {port} did not answer within {wait_s:g} s"


def stop_all(root: str) -> list[int]:
    """Stop every gateway this data home started (at uninstall: nothing would use it any more)."""
    import signal

    stopped = []
    for port in gateway_state.ports(root):
        pid = gateway_state.read_pid(root, port)
        if pid is None:
            continue
        try:
            os.kill(pid, signal.SIGTERM)
            stopped.append(pid)
        except ProcessLookupError:
            pass
        gateway_state.remove_pid(root, port, pid)
    return stopped
