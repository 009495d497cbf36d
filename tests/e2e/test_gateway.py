"""The gateway between the real Claude Code client and the fake API.

Installed with ``artibot install claude-code --gateway``: the settings' ``env`` points
Claude Code at the gateway, and the hooks start it. The fake API sees what the gateway
forwards, so each test checks the route's effect where it lands: the request itself.
Exploration is off in these homes so that the prompts' routes are certain
(``fix the typo`` is System 1, the long design prompt System 2).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from artibot.gateway.price_table import PriceTable
from artibot.gateway.usage import Usage
from experiments.cache_model import effort_of
from tests.e2e.fake_api import text, tool
from tests.e2e.harness import World

pytestmark = pytest.mark.slow

SIMPLE = "fix the typo in the README title"
HARD = ("design and implement a distributed rate limiter across all backend services with a migration plan, "
        "security review of the token bucket, and load tests")
SCENARIOS = {
    "plain": [[text("Fixed the typo.")]],
    "sub": [[tool("Agent", description="audit", prompt="#sc:inner check the README",
                  subagent_type="general-purpose")], [text("Audit done.")]],
    "inner": [[tool("Bash", command="echo audited", description="audit")], [text("inner done")]],
}
FAKE_USAGE = Usage(input_tokens=10, output_tokens=5)
"""What the fake API reports for every answer (``message_start`` 10 in / 1 out, then 5 out)."""


class GatewayWorld(World):
    """A World whose Claude Code goes through the gateway (loopback is not proxied)."""

    @property
    def env(self) -> dict[str, str]:
        return {**super().env, "NO_PROXY": "127.0.0.1,localhost"}

    def gateway_pids(self) -> list[int]:
        run = self.data / "run"
        return [int(p.read_text()) for p in run.glob("gateway-*.pid")] if run.exists() else []

    def stop_gateways(self) -> None:
        for pid in self.gateway_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def make_world(tmp_path: Path, binary: Path):
    worlds: list[GatewayWorld] = []

    def make(profiles: dict | None = None) -> GatewayWorld:
        w = GatewayWorld(tmp_path, binary, SCENARIOS).__enter__()
        worlds.append(w)
        w.port = _free_port()
        w.data.mkdir()
        config = {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}},
                  "gateway": {"server": {"upstream": w.api.url, "port": w.port}}}
        if profiles:
            config["gateway"]["profiles"] = profiles
        (w.data / "artibot.config.json").write_text(json.dumps(config))
        w.artibot("install", "claude-code", "--gateway", "--port", str(w.port))
        return w

    yield make
    for w in worlds:
        w.stop_gateways()
        w.__exit__(None, None, None)
        assert w.api.refused == [], f"requests that would have left the machine: {w.api.refused}"
        assert "Error" not in w.hook_log(), w.hook_log()


def _requests(world: World, session: str) -> list[dict]:
    return [r for _, _, r in world.api.requests if session in json.dumps(r.get("metadata"))]


def test_each_route_reaches_the_api_with_its_profile_and_its_cost_is_recorded(make_world) -> None:
    world = make_world()
    env = json.loads((world.home / ".claude" / "settings.json").read_text())["env"]
    assert env == {"ANTHROPIC_BASE_URL": f"http://127.0.0.1:{world.port}", "ARTIBOT_GATEWAY_PORT": str(world.port)}
    world.claude("-p", f"{SIMPLE} #sc:plain")
    world.claude("-p", f"{HARD} #sc:plain")
    assert world.gateway_pids(), "no hook started the gateway"
    easy, hard = world.experiences()
    assert (easy["routed_to"], hard["routed_to"]) == ("system1", "system2")
    for record, effort in ((easy, "low"), (hard, "medium")):
        sent = _requests(world, record["session_id"])
        # the top level (the cache's key) as the client sent it; the turn's effort on its marker
        assert sent and all(r["output_config"] == {"effort": "medium"} for r in sent)
        assert all(effort_of(r) == effort for r in sent)
        usage = record["usage"]
        n = len(sent)
        assert usage["requests"] == n
        assert (usage["input_tokens"], usage["output_tokens"]) == (10 * n, 5 * n)
        model = sent[0]["model"]
        assert usage["models"] == [model]
        assert usage["cost_usd"] == pytest.approx(n * PriceTable.shipped().cost(model, FAKE_USAGE))
    cost = json.loads(world.artibot("report", "cost", "--json").stdout)
    assert cost["routes"]["system1"]["turns"] == 1 and cost["routes"]["system2"]["turns"] == 1


def test_a_model_per_route_holds_for_every_request_of_the_turn_sub_agents_included(make_world) -> None:
    world = make_world({"system1": {"effort": "low", "model": "claude-haiku-4-5"}})
    world.claude("-p", f"{SIMPLE} with a sub-agent #sc:sub", "--allowedTools", "Bash,Agent")
    [record] = world.experiences()
    assert record["routed_to"] == "system1"
    sent = _requests(world, record["session_id"])
    names = [name for _, name, r in world.api.requests if r in sent]
    assert "inner" in names and "sub" in names  # the sub-agent's requests went through too
    assert {r["model"] for r in sent} == {"claude-haiku-4-5"}
    assert record["usage"]["models"] == ["claude-haiku-4-5"]


def _two_prompts(world: GatewayWorld, between) -> list[dict]:
    """One session of two prompts; ``between()`` runs once the first is answered."""
    proc = subprocess.Popen([str(world.binary), "-p", "--input-format", "stream-json", "--output-format",
                             "stream-json", "--verbose"], env=world.env, cwd=world.project, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = []
    try:
        for i, prompt in enumerate((f"{SIMPLE} #sc:plain", "now the other typo #sc:plain")):
            if i == 1:
                between()
            proc.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n")
            proc.stdin.flush()
            for line in proc.stdout:
                event = json.loads(line)
                if event.get("type") == "result":
                    results.append(event)
                    break
        proc.stdin.close()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return results


def test_a_killed_gateway_costs_no_prompt(make_world) -> None:
    world = make_world()

    def kill() -> None:
        [pid] = world.gateway_pids()
        os.kill(pid, signal.SIGKILL)  # mid-session, between two prompts
        time.sleep(0.2)

    results = _two_prompts(world, kill)
    assert [r.get("is_error") for r in results] == [False, False], results
    assert [r.get("result") for r in results] == ["Fixed the typo."] * 2
    assert "gateway started" in world.hook_log()
    assert len(world.experiences()) == 2


def test_a_stopped_gateway_is_replaced_before_the_next_prompt(make_world) -> None:
    """SIGSTOP (Ctrl-Z on a foreground gateway, a debugger, a deadlock): its pid lives, nothing answers."""
    world = make_world()
    stopped: list[int] = []

    def stop() -> None:
        [pid] = world.gateway_pids()
        os.kill(pid, signal.SIGSTOP)
        stopped.append(pid)

    try:
        results = _two_prompts(world, stop)
    finally:
        for pid in stopped:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert [r.get("is_error") for r in results] == [False, False], results
    assert [r.get("result") for r in results] == ["Fixed the typo."] * 2
    assert f"(pid {stopped[0]}) did not answer" in world.hook_log()
    assert world.gateway_pids() and world.gateway_pids() != stopped
    assert len(world.experiences()) == 2


def test_a_stale_pid_file_naming_a_live_unrelated_process_costs_no_prompt(make_world) -> None:
    """After a crash and a reboot that reused the pid: the file names a live process, not a gateway."""
    world = make_world()
    unrelated = subprocess.Popen(["sleep", "300"])
    try:
        def stale() -> None:
            for pid in world.gateway_pids():
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.2)
            for path in (world.data / "run").glob("gateway-*.pid"):
                path.write_text(f"{unrelated.pid}\n")

        results = _two_prompts(world, stale)
        assert [r.get("is_error") for r in results] == [False, False], results
        assert [r.get("result") for r in results] == ["Fixed the typo."] * 2
        assert unrelated.poll() is None  # never signalled
        assert world.gateway_pids() and unrelated.pid not in world.gateway_pids()
    finally:
        unrelated.kill()
        unrelated.wait()
    assert len(world.experiences()) == 2


def test_uninstall_leaves_nothing(make_world) -> None:
    world = make_world()
    world.claude("-p", f"{SIMPLE} #sc:plain")
    assert world.gateway_pids()
    world.artibot("uninstall", "claude-code")
    assert not (world.home / ".claude" / "settings.json").exists()
    assert not list((world.home / ".claude").glob("*.artibot-backup"))
    time.sleep(0.3)
    assert world.gateway_pids() == []  # stopped: nothing would send it a request any more
    world.claude("-p", f"{SIMPLE} #sc:plain")  # straight to the API again
    assert len(world.experiences()) == 1


def test_another_program_on_the_port_gets_no_prompt_and_no_key(make_world) -> None:
    """Another local user took the port first: the prompt hook stops the prompt, loudly."""
    import threading

    world = make_world()
    seen: list[bytes] = []
    server = socket.socket()
    server.bind(("127.0.0.1", world.port))
    server.listen(16)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    seen.append(conn.recv(1 << 20))
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    try:
        proc = subprocess.run([str(world.binary), "-p", f"{SIMPLE} #sc:plain"], env=world.env, cwd=world.project,
                              capture_output=True, text=True, timeout=120)
    finally:
        server.close()
    assert not any(b"sk-ant-e2e-fake" in s or b"/v1/messages" in s for s in seen), seen
    assert f"port {world.port}" in proc.stdout + proc.stderr, (proc.stdout, proc.stderr)
    assert "another program" in world.hook_log()
    assert world.gateway_pids() == [] and world.experiences() == []
