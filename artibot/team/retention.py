"""Retention of the pooled experiences: old months' partitions dropped, never an unlearned row.

The experiences table is partitioned by month (``experiences_YYYY_MM``, and a default
partition for rows whose month has no partition yet). The learner forgets with a
half-life of a domain's records, so months well behind the team's state no longer move
any threshold; ``artibot team retention`` (the database's owner: only an owner drops
tables) detaches and drops the months older than the retention, in one transaction per
month. A month that still holds a row the team's latest published state has not learned
(committed after that state's round took its snapshot) is kept, and said why. The retention is
``--months N`` or the team's setting ``retention_months`` (none: nothing is dropped).
Published states, rounds and answers are small and always kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from artibot.errors import TeamError
from artibot.messages import Message
from artibot.team.schema import SCHEMA

PARTS = f"""SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = '{SCHEMA}.experiences'::regclass AND c.relname ~ '^experiences_[0-9]{{4}}_[0-9]{{2}}$'
ORDER BY 1"""


@dataclass(frozen=True)
class MonthResult:
    partition: str
    month: str
    rows: int
    dropped: bool
    said: Message
    """What happened to the month and why (kept, dropped, would be dropped)."""

    @property
    def reason(self) -> str:
        return str(self.said)

    def line(self) -> Message:
        """The month's line of ``artibot team retention``."""
        return Message("team.month", month=self.month, rows=self.rows, reason=self.said)


def months_setting(conn: Any) -> int | None:
    row = conn.execute(f"SELECT value FROM {SCHEMA}.settings WHERE key = 'retention_months'").fetchone()
    if row is None:
        return None
    try:
        months = int(row[0])
    except ValueError:
        raise TeamError(Message("team.retention_not_whole", value=repr(row[0]))) from None
    if months < 1:
        raise TeamError(Message("team.retention_below_one", value=months))
    return months


def _month_of(name: str) -> date:
    _, year, month = name.rsplit("_", 2)
    return date(int(year), int(month), 1)


def apply(conn: Any, months: int, *, dry_run: bool = False) -> tuple[str, list[MonthResult]]:
    """Drop the partitions of months older than ``months`` before this month (the server's
    clock); returns the cut-off month and what happened to each older partition."""
    if months < 1:
        raise TeamError(Message("team.months_below_one", value=months))
    cutoff = conn.execute("SELECT (date_trunc('month', now()) - make_interval(months => %s))::date",
                          (months,)).fetchone()[0]
    row = conn.execute(f"SELECT (state->>'seq_to')::bigint, state->>'snapshot' FROM {SCHEMA}.states "
                       "WHERE status = 'published' ORDER BY version DESC LIMIT 1").fetchone()
    learned = int(row[0]) if row and row[0] is not None else 0
    snapshot = row[1] if row else None
    # not learned: committed after the state's round cut its window (by snapshot; by seq for an older state)
    unlearned_if = ("NOT pg_visible_in_snapshot(xid, %s::pg_snapshot)" if snapshot else "seq > %s")
    out: list[MonthResult] = []
    for (name,) in conn.execute(PARTS).fetchall():
        month = _month_of(str(name))
        if month >= cutoff:
            continue
        part = f'{SCHEMA}."{name}"'
        rows, unlearned = conn.execute(f"SELECT count(*), count(*) FILTER (WHERE {unlearned_if}) FROM {part}",
                                       (snapshot or learned,)).fetchone()
        if unlearned:
            out.append(MonthResult(name, month.isoformat()[:7], int(rows), False,
                                   Message("team.month_kept", n=int(unlearned))))
            continue
        if not dry_run:
            with conn.transaction():
                conn.execute(f"ALTER TABLE {SCHEMA}.experiences DETACH PARTITION {part}")
                conn.execute(f"DROP TABLE {part}")
        out.append(MonthResult(name, month.isoformat()[:7], int(rows), not dry_run,
                               Message("team.month_would_drop" if dry_run else "team.month_dropped")))
    return cutoff.isoformat()[:7], out
