"""Which turn a request belongs to, and the body it goes out with (the gateway's routing step).

:class:`TurnRouter` reads the session spool the prompt hook wrote (:mod:`artibot.store.
gateway_state`), fixes the turn's profile at its first request (:func:`.profiles.
choose_profile`: a model or top-level effort switch only when it pays for its cache
rewrite), attributes sub-agents to the turn that launched them, each on a profile of its
own (:func:`agent_profile`), and compaction to the turn's housekeeping, and rewrites the
body cache-safely (:mod:`.cachesafe`); a request moved to a model without per-message
effort loses the client's markers (:func:`.cachesafe.without_markers`). A spool of a
shape this version does not write means the request goes out as the client sent it and
nothing is recorded. Nothing here waits for a lock on the event loop: a step that would
raises :class:`NeedsThread` and :meth:`TurnRouter.inspect` runs it again in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import orjson

from artibot.gateway import cachesafe as cs
from artibot.gateway import profiles as prof
from artibot.gateway import responses as rs
from artibot.gateway.price_table import PriceTable
from artibot.hookpath.store import gateway_state

log = logging.getLogger("artibot.gateway")


class NeedsThread(Exception):
    """A step that waits for a lock was reached on the event loop: run it in a thread."""


@dataclass
class Route:
    session_id: str
    turn_id: str
    profile: dict[str, Any]
    kind: str = "turn"
    """``turn`` (the main conversation), ``agent`` (a sub-agent's) or ``housekeeping`` (compaction)."""
    why: str | None = None
    sent_effort: str | None = None
    system: str | None = None
    """The turn's route (``system1`` or ``system2``), as the prompt hook decided it."""
    api: str = "messages"
    """``messages`` (Anthropic's, Claude Code) or ``responses`` (OpenAI's, Codex CLI): how its answer reports usage."""


AGENT_HEADER = "x-claude-code-agent-id"
"""Claude Code sends it with every request of a sub-agent (seen in 2.1.331), never on the main loop's."""


def agent_profile(fixed: Mapping[str, Any], profiles: prof.Profiles, requested: str | None, *,
                  failed_before: Callable[[str], int]) -> dict[str, Any]:
    """A sub-agent's own profile, from the profile of the turn that launched it (pure but for
    ``failed_before``: how many of the session's sub-agents on a model failed their last tool call).

    A sub-agent starts a conversation of its own, so moving it to another model writes no
    cached conversation again, only its own prefix (its system prompt and tools): a System 1
    turn's sub-agent goes to System 1's model whenever one is configured, unless a sub-agent
    of the session already failed there. Otherwise it runs on the turn's model, at the turn's
    route effort.

    >>> turn = {"route": "system1", "profile": {"effort": "low", "model": None}, "why": "kept claude-opus-5-5"}
    >>> haiku = prof.Profiles(system1=prof.Profile("low", "claude-haiku-4-5"))
    >>> agent_profile(turn, haiku, "claude-opus-5-5", failed_before=lambda m: 0)["profile"]
    {'effort': 'low', 'model': 'claude-haiku-4-5'}
    >>> agent_profile(turn, haiku, "claude-opus-5-5", failed_before=lambda m: 1)["why"]
    "the turn's profile: 1 sub-agent(s) of this session failed their last tool call on claude-haiku-4-5"
    """
    route = fixed.get("route") if isinstance(fixed.get("route"), str) else None
    profile = prof.Profile.from_json(fixed.get("profile"))
    wanted = profiles.for_route(route) or prof.Profile()
    effort = profile.effort or wanted.effort
    own: prof.Profile | None = None
    why = "the turn's profile"
    if route == "system1" and wanted.model is not None and wanted.model != (profile.model or requested):
        failed = failed_before(wanted.model)
        if failed:
            why = (f"the turn's profile: {failed} sub-agent(s) of this session failed their last tool call "
                   f"on {wanted.model}")
        else:
            own = prof.Profile(wanted.effort, wanted.model)
            why = "System 1's model: a sub-agent's own conversation, so the switch writes only its own prefix"
    chosen = own or prof.Profile(effort, profile.model)
    return {"route": route, "profile": chosen.to_json(), "why": why,
            "effort": "markers" if cs.supports_markers(chosen.model or requested) else "top-level"}


class TurnRouter:
    """The routing step of one gateway (see the module doc); ``counters`` is the gateway's."""

    def __init__(self, root: str, profiles: prof.Profiles, prices: PriceTable, counters: Any):
        self.root, self.profiles, self.prices, self.counters = root, profiles, prices, counters
        self.loop_thread: int | None = None
        """The event loop's thread, once it runs (a lock is never waited for there)."""

    def _turn(self, body: dict[str, Any], session_id: str, agent_id: str | None) -> dict[str, Any] | None:
        """The turn the request belongs to, its profile fixed (at the turn's first request)."""
        root = self.root
        turn = gateway_state.read_turn(root, session_id, agent_id)
        if turn is not None:
            return turn
        profiles, prices = self.profiles, self.prices
        requested = body.get("model") if isinstance(body.get("model"), str) else None
        requested_effort = cs.client_effort(body)

        def choose(state: dict[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
            decision = turn.get("decision")
            if not isinstance(decision, Mapping):
                raise ValueError("turn.decision is not an object")
            system = decision.get("system")
            wanted = profiles.for_route(system) or prof.Profile()
            session = prof.SessionState.from_json(state)
            profile, why = prof.choose_profile(
                wanted, system, requested_model=requested, requested_effort=requested_effort,
                markers=cs.supports_markers(wanted.model or requested), state=session, prices=prices,
                limit=profiles.switch_max_cached_tokens,
                kept_markers=cs.supports_markers(session.model or requested))
            gateway_state.count_turn(state, system)
            return {"route": system, "profile": profile.to_json(), "why": why,
                    "effort": "markers" if cs.supports_markers(profile.model or requested) else "top-level"}

        def choose_agent(state: dict[str, Any], turn: Mapping[str, Any], fixed: Mapping[str, Any]) -> dict[str, Any]:
            return agent_profile(fixed, profiles, requested, failed_before=lambda model: gateway_state.agents_failed_on(
                {"gateway": state}, model))

        return self._fix_turn(root, session_id, choose, agent_id, choose_agent)

    def _route(self, body: dict[str, Any], headers: Mapping[str, str]) -> tuple[dict[str, Any], Route | None, bool]:
        """The body to send, the turn it belongs to, and whether it now carries effort markers."""
        session_id = prof.session_of(body)
        if session_id is None or not prof.is_turn_request(body):
            return body, None, False
        agent_id = headers.get(AGENT_HEADER) or None
        messages = body.get("messages")
        listed = messages if isinstance(messages, list) else []
        starts = cs.turn_starts(listed)
        compaction = agent_id is None and bool(starts) and cs.is_compaction(listed, starts)
        turn = self._turn(body, session_id, agent_id)
        if turn is None:
            return body, None, False
        fixed = turn["gateway"]
        profile = prof.Profile.from_json(fixed.get("profile"))
        out: dict[str, Any] = dict(body)
        changed = False
        if compaction:
            kind = "housekeeping"  # the client's own profile: only the earlier turns' markers are kept
        else:
            kind = "agent" if agent_id is not None else "turn"
            out = prof.apply_top(out, prof.Profile(None, profile.model))
            if not cs.supports_markers(out.get("model")):  # effort can only be the top-level value
                out = prof.apply_top(out, prof.Profile(profile.effort, None))
                if out.get("model") != body.get("model"):
                    # moved to a model that refuses markers: the client's own go (they were
                    # written for its model), and the top level alone says the effort
                    out = cs.without_markers(out)
        if cs.supports_markers(out.get("model")):
            agent_effort = (profile.effort or cs.client_effort(body)) if kind == "agent" else None
            out, changed = cs.rewrite(out, self.profiles.efforts(), agent_effort=agent_effort, starts=starts)
        top = out.get("output_config")
        route = Route(session_id, turn["id"], dict(fixed.get("profile") or {}), kind,
                       fixed.get("why") if isinstance(fixed.get("why"), str) else None,
                       top.get("effort") if isinstance(top, Mapping) else None,
                       fixed.get("route") if isinstance(fixed.get("route"), str) else None)
        if not changed and out.get("model") == body.get("model") and top == body.get("output_config"):
            out = body  # nothing to change: the caller forwards the client's bytes without comparing bodies
        return out, route, changed

    def _prepare(self, raw: bytes, headers: Mapping[str, str]) -> tuple[bytes, Route | None, bool]:
        """The bytes to forward, the routed turn they belong to (if any), and whether the
        request now needs the per-message effort beta."""
        if b"session_id" not in raw or b'"tools"' not in raw:
            return raw, None, False  # no session or no tools: never routed, so never parsed
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return raw, None, False
        if not isinstance(body, dict):
            return raw, None, False
        try:
            new, route, beta = self._route(body, headers)
        except OSError as exc:  # the data home unreadable: the request still goes through
            log.warning("routing skipped: %s", exc.strerror or type(exc).__name__)
            return raw, None, False
        if route is None:
            return raw, None, False
        self.counters.routed += 1
        if new is body:
            return raw, route, False
        try:
            out = orjson.dumps(new)
        except TypeError:  # e.g. an integer beyond 64 bits: forward what the client sent
            return raw, route, False
        self.counters.rewritten += 1
        return out, route, beta

    def _fix_turn(self, root: str, session_id: str, choose: Callable[[dict[str, Any], Mapping[str, Any]],
                                                                     dict[str, Any]],
                  agent_id: str | None,
                  choose_agent: Callable[[dict[str, Any], Mapping[str, Any], Mapping[str, Any]],
                                         dict[str, Any]]) -> dict[str, Any] | None:
        """:func:`gateway_state.fix_turn`, which waits for the spool's lock: never on the event
        loop, where a hook holding it would pause every stream."""
        if threading.get_ident() == self.loop_thread:
            raise NeedsThread
        return gateway_state.fix_turn(root, session_id, choose, agent_id, choose_agent)

    async def inspect(self, plain: bytes, headers: Mapping[str, str]) -> tuple[bytes, Route | None, bool]:
        """:meth:`_prepare`, never fatal: a spool of an unexpected shape (another version's
        hooks, a hand edit) leaves the request as the client sent it and records nothing.
        On the loop (a parse and a spool read: less than a hop to a thread and back,
        bench_gateway.py), but a turn's first request, which takes the spool's lock to fix
        the turn's profile, goes again in a worker thread."""
        try:
            return self._prepare_safely(plain, headers)
        except NeedsThread:
            return await asyncio.get_running_loop().run_in_executor(None, self._prepare_safely, plain, headers)

    def _prepare_safely(self, plain: bytes, headers: Mapping[str, str]) -> tuple[bytes, Route | None, bool]:
        try:
            return self._prepare(plain, headers)
        except NeedsThread:
            raise
        except Exception as exc:  # noqa: BLE001 - the spool is input the gateway does not control
            self.counters.spool_errors += 1
            log.warning("routing skipped: a session spool of an unexpected shape (%s)", type(exc).__name__)
            return plain, None, False


MAX_UPDATES = 512
"""``configuration_update`` places kept per session (one per turn at most; the oldest go first)."""


class ResponsesRouter:
    """The routing step for Codex CLI's Responses API requests (:mod:`.responses`), beside
    :class:`TurnRouter`: the same spool, the same turn binding (the turn the prompt hook opened,
    checked against the request's ``turn_id``), the same rule that a lock is never waited for
    on the event loop. The session's update places live in its spool (``gateway.responses
    .updates``), so a gateway started again mid-session puts them back all the same."""

    def __init__(self, turns: TurnRouter):
        self.turns = turns
        self.unrouted_models: set[str] = set()
        """Models of Codex CLI turns left unrouted (no ``configuration_update``): ``status`` says so."""

    def _route(self, body: dict[str, Any], headers: Mapping[str, str]) -> tuple[dict[str, Any], Route | None]:
        session_id = rs.session_of(body, headers)
        if session_id is None or not rs.is_turn_request(body):
            return body, None
        items: list[Any] = body["input"]
        root = self.turns.root
        turn, state = gateway_state.read_session(root, session_id)
        if turn is None:
            return self._placed(body, items, state), None
        prompt = turn.get("prompt_id")
        if isinstance(prompt, str) and prompt != rs.turn_of(body):
            # a turn the prompt hook did not open (its hooks did not run): not routed, not billed
            return self._placed(body, items, state), None
        if not isinstance(turn.get("gateway"), dict):
            turn = self._fix(body, session_id, items) or turn
            turn, state = gateway_state.read_session(root, session_id)
            if turn is None:
                return self._placed(body, items, state), None
        fixed = turn.get("gateway")
        if not isinstance(fixed, dict):
            return self._placed(body, items, state), None
        route = Route(session_id, str(turn["id"]), dict(fixed.get("profile") or {}), "turn",
                      fixed.get("why") if isinstance(fixed.get("why"), str) else None,
                      rs.client_effort(body),
                      fixed.get("route") if isinstance(fixed.get("route"), str) else None, api="responses")
        return self._placed(body, items, state), route

    @staticmethod
    def _updates(state: Mapping[str, Any]) -> list[dict[str, Any]]:
        kept = state.get("responses")
        found = kept.get("updates") if isinstance(kept, Mapping) else None
        if found is None:
            return []
        if not isinstance(found, list) or not all(rs.is_update(u) for u in found):
            raise ValueError("gateway.responses.updates has a shape this version does not write")
        return list(found)

    def _placed(self, body: dict[str, Any], items: list[Any], state: Mapping[str, Any]) -> dict[str, Any]:
        updates = self._updates(state)
        if not updates:
            return body
        out, _placed = rs.with_updates(items, updates)
        return {**body, "input": out} if len(out) != len(items) else body

    def _fix(self, body: dict[str, Any], session_id: str, items: list[Any]) -> dict[str, Any] | None:
        """The turn's profile, fixed at its first request: on a model that takes updates, an
        update after the turn's new input when the route wants another effort than the one in force."""
        profiles = self.turns.profiles
        model = body.get("model")
        requested = rs.client_effort(body)

        def choose(state: dict[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
            decision = turn.get("decision")
            if not isinstance(decision, Mapping):
                raise ValueError("turn.decision is not an object")
            system = decision.get("system")
            gateway_state.count_turn(state, system)
            if not rs.takes_updates(model):
                if len(self.unrouted_models) < 8:
                    self.unrouted_models.add(str(model)[:80])
                return {"route": system, "profile": prof.Profile().to_json(), "effort": "unrouted",
                        "why": f"{model} takes no configuration_update item: the route is context only"}
            updates = self._updates(state)
            _out, placed = rs.with_updates(items, updates)
            updates = updates[:placed]  # the places the client's history still has
            wanted = profiles.for_route(system) or prof.Profile()
            in_force = rs.effort_in_force(updates, requested)
            target = wanted.effort or requested or rs.DEFAULT_EFFORT
            if target not in rs.EFFORTS:  # e.g. a client's "none": no update can name it
                why = f"{target} cannot be named in a configuration_update item: the effort in force is kept"
            elif target != (in_force or rs.DEFAULT_EFFORT):
                updates.append(rs.new_update(items, target))
                why = f"configuration_update to {target} after the turn's input (was {in_force or 'the default'})"
            else:
                why = f"already at {target}: no configuration_update needed"
            state["responses"] = {"updates": updates[-MAX_UPDATES:]}
            return {"route": system, "profile": prof.Profile(target if target in prof.EFFORTS else None).to_json(),
                    "why": why, "effort": "configuration_update", "sent": target}

        def no_agents(_state: dict[str, Any], _turn: Mapping[str, Any], fixed: Mapping[str, Any]) -> dict[str, Any]:
            return dict(fixed)

        return self.turns._fix_turn(self.turns.root, session_id, choose, None, no_agents)

    def _prepare(self, raw: bytes, headers: Mapping[str, str]) -> tuple[bytes, Route | None]:
        if b"session" not in raw and not headers.get(rs.SESSION_HEADER):
            return raw, None
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return raw, None
        if not isinstance(body, dict):
            return raw, None
        try:
            new, route = self._route(body, headers)
        except OSError as exc:
            log.warning("routing skipped: %s", exc.strerror or type(exc).__name__)
            return raw, None
        counters = self.turns.counters
        counters.routed += route is not None
        if new is body:
            return raw, route
        try:
            out = orjson.dumps(new)
        except TypeError:
            return raw, route
        counters.rewritten += 1
        return out, route

    def _prepare_safely(self, plain: bytes, headers: Mapping[str, str]) -> tuple[bytes, Route | None]:
        try:
            return self._prepare(plain, headers)
        except NeedsThread:
            raise
        except Exception as exc:  # noqa: BLE001 - the spool is input the gateway does not control
            self.turns.counters.spool_errors += 1
            log.warning("routing skipped: a session spool of an unexpected shape (%s)", type(exc).__name__)
            return plain, None

    async def inspect(self, plain: bytes, headers: Mapping[str, str]) -> tuple[bytes, Route | None]:
        """:meth:`_prepare`, never fatal, as :meth:`TurnRouter.inspect`."""
        try:
            return self._prepare_safely(plain, headers)
        except NeedsThread:
            return await asyncio.get_running_loop().run_in_executor(None, self._prepare_safely, plain, headers)
