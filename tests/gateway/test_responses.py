"""Codex CLI's Responses API through the real gateway, against a fake upstream whose prompt cache
behaves as OpenAI documents it (:mod:`experiments.responses_cache`)."""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path

import pytest

from artibot.gateway.price_table import PriceTable
from artibot.gateway.usage import Usage
from artibot.hookpath.store import hookio
from experiments.responses_cache import PromptCache, effort_of, takes_updates
from artibot.gateway.server import GatewayConfig
from tests.gateway.servers import FakeUpstream, gateway, responses_sse
from tests.gateway.test_server import SID, _spool, world  # noqa: F401

PATH = "/openai/responses"
UPDATE = {"type": "configuration_update", "reasoning": {"effort": "low"}}
PREFIX = [{"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "x" * 9000}]}]
"""Codex CLI's instructions and tools: long enough to be cached."""


def open_turn(root: Path, system: str, prompt: str, sid: str = SID) -> None:
    with hookio.Spool(str(root), sid).edit(create=True) as doc:
        if doc.get("turn"):
            doc["done"] = doc.pop("turn")
        doc["turn"] = {"id": f"exp_{prompt}", "prompt_id": prompt, "decision": {"system": system}, "input": "x",
                       "started_ms": 1}


def body(items: list, turn: str, *, model: str = "gpt-6-astra", effort: str | None = "high",
         sid: str | None = SID) -> dict:
    out: dict = {"model": model, "stream": True, "input": items, "store": False,
                 "include": ["reasoning.encrypted_content"], "prompt_cache_key": sid,
                 "client_metadata": {"turn_id": turn, **({"session_id": sid} if sid else {})}}
    if effort is not None:
        out["reasoning"] = {"effort": effort, "summary": "auto"}
    return out


def post(port: int, doc: dict | bytes, headers: dict | None = None, path: str = PATH):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    raw = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    conn.request("POST", path, body=raw, headers={"content-type": "application/json",
                                                  "authorization": "Bearer sk-test", **(headers or {})})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response, data


class Upstream:
    """The fake Responses API's answers: usage from the documented cache, output by the effort in force."""

    SHARE = {"none": 0.0, "minimal": 0.1, "low": 0.3, "medium": 0.6, "high": 1.0, "xhigh": 1.3, "max": 1.6}

    def __init__(self) -> None:
        self.cache = PromptCache()
        self.efforts: list[str] = []

    def __call__(self, request: dict):
        if not takes_updates(request.get("model")) and any(
                i.get("type") == "configuration_update" for i in request.get("input") or []):
            return "status", (400, b'{"error": {"message": "The \'configuration_update\' item type is not supported'
                                   b' with this model.", "type": "invalid_request_error"}}')
        effort = effort_of(request)
        self.efforts.append(effort)
        reasoning = int(1000 * self.SHARE[effort])
        usage = self.cache.usage(request, reasoning + 50, reasoning)
        return "sse", responses_sse(str(request.get("model")), usage)


def _turn_usage(tmp_path: Path, key: str = "turn") -> dict:
    deadline = time.monotonic() + 5
    while "usage" not in (_spool(tmp_path).get(key) or {}) and time.monotonic() < deadline:
        time.sleep(0.02)
    return _spool(tmp_path)[key]["usage"]


def _session(port: int, tmp_path: Path, routes: list[str], *, model: str = "gpt-6-astra") -> None:
    """Turns of two requests each (a tool call between them), as Codex CLI sends them: the whole
    history each time."""
    history = list(PREFIX)
    for n, system in enumerate(routes):
        open_turn(tmp_path, system, f"t{n}")
        history.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"do {n}"}]})
        for step in range(2):
            response, data = post(port, body(history, f"t{n}", model=model))
            assert response.status == 200, data
            if step == 0:
                history += [{"type": "function_call", "call_id": f"c{n}", "name": "shell", "arguments": "{}"},
                            {"type": "function_call_output", "call_id": f"c{n}", "output": "ok " * 200}]
            else:
                history.append({"type": "message", "role": "assistant",
                                "content": [{"type": "output_text", "text": f"done {n}"}]})


def test_a_system1_turn_gets_one_update_after_its_input_and_every_later_request_keeps_it_in_place(world, tmp_path):
    answer = Upstream()
    up, port = world(answer)
    _session(port, tmp_path, ["system1", "system2", "system1"])
    inputs = [s["body"]["input"] for s in up.seen]
    assert all(s["path"].startswith("/openai-v1/responses") for s in up.seen)
    updates = [[(i, item) for i, item in enumerate(items) if item.get("type") == "configuration_update"]
               for items in inputs]
    # turn 0 (System 1): low after its prompt; turn 1 (System 2): back to the client's high; turn 2: low again
    assert [len(u) for u in updates] == [1, 1, 2, 2, 3, 3]
    low = (len(PREFIX) + 1, UPDATE)
    assert updates[0] == [low] and updates[1] == [low]
    back = updates[2][1]
    assert back[1] == {"type": "configuration_update", "reasoning": {"effort": "high"}}
    assert updates[3][:2] == updates[2] and updates[5][:2] == updates[2]
    # byte for byte: every later request's bytes up to the last update are the earlier request's
    raws = [s["raw"] for s in up.seen]
    marker = b'{"type":"configuration_update","reasoning":{"effort":"low"}}'
    assert all(marker in r for r in raws)
    first_end = raws[1].index(marker) + len(marker)
    assert all(r[:first_end].split(b'"input":')[1] == raws[1][:first_end].split(b'"input":')[1] for r in raws[1:])
    # answered at the route's effort; the request-level effort (the cache's key) never changed
    assert answer.efforts == ["low", "low", "high", "high", "low", "low"]
    assert {s["body"]["reasoning"]["effort"] for s in up.seen} == {"high"}
    spool = _spool(tmp_path)
    assert spool["turn"]["gateway"]["route"] == "system1"
    assert "configuration_update to low" in spool["turn"]["gateway"]["why"]


def test_usage_and_cost_are_recorded_per_turn_from_openais_fields_and_the_stream_is_byte_identical(world, tmp_path):
    usage = {"input_tokens": 5000, "input_tokens_details": {"cached_tokens": 4096}, "output_tokens": 300,
             "output_tokens_details": {"reasoning_tokens": 250}, "total_tokens": 5300}
    chunks = responses_sse("gpt-6-astra", usage, chunks=4)
    up, port = world(lambda b: ("sse", chunks))
    open_turn(tmp_path, "system1", "t0")
    response, data = post(port, body(PREFIX, "t0"))
    assert response.status == 200 and data == b"".join(chunks)
    got = _turn_usage(tmp_path)
    assert (got["input_tokens"], got["cache_read_input_tokens"], got["output_tokens"], got["reasoning_tokens"]) == (
        904, 4096, 300, 250)
    expected = PriceTable.shipped().cost("gpt-6-astra", Usage(input_tokens=904, output_tokens=300,
                                                              cache_read_input_tokens=4096))
    assert got["cost_usd"] == pytest.approx(expected) and got["models"] == ["gpt-6-astra"]


def test_a_model_without_the_update_item_is_not_routed_and_says_so(world, tmp_path):
    answer = Upstream()
    up, port = world(answer)
    open_turn(tmp_path, "system1", "t0")
    doc = body(PREFIX + [{"type": "message", "role": "user", "content": "hi"}], "t0", model="gpt-5.1-codex")
    raw = json.dumps(doc).encode()
    response, _ = post(port, raw)
    assert response.status == 200 and up.seen[0]["raw"] == raw  # byte for byte
    turn = _spool(tmp_path)["turn"]
    assert turn["gateway"]["effort"] == "unrouted"
    assert "gpt-5.1-codex takes no configuration_update item" in turn["gateway"]["why"]
    assert _turn_usage(tmp_path)["requests"] == 1  # still billed to its turn


def test_a_request_of_a_turn_the_hook_did_not_open_is_not_routed_but_keeps_the_earlier_updates(world, tmp_path):
    up, port = world(Upstream())
    open_turn(tmp_path, "system1", "t0")
    items = PREFIX + [{"type": "message", "role": "user", "content": "hi"}]
    post(port, body(items, "t0"))
    items = items + [{"type": "message", "role": "assistant", "content": "ok"},
                     {"type": "message", "role": "user", "content": "$learn"}]
    post(port, body(items, "t-unseen"))  # the prompt hook opened no turn for it
    last = up.seen[-1]["body"]["input"]
    assert last[len(PREFIX) + 1] == UPDATE and len(last) == len(items) + 1
    assert "usage" in _spool(tmp_path)["turn"] and _spool(tmp_path)["turn"]["usage"]["requests"] == 1


def test_a_rewritten_history_drops_the_updates_it_no_longer_has_a_place_for(world, tmp_path):
    up, port = world(Upstream())
    open_turn(tmp_path, "system1", "t0")
    items = PREFIX + [{"type": "message", "role": "user", "content": "hi"}]
    post(port, body(items, "t0"))
    compacted = [{"type": "message", "role": "user", "content": "summary of the conversation"}] + items[1:]
    post(port, body(compacted, "t0"))
    assert all(i.get("type") != "configuration_update" for i in up.seen[-1]["body"]["input"])


def test_requests_without_a_session_or_a_turn_and_other_paths_go_through_byte_for_byte(world, tmp_path):
    up, port = world(lambda b: ("json", {"model": "gpt-6-astra", "usage": {"input_tokens": 1, "output_tokens": 1}}))
    open_turn(tmp_path, "system1", "t0")
    for doc in (body(PREFIX, "t0", sid=None), {"model": "gpt-6-astra", "input": "title please"}):
        raw = json.dumps(doc).encode()
        post(port, raw)
        assert up.seen[-1]["raw"] == raw
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/openai/models?client_version=0.169.0")
    assert conn.getresponse().status == 200
    assert up.seen[-1]["path"] == "/openai-v1/models?client_version=0.169.0"


@pytest.mark.parametrize("damage", [{"responses": {"updates": "all"}},
                                    {"responses": {"updates": [{"at": -1, "effort": "low"}]}},
                                    {"responses": {"updates": [{"at": 2, "effort": "ultra", "after": None}]}}])
def test_a_spool_of_an_unexpected_shape_leaves_the_request_unchanged(world, tmp_path, damage):
    up, port = world(Upstream())
    open_turn(tmp_path, "system1", "t0")
    with hookio.Spool(str(tmp_path), SID).edit(create=False) as doc:
        doc["gateway"] = damage
    raw = json.dumps(body(PREFIX, "t0")).encode()
    response, _ = post(port, raw)
    assert response.status == 200 and up.seen[0]["raw"] == raw


def test_the_session_costs_less_and_keeps_its_cache_against_a_request_level_effort_switch(tmp_path):
    """The same session three ways, on the documented cache: the client's own (every turn at
    high), through the gateway (System 1 turns low by update), and a naive switch of the
    request-level effort per turn (low on System 1): the update keeps the cache, the switch loses it."""
    routes = ["system1", "system2"] * 3
    prices = PriceTable.shipped()
    arms = {}
    for arm in ("gateway", "client", "switch"):
        answer = Upstream()
        root = tmp_path / arm
        root.mkdir()
        usages: list[dict] = []

        def record(request, answer=answer, usages=usages):
            kind, payload = answer(request)
            usages.append(json.loads(b"".join(payload).split(b"data: ")[-1]))
            return kind, payload

        if arm == "gateway":
            with FakeUpstream(record) as up:
                with gateway(GatewayConfig(root=str(root), openai_upstream=up.url, port=0)) as gw:
                    _session(gw.port, root, routes)
        else:
            with FakeUpstream(record) as up:
                history = list(PREFIX)
                for n, system in enumerate(routes):
                    history.append({"type": "message", "role": "user", "content": f"do {n}"})
                    effort = "low" if arm == "switch" and system == "system1" else "high"
                    for step in range(2):
                        conn = http.client.HTTPConnection("127.0.0.1", up.server.port, timeout=10)
                        conn.request("POST", "/responses", body=json.dumps(body(history, f"t{n}", effort=effort)))
                        conn.getresponse().read()
                        if step == 0:
                            history += [{"type": "function_call", "call_id": f"c{n}", "name": "shell",
                                         "arguments": "{}"},
                                        {"type": "function_call_output", "call_id": f"c{n}", "output": "ok " * 200}]
                        else:
                            history.append({"type": "message", "role": "assistant", "content": f"done {n}"})
        totals = [u["response"]["usage"] for u in usages]
        cost = sum(prices.cost("gpt-6-astra", Usage(t["input_tokens"] - t["input_tokens_details"]["cached_tokens"],
                                                    t["output_tokens"], 0, t["input_tokens_details"]["cached_tokens"]))
                   for t in totals)
        share = sum(t["input_tokens_details"]["cached_tokens"] for t in totals) / sum(t["input_tokens"] for t in totals)
        arms[arm] = (cost, share)
    assert arms["gateway"][0] < arms["client"][0]
    assert abs(arms["gateway"][1] - arms["client"][1]) < 0.02, arms
    assert arms["switch"][1] < arms["client"][1] - 0.05, arms  # the request-level switch loses the cache
    assert arms["gateway"][0] < arms["switch"][0], arms


def test_the_upstream_kept_in_the_data_home_wins_and_is_read_again_when_it_changes(tmp_path):
    """A gateway started by Claude Code's hooks (no Codex CLI upstream in its configuration)
    still forwards Codex CLI's requests to the provider ``install codex-cli --gateway`` kept."""
    import os

    with FakeUpstream(lambda b: ("json", {"usage": {"input_tokens": 1, "output_tokens": 1}})) as up:
        with gateway(GatewayConfig(root=str(tmp_path), openai_upstream="http://127.0.0.1:9/nowhere", port=0)) as gw:
            (tmp_path / "run").mkdir(exist_ok=True)
            kept = tmp_path / "run" / "openai-upstream"
            kept.write_text(up.url + "/first\n")
            post(gw.port, {"model": "gpt-6-astra", "input": "hi"})
            kept.write_text(up.url + "/second/v1\n")
            os.utime(kept, ns=(1, 1))  # a new stamp even within the same clock tick
            post(gw.port, {"model": "gpt-6-astra", "input": "hi"})
            kept.write_text("not a url\n")
            response, _ = post(gw.port, {"model": "gpt-6-astra", "input": "hi"})  # the configured one: unreachable
    assert [s["path"] for s in up.seen] == ["/first/responses", "/second/v1/responses"]
    assert response.status == 502


def test_a_stream_passes_through_as_it_arrives(world, tmp_path):
    """The client has the answer's first event while the upstream is still writing the rest
    (the upstream pauses 0.6 s after each chunk; the whole answer takes at least 1.8 s)."""
    import socket

    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 2}
    up, port = world(lambda b: ("sse", responses_sse("gpt-6-astra", usage, chunks=3)), delay=0.6)
    open_turn(tmp_path, "system1", "t0")
    raw = json.dumps(body(PREFIX, "t0")).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /openai/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(raw), raw))
        seen = b""
        while b"response.created" not in seen:
            seen += sock.recv(65536)
        first = time.monotonic() - started
        while b"response.completed" not in seen or not seen.endswith(b"\r\n\r\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            seen += chunk
        whole = time.monotonic() - started
    assert first < 1.0 < whole, (first, whole)
    assert _turn_usage(tmp_path)["requests"] == 1


def test_an_effort_no_update_can_name_leaves_the_turn_at_the_effort_in_force(world, tmp_path):
    up, port = world(Upstream())
    open_turn(tmp_path, "system2", "t0")
    items = PREFIX + [{"type": "message", "role": "user", "content": "hi"}]
    response, _ = post(port, body(items, "t0", effort="none"))
    assert response.status == 200 and up.seen[0]["body"]["input"] == items
    assert "cannot be named" in _spool(tmp_path)["turn"]["gateway"]["why"]
    assert _spool(tmp_path)["gateway"]["responses"]["updates"] == []
