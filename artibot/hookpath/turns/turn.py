"""A Claude Code turn, from the prompt to ``Stop``, and the outcome inferred from it (pure).

A turn is a plain dict kept in the session spool between hook processes. No I/O, no
clock: times come in as ``now`` (milliseconds since the epoch).

Outcome rule. At ``Stop`` a turn gets a *provisional* outcome from its tool calls:

* ``failed`` — a tool call failed and no call that *started after it ended* succeeded
  (the model retried and recovered), whatever order parallel calls finish in; or a
  tool call was refused by the permission system (a ``PermissionRequest`` that no run
  of that tool followed); or the turn's last batch called a tool the model was not
  offered (:func:`add_unoffered`);
* ``escalated`` — the turn was routed to System 1 but had to switch to deliberate
  work: it used a planning or delegation tool (:data:`PLANNING_TOOLS`) or made more
  than :data:`MAX_SYSTEM1_TOOLS` tool calls;
* ``success`` — otherwise.

A turn whose tool call the user interrupted is ``interrupted``, and so is a turn that
never reached ``Stop`` (:func:`cut_off`): the next prompt
came first without correcting it (the user pressed Esc), or the session ended or
crashed mid-turn (an API error, ``--max-turns``, Ctrl-C). Nothing says the route did
it, so the learner leaves it out. Its own failed tool calls still make it ``failed``,
and so does a next prompt that corrects it.

The outcome becomes final when the user's next prompt in the session judges it
(:func:`finalize` with :func:`artibot.hookpath.turns.followup.judge`), or
unjudged after :data:`FOLLOWUP_WINDOW_MS` without a prompt. At session end the
session's last turn is *held* (:func:`hold`): the first prompt of the same session
resumed (``claude --continue``/``--resume``) before :func:`judge_deadline` still judges it.

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
>>> infer_outcome(ask_permission(turn, tool="Write", now=1400))
('failed', 'a Write call was refused permission')
"""

from __future__ import annotations

from artibot.hookpath.record import experience_record

TYPE_CHECKING = False  # not typing's: this module is on every hook's path
if TYPE_CHECKING:
    from typing import Any, Mapping

    from artibot.shapes import ExperienceRecord, Turn

PLANNING_TOOLS = frozenset({
    "TaskCreate", "TaskUpdate",  # task lists in Claude Code 2.1 (loaded through ToolSearch)
    "TodoWrite",                 # the task list of earlier versions
    "Task", "Agent",             # handing work to a sub-agent (Task was renamed Agent)
    "EnterPlanMode", "ExitPlanMode",
})
"""Tools that mean deliberate work: planning, a task list, or handing the work to a sub-agent."""

FOLLOWUP_WINDOW_MS = 30 * 60 * 1000
"""A prompt this long after a turn's ``Stop`` no longer judges it: the user moved on."""

RESUME_WINDOW_MS = FOLLOWUP_WINDOW_MS
"""How long the last turn of an ended session waits for the resumed session's first prompt
(default; ``ARTIBOT_RESUME_WINDOW_MIN`` sets another). The follow-up window's length: a
correction reaches a turn within the same time whether or not the user quit in between."""

SEVERITY = {"success": 0, "interrupted": 0, "escalated": 1, "failed": 2}
"""When two signals disagree, the worse outcome wins."""

MAX_SYSTEM1_TOOLS = 8
"""A System 1 turn ("answer directly") that needs more tool calls than this was not a System 1 task."""

MAX_TOOL_NAMES = 32
"""Distinct tool names kept per turn (enough for the rule; keeps the spool small)."""

DECISION_FIELDS = ("system", "complexity", "domain", "pattern", "confidence", "threshold", "propensity", "reason")

DEFAULT_AGENT = "claude-code"
"""The client a turn came from when it names none (every turn before other clients had hooks)."""

# A turn is a plain JSON object kept in the spool between hook processes: its keys are
# declared in artibot.shapes.Turn.


def open_turn(decision: Mapping[str, Any], text: str, *, now: int, prompt_id: str | None = None,
              turn_id: str | None = None, agent: str | None = None) -> Turn:
    """A new turn for a routed prompt. ``text`` must already be anonymized.

    ``turn_id`` becomes the experience record's id: fixed when the turn opens, so a
    hand-over to the log that a crash makes run twice stores the record once.
    """
    turn: Turn = {
        "id": turn_id,
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
        "awaiting_permission": [],
    }
    if agent and agent != DEFAULT_AGENT:  # kept in the turn: another session's hook may close it
        turn["agent"] = agent
    return turn


def add_tool(turn: Turn, *, tool: str | None, failed: bool, interrupted: bool,
             duration_ms: float | None, now: int) -> Turn:
    """The turn after one more tool call (``PostToolUse`` or ``PostToolUseFailure``)."""
    out = turn.copy()
    out["tools"] = int(turn.get("tools", 0)) + 1
    out["tool_failures"] = int(turn.get("tool_failures", 0)) + (1 if failed else 0)
    # A failure stands until a call that started after it ended succeeds: parallel calls
    # (one failing, one not) give the same outcome whichever hook runs last.
    failures = [int(t) for t in (turn.get("open_failures") or []) if isinstance(t, (int, float))]
    if failed:
        failures = (failures + [now])[-MAX_TOOL_NAMES:]
    else:
        took = duration_ms if isinstance(duration_ms, (int, float)) and not isinstance(duration_ms, bool) else 0
        started = now - max(int(took), 0)
        failures = [t for t in failures if t > started]
    out["open_failures"] = failures
    out["last_failed"] = bool(failures)
    out["interrupted"] = bool(turn.get("interrupted")) or bool(interrupted)
    names = list(turn.get("tool_names") or [])
    if tool and tool not in names and len(names) < MAX_TOOL_NAMES:
        names.append(tool)
    out["tool_names"] = names
    if isinstance(duration_ms, (int, float)) and not isinstance(duration_ms, bool) and duration_ms >= 0:
        out["tool_duration_ms"] = turn.get("tool_duration_ms", 0) + duration_ms
    out["last_ms"] = max(int(turn.get("last_ms", now)), now)
    waiting = list(turn.get("awaiting_permission") or [])
    if tool in waiting:
        waiting.remove(tool)  # the permission was granted: the tool ran
    out["awaiting_permission"] = waiting
    return out


def add_unoffered(turn: Turn, *, tool: str, now: int) -> Turn:
    """The turn after a call, in its last batch, to a tool the model was not offered (no
    hook fires for it: read from the transcript at ``Stop``). It failed, and counts as a call.

    >>> infer_outcome(add_unoffered(open_turn({}, "x", now=0), tool="Frob", now=5))
    ('failed', 'the model called Frob, a tool it was not offered')
    """
    return {**turn, "unoffered": tool, "tools": int(turn.get("tools", 0)) + 1,
            "tool_failures": int(turn.get("tool_failures", 0)) + 1, "last_ms": max(int(turn.get("last_ms", now)), now)}


def ask_permission(turn: Turn, *, tool: str | None, now: int) -> Turn:
    """The turn after a ``PermissionRequest`` for ``tool``: refused unless the tool then runs."""
    out = turn.copy()
    waiting = list(turn.get("awaiting_permission") or [])
    if len(waiting) < MAX_TOOL_NAMES:
        waiting.append(tool or "?")
    out["awaiting_permission"] = waiting
    out["last_ms"] = max(int(turn.get("last_ms", now)), now)
    return out


def infer_outcome(turn: Turn) -> tuple[str, str]:
    """``(outcome, reason)`` for a turn that reached ``Stop`` (provisional: see :func:`finalize`)."""
    if turn.get("interrupted"):
        return "interrupted", "a tool call was interrupted (Esc or Ctrl-C)"
    refused = turn.get("awaiting_permission") or []
    if refused:
        return "failed", f"a {refused[0]} call was refused permission"
    if turn.get("unoffered"):
        return "failed", f"the model called {turn['unoffered']}, a tool it was not offered"
    if turn.get("last_failed"):
        return "failed", "the last tool call failed"
    if turn.get("decision", {}).get("system") == "system1":
        planning = [t for t in turn.get("tool_names") or [] if t in PLANNING_TOOLS]
        if planning:
            return "escalated", f"System 1 turn used {planning[0]}"
        if turn.get("tools", 0) > MAX_SYSTEM1_TOOLS:
            return "escalated", f"System 1 turn made {turn['tools']} tool calls (> {MAX_SYSTEM1_TOOLS})"
    return "success", "no failed tool call"


def cut_off(turn: Turn, outcome: str, reason: str) -> tuple[str, str]:
    """The outcome of a turn that never reached ``Stop``: ``(outcome, reason)`` as given
    (``interrupted`` or a correction's ``failed``), unless its own tool calls failed it.

    >>> cut_off({"last_failed": True, "decision": {}}, "interrupted", "session ended")
    ('failed', 'the last tool call failed')
    >>> cut_off({"decision": {"system": "system1"}, "tool_names": ["TodoWrite"]}, "interrupted", "session ended")
    ('interrupted', 'session ended')
    """
    inferred, why = infer_outcome(turn)
    if inferred == "failed":
        return inferred, why
    return outcome, reason


def stop_turn(turn: Turn, *, now: int) -> Turn:
    """The turn at ``Stop``: its provisional outcome kept, waiting for the next prompt's judgement."""
    outcome, reason = infer_outcome(turn)
    return {**turn, "stopped_ms": now, "outcome": outcome, "outcome_reason": reason}


def finalize(turn: Turn, judgement: tuple[str, str] | None) -> tuple[str, str]:
    """The final ``(outcome, reason)`` of a stopped turn, given the next prompt's judgement.

    A correction makes any turn ``failed``; a request for deeper work makes a System 1
    turn ``escalated``. A judgement never improves an outcome (a failed tool stays failed).

    >>> t = {"decision": {"system": "system1"}, "outcome": "success", "outcome_reason": "no failed tool call"}
    >>> finalize(t, ("failed", "the next prompt corrects it"))
    ('failed', 'the next prompt corrects it')
    >>> finalize(t, None)
    ('success', 'no failed tool call')
    >>> finalize({**t, "decision": {"system": "system2"}}, ("escalated", "asks for deeper work"))
    ('success', 'no failed tool call')
    """
    outcome = turn.get("outcome") or "success"
    reason = turn.get("outcome_reason") or ""
    if judgement is None:
        return outcome, reason
    judged, why = judgement
    if turn.get("cut_off") and judged != "failed":
        return outcome, reason  # a turn that never reached Stop did no work to deepen
    if judged == "escalated" and (turn.get("decision") or {}).get("system") != "system1":
        return outcome, reason
    if SEVERITY.get(judged, 0) > SEVERITY.get(outcome, 0):
        return judged, why
    return outcome, reason


def hold(turn: Turn, *, now: int, window_ms: int, cut: tuple[str, str] | None = None) -> Turn | None:
    """The session's last turn kept at session end for the resumed session's first prompt,
    or None when its judging time is over (it is final now).

    A stopped turn waits until ``window_ms`` after its ``Stop``; a turn the session end
    cut off (``cut``: its outcome and reason from :func:`cut_off`) until ``window_ms``
    after ``now``, and only a correction changes it (:func:`finalize`).

    >>> hold({"stopped_ms": 1000, "outcome": "success"}, now=5000, window_ms=10_000)["hold_until"]
    11000
    >>> hold({"stopped_ms": 1000, "outcome": "success"}, now=12_000, window_ms=10_000) is None
    True
    >>> held = hold({"last_ms": 4000}, now=5000, window_ms=10_000, cut=("interrupted", "session ended"))
    >>> (held["outcome"], held["cut_off"], held["hold_until"])
    ('interrupted', True, 15000)
    >>> finalize(held, ("escalated", "asks for deeper work"))
    ('interrupted', 'session ended')
    """
    if isinstance(turn.get("hold_until"), int):
        out = turn  # held already (a resumed session ended without a prompt): same deadline
    elif cut is not None:
        out = {**turn, "outcome": cut[0], "outcome_reason": cut[1], "cut_off": True, "hold_until": now + window_ms}
    else:
        stopped = turn.get("stopped_ms")
        out = {**turn, "hold_until": (stopped if isinstance(stopped, int) else now) + window_ms}
    return out if window_ms > 0 and out["hold_until"] > now else None


def judge_deadline(done: Turn) -> int:
    """Until when (ms) the next prompt judges a stopped or held turn."""
    until = done.get("hold_until")
    if isinstance(until, int):
        return until
    return int(done.get("stopped_ms") or 0) + FOLLOWUP_WINDOW_MS


def experience(turn: Turn, *, outcome: str, reason: str, now: int, session_id: str | None,
               closed_by: str) -> ExperienceRecord:
    """The experience record (:func:`artibot.hookpath.record.experience_record`) for a closed turn, ready
    for ``collect()``.

    Latency runs to the turn's ``Stop`` when it reached one; a turn that never did ends
    at its last recorded activity, so idle time before the next prompt or a crash does
    not count. ``closed_by`` says what made the outcome final (``next-prompt``,
    ``resumed-prompt`` — the first prompt after a resume judged a held turn —,
    ``session-end``, ``timeout``, ``stale-session``).
    """
    decision: Any = turn.get("decision") or {}  # as the prompt hook wrote it: validate() checks the values
    start = int(turn.get("started_ms", now))
    stopped = turn.get("stopped_ms")
    end = int(stopped) if isinstance(stopped, int) else int(turn.get("last_ms", start))
    usage = turn.get("usage")
    return experience_record(
        id=turn["id"] if isinstance(turn.get("id"), str) else None,
        session_id=session_id,
        input=turn.get("input") or "",
        domain=decision.get("domain") or "general",
        complexity=decision.get("complexity"),
        routed_to=decision.get("system"),
        outcome=outcome,
        latency_ms=max(end - start, 0),
        confidence=decision.get("confidence"),
        pattern=decision.get("pattern"),
        threshold=decision.get("threshold"),
        propensity=decision.get("propensity"),
        agent=turn.get("agent") or DEFAULT_AGENT,
        route_reason=decision.get("reason"),  # forced, cache, threshold or explore (``artibot turns``)
        tools=int(turn.get("tools", 0)),
        tool_failures=int(turn.get("tool_failures", 0)),
        closed_by=closed_by,
        reached_stop=isinstance(stopped, int),
        outcome_reason=reason,
        usage=usage if isinstance(usage, dict) else None,  # what the turn's requests cost (the gateway)
    )
