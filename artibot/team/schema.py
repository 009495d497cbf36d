"""The team database's schema, as numbered migrations, and the roles that use it.

Everything lives in one schema, ``artibot_team``. Each migration runs once, in order, in
its own transaction, and is recorded in ``artibot_team.migrations``; ``artibot team
init`` applies the missing ones (under an advisory lock, so two inits never race).

The experiences table is loose on purpose (plain text and numbers, no CHECK
constraints): a member's rows are checked by the team round, which sets a bad row aside
with the member's id instead of letting one member's bad client break every push.
"""

from __future__ import annotations

import textwrap
from typing import Mapping, NamedTuple

from artibot.hookpath.inert import DOMAIN_ALPHABET, PATTERN_HASH_ALPHABET
from artibot.shapes import EXPERIENCE_FIELDS, PoolColumn, RecordField

SCHEMA = "artibot_team"
INIT_LOCK = 0x61727469_0001  # "arti" + 1: pg_advisory_xact_lock key of `team init`
# (0x61727469_0002 and _0003 were the push and round advisory locks of schemas 1-4: any role can take
# an advisory lock, so a member could hold one against the team; schema 5 needs neither)


SQL_TYPES: dict[str, str] = {"id": "text", "text": "text", "number": "double precision", "count": "bigint",
                             "hash": "text", "shared": "text"}
"""A pooled column's PostgreSQL type (as ``format_type`` spells it), by how it takes its field's value."""


def pool_columns(fields: Mapping[str, RecordField]) -> tuple[tuple[str, PoolColumn], ...]:
    """``(record field, column)`` for each column of the pooled row, in the record's order."""
    return tuple((name, column) for name, field in fields.items() for column in field.pool)


POOL = pool_columns(EXPERIENCE_FIELDS)
"""The pooled row, declared with the record's fields (:data:`artibot.shapes.EXPERIENCE_FIELDS`)."""
COLUMNS = tuple(column.name for _, column in POOL)
"""The columns a member's row fills: the push inserts them, a member is granted them."""
FILLED_BY_DATABASE = {"seq": "bigint", "member": "text", "received_at": "timestamp with time zone",
                      "month": "date", "xid": "xid8"}
"""The experiences table's other columns, which no record field fills: the push sends ``month``
as the database's own reading of the record id (so it is granted too); a member is never granted
the others (``member`` is its login role, ``xid`` its transaction)."""
INSERTED = COLUMNS + ("month",)
"""The columns a member may insert."""


class Migration(NamedTuple):
    version: int
    name: str
    sql: str
    """Run once per database, so it never changes once released (tests/team/test_schema.py pins
    it): a pooled column is added by a new migration (:func:`adding_columns`), never by
    editing an old one."""


def adding_columns(*columns: tuple[str, str]) -> str:
    """A migration's SQL adding pooled columns ``(name, SQL type)``, insertable by a member
    where the documented roles exist (:data:`GRANTS` grants them on a new database). The
    names and types are written in the migration itself, so that what it does never follows
    a later change of the declaration."""
    added = "".join(f"ALTER TABLE {SCHEMA}.experiences ADD COLUMN {name} {sql_type};\n" for name, sql_type in columns)
    names = ", ".join(name for name, _ in columns)
    return added + f"""DO $$ BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'artibot_member') THEN
        GRANT INSERT ({names}) ON {SCHEMA}.experiences TO artibot_member;
    END IF;
END $$;
"""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "pooled experiences, published states, rounds, answers", f"""
CREATE TABLE {SCHEMA}.settings (
    key text PRIMARY KEY,
    value text NOT NULL
);
CREATE TABLE {SCHEMA}.experiences (
    record_id text PRIMARY KEY,
    seq bigserial NOT NULL,
    member text NOT NULL DEFAULT current_user,
    received_at timestamptz NOT NULL DEFAULT now(),
    member_ts text,
    domain text,
    complexity double precision,
    routed_to text,
    outcome text,
    propensity double precision,
    latency_ms double precision,
    input_tokens bigint,
    output_tokens bigint,
    cost_usd double precision,
    pattern_hash text,
    text text
);
CREATE INDEX experiences_seq ON {SCHEMA}.experiences (seq);
CREATE TABLE {SCHEMA}.rounds (
    round_id text PRIMARY KEY,
    reviewer text NOT NULL DEFAULT current_user,
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    status text NOT NULL,
    seq_from bigint NOT NULL,
    seq_to bigint NOT NULL,
    proposal jsonb,
    log jsonb NOT NULL DEFAULT '{{}}'::jsonb
);
CREATE TABLE {SCHEMA}.states (
    version bigserial PRIMARY KEY,
    round_id text NOT NULL,
    published_at timestamptz NOT NULL DEFAULT now(),
    published_by text NOT NULL DEFAULT current_user,
    status text NOT NULL DEFAULT 'published',
    state jsonb NOT NULL
);
CREATE TABLE {SCHEMA}.answers (
    round_id text NOT NULL REFERENCES {SCHEMA}.rounds (round_id),
    checkpoint int NOT NULL,
    answer jsonb NOT NULL,
    channel text NOT NULL,
    answered_by text NOT NULL DEFAULT current_user,
    answered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (round_id, checkpoint)
);
CREATE TABLE {SCHEMA}.set_aside (
    round_id text NOT NULL,
    record_id text NOT NULL,
    member text NOT NULL,
    reason text NOT NULL,
    PRIMARY KEY (round_id, record_id)
);
"""),
)

PARTITION_LOCK = 0x61727469_0004  # held while a month's partition is made (pg_advisory_xact_lock)
OLDEST_MONTH = "1970-01-01"
"""Records whose id carries no time (not artibot's ``exp_<ms in hex>…`` form) fall in this month."""

MIGRATIONS += (
    Migration(2, "experiences partitioned by month (of the record id's time)", f"""
-- The month a record belongs to, from its id alone ("exp_" + milliseconds since 1970 in 12 hex digits):
-- a retry of the same record always lands in the same month, so (record_id, month) keeps a push idempotent.
CREATE FUNCTION {SCHEMA}.id_month(id text) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN id ~ '^exp_[0-9a-f]{{12}}'
        THEN (date_trunc('month', to_timestamp(('x' || lpad(substr(id, 5, 12), 16, '0'))::bit(64)::bigint / 1000.0)
              AT TIME ZONE 'UTC'))::date
        ELSE DATE '{OLDEST_MONTH}' END
$$;
-- A month's partition, made when a push or a round needs it (a member may call this, not create tables):
-- months from 1970 to next month; anything else stays in the default partition, whose rows of a month
-- move into that month's partition when it is made.
CREATE FUNCTION {SCHEMA}.ensure_months(months date[]) RETURNS int LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    m date;
    part text;
    made int := 0;
    waited text := current_setting('lock_timeout');
BEGIN
    FOREACH m IN ARRAY coalesce(months, '{{}}'::date[]) LOOP
        m := date_trunc('month', m)::date;
        CONTINUE WHEN m IS NULL OR m < DATE '{OLDEST_MONTH}'
            OR m > (date_trunc('month', now()) + interval '1 month')::date;
        part := 'experiences_' || to_char(m, 'YYYY_MM');
        CONTINUE WHEN to_regclass('{SCHEMA}.' || part) IS NOT NULL;
        PERFORM pg_advisory_xact_lock({PARTITION_LOCK});
        CONTINUE WHEN to_regclass('{SCHEMA}.' || part) IS NOT NULL;
        BEGIN
            -- making a partition locks the whole table: wait a second at most, else the rows go to the
            -- default partition and a later push or round makes it
            PERFORM set_config('lock_timeout', '1s', true);
            CREATE TEMP TABLE artibot_moved ON COMMIT DROP AS
                SELECT * FROM {SCHEMA}.experiences_default WHERE month = m;
            DELETE FROM {SCHEMA}.experiences_default WHERE month = m;
            EXECUTE format('CREATE TABLE {SCHEMA}.%I PARTITION OF {SCHEMA}.experiences FOR VALUES FROM (%L) TO (%L)',
                           part, m, (m + interval '1 month')::date);
            INSERT INTO {SCHEMA}.experiences SELECT * FROM artibot_moved;
            DROP TABLE artibot_moved;
            made := made + 1;
        EXCEPTION
            WHEN duplicate_table THEN NULL;  -- made meanwhile by another session: nothing to do
            WHEN lock_not_available THEN NULL;  -- the table is busy: the default partition holds the rows
        END;
        PERFORM set_config('lock_timeout', waited, true);
    END LOOP;
    RETURN made;
END
$$;
REVOKE ALL ON FUNCTION {SCHEMA}.ensure_months(date[]) FROM PUBLIC;
ALTER TABLE {SCHEMA}.experiences RENAME TO experiences_unpartitioned;
ALTER TABLE {SCHEMA}.experiences_unpartitioned RENAME CONSTRAINT experiences_pkey TO experiences_unpartitioned_pkey;
ALTER INDEX {SCHEMA}.experiences_seq RENAME TO experiences_unpartitioned_seq;
CREATE TABLE {SCHEMA}.experiences (
    record_id text NOT NULL,
    seq bigint NOT NULL DEFAULT nextval('{SCHEMA}.experiences_seq_seq'),
    member text NOT NULL DEFAULT current_user,
    received_at timestamptz NOT NULL DEFAULT now(),
    member_ts text,
    domain text,
    complexity double precision,
    routed_to text,
    outcome text,
    propensity double precision,
    latency_ms double precision,
    input_tokens bigint,
    output_tokens bigint,
    cost_usd double precision,
    pattern_hash text,
    text text,
    month date NOT NULL,
    PRIMARY KEY (record_id, month)
) PARTITION BY RANGE (month);
CREATE TABLE {SCHEMA}.experiences_default PARTITION OF {SCHEMA}.experiences DEFAULT;
CREATE INDEX experiences_seq ON {SCHEMA}.experiences (seq);
ALTER SEQUENCE {SCHEMA}.experiences_seq_seq OWNED BY {SCHEMA}.experiences.seq;
SELECT {SCHEMA}.ensure_months(array(SELECT DISTINCT {SCHEMA}.id_month(record_id)
                                    FROM {SCHEMA}.experiences_unpartitioned));
INSERT INTO {SCHEMA}.experiences SELECT *, {SCHEMA}.id_month(record_id) FROM {SCHEMA}.experiences_unpartitioned;
DROP TABLE {SCHEMA}.experiences_unpartitioned;
-- the grants of the table it replaces, where the documented roles exist
DO $$ BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'artibot_member') THEN
        GRANT INSERT (record_id, member_ts, domain, complexity, routed_to, outcome, propensity, latency_ms,
                      input_tokens, output_tokens, cost_usd, pattern_hash, text, month)
            ON {SCHEMA}.experiences TO artibot_member;
        GRANT EXECUTE ON FUNCTION {SCHEMA}.ensure_months(date[]) TO artibot_member;
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'artibot_reviewer') THEN
        GRANT SELECT ON {SCHEMA}.experiences TO artibot_reviewer;
    END IF;
END $$;
"""),
)

CREATE_ROLES = """-- once per server (roles belong to the whole server); then one LOGIN role per person
CREATE ROLE artibot_member NOLOGIN;
CREATE ROLE artibot_reviewer NOLOGIN;
GRANT artibot_member TO artibot_reviewer;
"""
GRANTS = f"""-- once per team database, as its owner, after `artibot team init`
GRANT USAGE ON SCHEMA {SCHEMA} TO artibot_member;
-- a member inserts experiences (never the member column: it is the login role, always)
{textwrap.fill(", ".join(INSERTED), 104, initial_indent="GRANT INSERT (", subsequent_indent=" " * 14)})
    ON {SCHEMA}.experiences TO artibot_member;
GRANT USAGE ON SEQUENCE {SCHEMA}.experiences_seq_seq TO artibot_member;
-- and makes a month's partition when its push needs one (a function that only does that)
GRANT EXECUTE ON FUNCTION {SCHEMA}.ensure_months(date[]) TO artibot_member;
-- and reads the published states, the team's settings and the schema version
GRANT SELECT ON {SCHEMA}.states, {SCHEMA}.settings, {SCHEMA}.migrations TO artibot_member;
-- only a reviewer reads the pool and writes rounds, answers, set-aside rows and states
GRANT SELECT ON {SCHEMA}.experiences TO artibot_reviewer;
GRANT SELECT, INSERT, UPDATE ON {SCHEMA}.rounds, {SCHEMA}.answers, {SCHEMA}.set_aside, {SCHEMA}.states
    TO artibot_reviewer;
-- and the rows the database refused (a name outside the alphabet), with their member
GRANT SELECT ON {SCHEMA}.refused TO artibot_reviewer;
-- and take the round's lock (a row only the reviewer role may lock) and say who holds it
GRANT SELECT, UPDATE ON {SCHEMA}.round_lock, {SCHEMA}.round_holder TO artibot_reviewer;
GRANT USAGE ON SEQUENCE {SCHEMA}.states_version_seq TO artibot_reviewer;
"""
PEOPLE = """-- people (a password, if any, goes to their ~/.pgpass, never to an artibot file):
-- CREATE ROLE alice LOGIN IN ROLE artibot_member;
-- CREATE ROLE bob LOGIN IN ROLE artibot_reviewer;
"""
ROLES_SQL = CREATE_ROLES + GRANTS + PEOPLE

MAX_TEXT = 20_000
"""Characters of a shared request text the pool takes (a record's input is cut shorter locally)."""
RECORD_ID_ALPHABET = "[A-Za-z0-9][A-Za-z0-9._:+-]{0,199}"
"""A record id the pool takes (artibot's own ``exp_…`` ids, and any a caller gave in this alphabet)."""

MIGRATIONS += (
    Migration(3, "names in an alphabet: a row outside it refused by the database, with its member", f"""
-- A member's row carries names that reach every other member (a domain goes into the published
-- thresholds, and from there into each member's status and agent context): the database takes only
-- names in the alphabet, whoever inserts the row and however (artibot or a member's own SQL).
-- Other bad values (a complexity out of range, an unknown outcome) are still set aside by the round.
CREATE TABLE {SCHEMA}.refused (
    record_id text,
    member text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    reason text NOT NULL,
    row jsonb NOT NULL
);
CREATE INDEX refused_member ON {SCHEMA}.refused (member, received_at);
CREATE FUNCTION {SCHEMA}.refusal(record_id text, domain text, pattern_hash text, member_ts text, routed_to text,
                                 outcome text, text text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN record_id IS NULL OR record_id !~ '^{RECORD_ID_ALPHABET}$'
            THEN 'record_id must match {RECORD_ID_ALPHABET}'
        WHEN domain IS NOT NULL AND domain !~ '^{DOMAIN_ALPHABET}$' THEN 'domain must match {DOMAIN_ALPHABET}'
        WHEN pattern_hash IS NOT NULL AND pattern_hash !~ '^{PATTERN_HASH_ALPHABET}$'
            THEN 'pattern_hash must be 32 lower-case hex digits'
        WHEN length(member_ts) > 64 OR length(routed_to) > 32 OR length(outcome) > 32
            THEN 'member_ts, routed_to and outcome must be short values'
        WHEN length(text) > {MAX_TEXT} THEN 'text must be at most {MAX_TEXT} characters'
    END
$$;
CREATE FUNCTION {SCHEMA}.admit() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    why text := {SCHEMA}.refusal(NEW.record_id, NEW.domain, NEW.pattern_hash, NEW.member_ts, NEW.routed_to,
                                 NEW.outcome, NEW.text);
BEGIN
    IF why IS NOT NULL THEN
        INSERT INTO {SCHEMA}.refused (record_id, member, reason, row)
            VALUES (left(NEW.record_id, 200), NEW.member, why, to_jsonb(NEW) - 'text');
        RETURN NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER a_admit BEFORE INSERT ON {SCHEMA}.experiences FOR EACH ROW EXECUTE FUNCTION {SCHEMA}.admit();
-- the rows already there that are outside the alphabet move to refused
WITH bad AS (
    DELETE FROM {SCHEMA}.experiences e
    WHERE {SCHEMA}.refusal(e.record_id, e.domain, e.pattern_hash, e.member_ts, e.routed_to, e.outcome, e.text)
        IS NOT NULL
    RETURNING e.*)
INSERT INTO {SCHEMA}.refused (record_id, member, reason, row)
SELECT left(b.record_id, 200), b.member,
       {SCHEMA}.refusal(b.record_id, b.domain, b.pattern_hash, b.member_ts, b.routed_to, b.outcome, b.text),
       to_jsonb(b) - 'text'
FROM bad b;
DO $$ BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'artibot_reviewer') THEN
        GRANT SELECT ON {SCHEMA}.refused TO artibot_reviewer;
    END IF;
END $$;
"""),
)

MIGRATIONS += (
    Migration(4, "one row per record id across every month's partition", f"""
-- PostgreSQL has no UNIQUE across the partitions of a table without the partition key; but the
-- partition key is a function of the record id alone (id_month), so the database holds every row
-- to it: with month = id_month(record_id) checked, the primary key (record_id, month) is unique by
-- record id across all months, whoever inserts and whatever month a row says. A push sends exactly
-- that month (ON CONFLICT DO NOTHING: a retry stores nothing, silently); a row saying another month
-- is refused with an error. Rows stored under another month before: moved to refused.
WITH off AS (
    DELETE FROM {SCHEMA}.experiences e WHERE e.month <> {SCHEMA}.id_month(e.record_id) RETURNING e.*)
INSERT INTO {SCHEMA}.refused (record_id, member, reason, row)
SELECT o.record_id, o.member, 'month is not the record id''s month', to_jsonb(o) - 'text' FROM off o;
ALTER TABLE {SCHEMA}.experiences ADD CONSTRAINT month_of_id CHECK (month = {SCHEMA}.id_month(record_id));
-- a month's partition is made under a lock only tried, so no session holding it (any role can take
-- an advisory lock) makes a push wait: its rows stay in the default partition until a later push or
-- round makes the partition
CREATE OR REPLACE FUNCTION {SCHEMA}.ensure_months(months date[]) RETURNS int LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    m date;
    part text;
    made int := 0;
    waited text := current_setting('lock_timeout');
BEGIN
    FOREACH m IN ARRAY coalesce(months, '{{}}'::date[]) LOOP
        m := date_trunc('month', m)::date;
        CONTINUE WHEN m IS NULL OR m < DATE '{OLDEST_MONTH}'
            OR m > (date_trunc('month', now()) + interval '1 month')::date;
        part := 'experiences_' || to_char(m, 'YYYY_MM');
        CONTINUE WHEN to_regclass('{SCHEMA}.' || part) IS NOT NULL;
        CONTINUE WHEN NOT pg_try_advisory_xact_lock({PARTITION_LOCK});  -- being made: the default holds the rows
        CONTINUE WHEN to_regclass('{SCHEMA}.' || part) IS NOT NULL;
        BEGIN
            PERFORM set_config('lock_timeout', '1s', true);
            CREATE TEMP TABLE artibot_moved ON COMMIT DROP AS
                SELECT * FROM {SCHEMA}.experiences_default WHERE month = m;
            DELETE FROM {SCHEMA}.experiences_default WHERE month = m;
            EXECUTE format('CREATE TABLE {SCHEMA}.%I PARTITION OF {SCHEMA}.experiences FOR VALUES FROM (%L) TO (%L)',
                           part, m, (m + interval '1 month')::date);
            INSERT INTO {SCHEMA}.experiences SELECT * FROM artibot_moved;
            DROP TABLE artibot_moved;
            made := made + 1;
        EXCEPTION
            WHEN duplicate_table THEN NULL;
            WHEN lock_not_available THEN NULL;
            -- a push that did not wait for the lock committed a row of this month to the default
            -- partition meanwhile: all of it stays there, and a later push or round moves it
            WHEN check_violation THEN NULL;
        END;
        PERFORM set_config('lock_timeout', waited, true);
    END LOOP;
    RETURN made;
END
$$;
"""),
)

MIGRATIONS += (
    Migration(5, "no lock a member can hold: rounds cut by snapshot, the round lock a reviewer-only row", f"""
-- The transaction that inserted each row (a member cannot set it: the column is not granted). A round
-- cuts its window by snapshot: the rows committed before its snapshot and after the previous round's;
-- a push still in flight is simply in the next window, so pushes take no lock and a member holding a
-- transaction open delays nobody.
ALTER TABLE {SCHEMA}.experiences ADD COLUMN xid xid8 NOT NULL DEFAULT '1';
ALTER TABLE {SCHEMA}.experiences ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
CREATE INDEX experiences_xid ON {SCHEMA}.experiences (xid);
ALTER TABLE {SCHEMA}.rounds ADD COLUMN snapshot text;
-- One reviewer at a time: the round holds this row locked (FOR UPDATE, in a transaction of its own
-- for the whole round), which needs UPDATE on the table: only the reviewer role has it. Who holds
-- it, and since when, is written to round_holder, which the next reviewer reads when refused.
CREATE TABLE {SCHEMA}.round_lock (id int PRIMARY KEY CHECK (id = 1));
INSERT INTO {SCHEMA}.round_lock VALUES (1);
CREATE TABLE {SCHEMA}.round_holder (
    id int PRIMARY KEY CHECK (id = 1),
    holder text,
    since timestamptz,
    what text
);
INSERT INTO {SCHEMA}.round_holder (id) VALUES (1);
DO $$ BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'artibot_reviewer') THEN
        GRANT SELECT, UPDATE ON {SCHEMA}.round_lock, {SCHEMA}.round_holder TO artibot_reviewer;
    END IF;
END $$;
"""),
)

MIGRATIONS += (
    Migration(6, "a month's rows move into its new partition in one statement", f"""
-- Moving a month's rows out of the default partition by a copy and then a delete lost the rows a push
-- committed between the two statements (each sees the rows committed before it): the delete now
-- returns the rows it moves, so it moves exactly what it deletes, and a row committed after it stays
-- in the default partition, where making the partition fails (check_violation) and the rows stay.
CREATE OR REPLACE FUNCTION {SCHEMA}.ensure_months(months date[]) RETURNS int LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    m date;
    part text;
    made int := 0;
    waited text := current_setting('lock_timeout');
BEGIN
    FOREACH m IN ARRAY coalesce(months, '{{}}'::date[]) LOOP
        m := date_trunc('month', m)::date;
        CONTINUE WHEN m IS NULL OR m < DATE '{OLDEST_MONTH}'
            OR m > (date_trunc('month', now()) + interval '1 month')::date;
        part := 'experiences_' || to_char(m, 'YYYY_MM');
        CONTINUE WHEN to_regclass('{SCHEMA}.' || part) IS NOT NULL;
        CONTINUE WHEN NOT pg_try_advisory_xact_lock({PARTITION_LOCK});  -- being made: the default holds the rows
        CONTINUE WHEN to_regclass('{SCHEMA}.' || part) IS NOT NULL;
        BEGIN
            PERFORM set_config('lock_timeout', '1s', true);
            CREATE TEMP TABLE artibot_moved ON COMMIT DROP AS SELECT * FROM {SCHEMA}.experiences_default WITH NO DATA;
            WITH gone AS (DELETE FROM {SCHEMA}.experiences_default WHERE month = m RETURNING *)
            INSERT INTO artibot_moved SELECT * FROM gone;
            EXECUTE format('CREATE TABLE {SCHEMA}.%I PARTITION OF {SCHEMA}.experiences FOR VALUES FROM (%L) TO (%L)',
                           part, m, (m + interval '1 month')::date);
            INSERT INTO {SCHEMA}.experiences SELECT * FROM artibot_moved;
            DROP TABLE artibot_moved;
            made := made + 1;
        EXCEPTION
            WHEN duplicate_table THEN NULL;
            WHEN lock_not_available THEN NULL;
            -- a push committed a row of this month to the default partition after the move: all of it
            -- stays there, and a later push or round moves it
            WHEN check_violation THEN NULL;
        END;
        PERFORM set_config('lock_timeout', waited, true);
    END LOOP;
    RETURN made;
END
$$;
"""),
)
