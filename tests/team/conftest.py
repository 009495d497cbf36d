"""One real PostgreSQL server for the whole test session; a fresh database per test."""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from tests.team.pgserver import Server, find_bin

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[team]')")
_names = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    bin_dir = find_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH; "
                    ".ci/run installs the distribution's postgresql package")
    root = Path(tempfile.mkdtemp(prefix="artibot-pg-"))
    server = Server(root, bin_dir).start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def team_url(pg_server: Server) -> str:
    """A new, empty database on the session's server."""
    name = f"team_{next(_names)}"
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg_server.url(name)


@pytest.fixture
def team(team_url: str) -> str:
    """A new database with the team's schema."""
    from artibot.team import db

    with db.connect(team_url) as conn:
        db.migrate(conn)
    return team_url


def sql(url: str, query: str, *args: object) -> list[tuple]:
    """One statement as the server's superuser; its rows, if any."""
    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(query, args or None)  # type: ignore[arg-type]
        return cur.fetchall() if cur.description else []


def create_roles(url: str, **people: str) -> None:
    """The documented roles, and LOGIN roles ``name=group`` (roles are the server's: made once)."""
    from artibot.team.schema import CREATE_ROLES

    with psycopg.connect(url, autocommit=True) as conn:
        code = "\n".join(line for line in CREATE_ROLES.splitlines() if not line.startswith("--"))
        statements = [s for s in code.split(";") if s.strip()]
        statements += [f"CREATE ROLE {name} LOGIN IN ROLE artibot_{group}" for name, group in people.items()]
        for statement in statements:
            try:
                conn.execute(statement)
            except (psycopg.errors.DuplicateObject, psycopg.errors.InvalidGrantOperation):
                pass  # made by an earlier test on this server


def grant_roles(url: str, **people: str) -> None:
    """The documented roles on ``url``'s database, and LOGIN roles ``name=group`` (roles are the server's)."""
    from artibot.team.schema import GRANTS

    create_roles(url, **people)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(GRANTS)
