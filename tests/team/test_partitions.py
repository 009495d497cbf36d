"""The pooled experiences partitioned by month, against the real server: the migration from the
unpartitioned table, partitions made on push, idempotency by record id, a busy table, retention."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import psycopg
import pytest

from artibot.round.checkpoints import DefaultAnswers
from artibot.cli.app import run
from artibot.config import load_settings
from artibot.errors import TeamError
from artibot.team import db, member, push, retention
from artibot.team import round as team_round
from artibot.team.schema import MIGRATIONS
from tests.cli.test_korean_session import leftover_english
from tests.factories import record
from tests.team.conftest import grant_roles, sql
from tests.team.helpers import member as make_member


def ms(year: int, month: int, day: int = 15) -> int:
    return int(datetime(year, month, day, tzinfo=timezone.utc).timestamp() * 1000)


def month_records(months: list[tuple[int, int]], per: int, tag: str = "a") -> list[dict]:
    """``per`` records in each month, with artibot's ids (``exp_`` + the time in hex + a tag)."""
    out = []
    for y, m in months:
        for i in range(per):
            out.append(record(len(out), id=f"exp_{ms(y, m) + i:012x}{tag * 4}{i:012x}", complexity=0.3 + 0.001 * i))
    return out


def placement(url: str) -> dict[str, int]:
    return dict(sql(url, "SELECT tableoid::regclass::text, count(*) FROM artibot_team.experiences GROUP BY 1"))


def learn(url: str, home) -> team_round.TeamRoundReport:
    with db.connect(url) as conn, team_round.RoundLock(conn):
        report = team_round.prepare(conn, load_settings(home.root), flush=True, dry_run=False)
        return team_round.decide(conn, report, DefaultAnswers()) if report.status == "proposed" else report


def test_the_table_is_partitioned_by_the_month_of_the_record_id(team) -> None:
    assert sql(team, "SELECT partstrat FROM pg_partitioned_table WHERE partrelid = "
                     "'artibot_team.experiences'::regclass") == [("r",)]
    assert sql(team, "SELECT artibot_team.id_month(%s), artibot_team.id_month('t000001'), "
                     "artibot_team.id_month('exp_zz')", f"exp_{ms(2026, 3, 31):012x}00") == [
        (datetime(2026, 3, 1).date(), datetime(1970, 1, 1).date(), datetime(1970, 1, 1).date())]


def test_a_push_makes_the_months_partitions_and_stores_each_record_once(team, tmp_path) -> None:
    recs = month_records([(2026, 8), (2026, 9), (2026, 10)], 20)
    home = make_member(tmp_path, "m", recs)
    member.join(team, home=home)
    assert push.push(home=home).stored == 60
    assert placement(team) == {f"artibot_team.experiences_2026_{m:02d}": 20 for m in (8, 9, 10)}
    # the same records from another home, and a retry with the acknowledgements lost: stored once
    other = make_member(tmp_path, "o", recs)
    member.join(team, home=other)
    assert push.push(home=other).stored == 0
    (home.root / "team" / "pushed.json").unlink()
    again = push.push(home=home)
    assert (again.sent, again.stored) == (60, 0)
    assert sql(team, "SELECT count(*), count(DISTINCT record_id) FROM artibot_team.experiences") == [(60, 60)]
    report = learn(team, home)
    assert report.status == "applied" and report.proposal is not None
    assert report.proposal.params.extra["pool"]["records"] == 60  # the round reads every partition of its window


def test_a_member_role_makes_partitions_only_through_the_function(team, tmp_path) -> None:
    grant_roles(team, carol="member")
    carol_url = team.replace("postgres@", "carol@")
    home = make_member(tmp_path, "carol", month_records([(2025, 12), (2026, 1)], 5, tag="c"))
    member.join(carol_url, home=home)
    assert push.push(home=home).stored == 10
    assert set(placement(team)) == {"artibot_team.experiences_2025_12", "artibot_team.experiences_2026_01"}
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        sql(carol_url, "CREATE TABLE artibot_team.experiences_2020_01 PARTITION OF artibot_team.experiences "
                       "FOR VALUES FROM ('2020-01-01') TO ('2020-02-01')")
    # a month far in the future (a skewed clock, a hostile id) makes no partition: the default holds it
    assert sql(carol_url, "SELECT artibot_team.ensure_months(ARRAY[DATE '2999-01-01'])") == [(0,)]
    assert sql(team, "SELECT to_regclass('artibot_team.experiences_2999_01')") == [(None,)]


def test_rows_in_the_default_partition_move_when_their_month_gets_one(team, tmp_path) -> None:
    for g in range(1, 8):  # ids of March 2020 (the month is the id's: the database holds rows to it)
        sql(team, "INSERT INTO artibot_team.experiences (record_id, domain, month) VALUES (%s, 'x', '2020-03-01')",
            f"exp_{ms(2020, 3) + g:012x}{g:016x}")
    seqs = sql(team, "SELECT record_id, seq FROM artibot_team.experiences ORDER BY 1")
    assert placement(team) == {"artibot_team.experiences_default": 7}
    assert sql(team, "SELECT artibot_team.ensure_months(ARRAY[DATE '2020-03-09'])") == [(1,)]
    assert placement(team) == {"artibot_team.experiences_2020_03": 7}
    assert sql(team, "SELECT record_id, seq FROM artibot_team.experiences ORDER BY 1") == seqs  # the same rows
    assert sql(team, "SELECT artibot_team.ensure_months(ARRAY[DATE '2020-03-01'])") == [(0,)]  # once


def test_a_busy_table_costs_a_push_a_second_and_the_default_partition(team, tmp_path) -> None:
    home = make_member(tmp_path, "m", month_records([(2024, 5)], 10))
    member.join(team, home=home)
    with psycopg.connect(team) as reader:  # a long round's scan: a lock a new partition must wait for
        reader.execute("SELECT count(*) FROM artibot_team.experiences")
        done: list[push.PushReport] = []
        pusher = threading.Thread(target=lambda: done.append(push.push(home=home, statement_ms=20_000)))
        pusher.start()
        pusher.join(timeout=15)
        assert not pusher.is_alive() and done and done[0].stored == 10
        reader.rollback()
    assert placement(team) == {"artibot_team.experiences_default": 10}
    assert sql(team, "SELECT artibot_team.ensure_months(ARRAY[DATE '2024-05-01'])") == [(1,)]
    assert placement(team) == {"artibot_team.experiences_2024_05": 10}


def test_the_migration_partitions_an_existing_pool_and_loses_nothing(team_url, monkeypatch) -> None:
    monkeypatch.setattr(db, "MIGRATIONS", MIGRATIONS[:1])
    with db.connect(team_url) as conn:
        assert db.migrate(conn) == [1]
    ids = [f"exp_{ms(2026, 6) + i:012x}{i:016x}" for i in range(5)] + [f"exp_{ms(2026, 7) + i:012x}{i:016x}"
                                                                        for i in range(3)] + ["legacy-1"]
    with psycopg.connect(team_url, autocommit=True) as conn:
        for i in ids:
            conn.execute("INSERT INTO artibot_team.experiences (record_id, domain) VALUES (%s, 'backend')", (i,))
    before = sql(team_url, "SELECT record_id, seq, member, domain FROM artibot_team.experiences ORDER BY 1")
    monkeypatch.setattr(db, "MIGRATIONS", MIGRATIONS)
    with db.connect(team_url) as conn:
        assert db.migrate(conn) == [m.version for m in MIGRATIONS[1:]]
    assert sql(team_url, "SELECT record_id, seq, member, domain FROM artibot_team.experiences ORDER BY 1") == before
    assert placement(team_url) == {"artibot_team.experiences_2026_06": 5, "artibot_team.experiences_2026_07": 3,
                                   "artibot_team.experiences_1970_01": 1}
    sql(team_url, "INSERT INTO artibot_team.experiences (record_id, month) VALUES ('new', '1970-01-01')")
    assert sql(team_url, "SELECT seq FROM artibot_team.experiences WHERE record_id = 'new'") == [(10,)]  # continues
    assert sql(team_url, "SELECT to_regclass('artibot_team.experiences_unpartitioned')") == [(None,)]


def test_retention_drops_old_learned_months_and_keeps_unlearned_ones(team, tmp_path, capsys, monkeypatch) -> None:
    now = datetime.now(timezone.utc)
    old = [(now.year - 2, 3), (now.year - 2, 4)]
    home = make_member(tmp_path, "m", month_records(old, 30))
    member.join(team, home=home)
    push.push(home=home)
    assert learn(team, home).status == "applied"
    late = make_member(tmp_path, "late", month_records([(now.year - 2, 5)], 4, tag="b"))  # pushed, not learned
    member.join(team, home=late)
    push.push(home=late)
    (late.root / "artibot.config.json").write_text('{"lang": "ko"}')  # each month's line said in Korean too
    monkeypatch.setenv("ARTIBOT_HOME", str(late.root))
    assert run(["team", "retention", "--months", "12", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "(행 30개): 지울 예정 (시험 실행)" in out and "(행 4개): 팀의 최신 상태가 아직 학습하지 않은 행 4개: 유지" in out
    assert leftover_english(out) == [], out
    monkeypatch.setenv("ARTIBOT_HOME", str(home.root))
    assert run(["team", "retention", "--months", "12", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would be dropped (dry run)" in out and "not learned yet" in out and "0 dropped" in out
    assert sum(placement(team).values()) == 64
    assert run(["team", "retention", "--yes"]) == 0
    assert "no retention set: nothing dropped" in capsys.readouterr().out
    sql(team, "INSERT INTO artibot_team.settings (key, value) VALUES ('retention_months', '12')")
    assert run(["team", "retention", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "2 dropped (60 row(s)), 1 kept" in out and "4 row(s) not learned yet" in out
    y = now.year - 2
    assert placement(team) == {f"artibot_team.experiences_{y}_05": 4}
    sql(team, "UPDATE artibot_team.settings SET value = 'soon' WHERE key = 'retention_months'")
    with db.connect(team) as conn, pytest.raises(TeamError, match="retention_months is 'soon'"):
        retention.months_setting(conn)
