"""No member can stall the team, and two reviewers at once get a sentence naming the holder: the
round's lock is a row only the reviewer role may lock, and pushes take no lock at all."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from artibot.round.checkpoints import DefaultAnswers
from artibot.cli.app import run
from artibot.config import load_settings
from artibot.team import db, member, push
from artibot.team import round as team_round
from tests.team.conftest import grant_roles, sql
from tests.team.helpers import member as make_member, records

OLD_KEYS = (0x61727469_0002, 0x61727469_0003, 0x61727469_0004)
"""The advisory keys the push, round and partition locks used: any role can take them."""


def as_role(url: str, name: str) -> str:
    return url.replace("postgres@", f"{name}@")


def test_two_reviewers_and_a_rollback_during_a_round_are_refused_naming_the_holder(team, tmp_path, capsys) -> None:
    grant_roles(team, rita="reviewer", ryan="reviewer")  # one login per person, as documented
    home = make_member(tmp_path, "m", records(100))
    member.join(team, home=home)
    push.push(home=home)
    entered, release = threading.Event(), threading.Event()

    def rita() -> None:
        with db.connect(as_role(team, "rita")) as conn, team_round.RoundLock(conn):
            entered.set()
            release.wait(30)
            report = team_round.prepare(conn, load_settings(home.root), flush=False, dry_run=False)
            team_round.decide(conn, report, DefaultAnswers())

    thread = threading.Thread(target=rita)
    thread.start()
    assert entered.wait(20)
    try:
        capsys.readouterr()
        ryan = ["--home", str(home.root), "team"]
        started = time.monotonic()
        assert run(ryan + ["learn", "--yes", "--url", as_role(team, "ryan")]) == 1
        assert run(ryan + ["rollback", "--yes", "--url", as_role(team, "ryan")]) == 1
        assert run(ryan + ["review", "--url", as_role(team, "ryan")]) == 1
        assert time.monotonic() - started < 3 * team_round.ROUND_WAIT_S + 10  # a bounded wait each
        err = capsys.readouterr().err
        assert err.count("another reviewer is running a team round (rita, since 20") == 3, err
        assert "Traceback" not in err and "Error" not in err
    finally:
        release.set()
        thread.join(30)
    assert sql(team, "SELECT reviewer, status FROM artibot_team.rounds") == [("rita", "applied")]
    assert run(["--home", str(home.root), "team", "rollback", "--yes", "--url", as_role(team, "ryan")]) == 0


def test_a_member_holding_every_lock_it_can_stalls_no_push_and_no_round(team, tmp_path, capsys) -> None:
    grant_roles(team, mallory="member", alice="member", rita="reviewer")
    alice = make_member(tmp_path, "alice", records(200))
    member.join(as_role(team, "alice"), home=alice)
    with psycopg.connect(as_role(team, "mallory")) as mallory:  # a transaction she keeps open
        for key in OLD_KEYS:
            mallory.execute("SELECT pg_advisory_lock(%s)", (key,))
        mallory.execute("INSERT INTO artibot_team.experiences (record_id, domain, complexity, routed_to, outcome, "
                        "month) VALUES ('held', 'backend', 0.5, 'system1', 'success', artibot_team.id_month('held'))")
        started = time.monotonic()
        assert push.push(home=alice, statement_ms=5_000).stored == 200  # a new month's partition too
        capsys.readouterr()
        assert run(["--home", str(alice.root), "team", "learn", "--yes", "--url", as_role(team, "rita")]) == 0
        assert "published as state version 1: 200 pooled record(s)" in capsys.readouterr().out
        assert time.monotonic() - started < 20
        mallory.commit()
    capsys.readouterr()
    assert run(["--home", str(alice.root), "team", "learn", "--yes", "--flush", "--url", as_role(team, "rita")]) == 0
    assert "published as state version 2: 1 pooled record(s)" in capsys.readouterr().out  # hers, next round
    with psycopg.connect(as_role(team, "mallory")) as mallory:  # and the round's lock is not hers to take
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            mallory.execute("SELECT 1 FROM artibot_team.round_lock FOR UPDATE")


def test_a_session_holding_the_schemas_lock_costs_init_a_bounded_wait(team, monkeypatch, capsys) -> None:
    from artibot.team.schema import INIT_LOCK

    grant_roles(team, mallory="member")
    monkeypatch.setattr(db, "INIT_WAIT_S", 1)
    with psycopg.connect(as_role(team, "mallory"), autocommit=True) as mallory:
        mallory.execute("SELECT pg_advisory_lock(%s)", (INIT_LOCK,))
        started = time.monotonic()
        assert run(["team", "init", team]) == 1
        assert time.monotonic() - started < 10
        assert "another session has held the schema's lock for 1 s" in capsys.readouterr().err
    assert run(["team", "init", team]) == 0
