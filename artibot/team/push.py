"""Pushing a member's records to the team's pool, after they reached the local log.

Called from the detached learner, ``collect``, ``learn`` and ``artibot team push``; never
from a hook that waits on it. The queue is every record of the local log and archives
whose id the database has not acknowledged (:mod:`artibot.store.team_files`), so a
database that is down loses nothing: the next push sends what waited.

Idempotent by record id: the month (the partition key) is the database's reading of the
record id, held to it by a CHECK, so the primary key (record_id, month) is unique by id
across every month, and the insert is ``ON CONFLICT DO NOTHING``: a retry after a lost
acknowledgement, or two members' tools pushing the same record, stores it once. A push
takes no lock: a round cuts its window by snapshot (see :mod:`artibot.team.round`), so a
batch still in flight is in the next round's window, and no member's session, however
long it holds a transaction open, makes another's push or a round wait.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterator, Mapping, Sequence

from artibot.errors import TeamError, TeamUnavailable
from artibot.messages import Message
from artibot.store import archive
from artibot.store import team_files as files
from artibot.store.home import Home, HomeArg
from artibot.store.log.experiences import ExperienceLog
from artibot.team.outbound import OutboundRow, outbound_row, refusal
from artibot.team.schema import COLUMNS, POOL, SCHEMA, SQL_TYPES

BATCH = 5000
QUEUE_FULL = 10_000
"""Records waiting to be pushed above which ``status`` says the queue is full (they stay in
the local log and archives either way: nothing is dropped)."""

_TYPES = tuple(SQL_TYPES[column.take] for _, column in POOL)
# The month (the table's partition key) is the database's reading of the record id, the same on
# every retry (and the database refuses a row whose month is not its id's: the id is unique across months).
INSERT = (f"INSERT INTO {SCHEMA}.experiences ({', '.join(COLUMNS)}, month) "
          f"SELECT u.*, {SCHEMA}.id_month(u.record_id) FROM unnest("
          + ", ".join(f"%s::{t}[]" for t in _TYPES) + f") AS u({', '.join(COLUMNS)}) ON CONFLICT DO NOTHING")
MONTHS = f"SELECT {SCHEMA}.ensure_months(array(SELECT DISTINCT {SCHEMA}.id_month(i) FROM unnest(%s::text[]) i))"
"""Makes the batch's months' partitions where missing (the function checks first, so this is a
catalog lookup per month once they exist)."""


@dataclass(frozen=True)
class PushReport:
    sent: int
    stored: int
    """Rows the database did not already hold (``sent - stored`` were duplicates)."""
    queued: int
    """Records still waiting after this push."""
    message: str
    """The result in English (``--json`` carries it); :attr:`said` is the same to be said in any language."""
    said: Message | None = None

    def to_json(self) -> dict[str, Any]:
        return {"sent": self.sent, "stored": self.stored, "queued": self.queued, "message": self.message}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def local_records(home: Home) -> Iterator[dict[str, Any]]:
    """Every record of the archives and the log, each id once."""
    seen: set[str] = set()
    for source in (archive.records(home), ExperienceLog(home).stream()):
        for record in source:
            rid = record.get("id")
            if isinstance(rid, str) and rid not in seen:
                seen.add(rid)
                yield record


def queued(home: Home, pushed: set[str] | None = None) -> Iterator[dict[str, Any]]:
    """The records waiting to be pushed, one at a time (a push holds one batch of them)."""
    done = files.read_pushed(home) if pushed is None else pushed
    return (r for r in local_records(home) if r["id"] not in done)


def queue(home: Home) -> list[dict[str, Any]]:
    return list(queued(home))


def queue_size(home: Home) -> int:
    return sum(1 for _ in queued(home))


def _batches(records: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for r in records:
        batch.append(r)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def last_record(home: Home) -> dict[str, Any] | None:
    """The most recent record of the log (else of the archives): what `team show` shows."""
    last = None
    for last in ExperienceLog(home).stream():
        pass
    if last is None:
        for last in archive.records(home):
            pass
    return last


def membership_or_raise(home: Home) -> files.Membership:
    member = files.read_membership(home)
    if member is None:
        raise TeamError(Message("team.not_member", home=str(home.root)))
    return member


def insert_rows(conn: Any, rows: Sequence[OutboundRow]) -> int:
    """One batch in one transaction; returns the rows stored."""
    columns = [[row[c] for row in rows] for c in COLUMNS]  # type: ignore[literal-required]
    with conn.transaction():
        conn.execute(MONTHS, (columns[0],))
        cur = conn.execute(INSERT, columns)
        return int(cur.rowcount)


def push(*, home: HomeArg = None, timeout_s: float = 5.0, statement_ms: int = 30_000) -> PushReport:
    """Send the queue; raises TeamUnavailable (the queue kept, the attempt recorded) when the database is not there."""
    from artibot.team import db  # psycopg: only when something is sent

    h = Home.of(home)
    member = membership_or_raise(h)
    with files.push_lock(h):
        batches = _batches(queued(h), BATCH)  # streamed: a push holds one batch, not its whole queue
        first = next(batches, None)
        if first is None:
            nothing = Message("team.nothing_to_push")
            files.add_pushed(h, (), files.attempt(_now(), True, nothing))
            return PushReport(0, 0, 0, str(nothing), nothing)
        sent = stored = refused = 0
        try:
            with db.connect(member["url"], timeout_s=timeout_s, statement_ms=statement_ms) as conn:
                db.require_schema(conn, member["url"])
                settings = db.team_settings(conn)
                key_hex = settings.get("pattern_key", member["pattern_key"])
                share = settings.get("share_text") == "true"
                if (key_hex, share) != (member["pattern_key"], member["share_text"]):  # `team show` uses these
                    files.write_membership(h, {**member, "pattern_key": key_hex, "share_text": share})
                key = bytes.fromhex(key_hex)
                for batch in itertools.chain((first,), batches):
                    rows = [outbound_row(r, key, share_text=share) for r in batch]
                    refused += sum(1 for row in rows if refusal(row) is not None)
                    stored += insert_rows(conn, rows)
                    sent += len(batch)
                    files.add_pushed(h, (r["id"] for r in batch))  # acknowledged: committed above
                    del rows, batch
        except TeamError as exc:
            left = queue_size(h)
            why = exc.message or str(exc)
            files.add_pushed(h, (), files.attempt(_now(), False, Message("team.push_attempt_failed", sent=sent,
                                                                         queued=left, why=why)))
            raise type(exc)(Message("team.push_failed", why=why, sent=sent, total=sent + left)) from None
        msg = Message("team.pushed", sent=sent, stored=stored, already=sent - stored - refused)
        if refused:  # the database keeps them in `refused`, with this member's name, for the reviewer
            msg = Message("team.pushed_refused", pushed=msg, refused=refused)
        files.add_pushed(h, (), files.attempt(_now(), True, msg))
        return PushReport(sent, stored, 0, str(msg), msg)


def push_if_member(home: HomeArg = None, *, timeout_s: float = 3.0) -> PushReport | None:
    """For ``collect`` and ``learn``: push when this home is a member (None when not), with
    short timeouts; a failure raises TeamError (the records stay queued)."""
    h = Home.of(home)
    if files.read_membership(h) is None:
        return None
    return push(home=h, timeout_s=timeout_s, statement_ms=int(timeout_s * 4000))


def try_push(home: HomeArg = None, *, timeout_s: float = 3.0) -> PushReport | str | None:
    """For the detached sync: :func:`push_if_member`, with a failure as its English sentence
    (the records stay queued), never an exception."""
    try:
        return push_if_member(home, timeout_s=timeout_s)
    except (TeamError, TeamUnavailable) as exc:
        return str(exc)


def show(home: HomeArg = None) -> tuple[Mapping[str, Any] | None, OutboundRow | None]:
    """``(the last local record, exactly the row that would be sent for it)``."""
    h = Home.of(home)
    member = membership_or_raise(h)
    record = last_record(h)
    if record is None:
        return None, None
    return record, outbound_row(record, bytes.fromhex(member["pattern_key"]), share_text=member["share_text"])
