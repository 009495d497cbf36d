"""Route profiles: what a System 1 or System 2 turn changes in the requests it sends, and when a
change is worth what it costs the prompt cache (pure).

A profile may set the turn's ``effort`` and its ``model``. The shipped profiles never make
a turn dearer than the client asked: System 1 lowers the effort to ``low``; System 2 keeps
what the client asked for. A model per route is opt-in.

Which requests a profile touches. Claude Code puts the session in every request
(``metadata.user_id`` is a JSON *string* holding ``session_id``), and the turn's route
is in the session spool the prompt hook wrote before the request left. A request that
offers ``tools`` is the turn's own work (the main loop, its sub-agents, and the client's
compaction, which :mod:`.cachesafe` tells apart by its shape); requests without tools
are the client's background calls (titles, quota checks) and go through untouched.

How effort changes. On models that take per-message effort the effort goes on markers
inside the conversation (:mod:`.cachesafe`): free for the cache, so it follows every
turn's route. Elsewhere effort is the request's top-level value, which keys the cache
like the model does.

When a turn may switch model or top-level effort (:func:`choose_profile`). Each model and
each top-level effort keeps its own prompt cache, so a switch pays to write the whole
cached prefix again, and so does the way back. The rule weighs that price, ``cached
tokens x (write price of the new cache + write price of the current one - 2 x read price
of the current one)``, against what the switch is expected to save: the saving of one request at the new profile (priced from the session's last
request) times the requests of a turn, times the turns the route is expected to keep
(``1 / (1 - p)``, ``p`` the route's share of the session's turns so far, with one
pseudo-turn on each side). A switch that does not pay keeps the session's profile, and the
turn records why. Three switches are never weighed: the session's first routed turn (no
cache to lose), a return to what the client asked for, and a System 2 turn's switch to
System 2's profile (quality is never traded for a cache hit: the rule may decline to
switch *down*, never keep the harder turn on the cheaper model). ``switchMaxCachedTokens`` caps the prefix a saving switch may rewrite. The
choice is made at the turn's first request and kept for every request of the turn.

>>> body = {"model": "claude-opus-4-5", "output_config": {"effort": "medium"}, "tools": [{}],
...         "messages": [{"role": "user", "content": "hi"}],
...         "metadata": {"user_id": '{"device_id": "d", "session_id": "s-1"}'}}
>>> session_of(body), is_turn_request(body)
('s-1', True)
>>> out = apply_top(body, Profile(effort="low", model=None))
>>> out["output_config"], out["model"], body["output_config"]
({'effort': 'low'}, 'claude-opus-4-5', {'effort': 'medium'})
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from artibot.gateway.cachesafe import Efforts
from artibot.gateway.price_table import PriceTable

if TYPE_CHECKING:
    from artibot.config.settings import GatewayProfileSettings

EFFORTS = ("low", "medium", "high", "max")
"""The effort levels the Messages API accepts in ``output_config.effort``."""

OUTPUT_SHARE = {"low": 0.3, "medium": 0.6, "high": 1.0, "max": 1.3}
"""Output tokens at each effort relative to ``high``: an assumption (thinking is most of the
output, and lower efforts think less), used only to weigh a top-level effort switch on a
model without per-message effort. The experiment's fake API uses the same figures."""

REQUESTS_PER_TURN = 3.0
"""A turn's requests before the session has measured its own (the agent's tool loop)."""



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
    switch_max_cached_tokens: int = 1_000_000

    def for_route(self, system: str | None) -> Profile | None:
        if system == "system1":
            return self.system1
        if system == "system2":
            return self.system2
        return None

    def efforts(self) -> Efforts:
        return Efforts(self.system1.effort, self.system2.effort)


@dataclass(frozen=True)
class SessionState:
    """What the gateway knows of a session's cache, from its main conversation's requests."""

    model: str | None = None
    """The model the last request ran on."""
    effort: str | None = None
    """The top-level effort the last request was sent with."""
    cached_tokens: int = 0
    """The prefix the last request read from or wrote to the cache."""
    last: Mapping[str, int] = field(default_factory=dict)
    """The last request's usage (the four token counts)."""
    requests: int = 0
    turns: Mapping[str, int] = field(default_factory=dict)
    """Routed turns per route so far."""

    @classmethod
    def from_json(cls, doc: Any) -> "SessionState":
        """The state kept in a spool (absent fields are unknown); ValueError when a field has
        another shape than the gateway writes: the spool is not trusted to be this version's."""
        if doc is None:
            return cls()
        if not isinstance(doc, Mapping):
            raise ValueError("gateway state: not an object")

        def count(value: Any) -> int:
            if value is None:
                return 0
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return value
            raise ValueError("gateway state: a count of the wrong shape")

        def counts(value: Any) -> dict[str, int]:
            if value is None:
                return {}
            if not isinstance(value, Mapping):
                raise ValueError("gateway state: not an object of counts")
            return {str(k): count(v) for k, v in value.items()}

        def text(value: Any) -> str | None:
            if value is None or isinstance(value, str):
                return value
            raise ValueError("gateway state: a name of the wrong shape")

        return cls(text(doc.get("model")), text(doc.get("effort")), count(doc.get("cached_tokens")),
                   counts(doc.get("last")), count(doc.get("requests")), counts(doc.get("turns")))

    def requests_per_turn(self) -> float:
        n = sum(self.turns.values())
        return self.requests / n if n and self.requests else REQUESTS_PER_TURN

    def expected_turns(self, route: str | None) -> float:
        """Turns the route is expected to keep once switched to (a run of a two-sided coin)."""
        n = sum(self.turns.values())
        share = (self.turns.get(route or "", 0) + 1) / (n + 2)
        return 1.0 / (1.0 - share)


def session_of(body: Mapping[str, Any]) -> str | None:
    """The Claude Code session a request belongs to (``metadata.user_id.session_id``), if any.

    ``user_id`` is parsed only when it is short and flat enough to be Claude Code's (a
    deeply nested one would cost the parser its stack): anything else names no session.
    """
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


def _request_cost(prices: PriceTable, model: str | None, usage: Mapping[str, int], *,
                  output_share: float = 1.0) -> float | None:
    row = prices.row(model)
    if row is None:
        return None
    return (usage.get("input_tokens", 0) * row["input"] + usage.get("output_tokens", 0) * output_share * row["output"]
            + usage.get("cache_creation_input_tokens", 0) * row["cacheWrite"]
            + usage.get("cache_read_input_tokens", 0) * row["cacheRead"]) / 1e6


def choose_profile(wanted: Profile, route: str | None, *, requested_model: str | None,
                   requested_effort: str | None, markers: bool, state: SessionState,
                   prices: PriceTable, limit: int, kept_markers: bool | None = None) -> tuple[Profile, str]:
    """The model and top-level effort a new turn runs on, and why (see the module doc).

    With ``markers`` (the route's model takes per-message effort) the effort travels on
    markers, so only the model is weighed (the returned profile keeps the route's effort, for
    the record). ``kept_markers`` says the same of the session's current model (``markers``
    when not given): a switch that does not pay keeps that model, and on it the route's effort
    still travels on markers — for the turn's sub-agents too, which read it from the profile.

    >>> table = PriceTable.shipped()
    >>> s = SessionState(model="claude-opus-4-5", effort="medium", cached_tokens=90_000,
    ...                  last={"input_tokens": 500, "output_tokens": 800, "cache_read_input_tokens": 90_000})
    >>> choose_profile(Profile("low", "claude-haiku-4-5"), "system1", requested_model="claude-opus-4-5",
    ...                requested_effort="medium", markers=False, state=s, prices=table, limit=10**6)[1]
    'kept claude-opus-4-5 at medium: writing 90000 cached tokens again costs $0.5850, more than the $0.3360 \
it would save (3.0 requests a turn x 2.0 turns expected on system1)'
    >>> choose_profile(Profile("low", None), "system1", requested_model="claude-opus-4-5",
    ...                requested_effort="medium", markers=False, state=SessionState(), prices=table, limit=10**6)
    (Profile(effort='low', model=None), "the session's first routed turn")
    """
    target_model = wanted.model or requested_model
    target_effort = requested_effort if markers else (wanted.effort or requested_effort)
    current_model = state.model or requested_model
    current_effort = state.effort or requested_effort
    switched = Profile(wanted.effort if markers else target_effort if target_effort != requested_effort else None,
                       wanted.model)
    if (target_model, target_effort) == (current_model, current_effort):
        return switched, "no switch"
    if state.model is None:
        return switched, "the session's first routed turn"
    towards_client = (target_model == requested_model or wanted.model is None) and (
        target_effort == requested_effort or wanted.effort is None)
    if towards_client:
        return switched, "back to what the client asked for: a route is never run below it to keep a cache"
    if route == "system2":
        return switched, "System 2's profile: a harder turn is never kept on a cheaper model to keep a cache"
    on_markers = markers if kept_markers is None else kept_markers
    kept = Profile(wanted.effort if on_markers else (current_effort if current_effort != requested_effort else None),
                   current_model if current_model != requested_model else None)
    label = f"{current_model}" + ("" if on_markers else f" at {current_effort}")
    if state.cached_tokens > limit:
        return kept, f"kept {label}: {state.cached_tokens} cached tokens > switchMaxCachedTokens {limit}"
    write = prices.row(target_model)
    read = prices.row(current_model)
    if write is None or read is None:
        return kept, f"kept {label}: no price for {target_model if write is None else current_model}"
    # the switch writes the prefix into the new cache, and the way back writes it into this one
    # again (counted in full: a cache unused for five minutes is gone)
    rewrite = state.cached_tokens * (write["cacheWrite"] + read["cacheWrite"] - 2 * read["cacheRead"]) / 1e6
    last = dict(state.last)
    now = _request_cost(prices, current_model, last, output_share=1.0)
    share = OUTPUT_SHARE.get(target_effort or "high", 1.0) / OUTPUT_SHARE.get(current_effort or "high", 1.0)
    then = _request_cost(prices, target_model, last, output_share=share)
    assert now is not None and then is not None
    per_turn, turns = state.requests_per_turn(), state.expected_turns(route)
    saving = (now - then) * per_turn * turns
    if saving > rewrite:
        return switched, (f"switched: writing {state.cached_tokens} cached tokens again costs ${rewrite:.4f}, "
                          f"less than the ${saving:.4f} it should save")
    return kept, (f"kept {label}: writing {state.cached_tokens} cached tokens again costs ${rewrite:.4f}, "
                  f"more than the ${saving:.4f} it would save ({per_turn:.1f} requests a turn x {turns:.1f} turns "
                  f"expected on {route})")


def apply_top(body: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
    """A copy of ``body`` on ``profile``'s model and top-level effort (``None``: the client's)."""
    out = dict(body)
    if profile.model is not None:
        out["model"] = profile.model
    if profile.effort is not None:
        top = out.get("output_config")
        out["output_config"] = {**top, "effort": profile.effort} if isinstance(top, Mapping) else {
            "effort": profile.effort}
    return out


def configured(settings: GatewayProfileSettings) -> Profiles:
    """Each route's profile from the config's ``(effort, model)`` (checked by
    :func:`artibot.config.validators.profile`): System 1 at low effort unless configured."""
    return Profiles(Profile(*settings.system1) if settings.system1 else Profile(effort="low"),
                    Profile(*settings.system2) if settings.system2 else Profile(), settings.switch_max_cached_tokens)
