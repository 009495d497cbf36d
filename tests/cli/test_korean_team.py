"""The team library's sentences in a Korean session: each result and refusal of artibot.team,
built as the library builds it, said in Korean whole -- versions, round ids, counts and
commands as they were. No database: the sentences that need one are the library's f-strings,
copied with the line that words them; the ones that need none come from the library itself."""

from __future__ import annotations

import re

import pytest

from artibot.cli.words_errors import say
from artibot.errors import ArtibotError
from tests.cli.test_korean_session import leftover_english

RID = "r20261127-211500123456-0a1b"  # a round id as artibot.round.cycle.new_round_id words it


# the database server's own reason, quoted by a refusal: the server's words, not artibot's
SERVER = "permission denied for table states"


def _korean_whole(sentence: str, *kept: str) -> str:
    said = say("ko", sentence)
    assert re.search("[가-힣]", said) and leftover_english(said.replace(SERVER, " ")) == [], (sentence, said)
    for part in kept:
        assert part in said, (part, said)
    return said


def _state_problems() -> list[str]:
    """artibot.learning.team_pool.parse_state's refusals, as a pull and a reviewer meet them."""
    from artibot.learning.team_pool import parse_state

    problems = []
    for bad in ([], {"schema": "x"}):
        with pytest.raises(ValueError) as exc:
            parse_state(bad)
        problems.append(str(exc.value))
    return problems


def test_the_team_results_and_refusals_in_korean() -> None:
    from artibot.team import db

    not_a_list, bad_schema = _state_problems()
    where = db.where("postgresql://alice@db.example/teamdb")
    version, sent, total, stored = 7, 40, 130, 35
    cases: list[tuple[str, tuple[str, ...]]] = [
        # artibot/team/push.py push()
        ("nothing to push", ()),
        (f"{sent} record(s) sent, {stored} new to the team ({sent - stored} already there)", ("40", "35", "5")),
        (f"{sent} record(s) sent, {stored} new to the team (3 already there); 2 refused by the team's database (a "
         "name outside its alphabet, see docs/team.md)", ("40", "35", "3", "2", "docs/team.md")),
        (f"{sent} sent, {total - sent} queued: the team database ({where}) went away: server closed",
         ("40", "90", "teamdb", "db.example")),
        (f"the team database ({where}) cannot be reached: Connection refused; records stay queued and are sent "
         f"later ({sent} of {total} record(s) sent before it failed)", ("40", "130", "teamdb", "db.example")),
        # artibot/team/push.py membership_or_raise()
        ("/home/me/.artibot is not a team member: run `artibot team join URL` first",
         ("/home/me/.artibot", "`artibot team join URL`")),
        # artibot/team/member.py pull()
        ("the team has published no state yet", ()),
        (f"the team's state version {version} (round {RID}) cannot be used ({bad_schema}); this member keeps its "
         "previous state", ("7", RID, "'x'")),
        (f"the team's state version {version} (round {RID}) cannot be used ({not_a_list}); this member keeps its "
         "previous state", ("7", RID, "list")),
        (f"team state version {version} (round {RID}) cached; 3 domain(s) start from the team's thresholds",
         ("7", RID, "3")),
        (f"team state version {version} (round {RID}) cached; 3 domain(s) start from the team's thresholds; 2 domain "
         "name(s) outside [a-z0-9][a-z0-9._-]{0,63} set aside", ("7", RID, "3", "2", "[a-z0-9][a-z0-9._-]{0,63}")),
        # artibot/team/round.py: RoundLock (with holder()'s two answers), current_state, prepare
        ("another reviewer is running a team round (alice, since 2026-11-27 21:00 UTC); only one round "
         "runs at a time: try again when it has finished", ("alice", "2026-11-27 21:00 UTC")),
        ("the team database cannot be reached for the round's lock: connection refused", ("connection refused",)),
        ("another session has held the schema's lock for 10 s (another `artibot team init`?): try again when it has "
         "finished", ("10", "`artibot team init`")),
        ("another reviewer is running a team round (held by another session); only one round runs at a time: try "
         "again when it has finished", ()),
        (f"the team's published state version {version} (round {RID}) cannot be read: {bad_schema}; `artibot team "
         "rollback` withdraws it", ("7", RID, "`artibot team rollback`")),
        (f"team round {RID} is waiting for review: `artibot team review` shows and answers it",
         (RID, "`artibot team review`")),
        ("12 new pooled record(s), fewer than a batch of 50; nothing to learn yet (--flush learns them anyway)",
         ("12", "50", "--flush")),
        ("12 new pooled record(s), too few to learn from even with --flush; nothing to learn yet", ("12", "--flush")),
        ("no new pooled record: nothing to learn yet", ()),
        # artibot/team/round.py decide()
        (f"team round {RID} prepared and saved for review (checkpoint 2 needs a human): `artibot team review`",
         (RID, "2", "`artibot team review`")),
        (f"team round {RID} reset: nothing published; the records stay unlearned", (RID,)),
        (f"team round {RID} published as state version {version}: 120 pooled record(s); thresholds updated; "
         "2 pattern(s) promoted, 1 demoted", (RID, "7", "120", "2", "1", "갱신")),
        (f"team round {RID} published as state version {version}: 120 pooled record(s); thresholds kept "
         "(reverted); 0 pattern(s) promoted, 0 demoted", (RID, "7", "120", "되돌림")),
        # artibot/team/round.py load_pending(), rollback()
        ("no team round is waiting for review: `artibot team learn` prepares one", ("`artibot team learn`",)),
        (f"team round {RID}'s saved proposal cannot be read ('checkpoint')", (RID, "'checkpoint'")),
        (f"team round {RID} is waiting for review and builds on the latest state: answer it (`artibot team review`)"
         " or reset it (`--answer 1=reset`) before rolling back", (RID, "`artibot team review`", "`--answer 1=reset`")),
        ("the team has no published state to roll back", ()),
        # artibot/team/retention.py months_setting(), apply(); each month as `team retention` prints it
        ("the team's setting retention_months is 'six'; it must be a whole number of months (1 or more)", ("'six'",)),
        ("the team's setting retention_months is 0; it must be 1 or more", ("0",)),
        ("--months must be 1 or more, not 0", ("--months", "0")),
        ("2026-03 (1200 row(s)): 17 row(s) not learned yet by the team's latest state: kept",
         ("2026-03", "1200", "17")),
        ("2026-02 (900 row(s)): would be dropped (dry run)", ("2026-02", "900")),
        ("2026-01 (800 row(s)): dropped", ("2026-01", "800")),
        # artibot/team/db.py
        ("the team commands need psycopg 3, which this install lacks: pip install 'artibot[team]' (or pip install "
         "'psycopg[binary]')", ("'artibot[team]'", "'psycopg[binary]'")),
        (f"the team database ({where}) did not answer within 2.5 s; records stay queued and are sent later",
         ("2.5", "teamdb")),
        (f"the team database refused: {SERVER} (see docs/team.md for the roles: a member inserts experiences and "
         "reads states, only a reviewer runs rounds)", ("docs/team.md", SERVER)),
        ("the team database's schema is version 9, newer than this artibot knows (4); upgrade artibot", ("9", "4")),
        (f"{where} has no artibot team schema: run `artibot team init URL` first",
         ("teamdb", "`artibot team init URL`")),
        ("the team database's schema is version 2, this artibot expects 4: run `artibot team init URL` to upgrade it",
         ("2", "4", "`artibot team init URL`")),
        ("the team database's schema is version 5, this artibot expects 4: upgrade artibot", ("5", "4")),
    ]
    for sentence, kept in cases:
        _korean_whole(sentence, *kept)
    assert say("en", cases[1][0]) == cases[1][0]  # English stays English


def test_the_team_database_named_in_korean(monkeypatch) -> None:
    """`team init` and `team status` name the database as the library words it, in Korean too."""
    from artibot.cli.words_team import say_where
    from artibot.team import db

    monkeypatch.delenv("PGHOST", raising=False)

    assert say_where("ko", db.where("postgresql://alice@db.example/teamdb")) == "db.example의 teamdb"
    assert say_where("ko", db.where("postgresql:///teamdb")) == "로컬 소켓의 teamdb"
    assert say_where("ko", db.where("postgresql://alice@db.example")) == "db.example의 기본 데이터베이스"
    assert say_where("en", db.where("postgresql://db.example/teamdb")) == "teamdb on db.example"


def test_the_team_database_refusals_from_the_library(tmp_path) -> None:
    """The refusals the library words without a database, taken from the library itself."""
    from artibot.team import db

    refusals = []
    for url in ("postgresql://alice:secret@db.example/teamdb", "postgresql://127.0.0.1:1/teamdb?connect_timeout=1"):
        with pytest.raises(ArtibotError) as exc:
            with db.connect(url, timeout_s=1):
                pass
        refusals.append(str(exc.value))
    _korean_whole(refusals[0], "~/.pgpass", "PGPASSWORD")
    said = say("ko", refusals[1])  # the driver's own reason stays as it said it
    assert said.startswith("팀 데이터베이스(127.0.0.1의 teamdb)에 연결할 수 없습니다: "), said
    assert said.endswith("; 레코드는 대기열에 남아 나중에 보내집니다"), said
    assert "(no state yet)" not in say("ko", "the team has published no state yet")

