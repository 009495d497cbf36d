"""A secret in every header of every malformed request reaches no output and no file.

aiohttp's "Error handling request" log printed a header with a stray CR whole, and the
first 100 bytes of an over-long one (an ``x-api-key``), on the stderr of a gateway run
in the foreground. Here the real gateway process (``artibot gateway``'s, not ``--quiet``)
gets each malformed request, and some refused ones, with the secret in every header;
then its stdout, its stderr and every file under the test's HOME and data home are searched.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from artibot.gateway import health
from tests.gateway.servers import FakeUpstream, usage_sse

SECRET = "sk-ant-api03-" + secrets.token_hex(24)


def _headers() -> bytes:
    return (f"x-api-key: {SECRET}\r\nauthorization: Bearer {SECRET}\r\ncookie: s={SECRET}\r\n"
            f"anthropic-version: {SECRET}\r\n").encode()


def _malformed() -> list[bytes]:
    s = SECRET.encode()
    h = _headers()
    good = b"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    return [
        good + b"authorization: Bearer " + s + b"\r\r\n" + h + b"\r\n",                     # a stray CR
        good + b"x-api-key: " + s + b"A" * 9000 + b"\r\n" + h + b"\r\n",                  # an over-long header
        good + h + b"x-" + s + b" no colon here\r\n\r\n",                                  # a line without a colon
        good + h + b"x-bad\x01name-" + s + b": v\r\n\r\n",                                # a control character
        good + h + b"content-length: 12" + s + b"\r\n\r\n",                               # a bad length
        good + h + b"content-length: 5\r\ncontent-length: 6\r\n\r\n" + s,                  # two lengths
        good + h + b"transfer-encoding: chunked\r\n\r\n" + s + b"\r\n",                   # a bad chunk size
        b"GET /" + s + b"B" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + h + b"\r\n",   # an over-long target
        b"G\x01T /v1/models HTTP/1.1\r\n" + h + b"\r\n",                                  # a bad method
        b"GET /v1/models HTTP/9." + s + b"\r\n" + h + b"\r\n",                            # a bad version
        good + h + b"x-utf: \xff\xfe" + s + b"\r\n\r\n",                                  # not UTF-8
        good + b"".join(b"x-h%d: %s\r\n" % (i, s) for i in range(200)) + b"\r\n",         # too many headers
        good + h + b"Origin: https://" + s + b"\r\ncontent-length: 2\r\n\r\n{}",          # refused: a browser
        b"POST /v1/messages HTTP/1.1\r\nHost: " + s + b".example\r\n" + h + b"\r\n",       # refused: a foreign host
        b"GET /../" + s + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + h + b"\r\n",               # refused: climbs the path
        good + h + b"content-encoding: gzip\r\ncontent-length: 44\r\n\r\n" + s[:44],       # not gzip: forwarded as sent
        good + h + b"content-length: 999999999\r\n\r\n" + s,                              # refused: too large
        good + h + b"content-length: 80\r\n\r\n" + s[:40],                                 # the client leaves mid-body
    ] + [request.replace(b"POST /v1/messages ", b"POST /openai/responses ", 1) for request in [  # Codex CLI's path
        good + b"authorization: Bearer " + s + b"\r\r\n" + h + b"\r\n",
        good + h + b"Origin: https://" + s + b"\r\ncontent-length: 2\r\n\r\n{}",
        good + h + b"content-length: 999999999\r\n\r\n" + s,
        good + h + b"content-length: 80\r\n\r\n" + s[:40],
    ]]


def _send(port: int, data: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
            while sock.recv(65536):
                pass
        except OSError:
            pass


def test_a_secret_in_every_header_of_every_malformed_request_reaches_no_output_and_no_file(tmp_path: Path) -> None:
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    data.mkdir()
    answers = iter([("sse", usage_sse("m", {"input_tokens": 1, "output_tokens": 1}, chunks=3)[:1] + [None])])
    with FakeUpstream(lambda body: next(answers, ("status", (500, b"{}")))) as up:
        # a free port taken once the upstream listens: a port freed before it started could be the
        # upstream's own, and the wait below would then take the upstream for the gateway
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {**os.environ, "HOME": str(home), "ARTIBOT_HOME": str(data), "NO_PROXY": "*"}
        with open(tmp_path / "stdout", "wb") as out, open(tmp_path / "stderr", "wb") as err:
            (data / "run").mkdir()
            (data / "run" / "openai-upstream").write_text(up.url + "/v1\n")
            proc = subprocess.Popen([sys.executable, "-m", "artibot.cli.gateway_main", "--port", str(port),
                                     "--upstream", up.url], env=env, stdout=out, stderr=err)
            try:
                deadline = time.monotonic() + 20
                while health.probe(port, None, 0.5)[0] == health.REFUSED:
                    assert time.monotonic() < deadline and proc.poll() is None, "the gateway did not start"
                    time.sleep(0.05)
                for request in _malformed():
                    _send(port, request)
                # and through to an upstream that drops the stream, then fails
                for _ in range(2):
                    _send(port, b"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n" + _headers()
                          + b"content-length: %d\r\n\r\n%s" % (len(SECRET) + 2, b'"' + SECRET.encode() + b'"'))
                # Codex CLI's path: a whole conversation with the secret in it, to an upstream that fails
                doc = json.dumps({"model": "gpt-6-astra", "input": [{"type": "message", "role": "user",
                                                                     "content": SECRET}],
                                  "client_metadata": {"session_id": SECRET, "turn_id": SECRET}}).encode()
                _send(port, b"POST /openai/responses HTTP/1.1\r\nHost: 127.0.0.1\r\n" + _headers()
                      + b"content-length: %d\r\n\r\n%s" % (len(doc), doc))
            finally:
                proc.send_signal(signal.SIGINT)
                proc.wait(20)
    outputs = {"stdout": (tmp_path / "stdout").read_bytes(), "stderr": (tmp_path / "stderr").read_bytes()}
    assert b"aiohttp server: BadHttpMessage (its content is not logged)" in outputs["stderr"]  # they were seen
    assert b"stopped:" in outputs["stdout"]
    lines = [line for line in outputs["stdout"].splitlines() if b" ms" in line]
    assert len(lines) >= 5, outputs["stdout"]  # a line per request that reached the gateway's handler
    assert any(b" /\xe2\x80\xa6 " in line for line in lines)  # a path that is not the API's: not shown
    pieces = [SECRET.encode(), SECRET[13:29].encode(), SECRET[-16:].encode()]
    for name, text in outputs.items():
        assert not any(p in text for p in pieces), f"the secret reached the gateway's {name}:\n{text.decode()}"
    for path in (home, data):
        for file in path.rglob("*"):
            if file.is_file():
                assert not any(p in file.read_bytes() for p in pieces), file
