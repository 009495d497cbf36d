"""The pooled row is declared once, with the record's fields: the migrated table, a member's
grants, the row a push sends and its type all follow that declaration, and a released
migration never changes."""

from __future__ import annotations

import hashlib
import typing

import pytest

from artibot import shapes
from artibot.shapes import EXPERIENCE_FIELDS, PoolColumn, RecordField
from artibot.team import db
from artibot.team.outbound import OutboundRow
from artibot.team.schema import (COLUMNS, FILLED_BY_DATABASE, GRANTS, INSERTED, MIGRATIONS, POOL, SQL_TYPES,
                                 Migration, adding_columns, pool_columns)
from tests.team.conftest import create_roles, sql

RELEASED = {
    1: "4a6e46ad96db1c93",
    2: "df867f3338c1e544",
    3: "b8f8345b486428ee",
    4: "ee5871bff9710ae9",
    5: "ef91e07c3fcfb207",
    6: "6da3be345f6a1189",
}
"""The first 16 hex digits of each released migration's SQL's SHA-256: team databases ran that
text, so a fresh database must run the same (a new migration adds its line here)."""

PYTHON_TYPES: dict[str, object] = {"id": str, "text": str | None, "number": float | None, "count": int | None,
                                   "hash": str | None, "shared": str | None}


def test_released_migrations_keep_their_sql() -> None:
    got = {m.version: hashlib.sha256(m.sql.encode("utf-8")).hexdigest()[:16] for m in MIGRATIONS}
    assert got == RELEASED, ("a released migration's SQL changed (add a new migration instead), or a new "
                             "migration's hash is not in RELEASED yet")


def test_the_outbound_row_type_is_the_declared_row() -> None:
    hints = typing.get_type_hints(OutboundRow)
    assert tuple(hints) == COLUMNS
    assert hints == {column.name: PYTHON_TYPES[column.take] for _, column in POOL}


def test_each_pooled_column_is_named_once_and_no_free_text_leaves_in_clear() -> None:
    names = [column.name for _, column in POOL]
    assert len(names) == len(set(names)) and not set(names) & FILLED_BY_DATABASE.keys()
    assert INSERTED == (*names, "month")
    for field, column in POOL:
        if EXPERIENCE_FIELDS[field].free_text:  # user text: only its hash, or where the team opted in
            assert column.take in ("hash", "shared", "count", "number"), (field, column)
        assert not column.key or EXPERIENCE_FIELDS[field].check == "object", (field, column)
    assert all(f"{name}," in GRANTS or f"{name})" in GRANTS for name in INSERTED)


def disagreements(url: str) -> list[str]:
    """How the experiences table on ``url`` and what a member may insert there differ from the
    pooled row the record's fields declare now (read at the call: a test may change it)."""
    declared = {column.name: SQL_TYPES[column.take] for _, column in pool_columns(shapes.EXPERIENCE_FIELDS)}
    expected = {**declared, **FILLED_BY_DATABASE}
    insertable = {*declared, "month"}  # month: the push sends the database's reading of the record id
    table = {name: (sql_type, bool(granted)) for name, sql_type, granted in sql(
        url, "SELECT attname, format_type(atttypid, atttypmod), "
             "has_column_privilege('artibot_member', attrelid, attname::text, 'INSERT') FROM pg_attribute "
             "WHERE attrelid = 'artibot_team.experiences'::regclass AND attnum > 0 AND NOT attisdropped")}
    found = [f"{name}: declared ({expected[name]}), but no migration adds it"
             for name in sorted(expected.keys() - table.keys())]
    found += [f"{name}: in the table ({table[name][0]}), but declared nowhere"
              for name in sorted(table.keys() - expected.keys())]
    found += [f"{name}: declared {expected[name]}, the table has {table[name][0]}"
              for name in sorted(expected.keys() & table.keys()) if expected[name] != table[name][0]]
    found += [f"a member cannot insert {name}" for name in sorted(insertable & table.keys())
              if not table[name][1]]
    found += [f"a member may insert {name}, which no record field fills" for name in sorted(table)
              if table[name][1] and name not in insertable]
    return found


PROBE = RecordField(False, False, False, "a count a test declares pooled", "count", pool=(PoolColumn("probe", "count"),))
"""A field no record has, so that declaring it pooled never meets a column a real migration added."""


@pytest.fixture
def pooled(team_url: str) -> str:
    """A database migrated where the documented roles exist (the migrations grant a member's columns)."""
    create_roles(team_url)
    with db.connect(team_url) as conn:
        db.migrate(conn)
    return team_url


def test_a_migrated_database_has_the_declared_row_and_grants(pooled) -> None:
    assert disagreements(pooled) == []
    # a database whose roles came after `team init`: the documented GRANTS give the same columns
    sql(pooled, "REVOKE ALL ON artibot_team.experiences FROM artibot_member")
    assert disagreements(pooled) == [f"a member cannot insert {name}" for name in sorted(INSERTED)]
    sql(pooled, GRANTS)
    assert disagreements(pooled) == []


def test_a_field_declared_without_its_migration_is_named(pooled, monkeypatch) -> None:
    monkeypatch.setitem(shapes.EXPERIENCE_FIELDS, "probe", PROBE)
    assert disagreements(pooled) == ["probe: declared (bigint), but no migration adds it"]


def test_a_declaration_the_table_does_not_match_is_named(pooled, monkeypatch) -> None:
    monkeypatch.setitem(shapes.EXPERIENCE_FIELDS, "complexity",
                        EXPERIENCE_FIELDS["complexity"]._replace(pool=(PoolColumn("complexity", "count"),)))
    monkeypatch.setitem(shapes.EXPERIENCE_FIELDS, "pattern", EXPERIENCE_FIELDS["pattern"]._replace(pool=()))
    assert disagreements(pooled) == ["pattern_hash: in the table (text), but declared nowhere",
                                     "complexity: declared bigint, the table has double precision",
                                     "a member may insert pattern_hash, which no record field fills"]


def test_a_new_pooled_field_and_its_migration_agree(pooled, monkeypatch) -> None:
    sql(pooled, "SELECT artibot_team.ensure_months(ARRAY[DATE '1970-01-01'])")  # a month's partition made before
    monkeypatch.setitem(shapes.EXPERIENCE_FIELDS, "probe", PROBE)
    added = Migration(MIGRATIONS[-1].version + 1, "a probe pooled", adding_columns(("probe", "bigint")))
    monkeypatch.setattr(db, "MIGRATIONS", MIGRATIONS + (added,))
    with db.connect(pooled) as conn:
        assert db.migrate(conn) == [added.version]
    assert disagreements(pooled) == []
    sql(pooled, "INSERT INTO artibot_team.experiences (record_id, probe, month) VALUES ('r1', 3, '1970-01-01')")
    assert sql(pooled, "SELECT tableoid::regclass::text, probe FROM artibot_team.experiences") == [
        ("artibot_team.experiences_1970_01", 3)]
