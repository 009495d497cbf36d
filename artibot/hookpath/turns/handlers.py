"""What each hook event does, for every client: the turn engine's handlers.

Claude Code's hooks (:func:`.call.main`) run them by its own event names, which are
these; the other clients' (:mod:`artibot.hookpath.adapter`) translate their events
into them first.

* ``session-start`` — context for Claude (thresholds, System 1 patterns, a pending
  review); settles idle spools (a stopped turn waiting longer than the follow-up
  window is final; an open turn idle for :data:`STALE_SESSION_MS` is interrupted); starts
  a learner if the last start is stale and a batch is ready; with ``--gateway``, starts
  the gateway when it does not run (so do the prompt and tool hooks).
* ``user-prompt-submit`` — by the prompt's kind (:mod:`.prompts`): harness input (a
  sub-agent's ``<task-notification>`` …) is ignored entirely; a slash command is not
  routed or recorded (a ``/name`` that names no installed command is a user prompt); a
  command the user wrote (a file) is routed and recorded by the text it sends the model; a
  user prompt judges the previous turn (:mod:`.followup`), closes a turn that never
  reached ``Stop`` as ``interrupted`` (``failed`` if this prompt corrects it), routes
  the prompt, keeps the decision, the *anonymized* text and the turn's record id in the
  session spool and tells Claude the route.
  A prompt with the open turn's ``prompt_id`` belongs to that turn (Claude Code sends
  a message typed mid-turn, and a notification arriving mid-turn, with it).
* ``post-tool-use`` / ``post-tool-use-failure`` — counts the tool call in the open turn
  when its ``prompt_id`` matches and it is not a sub-agent's (``agent_id``); through the
  gateway, a sub-agent's call is kept on its binding instead (whether its last one failed).
* ``permission-request`` — the tool waits for permission; if it never runs, the turn
  had a tool call refused (Claude Code fires no tool hook for a refused call).
* ``stop`` — the turn gets its provisional outcome (:mod:`.turns`; with a failed tool
  call, its last batch read from the transcript) and waits for the next prompt's judgement.
* ``session-end`` — every turn of the session but the last becomes final and is
  collected; the last one (``interrupted`` if it never reached ``Stop``) is held in the
  spool for the first prompt of the same session resumed (:mod:`.ended`); a spool with
  nothing held is removed; a detached learner is started (it learns all but the held turn).

Making turns final and handing them to the log is :mod:`.ended`'s. Final turns wait in the
spool's ``queue`` and are appended to the experience log at
session end, at the next ``SessionStart`` that finds them (idle spools: :mod:`.ended`),
or by a ``Stop`` once :data:`FLUSH_AT` are waiting: the per-prompt path never loads the
experience log.
"""

from __future__ import annotations

from artibot.hookpath.turns import turn as turns
from artibot.hookpath.names import MAX_ROUTED_CHARS
from artibot.hookpath.record import new_id
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: this module is on every hook's path
if TYPE_CHECKING:
    from typing import Callable, Mapping, Sequence

    from artibot.hookpath.turns.protocol import Call, Handler, Output
    from artibot.config.settings import Settings
    from artibot.shapes import Turn

FLUSH_AT = 8
"""Final turns kept in a spool before a ``Stop`` appends them to the experience log."""


# --------------------------------------------------------------------- the spool
def _same_prompt(turn: Turn, prompt_id: str | None) -> bool:
    """Whether an event with ``prompt_id`` belongs to ``turn`` (either id missing: assume so)."""
    mine = turn.get("prompt_id")
    return mine is None or prompt_id is None or mine == prompt_id


def _spool(call: Call) -> hookio.Spool:
    return hookio.Spool(call.root, call.session_id)


def _note_quarantine(call: Call, spool: hookio.Spool) -> None:
    if spool.quarantined is not None:
        call.log(f"damaged session spool moved to {spool.quarantined}")


# --------------------------------------------------------------------- prompts
def _route(call: Call, prompt: str) -> tuple[dict[str, object], str, bool]:
    """The router's decision fields and the anonymized text for ``prompt``, and whether the
    policy escalates after a failed System 1 turn (:meth:`artibot.hookpath.router.policy.RoutingPolicy.escalate`)."""
    from artibot.hookpath.turns import routecache

    routecache.preload_patterns(call)  # before the router and the anonymizer compile theirs
    policy, rng = routecache.load_policy(call)
    from artibot.hookpath.privacy import anonymize_prefix

    # As Router.route and the collector: the first MAX_ROUTED_CHARS, anonymized with a
    # margin past the cut so that a secret across it is still found.
    text = anonymize_prefix(prompt, MAX_ROUTED_CHARS)
    decision = policy.decide(text, rng=rng)
    return {name: getattr(decision, name, None) for name in turns.DECISION_FIELDS}, text, policy.escalation


ESCALATE_AFTER = ("failed", "escalated")
"""A System 1 turn's outcomes after which the session's next turn goes to System 2."""


def _escalated(fields: dict[str, object], settled: Sequence[Mapping[str, object]]) -> dict[str, object]:
    """``fields`` sent to System 2 when the turn this prompt made final was a System 1 turn that
    failed or escalated: the person is asking again, and the retry goes where it can succeed
    (the same rule as ``RoutingPolicy.escalate``, on the fields the spool keeps)."""
    last = settled[-1] if settled else None
    if last is None or last.get("routed_to") != "system1" or last.get("outcome") not in ESCALATE_AFTER \
            or fields.get("system") != "system1":
        return fields
    return {**fields, "system": "system2", "propensity": 1.0, "reason": "escalation"}


def _ensure_gateway(call: Call) -> str | None:
    """Installed with ``--gateway``: make sure the gateway answers before Claude Code's request.
    Returns why the port must not be used (another program holds it), else None."""
    import os

    if not os.environ.get("ARTIBOT_GATEWAY_PORT"):
        return None
    from artibot.gateway import launcher

    port = launcher.wanted_port()
    if port is None:
        return None
    outcome = launcher.ensure(call.root, port)
    if outcome.said:
        call.log(outcome.said)
    return outcome.said if outcome.blocked else None


def _command_exists(call: Call, name: str) -> bool:
    from artibot.hookpath.turns import commands

    return commands.file_of(call, name) is not None


def user_prompt_submit(call: Call) -> Output | None:
    from artibot.hookpath.turns import prompts

    refused = call.attempt("starting the gateway", lambda: _ensure_gateway(call))
    if refused:  # the prompt's requests (and the API key) would go to another program: stop it here
        return {"decision": "block", "reason": f"artibot: {refused}"}
    prompt = call.payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        call.log("no prompt text in the payload; nothing routed")
        return None
    what = prompts.kind(prompt, lambda name: _command_exists(call, name))
    if what == prompts.HARNESS:
        return None  # nobody typed it: no record, no context, no effect on the open turn
    call.secret = prompt
    prompt_id = call.field("prompt_id")
    fields: dict[str, object] | None = None
    text = ""
    escalation = False
    if what == prompts.USER:
        fields, text, escalation = _route(call, prompt)
    elif what == prompts.SLASH:  # a command the user wrote: the model gets its text, so that is routed
        from artibot.hookpath.turns import commands

        command = call.attempt("reading the command's file",
                               lambda: commands.text_of(call, prompt, max_chars=2 * MAX_ROUTED_CHARS))
        if command:
            fields, text, escalation = _route(call, command)
    from artibot.hookpath.turns import ended

    spool = _spool(call)
    with spool.edit(create=True) as doc:
        assert doc is not None  # create=True: a new spool's document
        turn = doc.get("turn")
        if turn and prompt_id is not None and turn.get("prompt_id") == prompt_id:
            return None  # typed mid-turn: Claude Code folds it into the open turn
        done = doc.get("done")
        # a turn held past its session's end is judged by the resumed session's first prompt
        judgement, closed_by = None, "resumed-prompt" if done and done.get("hold_until") else "next-prompt"
        if done and call.now > turns.judge_deadline(done):
            closed_by = "timeout"  # the user moved on: this prompt does not judge that turn
        elif (done or turn) and what == prompts.USER:
            from artibot.hookpath.turns import followup

            judgement = followup.judge(prompt)
        # A turn cut off by this prompt (Esc, then a new prompt): the route is to blame only
        # when the new prompt corrects it; otherwise it was an interruption.
        cut = judgement if turn and not done and judgement and judgement[0] == "failed" else (
            "interrupted", "no Stop before the next prompt: the user interrupted the turn")
        settled = ended.settle(call, doc, closed_by=closed_by, judgement=judgement if done else None, open_turn=cut)
        if fields is not None and escalation and closed_by != "timeout":
            fields = _escalated(fields, settled)
        if fields is not None:
            doc["turn"] = turns.open_turn(fields, text, now=call.now, prompt_id=prompt_id, turn_id=new_id(call.now),
                                          agent=getattr(call, "agent", None))
    _note_quarantine(call, spool)
    if fields is None:
        return None
    from artibot.hookpath.turns import context
    from artibot.hookpath.turns import routecache

    # Last, once the follow-up judge ran: what this process compiled is kept for the next prompt.
    call.attempt("keeping the compiled patterns", lambda: routecache.keep_patterns(call))

    return context.hook_output("UserPromptSubmit", context.routing_line(fields))


# --------------------------------------------------------------------- tools and stop
def _edit_turn(call: Call, change: Callable[[Turn], Turn]) -> None:
    """Apply ``change(turn) -> turn`` to the open turn this event belongs to, if any."""
    if call.field("agent_id"):
        return  # a sub-agent's own tool call: its Agent call already counts in the turn
    spool = _spool(call)
    with spool.edit(create=False) as doc:
        turn = doc.get("turn") if doc is not None else None
        if doc is None or not turn or not _same_prompt(turn, call.field("prompt_id")):
            return
        doc["turn"] = change(turn)
    _note_quarantine(call, spool)


def _note_agent_tool(call: Call, agent_id: str, *, failed: bool) -> None:
    """Through the gateway: a sub-agent's tool call is kept on its binding (whether its last one
    failed), which decides whether the session's next sub-agents may go to System 1's model."""
    import os

    if not os.environ.get("ARTIBOT_GATEWAY_PORT") or not call.session_id:
        return
    from artibot.hookpath.store import gateway_state

    gateway_state.note_agent_tool(call.root, call.session_id, agent_id, failed=failed)


def _tool_call(call: Call, *, failed: bool) -> None:
    # A gateway killed mid-turn comes back before the turn's next request (the client retries it).
    call.attempt("starting the gateway", lambda: _ensure_gateway(call))
    agent_id = call.field("agent_id")
    if agent_id:
        call.attempt("noting the sub-agent's tool call", lambda: _note_agent_tool(call, agent_id, failed=failed))
    payload = call.payload
    duration = payload.get("duration_ms")  # add_tool counts a number only
    _edit_turn(call, lambda turn: turns.add_tool(
        turn, tool=call.field("tool_name"), failed=failed,
        interrupted=failed and payload.get("is_interrupt") is True,
        duration_ms=duration if isinstance(duration, (int, float)) else None, now=call.now))


def post_tool_use(call: Call) -> None:
    _tool_call(call, failed=False)


def post_tool_use_failure(call: Call) -> None:
    _tool_call(call, failed=True)


def permission_request(call: Call) -> None:
    _edit_turn(call, lambda turn: turns.ask_permission(turn, tool=call.field("tool_name"), now=call.now))


def _judge_last_batch(call: Call, turn: Turn) -> Turn:
    """A turn with a failed tool call: whether its *last batch* failed, from the transcript
    (:mod:`.transcript`); the hooks' own rule stands when the transcript does not say."""
    path = call.field("transcript_path")
    if not path:
        return turn
    from artibot.hookpath.turns.transcript import TAIL_BYTES, last_batch_failed
    from artibot.hookpath.store import hook_reads

    tail = hook_reads.read_tail(path, TAIL_BYTES)
    failed = last_batch_failed(tail) if tail else None
    return turn if failed is None else {**turn, "last_failed": failed, "batch_from": "transcript"}


def _unoffered_call(call: Call, turn: Turn) -> Turn:
    """A call to a tool the model was not offered fires no hook: the transcript shows it
    (:func:`.transcript.unoffered_call`); a look at its last 64 KB, parsed only if it is there."""
    path = call.field("transcript_path")
    if not path:
        return turn
    from artibot.hookpath.turns.transcript import PEEK_BYTES, TAIL_BYTES, UNOFFERED
    from artibot.hookpath.store import hook_reads

    peek = hook_reads.read_tail(path, PEEK_BYTES)
    if not peek or UNOFFERED not in peek:
        return turn
    from artibot.hookpath.turns.transcript import unoffered_call

    tail = hook_reads.read_tail(path, TAIL_BYTES)
    name = unoffered_call(tail) if tail else None
    return turns.add_unoffered(turn, tool=name, now=call.now) if name else turn


def stop(call: Call) -> None:
    # Also with stop_hook_active: the first Stop settles the turn, later ones find none.
    spool = _spool(call)
    with spool.edit(create=False) as doc:
        if doc is None:
            return
        turn = doc.get("turn")
        if turn and _same_prompt(turn, call.field("prompt_id")):
            if doc.get("done"):  # a stopped turn left unjudged (settling is imported only then)
                from artibot.hookpath.turns import ended

                ended.settle(call, doc, closed_by="next-prompt")
            doc["turn"] = None
            if turn.get("tool_failures"):
                turn = _judge_last_batch(call, turn)
            else:
                turn = _unoffered_call(call, turn)
            doc["done"] = turns.stop_turn(turn, now=call.now)
        waiting = len(doc.get("queue") or [])
    _note_quarantine(call, spool)
    if waiting >= FLUSH_AT:
        from artibot.hookpath.turns import ended

        call.attempt("recording the session's turns", lambda: ended.flush(call, spool))


# --------------------------------------------------------------------- sessions
def session_start(call: Call) -> Output:
    from artibot.hookpath.turns import context

    problems: list[str] = []
    summary = None
    call.attempt("starting the gateway", lambda: _ensure_gateway(call))
    try:
        from artibot.hookpath.turns.routecache import load_summary

        summary = load_summary(call)
    except Exception as exc:  # noqa: BLE001 - the context still goes out, naming the problem
        call.log_error(exc, "loading the learned state")
        problems.append(str(exc))
    from artibot.hookpath.turns import ended

    call.attempt("settling idle sessions", lambda: ended.settle_idle_sessions(call))
    if call.session_id:
        call.attempt("recording the session's turns", lambda: ended.flush(call, _spool(call)))
    if summary is not None:
        call.attempt("starting the learner", lambda: _start_learner(call, None, stale_only=True))
    from artibot.hookpath.turns import notices as round_notices

    pending = bool(call.attempt("checking for a pending review", lambda: round_notices.pending_review(call)))
    call.attempt("starting the team sync", lambda: _start_team_sync(call))
    notices = (call.attempt("validating applied rounds", lambda: round_notices.worse_rounds(call))
               if summary is not None else None)
    text = context.session_context(summary, pending_review=pending, problems=problems, notices=notices or [])
    return context.hook_output("SessionStart", text)


def session_end(call: Call) -> None:
    from artibot.hookpath.turns import ended

    spool = _spool(call)
    window = ended.resume_window_ms(call)

    def close() -> None:
        with spool.edit(create=False) as doc:
            if doc is None:
                return
            ended.hold_last_turn(call, doc, window)  # every other turn is final (queued)
            held = bool(doc.get("done"))
        ended.flush(call, spool)
        if not held:
            spool.remove()

    call.attempt("closing the session", close)

    def start() -> None:
        from artibot.config import load_settings

        _start_learner(call, load_settings(call.home().root), stale_only=False)

    call.attempt("starting the learner", start)


def _start_learner(call: Call, settings: Settings | None, *, stale_only: bool) -> None:
    from artibot.hookpath.turns import spawn_learner as learner

    if stale_only:
        stale, why = learner.stamp_is_stale(call.root, now=call.now)
        if not stale:
            return
        from artibot.config import load_settings

        home = call.home()
        result = learner.spawn(home, settings or load_settings(home.root), now=call.now,
                               reason=f"{call.event} ({why})")
        if not result.started:
            learner.note_check(call.root, now=call.now)
    else:
        assert settings is not None  # session end loads them itself
        result = learner.spawn(call.home(), settings, now=call.now, reason=call.event)
    call.log((f"learner started, pid {result.pid}: " if result.started else "") + result.reason)


def _start_team_sync(call: Call) -> None:
    """A member's SessionStart starts the team sync in a detached child when the last one is
    stale; SessionStart itself reads only the cached state (the thresholds a pull wrote).
    A home that is not a member costs one file test and imports nothing of the team."""
    if not hookio.team_member(call.root):
        return
    from artibot.team import sync

    started = sync.start_if_due(call.root, now=call.now)
    if started:
        call.log(started)


HANDLERS: dict[str, Handler] = {
    "session-start": session_start,
    "user-prompt-submit": user_prompt_submit,
    "post-tool-use": post_tool_use,
    "post-tool-use-failure": post_tool_use_failure,
    "permission-request": permission_request,
    "stop": stop,
    "session-end": session_end,
}
