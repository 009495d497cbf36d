"""Route profiles: what a System 1 or System 2 turn changes in the request it sends (pure).

A profile may set the request's ``effort`` (``output_config.effort``) and its ``model``.
The shipped profiles never make a turn dearer than the client asked: System 1 lowers the
effort to ``low``; System 2 keeps what the client asked for. A model per route is opt-in.

Which requests a profile touches. Claude Code puts the session in every request
(``metadata.user_id`` is a JSON *string* holding ``session_id``), and the turn's route
is in the session spool the prompt hook wrote before the request left. A request that
carries ``tools`` is the turn's own work: the main loop and its sub-agents. Requests
without tools are the client's background calls (titles, summaries, quota checks):
they are forwarded untouched.

A model switch between turns. Each model keeps its own prompt cache, so a turn that
changes model pays to write the whole conversation prefix into the new model's cache.
The rule (:func:`choose_model`): a route without a model (System 2 by default) always
gets the client's model back, whatever the cache: quality is never traded for a cache
hit. A route's own model is used at the session's first routed turn, or when the
session's last request cached at most ``switchMaxCachedTokens`` (20,000 by default:
about $0.02–0.10 of cache writes at Sonnet/Opus prices, a fraction of one turn);
otherwise the turn keeps the model the session is on, and the turn records why. The choice is made at the turn's first
request and kept for every request of the turn: a turn never changes model mid-way.

>>> body = {"model": "claude-opus-5-5", "output_config": {"effort": "medium"}, "tools": [{}],
...         "messages": [{"role": "user", "content": "hi"},
...                      {"role": "system", "content": "ctx", "output_config": {"effort": "medium"}}],
...         "metadata": {"user_id": '{"device_id": "d", "session_id": "s-1"}'}}
>>> session_of(body), is_turn_request(body)
('s-1', True)
>>> out = apply(body, Profile(effort="low", model=None))
>>> out["output_config"], out["messages"][1]["output_config"], out["model"]
({'effort': 'low'}, {'effort': 'low'}, 'claude-opus-5-5')
>>> body["output_config"]  # the input is not modified
{'effort': 'medium'}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

EFFORTS = ("low", "medium", "high", "max")
"""The effort levels the Messages API accepts in ``output_config.effort``."""


@dataclass(frozen=True)
class Profile:
    """What a route changes: ``None`` keeps the client's value."""

    effort: str | None = None
    model: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"effort": self.effort, "model": self.model}

    @classmethod
    def from_json(cls, doc: Any) -> "Profile":
        if not isinstance(doc, Mapping):
            return cls()
        effort, model = doc.get("effort"), doc.get("model")
        return cls(effort if effort in EFFORTS else None, model if isinstance(model, str) and model else None)


@dataclass(frozen=True)
class Profiles:
    """The configured profile per route (``gateway.profiles``)."""

    system1: Profile = Profile(effort="low")
    system2: Profile = Profile()
    switch_max_cached_tokens: int = 20_000

    def for_route(self, system: str | None) -> Profile | None:
        if system == "system1":
            return self.system1
        if system == "system2":
            return self.system2
        return None


def session_of(body: Mapping[str, Any]) -> str | None:
    """The Claude Code session a request belongs to (``metadata.user_id.session_id``), if any."""
    meta = body.get("metadata")
    if not isinstance(meta, Mapping):
        return None
    user = meta.get("user_id")
    if isinstance(user, str) and user.startswith("{"):
        user = shallow_json(user)
    if isinstance(user, Mapping):
        sid = user.get("session_id")
        return sid if isinstance(sid, str) and sid else None
    return None


MAX_NESTED_TEXT = 4096
"""Claude Code's ``user_id`` is about 150 characters; a longer one is not its."""
MAX_NESTING = 16


def shallow_json(text: str) -> Any:
    """``text`` parsed when it is a short JSON document nested at most ``MAX_NESTING`` deep;
    None otherwise (the nesting is counted first: the parser recurses once per level).

    >>> shallow_json('{"session_id": "s-1"}'), shallow_json("[" * 5000 + "]" * 5000)
    ({'session_id': 's-1'}, None)
    """
    if len(text) > MAX_NESTED_TEXT:
        return None
    if text.count("{") + text.count("[") > MAX_NESTING:  # else no need to count the levels
        depth, quoted, escaped = 0, False, False
        for char in text:
            if quoted:
                escaped, quoted = (False, True) if escaped else (char == "\\", char != '"')
            elif char == '"':
                quoted = True
            elif char in "[{":
                depth += 1
                if depth > MAX_NESTING:
                    return None
            elif char in "]}":
                depth -= 1
    try:
        return json.loads(text)
    except ValueError:
        return None


def is_turn_request(body: Mapping[str, Any]) -> bool:
    """Whether a request is a turn's own work (it offers tools), not a background call."""
    tools = body.get("tools")
    return isinstance(tools, list) and len(tools) > 0


def choose_model(route_model: str | None, *, requested: str | None, session_model: str | None,
                 cached_tokens: int, limit: int) -> tuple[str | None, str]:
    """The model a new turn runs on, and why (see the module doc).

    >>> choose_model("claude-haiku-4-5", requested="claude-opus-4-5", session_model=None, cached_tokens=0, limit=20000)
    ('claude-haiku-4-5', "the session's first routed turn")
    >>> choose_model("claude-haiku-4-5", requested="claude-opus-4-5", session_model="claude-opus-4-5",
    ...              cached_tokens=90000, limit=20000)
    ('claude-opus-4-5', 'kept claude-opus-4-5: 90000 cached tokens > 20000 would be written again')
    """
    target = route_model or requested
    current = session_model or requested
    if target is None or target == current:
        return route_model, "no model change"
    if session_model is None:
        return route_model, "the session's first routed turn"
    if route_model is None:
        return None, f"back to the client's {requested}: a route without a model never runs below what was asked"
    if cached_tokens <= limit:
        return route_model, f"switched: {cached_tokens} cached tokens <= {limit}"
    return current, f"kept {current}: {cached_tokens} cached tokens > {limit} would be written again"


def apply(body: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
    """A copy of ``body`` with ``profile`` applied (the effort everywhere the request names one)."""
    out = dict(body)
    if profile.model is not None:
        out["model"] = profile.model
    if profile.effort is not None:
        top = out.get("output_config")
        out["output_config"] = {**top, "effort": profile.effort} if isinstance(top, Mapping) else {
            "effort": profile.effort}
        messages = out.get("messages")
        if isinstance(messages, list) and any(isinstance(m, Mapping) and isinstance(m.get("output_config"), Mapping)
                                              for m in messages):
            out["messages"] = [
                {**m, "output_config": {**m["output_config"], "effort": profile.effort}}
                if isinstance(m, Mapping) and isinstance(m.get("output_config"), Mapping) else m
                for m in messages]
    return out
