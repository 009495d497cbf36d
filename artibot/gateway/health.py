"""Is *this* data home's gateway serving on a port? (stdlib only, cheap: the hooks ask it.)

A live pid says nothing about a gateway that is stopped (``kill -STOP``, Ctrl-Z), stuck,
or replaced by another program after a reboot reused its pid. So the hooks ask the port
itself: ``GET /_artibot/health?nonce=N`` over loopback, answered by the gateway without
forwarding. The gateway proves it belongs to this data home with
``x-artibot-proof: blake2b(key=token, "N:port")``, where the token is a random secret
kept 0600 in the data home's ``run/`` folder: the nonce is fresh each time, so an answer
cannot be replayed, and the token never travels. The body (JSON) carries the gateway's
version, pid and counters for ``artibot status``.

:func:`probe` reads the answer with one budget for connect, send and receive:

* ``ok`` — the proof matches;
* ``refused`` — nothing listens on the port;
* ``silent`` — a listener accepted and said nothing within the budget (a stopped or hung
  process: the kernel accepts on its behalf);
* ``foreign`` — something answered, without the proof (its body comes back too, to tell
  another data home's artibot gateway from any other program; it proves nothing).
"""

from __future__ import annotations

import os
import time

HEALTH_PATH = "/_artibot/health"
PROOF_HEADER = "x-artibot-proof"
PROBE_BUDGET_S = 1.5
"""A gateway's event loop answers in about a millisecond; one that has not in 1.5 s is not serving."""

OK, REFUSED, SILENT, FOREIGN = "ok", "refused", "silent", "foreign"
MAX_ANSWER = 64 * 1024


def proof(token: str, nonce: str, port: int) -> str:
    """What the gateway holding ``token`` answers to ``nonce`` on ``port``."""
    import _blake2  # hashlib's BLAKE2 without hashlib, which loads OpenSSL (dear on a hook: docs/benchmarks.md)

    key = token.encode("ascii", "replace")[:64]
    digest: str = _blake2.blake2b(f"{nonce}:{int(port)}".encode("ascii", "replace"), key=key,
                                  digest_size=32).hexdigest()
    return digest


def probe(port: int, token: str | None, budget: float = PROBE_BUDGET_S) -> tuple[str, bytes]:
    """``(state, body)`` of the gateway on ``port`` (see the module doc); body when ``ok`` or ``foreign``."""
    import _socket

    nonce = os.urandom(16).hex()
    deadline = time.monotonic() + budget
    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    data = b""
    try:
        sock.settimeout(budget)
        try:
            sock.connect(("127.0.0.1", port))
        except ConnectionRefusedError:
            return REFUSED, b""
        except TimeoutError:
            return SILENT, b""  # a full backlog: nobody accepts
        sock.sendall(f"GET {HEALTH_PATH}?nonce={nonce} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     "Connection: close\r\n\r\n".encode("ascii"))
        while len(data) < MAX_ANSWER:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            sock.settimeout(left)
            try:
                chunk = sock.recv(MAX_ANSWER)
            except TimeoutError:
                break
            if not chunk:
                break
            data += chunk
    except OSError:  # reset mid-answer: whatever is on the port is not serving
        return (FOREIGN if data else SILENT), b""
    finally:
        sock.close()
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return (FOREIGN if data else SILENT), b""
    want = f"\r\n{PROOF_HEADER}: {proof(token, nonce, port)}\r\n" if token else None
    if want is None or want.encode("ascii") not in head.lower() + b"\r\n":
        return FOREIGN, body
    return OK, body
