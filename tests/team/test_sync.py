"""Members start from the team: SessionStart starts a detached sync (push, then pull) and reads
only the cached state; a dead, slow or unparsable team costs the session nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import orjson
import psycopg
import pytest

from artibot.round.checkpoints import DefaultAnswers
from artibot.config import load_settings
from artibot.store import team_files
from artibot.store.home import Home
from artibot.store.learned.thresholds_file import read_thresholds
from artibot.team import db, member, push, sync
from artibot.team import round as team_round
from tests.team.conftest import sql
from tests.team.helpers import member as make_member, records

FIXTURES = Path(__file__).parents[1] / "integrations" / "fixtures"


def publish(url: str, home: Home) -> int:
    push.push(home=home)
    with db.connect(url) as conn, team_round.RoundLock(conn):
        report = team_round.prepare(conn, load_settings(home.root), flush=True, dry_run=False)
        done = team_round.decide(conn, report, DefaultAnswers())
    assert done.version is not None
    return done.version


def session_start(home: Home, *extra: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, ARTIBOT_HOME=str(home.root))
    env.pop("ARTIBOT_CONFIG", None)
    data = orjson.loads((FIXTURES / "session_start.json").read_bytes())
    proc = subprocess.run([sys.executable, *extra, "-m", "artibot", "hook", "session-start"], input=orjson.dumps(data),
                          env=env, cwd=home.root.parent, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc


def finished_sync(home: Home, timeout: float = 60.0) -> dict:
    """Wait for the detached child to record how it ended (the test's only wait)."""
    stamp = sync.read_stamp(str(home.root)) or {}
    pid = stamp.get("pid")
    assert isinstance(pid, int), stamp
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        # a zombie is finished too (the child is in its own session; this test is not its parent)
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z"):
                break
        except (OSError, IndexError):
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the team sync child {pid} did not finish within {timeout} s")
    last = (sync.read_stamp(str(home.root)) or {}).get("last")
    assert isinstance(last, dict), "the child ended without recording its result"
    return last


def test_session_start_caches_the_team_state_in_a_detached_child(team, tmp_path) -> None:
    reviewer = make_member(tmp_path, "reviewer", records(120))
    member.join(team, home=reviewer)
    version = publish(team, reviewer)
    home = make_member(tmp_path, "newcomer", records(10, prefix="n"))
    member.join(team, home=home)
    assert team_files.read_cached_state(home) is None and read_thresholds(home) is None

    session_start(home)
    assert "team sync started" in (home.root / "logs" / "hooks.log").read_text()
    last = finished_sync(home)
    assert last["ok"] is True and f"version {version}" in last["message"]
    cached = team_files.read_cached_state(home)
    assert cached is not None and cached["version"] == version
    from artibot.learning.team_pool import parse_state

    published = parse_state(cached["state"])
    assert read_thresholds(home).domains == published.thresholds.domains  # the router starts from the team
    assert sql(team, "SELECT count(*) FROM artibot_team.experiences WHERE record_id LIKE 'exp_n_%%'") == [(10,)]
    status = member.team_status(home)
    assert status is not None and status["state"]["version"] == version and status["state"]["age_s"] >= 0
    assert status["last_pull"]["ok"] is True
    assert status["last_pull"]["said"]["id"] == "team.pulled"  # to be said in the session's language
    from artibot.cli.cmd_team import render_team

    assert any(f"team state: version {version}, round {cached['round_id']}" in line for line in render_team(status))

    session_start(home)  # a second session within the interval starts no second sync
    assert (home.root / "logs" / "hooks.log").read_text().count("team sync started, pid") == 1
    assert "team sync not needed: last team sync started 0 min ago" in (home.root / "logs" / "hooks.log").read_text()


def test_a_members_session_start_imports_no_database_driver(team, tmp_path) -> None:
    home = make_member(tmp_path, "m")
    member.join(team, home=home)
    proc = session_start(home, "-X", "importtime")
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if "|" in line}
    assert "artibot.team.sync" in imported
    assert not [m for m in imported if m.startswith(("psycopg", "numpy", "scipy", "artibot.team.db",
                                                     "artibot.team.member", "artibot.learning"))]
    finished_sync(home)


def test_a_dead_database_costs_session_start_nothing_and_keeps_the_cached_state(team, tmp_path) -> None:
    home = make_member(tmp_path, "m", records(60))
    member.join(team, home=home)
    version = publish(team, home)
    assert member.pull(home=home).used
    before, thresholds = team_files.read_cached_state(home), read_thresholds(home)
    real = team_files.read_membership(home)
    assert real is not None
    team_files.write_membership(home, {**real, "url": f"postgresql://postgres@/x?host={tmp_path}/nowhere"})
    from artibot.collector import collect_many

    collect_many(records(5, prefix="late"), home=home)
    proc = session_start(home)
    assert orjson.loads(proc.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    last = finished_sync(home)
    assert last["ok"] is False and "cannot be reached" in last["message"]
    assert team_files.read_cached_state(home) == before and read_thresholds(home) == thresholds
    status = member.team_status(home)
    assert status is not None and status["queued"] == 5 and status["state"]["version"] == version
    log = (home.root / "logs" / "hooks.log").read_text()
    assert "team-sync\tteam push:" in log and "records stay queued" in log


def test_a_slow_database_ends_the_sync_with_a_sentence_and_the_previous_state(team, tmp_path) -> None:
    home = make_member(tmp_path, "m", records(60))
    member.join(team, home=home)
    publish(team, home)
    assert member.pull(home=home).used
    before = team_files.read_cached_state(home)
    with psycopg.connect(team) as blocker:
        blocker.execute("LOCK TABLE artibot_team.states IN ACCESS EXCLUSIVE MODE")  # held until rollback
        started = time.monotonic()
        lines = sync.run(home, timeout_s=0.5)
        waited = time.monotonic() - started
        blocker.rollback()
    assert lines[-1].startswith("team pull: ") and "did not answer" in lines[-1]
    assert waited < 30  # bounded by the statement timeout, not by the lock holder
    assert team_files.read_cached_state(home) == before
    assert (sync.read_stamp(str(home.root)) or {})["last"]["ok"] is False


def test_an_unparsable_state_leaves_the_previous_cached_one_in_place(team, tmp_path) -> None:
    home = make_member(tmp_path, "m", records(60))
    member.join(team, home=home)
    publish(team, home)
    assert member.pull(home=home).used
    before, thresholds = team_files.read_cached_state(home), read_thresholds(home)
    sql(team, "INSERT INTO artibot_team.states (round_id, state) VALUES ('rbad', '{\"schema\": 1, "
              "\"thresholds\": {\"default\": 0.4, \"domains\": {\"x\": \"high\"}}}'::jsonb)")
    (home.root / "sessions" / sync.SYNC_STAMP).unlink(missing_ok=True)  # due now
    session_start(home)
    last = finished_sync(home)
    assert last["ok"] is False and "keeps its previous state" in last["message"]
    assert team_files.read_cached_state(home) == before and read_thresholds(home) == thresholds
    from artibot.cli.cmd_team import render_team

    lines = render_team(member.team_status(home) or {})
    assert any("last pull" in line and "failed" in line and "keeps its previous state" in line for line in lines)


def test_a_sync_is_due_only_for_a_member_and_only_after_the_interval(tmp_path) -> None:
    root = str(tmp_path / "home")
    assert sync.due(root, now=10**12) == (False, "not a team member")
    os.makedirs(f"{root}/team")
    Path(f"{root}/team/membership.json").write_text("{}")
    assert sync.due(root, now=10**12)[0]
    sync._write_stamp(root, {"started_ms": 10**12})
    assert not sync.due(root, now=10**12 + sync.SYNC_EVERY_MS - 1)[0]
    assert sync.due(root, now=10**12 + sync.SYNC_EVERY_MS)[0]
    Path(f"{root}/sessions/{sync.SYNC_STAMP}").write_text("{not json")
    assert sync.due(root, now=10**12) == (True, "no team sync started yet")  # a damaged stamp is a hint, replaced
