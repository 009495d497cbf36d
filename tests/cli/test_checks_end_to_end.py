"""The checks before and after a change, end to end in a real data home: checkpoint 2's off-policy block (review --json and the
terminal), status's validation with the rollback command (never run), the aging cache at checkpoint 3."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import orjson
import pytest

from artibot.collector import collect_many
from artibot.config import ConfigError, settings_from_mapping
from artibot.round.cycle import learn
from artibot.round.review import answer_pending, pending_questions
from artibot.hookpath.turns.context import session_context
from artibot.hookpath.router.domains import DomainTable
from artibot.hookpath.router.policy import RoutingPolicy
from artibot.store.learned import state_files as state
from artibot.store.home import Home

BASE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def routed(n: int, *, start: int = 0, seed: int = 1, threshold: float = 0.4, exploration: float = 0.2,
           s1_success=lambda c: 0.95 - 0.8 * c, pattern: str | None = None) -> list[dict]:
    """Requests in one domain routed by the product's router; System 2 succeeds with 0.9."""
    rng = random.Random(seed)
    policy = RoutingPolicy(threshold, {}, frozenset(), DomainTable.from_mapping({}), exploration=exploration)
    out = []
    for i in range(start, start + n):
        c = round(rng.random(), 3)
        d = policy.decide_scored(c, "api", pattern, rng)
        ok = rng.random() < (0.9 if d.system == "system2" else s1_success(c))
        out.append({"id": f"x{i:06d}", "timestamp": (BASE + timedelta(seconds=i)).isoformat(), "session_id": "s",
                    "input": f"request {i}", "domain": "api", "complexity": c, "routed_to": d.system,
                    "outcome": "success" if ok else "failed", "latency_ms": 5.0, "confidence": d.confidence,
                    "pattern": pattern, "threshold": d.threshold, "propensity": d.propensity})
    return out


def _one_batch(home: Path, size: int = 2000) -> None:
    """One batch per round: the seed's steps stay inside the exploration band the logs explored."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "artibot.config.json").write_bytes(orjson.dumps({"learning": {"lifelong": {"batchSize": size},
                                                                          "offPolicy": {"minSupport": 5}}}))


def test_review_json_carries_the_off_policy_block(cli, artibot_home: Path):
    _one_batch(artibot_home)
    collect_many(routed(2000))
    learn(answers="defer", flush=True)
    doc = pending_questions(_home())
    q2 = next(q for q in doc["questions"] if q["number"] == 2)
    op = q2["off_policy"]
    assert op == q2["evidence"]["summary"]["off_policy"]
    assert op["method"] == "dr" and op["n"] == 2000 and op["level"] == 0.9
    assert op["verdict"] == "estimated", op["reason"]
    lo, hi = op["interval"]
    assert lo <= op["difference"]["success"] <= hi
    assert op["ess"] > 0 and op["current"]["system2_share"] != op["proposed"]["system2_share"]
    # the CLI prints the same JSON
    out = cli("review", "--json")
    assert out.code == 0 and next(q for q in out.json()["questions"] if q["number"] == 2)["off_policy"] == op


def _home() -> Home:
    from artibot.store.home import Home

    return Home.of(None)


def test_without_exploration_checkpoint_2_says_too_thin_in_words(cli):
    collect_many(routed(500, exploration=0.0))
    out = cli("learn", stdin="\n\n\n")
    assert out.code == 0
    text = " ".join(out.out.split())
    assert "What the proposed thresholds would have done on the 500 logged requests" in text
    assert "too thin to estimate: no logged decision was randomized" in text
    assert "System 2 share" in text


def test_terminal_checkpoint_2_shows_the_estimate(cli, artibot_home: Path):
    _one_batch(artibot_home)
    collect_many(routed(2000))
    out = cli("learn", "--flush", stdin="\n\n\n")
    assert out.code == 0, out.err
    text = " ".join(out.out.split())
    assert "estimated from the requests routed at random, with 90% intervals" in text
    assert "doubly robust" not in text and "ff-policy" not in text  # the method's name is in docs/checks.md
    assert "current success" in text and "proposed success" in text and "change success" in text
    assert "effective sample size" in text


def test_a_round_that_made_things_worse_is_reported_never_rolled_back(cli):
    # round 1 learns on 2,000 requests; after it, System 1 got much worse (the world changed)
    collect_many(routed(2000))
    first = learn(answers="defaults", flush=True)
    collect_many(routed(1000, start=5000, seed=2, s1_success=lambda c: 0.3))
    second = learn(answers="defaults", flush=True)
    doc = cli("status", "--json").json()
    worse = doc["validation"]["worse"]
    assert [v["round_id"] for v in worse] == [first.round_id]
    assert worse[0]["rollback"] == f"artibot rollback {first.round_id}"
    assert worse[0]["after"]["n"] == 1000 and worse[0]["before"]["n"] == 2000
    text = " ".join(cli("status").out.split())
    assert f"artibot rollback {first.round_id}" in text and "worse after a round" in text
    # nothing was rolled back: the second round's thresholds stand, no rollback entry in the log
    assert state.read_thresholds(_home())["round_id"] == second.round_id
    assert all(r.get("type", "round") == "round" and not r.get("rolled_back")
               for r in state.read_learning_log(_home()))
    context = session_context(None, pending_review=False, notices=[worse[0]["message"]])
    assert f"`artibot rollback {first.round_id}` undoes it" in context


def _cache(home: Home, key: str, days_ago: float, confidence: float = 0.9) -> None:
    promoted = (datetime.now(timezone.utc) - timedelta(days=days_ago)).isoformat(timespec="seconds")
    state.write_system1_patterns(home, {"patterns": [{"key": key, "status": "active", "promoted_at": promoted,
                                                      "evidence": {"confidence": confidence}}]})


@pytest.mark.parametrize("config, demoted", [({"learning": {"lifelong": {"mode": "evidence"}}}, True),
                                             ({"learning": {"lifelong": {"mode": "seed"}}}, False),  # literal rules
                                             ({"learning": {"freshness": {"enabled": True}}}, True)])
def test_a_stale_pattern_is_proposed_for_demotion_at_checkpoint_3(artibot_home: Path, config, demoted):
    if config:
        artibot_home.mkdir(parents=True, exist_ok=True)
        (artibot_home / "artibot.config.json").write_bytes(orjson.dumps(config))
    home = _home()
    _cache(home, "api:old:pattern", days_ago=45)
    collect_many(routed(100, exploration=0.0))
    learn(answers="defer", flush=True)
    q3 = next(q for q in pending_questions(home)["questions"] if q["number"] == 3)
    rows = {r["key"]: r for r in q3["patterns"]}
    if not demoted:
        assert "api:old:pattern" not in rows
        return
    assert rows["api:old:pattern"]["automatic"] == "demote"
    assert rows["api:old:pattern"]["reason"].startswith("unused for 45 days")
    learn_done = answer_pending(answers=["1=accept", "2=revert", "3=auto"])
    assert learn_done.status == "applied"
    assert state.active_patterns(state.read_system1_patterns(home)) == frozenset()


def test_a_used_pattern_keeps_its_freshness_state(artibot_home: Path):
    artibot_home.mkdir(parents=True, exist_ok=True)
    (artibot_home / "artibot.config.json").write_bytes(orjson.dumps({"learning": {"freshness": {"enabled": True}}}))
    home = _home()
    _cache(home, "api:fresh", days_ago=0)
    records = routed(60, exploration=0.0)
    now = datetime.now(timezone.utc)
    for i, r in enumerate(records):  # logged after the promotion
        r["timestamp"] = (now + timedelta(seconds=i + 1)).isoformat()
        r["pattern"], r["routed_to"], r["outcome"] = "api:fresh", "system1", "success"
    collect_many(records)
    learn(answers="defaults", flush=True)
    entry = state.read_system1_patterns(home)["patterns"][0]
    assert entry["status"] == "active"
    assert entry["freshness"]["alpha"] == 60 and entry["freshness"]["recent"] == "SSSSS"


@pytest.mark.parametrize("section, key, value, allowed", [
    ("offPolicy", "method", "ips", "'dr', 'snips'"), ("offPolicy", "level", 1.5, "[0.5, 0.999]"),
    ("validation", "window", 0, "from 1"), ("validation", "alpha", 0.9, "[0.0001, 0.5]"),
    ("freshness", "enabled", "yes", 'true, false or "auto"'), ("freshness", "decayPerDay", -1, "[0, 10]")])
def test_new_config_keys_are_validated(section, key, value, allowed):
    with pytest.raises(ConfigError) as err:
        settings_from_mapping({"learning": {section: {key: value}}})
    assert f"learning.{section}.{key}" in str(err.value) and allowed in str(err.value)


def test_session_start_context_names_a_worse_round_and_its_rollback(cli, artibot_home: Path, monkeypatch):
    monkeypatch.setenv("HOME", str(artibot_home.parent))  # the hook may look at ~/.claude
    collect_many(routed(2000))
    first = learn(answers="defaults", flush=True)
    collect_many(routed(1000, start=5000, seed=2, s1_success=lambda c: 0.3))
    learn(answers="defaults", flush=True)
    payload = orjson.dumps({"session_id": "s-1", "hook_event_name": "SessionStart", "source": "startup",
                            "cwd": str(artibot_home.parent)})
    out = cli("hook", "session-start", stdin=payload)
    assert out.code == 0
    text = out.json()["hookSpecificOutput"]["additionalContext"]
    assert "made routing worse" in text and f"`artibot rollback {first.round_id}` undoes it" in text


def test_review_without_a_terminal_shows_the_off_policy_block(cli):
    collect_many(routed(500, exploration=0.0))
    learn(answers="defer", flush=True)
    text = " ".join(cli("review").out.split())
    assert "Checkpoint 2: proposed threshold changes" in text and "These threshold changes are proposed" in text
    assert "What the proposed thresholds would have done on the 500 logged requests" in text and "too thin to estimate" in text


def test_the_window_is_topped_up_with_earlier_rounds(artibot_home: Path):
    artibot_home.mkdir(parents=True, exist_ok=True)
    (artibot_home / "artibot.config.json").write_bytes(orjson.dumps(
        {"learning": {"lifelong": {"batchSize": 500, "mode": "seed"}, "offPolicy": {"window": 1200}}}))
    collect_many(routed(1000))
    learn(answers="defaults")
    collect_many(routed(500, start=3000, seed=3))
    learn(answers="defer")
    op = next(q for q in pending_questions(_home())["questions"] if q["number"] == 2)["off_policy"]
    assert op["n"] == 1200 and op["earlier"] == 700  # the newest 700 of the 1,000 archived
