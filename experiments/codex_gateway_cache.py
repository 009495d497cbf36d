"""What a route saves in Codex CLI net of the prompt cache: coding sessions through the gateway's
Responses path, against a fake Responses API whose cache behaves as OpenAI documents it
(:mod:`experiments.responses_cache`).

Codex CLI sends the whole conversation on every request, and the prompt cache is keyed by
the model and (through the reasoning instructions it renders) the request-level
``reasoning.effort``. Three ways of sending the same sessions are compared, on the same draws:

* **no gateway** — every request as the client sent it, at the user's ``high``: also "every
  turn at System 2" (the System 2 profile keeps the client's effort).
* **request-level effort** — a System 1 turn's requests at ``reasoning.effort = low``: what
  a gateway without ``configuration_update`` (or the user's own effort switch) does; each
  switch changes the cache's key, so the conversation is read from nothing again.
* **configuration_update gateway** — the product: the real gateway (in-process) on the
  routes the shipped router chose, a ``configuration_update`` item after each turn's input
  when the effort in force changes, re-inserted in place on every later request.

Session shapes: :func:`experiments.coding_sessions.sessions` (5–40 turns, a 14k–40k
token prefix, ``1 + Poisson(0.5 + 0.5·level)`` requests a turn, tool results of median 1,500
tokens, an exponential gap of mean 2 minutes between turns; an entry unused for 5 minutes
is gone). Where a conversation passes 150k tokens the client compacts it into a 6k-token
summary (the history is rewritten, in every arm alike: the gateway's earlier places are
dropped, and the turn's own update is inserted again at the next turn's start). Routes: the
shipped router's defaults on each prompt's text (no nights of learning: the question here
is what a route costs, not which routes the learner finds). Output: reasoning tokens
lognormal with median ``900·(1 + level)`` at ``high``, scaled by the effort the answer runs
at (``low`` 0.3), plus 60 tokens of answer. Prices: the shipped GPT-6 Astra row ($10 /
$50 / $1 per million tokens of input, output, cached input).

Output: ``experiments/runs/codex_gateway_cache/`` — ``table.md`` and ``results.json``.

    python experiments/codex_gateway_cache.py [--seeds 0 1 2 3 4] [--days 2] [--sessions 5]
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import shutil
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.gateway.price_table import PriceTable
from artibot.gateway.server import GatewayConfig, serve
from artibot.gateway.usage import Usage
from artibot.learned_router import Router
from artibot.hookpath.store import hookio
from experiments import responses_cache as rc
from experiments.args import parse, run_dir, save_json
from experiments.coding_sessions import COMPACT_AT, Session, sessions
from experiments.fake_messages_api import Threaded

MODEL = "gpt-6-astra"
CLIENT_EFFORT = "high"
ARMS = ("no gateway", "request-level effort", "configuration_update gateway")
SHARE = {"low": 0.3, "medium": 0.6, "high": 1.0, "xhigh": 1.3, "max": 1.6}


@dataclass(frozen=True)
class Args:
    """Codex CLI sessions through the gateway against a cache-faithful fake Responses API."""

    name: str = "codex_gateway_cache"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    """one simulated period per seed"""
    days: int = 2
    """days of sessions per seed"""
    sessions: int = 5
    """sessions a day"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


class Upstream:
    """An aiohttp fake Responses API with one prompt cache per arm (``x-sim-arm``), on a simulated clock."""

    def __init__(self) -> None:
        self.caches: dict[str, rc.PromptCache] = {}
        self.clock: dict[str, float] = {}
        self.bills: dict[str, list[dict[str, Any]]] = {}
        self.server = Threaded(self._start)
        self.url = f"http://127.0.0.1:{self.server.port}"

    async def _handle(self, request: Any) -> Any:
        from aiohttp import web

        body = json.loads(await request.read())
        arm = request.headers["x-sim-arm"]
        if any(i.get("type") == rc.UPDATE for i in body["input"]) and not rc.takes_updates(body.get("model")):
            return web.json_response({"error": {"type": "invalid_request_error", "message": "not supported"}},
                                     status=400)
        cache = self.caches.setdefault(arm, rc.PromptCache(clock=lambda: self.clock.get(arm, 0.0)))
        effort = rc.effort_of(body)
        reasoning = int(int(request.headers["x-sim-out"]) * SHARE[effort])
        usage = cache.usage(body, reasoning + 60, reasoning)
        self.bills.setdefault(arm, []).append({"model": body["model"], "effort": effort, "usage": usage})
        events = [{"type": "response.created", "response": {"model": body["model"]}},
                  {"type": "response.completed", "response": {"model": body["model"], "usage": usage}}]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for event in events:
            await response.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
        await response.write_eof()
        return response

    async def _start(self, stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        from aiohttp import web

        app = web.Application(client_max_size=256 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        ready(runner.addresses[0][1])
        await stop.wait()
        await runner.cleanup()

    def close(self) -> None:
        self.server.close()


def gateway(root: Path, upstream: str) -> Threaded:
    config = GatewayConfig(root=str(root), openai_upstream=upstream, port=0)

    async def start(stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        await serve(config, ready=ready, stop=stop)

    return Threaded(start)


class Conversation:
    """One session's ``input`` items as Codex CLI builds them: developer instructions, then
    each turn's prompt, the hook's route line, tool calls and their outputs, the answer."""

    def __init__(self, session: Session):
        self.prefix = session.prefix
        self.items: list[dict[str, Any]] = [{"type": "message", "role": "developer", "sim_tokens": session.prefix}]
        self.tokens = session.prefix

    def add(self, item: dict[str, Any], tokens: int) -> None:
        self.items.append({**item, "sim_tokens": tokens})
        self.tokens += tokens

    def compacted(self) -> None:
        self.items = self.items[:1] + [{"type": "message", "role": "user", "content": "summary", "sim_tokens": 6000}]
        self.tokens = self.prefix + 6000


def _turn_cost(turn: Any) -> float:
    usage = turn.get("usage") if isinstance(turn, dict) else None
    return float(usage.get("cost_usd") or 0.0) if isinstance(usage, dict) else 0.0


def run_arm(arm: str, days: list[list[Session]], routes: dict[str, list[str]], upstream: Upstream,
            tmp: Path) -> float:
    """Send every session through ``arm``; what the gateway recorded on the turns (0 without one)."""
    home = tmp / arm.replace(" ", "-")
    home.mkdir()
    gw = gateway(home, upstream.url) if arm == ARMS[2] else None
    port = gw.port if gw is not None else upstream.server.port
    path = "/openai/responses" if gw is not None else "/responses"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    recorded = 0.0
    try:
        for day in days:
            for session in day:
                conv = Conversation(session)
                for turn, route in zip(session.turns, routes[session.name]):
                    upstream.clock[arm] = upstream.clock.get(arm, 0.0) + turn.gap_s
                    tid = f"{session.name}-{turn.index:03d}"
                    if gw is not None:  # what the prompt hook leaves in the spool
                        with hookio.Spool(str(home), session.name).edit(create=True) as doc:
                            recorded += _turn_cost(doc.get("done"))  # replaced now: its cost is final
                            if isinstance(doc.get("turn"), dict):
                                doc["done"] = doc.pop("turn")
                            doc["turn"] = {"id": tid, "prompt_id": tid, "decision": {"system": route},
                                           "input": turn.text, "started_ms": hookio.now_ms()}
                    if conv.tokens > COMPACT_AT:
                        conv.compacted()
                    conv.add({"type": "message", "role": "user", "content": turn.text}, 20)
                    conv.add({"type": "message", "role": "developer", "content": f"artibot router: {route}"}, 30)
                    effort = "low" if arm == ARMS[1] and route == "system1" else CLIENT_EFFORT
                    for r in range(turn.requests(CLIENT_EFFORT)):  # as many as the client asks, in every arm
                        if r:
                            conv.add({"type": "function_call", "call_id": f"{tid}-{r}", "name": "exec_command"}, 150)
                            conv.add({"type": "function_call_output", "call_id": f"{tid}-{r}"}, turn.results[r - 1])
                        body = {"model": MODEL, "stream": True, "store": False, "input": conv.items,
                                "reasoning": {"effort": effort, "summary": "auto"},
                                "client_metadata": {"session_id": session.name, "turn_id": tid}}
                        conn.request("POST", path, body=json.dumps(body).encode(),
                                     headers={"content-type": "application/json", "authorization": "Bearer sk-sim",
                                              "x-sim-arm": arm, "x-sim-out": str(turn.outputs[r])})
                        response = conn.getresponse()
                        data = response.read()
                        if response.status != 200:
                            raise RuntimeError(f"{arm}: {response.status} {data[:200]!r}")
                        upstream.clock[arm] += 20 + turn.outputs[r] / 100
                    conv.add({"type": "message", "role": "assistant", "content": "done"}, 300)
                if gw is not None:
                    doc = hookio.Spool(str(home), session.name).read() or {}
                    recorded += _turn_cost(doc.get("done")) + _turn_cost(doc.get("turn"))
        return recorded
    finally:
        conn.close()
        if gw is not None:
            gw.close()


def figures(bills: list[dict[str, Any]]) -> dict[str, float]:
    table = PriceTable.shipped()
    cost = read = prompt = low = 0.0
    for bill in bills:
        u = bill["usage"]
        cached = u["input_tokens_details"]["cached_tokens"]
        cost += table.cost(bill["model"], Usage(u["input_tokens"] - cached, u["output_tokens"], 0, cached)) or 0.0
        read, prompt = read + cached, prompt + u["input_tokens"]
        low += bill["effort"] == "low"
    return {"cost": cost, "read_share": read / prompt, "requests": len(bills), "low_share": low / len(bills)}


def one_seed(seed: int, args: Args) -> dict[str, Any]:
    days = sessions(seed, args.days, args.sessions)
    tmp = Path(tempfile.mkdtemp(prefix=f"codex-cache-{seed}-"))
    try:
        router = Router.load(tmp / "router", rng=random.Random(seed))
        routes = {s.name: [router.route(t.text).system for t in s.turns] for day in days for s in day}
        upstream = Upstream()
        try:
            recorded = {arm: run_arm(arm, days, routes, upstream, tmp) for arm in ARMS}
            out: dict[str, Any] = {arm: figures(upstream.bills[arm]) for arm in ARMS}
            out["gateway_recorded_cost"] = recorded[ARMS[2]]
        finally:
            upstream.close()
        turns = [r for rs in routes.values() for r in rs]
        out["turns"] = {"n": len(turns), "system1": turns.count("system1")}
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _interval(values: list[float]) -> str:
    a = np.array(values)
    half = 1.96 * a.std(ddof=1) / np.sqrt(len(a)) if len(a) > 1 else 0.0
    return f"{a.mean():.2f} ± {half:.2f}"


def table(results: list[dict[str, Any]], seeds: tuple[int, ...]) -> str:
    turns = sum(r["turns"]["n"] for r in results)
    s1 = sum(r["turns"]["system1"] for r in results)
    lines = [f"### The same Codex CLI sessions, three ways (GPT-6 Astra; mean ± 95% interval over seeds "
             f"{', '.join(map(str, seeds))}; {turns} turns, {s1 / turns:.0%} routed to System 1)", "",
             "|  | requests | answered at low | cache-read share of input | cost $ (API bill) | "
             "saved against no gateway (paired) |", "|---|---|---|---|---|---|"]
    for arm in ARMS:
        costs = [r[arm]["cost"] for r in results]
        read = np.mean([r[arm]["read_share"] for r in results])
        saved = [1 - r[arm]["cost"] / r[ARMS[0]]["cost"] for r in results]
        saved_text = "—" if arm == ARMS[0] else (
            f"{100 * np.mean(saved):+.1f}% ± {100 * 1.96 * np.std(saved, ddof=1) / np.sqrt(len(saved)):.1f}%"
            if len(saved) > 1 else f"{100 * saved[0]:+.1f}%")
        lines.append(f"| {arm} | {sum(r[arm]['requests'] for r in results)} | "
                     f"{np.mean([r[arm]['low_share'] for r in results]):.2f} | {100 * read:.1f}% | "
                     f"{_interval(costs)} | {saved_text} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | Args | None = None) -> dict[str, Any]:
    args = argv if isinstance(argv, Args) else parse(Args, argv)
    results = [one_seed(seed, args) for seed in args.seeds]
    out = run_dir(args.name, args.out or None)
    text = table(results, args.seeds)
    (out / "table.md").write_text(text, encoding="utf-8")
    doc = {"args": asdict(args), "seeds": results}
    save_json(out / "results.json", doc)
    print(text)
    return doc


if __name__ == "__main__":
    main()
