"""The learning cycle end to end through the Python API: checkpoints, persistence, rollback."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import orjson
import pytest

from artibot import collect, learn, load_experiences
from artibot.collector import collect_many
from artibot.round.review import answer_pending, pending_questions
from artibot.errors import LockTimeout, ReviewError
from artibot.learning import PatternStats
from artibot.round.rollback import history, rollback
from artibot.store.learned import state_files as state
from artibot.store.fs import FileLock
from artibot.store.home import Home
from tests.factories import mixed, record, write_pattern_stats, write_thresholds


def tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` with a hash of its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.name.endswith(".lock"):  # lock files are empty housekeeping
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def state_bytes(home: Path) -> dict[str, bytes | None]:
    names = ["thresholds.json", "system1-patterns.json", "patterns/stats.json", "daily-experiences.json"]
    return {n: (home / n).read_bytes() if (home / n).exists() else None for n in names}


def test_defaults_apply_a_round(artibot_home: Path) -> None:
    from artibot.config import settings_from_mapping

    collect_many(mixed(120))
    # the seed's batch shape (two batches of 50); the shipped mode reports a round as one step
    report = learn(answers="defaults", settings=settings_from_mapping({"learning": {"lifelong": {"mode": "seed"}}}))
    assert report.status == "applied"
    assert report.processed == 100 and report.remainder == 20 and report.batches == 2
    assert len(load_experiences()) == 20
    archive = orjson.loads((artibot_home / "archive" / f"{report.round_id}.json").read_bytes())
    assert len(archive["records"]) == 100
    entry = state.read_learning_log(Home(artibot_home))[-1]
    assert entry["status"] == "applied"
    assert [a["checkpoint"] for a in entry["answers"]] == [1, 2, 3]
    assert all(a["channel"] == "api" and a["at"] for a in entry["answers"])
    th = orjson.loads((artibot_home / "thresholds.json").read_bytes())
    assert th["schema_version"] == 1 and 0.1 <= th["default"] <= 0.9


def test_nothing_to_learn_below_a_batch(artibot_home: Path) -> None:
    collect_many(mixed(49))
    before = tree(artibot_home)
    report = learn(answers="defaults")
    assert report.status == "nothing" and report.remainder == 49
    assert tree(artibot_home) == before


def test_flush_processes_the_remainder() -> None:
    collect_many(mixed(70))
    report = learn(answers="defaults", flush=True)
    assert report.processed == 70 and load_experiences() == []


def test_reset_keeps_experiences_unprocessed(artibot_home: Path) -> None:
    collect_many(mixed(100))
    report = learn(answers={1: "reset"})
    assert report.status == "reset"
    assert len(load_experiences()) == 100
    assert not (artibot_home / "thresholds.json").exists()
    assert state.read_learning_log(Home(artibot_home))[-1]["status"] == "reset"


def test_revert_keeps_thresholds_but_processes_and_transfers(artibot_home: Path) -> None:
    recs = [record(i, routed_to="system2", outcome="success", pattern="p:x", confidence=0.95) for i in range(50)]
    collect_many(recs)
    report = learn(answers={1: "accept", 2: "revert", 3: "auto"})
    assert report.status == "applied"
    assert not (artibot_home / "thresholds.json").exists()
    assert load_experiences() == []
    cache = orjson.loads((artibot_home / "system1-patterns.json").read_bytes())
    assert [p["key"] for p in cache["patterns"] if p["status"] == "active"] == ["p:x"]


def test_per_pattern_overrides(artibot_home: Path) -> None:
    recs = [record(i, routed_to="system2", outcome="success", pattern="p:a" if i % 2 else "p:b",
                   confidence=0.95) for i in range(50)]
    collect_many(recs)
    report = learn(answers={"1": "accept", "2": "apply", "3.p:a": "hold"})
    finals = {t["key"]: t["final"] for t in report.transfers}
    assert finals == {"p:a": "hold", "p:b": "promote"}
    events = state.read_transfer_log(Home(artibot_home))
    held = next(e for e in events if e["key"] == "p:a")
    assert held["automatic"] == "promote" and held["overridden"] is True


def test_unknown_pattern_answer_is_refused(artibot_home: Path) -> None:
    collect_many(mixed(50))
    before = tree(artibot_home)
    with pytest.raises(ReviewError, match="no pattern 'nope'"):
        learn(answers={"1": "accept", "2": "apply", "3.nope": "hold"})
    assert not (artibot_home / "thresholds.json").exists()
    assert tree(artibot_home).keys() >= before.keys()


def test_defer_then_answer_in_two_steps(artibot_home: Path) -> None:
    collect_many(mixed(100))
    report = learn(answers="defer")
    assert report.status == "deferred"
    assert (artibot_home / "pending-review.json").exists()
    assert len(load_experiences()) == 100 and not (artibot_home / "thresholds.json").exists()
    q = pending_questions(Home(artibot_home))
    assert q["pending"] and [x["number"] for x in q["questions"]] == [1, 2, 3]
    assert q["questions"][0]["default"] == "accept" and not q["questions"][0]["skippable"]
    partial = answer_pending(answers=["1=accept"])
    assert partial.status == "deferred"
    q2 = pending_questions(Home(artibot_home))
    assert [x["number"] for x in q2["questions"]] == [2, 3]
    done = answer_pending(answers=["2=apply"])
    assert done.status == "applied"
    assert not (artibot_home / "pending-review.json").exists()
    answers = state.read_learning_log(Home(artibot_home))[-1]["answers"]
    assert [(a["checkpoint"], a["answer"]) for a in answers] == [(1, "accept"), (2, "apply"), (3, "skip")]


def test_learn_refuses_while_a_round_is_pending() -> None:
    collect_many(mixed(100))
    learn(answers="defer")
    with pytest.raises(ReviewError, match="waiting for review"):
        learn(answers="defaults")
    assert learn(answers="unattended").status == "pending"


def test_unattended_follows_config(artibot_home: Path) -> None:
    collect_many(mixed(50))
    artibot_home.joinpath("artibot.config.json").write_text(
        '{"learning": {"checkpoints": {"unattended": "defaults"}}}')
    report = learn(answers="unattended")
    assert report.status == "applied"
    assert state.read_learning_log(Home(artibot_home))[-1]["answers"][0]["channel"] == "unattended-defaults"


def test_dry_run_writes_nothing(artibot_home: Path) -> None:
    collect_many(mixed(120))
    before = tree(artibot_home)
    report = learn(dry_run=True)
    assert report.status == "dry-run" and report.processed == 100
    assert tree(artibot_home) == before


def test_second_learner_waits_then_explains() -> None:
    collect_many(mixed(50))
    home = Home.resolve()
    with FileLock(home.learner_lock):
        with pytest.raises(LockTimeout, match="another artibot learner"):
            learn(answers="defaults", lock_timeout=0.2)


def test_learning_again_with_nothing_new_changes_nothing(artibot_home: Path) -> None:
    collect_many(mixed(100))
    learn(answers="defaults")
    before = state_bytes(artibot_home)
    assert learn(answers="defaults").status == "nothing"
    assert state_bytes(artibot_home) == before


def test_rollback_restores_byte_equal_state(artibot_home: Path) -> None:
    collect_many(mixed(100, seed=1))
    learn(answers="defaults")
    collect_many(mixed(130, seed=2, start=1000))
    before = state_bytes(artibot_home)
    report = learn(answers="defaults")
    assert report.status == "applied"
    assert state_bytes(artibot_home) != before
    result = rollback(report.round_id)
    assert result["undone"] == [report.round_id]
    assert state_bytes(artibot_home) == before
    kinds = [h["type"] for h in history()]
    assert kinds[-1] == "rollback"
    with pytest.raises(ReviewError):
        rollback(report.round_id)


def test_rollback_of_an_earlier_round_undoes_later_ones(artibot_home: Path) -> None:
    before = state_bytes(artibot_home)
    collect_many(mixed(100, seed=3))
    first = learn(answers="defaults")
    collect_many(mixed(50, seed=4, start=500))
    second = learn(answers="defaults")
    result = rollback(first.round_id)
    assert result["undone"] == [first.round_id, second.round_id]
    after = state_bytes(artibot_home)
    assert after["thresholds.json"] is None and after["system1-patterns.json"] is None
    assert {k: after[k] for k in ("thresholds.json", "system1-patterns.json")} == \
        {k: before[k] for k in ("thresholds.json", "system1-patterns.json")}  # as before the first round
    assert len(load_experiences()) == 150


def test_crash_mid_commit_is_rolled_back_by_the_next_cycle(artibot_home: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    collect_many(mixed(100, seed=5))
    before = state_bytes(artibot_home)
    from artibot.store.round import rounds

    def boom(*a, **k):
        raise OSError("disk full (simulated)")

    with monkeypatch.context() as patch:
        patch.setattr(rounds, "append_round", boom)  # the last write but one: the round is half written
        with pytest.raises(OSError):
            learn(answers="defaults")
    assert len(load_experiences()) == 0  # archived before the crash
    report = learn(answers="defaults", dry_run=False)
    # the interrupted round was rolled back first, then this round learned the same 100 records
    assert report.status == "applied" and report.processed == 100
    manifests = sorted((artibot_home / "snapshots").glob("*/manifest.json"))
    statuses = sorted(orjson.loads(m.read_bytes())["status"] for m in manifests)
    assert statuses == ["applied", "interrupted"]
    assert before["daily-experiences.json"] is not None


def test_collect_then_route_uses_learned_state(artibot_home: Path) -> None:
    from artibot import Router

    write_thresholds(Home(artibot_home), {"default": 0.4, "domains": {"frontend": 0.85}})
    state.write_system1_patterns(Home(artibot_home), {"patterns": []})
    router = Router.load()
    assert router.policy.threshold_for("frontend") == 0.85
    assert router.policy.threshold_for("backend") == 0.4
    stored = collect(record(1, input="mail me at kim@example.com"))
    assert "kim@example.com" not in stored["input"]
    assert os.stat(artibot_home).st_mode & 0o777 == 0o700


def test_status_counts_patterns_not_an_older_homes_cells(artibot_home: Path) -> None:
    from artibot.learning.learner_state import EvidenceState
    from artibot.hookpath.names import CELL_PREFIX
    from artibot.reports.status import status
    from artibot.store.learned import pattern_stats as patterns
    from artibot.store.learned.learner_state import load_learner_state

    write_pattern_stats(Home(artibot_home), {"patterns": {
        "p:a": PatternStats("p:a").to_json(), f"{CELL_PREFIX}api#03": PatternStats("~cell:api#03", n=2, n2=2).to_json()}})
    assert status()["patterns_tracked"] == 1
    assert set(patterns.load_pattern_stats(Home(artibot_home))) == {"p:a"}
    own = load_learner_state(Home(artibot_home), "evidence")
    assert isinstance(own, EvidenceState) and own.cells["api"][3].n2 == 2


def test_evidence_cells_have_their_own_file(artibot_home: Path) -> None:
    from artibot.store.learned import pattern_stats as patterns
    from artibot.store.learned.learner_state import load_learner_state, write_learner_state

    collect_many(mixed(200))
    home = Home(artibot_home)
    home.config_file.parent.mkdir(parents=True, exist_ok=True)
    home.config_file.write_bytes(b'{"learning": {"lifelong": {"mode": "evidence"}}}')
    assert learn(answers="defaults", flush=True).status == "applied"
    doc = orjson.loads(home.pattern_stats.read_bytes())
    assert "cells" not in doc and not any(k.startswith("~") for k in doc["patterns"])
    state = orjson.loads(home.learner_state("evidence").read_bytes())
    assert state["mode"] == "evidence" and state["cells"]
    before = home.learner_state("evidence").read_bytes()
    write_learner_state(home, load_learner_state(home, "evidence"))
    assert home.learner_state("evidence").read_bytes() == before
    stats = home.pattern_stats.read_bytes()
    patterns.write_pattern_stats(home, patterns.load_pattern_stats(home))
    assert home.pattern_stats.read_bytes() == stats


def _learn_as(monkeypatch: pytest.MonkeyPatch, round_id: str):
    """A round whose time-based id is ``round_id`` (what the clock said when it ran)."""
    from artibot.round import cycle

    monkeypatch.setattr(cycle, "new_round_id", lambda: round_id)
    return learn(answers="defaults")


def test_rollback_follows_apply_order_not_a_clock_set_back(artibot_home: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    before = state_bytes(artibot_home)
    collect_many(mixed(100, seed=3))
    a = _learn_as(monkeypatch, "r20260110-120000000000-aaaa")
    collect_many(mixed(100, seed=4, start=500))
    b = _learn_as(monkeypatch, "r20260108-120000000000-bbbb")  # learned while the clock was 2 days behind
    assert a.status == b.status == "applied"
    result = rollback(a.round_id)
    assert result["undone"] == [a.round_id, b.round_id]
    after = state_bytes(artibot_home)
    assert after["thresholds.json"] == before["thresholds.json"]
    from artibot.store import archive

    assert len(load_experiences()) == 200 and not archive.live_paths(Home(artibot_home))
    with pytest.raises(ReviewError, match="was rolled back at .*nothing to roll back"):
        rollback(b.round_id)  # undone with A: it must not bring A's thresholds back


def test_rollback_of_the_later_round_keeps_the_earlier(artibot_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    collect_many(mixed(100, seed=3))
    _learn_as(monkeypatch, "r20260110-120000000000-aaaa")
    after_a = state_bytes(artibot_home)
    collect_many(mixed(100, seed=4, start=500))
    b = _learn_as(monkeypatch, "r20260108-120000000000-bbbb")
    assert rollback(b.round_id)["undone"] == [b.round_id]
    assert state_bytes(artibot_home)["thresholds.json"] == after_a["thresholds.json"]


def test_rollback_refuses_when_the_apply_order_is_unknown(artibot_home: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    collect_many(mixed(100, seed=3))
    a = _learn_as(monkeypatch, "r20260110-120000000000-aaaa")
    collect_many(mixed(100, seed=4, start=500))
    _learn_as(monkeypatch, "r20260108-120000000000-bbbb")
    for rid in ("r20260110-120000000000-aaaa", "r20260108-120000000000-bbbb"):
        path = artibot_home / "snapshots" / rid / "manifest.json"
        doc = orjson.loads(path.read_bytes())
        doc["seq"] = 1  # as if one snapshot folder had been copied over another by hand
        path.write_bytes(orjson.dumps(doc))
    before = tree(artibot_home)
    with pytest.raises(ReviewError, match="same sequence number"):
        rollback(a.round_id)
    assert tree(artibot_home) == before


def test_snapshots_without_a_sequence_number_follow_the_learning_log(artibot_home: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    collect_many(mixed(100, seed=3))
    a = _learn_as(monkeypatch, "r20260110-120000000000-aaaa")
    collect_many(mixed(100, seed=4, start=500))
    b = _learn_as(monkeypatch, "r20260108-120000000000-bbbb")
    for rid in (a.round_id, b.round_id):  # taken by an older artibot
        path = artibot_home / "snapshots" / rid / "manifest.json"
        doc = orjson.loads(path.read_bytes())
        del doc["seq"]
        path.write_bytes(orjson.dumps(doc))
    assert rollback(a.round_id)["undone"] == [a.round_id, b.round_id]


def test_rollback_refuses_when_a_snapshot_copy_is_missing(artibot_home: Path) -> None:
    collect_many(mixed(100, seed=3))
    learn(answers="defaults")
    collect_many(mixed(100, seed=4, start=500))
    second = learn(answers="defaults")
    for copy in (artibot_home / "snapshots" / second.round_id).glob("thresholds.json"):
        copy.unlink()
    before = tree(artibot_home)
    with pytest.raises(ReviewError, match="lacks its copy of thresholds.json"):
        rollback(second.round_id)
    assert tree(artibot_home) == before


def test_the_snapshot_folder_is_synced_before_the_round_writes(artibot_home: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from artibot.round import cycle
    from artibot.store.round import snapshots

    events: list[str] = []
    real_sync, real_thresholds = snapshots.fsync_dir, cycle.write_thresholds
    monkeypatch.setattr(snapshots, "fsync_dir", lambda p: (events.append(f"sync {Path(p).name}"), real_sync(p))[1])
    monkeypatch.setattr(cycle, "write_thresholds",
                        lambda *a, **k: (events.append("thresholds"), real_thresholds(*a, **k))[1])
    collect_many(mixed(100, seed=3))
    assert learn(answers="defaults").status == "applied"
    assert events.index("sync snapshots") < events.index("thresholds")


def test_a_rollback_left_half_done_by_an_older_artibot_is_finished_keeping_its_copy(artibot_home: Path) -> None:
    """An artibot before the one commit restored the state files first, then wrote "replaced"
    into the plan: resuming that plan must not copy the (restored) state over the kept one."""
    from artibot.round.rollback import recover_interrupted
    from artibot.store.round import rollback_journal, snapshots
    from artibot.store.round.commit import RoundCommit

    collect_many(mixed(100, seed=1))
    learn(answers="defaults")
    collect_many(mixed(130, seed=2, start=1000))
    before = state_bytes(artibot_home)
    report = learn(answers="defaults")
    after = state_bytes(artibot_home)
    h = Home(artibot_home)
    plan = rollback_journal.plan(h, [report.round_id], "rollback requested")
    del plan["commit"]
    rollback_journal.write(h, {**plan, "replaced": None})
    files = RoundCommit(h)  # the older artibot's first step: state kept aside, then restored
    snapshots.restore(h, report.round_id, files, keep_replaced_in=h.root / plan["replaced"])
    files.run()
    rollback_journal.write(h, plan)
    learned = [n for n in before if n != "daily-experiences.json"]
    assert [state_bytes(artibot_home)[n] for n in learned] == [before[n] for n in learned]
    assert state_bytes(artibot_home)["daily-experiences.json"] != before["daily-experiences.json"]
    assert recover_interrupted(h) == [report.round_id]
    assert state_bytes(artibot_home) == before and rollback_journal.read(h) is None
    kept = h.root / plan["replaced"]
    assert (kept / "thresholds.json").read_bytes() == after["thresholds.json"] != before["thresholds.json"]
    assert [e["type"] for e in history()][-1] == "rollback"
    assert snapshots.load_manifest(h, report.round_id).status == "rolled-back"
