"""Checkpoint 3 in a team round: each pattern hash promoted, demoted or held on the pool's counts,
answered in a terminal or saved for `team review`, published with the state and rolled back with it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from artibot.round.checkpoints import DefaultAnswers, DeferAnswers, ScriptedAnswers, parse_answers
from artibot.cli.app import run
from artibot.cli.checkpoint_prompts import TerminalCheckpoints
from artibot.config import load_settings
from artibot.learning.team_pool import parse_state
from artibot.store import team_files
from artibot.team import db, member, push
from artibot.team import round as team_round
from artibot.team.outbound import pattern_hash
from tests.factories import record
from tests.team.conftest import sql
from tests.team.helpers import member as make_member

SAFE, RISKY = "backend:fix:typo", "data:migrate:schema"


def pattern_records(prefix: str = "p") -> list[dict]:
    """60 System 1 successes of SAFE (credibly safe on System 1), and RISKY failing on System 1."""
    out = [record(i, id=f"exp_{prefix}_{i:06d}", domain="backend", complexity=0.2, pattern=SAFE) for i in range(60)]
    out += [record(100 + i, id=f"exp_{prefix}_{100 + i:06d}", domain="data", complexity=0.3, pattern=RISKY,
                   outcome="failed" if i % 2 else "success") for i in range(20)]
    out += [record(200 + i, id=f"exp_{prefix}_{200 + i:06d}", domain="data", complexity=0.7, routed_to="system2",
                    pattern=RISKY) for i in range(20)]
    return out


def hashes(home) -> tuple[str, str]:
    m = team_files.read_membership(home)
    assert m is not None
    key = bytes.fromhex(m["pattern_key"])
    return pattern_hash(SAFE, key), pattern_hash(RISKY, key)


def prepared(url: str, home, policy) -> team_round.TeamRoundReport:
    with db.connect(url) as conn, team_round.RoundLock(conn):
        report = team_round.prepare(conn, load_settings(home.root), flush=True, dry_run=False)
        assert report.status == "proposed", report.message
        return team_round.decide(conn, report, policy)


def published_patterns(url: str) -> dict:
    rows = sql(url, "SELECT state FROM artibot_team.states WHERE status = 'published' ORDER BY version DESC LIMIT 1")
    return rows[0][0].get("patterns", {}) if rows else {}


@pytest.fixture
def pooled(team, tmp_path):
    home = make_member(tmp_path, "m", pattern_records())
    member.join(team, home=home)
    assert push.push(home=home).stored == 100
    return home


def test_the_team_round_decides_patterns_at_checkpoint_3_and_publishes_them(team, pooled) -> None:
    safe, risky = hashes(pooled)
    report = prepared(team, pooled, DefaultAnswers())
    assert report.status == "applied"
    assert report.evidence is not None
    rows = {r["key"]: r for r in report.evidence[3].rows}
    assert rows[safe]["automatic"] == "promote" and (rows[safe]["k1"], rows[safe]["n1"]) == (60, 60)
    assert rows[risky]["automatic"] == "hold" and (rows[risky]["k1"], rows[risky]["n1"]) == (10, 20)
    assert rows[safe]["bounds"][0] >= 0.9  # the lower bound of System 1's success, shown to the reviewer
    patterns = published_patterns(team)
    assert patterns[safe] == {"status": "active", "n1": 60, "k1": 60, "n2": 0, "k2": 0}
    assert patterns[risky]["status"] == "candidate"
    assert "1 pattern(s) promoted" in report.message
    assert sql(team, "SELECT checkpoint, answer FROM artibot_team.answers ORDER BY 1")[2] == (3, "skip")
    log = sql(team, "SELECT log FROM artibot_team.rounds WHERE status = 'applied'")[0][0]
    assert log["transfers"] == {"promote": [safe], "demote": []}
    # a member pulls it, parses it and sees it in status; its own System 1 cache is untouched
    assert member.pull(home=pooled).used
    cached = team_files.read_cached_state(pooled)
    assert cached is not None and parse_state(cached["state"]).patterns[safe].status == "active"
    assert member.team_status(pooled)["state"]["patterns_active"] == 1
    assert not (pooled.root / "system1-patterns.json").exists()


def test_checkpoint_3_answered_in_a_terminal_overrides_the_automatic_decision(team, pooled) -> None:
    safe, _risky = hashes(pooled)
    lines = iter(["", "", "2", "4", "1"])  # accept, apply, each pattern: SAFE hold, RISKY auto
    out = io.StringIO()
    policy = TerminalCheckpoints(Console(file=out, width=200), "en", read=lambda _prompt: next(lines))
    report = prepared(team, pooled, policy)
    assert report.status == "applied" and "0 pattern(s) promoted" in report.message
    assert "pattern" in out.getvalue() and safe in out.getvalue()
    assert published_patterns(team)[safe]["status"] == "candidate"
    answer = sql(team, "SELECT answer, channel FROM artibot_team.answers WHERE checkpoint = 3")[0]
    assert answer[0][safe] == "hold" and answer[1] == policy.channel


def test_checkpoint_3_saved_for_team_review_and_answered_there(team, pooled, capsys, monkeypatch) -> None:
    safe, risky = hashes(pooled)
    report = prepared(team, pooled, DeferAnswers())
    assert report.status == "deferred"
    assert sql(team, "SELECT count(*) FROM artibot_team.states") == [(0,)]
    monkeypatch.setenv("ARTIBOT_HOME", str(pooled.root))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert run(["team", "review"]) == 0  # no terminal: the three checkpoints' evidence and how to answer
    shown = capsys.readouterr().out
    assert safe in shown and "3=auto" in shown
    assert run(["team", "review", "--answer", "1=accept", "--answer", "2=apply", "--answer", f"3.{risky}=promote",
                "--answer", f"3.{safe}=hold"]) == 0
    assert "1 pattern(s) promoted" in capsys.readouterr().out
    patterns = published_patterns(team)
    assert patterns[risky]["status"] == "active" and patterns[safe]["status"] == "candidate"
    assert sql(team, "SELECT answer->>%s, channel FROM artibot_team.answers WHERE checkpoint = 3", risky) == [
        ("promote", "team-review")]
    with pytest.raises(Exception, match="checkpoint 3 has no pattern 'nope'"):
        ScriptedAnswers(parse_answers(["1=accept", "2=apply", "3.nope=hold"])).transfers(report.evidence[3])


def test_a_later_round_demotes_on_new_evidence_and_rollback_restores_the_patterns(team, pooled, tmp_path) -> None:
    safe, _risky = hashes(pooled)
    prepared(team, pooled, DefaultAnswers())
    assert published_patterns(team)[safe]["status"] == "active"
    other = make_member(tmp_path, "o", [record(i, id=f"exp_o_{i:06d}", complexity=0.2, pattern=SAFE, outcome="failed")
                                        for i in range(200)])
    member.join(team, home=other)
    push.push(home=other)
    report = prepared(team, pooled, DefaultAnswers())
    rows = {r["key"]: r for r in report.evidence[3].rows}
    assert rows[safe]["automatic"] == "demote" and (rows[safe]["k1"], rows[safe]["n1"]) == (60, 260)
    assert published_patterns(team)[safe]["status"] == "demoted"
    with db.connect(team) as conn:
        team_round.rollback(conn)
    assert published_patterns(team)[safe]["status"] == "active"


def test_a_state_with_a_bad_pattern_table_is_not_used(team, pooled) -> None:
    prepared(team, pooled, DefaultAnswers())
    assert member.pull(home=pooled).used
    before = team_files.read_cached_state(pooled)
    state = sql(team, "SELECT state FROM artibot_team.states ORDER BY version DESC LIMIT 1")[0][0]
    for bad in ({"x": {"status": "active", "n1": 1, "k1": 1, "n2": 0, "k2": 0}},
                {"0" * 32: {"status": "cached", "n1": 1, "k1": 1, "n2": 0, "k2": 0}},
                {"0" * 32: {"status": "active", "n1": 1, "k1": 2, "n2": 0, "k2": 0}}, ["not", "an", "object"]):
        sql(team, "INSERT INTO artibot_team.states (round_id, state) VALUES ('rbad', %s::jsonb)",
            __import__("json").dumps({**state, "patterns": bad}))
        result = member.pull(home=pooled)
        assert not result.used and "pattern" in result.message and "keeps its previous state" in result.message
        assert team_files.read_cached_state(pooled) == before


def test_a_pattern_hash_that_is_not_one_is_never_decided(team, pooled) -> None:
    for i, bad in enumerate(("z" * 32, "0" * 31, "A" * 32)):
        sql(team, "INSERT INTO artibot_team.experiences (record_id, domain, complexity, routed_to, outcome, "
                  "pattern_hash, month) VALUES (%s, 'backend', 0.2, 'system1', 'success', %s, '1970-01-01')",
            f"bad{i}", bad)
    report = prepared(team, pooled, DefaultAnswers())
    assert report.evidence is not None
    assert set(r["key"] for r in report.evidence[3].rows) == set(hashes(pooled))
    assert set(published_patterns(team)) == set(hashes(pooled))
