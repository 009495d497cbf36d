"""Keep a gateway serving while Claude Code needs it (stdlib only: this is on the hook path).

``artibot install claude-code --gateway`` points Claude Code at the gateway
(``ANTHROPIC_BASE_URL`` in the settings' ``env``) and sets ``ARTIBOT_GATEWAY_PORT``
there too; Claude Code passes both to its hooks. The ``SessionStart``, prompt and tool
hooks call :func:`ensure`, which asks the port itself (:mod:`.health`: a loopback health
request the gateway answers with a proof only this data home's gateway can give):

* it answers with the proof: nothing to do (about a millisecond);
* nothing listens (never started, killed, crashed; whatever an old pid file says): a
  detached start, and a wait until it answers, before Claude Code sends the prompt's
  request;
* our gateway (its pid file names a live ``gateway_main`` of that port) does not answer
  within the budget — stopped, stuck, or an older version without the health path: it is
  killed and replaced;
* any other program holds the port: it is left alone and reported, and the prompt hook
  stops the prompt (:attr:`Outcome.blocked`), so that Claude Code never sends the key to it.
"""

from __future__ import annotations

import os
import sys
import time

from artibot.gateway import health
from artibot.hookpath.store import gateway_state

PORT_ENV = "ARTIBOT_GATEWAY_PORT"
START_WAIT_S = 4.0
"""How long a hook waits for a gateway it started to listen (the prompt hook's timeout is 10 s)."""
FREE_WAIT_S = 2.0
"""How long a killed gateway's port may take to close."""


class Outcome:
    """What :func:`ensure` did (``said``: "" when nothing) and whether the port must not be used."""

    __slots__ = ("said", "blocked")

    def __init__(self, said: str = "", blocked: bool = False):
        self.said, self.blocked = said, blocked


def wanted_port() -> int | None:
    """The port the hooks must keep a gateway on, from Claude Code's environment; None: no gateway."""
    value = os.environ.get(PORT_ENV, "")
    return int(value) if value.isdigit() and 0 < int(value) < 65536 else None


def foreign_message(port: int, state: str) -> str:
    what = "answers, but not as this data home's gateway" if state == health.FOREIGN else \
        "accepts connections but does not answer, and is not this data home's gateway"
    return (f"port {port} {what}: another program holds it, so the agent's requests (and its API key) "
            f"must not go there; stop that program, or choose another port with "
            f"`artibot install claude-code --gateway --port N` (or codex-cli)")


def ensure(root: str, port: int, *, wait_s: float = START_WAIT_S,
           budget: float = health.PROBE_BUDGET_S) -> Outcome:
    """Make sure this data home's gateway serves ``port`` (see the module doc)."""
    state, _ = health.probe(port, gateway_state.read_token(root), budget)
    if state == health.OK:
        return Outcome()
    replaced = ""
    if state != health.REFUSED:
        pid = gateway_state.gateway_pid(root, port)
        if pid is None:
            return Outcome(foreign_message(port, state), blocked=True)
        import signal

        try:
            os.kill(pid, signal.SIGKILL)  # a stopped process ignores SIGTERM until continued
        except ProcessLookupError:
            pass  # another hook (they run in parallel) killed it first
        gateway_state.remove_pid(root, port, pid)
        replaced = f"the gateway on port {port} (pid {pid}) did not answer within {budget:g} s: killed; "
        deadline = time.monotonic() + FREE_WAIT_S
        while True:
            now = health.probe(port, gateway_state.read_token(root), 0.2)[0]
            if now == health.REFUSED:
                break
            if now == health.OK:  # another hook's start (they run in parallel) already serves
                return Outcome(replaced + "a new one serves")
            if time.monotonic() > deadline:
                return Outcome(replaced + "its port did not close")
            time.sleep(0.02)
    return Outcome(replaced + _start(root, port, wait_s))


def _start(root: str, port: int, wait_s: float) -> str:
    import subprocess

    env = dict(os.environ)
    env["ARTIBOT_HOME"] = root
    proc = subprocess.Popen([sys.executable, "-m", "artibot.cli.gateway_main", "--port", str(port), "--quiet"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env, start_new_session=True, close_fds=True)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        exited = proc.poll() is not None
        if health.probe(port, gateway_state.read_token(root), 0.5)[0] == health.OK:
            # exited: another hook's start won the port (hooks run in parallel)
            return f"gateway started on port {port}" + ("" if exited else f", pid {proc.pid}")
        if exited:
            return f"the gateway did not start on port {port} (it exited {proc.returncode}; `artibot gateway` says why)"
        time.sleep(0.02)
    return f"the gateway on port {port} did not answer within {wait_s:g} s"


def stop_all(root: str) -> list[int]:
    """Stop every gateway this data home started (at uninstall: nothing would use it any more).
    Only a process that is one of our gateways is signalled, never whatever a stale pid file names."""
    stopped = []
    for port in gateway_state.ports(root):
        stopped += stop_port(root, port)
    return stopped


def stop_port(root: str, port: int) -> list[int]:
    """Stop this data home's gateway on ``port`` (a moved install: nothing sends there any more)."""
    import signal

    pid = gateway_state.gateway_pid(root, port)
    if pid is None:
        gateway_state.remove_stale_pid(root, port)
        return []
    stopped = []
    try:
        os.kill(pid, signal.SIGTERM)
        os.kill(pid, signal.SIGCONT)  # a stopped gateway handles SIGTERM once continued
        stopped.append(pid)
    except ProcessLookupError:
        pass
    gateway_state.remove_pid(root, port, pid)
    return stopped
