"""What a route saves net of the prompt cache: coding sessions of realistic shape through the gateway,
against a fake API whose cache behaves as documented (:mod:`experiments.cache_model`).

A coding agent's turn is cheap because the conversation is read from the prompt cache, and
each model and each top-level effort has a cache of its own. So what a route saves per
turn (a few cents of output at a lower effort) is only worth having if switching costs
nothing. Five ways of sending the same sessions are compared, on the same draws:

* **no gateway** — every request as the client sent it: every turn at the client's effort
  (``medium``, what Claude Code 2.1.331 sends for ``claude-opus-5-5``). This is also
  "every turn at System 2": the System 2 profile changes nothing, so its requests are these.
* **previous gateway** — the learned routes applied the way the gateway did before: a
  System 1 turn's effort at the top level and on every message's marker, past turns included.
* **cache-safe gateway** — the product: the real gateway (in-process) on the routes the real
  router chose, learning each night from the turns' outcomes and measured costs
  (:func:`artibot.cycle.learn`, shipped defaults): the effort on per-message markers.
* **cache-safe gateway, System 1 on Haiku** — the same routes with ``gateway.profiles.system1
  .model = claude-haiku-5-5``: the model switches only when the switch rule says it pays.
* **cascade** — Anthropic's published pattern: every turn at ``low`` first (cache-safe
  markers), and a turn that fails there is asked again at the client's effort.

Session shapes (assumptions, drawn per seed, the same for every arm):

* a session has 5–40 turns (uniform); its fixed prefix (tools and system prompt) is 14k–40k
  tokens; a turn is ``1 + Poisson(0.5 + 0.5·level)`` requests; between two requests of a
  turn the conversation grows by a tool call (150 tokens) and its result (lognormal, median
  1,500); a turn ends with an answer of 300 tokens; so the cached prefix grows from 20k
  tokens towards 150k, where the client compacts the conversation (a summary request at the
  client's effort, then a 6k-token summary: counted as housekeeping in every arm);
* time: 20 s per request plus thinking, an exponential gap of mean 2 minutes between
  turns: a cache entry unused for 5 minutes is gone, in every arm alike;
* output: thinking and answer, lognormal with median ``900·(1 + level)`` at ``high``, scaled
  by the effort the fake API reads from the request (``low`` 0.3, ``medium`` 0.6);
* prompts: four domains at four complexity levels (:data:`TASKS`; the level is hidden from
  the router, which sees only the text);
* success: :data:`SUCCESS` (low effort close to full effort on easy work, well below it on
  hard work, most in security and backend); one uniform draw per turn decides every arm.

Prices: the shipped table (Opus 5.x at $5 / $25 / $6.25 / $0.50 per million tokens of input,
output, cache write and cache read; Haiku 5.x at $1 / $5 / $1.25 / $0.10). Costs are what
the fake API reported, priced once for every arm; the gateway's own record of the routed
arm is checked against it.

Output: ``experiments/runs/gateway_cache/`` — ``table.md``, ``results.json`` and
``gateway_cache.png``.

    python experiments/gateway_cache.py [--seeds 0 1 2 3 4] [--days 4] [--sessions 6]
"""

from __future__ import annotations

import asyncio
import http.client
import json
import math
import random
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.collector import collect
from artibot.cycle import learn
from artibot.errors import StoreError
from artibot.gateway.pricing import PriceTable
from artibot.gateway.profiles import Profile, Profiles
from artibot.gateway.server import GatewayConfig, serve
from artibot.gateway.usage import Usage
from artibot.learned_router import Router
from artibot.record import experience_record
from artibot.store import hookio
from experiments import cache_model, report
from experiments.fake_messages_api import Threaded, Upstream
from experiments.coding_sessions import (CLIENT_EFFORT, COMPACT_AT, SUCCESS, Conversation, Session, Turn,
                                         sessions)
from experiments.args import parse, run_dir, save_json

SMALL = "claude-haiku-5-5"
ARMS = ("no gateway", "previous gateway", "cache-safe gateway", "cache-safe gateway, System 1 on Haiku", "cascade")


@dataclass(frozen=True)
class Args:
    """Coding sessions through the gateway against a cache-faithful fake API: net cost per way of routing."""

    name: str = "gateway_cache"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    """one simulated period per seed"""
    days: int = 4
    """days simulated; the learner runs after each"""
    sessions: int = 6
    """sessions a day"""
    plots: bool = True
    """write gateway_cache.png"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


def gateway(root: Path, upstream_url: str, profiles: Profiles) -> Threaded:
    config = GatewayConfig(root=str(root), upstream=upstream_url, port=0, profiles=profiles)

    async def start(stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        await serve(config, ready=ready, stop=stop)

    return Threaded(start)


# --------------------------------------------------------------------- the arms
def previous_gateway(body: dict[str, Any], route: str | None) -> dict[str, Any]:
    """What the gateway did before: a System 1 turn's effort at the top level and on every marker."""
    if route != "system1":
        return body
    return {**body, "output_config": {"effort": "low"}, "messages": [
        {**m, "output_config": {**m["output_config"], "effort": "low"}} if "output_config" in m else m
        for m in body["messages"]]}


def marked(body: dict[str, Any], effort: str) -> dict[str, Any]:
    """The cascade's request: ``effort`` on the last turn, as an effort-only message (cache-safe)."""
    messages = body["messages"]
    last = max(i for i, m in enumerate(messages) if cache_model.new_input(m))
    end = last + 1
    while end < len(messages) and messages[end]["role"] == "system":
        end += 1
    return {**body, "messages": messages[:end] + [{"role": "system", "content": [],
                                                   "output_config": {"effort": effort}}] + messages[end:]}


class Arm:
    """One way of sending the sessions: a client connection to the fake API, or to a gateway."""

    def __init__(self, name: str, upstream: Upstream, tmp: Path, seed: int, *, routed: bool = False,
                 profiles: Profiles | None = None):
        self.name, self.seed, self.upstream = name, seed, upstream
        self.home = tmp / name.replace(" ", "-").replace(",", "")
        self.home.mkdir(parents=True)
        self.gateway = gateway(self.home, upstream.url, profiles) if profiles is not None else None
        port = self.gateway.port if self.gateway is not None else upstream.server.port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.router = Router.load(self.home, rng=random.Random(seed)) if routed else None
        self.turns: list[dict[str, Any]] = []
        self.nights: list[dict[str, Any]] = []

    def send(self, body: dict[str, Any], out_tokens: int, kind: str = "turn") -> None:
        headers = {"content-type": "application/json", "x-api-key": "sk-ant-sim", "anthropic-version": "2023-06-01",
                   "anthropic-beta": "claude-code-20250219,effort-2025-11-24,per-turn-control-2026-07-01",
                   "x-sim-arm": self.name, "x-sim-out": str(out_tokens), "x-sim-kind": kind}
        self.conn.request("POST", "/v1/messages?beta=true", body=json.dumps(body).encode(), headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"{self.name}: the API answered {response.status}: {data[:300]!r}")

    def tick(self, seconds: float) -> None:
        self.upstream.clock[self.name] = self.upstream.clock.get(self.name, 0.0) + seconds

    def close(self) -> None:
        self.conn.close()
        if self.gateway is not None:
            self.gateway.close()


def run_session(arm: Arm, session: Session, routes: list[str] | None) -> list[str]:
    """Send one session through ``arm``; the routes it took (chosen by its router, or given)."""
    conv = Conversation(session)
    taken: list[str] = []
    for turn in session.turns:
        arm.tick(turn.gap_s)
        decision = route_turn(arm, turn, routes)
        route = decision["system"]
        taken.append(route)
        tid = f"exp_{session.name}_{turn.index:03d}"
        if arm.gateway is not None:
            with hookio.Spool(str(arm.home), session.name).edit(create=True) as doc:  # what the prompt hook leaves
                if isinstance(doc.get("turn"), dict):
                    doc["done"] = doc.pop("turn")
                doc["turn"] = {"id": tid, "decision": decision, "input": turn.text, "started_ms": hookio.now_ms()}
        if conv.tokens > COMPACT_AT:  # the client compacts before the prompt goes out: the new turn's housekeeping
            body = conv.compact_body(session.name)
            arm.send(previous_gateway(body, None), 2000, "housekeeping")
            arm.tick(30)
            conv.compacted()
        conv.open_turn(turn, route if arm.name not in (ARMS[0], ARMS[4]) else None)
        attempts = ["low", CLIENT_EFFORT] if arm.name == "cascade" else [None]
        low, full = SUCCESS[turn.domain][turn.level]
        ok = False
        for attempt in attempts:
            for r in range(turn.requests):
                if r:
                    conv.add({"role": "assistant", "content": [{"type": "tool_use", "id": f"t{turn.index}{r}",
                                                                "name": "Bash", "input": {}, "sim_tokens": 150}]}, 150)
                    conv.add({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{turn.index}{r}",
                                                           "content": "out",
                                                           "sim_tokens": turn.results[r - 1]}]}, turn.results[r - 1])
                body = conv.body(session.name)
                if arm.name == "previous gateway":
                    body = previous_gateway(body, route)
                elif attempt is not None:
                    body = marked(body, attempt)
                arm.send(body, turn.outputs[r])
                arm.tick(20 + turn.outputs[r] / 100)
            conv.add({"role": "assistant", "content": [{"type": "text", "text": "answer", "sim_tokens": 300}]}, 300)
            lowered = attempt == "low" or (attempt is None and route == "system1")
            ok = turn.draw < (low if lowered else full)
            if ok or attempt is None:
                break
            route = "system2"  # the cascade asks again at the client's effort
            conv.add({"role": "user", "content": [{"type": "text", "text": "that did not work; try again"}]}, 10)
        arm.turns.append({"route": route, "ok": ok, "session": session.name})
        if arm.router is not None:
            usage = ((hookio.Spool(str(arm.home), session.name).read() or {}).get("turn") or {}).get("usage")
            collect(experience_record(
                id=tid, session_id=session.name, input=turn.text, domain=decision["domain"],
                complexity=decision["complexity"], routed_to=route, outcome="success" if ok else "failed",
                latency_ms=1000.0, confidence=decision["confidence"], pattern=decision["pattern"],
                threshold=decision["threshold"], propensity=decision["propensity"], agent="simulation",
                usage=usage if isinstance(usage, dict) else None), home=arm.home)
    return taken


def route_turn(arm: Arm, turn: Turn, routes: list[str] | None) -> dict[str, Any]:
    if arm.router is not None:
        d = arm.router.route(turn.text)
        return {"system": d.system, "domain": d.domain, "complexity": d.complexity, "confidence": d.confidence,
                "pattern": d.pattern, "threshold": d.threshold, "propensity": d.propensity}
    route = "system2" if arm.name == ARMS[0] else "system1" if arm.name == ARMS[4] else routes.pop(0) if routes \
        else "system2"
    return {"system": route, "domain": turn.domain, "complexity": None, "confidence": None, "pattern": None,
            "threshold": None, "propensity": None}


def night(arm: Arm) -> None:
    try:
        done = learn(home=arm.home, answers="defaults")
    except StoreError:  # a round id drawn twice in one second
        time.sleep(1.0)
        done = learn(home=arm.home, answers="defaults")
    arm.router = Router.load(arm.home, rng=random.Random(arm.seed * 1000 + len(arm.nights) + 1))
    arm.nights.append({"status": done.status, "thresholds": {"*": arm.router.policy.default_threshold,
                                                             **arm.router.policy.domain_thresholds}})


# --------------------------------------------------------------------- one seed
def bill(upstream: Upstream, arm: str) -> dict[str, float]:
    table = PriceTable.shipped()
    rows = upstream.bills.get(arm, [])
    cost = sum(table.cost(r["model"], Usage(**r["usage"])) or 0.0 for r in rows)
    read = sum(r["usage"]["cache_read_input_tokens"] for r in rows)
    written = sum(r["usage"]["cache_creation_input_tokens"] for r in rows)
    prompt = sum(r["usage"]["input_tokens"] for r in rows) + read + written
    return {"cost": cost, "read_share": read / prompt if prompt else 0.0, "written": float(written),
            "requests": float(len(rows)), "low": float(sum(r["effort"] == "low" for r in rows))}


def one_seed(seed: int, args: Args, upstream: Upstream) -> dict[str, Any]:
    upstream.reset()
    tmp = Path(tempfile.mkdtemp(prefix="artibot-gateway-cache-"))
    arms = {
        ARMS[0]: Arm(ARMS[0], upstream, tmp, seed),
        ARMS[1]: Arm(ARMS[1], upstream, tmp, seed),
        ARMS[2]: Arm(ARMS[2], upstream, tmp, seed, routed=True, profiles=Profiles()),
        ARMS[3]: Arm(ARMS[3], upstream, tmp, seed, profiles=Profiles(system1=Profile("low", SMALL))),
        ARMS[4]: Arm(ARMS[4], upstream, tmp, seed),
    }
    try:
        for day in sessions(seed, args.days, args.sessions):
            for session in day:
                routes = run_session(arms[ARMS[2]], session, None)
                for name in (ARMS[0], ARMS[1], ARMS[3], ARMS[4]):
                    run_session(arms[name], session, list(routes))
            night(arms[ARMS[2]])
        out: dict[str, Any] = {"seed": seed, "arms": {}}
        for name, arm in arms.items():
            turns = arm.turns
            out["arms"][name] = {**bill(upstream, name), "turns": len(turns),
                                 "s2_share": sum(t["route"] == "system2" for t in turns) / len(turns),
                                 "success": sum(t["ok"] for t in turns) / len(turns)}
        recorded = sum(float(((r.get("usage") or {}).get("cost_usd") or 0.0)
                             + ((r.get("usage") or {}).get("housekeeping") or {}).get("cost_usd", 0.0))
                       for r in _records(arms[ARMS[2]].home))
        out["gateway_recorded_cost"] = recorded
        out["nights"] = arms[ARMS[2]].nights
        return out
    finally:
        for arm in arms.values():
            arm.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _records(home: Path) -> list[dict[str, Any]]:
    from artibot.costs import _records as records
    from artibot.store.home import Home

    return list(records(Home(home)))


# --------------------------------------------------------------------- summary
def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% t-interval over seeds (0 for one seed)."""
    from scipy import stats

    a = np.asarray(values, float)
    if len(a) < 2:
        return float(a.mean()), 0.0
    return float(a.mean()), float(stats.t.ppf(0.975, len(a) - 1) * a.std(ddof=1) / math.sqrt(len(a)))


def table(runs: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    summary: dict[str, Any] = {}
    rows = []
    base = [r["arms"][ARMS[0]]["cost"] for r in runs]
    for name in ARMS:
        cells = {k: interval([r["arms"][name][k] for r in runs])
                 for k in ("turns", "s2_share", "success", "cost", "read_share", "written")}
        net = interval([1 - r["arms"][name]["cost"] / b for r, b in zip(runs, base)])
        cells["net_saving"] = net
        summary[name] = cells
        rows.append([name, f"{cells['turns'][0]:.0f}", f"{cells['s2_share'][0]:.2f}",
                     f"{cells['success'][0]:.3f} ± {cells['success'][1]:.3f}",
                     f"{cells['read_share'][0]:.1%}", f"{cells['written'][0] / 1e6:.2f}M",
                     f"{cells['cost'][0]:.2f} ± {cells['cost'][1]:.2f}",
                     "—" if name == ARMS[0] else f"{net[0]:+.1%} ± {net[1]:.1%}"])
    md = report.markdown_table(["", "turns", "System 2 share", "success", "cache-read share of input",
                                "cache writes (tokens)", "cost $ (API bill)", "saved against no gateway (paired)"],
                               rows)
    return md, summary


def plot(path: Path, runs: list[dict[str, Any]]) -> None:
    plt = report._pyplot()
    fig, ax = plt.subplots(figsize=(10, 4.0))
    names = list(ARMS)
    base = np.array([r["arms"][ARMS[0]]["cost"] for r in runs])
    values = np.array([[r["arms"][n]["cost"] for r in runs] for n in names]) / base[None, :]
    success = [np.mean([r["arms"][n]["success"] for r in runs]) for n in names]
    means = values.mean(axis=1)
    halves = [interval(list(v))[1] for v in values]
    colors = ["tab:gray", "tab:red", "tab:blue", "tab:cyan", "tab:purple"]
    ax.barh(range(len(names)), means, xerr=halves, color=colors, capsize=3)
    ax.set_yticks(range(len(names)), [n.replace(", ", ",\n") for n in names])
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", lw=0.8)
    for i, (m, h) in enumerate(zip(means, halves)):
        ax.text(m + h + 0.02, i, f"{m - 1:+.1%}   (success {success[i]:.3f})", va="center", fontsize=9)
    ax.set_xlim(0, max(means + np.array(halves)) + 0.45)
    ax.set_xlabel("API bill, cache writes and reads included, relative to no gateway (lower is better)")
    ax.set_title(f"net cost of the same sessions ({len(runs)} seeds, bars: 95% interval)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(args: Args) -> dict[str, Any]:
    out = run_dir(args.name, args.out or None)
    began = time.perf_counter()
    upstream = Upstream()
    try:
        runs = [one_seed(seed, args, upstream) for seed in args.seeds]
    finally:
        upstream.close()
    md, summary = table(runs)
    result = {"args": asdict(args), "summary": summary, "runs": runs, "seconds": time.perf_counter() - began}
    save_json(out / "results.json", result)
    (out / "table.md").write_text(f"### The same sessions, five ways (mean ± 95% interval over seeds "
                                  f"{', '.join(map(str, args.seeds))})\n\n{md}\n", encoding="utf-8")
    if args.plots and report.plots_available():
        plot(out / f"{args.name}.png", runs)
    result["table"] = md
    return result


if __name__ == "__main__":
    result = main(parse(Args))
    print(result["table"])
    print(f"\n{result['seconds']:.0f} s")
