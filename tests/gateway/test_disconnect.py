"""A client that leaves, in each phase of an answer, closes the upstream request within a second.

Without it (aiohttp does not cancel a handler by default) an upstream that is silent —
thinking before its headers, or after ``message_start`` — kept generating, and billing,
an answer nobody read until the 600 s read timeout; every retry added one more.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import time
from pathlib import Path

import pytest

from artibot.gateway import health
from artibot.gateway.server import GatewayConfig
from artibot.hookpath.store import hookio
from tests.gateway.servers import RawUpstream, gateway, usage_sse
from tests.gateway.test_server import SID, _body, _open_turn, _spool

SSE_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


async def _silent(writer: asyncio.StreamWriter) -> None:
    await asyncio.sleep(3600)  # thinking: no headers yet


def _after_start(events: list[bytes]):
    async def answer(writer: asyncio.StreamWriter) -> None:
        writer.write(SSE_HEAD + b"".join(_chunk(e) for e in events))
        await writer.drain()
        await asyncio.sleep(3600)  # thinking again, mid-answer

    return answer


async def _flowing(writer: asyncio.StreamWriter) -> None:
    writer.write(SSE_HEAD)
    while True:
        writer.write(_chunk(b'event: content_block_delta\ndata: {"type":"content_block_delta"}\n\n'))
        await writer.drain()
        await asyncio.sleep(0.02)


START = usage_sse("claude-sonnet-4-5", {"input_tokens": 700, "output_tokens": 9}, chunks=1)[0].split(
    b"event: content_block_start")[0]
"""The ``message_start`` event alone (700 input tokens, 1 output token so far)."""


def _counters(port: int) -> dict:
    state, body = health.probe(port, None, 2.0)
    assert state == health.FOREIGN  # no token given: no proof asked for
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", health.HEALTH_PATH)
    return json.loads(conn.getresponse().read())["counters"]


def _leave_after(port: int, body: bytes, wait_for: bytes | None, path: bytes = b"/v1/messages?beta=true") -> float:
    """Send a request, read until ``wait_for`` arrived (None: nothing), leave; the time it left."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"x-api-key: sk-ant-test\r\nContent-Length: %d\r\n\r\n%s" % (path, len(body), body))
    seen = b""
    if wait_for is None:
        time.sleep(0.3)  # the gateway has forwarded it; the upstream is silent
    while wait_for is not None and wait_for not in seen:
        seen += sock.recv(65536)
    sock.close()
    return time.monotonic()


RESPONSES_START = b'event: response.created\ndata: {"type":"response.created","response":{"model":"gpt-6-astra"}}\n\n'


@pytest.mark.parametrize("api", ["messages", "responses"])
@pytest.mark.parametrize("phase", ["before the headers", "silent after message_start", "while data flows"])
def test_the_upstream_closes_within_a_second_of_the_client_leaving(tmp_path: Path, phase: str, api: str) -> None:
    """On Claude Code's path and on Codex CLI's (``/openai/responses``) alike."""
    from tests.gateway.test_responses import PREFIX, body, open_turn

    start = START if api == "messages" else RESPONSES_START
    behave, wait_for = {"before the headers": (_silent, None),
                        "silent after message_start": (_after_start([start]), start[:14]),
                        "while data flows": (_flowing, b"content_block_delta")}[phase]
    if api == "messages":
        _open_turn(tmp_path, "system1")
        sent, path = json.dumps(_body(stream=True)).encode(), b"/v1/messages?beta=true"
    else:
        open_turn(tmp_path, "system1", "t0")
        sent, path = json.dumps(body(PREFIX, "t0")).encode(), b"/openai/responses"
    with RawUpstream(behave) as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url, openai_upstream=up.url + "/v1",
                                   port=0)) as gw:
            left = _leave_after(gw.port, sent, wait_for, path)
            deadline = time.monotonic() + 5
            while not up.closed and time.monotonic() < deadline:
                time.sleep(0.01)
            assert up.closed, "the upstream request was still open 5 s after the client left"
            assert up.closed[0] - left < 1.0
            time.sleep(0.2)
            counters = _counters(gw.port)
    assert counters["client_gone"] == 1 and counters["upstream_errors"] == 0, counters


def test_a_stream_the_client_leaves_records_the_usage_it_saw_marked_cut(tmp_path: Path) -> None:
    _open_turn(tmp_path, "system1")
    with RawUpstream(_after_start([START])) as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url, port=0)) as gw:
            _leave_after(gw.port, json.dumps(_body(stream=True)).encode(), b"message_start")
            deadline = time.monotonic() + 5
            while "usage" not in _spool(tmp_path)["turn"] and time.monotonic() < deadline:
                time.sleep(0.02)
            counters = _counters(gw.port)
    usage = _spool(tmp_path)["turn"]["usage"]
    assert (usage["input_tokens"], usage["output_tokens"], usage["cut"], usage["requests"]) == (700, 1, 1, 1)
    assert counters["cut"] == 1


def test_a_stream_the_upstream_cuts_records_the_usage_it_saw_marked_cut(tmp_path: Path) -> None:
    async def drop(writer: asyncio.StreamWriter) -> None:
        writer.write(SSE_HEAD + _chunk(START))
        await writer.drain()
        await asyncio.sleep(0.1)
        writer.transport.abort()

    _open_turn(tmp_path, "system1")
    with RawUpstream(drop) as up:
        with gateway(GatewayConfig(root=str(tmp_path), upstream=up.url, port=0)) as gw:
            conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10)
            conn.request("POST", "/v1/messages", body=json.dumps(_body(stream=True)),
                         headers={"content-type": "application/json"})
            with pytest.raises((http.client.IncompleteRead, ConnectionError)):
                conn.getresponse().read()
            time.sleep(0.3)
            counters = _counters(gw.port)
    usage = hookio.Spool(str(tmp_path), SID).read()["turn"]["usage"]
    assert (usage["input_tokens"], usage["cut"]) == (700, 1)
    assert counters["upstream_errors"] == 1 and counters["client_gone"] == 0 and counters["cut"] == 1
