"""What a route changes in the real Claude Code client's requests where the plain case does not
reach: sub-agents and model switches.

Each test runs the real client (2.1.331) through the gateway against the fake API that caches
and reads effort as the Messages API does (:mod:`experiments.cache_model`: the top level
unless a per-message marker applies to the newest input; a marker on a model without
per-message effort is refused with a 400). Exploration is off, so the routes are certain.

* a background sub-agent launched by a System 1 turn that is still running after the next
  (System 2) prompt: its later requests keep System 1's effort and are billed to the turn that
  launched it, which by then waits in the spool's queue for the log;
* a System 1 turn whose model switch did not pay (``switchMaxCachedTokens`` below the
  session's prefix): the main loop stays on the session's model at ``low``, and its
  sub-agent, a conversation of its own, goes to the System 1 model at ``low`` and is billed
  to the turn;
* a turn switched to a model without per-message effort: the request carries none of the
  client's markers and is answered at System 1's effort.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from experiments.cache_model import PromptCache, effort_of, markers
from tests.e2e.fake_api import text, tool
from tests.e2e.test_gateway import HARD, SIMPLE, GatewayWorld, _free_port

pytestmark = pytest.mark.slow

HAIKU = "claude-haiku-4-5"
GREEDY = {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}


def _world(tmp_path: Path, binary: Path, scenarios: dict, profiles: dict | None = None) -> GatewayWorld:
    world = GatewayWorld(tmp_path, binary, scenarios, cache=PromptCache()).__enter__()
    world.port = _free_port()
    world.data.mkdir()
    gateway: dict = {"server": {"upstream": world.api.url, "port": world.port}}
    if profiles:
        gateway["profiles"] = profiles
    (world.data / "artibot.config.json").write_text(json.dumps({**GREEDY, "gateway": gateway}))
    world.artibot("install", "claude-code", "--gateway", "--port", str(world.port))
    return world


def _close(world: GatewayWorld) -> None:
    world.stop_gateways()
    world.__exit__(None, None, None)
    assert world.api.refused == [], world.api.refused
    assert "Error" not in world.hook_log(), world.hook_log()


def test_a_background_sub_agent_outliving_its_system1_turn_keeps_its_effort_and_its_bill(
        tmp_path: Path, binary: Path) -> None:
    second_prompt = threading.Event()

    def held(request: dict) -> list:
        # the sub-agent's first answer waits until the next prompt's turn has sent its request
        assert second_prompt.wait(120), "the second prompt's request never came"
        return [tool("Bash", command="echo audited", description="audit")]

    def hard(request: dict) -> list:
        second_prompt.set()
        return [text("Designed.")]

    scenarios = {
        "sub": [[tool("Agent", description="audit", prompt="#sc:inner check the README",
                      subagent_type="general-purpose")], [text("Audit started.")]],
        "inner": [held, [text("inner done")]],
        "hard": [hard],
    }
    world = _world(tmp_path, binary, scenarios)
    try:
        world.conversation(f"{SIMPLE} with a sub-agent #sc:sub", f"{HARD} #sc:hard",
                           extra=("--allowedTools", "Bash,Agent"), timeout=300)
        records = world.experiences()
    finally:
        _close(world)
    answered = world.api.answered
    launcher = next(r for r in records if r["input"].startswith(f"{SIMPLE} with a sub-agent"))
    assert launcher["routed_to"] == "system1"
    agent = [a for a in answered if a["agent"]]
    assert len(agent) >= 2, answered  # its first request before the second prompt, the rest after
    # as the API reads each request: every one of the sub-agent's at System 1's effort
    assert [a["effort"] for a in agent] == ["low"] * len(agent), answered
    # and every one of them on the launching turn's bill, none lost
    own = [a for a in answered if a["scenario"] in ("sub", "inner")]
    assert launcher["usage"]["requests"] == len(own), (launcher["usage"], answered)
    assert launcher["usage"]["agents"]["requests"] == len(agent), launcher["usage"]


def test_a_system1_turn_that_kept_the_sessions_model_sends_its_sub_agent_to_the_system1_model(
        tmp_path: Path, binary: Path) -> None:
    scenarios = {
        "plain": [[text("Designed.")]],
        "sub": [[tool("Agent", description="audit", prompt="#sc:inner check the README",
                      subagent_type="general-purpose")], [text("Audit started.")]],
        "inner": [[tool("Bash", command="echo audited", description="audit")], [text("inner done")]],
    }
    # any cached prefix is too long to rewrite: the main loop keeps the session's model
    profiles = {"system1": {"effort": "low", "model": HAIKU}, "switchMaxCachedTokens": 1}
    world = _world(tmp_path, binary, scenarios, profiles)
    try:
        world.conversation(f"{HARD} #sc:plain", f"{SIMPLE} with a sub-agent #sc:sub",
                           extra=("--allowedTools", "Bash,Agent"), timeout=300)
        records = world.experiences()
    finally:
        _close(world)
    answered = world.api.answered
    first, launcher = records
    assert (first["routed_to"], launcher["routed_to"]) == ("system2", "system1")
    session_model = answered[0]["model"]
    main = [a for a in answered if a["agent"] is None and a["scenario"] == "sub"]
    agent = [a for a in answered if a["agent"]]
    assert main and agent, answered
    # the sub-agent's report comes back as a notification the client answers on its own, at its
    # own effort (it is nobody's prompt: not routed), and on the turn's bill as any of its requests
    routed = [a for a in main if not a["notification"]]
    assert {(a["model"], a["effort"]) for a in routed} == {(session_model, "low")}, [
        {k: a[k] for k in ("scenario", "effort", "model", "agent", "notification")} for a in answered]
    assert launcher["usage"]["why"].startswith(f"kept {session_model}"), launcher["usage"]
    assert {(a["model"], a["effort"]) for a in agent} == {(HAIKU, "low")}, agent
    assert launcher["usage"]["requests"] == len(main) + len(agent)
    assert HAIKU in launcher["usage"]["models"]
    assert launcher["usage"]["agents"]["requests"] == len(agent)
    assert launcher["usage"]["agents"]["models"] == [HAIKU]
    report = json.loads(world.artibot("report", "cost", "--json").stdout)["cache"]["agents"]
    assert (report["requests"], report["models"]) == (len(agent), [HAIKU])
    assert f"sub-agents: {len(agent)} request(s)" in world.artibot("report", "cost").stdout


def test_a_turn_switched_to_a_model_without_per_message_effort_is_answered_at_system1s_effort(
        tmp_path: Path, binary: Path) -> None:
    scenarios = {"read": [[tool("Bash", command="echo read", description="read")], [text("Fixed.")]]}
    world = _world(tmp_path, binary, scenarios, {"system1": {"effort": "low", "model": HAIKU}})
    try:
        world.claude("-p", f"{SIMPLE} #sc:read", "--allowedTools", "Bash")
        [record] = world.experiences()
    finally:
        _close(world)
    sent = [r for _, name, r in world.api.requests if name == "read"]
    assert record["routed_to"] == "system1" and {r["model"] for r in sent} == {HAIKU}
    # none refused (a marker on this model is a 400, which the client answers by sending the
    # request again without its markers: one request more, and a failed one in its log)
    assert len(sent) == 2, [markers(r) for r in sent]
    # the client's own markers are gone, the top level carries the route
    assert [markers(r) for r in sent] == [0, 0]
    assert [effort_of(r) for r in sent] == ["low", "low"]
    assert [a["effort"] for a in world.api.answered if a["scenario"] == "read"] == ["low", "low"]
    assert record["usage"]["requests"] == 2 and record["usage"]["models"] == [HAIKU]
