"""The route saves money in the real client, prompt cache included.

The same 12-turn session of the real Claude Code — System 1 and System 2 turns in turn,
each with a tool call that reads a 20 kB file, so the conversation passes 60k tokens — is
run twice against a fake API that caches as the real one does (:mod:`experiments.cache_model`):
once straight to the API, once through the gateway. Cost and cache figures are read from
what the fake API reported, not from the gateway's own records, and priced at the shipped
Opus prices.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artibot.gateway.price_table import PriceTable
from artibot.gateway.usage import Usage
from experiments.cache_model import PromptCache
from tests.e2e.fake_api import text, tool
from tests.e2e.harness import World
from tests.e2e.test_gateway import HARD, SIMPLE, GatewayWorld, _free_port

pytestmark = pytest.mark.slow

TURNS = 12
SCENARIOS = {f"read{n}": [[tool("Bash", command=f"cat notes{n}.txt", description="read the notes")], [text("Done.")]]
             for n in range(TURNS)}
"""Each turn reads its own 23 kB file (Claude Code does not send the same output twice)."""


def _prompts() -> list[str]:
    """System 1 and System 2 in turn."""
    return [f"{SIMPLE if n % 2 == 0 else HARD} (part {n}) #sc:read{n}" for n in range(TURNS)]


def _session(world: World) -> list[dict]:
    for n in range(TURNS):
        (world.project / f"notes{n}.txt").write_text("".join(
            f"line {i} of part {n}: the rate limiter keeps a token bucket per client and refills it every second.\n"
            for i in range(230)))
    world.conversation(*_prompts(), extra=("--allowedTools", "Bash"), timeout=600)
    return world.api.answered


def _figures(answered: list[dict]) -> dict[str, float]:
    table = PriceTable.shipped()
    usage = [a["usage"] for a in answered]
    read = sum(u["cache_read_input_tokens"] for u in usage)
    prompt = sum(u["input_tokens"] + u["cache_read_input_tokens"] + u["cache_creation_input_tokens"] for u in usage)
    cost = sum(table.cost(a["model"], Usage(**a["usage"])) for a in answered)
    return {"read_share": read / prompt, "cost": cost, "written": sum(u["cache_creation_input_tokens"] for u in usage),
            "largest": max(u["input_tokens"] + u["cache_read_input_tokens"] + u["cache_creation_input_tokens"]
                           for u in usage)}


def test_a_routed_session_costs_less_through_the_gateway_and_keeps_the_cache(tmp_path: Path, binary: Path) -> None:
    config = {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}
    (tmp_path / "direct").mkdir()
    with World(tmp_path / "direct", binary, SCENARIOS, cache=PromptCache()) as direct:
        direct.data.mkdir()
        (direct.data / "artibot.config.json").write_text(json.dumps(config))
        direct.install(capture=False)
        plain = _session(direct)
        plain_routes = [r["routed_to"] for r in direct.experiences()]

    (tmp_path / "gateway").mkdir()
    world = GatewayWorld(tmp_path / "gateway", binary, SCENARIOS, cache=PromptCache()).__enter__()
    try:
        world.port = _free_port()
        world.data.mkdir()
        (world.data / "artibot.config.json").write_text(json.dumps(
            {**config, "gateway": {"server": {"upstream": world.api.url, "port": world.port}}}))
        world.artibot("install", "claude-code", "--gateway", "--port", str(world.port))
        routed = _session(world)
        records = world.experiences()
    finally:
        world.stop_gateways()
        world.__exit__(None, None, None)
    assert world.api.refused == [] and "Error" not in world.hook_log(), world.hook_log()

    routes = [r["routed_to"] for r in records]
    assert routes == plain_routes == ["system1", "system2"] * (TURNS // 2)
    before, after = _figures(plain), _figures(routed)
    assert before["largest"] > 60_000 and after["largest"] > 60_000  # a long conversation, as in real use
    # the cache is read as much as without the gateway: no switch wrote the conversation again
    assert abs(after["read_share"] - before["read_share"]) <= 0.02, (before, after)
    assert after["cost"] < before["cost"], (before, after)
    print(json.dumps({"without the gateway": before, "through the gateway": after}))  # the figures, with -s
    # System 1 turns were answered at low effort, System 2 at the client's
    main = [a for a in routed if a["agent"] is None]
    assert {a["effort"] for a in main} == {"low", "medium"}
    assert [a["effort"] for a in plain] == ["medium"] * len(plain)
    per_turn = [a["effort"] for a in main]
    lows = sum(1 for e in per_turn if e == "low")
    assert lows == sum(r["usage"]["requests"] for r in records if r["routed_to"] == "system1"), per_turn
    assert all(r["usage"]["profile"]["effort"] == ("low" if r["routed_to"] == "system1" else None) for r in records)
    report = json.loads(world.artibot("report", "cost", "--json").stdout)
    switched = report["cache"]["switched"]
    assert switched["turns"] == TURNS - 1  # every turn changed the effort ...
    assert switched["rewrite_cost_usd"] < 0.01 * report["total_usd"], switched  # ... and rewrote nothing


AGENT_SCENARIOS = {
    "sub": [[tool("Agent", description="audit", prompt="#sc:inner check the README", subagent_type="general-purpose")],
            [text("Audit done.")]],
    "inner": [[tool("Bash", command="echo audited", description="audit")], [text("inner done")]],
    "plain": [[text("Fixed.")]],
}


def test_a_sub_agent_is_billed_to_the_turn_that_launched_it_and_compaction_to_its_own_line(
        tmp_path: Path, binary: Path) -> None:
    world = GatewayWorld(tmp_path, binary, AGENT_SCENARIOS, cache=PromptCache()).__enter__()
    try:
        world.port = _free_port()
        world.data.mkdir()
        (world.data / "artibot.config.json").write_text(json.dumps(
            {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}},
             "gateway": {"server": {"upstream": world.api.url, "port": world.port}}}))
        world.artibot("install", "claude-code", "--gateway", "--port", str(world.port))
        # a System 1 turn that launches a sub-agent (Claude Code runs it in the background)
        world.conversation(f"{SIMPLE} with a sub-agent #sc:sub", extra=("--allowedTools", "Bash,Agent"), timeout=300)
        agent_session = len(world.api.answered)
        # another session: a turn, /compact, a turn
        world.conversation(f"{SIMPLE} #sc:plain", "/compact", f"{HARD} #sc:plain", timeout=300)
        records = world.experiences()
    finally:
        world.stop_gateways()
        world.__exit__(None, None, None)
    answered = world.api.answered
    agent = [a for a in answered[:agent_session] if a["agent"]]
    compaction = [a for a in answered[agent_session:] if a["compaction"]]
    assert agent and compaction, answered
    # every request is on exactly one line: a turn's, or the session's housekeeping
    housekeeping = sum((r.get("usage") or {}).get("housekeeping", {}).get("requests", 0) for r in records)
    assert sum((r.get("usage") or {}).get("requests", 0) for r in records) + housekeeping == len(answered)
    # the sub-agent ran at its launching System 1 turn's effort, and was billed to that turn
    [launcher] = [r for r in records if r["input"].startswith(f"{SIMPLE} with a sub-agent")]
    assert launcher["routed_to"] == "system1"
    assert {a["effort"] for a in agent} == {"low"}
    assert launcher["usage"]["requests"] >= len(agent) + 1, (launcher["usage"], answered)
    # compaction ran at the client's own effort, on a line of its own, in no route's cost
    assert {a["effort"] for a in compaction} == {"medium"}
    assert housekeeping == len(compaction)
    second = [r for r in records if r["session_id"] != launcher["session_id"]]
    assert sorted(r["usage"]["requests"] for r in second) == [1, 1]  # each turn's own answer only
    report = json.loads(world.artibot("report", "cost", "--json").stdout)
    assert report["cache"]["housekeeping"]["requests"] == len(compaction)
