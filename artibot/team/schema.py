"""The team database's schema, as numbered migrations, and the roles that use it.

Everything lives in one schema, ``artibot_team``. Each migration runs once, in order, in
its own transaction, and is recorded in ``artibot_team.migrations``; ``artibot team
init`` applies the missing ones (under an advisory lock, so two inits never race).

The experiences table is loose on purpose (plain text and numbers, no CHECK
constraints): a member's rows are checked by the team round, which sets a bad row aside
with the member's id instead of letting one member's bad client break every push.
"""

from __future__ import annotations

from typing import NamedTuple

SCHEMA = "artibot_team"
INIT_LOCK = 0x61727469_0001  # "arti" + 1: pg_advisory_xact_lock key of `team init`
PUSH_LOCK = 0x61727469_0002  # pushers hold it shared, a round's cut-off takes it exclusive
ROUND_LOCK = 0x61727469_0003  # held by the one reviewer running a round (or a rollback)


class Migration(NamedTuple):
    version: int
    name: str
    sql: str


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

CREATE_ROLES = """-- once per server (roles belong to the whole server); then one LOGIN role per person
CREATE ROLE artibot_member NOLOGIN;
CREATE ROLE artibot_reviewer NOLOGIN;
GRANT artibot_member TO artibot_reviewer;
"""
GRANTS = f"""-- once per team database, as its owner, after `artibot team init`
GRANT USAGE ON SCHEMA {SCHEMA} TO artibot_member;
-- a member inserts experiences (never the member column: it is the login role, always)
GRANT INSERT (record_id, member_ts, domain, complexity, routed_to, outcome, propensity, latency_ms,
              input_tokens, output_tokens, cost_usd, pattern_hash, text)
    ON {SCHEMA}.experiences TO artibot_member;
GRANT USAGE ON SEQUENCE {SCHEMA}.experiences_seq_seq TO artibot_member;
-- and reads the published states, the team's settings and the schema version
GRANT SELECT ON {SCHEMA}.states, {SCHEMA}.settings, {SCHEMA}.migrations TO artibot_member;
-- only a reviewer reads the pool and writes rounds, answers, set-aside rows and states
GRANT SELECT ON {SCHEMA}.experiences TO artibot_reviewer;
GRANT SELECT, INSERT, UPDATE ON {SCHEMA}.rounds, {SCHEMA}.answers, {SCHEMA}.set_aside, {SCHEMA}.states
    TO artibot_reviewer;
GRANT USAGE ON SEQUENCE {SCHEMA}.states_version_seq TO artibot_reviewer;
"""
PEOPLE = """-- people (a password, if any, goes to their ~/.pgpass, never to an artibot file):
-- CREATE ROLE alice LOGIN IN ROLE artibot_member;
-- CREATE ROLE bob LOGIN IN ROLE artibot_reviewer;
"""
ROLES_SQL = CREATE_ROLES + GRANTS + PEOPLE
