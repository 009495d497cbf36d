"""``artibot turns``: the last turns as the router decided them and as they ended.

Reads the experience log (turns not learned from yet), the live archives (turns a round
processed, newest round first, read only while more are wanted) and the session spools
(turns still open, waiting for a judgement or queued: ``pending``). Each line carries what
the router decided and why, what the gateway sent and measured, and how the turn ended.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Iterable, Mapping

from artibot.messages import Message
from artibot.shapes import TurnLine
from artibot.store import archive, sessions
from artibot.store.home import Home, HomeArg
from artibot.store.log.experiences import ExperienceLog

SNIPPET_CHARS = 60
HOOK_AGENT = "claude-code"
"""The client of a spool's turn that names none (the hooks keep another client's name)."""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _time_of(record: Mapping[str, Any]) -> str:
    """When the turn's prompt came, one clock for every turn listed.

    A turn of the hooks gets its id at the prompt (``exp_<ms in hex>…``) and its
    ``timestamp`` when it is recorded, after it is judged — by the next prompt, so a
    turn listed by its timestamp came after its own correction. The id's time is the
    prompt's; a record sent to ``collect`` with its own (earlier) timestamp keeps that one:
    the earlier of the two is when the turn began.
    """
    stamp = record.get("timestamp")
    rid = record.get("id")
    try:
        ms = int(rid[4:16], 16) if isinstance(rid, str) and rid.startswith("exp_") else None
    except ValueError:
        ms = None
    started = datetime.fromtimestamp(ms / 1000, timezone.utc) if ms else None
    if isinstance(stamp, str) and stamp:
        try:
            stamped = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        except ValueError:
            return stamp
        if stamped.tzinfo is None or started is None or stamped <= started:
            return stamp
    return started.isoformat(timespec="microseconds") if started else ""


def _iso(ms: object) -> str | None:
    return (datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="seconds")
            if isinstance(ms, int) and not isinstance(ms, bool) else None)


def route_reason(record: Mapping[str, Any]) -> str:
    """Why the router chose the route, in English (``artibot turns --json``'s ``why``).

    >>> route_reason({"routed_to": "system2", "complexity": 0.72, "threshold": 0.4})
    'complexity 0.72 ≥ threshold 0.40'
    >>> route_reason({"routed_to": "system1", "complexity": 0.72, "threshold": 0.4, "propensity": 0.05})
    'explored: complexity 0.72 ≥ threshold 0.40, sent the other way'
    >>> route_reason({"routed_to": "system1", "pattern": "docs:fix:typo", "route_reason": "cache"})
    'pattern docs:fix:typo is in the System 1 cache'
    """
    return str(route_said(record))


def route_said(record: Mapping[str, Any]) -> Message:
    """Why the router chose the route, as a message: the reason it gave, else what the numbers say."""
    given = record.get("route_reason")
    c, t = record.get("complexity"), record.get("threshold")
    if given == "forced":
        return Message("turn.forced")
    if given == "team-cache":
        return Message("turn.team_cached", pattern=str(record.get("pattern")))
    if given == "cache" or (given is None and record.get("pattern") and record.get("routed_to") == "system1"
                            and not _numbers(c, t)):
        return Message("turn.cached", pattern=str(record.get("pattern")))
    if not isinstance(c, (int, float)) or not isinstance(t, (int, float)):
        return Message("turn.no_threshold")
    why = Message("turn.compared", complexity=c, sign="≥" if c >= t else "<", threshold=t)
    greedy = "system2" if c >= t else "system1"
    propensity = record.get("propensity")
    explored = given == "explore" or (given is None and record.get("routed_to") not in (None, greedy)
                                      and isinstance(propensity, (int, float)) and propensity < 0.5)
    return Message("turn.explored", why=why) if explored else why


def _numbers(*values: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def line_of(record: Mapping[str, Any], *, pending: str | None = None, until: str | None = None) -> TurnLine:
    """One turn's line from its experience record (or a spool's turn made into one, with
    what it waits for: ``pending``, see :data:`~artibot.shapes.TurnLine`)."""
    usage = _dict(record.get("usage"))
    profile = _dict(usage.get("profile"))
    tokens = sum(int(usage.get(k) or 0) for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens",
                                                  "cache_read_input_tokens")) if usage else None
    listed = usage.get("models")
    models: list[Any] = listed if isinstance(listed, list) else []
    text = " ".join(str(record.get("input") or "").split())
    cost = usage.get("cost_usd")
    return {
        "id": str(record.get("id") or ""),
        "time": _time_of(record),
        "session_id": record.get("session_id") if isinstance(record.get("session_id"), str) else None,
        "agent": str(record.get("agent") or record.get("source") or "—"),
        "prompt": text[:SNIPPET_CHARS] + ("…" if len(text) > SNIPPET_CHARS else ""),
        "domain": str(record.get("domain") or "general"),
        "complexity": record.get("complexity") if _numbers(record.get("complexity")) else None,
        "threshold": record.get("threshold") if _numbers(record.get("threshold")) else None,
        "route": record.get("routed_to") if isinstance(record.get("routed_to"), str) else None,
        "why": route_reason(record),
        "effort": profile.get("effort") if isinstance(profile.get("effort"), str) else None,
        "model": ", ".join(m for m in models if isinstance(m, str)) or None,
        # a queued turn is judged: its outcome stands, only the log does not have it yet
        "outcome": "pending" if pending and pending != "session end" else str(record.get("outcome") or "—"),
        "waits_for": pending,
        "until": until,
        "outcome_reason": record.get("outcome_reason") if isinstance(record.get("outcome_reason"), str) else None,
        "tokens": tokens,
        "cost_usd": round(float(cost), 6) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None,
    }


SaidTurn = tuple[TurnLine, Message]
"""A turn's line and why it took its route, as a message (the line's ``why`` is its English)."""


def _said(record: Mapping[str, Any], *, pending: str | None = None, until: str | None = None) -> SaidTurn:
    return line_of(record, pending=pending, until=until), route_said(record)


def _spool_turns(home: Home) -> Iterable[SaidTurn]:
    for doc in sessions.spools(home):
        sid = doc.get("session_id") if isinstance(doc.get("session_id"), str) else None
        for record in doc.get("queue") or []:
            if isinstance(record, dict):
                yield _said(record, pending="session end")
        for key in ("done", "turn"):
            turn = doc.get(key)
            if not isinstance(turn, dict):
                continue
            held = _iso(turn.get("hold_until"))
            waits = "in progress" if key == "turn" else "resumed session" if held else "next prompt"
            decision = _dict(turn.get("decision"))
            started = turn.get("started_ms")
            stamp = (datetime.fromtimestamp(started / 1000, timezone.utc).isoformat(timespec="microseconds")
                     if isinstance(started, int) else "")
            yield _said({"id": turn.get("id"), "timestamp": stamp, "session_id": sid,
                           "agent": turn.get("agent") or HOOK_AGENT,
                           "input": turn.get("input"), "domain": decision.get("domain"),
                           "complexity": decision.get("complexity"), "threshold": decision.get("threshold"),
                           "routed_to": decision.get("system"), "pattern": decision.get("pattern"),
                           "propensity": decision.get("propensity"), "route_reason": decision.get("reason"),
                           "usage": turn.get("usage")}, pending=waits, until=held)


def last_turns(n: int | None = 20, *, session: str | None = None, home: HomeArg = None) -> list[TurnLine]:
    """The last ``n`` turns (all with None), oldest first; ``session``: only that session's
    (an id or its first characters)."""
    return [line for line, _ in said_turns(n, session=session, home=home)]


def said_turns(n: int | None = 20, *, session: str | None = None, home: HomeArg = None) -> list[SaidTurn]:
    """:func:`last_turns`, each with why it took its route as a message (to be said in another language)."""
    h = Home.of(home)

    def wanted(turn: SaidTurn) -> bool:
        return session is None or (turn[0]["session_id"] or "").startswith(session)

    found = [turn for turn in _spool_turns(h) if wanted(turn)]
    found += [turn for turn in map(_said, ExperienceLog(h).read()) if wanted(turn)]
    for path in reversed(archive.live_paths(h)):
        if n is not None and len(found) >= n:
            break  # older rounds' turns are older than every one kept
        doc = archive.read_path(path)
        found += [turn for turn in map(_said, (doc or {}).get("records", [])) if wanted(turn)]
    seen: set[str] = set()
    unique = []
    for turn in sorted(found, key=lambda x: (x[0]["time"], x[0]["id"]), reverse=True):
        if turn[0]["id"] and turn[0]["id"] in seen:
            continue  # a queued turn flushed between two reads
        seen.add(turn[0]["id"])
        unique.append(turn)
    return list(reversed(unique[:n] if n is not None else unique))
