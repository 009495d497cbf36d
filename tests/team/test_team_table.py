"""A member's router starts from the team's published System 1 table (checkpoint 3 of the team
round): a pattern the team has active goes to System 1 on a member that never saw it, from the
state the last sync cached (no database in the routing), and the member's own evidence
overrides it, as with thresholds."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from artibot.round.checkpoints import DefaultAnswers
from artibot.config import load_settings
from artibot.round.cycle import learn
from artibot.learned_router import Router
from artibot.hookpath.router.domains import DomainTable
from artibot.hookpath.router.policy import RoutingPolicy
from artibot.hookpath.router.team_table import keyed_hash
from artibot.store import team_files
from artibot.store.learned.system1_cache import read_system1_patterns
from artibot.team import db, member, push
from artibot.team import round as team_round
from artibot.team.outbound import pattern_hash
from tests.factories import record
from tests.team.helpers import member as make_member

SAFE = "backend:fix:typo"
TEXT = "fix the typo"  # its pattern key in backend is SAFE


@pytest.mark.parametrize("pattern", ["backend:fix:typo", "docs:fix:doc+typo", "한국어:수정", "x" * 300, ""])
@pytest.mark.parametrize("key_hex", ["00" * 32, "ab" * 32, "0f" * 80])
def test_the_routers_keyed_hash_is_the_pushers(pattern: str, key_hex: str) -> None:
    key = bytes.fromhex(key_hex)
    assert keyed_hash(pattern, key_hex) == pattern_hash(pattern, key) \
        == hmac.new(key, pattern.encode(), hashlib.sha256).hexdigest()[:32]


def policy(**team: object) -> RoutingPolicy:
    return RoutingPolicy(0.4, {}, frozenset(), DomainTable.from_mapping({"backend": ["typo"]}), **team)  # type: ignore[arg-type]


def test_the_policy_routes_a_team_active_pattern_to_system_1_unless_the_member_decided_it() -> None:
    key = "ab" * 32
    hard = "fix the typo, then refactor the whole distributed consensus architecture and prove it step by step"
    team = {"team_cache": frozenset({keyed_hash(SAFE, key)}), "team_key": key}
    d = policy(**team).decide_scored(0.8, "backend", SAFE)
    assert (d.system, d.reason, d.propensity) == ("system1", "team-cache", 1.0)
    assert policy(**team).decide_scored(0.8, "backend", "backend:add:button").reason == "threshold"
    assert policy(**team, own_patterns=frozenset({SAFE})).decide_scored(0.8, "backend", SAFE).reason == "threshold"
    assert policy().decide_scored(0.8, "backend", SAFE).reason == "threshold"  # not a member
    assert policy(team_cache=team["team_cache"]).decide_scored(0.8, "backend", SAFE).reason == "threshold"  # no key
    assert policy(**team).decide(hard, domain="backend").reason == "forced"  # deliberate thinking asked: still System 2
    with pytest.raises(Exception, match="team_key must be the team's pattern key in hex digits"):
        policy(team_cache=frozenset(), team_key="not hex")


def safe_records(prefix: str, n: int = 60, *, outcome: str = "success", start: int = 0) -> list[dict]:
    return [record(start + i, id=f"exp_{prefix}_{start + i:06d}", domain="backend", complexity=0.8, pattern=SAFE,
                   outcome=outcome) for i in range(n)]


def publish(url: str, home) -> None:
    with db.connect(url) as conn, team_round.RoundLock(conn):
        report = team_round.prepare(conn, load_settings(home.root), flush=True, dry_run=False)
        assert team_round.decide(conn, report, DefaultAnswers()).status == "applied"


@pytest.fixture
def taught(team, tmp_path):
    """A team whose published table has SAFE active (60 System 1 successes pooled)."""
    veteran = make_member(tmp_path, "veteran", safe_records("v"))
    member.join(team, home=veteran)
    assert push.push(home=veteran).stored == 60
    publish(team, veteran)
    return team


def test_a_newcomer_routes_the_teams_active_pattern_to_system_1_from_its_first_request(taught, tmp_path) -> None:
    newcomer = make_member(tmp_path, "new")
    assert Router.load(newcomer.root).route(TEXT, domain="backend").reason != "team-cache"
    member.join(taught, home=newcomer)
    assert Router.load(newcomer.root).route(TEXT, domain="backend").reason != "team-cache"  # nothing pulled yet
    assert member.pull(home=newcomer).used
    d = Router.load(newcomer.root).route(TEXT, domain="backend")
    assert (d.system, d.reason, d.pattern) == ("system1", "team-cache", SAFE)
    assert Router.load(newcomer.root).route("add a button", domain="backend").reason != "team-cache"
    assert read_system1_patterns(newcomer) is None  # the member's own cache is its own
    # the router reads only the cached state: with the database gone it still routes by it
    team_files.write_membership(newcomer, {**team_files.read_membership(newcomer),  # type: ignore[typeddict-item]
                                           "url": "postgresql://nobody@127.0.0.1:1/none"})
    assert Router.load(newcomer.root).route(TEXT, domain="backend").reason == "team-cache"
    member.leave(home=newcomer)  # a member who leaves routes by its own state only
    assert Router.load(newcomer.root).route(TEXT, domain="backend").reason != "team-cache"


def test_the_members_own_failures_demote_the_teams_pattern_for_that_member_only(taught, tmp_path) -> None:
    newcomer = make_member(tmp_path, "new")
    member.join(taught, home=newcomer)
    assert member.pull(home=newcomer).used
    # on this member's code base the pattern fails on System 1 (the router sent it there by the team's table)
    push_free = safe_records("n", 60, outcome="failed", start=1000)
    from artibot.collector import collect_many

    collect_many([{**r, "route_reason": "team-cache"} for r in push_free], home=newcomer)
    report = learn(home=newcomer, answers="defaults", flush=True)
    assert report.status.value == "applied", report.message
    own = read_system1_patterns(newcomer)
    assert own is not None and {p["key"]: p["status"] for p in own["patterns"]} == {SAFE: "demoted"}
    d = Router.load(newcomer.root).route(TEXT, domain="backend")
    assert d.reason in ("threshold", "explore") and d.pattern == SAFE
    veteran_like = make_member(tmp_path, "other")  # another member still follows the team's table
    member.join(taught, home=veteran_like)
    member.pull(home=veteran_like)
    assert Router.load(veteran_like.root).route(TEXT, domain="backend").reason == "team-cache"


def test_a_member_that_agrees_with_the_team_keeps_routing_by_its_table(taught, tmp_path) -> None:
    newcomer = make_member(tmp_path, "new")
    member.join(taught, home=newcomer)
    member.pull(home=newcomer)
    from artibot.collector import collect_many

    collect_many(safe_records("n", 60, start=1000), home=newcomer)
    assert learn(home=newcomer, answers="defaults", flush=True).status.value == "applied"
    assert read_system1_patterns(newcomer) is None or not any(  # held: no decision of its own
        p["key"] == SAFE for p in read_system1_patterns(newcomer)["patterns"])  # type: ignore[index]
    assert Router.load(newcomer.root).route(TEXT, domain="backend").reason == "team-cache"


def test_the_prompt_hook_routes_by_the_team_table_once_a_pull_cached_it(team, tmp_path) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    import orjson

    text = "fix the typo in the README title"
    probe = Router.load(tmp_path / "probe").route(text)
    assert probe.pattern is not None
    veteran = make_member(tmp_path, "veteran", [
        record(i, id=f"exp_v_{i:06d}", domain=probe.domain, complexity=0.2, pattern=probe.pattern) for i in range(60)])
    member.join(team, home=veteran)
    push.push(home=veteran)
    publish(team, veteran)
    home = make_member(tmp_path, "new")
    member.join(team, home=home)
    env = dict(os.environ, ARTIBOT_HOME=str(home.root))
    env.pop("ARTIBOT_CONFIG", None)
    fixture = Path(__file__).parents[1] / "integrations" / "fixtures" / "user_prompt_submit.json"

    def context() -> str:
        data = {**orjson.loads(fixture.read_bytes()), "prompt": text}
        proc = subprocess.run([sys.executable, "-m", "artibot", "hook", "user-prompt-submit"],
                              input=orjson.dumps(data), env=env, cwd=home.root.parent, capture_output=True, timeout=60)
        assert proc.returncode == 0, proc.stderr.decode()
        return str(orjson.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"])

    assert "team's System 1 table" not in context()  # the policy the hook keeps is built without the team
    assert member.pull(home=home).used
    assert f"pattern {probe.pattern} is in the team's System 1 table" in context()  # the pull rebuilt it
    cached = team_files.read_cached_state(home)
    assert cached is not None
    for entry in cached["state"]["patterns"].values():
        entry["status"] = "demoted"  # a later state (as a pull caches it) without the pattern on System 1
    team_files.write_cached_state(home, cached)
    assert "team's System 1 table" not in context()  # the cached state is part of the hook's policy key
