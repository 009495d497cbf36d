"""Every request is attributed to the turn that caused it: sub-agents to the turn that launched them,
compaction to its own line; and a rewrite of the cached prefix is measured on the turn that paid it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artibot.gateway.server import GatewayConfig
from artibot.hookpath.store import hookio
from experiments.cache_model import PromptCache, effort_of
from tests.gateway.servers import FakeUpstream, gateway, usage_sse
from tests.gateway.test_server import SID, _post, _spool

MODEL = "claude-opus-5-5"
LINE = {"system1": "artibot router: System 1 (fast) — x. Answer directly.",
        "system2": "artibot router: System 2 (deliberate) — y. Plan before acting."}
COMPACT = "CRITICAL: Respond with TEXT ONLY. Your task is to create a detailed summary of the conversation so far"


def _turn(root: Path, system: str, turn_id: str) -> None:
    with hookio.Spool(str(root), SID).edit(create=True) as doc:
        if isinstance(doc.get("turn"), dict):
            doc["done"] = doc.pop("turn")
        doc["turn"] = {"id": turn_id, "decision": {"system": system}, "input": "x", "started_ms": 1}


def _request(messages: list[dict]) -> dict:
    return {"model": MODEL, "max_tokens": 100, "stream": True, "output_config": {"effort": "medium"},
            "tools": [{"name": "Bash", "input_schema": {"type": "object"}}],
            "system": [{"type": "text", "text": "s" * 8000, "cache_control": {"type": "ephemeral"}}],
            "messages": messages,
            "metadata": {"user_id": json.dumps({"device_id": "d", "account_uuid": "", "session_id": SID})}}


@pytest.fixture
def api(tmp_path: Path):
    cache = PromptCache(clock=lambda: 0.0)
    efforts: list[str] = []

    def answer(body: dict):
        efforts.append(effort_of(body))
        return "sse", usage_sse(body.get("model", MODEL), {**cache.usage(body), "output_tokens": 50})

    with FakeUpstream(answer) as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url, port=0)) as gw:
            yield up, gw.port, efforts


def test_a_sub_agent_stays_with_the_turn_that_launched_it_and_runs_at_its_effort(api, tmp_path) -> None:
    up, port, efforts = api
    agent = {"x-claude-code-agent-id": "a98d72744f857be53"}
    inner = [{"role": "user", "content": "#sc:inner check"},
             {"role": "system", "content": "deferred tools", "output_config": {"effort": "medium"}}]
    _turn(tmp_path, "system1", "exp_1")
    _post(port, _request([{"role": "user", "content": "run an audit"},
                          {"role": "system", "content": LINE["system1"]}]))
    _post(port, _request(inner), headers=agent)  # launched by the System 1 turn
    _turn(tmp_path, "system2", "exp_2")  # the next turn opens while the agent still runs
    _post(port, _request(inner + [{"role": "assistant", "content": "step"},
                                  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                                                "content": "x"}]}]), headers=agent)
    assert efforts == ["low", "low", "low"]
    doc = _spool(tmp_path)
    assert doc["done"]["usage"]["requests"] == 3 and "usage" not in doc["turn"]
    assert doc["gateway"]["agents"]["a98d72744f857be53"]["turn"] == "exp_1"


def test_compaction_runs_at_the_clients_effort_on_its_own_line(api, tmp_path) -> None:
    up, port, efforts = api
    _turn(tmp_path, "system1", "exp_1")
    turn = [{"role": "user", "content": "fix the typo"}, {"role": "system", "content": LINE["system1"]}]
    _post(port, _request(turn))
    _post(port, _request(turn + [{"role": "assistant", "content": "done"},
                                 {"role": "user", "content": [{"type": "text", "text": COMPACT}]}]))
    assert efforts == ["low", "medium"]
    usage = _spool(tmp_path)["turn"]["usage"]
    assert usage["requests"] == 1 and usage["housekeeping"]["requests"] == 1
    assert usage["housekeeping"]["cost_usd"] > 0 and usage["cost_usd"] > 0


def test_a_turn_whose_first_request_rewrites_the_prefix_records_it(tmp_path) -> None:
    answers = iter([{"input_tokens": 10, "cache_creation_input_tokens": 3000, "cache_read_input_tokens": 0},
                    {"input_tokens": 10, "cache_creation_input_tokens": 200, "cache_read_input_tokens": 3000},
                    {"input_tokens": 10, "cache_creation_input_tokens": 3400, "cache_read_input_tokens": 0}])
    with FakeUpstream(lambda body: ("sse", usage_sse(MODEL, {**next(answers), "output_tokens": 5}))) as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url, port=0)) as gw:
            _turn(tmp_path, "system2", "exp_1")
            _post(gw.port, _request([{"role": "user", "content": "a"}]))
            _post(gw.port, _request([{"role": "user", "content": "a"}]))
            _turn(tmp_path, "system1", "exp_2")
            _post(gw.port, _request([{"role": "user", "content": "b"}]))
    doc = _spool(tmp_path)
    assert "rewrite_tokens" not in doc["done"]["usage"]  # the second request wrote only what it added
    # 3410 tokens sent, 200 more than before: 3400 written, 3200 of them already cached once
    assert doc["turn"]["usage"]["rewrite_tokens"] == 3200
    assert doc["turn"]["usage"]["rewrite_cost_usd"] == pytest.approx(3200 * (6.25 - 0.5) / 1e6)


def test_a_session_state_of_the_wrong_shape_leaves_the_request_as_the_client_sent_it(api, tmp_path) -> None:
    up, port, efforts = api
    _turn(tmp_path, "system1", "exp_1")
    with hookio.Spool(str(tmp_path), SID).edit(create=False) as doc:
        doc["gateway"] = {"cached_tokens": "many", "last": [], "turns": {"system1": "x"}, "model": 3}
    body = _request([{"role": "user", "content": "a"}, {"role": "system", "content": LINE["system1"]}])
    response, _ = _post(port, body)
    assert response.status == 200 and efforts == ["medium"]  # not rewritten: the client's effort
    assert up.seen[-1]["body"] == body and "usage" not in _spool(tmp_path)["turn"]


AGENT = {"x-claude-code-agent-id": "a98d72744f857be53"}
INNER = [{"role": "user", "content": "#sc:inner check"},
         {"role": "system", "content": "deferred tools", "output_config": {"effort": "medium"}}]
LATER = INNER + [{"role": "assistant", "content": "step"},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]}]


def test_a_sub_agent_whose_turn_is_queued_for_the_log_keeps_its_effort_and_its_bill(api, tmp_path) -> None:
    """The next prompt makes the launching turn final: a record in the spool's queue, which keeps
    no profile. The agent's binding keeps its own."""
    from artibot.hookpath.turns import turn as turns

    up, port, efforts = api
    _turn(tmp_path, "system1", "exp_1")
    _post(port, _request([{"role": "user", "content": "run an audit"}, {"role": "system", "content": LINE["system1"]}]))
    _post(port, _request(INNER), headers=AGENT)
    with hookio.Spool(str(tmp_path), SID).edit(create=False) as doc:  # as the next prompt's hook does
        record = turns.experience(doc.pop("turn"), outcome="success", reason="done", now=2, session_id=SID,
                                  closed_by="next-prompt")
        assert "gateway" not in record
        doc["queue"] = [record]
        doc["turn"] = {"id": "exp_2", "decision": {"system": "system2"}, "input": "y", "started_ms": 3}
    _post(port, _request(LATER), headers=AGENT)
    assert efforts == ["low", "low", "low"]
    doc = _spool(tmp_path)
    [queued] = doc["queue"]
    assert queued["usage"]["requests"] == 3 and queued["usage"]["agents"]["requests"] == 2
    assert "usage" not in doc["turn"]


@pytest.fixture
def haiku_api(tmp_path: Path):
    """The gateway with System 1 on Haiku 4.5 and no rewrite allowed (a System 1 turn keeps the
    session's model); ``sent`` keeps every body that went upstream."""
    from artibot.gateway.profiles import Profile, Profiles

    cache = PromptCache(clock=lambda: 0.0)
    sent: list[dict] = []

    def answer(body: dict):
        sent.append(body)
        return "sse", usage_sse(body.get("model", MODEL), {**cache.usage(body), "output_tokens": 50})

    profiles = Profiles(system1=Profile("low", "claude-haiku-4-5"), switch_max_cached_tokens=1)
    with FakeUpstream(answer) as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url, port=0, profiles=profiles)) as gw:
            yield gw.port, sent


def test_a_kept_system1_turn_sends_its_sub_agents_to_system1s_model_until_one_fails_there(
        haiku_api, tmp_path) -> None:
    from experiments.cache_model import markers
    from artibot.hookpath.store import gateway_state

    port, sent = haiku_api
    _turn(tmp_path, "system2", "exp_1")
    design = [{"role": "user", "content": "design it"}, {"role": "system", "content": LINE["system2"]},
              {"role": "assistant", "content": "designed"}]
    _post(port, _request(design[:2]))
    _turn(tmp_path, "system1", "exp_2")
    _post(port, _request(design + [{"role": "user", "content": "run an audit"},
                                   {"role": "system", "content": LINE["system1"]}]))
    _post(port, _request(INNER), headers=AGENT)
    main, agent = sent[1], sent[2]
    assert (main["model"], effort_of(main)) == (MODEL, "low")  # the switch did not pay: kept, at low
    assert (agent["model"], effort_of(agent), markers(agent)) == ("claude-haiku-4-5", "low", 0)
    gateway_state.note_agent_tool(str(tmp_path), SID, AGENT["x-claude-code-agent-id"], failed=True)
    _post(port, _request(INNER), headers={"x-claude-code-agent-id": "second"})
    again = sent[3]
    # a sub-agent failed on Haiku: the next one stays on the turn's model, at the turn's effort
    assert (again["model"], effort_of(again)) == (MODEL, "low")
    bound = _spool(tmp_path)["gateway"]["agents"]["second"]["gateway"]
    assert "failed their last tool call on claude-haiku-4-5" in bound["why"], bound
    usage = _spool(tmp_path)["turn"]["usage"]
    assert usage["requests"] == 3 and usage["agents"]["requests"] == 2
    assert usage["agents"]["models"] == ["claude-haiku-4-5", MODEL]
