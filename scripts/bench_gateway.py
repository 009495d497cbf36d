"""Benchmark: what the gateway adds to a request, and what it holds in memory.

Three processes on loopback: this one (the client, aiohttp), a fake upstream API
(aiohttp, this script with ``--serve-upstream``) and the real gateway
(``python -m artibot.cli.gateway_main --port P --upstream URL --quiet``, the process
``artibot gateway`` and the hooks run; ``ARTIBOT_HOME`` a temporary directory). The upstream answers

* a non-streamed request with a tiny JSON message (~200 bytes, with ``usage``);
* a streamed one with 40 SSE events in the API's order (``message_start``, 36 text
  deltas, ``message_delta``, ``message_stop``), one write per event, ``--gap-ms``
  apart; the text is drawn from the request's ``x-bench-id``, so the client knows the
  exact bytes every stream must deliver.

Each request body is ``--body-kb`` of JSON (a Claude Code turn's request carries its
system prompt, tools and conversation: tens to hundreds of KB). Four arms, measured
in the same run and *interleaved* (each round runs the arms in a seeded random order,
so load from anything else on the machine hits all of them alike):

* ``direct``: client → upstream;
* ``relay``: client → a bare aiohttp pass-through (this script with ``--serve-relay``,
  its own process: no parsing, no spool) → upstream. Not the product: the floor of any
  aiohttp hop on this machine, so the gateway's own cost is ``routed`` − ``relay``;
* ``unrouted``: client → gateway → upstream, a request of no routed turn (no session:
  parsed, then forwarded byte for byte);
* ``routed``: the request carries the ``metadata.user_id`` of a session whose spool has
  an open System 1 turn, and ``tools``: the gateway reads the spool, fixes the turn's
  profile, puts each turn's effort on its marker (the conversation is Claude Code's
  shape: each prompt followed by its hook context, System 1 and System 2 in turn),
  merges the beta header and, after each response, writes its tokens and cost onto the
  turn (a spool write under its lock) before the last chunk.

"Added" figures are the gateway arm's percentile minus the direct arm's percentile.
Latency is send → whole body read (non-streamed); time to first byte is send → first
chunk of the body (streamed). Then ``--concurrent`` routed streams at once through the
gateway, ``--rounds`` times: every stream's bytes must equal what the upstream sent, in
order, and every response must be recorded on the turn. The CPU time the relay and the
gateway used per request in the timed phase is a figure the machine's other load
hardly moves (latencies on a loaded machine do). Last, the gateway's peak RSS
(``VmHWM`` of ``/proc/<pid>/status``) after all the load.

    python scripts/bench_gateway.py [--requests 400] [--seed 0] [--body-kb 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

EVENTS = 40
MODEL = "claude-opus-5-5"
ROUTE_LINES = ("artibot router: System 1 (fast)", "artibot router: System 2 (deliberate)")
SID = "bench-0000-4000-8000-000000000001"
TARGETS = {"latency": 2.0, "ttfb": 3.0, "rss": 80.0}
"""Added p50 latency (ms), added time to first byte (ms), gateway peak RSS (MB)."""

WORDS = ("the", "handler", "returns", "a", "list", "of", "tests", "that", "fail", "because", "config", "is",
         "read", "before", "it", "exists", "so", "we", "move", "call", "into", "setup", "and", "retry")


# --------------------------------------------------------------------- the answers
def sse_events(stream_id: int) -> list[bytes]:
    """The exact events of stream ``stream_id`` (the upstream sends them, the client expects them)."""
    rng = random.Random(stream_id)
    usage = {"input_tokens": 1200 + stream_id % 97, "cache_read_input_tokens": 40_000,
             "cache_creation_input_tokens": 800, "output_tokens": 1}

    def event(name: str, data: dict) -> bytes:
        return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()

    out = [event("message_start", {"type": "message_start", "message": {
        "id": f"msg_{stream_id:08d}", "type": "message", "role": "assistant", "model": MODEL, "content": [],
        "stop_reason": None, "usage": usage}}),
        event("content_block_start", {"type": "content_block_start", "index": 0,
                                      "content_block": {"type": "text", "text": ""}})]
    for _ in range(EVENTS - 4 - 1):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12))) + " "
        out.append(event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                 "delta": {"type": "text_delta", "text": text}}))
    out.append(event("content_block_stop", {"type": "content_block_stop", "index": 0}))
    out.append(event("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                                       "usage": {"output_tokens": 180 + stream_id % 50}}))
    out.append(event("message_stop", {"type": "message_stop"}))
    assert len(out) == EVENTS
    return out


def json_answer(stream_id: int) -> bytes:
    return json.dumps({"id": f"msg_{stream_id:08d}", "type": "message", "role": "assistant", "model": MODEL,
                       "content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn",
                       "usage": {"input_tokens": 900, "output_tokens": 4, "cache_read_input_tokens": 30_000}},
                      separators=(",", ":")).encode()


# --------------------------------------------------------------------- the fake upstream (its own process)
def serve_upstream(port: int, gap_ms: float) -> None:
    from aiohttp import web

    async def handle(request: web.Request) -> web.StreamResponse:
        await request.read()  # the whole body, as the API would, before answering
        sid = int(request.headers.get("x-bench-id", "0"))
        if request.headers.get("x-bench-kind") != "sse":
            return web.Response(body=json_answer(sid), content_type="application/json")
        response = web.StreamResponse(status=200, headers={"Content-Type": "text/event-stream",
                                                           "Cache-Control": "no-cache"})
        await response.prepare(request)
        for i, chunk in enumerate(sse_events(sid)):
            if i:
                await asyncio.sleep(gap_ms / 1000)
            await response.write(chunk)
        await response.write_eof()
        return response

    async def main() -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("POST", "/v1/messages", handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        await asyncio.Event().wait()

    asyncio.run(main())


def serve_relay(port: int, upstream: str) -> None:
    """A bare aiohttp pass-through (no parsing, no spool): the floor of any aiohttp hop on this machine."""
    from aiohttp import ClientSession, TCPConnector, web

    skip = {"host", "content-length", "transfer-encoding", "connection"}

    async def handle(request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in skip]
        async with client.request(request.method, upstream + request.path_qs, headers=headers, data=raw) as up:
            response = web.StreamResponse(status=up.status)
            for k, v in up.headers.items():
                if k.lower() not in skip:
                    response.headers.add(k, v)
            await response.prepare(request)
            async for chunk in up.content.iter_any():
                await response.write(chunk)
            await response.write_eof()
            return response

    async def main() -> None:
        nonlocal client
        client = ClientSession(connector=TCPConnector(limit=0), auto_decompress=False,
                               skip_auto_headers=("User-Agent", "Accept-Encoding", "Content-Type"))
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        await asyncio.Event().wait()

    client = None
    asyncio.run(main())


# --------------------------------------------------------------------- set-up
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"{proc.args} exited {proc.returncode}: {err}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{proc.args} did not listen on {port} within {timeout:g} s")


def open_turn(root: str) -> None:
    """An open System 1 turn, as the prompt hook leaves it before Claude Code sends the turn's requests."""
    from artibot.hookpath.store import hookio

    with hookio.Spool(root, SID).edit(create=True) as doc:
        doc["turn"] = {"id": "exp_bench_0001", "decision": {"system": "system1"}, "input": "bench",
                       "started_ms": hookio.now_ms()}


def read_turn(root: str) -> dict:
    from artibot.hookpath.store import hookio

    return (hookio.Spool(root, SID).read() or {}).get("turn") or {}


def request_body(kb: int, *, routed: bool, stream: bool, seed: int) -> bytes:
    """A Messages API request of about ``kb`` KB: system prompt, tools and a conversation."""
    rng = random.Random(seed)
    tools = [{"name": f"Tool{i}", "description": " ".join(rng.choice(WORDS) for _ in range(60)),
              "input_schema": {"type": "object", "properties": {"arg": {"type": "string"}}}} for i in range(12)]
    body: dict = {"model": "claude-opus-5-5", "max_tokens": 32000, "stream": stream,
                  "output_config": {"effort": "medium"}, "thinking": {"type": "adaptive"},
                  "system": [{"type": "text", "text": "You are Claude Code. " * 40}], "tools": tools,
                  "messages": []}
    size = len(json.dumps(body))
    turn = 0
    while size < kb * 1024:  # as Claude Code 2.1.331 sends it: each prompt, then its hook context
        text = " ".join(rng.choice(WORDS) for _ in range(400))
        if turn % 2 == 0:
            route = ROUTE_LINES[(turn // 2) % 2]
            context = {"role": "system", "content": f"UserPromptSubmit hook additional context: {route} — x."}
            if turn == 0:
                context["output_config"] = {"effort": "medium"}
            body["messages"] += [{"role": "user", "content": text}, context]
        else:
            body["messages"].append({"role": "assistant", "content": text})
        size += len(text) + 140
        turn += 1
    if routed:
        body["metadata"] = {"user_id": json.dumps({"device_id": "d" * 64, "account_uuid": "", "session_id": SID})}
    return json.dumps(body, separators=(",", ":")).encode()


# --------------------------------------------------------------------- measurements
HEADERS = {"content-type": "application/json", "x-api-key": "sk-ant-bench", "anthropic-version": "2023-06-01",
           "accept-encoding": "identity"}


async def one_json(session, url: str, body: bytes, sid: int) -> float:
    started = time.perf_counter()
    async with session.post(url, data=body, headers={**HEADERS, "x-bench-id": str(sid), "x-bench-kind": "json"}) as r:
        data = await r.read()
    took = time.perf_counter() - started
    if r.status != 200 or data != json_answer(sid):
        raise SystemExit(f"non-streamed answer {sid} wrong (status {r.status})")
    return took


async def one_stream(session, url: str, body: bytes, sid: int) -> tuple[float, bool]:
    """Time to the first body chunk, and whether the stream's bytes are exactly the upstream's."""
    started = time.perf_counter()
    ttfb = None
    got = bytearray()
    async with session.post(url, data=body, headers={**HEADERS, "x-bench-id": str(sid), "x-bench-kind": "sse"}) as r:
        async for chunk in r.content.iter_any():
            if ttfb is None:
                ttfb = time.perf_counter() - started
            got += chunk
    return (ttfb or 0.0), r.status == 200 and bytes(got) == b"".join(sse_events(sid))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))] * 1000


def cpu_s(pid: int) -> float:
    """CPU time (user + system) a process has used: per request, a cost the machine's other
    load hardly moves, unlike the latencies."""
    with open(f"/proc/{pid}/stat", "rb") as fh:
        fields = fh.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(args: argparse.Namespace, up_url: str, relay_url: str, gw_url: str, root: str,
                  pids: dict[str, int]) -> dict:
    from aiohttp import ClientSession, ClientTimeout, TCPConnector

    rng = random.Random(args.seed)
    bodies = {(arm, stream): request_body(args.body_kb, routed=arm == "routed", stream=stream, seed=args.seed)
              for arm in ("unrouted", "routed") for stream in (False, True)}
    for stream in (False, True):  # the same bytes the client would send
        bodies[("direct", stream)] = bodies[("relay", stream)] = bodies[("unrouted", stream)]
    urls = {"direct": up_url, "relay": relay_url, "unrouted": gw_url, "routed": gw_url}
    timeout = ClientTimeout(total=60)
    # one client (and keep-alive pool) per arm, as one Claude Code process has
    sessions = {arm: ClientSession(connector=TCPConnector(limit=0), timeout=timeout, auto_decompress=False)
                for arm in urls}
    lat: dict[str, list[float]] = {arm: [] for arm in urls}
    ttfb: dict[str, list[float]] = {arm: [] for arm in urls}
    out: dict = {}
    try:
        arms = list(urls)
        for arm in arms:  # warm-up: connections open, code paths loaded, the turn's profile fixed
            for i in range(5):
                await one_json(sessions[arm], urls[arm] + "/v1/messages", bodies[(arm, False)], i)
            await one_stream(sessions[arm], urls[arm] + "/v1/messages", bodies[(arm, True)], 0)
        streams = max(1, args.requests // 5)
        sid = 1000
        cpu = {name: cpu_s(pid) for name, pid in pids.items()}
        for i in range(args.requests):
            rng.shuffle(arms)
            for arm in arms:
                sid += 1
                lat[arm].append(await one_json(sessions[arm], urls[arm] + "/v1/messages", bodies[(arm, False)], sid))
            if i < streams:
                rng.shuffle(arms)
                for arm in arms:
                    sid += 1
                    t, ok = await one_stream(sessions[arm], urls[arm] + "/v1/messages", bodies[(arm, True)], sid)
                    if not ok:
                        raise SystemExit(f"stream {sid} ({arm}) differs from what the upstream sent")
                    ttfb[arm].append(t)
        # requests each process served: the relay one arm's, the gateway two arms'
        served = {"relay": args.requests + streams, "gateway": 2 * (args.requests + streams)}
        out["cpu_ms"] = {name: (cpu_s(pid) - cpu[name]) * 1000 / served[name] for name, pid in pids.items()}
        out["latency"] = {arm: (pct(v, 50), pct(v, 99), len(v)) for arm, v in lat.items()}
        out["ttfb"] = {arm: (pct(v, 50), pct(v, 99), len(v)) for arm, v in ttfb.items()}
        # a whole (non-streamed) answer is recorded just after it went out: let the last one land
        await asyncio.sleep(0.5)
        before = int((read_turn(root).get("usage") or {}).get("requests", 0))
        conc = []
        for r in range(args.rounds):
            ids = list(range(10_000 * (r + 1), 10_000 * (r + 1) + args.concurrent))
            started = time.perf_counter()
            results = await asyncio.gather(*(one_stream(sessions["routed"], gw_url + "/v1/messages",
                                                        bodies[("routed", True)], s) for s in ids))
            conc.append((time.perf_counter() - started, sum(ok for _, ok in results)))
        after = int((read_turn(root).get("usage") or {}).get("requests", 0))
        out["concurrent"] = {"rounds": conc, "recorded": after - before}
    finally:
        for s in sessions.values():
            await s.close()
    return out


def vm(pid: int) -> dict[str, float]:
    values = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            key, _, rest = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                values[key] = int(rest.split()[0]) / 1024
    return values


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=400,
                    help="non-streamed requests per arm; a fifth as many streamed ones per arm")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--body-kb", type=int, default=100, help="size of each request body")
    ap.add_argument("--gap-ms", type=float, default=2.0, help="time between two SSE events of a stream")
    ap.add_argument("--concurrent", type=int, default=32, help="streams at once through the gateway")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of concurrent streams")
    ap.add_argument("--serve-upstream", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--serve-relay", default="", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_upstream:
        serve_upstream(args.port, args.gap_ms)
        return
    if args.serve_relay:
        serve_relay(args.port, args.serve_relay)
        return

    tmp = tempfile.mkdtemp(prefix="artibot-bench-gw-")
    procs: list[subprocess.Popen] = []
    try:
        # the three servers start at once (each is a Python start-up of about a second)
        up_port, relay_port, gw_port = free_port(), free_port(), free_port()
        up_url, relay_url = f"http://127.0.0.1:{up_port}", f"http://127.0.0.1:{relay_port}"
        root = os.path.join(tmp, "home")
        open_turn(root)
        env = {**os.environ, "ARTIBOT_HOME": root, "PYTHONPATH": str(ROOT)}
        for argv in ([__file__, "--serve-upstream", "--port", str(up_port), "--gap-ms", str(args.gap_ms)],
                     [__file__, "--serve-relay", up_url, "--port", str(relay_port)],
                     ["-m", "artibot.cli.gateway_main", "--port", str(gw_port), "--upstream", up_url, "--quiet"]):
            procs.append(subprocess.Popen([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE))
        for port, proc in zip((up_port, relay_port, gw_port), procs):
            wait_port(port, proc)
        gw = procs[2]
        began = time.perf_counter()
        load = os.getloadavg()
        result = asyncio.run(measure(args, up_url, relay_url, f"http://127.0.0.1:{gw_port}", root,
                                     {"relay": procs[1].pid, "gateway": gw.pid}))
        mem = vm(gw.pid)
        turn = read_turn(root)
        elapsed = time.perf_counter() - began
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    report(args, result, mem, turn, elapsed, load)


def report(args: argparse.Namespace, result: dict, mem: dict, turn: dict, elapsed: float,
           load: tuple[float, ...]) -> None:
    lat, ttfb = result["latency"], result["ttfb"]
    rows = []

    def added(table: dict, arm: str, q: int) -> float:
        return table[arm][q] - table["direct"][q]

    ok_mark = lambda value, target: "ok" if value <= target else "MISSED"  # noqa: E731
    for arm in ("relay", "unrouted", "routed"):
        ref = arm == "relay"  # a reference for what any hop costs here: no target
        rows.append((f"added latency p50, {arm} (non-streamed)", f"{added(lat, arm, 0):.2f} ms",
                     "" if ref else f"<= {TARGETS['latency']:g} ms",
                     "" if ref else ok_mark(added(lat, arm, 0), TARGETS["latency"])))
        rows.append((f"added latency p99, {arm} (non-streamed)", f"{added(lat, arm, 1):.2f} ms", "", ""))
        rows.append((f"added time to first byte p50, {arm} (streamed)", f"{added(ttfb, arm, 0):.2f} ms",
                     "" if ref else f"<= {TARGETS['ttfb']:g} ms",
                     "" if ref else ok_mark(added(ttfb, arm, 0), TARGETS["ttfb"])))
        rows.append((f"added time to first byte p99, {arm} (streamed)", f"{added(ttfb, arm, 1):.2f} ms", "", ""))
    conc = result["concurrent"]
    intact = sum(ok for _, ok in conc["rounds"])
    total = args.concurrent * len(conc["rounds"])
    rows.append((f"{args.concurrent} concurrent routed streams x {len(conc['rounds'])}: intact, in order",
                 f"{intact}/{total}", f"{total}/{total}", "ok" if intact == total else "MISSED"))
    rows.append((f"  ... their usage recorded on the turn", f"{conc['recorded']}/{total}", f"{total}/{total}",
                 "ok" if conc["recorded"] == total else "MISSED"))
    rows.append((f"  ... slowest round, wall time", f"{max(t for t, _ in conc['rounds']) * 1000:.0f} ms",
                 f"(one stream alone: {EVENTS} events x {args.gap_ms:g} ms)", ""))
    rows.append(("CPU per request, relay / gateway (unrouted and routed)",
                 f"{result['cpu_ms']['relay']:.2f} / {result['cpu_ms']['gateway']:.2f} ms", "", ""))
    rows.append(("gateway peak RSS (VmHWM)", f"{mem.get('VmHWM', float('nan')):.1f} MB",
                 f"<= {TARGETS['rss']:g} MB", ok_mark(mem.get("VmHWM", 1e9), TARGETS["rss"])))
    rows.append(("gateway RSS after the load (VmRSS)", f"{mem.get('VmRSS', float('nan')):.1f} MB", "", ""))

    print(f"{'arm':<10} {'non-streamed p50':>17} {'p99':>8} {'n':>5}   {'first byte p50':>15} {'p99':>8} {'n':>5}")
    for arm in ("direct", "relay", "unrouted", "routed"):
        a, b = lat[arm], ttfb[arm]
        print(f"{arm:<10} {a[0]:>14.2f} ms {a[1]:>5.2f} ms {a[2]:>5}   {b[0]:>12.2f} ms {b[1]:>5.2f} ms {b[2]:>5}")
    print()
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>10}  {'target':<14} ")
    for name, value, target, verdict in rows:
        print(f"{name:<{width}}  {value:>10}  {target:<14} {verdict}")
    usage = turn.get("usage") or {}
    print(f"\nRouted turn after the run: {usage.get('requests', 0)} responses recorded, profile "
          f"{(turn.get('gateway') or {}).get('profile')}, ${usage.get('cost_usd', 0):.2f} in total.")
    print(f"Request bodies {args.body_kb} KB; streams of {EVENTS} SSE events {args.gap_ms:g} ms apart; "
          f"arms interleaved in a random order per round (seed {args.seed}); added = gateway percentile - "
          f"direct percentile. relay = a bare aiohttp pass-through in its own process (no parsing, no spool): "
          f"what any aiohttp hop costs on this machine. Load average during the run: "
          f"{load[0]:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs. {elapsed:.1f} s.")


if __name__ == "__main__":
    main()
