"""A Claude Code turn, from the prompt to ``Stop``, and the outcome inferred from it (pure).

A turn is a plain dict kept in the session spool between hook processes. No I/O, no
clock: times come in as ``now`` (milliseconds since the epoch).

Outcome rule (SPEC §9, used when no better signal exists):

* ``failed`` — the turn's last tool call failed, or a tool call was interrupted, or
  the turn never reached ``Stop`` (the next prompt came first: the user interrupted;
  or the session ended or crashed mid-turn);
* ``escalated`` — the turn was routed to System 1 but had to switch to deliberate
  work: it used a planning or delegation tool (:data:`PLANNING_TOOLS`) or made more
  than :data:`MAX_SYSTEM1_TOOLS` tool calls;
* ``success`` — otherwise.

>>> turn = open_turn({"system": "system1", "complexity": 0.1, "domain": "docs",
...                   "confidence": 0.9}, "fix the typo", now=1000)
>>> turn = add_tool(turn, tool="Edit", failed=False, interrupted=False, duration_ms=5, now=1200)
>>> infer_outcome(turn)
('success', 'no failed tool call')
>>> turn = add_tool(turn, tool="TodoWrite", failed=False, interrupted=False, duration_ms=None, now=1300)
>>> infer_outcome(turn)
('escalated', 'System 1 turn used TodoWrite')
>>> experience(turn, outcome="failed", reason="no Stop", now=5000, session_id="s", closed_by="next-prompt")["latency_ms"]
300
"""

from __future__ import annotations

from typing import Any, Mapping

PLANNING_TOOLS = frozenset({"Task", "Agent", "TodoWrite", "ExitPlanMode", "EnterPlanMode"})
"""Tools that mean deliberate work: planning, a task list, or handing the work to a sub-agent."""

MAX_SYSTEM1_TOOLS = 8
"""A System 1 turn ("answer directly") that needs more tool calls than this was not a System 1 task."""

MAX_TOOL_NAMES = 32
"""Distinct tool names kept per turn (enough for the rule; keeps the spool small)."""

DECISION_FIELDS = ("system", "complexity", "domain", "pattern", "confidence", "threshold", "propensity", "reason")

Turn = dict[str, Any]


def open_turn(decision: Mapping[str, Any], text: str, *, now: int, prompt_id: str | None = None) -> Turn:
    """A new turn for a routed prompt. ``text`` must already be anonymized."""
    return {
        "decision": {k: decision.get(k) for k in DECISION_FIELDS},
        "input": text,
        "prompt_id": prompt_id,
        "started_ms": now,
        "last_ms": now,
        "tools": 0,
        "tool_failures": 0,
        "last_failed": False,
        "interrupted": False,
        "tool_names": [],
        "tool_duration_ms": 0,
    }


def add_tool(turn: Turn, *, tool: str | None, failed: bool, interrupted: bool,
             duration_ms: float | None, now: int) -> Turn:
    """The turn after one more tool call (``PostToolUse`` or ``PostToolUseFailure``)."""
    out = dict(turn)
    out["tools"] = int(turn.get("tools", 0)) + 1
    out["tool_failures"] = int(turn.get("tool_failures", 0)) + (1 if failed else 0)
    out["last_failed"] = bool(failed)
    out["interrupted"] = bool(turn.get("interrupted")) or bool(interrupted)
    names = list(turn.get("tool_names") or [])
    if tool and tool not in names and len(names) < MAX_TOOL_NAMES:
        names.append(tool)
    out["tool_names"] = names
    if isinstance(duration_ms, (int, float)) and not isinstance(duration_ms, bool) and duration_ms >= 0:
        out["tool_duration_ms"] = turn.get("tool_duration_ms", 0) + duration_ms
    out["last_ms"] = max(int(turn.get("last_ms", now)), now)
    return out


def infer_outcome(turn: Turn) -> tuple[str, str]:
    """``(outcome, reason)`` for a turn that reached ``Stop``."""
    if turn.get("interrupted"):
        return "failed", "a tool call was interrupted"
    if turn.get("last_failed"):
        return "failed", "the last tool call failed"
    if turn.get("decision", {}).get("system") == "system1":
        planning = [t for t in turn.get("tool_names") or [] if t in PLANNING_TOOLS]
        if planning:
            return "escalated", f"System 1 turn used {planning[0]}"
        if turn.get("tools", 0) > MAX_SYSTEM1_TOOLS:
            return "escalated", f"System 1 turn made {turn['tools']} tool calls (> {MAX_SYSTEM1_TOOLS})"
    return "success", "no failed tool call"


def experience(turn: Turn, *, outcome: str, reason: str, now: int, session_id: str | None,
               closed_by: str) -> dict[str, Any]:
    """The experience record (SPEC §3) for a closed turn, ready for ``collect()``.

    Latency runs to ``now`` when the turn reached ``Stop``; a turn that never did
    (``closed_by`` other than ``stop``) ends at its last recorded activity, so idle
    time before the next prompt or a crash does not count.
    """
    decision = turn.get("decision") or {}
    start = int(turn.get("started_ms", now))
    end = now if closed_by == "stop" else int(turn.get("last_ms", start))
    return {
        "session_id": session_id,
        "input": turn.get("input") or "",
        "domain": decision.get("domain") or "general",
        "complexity": decision.get("complexity"),
        "routed_to": decision.get("system"),
        "outcome": outcome,
        "latency_ms": max(end - start, 0),
        "confidence": decision.get("confidence"),
        "pattern": decision.get("pattern"),
        "threshold": decision.get("threshold"),
        "propensity": decision.get("propensity"),
        "source": "claude-code",
        "tools": int(turn.get("tools", 0)),
        "tool_failures": int(turn.get("tool_failures", 0)),
        "closed_by": closed_by,
        "outcome_reason": reason,
    }
