"""Connecting to the team's PostgreSQL, and creating or upgrading its schema.

Credentials never come from an artibot file: a URL with a password is refused, and libpq
finds the password where it always does (``PGPASSWORD``, ``~/.pgpass``, a service in
``pg_service.conf``: ``postgresql:///?service=team``). TLS is what the URL asks
(``?sslmode=verify-full&sslrootcert=...``): libpq applies it, artibot does not weaken it.

Every connection has a connect timeout and a statement timeout, so a database that is
down, slow or refusing costs a bounded wait and one sentence, never a hang or a traceback.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterator

from artibot.errors import InvalidInput, TeamError, TeamUnavailable
from artibot.messages import Message

try:
    import psycopg
    from psycopg import conninfo
except ImportError:  # pragma: no cover - the `team` extra is not installed
    raise TeamError(Message("team.no_psycopg")) from None
from artibot.team.schema import INIT_LOCK, MIGRATIONS, SCHEMA

CONNECT_TIMEOUT_S = 5
INIT_WAIT_S = 10
"""How long ``team init`` waits for another session holding the schema's lock."""
STATEMENT_TIMEOUT_MS = 30_000


def check_url(url: str) -> str:
    """``url`` when it names a database without a password; else InvalidInput saying why."""
    try:
        params = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise InvalidInput(Message("team.url_unparsed", url=repr(url), why=str(exc))) from None
    if params.get("password"):
        raise InvalidInput(Message("team.url_password"))
    return url


def place(url: str) -> Message:
    """The database a URL names, for messages (no secrets: a URL with one is refused)."""
    p = conninfo.conninfo_to_dict(url)
    host = p.get("host") or os.environ.get("PGHOST") or Message("team.local_socket")
    database = p.get("dbname") or p.get("service") or Message("team.default_database")
    return Message("team.where", database=database, host=host)


def where(url: str) -> str:
    """:func:`place` in English ("<database> on <host>")."""
    return str(place(url))


@contextmanager
def connect(url: str, *, timeout_s: float = CONNECT_TIMEOUT_S,
            statement_ms: int = STATEMENT_TIMEOUT_MS) -> Iterator[psycopg.Connection[Any]]:
    """A connection, closed at the end of the block; every database error becomes a TeamError.

    In autocommit mode: each statement is its own transaction unless it is inside
    ``conn.transaction()``, so no statement is ever left waiting in an open transaction."""
    check_url(url)
    try:
        conn = psycopg.connect(url, connect_timeout=max(1, int(timeout_s)),
                               options=f"-c statement_timeout={int(statement_ms)}",
                               application_name="artibot", autocommit=True)
    except psycopg.OperationalError as exc:
        raise TeamUnavailable(Message("team.unreachable", where=place(url), why=_first_line(exc))) from None
    try:
        with conn:
            yield conn
    except psycopg.errors.QueryCanceled:
        raise TeamUnavailable(Message("team.no_answer", where=place(url), seconds=statement_ms / 1000)) from None
    except psycopg.errors.InsufficientPrivilege as exc:
        raise TeamError(Message("team.refused", why=_first_line(exc))) from None
    except psycopg.OperationalError as exc:
        raise TeamUnavailable(Message("team.went_away", where=place(url), why=_first_line(exc))) from None
    except psycopg.Error as exc:
        raise TeamError(Message("team.db_said", why=_first_line(exc))) from None
    finally:
        conn.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def schema_version(conn: psycopg.Connection[Any]) -> int:
    """The highest migration applied, 0 for a database without the schema."""
    row = conn.execute("SELECT to_regclass(%s)", (f"{SCHEMA}.migrations",)).fetchone()
    if row is None or row[0] is None:
        return 0
    got = conn.execute(f"SELECT coalesce(max(version), 0) FROM {SCHEMA}.migrations").fetchone()
    return int(str(got[0])) if got else 0


def migrate(conn: psycopg.Connection[Any]) -> list[int]:
    """Apply the missing migrations; returns the versions applied (none: already current)."""
    applied: list[int] = []
    try:
        with conn.transaction():
            # bounded: any role can take an advisory lock, so a session holding this one costs a wait, not a hang
            conn.execute(f"SET LOCAL lock_timeout = {INIT_WAIT_S * 1000}")
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (INIT_LOCK,))
            conn.execute("SET LOCAL lock_timeout = 0")
            _apply(conn, applied)
    except psycopg.errors.LockNotAvailable:
        raise TeamError(Message("team.schema_lock_busy", seconds=INIT_WAIT_S)) from None
    return applied


def _apply(conn: psycopg.Connection[Any], applied: list[int]) -> None:
    """The missing migrations, in the caller's transaction under the schema's lock."""
    conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
    conn.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA}.migrations (version int PRIMARY KEY, "
                 "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
    current = schema_version(conn)
    newest = max(m.version for m in MIGRATIONS)
    if current > newest:
        raise TeamError(Message("team.schema_newer", current=current, newest=newest))
    for m in MIGRATIONS:
        if m.version > current:
            conn.execute(m.sql)  # our own constant text, no parameters
            conn.execute(f"INSERT INTO {SCHEMA}.migrations (version, name) VALUES (%s, %s)",
                         (m.version, m.name))
            applied.append(m.version)
    conn.execute(f"INSERT INTO {SCHEMA}.settings (key, value) VALUES ('pattern_key', %s), "
                 "('share_text', 'false') ON CONFLICT DO NOTHING", (os.urandom(32).hex(),))


def require_schema(conn: psycopg.Connection[Any], url: str) -> None:
    version = schema_version(conn)
    newest = max(m.version for m in MIGRATIONS)
    if version == 0:
        raise TeamError(Message("team.no_schema", where=place(url)))
    if version != newest:
        then = Message("team.schema_run_init" if version < newest else "team.schema_upgrade_artibot")
        raise TeamError(Message("team.schema_other", version=version, newest=newest, then=then))


def team_settings(conn: psycopg.Connection[Any]) -> dict[str, str]:
    return {str(k): str(v) for k, v in conn.execute(f"SELECT key, value FROM {SCHEMA}.settings").fetchall()}
