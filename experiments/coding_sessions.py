"""Simulated coding sessions shaped like Claude Code's (the world of :mod:`experiments.gateway_cache`).

A session is a fixed prefix (tools and system prompt) and a run of turns; a turn is a
prompt from one of four domains at one of four complexity levels (:data:`TASKS`; the
level is hidden from the router, which sees only the text), a few API requests (the
agent's tool loop) and an answer. :class:`Conversation` builds the requests' messages as
Claude Code 2.1.331 does: the prompt, the hook context as a ``role: "system"`` message
after it (the first one carries the client's own effort marker), tool calls and results,
and a ``cache_control`` breakpoint on the last block. Sizes are stated in ``sim_tokens``
(:func:`experiments.cache_model.tokens_of`) so that a 150k-token conversation stays small.
The numbers are assumptions, listed in :mod:`experiments.gateway_cache`, but for the two fits to
the published figures (:data:`EFFORT_SCALE` and :data:`GAP_SCALE`): how many requests a turn makes
and how much each answer writes at each effort, and System 1's success against System 2's.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from artibot.gateway.cachesafe import COMPACTION_SIGNS, ROUTE_LINES

CLIENT_EFFORT = "medium"
MODEL = "claude-opus-5-5"
LINES = {route: line for line, route in ROUTE_LINES}
COMPACT_AT = 150_000
"""Where the client compacts the conversation."""

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

BASE_SUCCESS = {  # (low effort, medium effort) per complexity level 0..3: the shape of the gap (an assumption)
    "frontend": ((0.94, 0.96), (0.91, 0.95), (0.72, 0.92), (0.48, 0.88)),
    "backend": ((0.93, 0.96), (0.80, 0.94), (0.58, 0.91), (0.40, 0.87)),
    "docs": ((0.96, 0.97), (0.95, 0.96), (0.91, 0.94), (0.78, 0.91)),
    "security": ((0.86, 0.96), (0.66, 0.94), (0.45, 0.91), (0.30, 0.86)),
}
LEVEL_WEIGHTS = (4, 3, 2, 1)
"""How often each complexity level is drawn (domains are uniform)."""

LOW_GAP = 0.06
"""Published: low effort −8 points and medium −2 points of success against high (Anthropic's cost
guidance, a SWE-bench Pro subset), so low is 6 points below medium, the client's effort."""


def _mean_gap(table: dict[str, tuple[tuple[float, float], ...]]) -> float:
    w = np.asarray(LEVEL_WEIGHTS, float) / sum(LEVEL_WEIGHTS)
    return float(np.mean([sum(wi * (full - low) for wi, (low, full) in zip(w, cells)) for cells in table.values()]))


def success_table(power: float = 1.0) -> dict[str, tuple[tuple[float, float], ...]]:
    """(low effort, medium effort) success per domain and level: each cell's gap in
    :data:`BASE_SUCCESS` raised to ``power`` (1: its shape; more: the gap gathered on the hardest
    cells) and scaled by one factor so that the turn-weighted mean gap is :data:`LOW_GAP`."""
    shaped = {d: tuple((full - (full - low) ** power, full) for low, full in cells) for d, cells in BASE_SUCCESS.items()}
    scale = LOW_GAP / _mean_gap(shaped)
    return {d: tuple((round(max(0.0, full - scale * (full - low)), 4), full) for low, full in cells)
            for d, cells in shaped.items()}


GAP_SCALE = LOW_GAP / _mean_gap(BASE_SUCCESS)
"""The fit of success: every cell's gap between low and medium effort times one factor, so that
the turn-weighted mean gap is :data:`LOW_GAP` (the shape stays: most on hard work, in security
and backend; almost none in docs)."""

SUCCESS = success_table(1.0)
"""(low effort, medium effort) success per domain and level: :data:`BASE_SUCCESS` fitted by :data:`GAP_SCALE`."""

EXTRA_REQUESTS = (1.0, 2.0, 3.0, 4.0)
"""Mean number of tool-loop requests after a turn's first, per level, at ``high``."""

EFFORT_SCALE = {"low": 0.2329, "medium": 0.5296, "high": 1.0}
"""The fit of cost: at each effort, both the mean number of tool calls of a turn (so its extra
requests) and each answer's output tokens are these shares of what they are at ``high``;
fitted so that a session's whole bill (cache reads and writes included) at ``low`` and at
``medium`` is :data:`BILL_TARGET` of the same session's at ``high``
(``python experiments/gateway_cache.py --calibrate``)."""

BILL_TARGET = {"low": 0.25, "medium": 0.5}
"""Published: on a SWE-bench Pro subset, medium costs about half of high and low about a quarter
(Anthropic's cost guidance); the effort documentation says lower effort makes fewer tool calls
and writes less."""


# --------------------------------------------------------------------- the sessions
@dataclass(frozen=True)
class Turn:
    session: str
    index: int
    domain: str
    level: int
    text: str
    draws: tuple[float, float]
    """uniform draws of the first attempt's and of the redo's outcome (the same in every arm)"""
    u_requests: float
    """the uniform draw of the turn's tool calls: its number of requests at every effort"""
    results: tuple[int, ...]
    """the tool results' tokens, one per request after the first (as many as at ``high``)"""
    outputs: tuple[int, ...]
    """each request's output tokens at ``high``"""
    gap_s: float
    """time since the previous turn"""

    @property
    def draw(self) -> float:
        return self.draws[0]

    def requests(self, effort: str, scale: dict[str, float] | None = None) -> int:
        """The turn's requests at ``effort``: 1 + the Poisson quantile of :attr:`u_requests` at the
        level's mean times the effort's share (so a lower effort makes fewer tool calls, never more)."""
        share = (scale or EFFORT_SCALE).get(effort, 1.0)
        return 1 + extra_calls(self.u_requests, EXTRA_REQUESTS[self.level] * min(1.0, share))


def extra_calls(u: float, mean: float) -> int:
    """The ``u`` quantile of a Poisson distribution of ``mean`` (monotone in both)."""
    k, p = 0, math.exp(-mean)
    cum = p
    while u > cum and k < 200:
        k += 1
        p *= mean / k
        cum += p
    return k


@dataclass(frozen=True)
class Session:
    name: str
    prefix: int
    turns: tuple[Turn, ...]


def sessions(seed: int, days: int, per_day: int) -> list[list[Session]]:
    """The sessions of each day, the same for every arm."""
    rng = random.Random(seed)
    out_days = []
    for day in range(days):
        out = []
        for s in range(per_day):
            name = f"sim-{seed}-{day}-{s:02d}"
            turns = []
            for i in range(rng.randint(5, 40)):
                domain = rng.choice(list(TASKS))
                level = rng.choices(range(4), weights=(4, 3, 2, 1))[0]
                u_req = rng.random()
                k = 1 + extra_calls(u_req, EXTRA_REQUESTS[level])  # the most requests, at high
                turns.append(Turn(name, i, domain, level, f"{TASKS[domain][level]} in {rng.choice(FILES)}.py",
                                  (rng.random(), rng.random()), u_req,
                                  tuple(int(1500 * math.exp(0.8 * rng.gauss(0, 1))) for _ in range(k - 1)),
                                  tuple(max(1, int(900 * (1 + level) * math.exp(0.5 * rng.gauss(0, 1))))
                                        for _ in range(k)),
                                  rng.expovariate(1 / 120)))
            out.append(Session(name, rng.randint(14_000, 40_000), tuple(turns)))
        out_days.append(out)
    return out_days


class Conversation:
    """One session's messages as Claude Code builds them (the shape seen from 2.1.331)."""

    def __init__(self, session: Session):
        self.session = session
        half = session.prefix // 2
        self.tools = [{"name": "Bash", "input_schema": {"type": "object"}, "sim_tokens": half,
                       "cache_control": {"type": "ephemeral"}}]
        self.system = [{"type": "text", "text": "agent", "sim_tokens": session.prefix - half,
                        "cache_control": {"type": "ephemeral"}}]
        self.messages: list[dict[str, Any]] = []
        self.tokens = session.prefix

    def add(self, message: dict[str, Any], tokens: int) -> None:
        self.messages.append(message)
        self.tokens += tokens

    def open_turn(self, turn: Turn, route: str | None, text: str | None = None, effort: str | None = None) -> None:
        """The prompt (``text``, else the turn's) and the hook's context after it (carrying ``effort``
        as a per-message marker when given)."""
        self.add({"role": "user", "content": [{"type": "text", "text": text or turn.text}]}, 20)
        context: dict[str, Any] = {"role": "system", "content": [{"type": "text", "text": (
            f"UserPromptSubmit hook additional context: {LINES[route]} — routed." if route else "no route")}]}
        if len(self.messages) == 1:
            context["output_config"] = {"effort": CLIENT_EFFORT}  # the client's own first marker
        if effort is not None:
            context["output_config"] = {"effort": effort}
        self.add(context, 30)

    def body(self, session_id: str, *, extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        messages = self.messages + (extra or [])
        last = messages[-1]
        content = last["content"] if isinstance(last["content"], list) else [{"type": "text", "text": last["content"]}]
        tail = {**last, "content": [*content[:-1], {**content[-1], "cache_control": {"type": "ephemeral"}}]} \
            if content else last
        return {"model": MODEL, "max_tokens": 32000, "stream": True, "output_config": {"effort": CLIENT_EFFORT},
                "tools": self.tools, "system": self.system, "messages": messages[:-1] + [tail],
                "metadata": {"user_id": json.dumps({"device_id": "sim", "account_uuid": "",
                                                    "session_id": session_id})}}

    def compact_body(self, session_id: str) -> dict[str, Any]:
        return self.body(session_id, extra=[{"role": "user", "content": [
            {"type": "text", "text": f"CRITICAL: Respond with TEXT ONLY. {COMPACTION_SIGNS[0]}."}]}])

    def compacted(self) -> None:
        self.messages = [{"role": "user", "content": [{"type": "text", "text": "summary", "sim_tokens": 6000}]},
                         {"role": "system", "content": [], "output_config": {"effort": CLIENT_EFFORT}}]
        self.tokens = self.session.prefix + 6000


