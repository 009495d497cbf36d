"""The team round: the evidence learner on the pool, with the same three checkpoints.

1. **One reviewer at a time.** The round holds the row of ``round_lock`` locked
   (``FOR UPDATE``, in a transaction of its own on a second connection) for its whole run:
   locking it needs UPDATE on that table, which only the reviewer role has, so a member
   cannot take it. A second ``team learn`` (or ``review``, or ``rollback``) waits at most
   :data:`ROUND_WAIT_S` and is refused with who holds it and since when, as the holder
   wrote it in ``round_holder`` (``pg_stat_activity`` hides another role's connection
   time). A round whose process dies loses its connection, and the lock with it.
2. **A cut-off by snapshot, no lock.** The round takes a snapshot of the database
   (``pg_current_snapshot()``); its window is the rows whose inserting transaction
   (``xid``, set by the database) is visible in it and was not in the previous round's
   snapshot. A push still in flight at the cut-off is in the next round's window: none is
   counted twice or skipped, and pushes take no lock a member could hold against the
   team. Rows are ordered by the database's sequence, never by a member's clock.
3. **Statistics in SQL.** Rows of the window failing a check are set aside with their
   member (``set_aside``); the rest are summed per (domain, complexity bin, system):
   counts, successes, inverse-propensity weighted counts, costs, explored trials and
   their propensities. Only those sums reach Python: the round's memory does not grow
   with the pool.
4. **Checkpoints, then publish.** The answers go to ``answers``; an applied round
   publishes a new version of the state (``states``) with its round id; a deferred one
   stays ``pending`` in ``rounds`` for ``artibot team review``; the round's log (counts,
   set-aside rows per member, the answers) is kept in ``rounds.log``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

import orjson
from psycopg.types.json import Jsonb

from artibot.round import checkpoints as cp
from artibot.round.checkpoints import final_actions
from artibot.store.round.rounds import new_round_id
from artibot.errors import ReviewError, TeamError, TeamUnavailable
from artibot.messages import Message
from artibot.learning.team_pool import (CellStat, TeamState, parse_state, pool_number, problem, propose_pooled,
                                        state_json)
from artibot.learning.team_patterns import HEX, ROUND_PATTERNS, PatternCount
from artibot.learning.types import RoundProposal
from artibot.shapes import JsonValue
from artibot.config.settings import Settings
from artibot.team.schema import SCHEMA

X = f"{SCHEMA}.experiences"
PROBLEM = """CASE
    WHEN domain IS NULL OR length(domain) NOT BETWEEN 1 AND 200 OR left(domain, 1) = '~'
        THEN 'domain must be a name of 1 to 200 characters'
    WHEN complexity IS NULL OR NOT (complexity >= 0 AND complexity <= 1) THEN 'complexity must be from 0 to 1'
    WHEN routed_to IS NULL OR routed_to NOT IN ('system1', 'system2') THEN 'routed_to must be system1 or system2'
    WHEN outcome IS NULL OR outcome NOT IN ('success', 'escalated', 'failed', 'interrupted')
        THEN 'outcome must be success, escalated, failed or interrupted'
    WHEN propensity IS NOT NULL AND NOT (propensity > 0 AND propensity <= 1) THEN 'propensity must be in (0, 1]'
    WHEN cost_usd IS NOT NULL AND NOT (cost_usd >= 0 AND cost_usd < 1000000) THEN 'cost_usd must be from 0 to 1e6'
    WHEN latency_ms IS NOT NULL AND NOT (latency_ms >= 0 AND latency_ms < 1e9) THEN 'latency_ms must be >= 0'
    ELSE NULL END"""
WINDOW = "pg_visible_in_snapshot(xid, %(now)s::pg_snapshot) AND <since>"
"""The round's window: committed before its snapshot, and not before the previous round's (or,
after a state published before snapshots, above its ``seq_to``)."""
SINCE = "xid >= pg_snapshot_xmin(%(prev)s::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, %(prev)s::pg_snapshot)"
SINCE_SEQ = "seq > %(lo)s"
SET_ASIDE = (f"INSERT INTO {SCHEMA}.set_aside (round_id, record_id, member, reason) "
             f"SELECT %(round)s, record_id, member, problem FROM (SELECT record_id, member, {PROBLEM} AS problem "
             f"FROM {X} WHERE {WINDOW}) v WHERE problem IS NOT NULL ON CONFLICT DO NOTHING")


def windowed(query: str, prev: str | None) -> str:
    return query.replace("<since>", SINCE if prev else SINCE_SEQ)
SUMS = f"""WITH w AS (
    SELECT domain, least(floor(complexity * 20), 19)::int AS bin, routed_to = 'system2' AS s2,
           outcome = 'success' AS ok, propensity, cost_usd, complexity,
           CASE WHEN length(pattern_hash) = 32 THEN pattern_hash END AS ph, member
    FROM {X} WHERE {WINDOW} AND {PROBLEM} IS NULL AND outcome <> 'interrupted'),
g AS (
    SELECT grouping(domain, bin, s2) = 0 AS cell, grouping(member, domain) = 1 AS mrow,
        grouping(member, domain) = 0 AS md, member, domain, bin, s2, ph,
        count(*) AS n, count(*) FILTER (WHERE ok) AS k,
        sum(1 / coalesce(propensity, 1)) AS wn, coalesce(sum(1 / coalesce(propensity, 1)) FILTER (WHERE ok), 0) AS wk,
        coalesce(sum(cost_usd), 0) AS cost,
        count(*) FILTER (WHERE propensity < 0.5) AS en, count(*) FILTER (WHERE propensity < 0.5 AND ok) AS ek,
        coalesce(sum(propensity) FILTER (WHERE propensity < 0.5), 0) AS ep,
        min(complexity) AS cmin, max(complexity) AS cmax,
        count(*) FILTER (WHERE NOT s2) AS n1, count(*) FILTER (WHERE NOT s2 AND ok) AS k1,
        count(*) FILTER (WHERE s2) AS n2, count(*) FILTER (WHERE s2 AND ok) AS k2
    FROM w GROUP BY GROUPING SETS ((domain, bin, s2), (ph), (member), (member, domain)))
SELECT cell, domain, bin, s2, ph, n, k, wn, wk, cost, en, ek, ep, cmin, cmax, n1, k1, n2, k2, members, md, member
FROM (SELECT *, row_number() OVER (PARTITION BY cell, mrow, md ORDER BY n DESC, ph) AS rank,
             count(*) FILTER (WHERE mrow) OVER () AS members FROM g
      WHERE cell OR mrow OR (md AND domain <> ALL(%(known)s::text[])) OR ph IS NOT NULL) r
WHERE cell OR md OR (NOT mrow AND rank <= {ROUND_PATTERNS})
ORDER BY cell DESC, domain, bin, s2, ph"""
"""One scan of the window, four sums: per (domain, complexity bin, system) the cells' counts,
per pattern hash (the most frequent :data:`ROUND_PATTERNS`) its trials of each system, the
members whose rows it holds (on every row: the pool's half-life counts them), and per member
the rows of each domain the team's state does not have yet (what bounds what one member adds)."""

MAX_NEW_DOMAINS_PER_MEMBER = 32
"""Domains the team's state does not have that one member's rows may add in a round (its 32
with the most rows); the rows of the others are held out: not learned, and counted per member
in the round's log and at checkpoint 1."""
MAX_NEW_DOMAINS = 64
"""Domains a round may add in all (of those the members brought, the 64 with the most rows)."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class TeamRoundReport:
    status: str  # applied | deferred | reset | nothing | dry-run | pending
    round_id: str | None
    message: str
    proposal: RoundProposal | None = None
    evidence: cp.EvidenceSet | None = None
    version: int | None = None
    set_aside: dict[str, int] = field(default_factory=dict)
    held_out: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per member: the new domains (and their rows) beyond what one member or a round may add."""
    answers: list[dict[str, Any]] = field(default_factory=list)
    said: Message | None = None
    """``message`` as a message, to be said in the session's language (None: no message yet, a
    round loaded for review)."""

    def tell(self, said: Message) -> None:
        """The report's result: ``said``, and its English as ``message``."""
        self.said, self.message = said, str(said)

    def to_json(self) -> dict[str, Any]:
        changes = {d: {"old": o, "new": n} for d, (o, n) in self.proposal.net_changes().items()} \
            if self.proposal is not None else {}
        return {"status": self.status, "round_id": self.round_id, "message": self.message, "version": self.version,
                "set_aside": self.set_aside, "held_out": self.held_out, "threshold_changes": changes,
                "answers": self.answers}


ROUND_WAIT_S = 3.0
"""How long a reviewer's round waits for another's before it is refused."""


class RoundLock:
    """The round's lock: the ``round_lock`` row, locked by a transaction of its own (a second
    connection) until the block ends; refused after :data:`ROUND_WAIT_S` with who holds it."""

    def __init__(self, conn: Any, *, what: str = "a team round", wait_s: float = ROUND_WAIT_S):
        self.conn, self.what, self.wait_s = conn, what, wait_s
        self.lock: Any = None

    def __enter__(self) -> "RoundLock":
        import psycopg

        try:
            self.lock = psycopg.connect(self.conn.info.dsn, connect_timeout=5, application_name="artibot round lock")
        except psycopg.OperationalError as exc:
            why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise TeamUnavailable(Message("team.lock_unreachable", why=why)) from None
        try:
            self.lock.execute("SET idle_in_transaction_session_timeout = 0")  # held while the round runs
            self.lock.execute(f"SET lock_timeout = {int(self.wait_s * 1000)}")
            self.lock.execute(f"SELECT 1 FROM {SCHEMA}.round_lock WHERE id = 1 FOR UPDATE")
        except psycopg.errors.LockNotAvailable:
            self.lock.close()
            raise TeamError(Message("team.round_busy", holder=holder(self.conn))) from None
        except BaseException:  # a member's role lacks UPDATE on round_lock: the connection's handler says so
            self.lock.close()
            raise
        self.conn.execute(f"UPDATE {SCHEMA}.round_holder SET holder = current_user, since = now(), what = %s "
                          "WHERE id = 1", (self.what,))
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if not self.conn.closed and not self.conn.broken:
                self.conn.execute(f"UPDATE {SCHEMA}.round_holder SET holder = NULL, since = NULL, what = NULL "
                                  "WHERE id = 1")
        finally:
            self.lock.close()  # ends its transaction: the next reviewer's round may start


def holder(conn: Any) -> Message:
    """Who holds the round, as the holder wrote it (a few words for the refusal)."""
    row = conn.execute(f"SELECT holder, since, what FROM {SCHEMA}.round_holder WHERE id = 1").fetchone()
    if row is None or row[0] is None or row[1] is None:
        return Message("team.holder_unknown")
    since = row[1].astimezone(timezone.utc)
    return Message("team.holder", user=str(row[0]), since=f"{since:%Y-%m-%d %H:%M}")


def _snapshot_of(conn: Any, version: int) -> str | None:
    """The snapshot a published state's round cut its window at (None: a state from before snapshots)."""
    row = conn.execute(f"SELECT state->>'snapshot' FROM {SCHEMA}.states WHERE version = %s", (version,)).fetchone()
    return str(row[0]) if row and row[0] else None


def current_state(conn: Any) -> tuple[int, str, TeamState] | None:
    """The latest published state, parsed (a reviewer cannot build on a state it cannot read)."""
    row = conn.execute(f"SELECT version, round_id, state FROM {SCHEMA}.states WHERE status = 'published' "
                       "ORDER BY version DESC LIMIT 1").fetchone()
    if row is None:
        return None
    try:
        return int(row[0]), str(row[1]), parse_state(row[2])
    except ValueError as exc:
        raise TeamError(Message("team.state_unreadable", version=int(row[0]), round=str(row[1]),
                                why=problem(exc))) from None


def _sums(conn: Any, window: Mapping[str, Any]
          ) -> tuple[list[CellStat], list[PatternCount], int, list[tuple[str, str, int]]]:
    """The window's cells, pattern counts, members, and each member's rows of each domain not in
    ``window["known"]``; a hash that is not hex is dropped here (a length test in SQL and this
    check cost far less than a regular expression per row)."""
    cells: list[CellStat] = []
    patterns: list[PatternCount] = []
    new: list[tuple[str, str, int]] = []
    members = 0
    for r in conn.execute(windowed(SUMS, window["prev"]), window).fetchall():
        members = int(r[19])
        if r[20]:
            new.append((str(r[21]), str(r[1]), int(r[5])))
        elif r[0]:
            cells.append(CellStat(str(r[1]), int(r[2]), bool(r[3]), int(r[5]), int(r[6]), float(r[7]), float(r[8]),
                                  float(r[9]), int(r[10]), int(r[11]), float(r[12]), float(r[13]), float(r[14])))
        elif set(str(r[4])) <= HEX:
            patterns.append(PatternCount(str(r[4]), int(r[15]), int(r[16]), int(r[17]), int(r[18])))
    return cells, patterns, members, new


def held_out(new: list[tuple[str, str, int]]) -> tuple[set[str], dict[str, dict[str, int]]]:
    """Of the domains new to the team (``(member, domain, rows)``), those the round holds out
    and, per member, how many of its new domains and rows were held out. A member's
    :data:`MAX_NEW_DOMAINS_PER_MEMBER` domains with the most rows are its candidates; of all
    members' candidates the :data:`MAX_NEW_DOMAINS` with the most rows are kept."""
    by_member: dict[str, list[tuple[str, int]]] = {}
    total: dict[str, int] = {}
    for who, domain, n in new:
        by_member.setdefault(who, []).append((domain, n))
        total[domain] = total.get(domain, 0) + n
    candidates = {d for rows in by_member.values()
                  for d, _ in sorted(rows, key=lambda x: (-x[1], x[0]))[:MAX_NEW_DOMAINS_PER_MEMBER]}
    kept = set(sorted(candidates, key=lambda d: (-total[d], d))[:MAX_NEW_DOMAINS])
    held = set(total) - kept
    report: dict[str, dict[str, int]] = {}
    for who, rows in by_member.items():
        out = [(d, n) for d, n in rows if d in held]
        if out:
            report[who] = {"domains": len(out), "rows": sum(n for _, n in out)}
    return held, report


def prepare(conn: Any, settings: Settings, *, flush: bool, dry_run: bool) -> TeamRoundReport:
    """Under the round lock: cut the window, set bad rows aside, sum the rest, propose."""
    pending = conn.execute(f"SELECT round_id FROM {SCHEMA}.rounds WHERE status = 'pending'").fetchone()
    if pending is not None:
        waiting = Message("team.round_waiting", round=str(pending[0]))
        return TeamRoundReport("pending", str(pending[0]), str(waiting), said=waiting)
    current = current_state(conn)
    lo = current[2].seq_to if current else 0
    prev = _snapshot_of(conn, current[0]) if current else None
    # this month's and next month's partitions, so that pushes seldom have to make one
    conn.execute(f"SELECT {SCHEMA}.ensure_months(ARRAY[current_date, (current_date + interval '1 month')::date])")
    # the cut-off: one statement's snapshot, and the highest sequence committed in it (no lock taken)
    snap, hi = conn.execute(f"SELECT pg_current_snapshot()::text, coalesce(max(seq), 0) FROM {X}").fetchone()
    known = sorted(set(current[2].cells) | set(current[2].thresholds.domains)) if current else []
    window = {"now": str(snap), "prev": prev, "lo": lo, "known": known}
    round_id = new_round_id()
    aside: dict[str, int] = {}
    if not dry_run:
        with conn.transaction():
            conn.execute(f"INSERT INTO {SCHEMA}.rounds (round_id, status, seq_from, seq_to, snapshot) VALUES (%s, "
                         "'running', %s, %s, %s)", (round_id, lo, int(hi), str(snap)))
            conn.execute(windowed(SET_ASIDE, prev), {**window, "round": round_id})
        aside = {str(m): int(n) for m, n in conn.execute(
            f"SELECT member, count(*) FROM {SCHEMA}.set_aside WHERE round_id = %s GROUP BY 1", (round_id,))}
    hi = int(hi)
    stats, pattern_counts, members, new = _sums(conn, window)
    held, held_report = held_out(new)
    if held:  # what one member can add to everyone's state is bounded: the rest is not learned
        stats = [c for c in stats if c.domain not in held]
    based_on: JsonValue = {"version": current[0], "round_id": current[1]} if current else None
    extra: dict[str, JsonValue] = {"seq_from": lo, "seq_to": hi, "snapshot": str(snap),
                                   "set_aside": dict[str, JsonValue](aside), "based_on": based_on,
                                   "held_out": {m: dict[str, JsonValue](v) for m, v in held_report.items()},
                                   "held_out_limits": [MAX_NEW_DOMAINS_PER_MEMBER, MAX_NEW_DOMAINS]}
    proposal = propose_pooled(stats, current[2] if current else None, settings.router.threshold, settings,
                              flush=flush, extra=extra, pattern_counts=pattern_counts, members=members)
    if proposal is None:
        records = sum(s.n for s in stats)
        if not dry_run:
            _finish(conn, round_id, "nothing", {"records": records, "set_aside": aside, "held_out": held_report})
        # --flush is the way on only when it was not given and there is something for it
        why = (Message("team.too_few_even_flushed", n=records) if flush and records else
               Message("team.no_new_record") if not records else
               Message("team.fewer_than_batch", n=records, batch=settings.lifelong.batch_size))
        return TeamRoundReport("nothing", None, str(why), set_aside=aside, held_out=held_report, said=why)
    status = "dry-run" if dry_run else "proposed"
    said = Message("round.dry_run") if dry_run else None
    return TeamRoundReport(status, round_id, str(said or ""), proposal, cp.all_evidence(proposal, round_id, settings.lang),
                           set_aside=aside, held_out=held_report, said=said)


def _finish(conn: Any, round_id: str, status: str, log: Mapping[str, Any], proposal: RoundProposal | None = None
            ) -> None:
    with conn.transaction():
        conn.execute(f"UPDATE {SCHEMA}.rounds SET status = %s, finished_at = now(), log = %s, "
                     "proposal = coalesce(%s, proposal) WHERE round_id = %s",
                     (status, Jsonb(dict(log)), Jsonb(proposal.to_json()) if proposal is not None else None, round_id))


def _answer(conn: Any, round_id: str, checkpoint: int, answer: Any, channel: str) -> dict[str, Any]:
    value = dict(answer) if isinstance(answer, Mapping) else answer
    with conn.transaction():
        conn.execute(f"INSERT INTO {SCHEMA}.answers (round_id, checkpoint, answer, channel) VALUES (%s, %s, %s, %s)",
                     (round_id, checkpoint, Jsonb(value), channel))
    return {"checkpoint": checkpoint, "answer": value, "channel": channel, "at": _now()}


def answered(conn: Any, round_id: str) -> dict[int, Any]:
    return {int(c): a for c, a in conn.execute(f"SELECT checkpoint, answer FROM {SCHEMA}.answers WHERE round_id = %s",
                                               (round_id,))}


def decide(conn: Any, report: TeamRoundReport, policy: cp.Checkpoints) -> TeamRoundReport:
    """Ask the checkpoints not yet answered, then publish, reset or leave the round pending."""
    assert report.proposal is not None and report.evidence is not None and report.round_id is not None
    rid, proposal, ev = report.round_id, report.proposal, report.evidence
    given = answered(conn, rid)
    log: dict[str, Any] = {"records": pool_number(proposal.params, "records"), "set_aside": report.set_aside,
                           "held_out": report.held_out}
    try:
        for n, ask in ((1, policy.groups), (2, policy.thresholds), (3, policy.transfers)):
            if n in given:
                continue
            if n == 2 and given.get(1) == "reset":
                break
            got: Any = ask(ev[n])
            value = "skip" if got is None else got
            report.answers.append(_answer(conn, rid, n, value, policy.channel))
            given[n] = value
    except cp.Deferred as deferred:
        _finish(conn, rid, "pending", log, proposal)
        report.status = "deferred"
        report.tell(Message("team.deferred", round=rid, checkpoint=deferred.checkpoint))
        return report
    if given.get(1) == "reset":
        _finish(conn, rid, "reset", log, proposal)
        report.status = "reset"
        report.tell(Message("team.reset", round=rid))
        return report
    apply = given.get(2) == "apply"
    final = final_actions(proposal, given.get(3) if isinstance(given.get(3), Mapping) else None)
    status = {k: p.status for k, p in proposal.patterns_after.items()}
    log["transfers"] = {"promote": sorted(k for k, v in final.items() if v == "promote" and status[k] != "active"),
                        "demote": sorted(k for k, v in final.items() if v == "demote" and status[k] == "active")}
    state = state_json(proposal, apply_thresholds=apply, seq_to=pool_number(proposal.params, "seq_to"),
                       actions=final)
    pool = proposal.params.extra.get("pool")
    snapshot = pool.get("snapshot") if isinstance(pool, dict) else None
    if isinstance(snapshot, str):  # where the next round's window starts
        state["snapshot"] = snapshot
    with conn.transaction():
        version = int(conn.execute(f"INSERT INTO {SCHEMA}.states (round_id, state) VALUES (%s, %s) RETURNING version",
                                   (rid, Jsonb(state))).fetchone()[0])
        conn.execute(f"UPDATE {SCHEMA}.rounds SET status = 'applied', finished_at = now(), log = %s, "
                     "proposal = %s WHERE round_id = %s",
                     (Jsonb({**log, "version": version, "thresholds_applied": apply}), Jsonb(proposal.to_json()), rid))
    report.status, report.version = "applied", version
    moved = log["transfers"]
    report.tell(Message("team.published", round=rid, version=version, records=log["records"],
                        thresholds=Message("team.thresholds_updated" if apply else "team.thresholds_kept"),
                        promoted=len(moved["promote"]), demoted=len(moved["demote"])))
    return report


def load_pending(conn: Any, settings: Settings) -> TeamRoundReport:
    row = conn.execute(f"SELECT round_id, proposal, log FROM {SCHEMA}.rounds WHERE status = 'pending'").fetchone()
    if row is None:
        raise ReviewError(Message("team.none_waiting"))
    try:
        proposal = RoundProposal.from_json(row[1])
    except (ValueError, TypeError, KeyError) as exc:
        raise TeamError(Message("team.proposal_unreadable", round=str(row[0]), why=str(exc))) from None
    log = row[2] if isinstance(row[2], dict) else {}
    held: Any = log.get("held_out") or {}
    return TeamRoundReport("proposed", str(row[0]), "", proposal, cp.all_evidence(proposal, str(row[0]), settings.lang),
                           set_aside={str(k): int(v) for k, v in (log.get("set_aside") or {}).items()},
                           held_out={str(k): {"domains": int(v["domains"]), "rows": int(v["rows"])}
                                     for k, v in held.items()})


def rollback(conn: Any) -> tuple[tuple[int, str], tuple[int, str] | None]:
    """Withdraw the latest published state: ``((version, round) withdrawn, (version, round) now current or None)``.

    The withdrawn round's records are learned again by the next round (its window starts
    where the state now current stopped)."""
    pending = conn.execute(f"SELECT round_id FROM {SCHEMA}.rounds WHERE status = 'pending'").fetchone()
    if pending is not None:  # its proposal builds on the state a rollback would withdraw
        raise TeamError(Message("team.rollback_pending", round=str(pending[0])))
    with conn.transaction():
        row = conn.execute(f"SELECT version, round_id FROM {SCHEMA}.states WHERE status = 'published' "
                           "ORDER BY version DESC LIMIT 1 FOR UPDATE").fetchone()
        if row is None:
            raise TeamError(Message("team.nothing_to_roll_back"))
        conn.execute(f"UPDATE {SCHEMA}.states SET status = 'rolled_back' WHERE version = %s", (row[0],))
        conn.execute(f"UPDATE {SCHEMA}.rounds SET status = 'rolled_back', log = log || %s WHERE round_id = %s",
                     (Jsonb({"rolled_back_at": _now()}), row[1]))
        now = conn.execute(f"SELECT version, round_id FROM {SCHEMA}.states WHERE status = 'published' "
                           "ORDER BY version DESC LIMIT 1").fetchone()
    return (int(row[0]), str(row[1])), ((int(now[0]), str(now[1])) if now else None)


def history(conn: Any, limit: int = 20) -> list[dict[str, Any]]:
    rows = conn.execute(f"SELECT round_id, reviewer, started_at, status, seq_from, seq_to, log FROM {SCHEMA}.rounds "
                        "ORDER BY started_at DESC LIMIT %s", (limit,)).fetchall()
    return [{"round_id": r[0], "reviewer": r[1], "started_at": r[2].isoformat(), "status": r[3], "seq_from": r[4],
             "seq_to": r[5], "log": orjson.loads(orjson.dumps(r[6]))} for r in rows]
