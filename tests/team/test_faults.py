"""The team's faults, each against the real server: down, slow, refusing; skewed clocks; duplicate
and out-of-order pushes; hostile rows; two reviewers at once; a state a member cannot parse."""

from __future__ import annotations

import threading

import psycopg
import pytest

from artibot.round.checkpoints import DefaultAnswers
from artibot.cli.app import run
from artibot.config import load_settings
from artibot.errors import TeamError, TeamUnavailable
from artibot.store import team_files
from artibot.store.learned.thresholds_file import read_thresholds
from artibot.team import db, member, push
from artibot.team import round as team_round
from tests.team.conftest import grant_roles, sql
from tests.team.helpers import member as make_member, records


def learn(url: str, home, flush: bool = False) -> team_round.TeamRoundReport:
    with db.connect(url) as conn, team_round.RoundLock(conn):
        report = team_round.prepare(conn, load_settings(home.root), flush=flush, dry_run=False)
        return team_round.decide(conn, report, DefaultAnswers()) if report.status == "proposed" else report


def test_a_database_that_is_down_keeps_the_queue_and_loses_nothing(team, tmp_path, monkeypatch) -> None:
    home = make_member(tmp_path, "m", records(80))
    member.join(team, home=home)
    real = team_files.read_membership(home)
    assert real is not None
    team_files.write_membership(home, {**real, "url": f"postgresql://postgres@/x?host={tmp_path}/nowhere"})
    with pytest.raises(TeamUnavailable, match="cannot be reached.*records stay queued"):
        push.push(home=home, timeout_s=1)
    assert isinstance(push.try_push(home, timeout_s=1), str)  # the learner's way: a sentence, no exception
    status = member.team_status(home)
    assert status is not None and status["queued"] == 80 and status["last_push"]["ok"] is False
    assert status["last_push"]["said"]["id"] == "team.push_attempt_failed"  # beside its English
    assert status["last_push"]["message"].startswith("0 sent, 80 queued: the team database (x on ")
    assert not status["queue_full"]
    monkeypatch.setattr(member, "QUEUE_FULL", 50)
    from artibot.cli.cmd_team import render_team

    lines = render_team(member.team_status(home) or {})
    assert "queued for push: 80 (queue full" in lines[1] and "failed" in lines[2] and "cannot be reached" in lines[2]
    from artibot.collector import collect_many

    collect_many(records(20, start=80), home=home)  # more arrive while it is down
    team_files.write_membership(home, real)
    report = push.push(home=home)
    assert (report.sent, report.stored, report.queued) == (100, 100, 0)
    assert sql(team, "SELECT count(*) FROM artibot_team.experiences") == [(100,)]


def test_a_slow_database_costs_a_bounded_wait_and_one_sentence(team, tmp_path) -> None:
    home = make_member(tmp_path, "m", records(10))
    member.join(team, home=home)
    with psycopg.connect(team) as blocker:  # the owner's maintenance holding the table (a member cannot)
        blocker.execute("LOCK TABLE artibot_team.experiences IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(TeamUnavailable, match="did not answer within 0.5 s"):
            push.push(home=home, statement_ms=500)
    assert member.team_status(home)["queued"] == 10
    assert push.push(home=home).stored == 10


def test_least_privilege_roles_a_member_pushes_and_reads_states_only(team, tmp_path, capsys) -> None:
    grant_roles(team, alice="member", bob="reviewer")
    alice_url = team.replace("postgres@", "alice@")
    bob_url = team.replace("postgres@", "bob@")
    alice = make_member(tmp_path, "alice", records(120, prefix="a"))
    member.join(alice_url, home=alice)
    assert push.push(home=alice).stored == 120
    assert sql(team, "SELECT DISTINCT member FROM artibot_team.experiences") == [("alice",)]  # not forgeable
    for query in ("SELECT count(*) FROM artibot_team.experiences",
                  "INSERT INTO artibot_team.states (round_id, state) VALUES ('r', '{}')",
                  "UPDATE artibot_team.experiences SET outcome = 'success'",
                  "INSERT INTO artibot_team.experiences (record_id, member) VALUES ('x', 'bob')"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            sql(alice_url, query)
    assert run(["--home", str(alice.root), "team", "learn", "--yes"]) == 1
    assert "refused: permission denied" in capsys.readouterr().err
    bob = make_member(tmp_path, "bob")
    member.join(bob_url, home=bob)
    assert learn(bob_url, bob).status == "applied"
    assert member.pull(home=alice).used  # a member reads the published state


def test_clock_skew_and_out_of_order_pushes_change_nothing(team, tmp_path) -> None:
    future = records(100, prefix="f")
    for r in future:
        r["timestamp"] = r["timestamp"].replace("2026", "2031")  # five years ahead
    late = make_member(tmp_path, "late", list(reversed(records(100, prefix="l"))))  # newest first
    ahead = make_member(tmp_path, "ahead", future)
    for home in (late, ahead):
        member.join(team, home=home)
    push.push(home=ahead)
    assert learn(team, ahead, flush=True).status == "applied"
    push.push(home=late)  # older timestamps, pushed after the round: the next round learns them
    second = learn(team, late, flush=True)
    assert second.status == "applied" and second.proposal.params.extra["pool"]["records"] == 100
    pulled = member.pull(home=late)
    cached = team_files.read_cached_state(late)
    assert pulled.used and cached is not None and 0 <= cached["age_s"] < 60  # the server's clock


def test_duplicate_pushes_store_once(team, tmp_path) -> None:
    recs = records(60)
    one, two = make_member(tmp_path, "one", recs), make_member(tmp_path, "two", recs)
    for home in (one, two):
        member.join(team, home=home)
    assert push.push(home=one).stored == 60
    assert push.push(home=two).stored == 0  # the same ids: already there
    team_files.add_pushed(one, ())  # a lost acknowledgement: forget what was pushed, push again
    (team_files.team_dir(one) / "pushed.json").unlink()
    again = push.push(home=one)
    assert (again.sent, again.stored) == (60, 0)
    assert sql(team, "SELECT count(*) FROM artibot_team.experiences") == [(60,)]


HOSTILE = [
    ("bad1", "backend", 5.0, "system1", "success", 0.9),
    ("bad2", "backend", float("nan"), "system1", "success", 0.9),
    ("bad3", "~cell:backend#01", 0.5, "system1", "success", 0.9),
    ("bad4", "backend", 0.5, "system3", "success", 0.9),
    ("bad5", "backend", 0.5, "system1", "maybe", 0.9),
    ("bad6", "backend", 0.5, "system1", "success", 0.0),
    ("bad7", "x" * 5000, 0.5, "system1", "success", 0.9),
    ("bad8", None, None, None, None, None),
    ("bad9", "backend", float("inf"), "system2", "failed", 1.0),
]


def test_hostile_rows_are_set_aside_with_the_member_and_the_round_goes_on(team, tmp_path) -> None:
    grant_roles(team, mallory="member")
    mallory = team.replace("postgres@", "mallory@")
    with psycopg.connect(mallory, autocommit=True) as conn:
        for row in HOSTILE:
            conn.execute("INSERT INTO artibot_team.experiences (record_id, domain, complexity, routed_to, outcome, "
                         "propensity, month) VALUES (%s, %s, %s, %s, %s, %s, artibot_team.id_month(%s))", (*row, row[0]))
        conn.execute("INSERT INTO artibot_team.experiences (record_id, domain, complexity, routed_to, outcome, month) "
                     "VALUES ('ok''); DROP TABLE artibot_team.states; --', 'backend', 0.5, 'system1', 'success', "
                     "'2026-01-01')")
    honest = make_member(tmp_path, "honest", records(100))
    member.join(team, home=honest)
    push.push(home=honest)
    report = learn(team, honest)
    assert report.status == "applied"
    # names outside the alphabet never enter the pool: the database refused them, with the member
    refused = dict(sql(team, "SELECT record_id, reason FROM artibot_team.refused WHERE member = 'mallory'"))
    assert set(refused) == {"bad3", "bad7", "ok'); DROP TABLE artibot_team.states; --"}
    assert refused["bad7"].startswith("domain must match") and refused["bad3"].startswith("domain must match")
    assert report.set_aside == {"mallory": len(HOSTILE) - 2}
    assert report.proposal is not None and report.proposal.params.extra["pool"]["records"] == 100
    reasons = dict(sql(team, "SELECT record_id, reason FROM artibot_team.set_aside WHERE member = 'mallory'"))
    assert reasons["bad1"].startswith("complexity") and reasons["bad4"].startswith("routed_to")
    assert reasons["bad6"].startswith("propensity") and reasons["bad8"].startswith("domain")


def test_two_reviewers_at_once_make_one_round_and_the_other_is_refused(team, tmp_path, capsys) -> None:
    home = make_member(tmp_path, "m", records(100))
    member.join(team, home=home)
    push.push(home=home)
    entered, release = threading.Event(), threading.Event()

    def first() -> None:
        with db.connect(team) as conn, team_round.RoundLock(conn):
            entered.set()
            release.wait(20)
            report = team_round.prepare(conn, load_settings(home.root), flush=False, dry_run=False)
            team_round.decide(conn, report, DefaultAnswers())

    thread = threading.Thread(target=first)
    thread.start()
    assert entered.wait(20)
    try:
        assert run(["--home", str(home.root), "team", "learn", "--yes"]) == 1
        assert "another reviewer is running a team round (postgres, since" in capsys.readouterr().err
        with pytest.raises(TeamError, match="another reviewer"):
            with db.connect(team) as conn, team_round.RoundLock(conn):
                pass
    finally:
        release.set()
        thread.join(30)
    assert sql(team, "SELECT count(*) FROM artibot_team.rounds WHERE status = 'applied'") == [(1,)]
    assert sql(team, "SELECT holder, since FROM artibot_team.round_holder") == [(None, None)]  # released


def test_a_published_state_the_member_cannot_parse_keeps_the_previous_one(team, tmp_path) -> None:
    home = make_member(tmp_path, "m", records(100))
    member.join(team, home=home)
    push.push(home=home)
    learn(team, home)
    assert member.pull(home=home).used
    before, thresholds = team_files.read_cached_state(home), read_thresholds(home)
    for bad in ('{"schema": 1, "thresholds": {"default": 7, "domains": {}}, "cells": {}, "seq_to": 1, "records": 1}',
                '{"schema": 2}', '"just text"',
                '{"schema": 1, "thresholds": {"default": 0.4, "domains": {}}, "cells": {"a": [[1, 5, 0, 0]]}, '
                '"seq_to": 1, "records": 1}'):
        sql(team, "INSERT INTO artibot_team.states (round_id, state) VALUES ('rbad', %s::jsonb)", bad)
        result = member.pull(home=home)
        assert not result.used and "keeps its previous state" in result.message
        assert team_files.read_cached_state(home) == before and read_thresholds(home) == thresholds
    with pytest.raises(TeamError, match="cannot be read.*rollback"):
        learn(team, home)  # a reviewer cannot build on it either, and is told how to withdraw it


def test_tls_is_what_the_url_asks(team, tmp_path, pg_server) -> None:
    """The test server has no TLS: a URL that requires it is refused by libpq, never quietly downgraded."""
    home = make_member(tmp_path, "m")
    tcp = pg_server.tcp_url(team.split("/")[3].split("?")[0])
    with pytest.raises(TeamUnavailable, match="SSL"):
        member.join(tcp + "?sslmode=require", home=home)
    assert team_files.read_membership(home) is None
    member.join(tcp + "?sslmode=prefer", home=home)  # prefer: TLS when offered, as libpq defines it
    assert team_files.read_membership(home)["url"].endswith("sslmode=prefer")
