"""The team library's sentences in a Korean session: each result and refusal of artibot.team,
a message built as the library builds it, is today's English sentence in English and said in
Korean whole -- versions, round ids, counts and commands as they were. No database: the
messages that need one are built as the line that raises or returns them does; the ones that
need none come from the library itself."""

from __future__ import annotations

import re

import pytest

from artibot.cli.words_errors import say_error
from artibot.errors import ArtibotError
from artibot.messages import Message as M
from artibot.messages import render
from tests.cli.test_korean_session import leftover_english

RID = "r20261127-211500123456-0a1b"  # a round id as artibot.round.cycle.new_round_id words it


# the database server's own reason, quoted by a refusal: the server's words, not artibot's
SERVER = "permission denied for table states"


def _korean_whole(message: M, *kept: str) -> str:
    said = render(message, "ko")
    assert re.search("[가-힣]", said) and leftover_english(said.replace(SERVER, " ")) == [], (message, said)
    for part in kept:
        assert part in said, (part, said)
    return said


def _state_problems() -> list[M]:
    """artibot.learning.team_pool.parse_state's refusals, as a pull and a reviewer meet them."""
    from artibot.learning.team_pool import parse_state, problem

    problems = []
    for bad in ([], {"schema": "x"}, {"schema": 1, "thresholds": {"default": 0.5, "domains": {}}, "cells": {"d": "x"}},
                {"schema": 1, "thresholds": {"default": 0.5, "domains": {}}, "cells": {"d": [[1, 0, 1, 0]]}},
                {"schema": 1, "thresholds": {"default": 0.5, "domains": {}}, "cells": {}, "seq_to": -1}):
        with pytest.raises(ValueError) as exc:
            parse_state(bad)
        said = problem(exc.value)
        assert isinstance(said, M) and str(said) == str(exc.value), said
        problems.append(said)
    return problems


def test_the_team_results_and_refusals_in_korean() -> None:
    from artibot.team import db

    not_a_list, bad_schema, not_numbers, bad_rows, bad_count = _state_problems()
    where = db.place("postgresql://alice@db.example/teamdb")
    version, sent, total, stored = 7, 40, 130, 35
    pushed = M("team.pushed", sent=sent, stored=stored, already=3)
    pulled = M("team.pulled", version=version, round=RID, n=3)
    cases: list[tuple[M, str, tuple[str, ...]]] = [
        # artibot/team/push.py push(), and what it records as the last push
        (M("team.nothing_to_push"), "nothing to push", ()),
        (M("team.pushed", sent=sent, stored=stored, already=sent - stored),
         f"{sent} record(s) sent, {stored} new to the team ({sent - stored} already there)", ("40", "35", "5")),
        (M("team.pushed_refused", pushed=pushed, refused=2),
         f"{sent} record(s) sent, {stored} new to the team (3 already there); 2 refused by the team's database (a "
         "name outside its alphabet, see docs/team.md)", ("40", "35", "3", "2", "docs/team.md")),
        (M("team.push_attempt_failed", sent=sent, queued=total - sent, why=M("team.went_away", where=where,
                                                                             why="server closed")),
         f"{sent} sent, {total - sent} queued: the team database (teamdb on db.example) went away: server closed",
         ("40", "90", "teamdb", "db.example")),
        (M("team.push_failed", why=M("team.unreachable", where=where, why="Connection refused"), sent=sent,
           total=total),
         "the team database (teamdb on db.example) cannot be reached: Connection refused; records stay queued and "
         f"are sent later ({sent} of {total} record(s) sent before it failed)", ("40", "130", "teamdb", "db.example")),
        # artibot/team/push.py membership_or_raise(); artibot/cli/cmd_team.py's --yes with --unattended
        (M("team.not_member", home="/home/me/.artibot"),
         "/home/me/.artibot is not a team member: run `artibot team join URL` first",
         ("/home/me/.artibot", "`artibot team join URL`")),
        (M("team.yes_and_unattended"), "--yes and --unattended exclude each other: choose who answers the checkpoints",
         ("--yes", "--unattended")),
        # artibot/team/member.py pull()
        (M("team.no_state"), "the team has published no state yet", ()),
        (M("team.state_unusable", version=version, round=RID, why=bad_schema),
         f"the team's state version {version} (round {RID}) cannot be used (the team state's schema is 'x'; this "
         "artibot reads 1); this member keeps its previous state", ("7", RID, "'x'")),
        (M("team.state_unusable", version=version, round=RID, why=not_a_list),
         f"the team's state version {version} (round {RID}) cannot be used (the team state must be a JSON object, "
         "not list); this member keeps its previous state", ("7", RID, "list")),
        (pulled, f"team state version {version} (round {RID}) cached; 3 domain(s) start from the team's thresholds",
         ("7", RID, "3")),
        (M("team.pulled_aside", pulled=pulled, n=2, alphabet="[a-z0-9][a-z0-9._-]{0,63}"),
         f"team state version {version} (round {RID}) cached; 3 domain(s) start from the team's thresholds; 2 domain "
         "name(s) outside [a-z0-9][a-z0-9._-]{0,63} set aside", ("7", RID, "3", "2", "[a-z0-9][a-z0-9._-]{0,63}")),
        # artibot/learning/team_pool.py parse_state()'s other refusals
        (not_numbers, "the team state's cells of 'd' are not numbers", ("'d'",)),
        (bad_rows, "the team state's cells of 'd' must be 20 rows of n1, k1, n2, k2 with 0 <= k <= n", ("'d'", "20")),
        (bad_count, "the team state's seq_to must be a whole number >= 0, not -1", ("seq_to", "-1")),
        # artibot/team/round.py: RoundLock (with holder()'s two answers), current_state, prepare
        (M("team.round_busy", holder=M("team.holder", user="alice", since="2026-11-27 21:00")),
         "another reviewer is running a team round (alice, since 2026-11-27 21:00 UTC); only one round "
         "runs at a time: try again when it has finished", ("alice", "2026-11-27 21:00 UTC")),
        (M("team.lock_unreachable", why="connection refused"),
         "the team database cannot be reached for the round's lock: connection refused", ("connection refused",)),
        (M("team.schema_lock_busy", seconds=10),
         "another session has held the schema's lock for 10 s (another `artibot team init`?): try again when it has "
         "finished", ("10", "`artibot team init`")),
        (M("team.round_busy", holder=M("team.holder_unknown")),
         "another reviewer is running a team round (held by another session); only one round runs at a time: try "
         "again when it has finished", ()),
        (M("team.state_unreadable", version=version, round=RID, why=bad_schema),
         f"the team's published state version {version} (round {RID}) cannot be read: the team state's schema is "
         "'x'; this artibot reads 1; `artibot team rollback` withdraws it", ("7", RID, "`artibot team rollback`")),
        (M("team.round_waiting", round=RID),
         f"team round {RID} is waiting for review: `artibot team review` shows and answers it",
         (RID, "`artibot team review`")),
        (M("team.fewer_than_batch", n=12, batch=50),
         "12 new pooled record(s), fewer than a batch of 50; nothing to learn yet (--flush learns them anyway)",
         ("12", "50", "--flush")),
        (M("team.too_few_even_flushed", n=12),
         "12 new pooled record(s), too few to learn from even with --flush; nothing to learn yet", ("12", "--flush")),
        (M("team.no_new_record"), "no new pooled record: nothing to learn yet", ()),
        # artibot/team/round.py decide()
        (M("team.deferred", round=RID, checkpoint=2),
         f"team round {RID} prepared and saved for review (checkpoint 2 needs a human): `artibot team review`",
         (RID, "2", "`artibot team review`")),
        (M("team.reset", round=RID), f"team round {RID} reset: nothing published; the records stay unlearned", (RID,)),
        (M("team.published", round=RID, version=version, records=120, thresholds=M("team.thresholds_updated"),
           promoted=2, demoted=1),
         f"team round {RID} published as state version {version}: 120 pooled record(s); thresholds updated; "
         "2 pattern(s) promoted, 1 demoted", (RID, "7", "120", "2", "1", "갱신")),
        (M("team.published", round=RID, version=version, records=120, thresholds=M("team.thresholds_kept"),
           promoted=0, demoted=0),
         f"team round {RID} published as state version {version}: 120 pooled record(s); thresholds kept "
         "(reverted); 0 pattern(s) promoted, 0 demoted", (RID, "7", "120", "되돌림")),
        # artibot/team/round.py load_pending(), rollback()
        (M("team.none_waiting"), "no team round is waiting for review: `artibot team learn` prepares one",
         ("`artibot team learn`",)),
        (M("team.proposal_unreadable", round=RID, why="'checkpoint'"),
         f"team round {RID}'s saved proposal cannot be read ('checkpoint')", (RID, "'checkpoint'")),
        (M("team.rollback_pending", round=RID),
         f"team round {RID} is waiting for review and builds on the latest state: answer it (`artibot team review`)"
         " or reset it (`--answer 1=reset`) before rolling back", (RID, "`artibot team review`", "`--answer 1=reset`")),
        (M("team.nothing_to_roll_back"), "the team has no published state to roll back", ()),
        # artibot/team/retention.py months_setting(), apply(); each month as `team retention` prints it
        (M("team.retention_not_whole", value="'six'"),
         "the team's setting retention_months is 'six'; it must be a whole number of months (1 or more)", ("'six'",)),
        (M("team.retention_below_one", value=0), "the team's setting retention_months is 0; it must be 1 or more",
         ("0",)),
        (M("team.months_below_one", value=0), "--months must be 1 or more, not 0", ("--months", "0")),
        (M("team.month", month="2026-03", rows=1200, reason=M("team.month_kept", n=17)),
         "2026-03 (1200 row(s)): 17 row(s) not learned yet by the team's latest state: kept",
         ("2026-03", "1200", "17")),
        (M("team.month", month="2026-02", rows=900, reason=M("team.month_would_drop")),
         "2026-02 (900 row(s)): would be dropped (dry run)", ("2026-02", "900")),
        (M("team.month", month="2026-01", rows=800, reason=M("team.month_dropped")),
         "2026-01 (800 row(s)): dropped", ("2026-01", "800")),
        # artibot/team/db.py
        (M("team.no_psycopg"), "the team commands need psycopg 3, which this install lacks: pip install "
         "'artibot[team]' (or pip install 'psycopg[binary]')", ("'artibot[team]'", "'psycopg[binary]'")),
        (M("team.no_answer", where=where, seconds=2.5),
         "the team database (teamdb on db.example) did not answer within 2.5 s; records stay queued and are sent "
         "later", ("2.5", "teamdb")),
        (M("team.refused", why=SERVER),
         f"the team database refused: {SERVER} (see docs/team.md for the roles: a member inserts experiences and "
         "reads states, only a reviewer runs rounds)", ("docs/team.md", SERVER)),
        (M("team.db_said", why=SERVER), f"the team database said: {SERVER}", (SERVER,)),
        (M("team.schema_newer", current=9, newest=4),
         "the team database's schema is version 9, newer than this artibot knows (4); upgrade artibot", ("9", "4")),
        (M("team.no_schema", where=where), "teamdb on db.example has no artibot team schema: run `artibot team init "
         "URL` first", ("teamdb", "`artibot team init URL`")),
        (M("team.schema_other", version=2, newest=4, then=M("team.schema_run_init")),
         "the team database's schema is version 2, this artibot expects 4: run `artibot team init URL` to upgrade it",
         ("2", "4", "`artibot team init URL`")),
        (M("team.schema_other", version=5, newest=4, then=M("team.schema_upgrade_artibot")),
         "the team database's schema is version 5, this artibot expects 4: upgrade artibot", ("5", "4")),
    ]
    for message, english, kept in cases:
        assert str(message) == english
        _korean_whole(message, *kept)
    assert render(cases[1][0], "ko") == "레코드 40개 보냄, 팀에 새로 들어간 것 35개 (이미 있던 것 5개)"
    assert render(cases[14][0], "ko") == "팀 상태의 seq_to은(는) 0 이상의 정수여야 합니다 (-1은(는) 안 됨)"
    assert render(cases[4][0], "ko") == ("팀 데이터베이스(db.example의 teamdb)에 연결할 수 없습니다: Connection refused; "
                                         "레코드는 대기열에 남아 나중에 보내집니다 (실패하기 전에 레코드 130개 중 40개를 보냄)")


def test_the_team_database_named_in_korean(monkeypatch) -> None:
    """`team init` and `team status` name the database as the library words it, in Korean too."""
    from artibot.team import db

    monkeypatch.delenv("PGHOST", raising=False)

    assert render(db.place("postgresql://alice@db.example/teamdb"), "ko") == "db.example의 teamdb"
    assert render(db.place("postgresql:///teamdb"), "ko") == "로컬 소켓의 teamdb"
    assert render(db.place("postgresql://alice@db.example"), "ko") == "db.example의 기본 데이터베이스"
    assert render(db.place("postgresql://db.example/teamdb"), "en") == "teamdb on db.example"
    assert db.where("postgresql:///teamdb") == "teamdb on the local socket"
    assert db.where("postgresql://alice@db.example") == "the default database on db.example"


def test_the_team_database_refusals_from_the_library(tmp_path) -> None:
    """The refusals the library words without a database, taken from the library itself."""
    from artibot.team import db

    refusals = []
    for url in ("postgresql://alice:secret@db.example/teamdb", "postgresql://127.0.0.1:1/teamdb?connect_timeout=1"):
        with pytest.raises(ArtibotError) as exc:
            with db.connect(url, timeout_s=1):
                pass
        refusals.append(exc.value)
    assert refusals[0].message is not None
    _korean_whole(refusals[0].message, "~/.pgpass", "PGPASSWORD")
    said = say_error("ko", refusals[1])  # the driver's own reason stays as it said it
    assert said.startswith("팀 데이터베이스(127.0.0.1의 teamdb)에 연결할 수 없습니다: "), said
    assert said.endswith("; 레코드는 대기열에 남아 나중에 보내집니다"), said
    assert str(refusals[1]).startswith("the team database (teamdb on 127.0.0.1) cannot be reached: ")



def test_the_team_status_says_the_kept_messages_in_korean(tmp_path, monkeypatch) -> None:
    """`team status` says the last push and pull from the messages their files keep beside the
    English; a file an older artibot wrote (no message) is shown in its English."""
    from artibot.cli.cmd_team import render_team
    from artibot.cli.words import know_lang

    monkeypatch.setenv("ARTIBOT_HOME", str(tmp_path))
    know_lang("ko")
    where = M("team.where", database="teamdb", host=M("team.local_socket"))
    pushed = M("team.pushed", sent=3, stored=2, already=1)
    pulled = M("team.no_state")
    doc = {"member": True, "database": str(where), "database_said": where.to_json(), "queued": 0, "queue_full": False,
           "last_push": {"at": "2026-11-27T21:00:00+00:00", "ok": True, "message": str(pushed),
                         "said": pushed.to_json()},
           "last_pull": {"at": "2026-11-27T21:00:00+00:00", "ok": True, "message": str(pulled),
                         "said": pulled.to_json()}}
    lines = "\n".join(render_team(doc))
    assert "로컬 소켓의 teamdb" in lines and "레코드 3개 보냄, 팀에 새로 들어간 것 2개 (이미 있던 것 1개)" in lines, lines
    assert "팀이 아직 게시한 상태가 없습니다" in lines and leftover_english(lines) == [], lines
    older = {**doc, "last_push": {k: v for k, v in doc["last_push"].items() if k != "said"},
             "last_pull": {**doc["last_pull"], "said": {"id": "team.from_a_newer_artibot", "params": {}}}}
    lines = "\n".join(render_team(older))
    assert str(pushed) in lines and str(pulled) in lines, lines
