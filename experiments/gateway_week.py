"""A week of simulated sessions through the gateway: what learned routes cost and how often they succeed,
against sending every turn to System 2.

Every day, ``sessions`` coding sessions of about ``turns`` turns each. A turn is a prompt
from a template of one of four domains at one of four complexity levels (the level is
hidden from the router, which sees only the text). Two arms see the same turns, with the
same random draws (common random numbers):

* **learned routes** — the real product: ``Router.load(home)`` routes the prompt, the
  turn is opened in the session spool as the prompt hook does, the turn's API requests
  go through the real gateway (:func:`artibot.gateway.server.serve`, in-process) which
  applies the route's profile (System 1: ``output_config.effort = "low"``) and records
  each response's usage and dollar cost on the turn; the record, with the turn's
  ``usage`` read back from the spool, goes to :func:`artibot.collector.collect`, and each
  night :func:`artibot.cycle.learn` (``answers="defaults"``) runs and the router is
  reloaded. Fresh ``ARTIBOT_HOME``, no config file (the shipped defaults).
* **all System 2** — the same turns, every one opened as System 2: the gateway forwards
  the client's effort unchanged.

The fake upstream (aiohttp, loopback) answers a streamed message whose ``usage`` it draws
from the effort it *receives*, so the cost difference between the arms is produced by
the gateway's rewrite and priced by the gateway's price table, not computed here.

Assumptions (made up for the simulation; not measured on real traffic):

* **Success.** A turn succeeds with a probability that depends on its domain, its level
  and the effort it ran at (:data:`SUCCESS`: low effort is close to full effort on easy
  work and well below it on hard work, most in security and backend). One uniform draw
  per turn decides both arms (success iff draw < p), so a low-effort success is always
  a full-effort success too.
* **Requests per turn.** ``1 + Poisson(0.5 + 0.5·level)`` API requests (the agent's tool
  loop), the same in both arms: effort is assumed not to change how many tool rounds a
  turn takes.
* **Tokens per request.** The client asks for ``claude-sonnet-4-5`` at effort ``high``.
  Uncached input ~ lognormal (median 1,500, σ 0.6); cache writes ~ lognormal (median
  1,200, σ 0.5); cache reads = the conversation so far, 18,000 + 2,500 per earlier turn of
  the session + 1,200 per earlier request of the turn — all the same at any effort.
  Output (text and thinking, both billed as output) ~ lognormal with median
  ``900·(1 + level)`` at ``high`` and :data:`OUTPUT_SCALE` times that at lower efforts
  (``low``: 0.3 — thinking mostly skipped), σ 0.5, one normal draw per request shared by
  both arms.
* **Outcome recorded.** The record's ``outcome`` is the true outcome (``success`` /
  ``failed``): the product infers it from the next prompt, which this does not simulate.

Output: ``experiments/runs/gateway_week/`` — ``table.md`` (per day, both arms, mean over
seeds; totals with a 95% t-interval over seeds), ``results.json`` and
``gateway_week.png`` (cumulative cost and daily success rate, both arms).

    python experiments/gateway_week.py [--seeds 0 1 2 3 4] [--sessions 20]
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
import threading
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
from artibot.gateway.server import GatewayConfig, serve
from artibot.learned_router import Router
from artibot.store import hookio
from experiments import report
from experiments.args import parse, run_dir, save_json


@dataclass(frozen=True)
class Args:
    """A week of simulated sessions through the gateway: learned routes against all System 2."""

    name: str = "gateway_week"
    """run folder under experiments/runs/"""
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    """one simulated week per seed"""
    days: int = 7
    """days simulated; the learner runs after each"""
    sessions: int = 20
    """sessions a day"""
    turns: float = 4.0
    """mean turns per session (1 + Poisson(turns - 1))"""
    plots: bool = True
    """write gateway_week.png"""
    out: str = ""
    """output folder (default experiments/runs/<name>)"""


MODEL = "claude-sonnet-4-5"
CLIENT_EFFORT = "high"
OUTPUT_SCALE = {"max": 1.3, "high": 1.0, "medium": 0.6, "low": 0.3}
"""Output tokens at each effort relative to ``high`` (an assumption; see the module doc)."""

TASKS = {
    "frontend": ["fix the typo in the button label of the react component",
                 "add a loading spinner to the react form component",
                 "add a dark mode toggle to the react settings page and then update the css theme",
                 "refactor the react state management of the dashboard, then migrate the components to hooks "
                 "and update the ui tests"],
    "backend": ["fix the typo in the api error message",
                "add a query parameter to the rest api endpoint",
                "add pagination to the api endpoint and then update the database query",
                "migrate the database schema of the orders service, then refactor the api handlers and "
                "deploy the backend to production"],
    "docs": ["fix the typo in the readme",
             "update the docs for the install command",
             "write a tutorial section in the documentation and then update the changelog",
             "restructure the documentation site, then migrate every guide and update the api reference"],
    "security": ["rename the variable in the auth helper",
                 "update the password hashing parameters in the auth module",
                 "add csrf protection to the login form and then audit the session tokens",
                 "investigate why the auth tokens leak in production logs, then rotate the secrets and fix "
                 "the security vulnerability in the oauth flow"],
}
FILES = ("app", "main", "utils", "handlers", "models", "views", "config", "client", "server", "index")

SUCCESS = {  # (low effort, full effort) per complexity level 0..3 (an assumption; see the module doc)
    "frontend": ((0.94, 0.96), (0.91, 0.95), (0.72, 0.92), (0.48, 0.88)),
    "backend": ((0.93, 0.96), (0.80, 0.94), (0.58, 0.91), (0.40, 0.87)),
    "docs": ((0.96, 0.97), (0.95, 0.96), (0.91, 0.94), (0.78, 0.91)),
    "security": ((0.86, 0.96), (0.66, 0.94), (0.45, 0.91), (0.30, 0.86)),
}


# --------------------------------------------------------------------- the week's turns
@dataclass(frozen=True)
class Turn:
    day: int
    session: str
    index: int
    """the turn's place in its session (its conversation grows with it)"""
    domain: str
    level: int
    text: str
    draw: float
    """the uniform that decides the outcome in both arms"""
    requests: int


def week(seed: int, args: Args) -> list[list[Turn]]:
    """The turns of each day, the same for both arms."""
    rng = random.Random(seed)
    days = []
    for day in range(1, args.days + 1):
        turns = []
        for s in range(args.sessions):
            session = f"sim-{seed}-{day}-{s:03d}"
            n = 1 + int(np.random.default_rng(rng.getrandbits(32)).poisson(max(args.turns - 1, 0)))
            for i in range(n):
                domain = rng.choice(list(TASKS))
                level = rng.choices(range(4), weights=(4, 3, 2, 1))[0]
                text = f"{TASKS[domain][level]} in {rng.choice(FILES)}.py"
                k = 1 + int(np.random.default_rng(rng.getrandbits(32)).poisson(0.5 + 0.5 * level))
                turns.append(Turn(day, session, i, domain, level, text, rng.random(), k))
        days.append(turns)
    return days


# --------------------------------------------------------------------- the fake upstream
def usage_for(key: str, effort: str | None, level: int, turn_index: int, request_index: int) -> dict[str, int]:
    """One response's usage: drawn from ``key`` (the same in both arms), scaled by the effort received."""
    rng = random.Random(key)
    z_in, z_write, z_out = rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)
    scale = OUTPUT_SCALE.get(effort or CLIENT_EFFORT, 1.0)
    return {"input_tokens": int(1500 * math.exp(0.6 * z_in)),
            "cache_creation_input_tokens": int(1200 * math.exp(0.5 * z_write)),
            "cache_read_input_tokens": 18_000 + 2_500 * turn_index + 1_200 * request_index,
            "output_tokens": max(1, int(900 * (1 + level) * scale * math.exp(0.5 * z_out)))}


def sse(usage: dict[str, int]) -> bytes:
    start = {k: v for k, v in usage.items() if k != "output_tokens"} | {"output_tokens": 1}
    events = [
        ("message_start", {"type": "message_start", "message": {"id": "msg_sim", "type": "message",
                                                                "role": "assistant", "model": MODEL,
                                                                "content": [], "usage": start}}),
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta", "text": "done"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                           "usage": {"output_tokens": usage["output_tokens"]}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()


class Threaded:
    """``start(stop, ready)`` on a private event loop in a thread, until :meth:`close`."""

    def __init__(self, start: Callable[[asyncio.Event, Callable[[int], None]], Any]):
        self.port = 0
        self._start = start
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(15):
            raise RuntimeError("a simulated server did not start")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def main() -> None:
            self._stop = asyncio.Event()

            def ready(port: int) -> None:
                self.port = port
                self._ready.set()

            await self._start(self._stop, ready)

        self._loop.run_until_complete(main())

    def close(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)


def upstream() -> Threaded:
    from aiohttp import web

    async def handle(request: web.Request) -> web.StreamResponse:
        body = json.loads(await request.read())
        level, turn_index, request_index = (int(x) for x in request.headers["x-sim-shape"].split(":"))
        effort = (body.get("output_config") or {}).get("effort")
        data = sse(usage_for(request.headers["x-sim-key"], effort, level, turn_index, request_index))
        response = web.StreamResponse(status=200, headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(data)
        await response.write_eof()
        return response

    async def start(stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        app = web.Application(client_max_size=8 * 1024 * 1024)
        app.router.add_route("POST", "/v1/messages", handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        ready(runner.addresses[0][1])
        await stop.wait()
        await runner.cleanup()

    return Threaded(start)


def gateway(root: Path, upstream_url: str) -> Threaded:
    config = GatewayConfig(root=str(root), upstream=upstream_url, port=0)

    async def start(stop: asyncio.Event, ready: Callable[[int], None]) -> None:
        await serve(config, ready=ready, stop=stop)

    return Threaded(start)


# --------------------------------------------------------------------- one arm
class Arm:
    """A data home, its gateway and a client connection; ``learned`` routes with the product."""

    def __init__(self, name: str, learned: bool, upstream_url: str, seed: int, tmp: Path):
        self.name, self.learned, self.seed = name, learned, seed
        self.home = tmp / name
        self.home.mkdir(parents=True)
        self.gateway = gateway(self.home, upstream_url)
        self.conn = http.client.HTTPConnection("127.0.0.1", self.gateway.port, timeout=30)
        self.router = Router.load(self.home, rng=random.Random(seed)) if learned else None
        self.nights: list[dict[str, Any]] = []

    def request(self, turn: Turn, r: int) -> None:
        body = {"model": MODEL, "max_tokens": 32000, "stream": True, "output_config": {"effort": CLIENT_EFFORT},
                "tools": [{"name": "Bash", "input_schema": {"type": "object"}}],
                "messages": [{"role": "user", "content": turn.text}],
                "metadata": {"user_id": json.dumps({"device_id": "sim", "account_uuid": "",
                                                    "session_id": turn.session})}}
        headers = {"content-type": "application/json", "x-api-key": "sk-ant-sim", "anthropic-version": "2023-06-01",
                   "x-sim-key": f"{self.seed}:{turn.session}:{turn.index}:{r}",
                   "x-sim-shape": f"{turn.level}:{turn.index}:{r}"}
        self.conn.request("POST", "/v1/messages?beta=true", body=json.dumps(body).encode(), headers=headers)
        response = self.conn.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"the gateway answered {response.status}")

    def run(self, turn: Turn) -> dict[str, Any]:
        """Route, open, send and close one turn; its route, success and cost."""
        if self.router is not None:
            d = self.router.route(turn.text)
            decision = {"system": d.system, "domain": d.domain, "complexity": d.complexity,
                        "confidence": d.confidence, "pattern": d.pattern, "threshold": d.threshold,
                        "propensity": d.propensity}
        else:
            decision = {"system": "system2"}
        system = decision["system"]
        tid = f"exp_{turn.session}_{turn.index:03d}"
        spool = hookio.Spool(str(self.home), turn.session)
        with spool.edit(create=True) as doc:  # what the prompt hook leaves before the turn's first request
            doc["turn"] = {"id": tid, "decision": decision, "input": turn.text, "started_ms": hookio.now_ms()}
        for r in range(turn.requests):
            self.request(turn, r)
        usage = ((spool.read() or {}).get("turn") or {}).get("usage")
        if not isinstance(usage, dict) or usage.get("requests") != turn.requests:
            raise RuntimeError(f"the gateway recorded {usage!r} for {turn.requests} request(s)")
        low, full = SUCCESS[turn.domain][turn.level]
        ok = turn.draw < (low if system == "system1" else full)
        if self.router is not None:
            collect({"id": tid, "session_id": turn.session, "input": turn.text, "domain": decision["domain"],
                     "complexity": decision["complexity"], "routed_to": system,
                     "outcome": "success" if ok else "failed", "latency_ms": float(usage.get("duration_ms") or 0),
                     "confidence": decision["confidence"], "pattern": decision["pattern"],
                     "threshold": decision["threshold"], "propensity": decision["propensity"],
                     "source": "simulation", "usage": usage}, home=self.home)
        return {"s2": system == "system2", "ok": ok, "cost": float(usage["cost_usd"]),
                "effort": (usage.get("profile") or {}).get("effort")}

    def night(self) -> None:
        if self.router is None:
            return
        try:
            done = learn(home=self.home, answers="defaults")
        except StoreError:  # a round id drawn twice in one second
            time.sleep(1.0)
            done = learn(home=self.home, answers="defaults")
        self.router = Router.load(self.home, rng=random.Random(self.seed * 1000 + len(self.nights) + 1))
        self.nights.append({"status": done.status, "processed": done.processed,
                            "thresholds": {"*": self.router.policy.default_threshold,
                                           **self.router.policy.domain_thresholds}})

    def close(self) -> None:
        self.conn.close()
        self.gateway.close()


ARMS = ("learned routes", "all System 2")


def one_week(seed: int, args: Args, upstream_url: str) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="artibot-gateway-week-"))
    arms = {name: Arm(name.replace(" ", "-"), name == ARMS[0], upstream_url, seed, tmp) for name in ARMS}
    try:
        days: dict[str, list[dict[str, Any]]] = {name: [] for name in ARMS}
        for turns in week(seed, args):
            for name, arm in arms.items():
                got = [arm.run(t) for t in turns]
                days[name].append({"turns": len(got), "s2_share": sum(g["s2"] for g in got) / len(got),
                                   "success": sum(g["ok"] for g in got) / len(got),
                                   "cost": sum(g["cost"] for g in got),
                                   "low_effort": sum(g["effort"] == "low" for g in got)})
                arm.night()
        return {"seed": seed, "days": days, "nights": arms[ARMS[0]].nights}
    finally:
        for arm in arms.values():
            arm.close()
        shutil.rmtree(tmp, ignore_errors=True)


# --------------------------------------------------------------------- summary
def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% t-interval over seeds (0 for one seed)."""
    from scipy import stats

    a = np.asarray(values, float)
    if len(a) < 2:
        return float(a.mean()), 0.0
    return float(a.mean()), float(stats.t.ppf(0.975, len(a) - 1) * a.std(ddof=1) / math.sqrt(len(a)))


def totals(run: dict[str, Any], name: str) -> dict[str, float]:
    days = run["days"][name]
    n = sum(d["turns"] for d in days)
    return {"turns": n, "s2_share": sum(d["s2_share"] * d["turns"] for d in days) / n,
            "success": sum(d["success"] * d["turns"] for d in days) / n, "cost": sum(d["cost"] for d in days)}


def tables(runs: list[dict[str, Any]], args: Args) -> tuple[str, str, dict[str, Any]]:
    rows = []
    for day in range(args.days):
        for name in ARMS:
            ds = [r["days"][name][day] for r in runs]
            rows.append([day + 1, name, f"{np.mean([d['turns'] for d in ds]):.0f}",
                         f"{np.mean([d['s2_share'] for d in ds]):.3f}", f"{np.mean([d['success'] for d in ds]):.3f}",
                         f"{np.mean([d['cost'] for d in ds]):.2f}"])
    per_day = report.markdown_table(["day", "arm", "turns", "System 2 share", "success rate", "cost $"], rows)
    summary: dict[str, Any] = {}
    rows = []
    for name in ARMS:
        t = [totals(r, name) for r in runs]
        cells = {k: interval([x[k] for x in t]) for k in ("turns", "s2_share", "success", "cost")}
        summary[name] = cells
        rows.append([name, f"{cells['turns'][0]:.0f}", f"{cells['s2_share'][0]:.3f} ± {cells['s2_share'][1]:.3f}",
                     f"{cells['success'][0]:.3f} ± {cells['success'][1]:.3f}",
                     f"{cells['cost'][0]:.2f} ± {cells['cost'][1]:.2f}"])
    learned = [totals(r, ARMS[0]) for r in runs]
    s2 = [totals(r, ARMS[1]) for r in runs]
    saving = interval([1 - a["cost"] / b["cost"] for a, b in zip(learned, s2)])
    success = interval([a["success"] - b["success"] for a, b in zip(learned, s2)])
    summary["cost saved"] = saving
    summary["success difference"] = success
    rows.append(["learned − all System 2 (paired)", "", "",
                 f"{success[0]:+.3f} ± {success[1]:.3f}", f"{-saving[0]:+.1%} ± {saving[1]:.1%}"])
    total = report.markdown_table(["arm", "turns", "System 2 share", "success rate", f"cost $ ({args.days} days)"],
                                  rows)
    return per_day, total, summary


def plot(path: Path, runs: list[dict[str, Any]], args: Args) -> None:
    plt = report._pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    days = np.arange(1, args.days + 1)
    colors = {ARMS[0]: "tab:blue", ARMS[1]: "tab:brown"}
    for name in ARMS:
        cum = np.array([np.cumsum([d["cost"] for d in r["days"][name]]) for r in runs])
        rate = np.array([[d["success"] for d in r["days"][name]] for r in runs])
        for ax, values in ((left, cum), (right, rate)):
            mean = values.mean(axis=0)
            ax.plot(days, mean, marker="o", color=colors[name], label=name)
            if len(runs) > 1:
                half = np.array([interval(list(values[:, j]))[1] for j in range(args.days)])
                ax.fill_between(days, mean - half, mean + half, color=colors[name], alpha=0.2)
    for ax in (left, right):
        ax.set_xlabel("day of the simulated week")
        ax.set_xticks(days)
    left.set_ylabel("cumulative cost, US $ (lower is better)")
    left.set_title("cost of the turns, priced by the gateway")
    left.legend()
    right.set_ylabel("share of the day's turns that succeeded\n(higher is better)")
    band = f"mean over {len(runs)} seeds" + (", band: 95% interval" if len(runs) > 1 else "")
    report._save(plt, fig, right, path, f"success rate ({band})")


def main(args: Args) -> dict[str, Any]:
    out = run_dir(args.name, args.out or None)
    began = time.perf_counter()
    up = upstream()
    try:
        runs = [one_week(seed, args, f"http://127.0.0.1:{up.port}") for seed in args.seeds]
    finally:
        up.close()
    per_day, total, summary = tables(runs, args)
    result = {"args": asdict(args), "summary": summary, "runs": runs, "seconds": time.perf_counter() - began}
    save_json(out / "results.json", result)
    (out / "table.md").write_text(f"### Per day (mean over seeds {', '.join(map(str, args.seeds))})\n\n{per_day}\n\n"
                                  f"### The week (mean ± 95% interval over seeds)\n\n{total}\n", encoding="utf-8")
    if args.plots and report.plots_available():
        plot(out / f"{args.name}.png", runs, args)
    result["tables"] = (per_day, total)
    return result


if __name__ == "__main__":
    result = main(parse(Args))
    print(result["tables"][0], "\n\n" + result["tables"][1])
    print(f"\n{result['seconds']:.0f} s")
