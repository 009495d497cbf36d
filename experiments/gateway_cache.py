"""What a turn costs until it is done: coding sessions of realistic shape through the gateway,
against a fake API whose cache behaves as documented (:mod:`experiments.cache_model`), a failed
turn redone by the person.

A coding agent's turn is cheap because the conversation is read from the prompt cache, and
each model and each top-level effort has a cache of its own; a lower effort makes fewer tool
calls and writes less. Four ways of sending the same sessions are compared, on the same draws:

* **all System 2 (no gateway)** — every request as the client sent it (``medium``, what
  Claude Code 2.1.331 sends for ``claude-opus-5-5``; the System 2 profile changes nothing);
* **previous gateway** — the routed arm's routes applied the way the gateway did before: a
  System 1 turn's effort at the top level and on every message's marker, past turns included;
* **cache-safe gateway** — the product: the real gateway (in-process) on the routes the real
  router chose, learning each night from the turns' outcomes and measured costs
  (:func:`artibot.round.cycle.learn`, shipped defaults unless ``--router-config``);
* **cascade** — Anthropic's published pattern: every turn at ``low`` first, a turn that fails
  there asked again at the client's effort (its client keeps each attempt's marker in its
  history, as the cache-safe gateway does).

A failed first try is redone once by the person a minute later, in every arm: at ``medium``
for all-System-2 and the cascade; for the router, routed, its escalation rule sending the redo
of a failed System 1 turn to System 2. The redo's outcome is its own draw (the same in every
arm); the final success counts the first try or the redo.

The world (:mod:`experiments.coding_sessions`; assumptions but for the fit):

* a session has 5–40 turns; a fixed prefix of 14k–40k tokens; four domains at four
  complexity levels (weights 4:3:2:1; the level is hidden from the router, which sees the text);
* a turn at effort ``e`` is 1 + Poisson-quantile(u, (1 + level)·s_e) requests (one uniform
  ``u`` per turn), each answer's output lognormal with median ``900·(1 + level)·s_e``; between
  two requests a tool call (150 tokens) and its result (lognormal, median 1,500); compaction
  past 150k tokens; 20 s per request plus thinking, gaps of mean 2 minutes between turns;
* **the fit**: ``s_e`` (:data:`~experiments.coding_sessions.EFFORT_SCALE`) by bisection so that
  every session's whole bill at ``low`` and at ``medium`` is 0.25 and 0.5 of the bill at
  ``high`` (Anthropic's cost guidance), on ``--calibration-seeds`` (``--calibrate``); success at
  ``low`` 6 points below ``medium`` on average (−8 and −2 against ``high``), the base table's gap
  scaled by one factor (``--gap-power`` gathers it on the hardest cells).

Prices: the shipped table. Costs are what the fake API reported, priced once for every arm; the
gateway's own record of the routed arm is checked against it.

Output: ``experiments/runs/gateway_cache/`` — ``table.md``, ``results.json`` and
``gateway_cache.png`` (``calibration.json`` with ``--calibrate``).

    python experiments/gateway_cache.py [--seeds 0 1 2 3 4] [--days 4] [--sessions 6] [--calibrate]
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
from typing import Any, Callable, Iterator

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from artibot.collector import collect
from artibot.config import settings_from_mapping
from artibot.round.cycle import learn
from artibot.errors import StoreError
from artibot.gateway.price_table import PriceTable
from artibot.gateway.profiles import Profiles
from artibot.gateway.server import GatewayConfig, serve
from artibot.gateway.usage import Usage
from artibot.learned_router import Router
from artibot.config.settings import Settings
from artibot.hookpath.record import experience_record
from artibot.hookpath.store import hookio
from experiments import cache_model, report
from experiments.fake_messages_api import Threaded, Upstream
from experiments.coding_sessions import (BILL_TARGET, CLIENT_EFFORT, COMPACT_AT, EFFORT_SCALE, SUCCESS,
                                         Conversation, Session, Turn, sessions, success_table)
from experiments.args import parse, run_dir, save_json

S2, PREVIOUS, ROUTED, CASCADE = "all System 2 (no gateway)", "previous gateway", "cache-safe gateway", "cascade"
ARMS = (S2, PREVIOUS, ROUTED, CASCADE)
FIXED = ("low", "medium", "high")
"""The calibration's arms: every request of every turn at one effort, straight to the fake API."""
REDO_GAP_S = 60.0
"""The person reads the failed answer and asks again (seconds on the simulated clock)."""
REDO_TEXT = "that did not work; try again: "
REDO_USD = 0.10
"""What a redo costs the person (the shipped ``redoCostUsd``), for the column that counts it."""


@dataclass(frozen=True)
class Args:
    """Coding sessions through the gateway against a cache-faithful fake API: what each way of routing costs
    to get the work done, a failed turn redone by the person."""

    name: str = "gateway_cache"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    """one simulated period per seed (the reported seeds)"""
    days: int = 4
    """days simulated; the learner runs after each"""
    sessions: int = 6
    """sessions a day"""
    calibrate: bool = False
    """fit the effort shares to the published bill ratios on --calibration-seeds instead of running the arms"""
    calibration_seeds: tuple[int, ...] = (100, 101, 102, 103, 104)
    """the seeds the effort shares are fitted on (never reported)"""
    router_config: str = ""
    """JSON merged over the shipped settings for the routed arm (a what-if; empty: the router as shipped)"""
    gap_power: float = 1.0
    """the shape of System 1's success gap: 1 spreads it as the base table does, more gathers it on the
    hardest cells (the mean stays 6 points either way)"""
    learn_after: str = "day"
    """when the learner runs: "day" (each night) or "session" (at each session's end, as the product's
    SessionEnd learner does; it learns only full batches either way)"""
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
def at_effort(body: dict[str, Any], effort: str) -> dict[str, Any]:
    """``effort`` at the top level and on every marker (past turns included)."""
    return {**body, "output_config": {"effort": effort}, "messages": [
        {**m, "output_config": {**m["output_config"], "effort": effort}} if "output_config" in m else m
        for m in body["messages"]]}


def previous_gateway(body: dict[str, Any], route: str | None) -> dict[str, Any]:
    """What the gateway did before: a System 1 turn's effort at the top level and on every marker."""
    return at_effort(body, "low") if route == "system1" else body


class Arm:
    """One way of sending the sessions: a client connection to the fake API, or to a gateway, or
    (``direct``) the fake's answers in process."""

    def __init__(self, name: str, upstream: Upstream, tmp: Path, seed: int, *, routed: bool = False,
                 profiles: Profiles | None = None, direct: bool = False, settings: Settings | None = None):
        self.name, self.seed, self.upstream, self.direct, self.settings = name, seed, upstream, direct, settings
        self.home = tmp / "".join(c if c.isalnum() else "-" for c in name)
        self.home.mkdir(parents=True)
        self.gateway = gateway(self.home, upstream.url, profiles) if profiles is not None else None
        port = self.gateway.port if self.gateway is not None else upstream.server.port
        self.conn = None if direct else http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.router = Router.load(self.home, settings=settings, rng=random.Random(seed)) if routed else None
        self.turns: list[dict[str, Any]] = []
        self.nights: list[dict[str, Any]] = []
        self.rounds = 0
        self.success = SUCCESS

    def send(self, body: dict[str, Any], out_tokens: int, kind: str = "turn") -> None:
        beta = "claude-code-20250219,effort-2025-11-24,per-turn-control-2026-07-01"
        if self.conn is None:
            answered = self.upstream.answer(self.name, body, beta, out_tokens, kind)
            if isinstance(answered, str):
                raise RuntimeError(f"{self.name}: the API refused the request: {answered}")
            return
        headers = {"content-type": "application/json", "x-api-key": "sk-ant-sim", "anthropic-version": "2023-06-01",
                   "anthropic-beta": beta, "x-sim-arm": self.name, "x-sim-out": str(out_tokens), "x-sim-kind": kind}
        self.conn.request("POST", "/v1/messages?beta=true", body=json.dumps(body).encode(), headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"{self.name}: the API answered {response.status}: {data[:300]!r}")

    def tick(self, seconds: float) -> None:
        self.upstream.clock[self.name] = self.upstream.clock.get(self.name, 0.0) + seconds

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        if self.gateway is not None:
            self.gateway.close()


def run_session(arm: Arm, session: Session, routes: list[str] | None,
                scale: dict[str, float] | None = None) -> list[str]:
    """Send one session through ``arm``, a failed turn redone once by the person; the routes it
    took, redos included (chosen by its router, or given in ``routes``)."""
    conv = Conversation(session)
    taken: list[str] = []
    for turn in session.turns:
        arm.tick(turn.gap_s)
        first = attempt(arm, conv, turn, 0, routes, after_failed_system1=False, scale=scale)
        taken.append(first["route"])
        redo = None
        if not first["ok"]:
            arm.tick(REDO_GAP_S)
            redo = attempt(arm, conv, turn, 1, routes, after_failed_system1=first["route"] == "system1", scale=scale)
            taken.append(redo["route"])
        arm.turns.append({"route": first["route"], "ok": first["ok"], "final": first["ok"] or bool(redo and redo["ok"]),
                          "redo": redo is not None, "redo_route": redo and redo["route"],
                          "redo_reason": redo and redo["reason"], "session": session.name,
                          "domain": turn.domain, "level": turn.level})
    return taken


def effort_of_attempt(arm: Arm, route: str | None, k: int) -> str:
    if arm.name in FIXED:
        return arm.name
    if arm.name == CASCADE:
        return "low" if k == 0 else CLIENT_EFFORT
    return "low" if route == "system1" else CLIENT_EFFORT


def attempt(arm: Arm, conv: Conversation, turn: Turn, k: int, routes: list[str] | None, *,
            after_failed_system1: bool, scale: dict[str, float] | None) -> dict[str, Any]:
    """One attempt at ``turn`` (``k`` 0: the first; 1: the person's redo); its route, reason and outcome."""
    decision = route_turn(arm, turn, routes, k, after_failed_system1)
    route = decision["system"]
    text = turn.text if k == 0 else REDO_TEXT + turn.text
    tid = f"exp_{turn.session}_{turn.index:03d}_{k}"
    if arm.gateway is not None:
        with hookio.Spool(str(arm.home), turn.session).edit(create=True) as doc:  # what the prompt hook leaves
            if isinstance(doc.get("turn"), dict):
                doc["done"] = doc.pop("turn")
            doc["turn"] = {"id": tid, "decision": decision, "input": text, "started_ms": hookio.now_ms()}
    if conv.tokens > COMPACT_AT:  # the client compacts before the prompt goes out: the new turn's housekeeping
        body = conv.compact_body(turn.session)
        arm.send(at_effort(body, arm.name) if arm.name in FIXED else body, 2000, "housekeeping")
        arm.tick(30)
        conv.compacted()
    effort = effort_of_attempt(arm, route, k)
    # the cascade's client puts the attempt's effort on the prompt's context message (cache-safe: kept in the history)
    conv.open_turn(turn, route if arm.name in (PREVIOUS, ROUTED) else None, text=text,
                   effort=effort if arm.name == CASCADE else None)
    requests = turn.requests(effort, scale)
    for r in range(requests):
        if r:
            conv.add({"role": "assistant", "content": [{"type": "tool_use", "id": f"t{turn.index}{k}{r}",
                                                        "name": "Bash", "input": {}, "sim_tokens": 150}]}, 150)
            conv.add({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{turn.index}{k}{r}",
                                                   "content": "out", "sim_tokens": turn.results[r - 1]}]},
                     turn.results[r - 1])
        body = conv.body(turn.session)
        if arm.name == PREVIOUS:
            body = previous_gateway(body, route)
        elif arm.name in FIXED:
            body = at_effort(body, effort)
        arm.send(body, turn.outputs[r])
        arm.tick(20 + turn.outputs[r] / 100)
    conv.add({"role": "assistant", "content": [{"type": "text", "text": "answer", "sim_tokens": 300}]}, 300)
    low, full = arm.success[turn.domain][turn.level]
    ok = turn.draws[k] < (low if effort == "low" else full)
    if arm.router is not None:
        usage = ((hookio.Spool(str(arm.home), turn.session).read() or {}).get("turn") or {}).get("usage")
        collect(experience_record(
            id=tid, session_id=turn.session, input=text, domain=decision["domain"],
            complexity=decision["complexity"], routed_to=route, outcome="success" if ok else "failed",
            latency_ms=1000.0, confidence=decision["confidence"], pattern=decision["pattern"],
            threshold=decision["threshold"], propensity=decision["propensity"], route_reason=decision["reason"],
            agent="simulation", usage=usage if isinstance(usage, dict) else None), home=arm.home)
    return {"route": route, "ok": ok, "reason": decision["reason"], "effort": effort, "requests": requests}


def route_turn(arm: Arm, turn: Turn, routes: list[str] | None, k: int, after_failed_system1: bool) -> dict[str, Any]:
    if arm.router is not None:
        d = arm.router.route(turn.text)  # the person restates the task: routed as it was
        if after_failed_system1:  # the router's escalation rule (on by default): the retry goes to System 2
            d = arm.router.policy.escalate(d)
        return {"system": d.system, "domain": d.domain, "complexity": d.complexity, "confidence": d.confidence,
                "pattern": d.pattern, "threshold": d.threshold, "propensity": d.propensity, "reason": d.reason}
    if arm.name == PREVIOUS and routes:
        route = routes.pop(0)
    elif arm.name == CASCADE:
        route = "system1" if k == 0 else "system2"
    elif arm.name in FIXED:
        route = "system1" if arm.name == "low" else "system2"
    else:
        route = "system2"
    return {"system": route, "domain": turn.domain, "complexity": None, "confidence": None, "pattern": None,
            "threshold": None, "propensity": None, "reason": None}


def night(arm: Arm, keep: bool = True) -> None:
    """A learning round (pre-approved), the router reloaded; ``keep``: the day's last, in :attr:`Arm.nights`."""
    try:
        done = learn(home=arm.home, answers="defaults", settings=arm.settings)
    except StoreError:  # a round id drawn twice in one second
        time.sleep(1.0)
        done = learn(home=arm.home, answers="defaults", settings=arm.settings)
    arm.rounds += 1
    arm.router = Router.load(arm.home, settings=arm.settings, rng=random.Random(arm.seed * 1000 + arm.rounds))
    if keep:
        arm.nights.append({"status": done.status, "thresholds": {"*": arm.router.policy.default_threshold,
                                                                 **arm.router.policy.domain_thresholds}})


# --------------------------------------------------------------------- one seed
def bill(upstream: Upstream, arm: str, rows: list[dict[str, Any]] | None = None) -> dict[str, float]:
    table = PriceTable.shipped()
    rows = upstream.bills.get(arm, []) if rows is None else rows
    cost = sum(table.cost(r["model"], Usage(**r["usage"])) or 0.0 for r in rows)
    read = sum(r["usage"]["cache_read_input_tokens"] for r in rows)
    written = sum(r["usage"]["cache_creation_input_tokens"] for r in rows)
    prompt = sum(r["usage"]["input_tokens"] for r in rows) + read + written
    return {"cost": cost, "read_share": read / prompt if prompt else 0.0, "written": float(written),
            "requests": float(len(rows)), "low": float(sum(r["effort"] == "low" for r in rows))}


def summarize(arm: Arm, upstream: Upstream, days: list[int]) -> dict[str, Any]:
    """One arm's figures for one seed; ``days``: how many of its bill rows each day ended at."""
    turns = arm.turns
    n = len(turns)
    rows = upstream.bills.get(arm.name, [])
    per_day = [bill(upstream, arm.name, rows[a:b])["cost"] for a, b in zip([0, *days], days)]
    return {**bill(upstream, arm.name), "turns": n, "day_cost": per_day,
            "s1_share": sum(t["route"] == "system1" for t in turns) / n,
            "s2_share": sum(t["route"] == "system2" for t in turns) / n,
            "success": sum(t["ok"] for t in turns) / n, "final": sum(t["final"] for t in turns) / n,
            "redos": sum(t["redo"] for t in turns) / n,
            "outcomes": [[int(t["ok"]), int(t["final"]), int(t["redo"])] for t in turns],
            "escalations": sum(t["redo_reason"] == "escalation" for t in turns)}


def one_seed(seed: int, args: Args, upstream: Upstream) -> dict[str, Any]:
    if args.learn_after not in ("day", "session"):
        raise ValueError(f"--learn-after must be day or session, not {args.learn_after!r}")
    upstream.reset()
    tmp = Path(tempfile.mkdtemp(prefix="artibot-gateway-cache-"))
    settings = settings_from_mapping(json.loads(args.router_config)) if args.router_config else None
    arms = {
        S2: Arm(S2, upstream, tmp, seed),
        PREVIOUS: Arm(PREVIOUS, upstream, tmp, seed),
        ROUTED: Arm(ROUTED, upstream, tmp, seed, routed=True, profiles=Profiles(), settings=settings),
        CASCADE: Arm(CASCADE, upstream, tmp, seed),
    }
    table_ = success_table(args.gap_power)
    for arm in arms.values():
        arm.success = table_
    ends: dict[str, list[int]] = {name: [] for name in arms}
    try:
        for day in sessions(seed, args.days, args.sessions):
            for session in day:
                routes = run_session(arms[ROUTED], session, None)
                for name in (S2, PREVIOUS, CASCADE):
                    run_session(arms[name], session, list(routes))
                if args.learn_after == "session" and session is not day[-1]:
                    night(arms[ROUTED], keep=False)
            night(arms[ROUTED])
            for name in arms:
                ends[name].append(len(upstream.bills.get(name, [])))
        out: dict[str, Any] = {"seed": seed, "arms": {name: summarize(arm, upstream, ends[name])
                                                      for name, arm in arms.items()}}
        recorded = sum(float(((r.get("usage") or {}).get("cost_usd") or 0.0)
                             + ((r.get("usage") or {}).get("housekeeping") or {}).get("cost_usd", 0.0))
                       for r in _records(arms[ROUTED].home))
        out["gateway_recorded_cost"] = recorded
        out["nights"] = arms[ROUTED].nights
        out["routed_by_cell"] = by_cell(arms[ROUTED].turns)
        return out
    finally:
        for arm in arms.values():
            arm.close()
        shutil.rmtree(tmp, ignore_errors=True)


def by_cell(turns: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """The routed arm's System 1 share per domain and level, over the first and the last day's half."""
    out: dict[str, dict[str, float]] = {}
    half = len(turns) // 2
    for part, chunk in (("first half", turns[:half]), ("second half", turns[half:])):
        cells: dict[str, list[int]] = {}
        for t in chunk:
            cells.setdefault(f"{t['domain']} {t['level']}", []).append(int(t["route"] == "system1"))
        out[part] = {k: sum(v) / len(v) for k, v in sorted(cells.items())}
    return out


def _records(home: Path) -> list[dict[str, Any]]:
    from artibot.reports.costs import _records as records
    from artibot.store.home import Home

    return list(records(Home(home)))


# --------------------------------------------------------------------- the fit
def _turns_at(effort: str, seed: int, args: Args, upstream: Upstream, prefix: str
              ) -> Iterator[tuple[Arm, Conversation, Any]]:
    """Every turn of the sessions of ``seed``, each request at ``effort`` (in process, no redo),
    the clock advanced to it: ``(arm, conversation, turn)`` for the caller to attempt."""
    upstream.reset()
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        arm = Arm(effort, upstream, tmp, seed, direct=True)
        for day in sessions(seed, args.days, args.sessions):
            for session in day:
                conv = Conversation(session)
                for turn in session.turns:
                    arm.tick(turn.gap_s)
                    yield arm, conv, turn
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fixed_bill(effort: str, seeds: tuple[int, ...], args: Args, upstream: Upstream, scale: dict[str, float]) -> float:
    """The bill of every session of ``seeds`` with every request at ``effort`` (in process, no redo)."""
    total = 0.0
    upstream.output_share = {**cache_model.OUTPUT_SHARE, **scale}
    for seed in seeds:
        for arm, conv, turn in _turns_at(effort, seed, args, upstream, "artibot-gateway-fit-"):
            attempt(arm, conv, turn, 0, None, after_failed_system1=False, scale=scale)
        total += bill(upstream, effort)["cost"]
    return total


def cell_costs(seeds: tuple[int, ...], args: Args, upstream: Upstream) -> dict[str, Any]:
    """Per domain and level: a first try's mean cost at ``low`` and at the client's effort (every turn of
    the sessions of ``seeds`` at that effort, in process), System 1's failure rate, and what trying
    System 1 first saves per turn against System 2 alone (its failures retried at System 2), in API
    dollars and with a redo at :data:`REDO_USD`."""
    upstream.output_share = {**cache_model.OUTPUT_SHARE, **EFFORT_SCALE}
    costs: dict[str, dict[str, list[float]]] = {}
    for effort in ("low", CLIENT_EFFORT):
        for seed in seeds:
            for arm, conv, turn in _turns_at(effort, seed, args, upstream, "artibot-gateway-cells-"):
                before = len(upstream.bills.get(effort, []))
                attempt(arm, conv, turn, 0, None, after_failed_system1=False, scale=None)
                rows = upstream.bills[effort][before:]
                key = f"{turn.domain} {turn.level}"
                costs.setdefault(key, {}).setdefault(effort, []).append(bill(upstream, effort, rows)["cost"])
    out = {}
    for key, by in sorted(costs.items()):
        domain, level = key.split()
        c1, c2 = float(np.mean(by["low"])), float(np.mean(by[CLIENT_EFFORT]))
        fail = 1 - success_table(args.gap_power)[domain][int(level)][0]
        out[key] = {"c1": c1, "c2": c2, "system1_fails": fail, "saving": c2 - (c1 + fail * c2),
                    "saving_with_redo": c2 - (c1 + fail * (c2 + REDO_USD)),
                    "break_even": (c2 - c1) / c2, "break_even_with_redo": (c2 - c1) / (c2 + REDO_USD)}
    return out


def calibrate(args: Args, upstream: Upstream, steps: int = 10) -> dict[str, Any]:
    """Fit each effort's share (tool calls and output alike) by bisection so that the whole bill at
    that effort is :data:`BILL_TARGET` of the bill at ``high``, on ``args.calibration_seeds``."""
    seeds = args.calibration_seeds
    high = fixed_bill("high", seeds, args, upstream, dict(EFFORT_SCALE))
    fitted: dict[str, float] = {"high": 1.0}
    for effort, target in BILL_TARGET.items():
        lo, hi = 0.02, 1.0
        for _ in range(steps):
            mid = (lo + hi) / 2
            ratio = fixed_bill(effort, seeds, args, upstream, {**EFFORT_SCALE, effort: mid}) / high
            lo, hi = (mid, hi) if ratio < target else (lo, mid)
        fitted[effort] = round((lo + hi) / 2, 4)
    scale = {**EFFORT_SCALE, **fitted}
    ratios = {e: fixed_bill(e, seeds, args, upstream, scale) / high for e in BILL_TARGET}
    report_seeds = {e: fixed_bill(e, args.seeds, args, upstream, scale) / fixed_bill("high", args.seeds, args,
                                                                                     upstream, scale)
                    for e in BILL_TARGET}
    cells = cell_costs(args.seeds, args, upstream)
    return {"scale": fitted, "bill_ratio": ratios, "bill_ratio_reported_seeds": report_seeds, "cells": cells,
            "calibration_seeds": list(seeds), "reported_seeds": list(args.seeds), "target": dict(BILL_TARGET)}


# --------------------------------------------------------------------- summary
def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% t-interval over seeds (0 for one seed)."""
    from scipy import stats

    a = np.asarray(values, float)
    if len(a) < 2:
        return float(a.mean()), 0.0
    return float(a.mean()), float(stats.t.ppf(0.975, len(a) - 1) * a.std(ddof=1) / math.sqrt(len(a)))


def table(runs: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Per arm: final success and its paired difference to all-System-2, redos, the bill and its paired
    ratios to all-System-2 and to the cascade (intervals over seeds)."""
    summary: dict[str, Any] = {}
    rows = []
    for name in ARMS:
        def paired(key: str, base: str, ratio: bool) -> tuple[float, float]:
            return interval([r["arms"][name][key] / r["arms"][base][key] - 1 if ratio
                             else r["arms"][name][key] - r["arms"][base][key] for r in runs])
        cells = {k: interval([r["arms"][name][k] for r in runs])
                 for k in ("turns", "s1_share", "success", "final", "redos", "cost", "read_share", "written")}
        cells["final_vs_s2"] = paired("final", S2, False)
        cells["cost_vs_s2"] = paired("cost", S2, True)
        cells["cost_vs_cascade"] = paired("cost", CASCADE, True)
        with_redos = [r["arms"][name]["cost"] + REDO_USD * r["arms"][name]["redos"] * r["arms"][name]["turns"]
                      for r in runs]
        cells["cost_with_redos"] = interval(with_redos)
        summary[name] = cells
        f, c = cells["final_vs_s2"], cells["cost_vs_s2"]
        k = cells["cost_vs_cascade"]
        rows.append([name, f"{cells['s1_share'][0]:.2f}", f"{cells['success'][0]:.3f}",
                     f"{cells['final'][0]:.3f}", "—" if name == S2 else f"{100 * f[0]:+.2f} ± {100 * f[1]:.2f}",
                     f"{100 * cells['redos'][0]:.1f}", f"{cells['cost'][0]:.2f}",
                     "—" if name == S2 else f"{c[0]:+.1%} ± {c[1]:.1%}",
                     "—" if name == CASCADE else f"{k[0]:+.1%} ± {k[1]:.1%}",
                     f"{cells['cost_with_redos'][0]:.2f}", f"{cells['read_share'][0]:.1%}"])
    md = report.markdown_table(["arm", "System 1 share", "first-try success", "final success",
                                "final vs all-S2 (points, paired)", "redos per 100 turns", "bill $",
                                "bill vs all-S2 (paired)", "bill vs cascade (paired)",
                                f"bill + redos at ${REDO_USD:.2f}", "cache-read share"], rows)
    return md, summary


def nights_table(runs: list[dict[str, Any]]) -> str:
    """The routed arm night by night: thresholds (mean over seeds) and the day's bill against the cascade's."""
    rows = []
    for i in range(len(runs[0]["nights"])):
        th = [r["nights"][i]["thresholds"] for r in runs]
        keys = sorted({k for t in th for k in t})
        day = [r["arms"][ROUTED]["day_cost"][i] / r["arms"][CASCADE]["day_cost"][i] - 1 for r in runs]
        day2 = [r["arms"][ROUTED]["day_cost"][i] / r["arms"][S2]["day_cost"][i] - 1 for r in runs]
        rows.append([str(i + 1), f"{np.mean(day2):+.1%}", f"{np.mean(day):+.1%}",
                     ", ".join(f"{k} {np.mean([t.get(k, t['*']) for t in th]):.2f}" for k in keys)])
    return report.markdown_table(["day", "routed bill vs all-S2", "routed bill vs cascade",
                                  "thresholds after the night (mean over seeds)"], rows)


def plot(path: Path, runs: list[dict[str, Any]]) -> None:
    plt = report._pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    names = list(ARMS)
    base = np.array([r["arms"][S2]["cost"] for r in runs])
    values = np.array([[r["arms"][n]["cost"] for r in runs] for n in names]) / base[None, :]
    final = [np.mean([r["arms"][n]["final"] for r in runs]) for n in names]
    redos = [100 * np.mean([r["arms"][n]["redos"] for r in runs]) for n in names]
    means = values.mean(axis=1)
    halves = [interval(list(v))[1] for v in values]
    colors = ["tab:gray", "tab:red", "tab:blue", "tab:purple"]
    ax.barh(range(len(names)), means, xerr=halves, color=colors, capsize=3)
    ax.set_yticks(range(len(names)), [n.replace(" (", "\n(") for n in names])
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", lw=0.8)
    for i, (m, h) in enumerate(zip(means, halves)):
        ax.text(m + h + 0.02, i, f"{m:.2f}  (final {final[i]:.3f}, {redos[i]:.1f} redos/100)", va="center",
                fontsize=8)
    ax.set_xlim(0, max(means + np.array(halves)) + 0.75)
    ax.set_xlabel("API bill relative to all System 2 (redos included; lower is better)")
    ax.set_title(f"the same sessions, a failed turn redone ({len(runs)} seeds, 95% intervals)", fontsize=10)
    days = np.arange(1, len(runs[0]["arms"][S2]["day_cost"]) + 1)
    for name, color in zip(names, colors):
        if name == PREVIOUS:
            continue
        ratio = np.mean([np.array(r["arms"][name]["day_cost"]) / np.array(r["arms"][S2]["day_cost"]) for r in runs],
                        axis=0)
        bx.plot(days, ratio, "o-", color=color, label=name)
    bx.set_xlabel("day (the learner runs each night)")
    bx.set_ylabel("day's bill / all System 2's")
    bx.set_ylim(0.4, 1.1)
    bx.legend(fontsize=8)
    bx.set_title("the router's bill day by day", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(args: Args) -> dict[str, Any]:
    out = run_dir(args.name, args.out or None)
    began = time.perf_counter()
    upstream = Upstream(output_share={**cache_model.OUTPUT_SHARE, **EFFORT_SCALE})
    try:
        if args.calibrate:
            if args.gap_power != 1.0:  # the effort fit does not depend on it: only the cells, in that world
                fit = {"gap_power": args.gap_power, "cells": cell_costs(args.seeds, args, upstream)}
            else:
                fit = calibrate(args, upstream)
            save_json(out / "calibration.json", fit)
            return {"calibration": fit, "seconds": time.perf_counter() - began,
                    "table": json.dumps(fit, indent=1)}
        runs = [one_seed(seed, args, upstream) for seed in args.seeds]
    finally:
        upstream.close()
    md, summary = table(runs)
    nights = nights_table(runs)
    result = {"args": asdict(args), "effort_scale": EFFORT_SCALE, "success": success_table(args.gap_power),
              "summary": summary, "runs": runs, "seconds": time.perf_counter() - began}
    save_json(out / "results.json", result)
    (out / "table.md").write_text(
        f"### The same sessions, four ways, a failed turn redone (mean ± 95% interval over seeds "
        f"{', '.join(map(str, args.seeds))}; effort shares fitted on seeds "
        f"{', '.join(map(str, args.calibration_seeds))})\n\n{md}\n\n### The routed arm, night by night\n\n{nights}\n",
        encoding="utf-8")
    if args.plots and report.plots_available():
        plot(out / f"{args.name}.png", runs)
    result["table"] = md + "\n\n" + nights
    return result


if __name__ == "__main__":
    result = main(parse(Args))
    print(result["table"])
    print(f"\n{result['seconds']:.0f} s")
