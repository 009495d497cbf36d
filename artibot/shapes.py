"""The shapes that cross modules as JSON objects: one TypedDict each, read by key.

A value the code builds and uses in one place is a dataclass; a shape written to a file
or returned as a report, and read by key in several modules, is declared here once, so
that a key renamed in one place is an error in every other. Nothing here runs: the
module imports nothing of artibot and does no work.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, NotRequired, TypedDict

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
"""A value as JSON holds it."""


# --------------------------------------------------------------------- daily-experiences.json
class ExperienceRecord(TypedDict):
    """One line of the experience log: one routed request and how it ended.

    Built by :func:`artibot.hookpath.record.experience_record`, checked by
    :func:`artibot.experience.validate` (which returns this type), and described field by
    field in :data:`EXPERIENCE_FIELDS`: a field added here is added there too (a test
    holds the two equal). Fields that no writer fills are kept as they are, anonymized.
    """

    id: NotRequired[str]
    """Assigned at collection when absent: every stored record has one."""
    timestamp: NotRequired[str]
    """Assigned at collection when absent: every stored record has one."""
    session_id: str | None
    input: str
    domain: str
    complexity: float
    routed_to: Literal["system1", "system2"]
    outcome: Literal["success", "escalated", "failed", "interrupted"]
    latency_ms: float
    confidence: float
    pattern: str | None
    threshold: float | None
    propensity: float | None
    schema_version: NotRequired[int]
    source: NotRequired[str]
    agent: NotRequired[str]
    route_reason: NotRequired[str | None]
    tools: NotRequired[int]
    tool_failures: NotRequired[int]
    closed_by: NotRequired[str]
    reached_stop: NotRequired[bool]
    outcome_reason: NotRequired[str]
    usage: NotRequired[dict[str, JsonValue]]


class PoolColumn(NamedTuple):
    """A column of the row a team member sends to the team's pool for a record
    (:mod:`artibot.team.outbound` builds it, :mod:`artibot.team.schema` names it in SQL)."""

    name: str
    take: Literal["id", "text", "number", "count", "hash", "shared"]
    """How the field's value becomes the column's (its SQL type follows: ``number`` is double
    precision, ``count`` bigint, the others text): ``id`` the record's id, ``text`` a string,
    ``number`` a number, ``count`` an integer (a value of another type goes as null),
    ``hash`` the team's keyed hash of a non-empty string (the string itself never leaves),
    ``shared`` the string only where the team opted in to text. A free-text field goes to
    the pool only hashed, shared, or as the numbers of an object."""
    key: str = ""
    """For an object field, the key of the object the column takes."""


class RecordField(NamedTuple):
    """How the collector, the validator, the learner and the team's pool treat one field of the record."""

    free_text: bool
    """Its strings can hold user text: anonymized before they are stored. A field that is not
    is checked against its schema instead (an enumeration, a number, an ISO time, an id)."""
    required: bool
    """A caller must give it (``id`` and ``timestamp`` are assigned when absent)."""
    learned: bool
    """A column of the learner's frame (:mod:`artibot.learning.frame`)."""
    meaning: str
    check: Literal["", "text", "count", "flag", "object"] = ""
    """For a field beyond those every record carries (the hooks' facts about a turn): the kind
    of value :func:`artibot.experience.validate` takes there, null always allowed: ``text``,
    ``count`` (an integer >= 0), ``flag`` (true or false) or ``object`` (a JSON object). Empty
    for the fields every record carries, which the validator checks one by one."""
    pool: tuple[PoolColumn, ...] = ()
    """The columns of the team's pooled row it fills (none: it never leaves the machine). A
    column declared here also needs a migration that adds it (:mod:`artibot.team.schema`)."""


EXPERIENCE_FIELDS: dict[str, RecordField] = {
    "id": RecordField(False, False, True, "unique id (exp_ + ms time + 64 random bits when assigned)",
                      pool=(PoolColumn("record_id", "id"),)),
    "timestamp": RecordField(False, False, True, "when it was decided, ISO 8601 with a timezone",
                             pool=(PoolColumn("member_ts", "text"),)),
    "session_id": RecordField(True, False, False, "the client's session, or null"),
    "input": RecordField(True, True, False, "the request text, anonymized and cut",
                         pool=(PoolColumn("text", "shared"),)),
    "domain": RecordField(False, True, True, "frontend, backend, docs, security, data, general...",
                          pool=(PoolColumn("domain", "text"),)),
    "complexity": RecordField(False, True, True, "the router's score, 0 to 1",
                              pool=(PoolColumn("complexity", "number"),)),
    "routed_to": RecordField(False, True, True, "system1 or system2", pool=(PoolColumn("routed_to", "text"),)),
    "outcome": RecordField(False, True, True, "success, escalated, failed or interrupted",
                           pool=(PoolColumn("outcome", "text"),)),
    "latency_ms": RecordField(False, True, False, "how long the turn took, >= 0",
                              pool=(PoolColumn("latency_ms", "number"),)),
    "confidence": RecordField(False, True, True, "the router's confidence, 0 to 1"),
    "pattern": RecordField(True, False, True, "the System 1 cache key it matched, or null",
                           pool=(PoolColumn("pattern_hash", "hash"),)),
    "threshold": RecordField(False, False, False, "the threshold it was compared with, 0 to 1, or null"),
    "propensity": RecordField(False, False, True, "the probability of the route taken, in (0, 1], or null",
                              pool=(PoolColumn("propensity", "number"),)),
    "schema_version": RecordField(False, False, False, "the record's schema; absent: version 1"),
    "source": RecordField(True, False, False, "the client, under its older name (same value as agent)", "text"),
    "agent": RecordField(True, False, False, "the client: claude-code, gemini-cli, codex-cli, cursor, cli, demo...",
                         "text"),
    "route_reason": RecordField(True, False, False, "forced, cache, threshold or explore (hooks)", "text"),
    "tools": RecordField(False, False, False, "tool calls in the turn (hooks)", "count"),
    "tool_failures": RecordField(False, False, False, "failed tool calls in the turn (hooks)", "count"),
    "closed_by": RecordField(True, False, False, "what made the outcome final (hooks)", "text"),
    "reached_stop": RecordField(False, False, False, "whether the turn reached Stop (hooks)", "flag"),
    "outcome_reason": RecordField(True, False, False, "why the outcome was inferred (hooks)", "text"),
    "usage": RecordField(True, False, False, "what the turn's requests cost, measured by the gateway", "object",
                         pool=(PoolColumn("input_tokens", "count", "input_tokens"),
                               PoolColumn("output_tokens", "count", "output_tokens"),
                               PoolColumn("cost_usd", "number", "cost_usd"))),
}
"""Every field of :class:`ExperienceRecord`, in the order a record is written. The strings of
``source``, ``agent``, ``route_reason`` and ``closed_by`` are artibot's own words, but a record
imported with ``artibot collect`` may carry anything there: unchecked text is free text."""


# --------------------------------------------------------------------- learning-log.json
class RoundInputs(TypedDict):
    """What a round was computed from."""

    unprocessed: int | None
    processed: int
    remainder: int
    batches: int
    flush: bool


class RowTable(TypedDict):
    """A table of a round entry, one row per line in the file (``groups``, ``steps``)."""

    columns: list[str]
    rows: list[Any]


class ThresholdChange(TypedDict):
    old: float
    new: float


class RoundEntry(TypedDict):
    """A round that ended (applied, reset, discarded by a rollback).

    Built by :func:`artibot.store.round.rounds.round_entry`. A round discarded by a rollback has only ``type``, ``round_id``, ``status``,
    ``finished`` and ``reason``; an applied one also says what it applied.
    """

    type: NotRequired[Literal["round"]]
    round_id: str
    status: str
    finished: str | None
    mode: NotRequired[str]
    prepared: NotRequired[str | None]
    inputs: NotRequired[RoundInputs]
    params: NotRequired[dict[str, Any]]
    groups: NotRequired[RowTable]
    steps: NotRequired[RowTable]
    threshold_changes: NotRequired[dict[str, ThresholdChange]]
    answers: NotRequired[list[dict[str, Any]]]
    thresholds_applied: NotRequired[bool]
    transfers: NotRequired[dict[str, str]]
    archive: NotRequired[str]
    reason: NotRequired[str]
    rolled_back: NotRequired[bool]


class RollbackEntry(TypedDict):
    """A rollback: the rounds it undid (``round_id`` is the first of them)."""

    type: Literal["rollback"]
    round_id: str
    at: str
    undone: list[str]
    reason: str | None
    experiences_restored: int
    replaced_state_kept_in: str
    rollback_id: str


LogEntry = RoundEntry | RollbackEntry
"""An entry of ``learning-log.json``; entries written before ``type`` existed are rounds."""


# --------------------------------------------------------------------- reports
class ThresholdsJson(TypedDict):
    default: float
    domains: dict[str, float]
    exploration: NotRequired[dict[str, float]]


class PriceInForce(TypedDict):
    """The price of a System 2 call the learner uses, and where it comes from."""

    value: float
    source: str
    round: NotRequired[str | None]


class GatewayStatus(TypedDict):
    """One gateway port in ``artibot status --json``: ``state`` is ``up`` (it proved it is this
    data home's), ``down`` (nothing listens), ``not answering`` or ``another program``."""

    port: int
    state: str
    version: str | None
    pid: int | None
    """Of this home's gateway (``up``); of another data home's artibot gateway (``another program``)."""
    counters: dict[str, int] | None
    installed: bool
    """The agents' settings send requests to this port: every prompt is stopped while it is not ours."""
    held_by: NotRequired[str]
    """``another program``: ``another data home`` (an artibot gateway, unproved) or ``another program``."""
    unrouted_models: list[str]
    """Codex CLI's models this gateway left unrouted: they take no ``configuration_update`` item."""


class HookFailure(TypedDict):
    """One cause of a hook event's failures since its last success (``status``, ``doctor``)."""

    event: str
    cause: str
    count: int
    first: str
    last: str


class PendingTurns(TypedDict):
    """Turns the hooks hold in the session spools, not in the experience log yet."""

    sessions: int
    open: int
    """Turns in progress (no Stop yet)."""
    waiting: int
    """Stopped turns waiting for the next prompt's judgement (held ones included)."""
    queued: int
    """Final turns waiting for the session's end to be appended to the log."""
    held: int
    """Each ended session's last turn, kept for a resumed session."""


class TurnLine(TypedDict):
    """One turn in ``artibot turns --json``: what the router decided, why, and how it ended."""

    id: str
    time: str
    session_id: str | None
    agent: str
    prompt: str
    """The start of the anonymized prompt (the only text the log keeps)."""
    domain: str
    complexity: float | None
    threshold: float | None
    route: str | None
    why: str
    effort: str | None
    """The effort the gateway sent (None without the gateway)."""
    model: str | None
    outcome: str
    """``pending`` while the turn waits in its session's spool to be judged (a judged turn
    queued there for the log has its outcome, and ``waits_for`` ``session end``)."""
    waits_for: str | None
    """For a pending turn, what settles it: ``in progress`` (it has not stopped), ``next
    prompt`` (the session's next prompt judges it), ``resumed session`` (the session ended:
    its last turn is held for a resumed session until ``until``), ``session end`` (final,
    queued for the log); None for a recorded turn."""
    until: str | None
    """When a held turn stops waiting for a resumed session (UTC, ISO 8601), else None."""
    outcome_reason: str | None
    tokens: int | None
    cost_usd: float | None


class StatusReport(TypedDict):
    """``artibot status --json`` (:func:`artibot.reports.status.status`): a contract other tools read."""

    thresholds: ThresholdsJson
    system1_patterns: list[str]
    unprocessed: int
    pending_review: bool
    last_round: str | None
    last_round_status: str | None
    last_round_rolled_back: bool
    pending_round: str | None
    full_batches: int
    batch_size: int
    mode: str
    patterns_tracked: int
    rounds: int
    held_for_resume: NotRequired[int]
    hook_failures: NotRequired[list["HookFailure"]]
    pending_turns: NotRequired["PendingTurns"]
    home: str
    config: str | None
    validation: dict[str, Any]
    price: PriceInForce | None
    costs: dict[str, Any]
    interrupted: int
    agents: dict[str, int]
    thresholds_per_agent: dict[str, Any]
    gateway: list[GatewayStatus]
    team: NotRequired[dict[str, Any]]
    """Only for a team member (or a home that left one): membership, queue, cached team state."""


class RoundLine(TypedDict):
    """A round in ``artibot history --json``."""

    type: Literal["round"]
    round_id: str
    status: str | None
    mode: str | None
    finished: str | None
    processed: int | None
    batches: int | None
    threshold_changes: dict[str, ThresholdChange]
    thresholds_applied: bool | None
    transfers: dict[str, str]
    rolled_back: bool
    costs: dict[str, Any] | None


class RollbackLine(TypedDict):
    """A rollback in ``artibot history --json``."""

    type: Literal["rollback"]
    round_id: str
    at: str | None
    undone: list[str]
    reason: str | None


HistoryLine = RoundLine | RollbackLine
"""One line of :func:`artibot.round.rollback.history`, oldest first."""


# --------------------------------------------------------------------- the hooks' turn
class Turn(TypedDict):
    """One prompt's turn as the hooks keep it in the session spool between processes
    (opened by ``turns.open_turn``, changed by each tool call, closed at ``Stop``).

    A spool is read back from JSON that an older artibot may have written, so readers
    still use ``.get`` with a default for every key.
    """

    id: str | None
    decision: dict[str, Any]  # turns.DECISION_FIELDS of the routing decision
    input: str
    prompt_id: str | None
    started_ms: int
    last_ms: int
    tools: int
    tool_failures: int
    last_failed: bool
    interrupted: bool
    tool_names: list[str]
    tool_duration_ms: float
    awaiting_permission: list[str]
    agent: NotRequired[str]
    open_failures: NotRequired[list[int]]
    stopped_ms: NotRequired[int]
    outcome: NotRequired[str]
    outcome_reason: NotRequired[str]
    usage: NotRequired[dict[str, Any]]
    unoffered: NotRequired[str]
    cut_off: NotRequired[bool]
    hold_until: NotRequired[int]
    batch_from: NotRequired[str]  # "transcript": last_failed was read from the transcript at Stop
    gateway: NotRequired[dict[str, object]]  # Gemini CLI: the route's model, chosen at the turn's first request
