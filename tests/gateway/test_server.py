"""The real gateway between a client (http.client) and a fake upstream, each on loopback."""

from __future__ import annotations

import http.client
import json
import socket
from pathlib import Path

import pytest

from artibot.gateway.profiles import Profile, Profiles
from artibot.gateway.server import GatewayConfig
from artibot.hookpath.store import hookio
from tests.gateway.servers import FakeUpstream, gateway, usage_sse

SID = "9f1c2d3e-0000-4000-8000-000000000001"


def _open_turn(root: Path, system: str, turn_id: str = "exp_0001", sid: str = SID) -> None:
    with hookio.Spool(str(root), sid).edit(create=True) as doc:
        doc["turn"] = {"id": turn_id, "decision": {"system": system}, "input": "x", "started_ms": 1}


def _spool(root: Path, sid: str = SID) -> dict:
    return hookio.Spool(str(root), sid).read()


def _body(sid: str | None = SID, *, tools: bool = True, stream: bool = False, model: str = "claude-opus-4-5") -> dict:
    body = {"model": model, "max_tokens": 1000, "stream": stream, "output_config": {"effort": "medium"},
            "thinking": {"type": "adaptive"},
            "messages": [{"role": "user", "content": "fix the typo"},
                         {"role": "system", "content": "ctx", "output_config": {"effort": "medium"}}]}
    if tools:
        body["tools"] = [{"name": "Bash", "input_schema": {"type": "object"}}]
    if sid is not None:
        body["metadata"] = {"user_id": json.dumps({"device_id": "d", "account_uuid": "", "session_id": sid})}
    return body


def _post(port: int, body: bytes | dict, path: str = "/v1/messages?beta=true", headers: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", path, body=raw, headers={"content-type": "application/json", "x-api-key": "sk-ant-test",
                                                 "anthropic-version": "2023-06-01", **(headers or {})})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response, data


@pytest.fixture
def world(tmp_path: Path):
    def make(answer=None, profiles: Profiles | None = None, delay: float = 0.0):
        up = FakeUpstream(answer, delay=delay).__enter__()
        config = GatewayConfig(root=str(tmp_path), upstream=up.url, openai_upstream=up.url + "/openai-v1", port=0,
                               profiles=profiles or Profiles())
        gw = gateway(config).__enter__()
        made.append((up, gw))
        return up, gw.port

    made: list = []
    yield make
    for up, gw in made:
        gw.__exit__(None, None, None)
        up.__exit__(None, None, None)


def test_a_request_of_no_routed_turn_goes_through_byte_for_byte(world, tmp_path):
    up, port = world()
    raw = json.dumps(_body()).encode() + b"  "  # odd whitespace: the exact bytes must arrive
    response, data = _post(port, raw, headers={"x-custom": "kept"})
    assert response.status == 200
    seen = up.seen[0]
    assert seen["raw"] == raw and seen["path"] == "/v1/messages?beta=true"
    assert seen["headers"]["x-api-key"] == "sk-ant-test" and seen["headers"]["x-custom"] == "kept"
    assert seen["headers"]["anthropic-version"] == "2023-06-01"
    assert seen["headers"]["Accept-Encoding"] == "identity"  # what http.client sent, not aiohttp's gzip default
    assert json.loads(data)["usage"] == {"input_tokens": 10, "output_tokens": 5}


def test_on_a_model_without_per_message_effort_system1_lowers_the_top_level_effort_only(world, tmp_path):
    up, port = world()
    _open_turn(tmp_path, "system1")
    _post(port, _body())
    sent = up.seen[-1]["body"]
    assert sent["output_config"] == {"effort": "low"}
    assert sent["messages"] == _body()["messages"]  # what was already sent is never rewritten
    assert sent["model"] == "claude-opus-4-5" and sent["thinking"] == {"type": "adaptive"}
    assert "mid-conversation-output-config-2026-07-01" not in up.seen[-1]["headers"].get("anthropic-beta", "")
    _open_turn(tmp_path, "system2", turn_id="exp_0002")
    raw = json.dumps(_body()).encode()
    _post(port, raw)
    assert up.seen[-1]["raw"] == raw  # back to the client's own effort: the client's bytes


def test_on_a_5x_model_system1_sets_the_turns_marker_and_merges_the_beta(world, tmp_path):
    up, port = world()
    _open_turn(tmp_path, "system1")
    body = _body(model="claude-opus-5-5")
    body["messages"][1]["content"] = "UserPromptSubmit hook additional context: artibot router: System 1 (fast) — x."
    _post(port, body, headers={"anthropic-beta": "claude-code-20250219,effort-2025-11-24"})
    sent = up.seen[-1]
    assert sent["body"]["output_config"] == {"effort": "medium"}  # the top level, and so the cache, untouched
    assert sent["body"]["messages"][1]["output_config"] == {"effort": "low"}
    assert sent["headers"]["anthropic-beta"] == \
        "claude-code-20250219,effort-2025-11-24,mid-conversation-output-config-2026-07-01"
    assert _spool(tmp_path)["turn"]["gateway"]["effort"] == "markers"


def test_background_calls_and_requests_without_a_session_are_untouched(world, tmp_path):
    up, port = world()
    _open_turn(tmp_path, "system1")
    for body in (_body(tools=False), _body(sid=None), _body(sid="another-session")):
        raw = json.dumps(body).encode()
        _post(port, raw)
        assert up.seen[-1]["raw"] == raw
    assert "usage" not in _spool(tmp_path)["turn"]


def test_usage_of_a_streamed_answer_is_recorded_on_the_turn_and_the_stream_is_byte_identical(world, tmp_path):
    usage = {"input_tokens": 1200, "output_tokens": 300, "cache_creation_input_tokens": 2000,
             "cache_read_input_tokens": 50_000}
    chunks = usage_sse("claude-sonnet-4-5", usage, chunks=5)
    up, port = world(lambda body: ("sse", chunks))
    _open_turn(tmp_path, "system1")
    response, data = _post(port, _body(stream=True))
    assert data == b"".join(chunks)
    assert response.getheader("Content-Type") == "text/event-stream"
    turn = _spool(tmp_path)["turn"]
    got = turn["usage"]
    assert {k: got[k] for k in usage} == usage
    expected = (1200 * 3 + 300 * 15 + 2000 * 3.75 + 50_000 * 0.3) / 1e6
    assert got["cost_usd"] == pytest.approx(expected)
    assert got["requests"] == 1 and got["models"] == ["claude-sonnet-4-5"]
    assert got["profile"] == {"effort": "low", "model": None}
    assert turn["gateway"]["route"] == "system1"
    _post(port, _body(stream=True))  # a second request of the same turn adds up
    assert _spool(tmp_path)["turn"]["usage"]["input_tokens"] == 2400


def test_every_request_of_a_turn_keeps_the_model_chosen_at_its_first(world, tmp_path):
    profiles = Profiles(system1=Profile(effort="low", model="claude-haiku-4-5"), system2=Profile())
    up, port = world(lambda body: ("sse", usage_sse(body["model"], {"input_tokens": 5, "output_tokens": 5,
                                                                    "cache_read_input_tokens": 90_000})),
                     profiles=profiles)
    _open_turn(tmp_path, "system1")
    _post(port, _body(stream=True))  # the session's first routed turn: switch
    _post(port, _body(stream=True))
    assert [s["body"]["model"] for s in up.seen] == ["claude-haiku-4-5"] * 2
    assert _spool(tmp_path)["turn"]["gateway"]["why"] == "the session's first routed turn"
    # A System 2 turn goes back to the client's model whatever the cache; the System 1 turn
    # after it would write a 90k-token prefix into Haiku's cache and, on the way back, into
    # Opus's again, for less than that saves: it stays on the model the session is on.
    _open_turn(tmp_path, "system2", turn_id="exp_0002")
    _post(port, _body(stream=True))
    assert up.seen[-1]["body"]["model"] == "claude-opus-4-5"
    _open_turn(tmp_path, "system1", turn_id="exp_0003")
    _post(port, _body(stream=True))
    assert up.seen[-1]["body"]["model"] == "claude-opus-4-5"
    why = _spool(tmp_path)["turn"]["gateway"]["why"]
    assert why.startswith("kept claude-opus-4-5 at medium: writing 90000 cached tokens again costs $"), why


def test_a_request_for_another_host_name_is_refused(world, tmp_path):
    up, port = world()
    response, data = _post(port, _body(), headers={"Host": "evil.example:80"})
    assert response.status == 403 and json.loads(data)["type"] == "error"
    assert up.seen == []


def test_a_body_that_does_not_parse_is_forwarded_unchanged(world, tmp_path):
    up, port = world(lambda body: ("status", (400, b'{"type":"error","error":{"type":"invalid_request_error"}}')))
    _open_turn(tmp_path, "system1")
    response, data = _post(port, b'{"model": "x", "messages": [')
    assert response.status == 400 and up.seen[0]["raw"] == b'{"model": "x", "messages": ['
    assert b"invalid_request_error" in data


def test_other_paths_and_count_tokens_are_forwarded_unchanged(world, tmp_path):
    up, port = world(lambda body: ("json", {"input_tokens": 3}))
    _open_turn(tmp_path, "system1")
    raw = json.dumps(_body()).encode()
    _post(port, raw, path="/v1/messages/count_tokens?beta=true")
    assert up.seen[-1]["raw"] == raw and up.seen[-1]["path"] == "/v1/messages/count_tokens?beta=true"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/v1/models", headers={"x-api-key": "k"})
    assert conn.getresponse().status == 200
    assert up.seen[-1]["method"] == "GET" and up.seen[-1]["path"] == "/v1/models"


def test_an_upstream_that_drops_mid_stream_cuts_the_client_and_the_gateway_goes_on(world, tmp_path):
    chunks = usage_sse("m", {"input_tokens": 1, "output_tokens": 1}, chunks=4)
    answers = iter([("sse", chunks[:2] + [None]), ("json", {"usage": {"input_tokens": 1, "output_tokens": 1}})])
    up, port = world(lambda body: next(answers))
    _open_turn(tmp_path, "system1")
    with pytest.raises((http.client.IncompleteRead, ConnectionError, http.client.RemoteDisconnected)):
        _post(port, _body(stream=True))
    response, _ = _post(port, _body())
    assert response.status == 200


def test_a_dead_upstream_is_an_api_error_not_a_hang(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    config = GatewayConfig(root=str(tmp_path), upstream=f"http://127.0.0.1:{dead}", port=0, connect_timeout_s=2)
    with gateway(config) as gw:
        response, data = _post(gw.port, _body())
    assert response.status == 502
    assert json.loads(data)["error"]["type"] == "api_error"


def test_nothing_of_a_request_reaches_the_data_home(world, tmp_path):
    up, port = world(lambda body: ("sse", usage_sse("m", {"input_tokens": 1, "output_tokens": 1})))
    _open_turn(tmp_path, "system1")
    secret = "sk-ant-api03-" + "Q" * 40
    _post(port, {**_body(stream=True), "messages": [{"role": "user", "content": f"my key {secret}"}]},
          headers={"x-api-key": secret})
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


def test_a_body_over_the_limit_is_refused_with_413_and_the_gateway_goes_on(tmp_path):
    with FakeUpstream() as up:
        config = GatewayConfig(root=str(tmp_path), upstream=up.url, port=0, max_body=10_000)
        with gateway(config) as gw:
            response, _ = _post(gw.port, b"x" * 20_000)
            assert response.status == 413 and up.seen == []
            response, _ = _post(gw.port, _body())
            assert response.status == 200


def test_each_request_is_seen_once_with_its_route_tokens_and_cost_and_nothing_of_its_headers(tmp_path):
    usage = {"input_tokens": 1200, "output_tokens": 300, "cache_creation_input_tokens": 2000,
             "cache_read_input_tokens": 50_000}
    chunks = usage_sse("claude-sonnet-4-5", usage, chunks=5)
    seen: list = []
    with FakeUpstream(lambda body: ("sse", chunks)) as up:
        config = GatewayConfig(root=str(tmp_path), upstream=up.url, port=0, observe=seen.append)
        with gateway(config) as gw:
            _open_turn(tmp_path, "system1")
            _post(gw.port, _body(stream=True))                  # routed: System 1, its tokens and cost
            _post(gw.port, _body(sid="another-session", stream=True))  # a session with no turn: not routed
            _post(gw.port, b"{}", headers={"Origin": "https://example.com"})  # refused: a browser
    from artibot.cli.gateway_main import request_line
    assert [(s.method, s.path, s.status) for s in seen] == \
        [("POST", "/v1/messages", 200), ("POST", "/v1/messages", 200), ("POST", "/v1/messages", 403)]
    routed, other, refused = seen
    assert (routed.route, routed.kind, routed.effort, routed.model) == ("system1", "turn", "low", "claude-sonnet-4-5")
    assert routed.cost_usd == pytest.approx((1200 * 3 + 300 * 15 + 2000 * 3.75 + 50_000 * 0.3) / 1e6)
    assert routed.usage is not None and routed.usage.cache_read_input_tokens == 50_000
    assert other.route is None and other.usage is None and refused.route is None
    line = request_line(routed, "en")
    assert "System 1, effort low, claude-sonnet-4-5 · 3,200 in + 50,000 cached, 300 out · $0.0306" in line
    assert request_line(other, "en").endswith("· not routed")
    assert "sk-ant-test" not in " ".join(request_line(s, "en") + request_line(s, "ko") for s in seen)
