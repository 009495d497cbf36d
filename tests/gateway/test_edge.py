"""The attacks on the gateway's edge, each reproduced, and what the gateway does instead."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import threading
import time
from pathlib import Path

import pytest

from artibot.gateway.server import GatewayConfig
from artibot.hookpath.store import hookio
from tests.gateway.servers import FakeUpstream, gateway, usage_sse
from tests.gateway.test_server import SID, _body, _open_turn, _post, _spool, world  # noqa: F401


@pytest.mark.parametrize("headers", [
    {"Origin": "https://evil.example", "content-type": "text/plain"},
    {"Origin": "null", "content-type": "text/plain"},
    {"Origin": "http://127.0.0.1:41470"},
    {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty"},
    {"Sec-Fetch-Site": "none"},
    {"Sec-Fetch-Dest": "document"},
])
@pytest.mark.parametrize("api", ["messages", "responses"])
def test_a_request_a_browser_makes_never_reaches_the_upstream(world, tmp_path, headers, api) -> None:
    """On Claude Code's path and on Codex CLI's (``/openai/responses``) alike."""
    from tests.gateway.test_responses import PATH, PREFIX, body, open_turn

    up, port = world()
    if api == "messages":
        _open_turn(tmp_path, "system1")
        path, sent = "/v1/messages?beta=true", _body()
    else:
        open_turn(tmp_path, "system1", "t0")
        path, sent = PATH, body(PREFIX, "t0")
    response, data = _post(port, b"{}", path, headers=headers)
    assert response.status == 403 and json.loads(data)["error"]["type"] == "permission_error"
    response, _ = _post(port, sent, path, headers=headers)
    assert response.status == 403
    assert up.seen == [] and "usage" not in _spool(tmp_path)["turn"]


def test_node_fetchs_lone_sec_fetch_mode_is_not_a_browser(world) -> None:
    up, port = world()
    response, _ = _post(port, _body(), headers={"Sec-Fetch-Mode": "cors"})
    assert response.status == 200 and len(up.seen) == 1


def test_a_preflight_is_answered_here_without_a_cors_grant(world) -> None:
    up, port = world(lambda body: ("json", {}))
    for headers in ({"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, {}):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("OPTIONS", "/v1/messages", headers=headers)
        response = conn.getresponse()
        response.read()
        assert response.status in (204, 403)
        assert not [h for h in response.headers if h.lower().startswith("access-control-")]
    assert up.seen == []


def _raw(port: int, head: bytes, body: bytes = b"", *, read: bool = True) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head + body)
        if not read:
            return b""
        out = b""
        while b"\r\n\r\n" not in out:
            chunk = sock.recv(65536)
            if not chunk:
                break
            out += chunk
        return out


def test_a_body_over_the_paths_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with FakeUpstream() as up:
        config = GatewayConfig(root=str(tmp_path), upstream=up.url, port=0, max_body=1_000_000)
        with gateway(config) as gw:
            # announced 900 MB, sent none of it: the answer comes at once
            started = time.monotonic()
            answer = _raw(gw.port, b"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Length: 900000000\r\n\r\n")
            assert answer.startswith(b"HTTP/1.1 413") and time.monotonic() - started < 5
            # another path takes a small document; a chunked body is cut at the limit
            answer = _raw(gw.port, b"POST /v1/other HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n")
            assert answer.startswith(b"HTTP/1.1 413")
            chunk = b"x" * 65536
            answer = _raw(gw.port, b"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                          (b"%x\r\n%s\r\n" % (len(chunk), chunk)) * 20)
            assert answer.startswith(b"HTTP/1.1 413")
            answer = _raw(gw.port, b"GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n",
                          b"0123456789")
            assert answer.startswith(b"HTTP/1.1 413")
            # Codex CLI's path: the same limits
            for head in (b"POST /openai/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 900000000\r\n\r\n",
                         b"POST /openai/other HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n"):
                assert _raw(gw.port, head).startswith(b"HTTP/1.1 413")
            answer = _raw(gw.port, b"POST /openai/responses HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Transfer-Encoding: chunked\r\n\r\n", (b"%x\r\n%s\r\n" % (len(chunk), chunk)) * 20)
            assert answer.startswith(b"HTTP/1.1 413")
            assert up.seen == []
            response, _ = _post(gw.port, _body())
            assert response.status == 200


def test_a_gzip_body_is_forwarded_byte_for_byte_and_still_routed(world, tmp_path) -> None:
    up, port = world(lambda body: ("json", {"usage": {"input_tokens": 3, "output_tokens": 1}}))
    raw = gzip.compress(json.dumps(_body(tools=False)).encode())  # not routed: nothing to change
    _open_turn(tmp_path, "system1")
    _post(port, raw, headers={"Content-Encoding": "gzip"})
    assert up.seen[-1]["raw"] == raw and up.seen[-1]["headers"]["Content-Encoding"] == "gzip"
    # A routed turn's body is rewritten: it goes out as the new JSON, without the coding.
    _post(port, gzip.compress(json.dumps(_body()).encode()), headers={"Content-Encoding": "gzip"})
    sent = up.seen[-1]
    assert "Content-Encoding" not in sent["headers"] and sent["body"]["output_config"] == {"effort": "low"}
    deadline = time.monotonic() + 5  # a whole answer is recorded once it went out
    while "usage" not in _spool(tmp_path)["turn"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _spool(tmp_path)["turn"]["usage"]["input_tokens"] == 3


def test_a_gzip_bomb_is_refused_at_the_limit_without_inflating_past_it(tmp_path: Path) -> None:
    """The attack: under 1 MB of gzip that inflates to 150 MB. Built in pieces, so that the
    test's own peak memory stays low and the gateway's inflating shows in it."""
    import resource
    import zlib

    packer = zlib.compressobj(1, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    bomb = b"".join([packer.compress(b" " * (1 << 20)) for _ in range(150)] + [packer.flush()])
    with FakeUpstream() as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url, port=0)) as gw:  # the 64 MB limit
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            response, data = _post(gw.port, bomb, headers={"Content-Encoding": "gzip"})
            grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert response.status == 413 and up.seen == []
    # inflated to the limit (64 MB) and no further; aiohttp's own inflating took about 205 MB
    assert grown_mb < 100, f"the peak grew by {grown_mb:.0f} MB inflating a {len(bomb)} byte body"


@pytest.mark.parametrize("path", ["/../admin", "/%2e%2e/admin", "/%2E%2E/admin", "/v1/../../admin",
                                  "/v1/%2e%2e/%2e%2e/admin", "/..%2fadmin", "/..%5cadmin", "/openai/../../admin",
                                  "/openai/%2e%2e/%2e%2e/admin", "/openai/..%2fadmin"])
def test_dot_segments_never_leave_the_upstreams_prefix(tmp_path: Path, path: str) -> None:
    with FakeUpstream() as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url + "/anthropic", openai_upstream=up.url + "/oa/v1",
                                   port=0)) as gw:
            answer = _raw(gw.port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            for target in ("/v1/./x/%2e%2e/models?a=b", "/openai/x/%2e%2e/models?a=b"):
                conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=5)
                conn.request("GET", target)
                conn.getresponse().read()
    assert answer.startswith(b"HTTP/1.1 400"), answer[:40]
    assert [s["path"] for s in up.seen] == ["/anthropic/v1/models?a=b", "/oa/v1/models?a=b"]


SPOOLS = {
    "turn.decision a string": lambda doc: doc["turn"].update(decision="system1"),
    "gateway.cached_tokens a word": lambda doc: doc.update(gateway={"model": "m", "cached_tokens": "many"}),
    "turn.usage.requests a word": lambda doc: doc["turn"].update(usage={"requests": "many"}),
}


@pytest.mark.parametrize("damage", sorted(SPOOLS))
def test_a_spool_of_an_unexpected_shape_leaves_the_request_unchanged(world, tmp_path, damage) -> None:
    chunks = usage_sse("claude-sonnet-4-5", {"input_tokens": 5, "output_tokens": 5})
    profiles = None
    if damage == "gateway.cached_tokens a word":
        from artibot.gateway.profiles import Profile, Profiles

        profiles = Profiles(system1=Profile(effort="low", model="claude-haiku-4-5"))
    up, port = world(lambda body: ("sse", chunks), profiles=profiles)
    _open_turn(tmp_path, "system1")
    with hookio.Spool(str(tmp_path), SID).edit(create=False) as doc:
        SPOOLS[damage](doc)
    before = _spool(tmp_path)
    for _ in range(2):  # the client's retry fares no worse
        response, data = _post(port, _body(stream=True))
        assert response.status == 200 and data == b"".join(chunks)  # whole, message_stop included
    if damage != "turn.usage.requests a word":  # that one is only read when recording
        raw = json.dumps(_body(stream=True)).encode()
        assert up.seen[-1]["raw"] == raw
    assert _spool(tmp_path)["turn"].get("usage") == before["turn"].get("usage")


def test_a_deeply_nested_user_id_is_forwarded_unchanged(world, tmp_path) -> None:
    up, port = world()
    body = _body()
    body["metadata"]["user_id"] = "{" + '"a":' + "[" * 100_000 + "]" * 100_000 + "}"
    raw = json.dumps(body).encode()
    response, _ = _post(port, raw)
    assert response.status == 200 and up.seen[-1]["raw"] == raw


def test_a_held_spool_lock_pauses_no_other_stream(world, tmp_path) -> None:
    """The turn's first request waits for its spool's lock in a thread, not on the event loop."""
    from artibot.hookpath.store.hookio import Spool

    chunks = usage_sse("m", {"input_tokens": 1, "output_tokens": 1}, chunks=8)
    up, port = world(lambda body: ("sse", chunks), delay=0.05)
    _open_turn(tmp_path, "system1")
    other = "9f1c2d3e-0000-4000-8000-000000000002"
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with Spool(str(tmp_path), SID).edit(create=False):
            held.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    gaps: list[float] = []

    def stream() -> None:  # another session's answer, chunk by chunk
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/v1/messages", body=json.dumps(_body(sid=other, stream=True)),
                     headers={"content-type": "application/json"})
        response = conn.getresponse()
        last = time.monotonic()
        while response.read1(65536):
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    reader = threading.Thread(target=stream)
    reader.start()
    time.sleep(0.1)
    blocked = threading.Thread(target=lambda: _post(port, _body(stream=True)))
    blocked.start()  # waits for the lock (1 s), in a thread
    reader.join(10)
    release.set()
    holder.join(5)
    blocked.join(10)
    assert gaps and max(gaps) < 0.5, gaps
