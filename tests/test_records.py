"""The typed records at the seam between the cycle and the store: one codec each, and a
damaged file is named (never read as empty, never rewritten)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from artibot import learn
from artibot.collector import collect_many
from artibot.errors import CorruptFileError
from artibot.round.review import pending_questions
from artibot.learned_router import Router
from artibot.reports.status import status
from artibot.store.round import rounds
from artibot.store.round import snapshots
from artibot.store.home import Home
from artibot.store.round.rounds import AnswerLog, RoundContext
from artibot.store.learned.thresholds_file import load_thresholds, read_thresholds
from artibot.hookpath.router.thresholds import Thresholds
from tests.factories import mixed


def test_one_reader_of_thresholds_for_cycle_router_and_status(home: Home) -> None:
    assert read_thresholds(home) is None and load_thresholds(home, 0.4) == Thresholds(0.4)
    collect_many(mixed(100))
    learn(answers="defaults")
    learned = read_thresholds(home)
    assert learned is not None and learned.domains and learned != Thresholds(0.4)
    policy = Router.load(home).policy
    assert policy.default_threshold == learned.default and policy.domain_thresholds == learned.domains
    assert status()["thresholds"] == learned.to_json()


def test_learned_exploration_rates_reach_the_router_and_older_files_read_without_them(home: Home) -> None:
    home.ensure()
    home.thresholds.write_bytes(orjson.dumps({"schema_version": 1, "default": 0.4, "domains": {"law": 0.3}}))
    old = read_thresholds(home)
    assert old is not None and old.exploration == {} and "exploration" not in old.to_json()
    assert Router.load(home).policy.far_exploration("law") == 0.01  # the configured domainExploration
    home.thresholds.write_bytes(orjson.dumps({"schema_version": 1, "default": 0.4, "domains": {"law": 0.3},
                                              "exploration": {"law": 0.12}}))
    assert Router.load(home).policy.far_exploration("law") == 0.12
    assert read_thresholds(home) == Thresholds(0.4, {"law": 0.3}, {"law": 0.12})


@pytest.mark.parametrize("doc, problem", [({"default": 2, "domains": {}}, "thresholds.default"),
                                          ({"default": 0.4, "domains": {"law": "high"}}, "thresholds.domains.law"),
                                          ({"default": 0.4}, "thresholds.domains"),
                                          ({"default": 0.4, "domains": {}, "exploration": {"law": 2}},
                                           "thresholds.exploration.law")])
def test_a_damaged_thresholds_file_is_named_everywhere(home: Home, doc: dict, problem: str) -> None:
    home.ensure()
    data = orjson.dumps({"schema_version": 1, **doc})
    home.thresholds.write_bytes(data)
    for read in (lambda: read_thresholds(home), lambda: Router.load(home), lambda: status()):
        with pytest.raises(CorruptFileError, match=problem) as info:
            read()
        assert "thresholds.json" in str(info.value)
    assert home.thresholds.read_bytes() == data


def test_pending_round_round_trips_and_a_bad_answer_is_named(home: Home) -> None:
    collect_many(mixed(100))
    assert learn(answers="defer").status == "deferred"
    pending = rounds.load_pending(home)
    assert pending is not None and not pending.answers.records
    assert pending.context == RoundContext.from_json(pending.context.to_json())
    assert pending_questions(home)["round_id"] == pending.round_id
    doc = orjson.loads(home.pending_review.read_bytes())
    doc["answers"] = [{"checkpoint": 7, "answer": "accept"}]
    home.pending_review.write_bytes(orjson.dumps(doc))
    with pytest.raises(CorruptFileError, match="pending-review.json.*checkpoint"):
        pending_questions(home)


def test_answer_log_is_found_by_checkpoint() -> None:
    answers = AnswerLog()
    answers.add(1, "accept", "api", "t0")
    answers.add(3, {"p:a": "hold"}, "api", "t1")
    assert answers.answered(1) and not answers.answered(2)
    assert answers.answer(3) == {"p:a": "hold"} and answers.answer(2) is None
    assert AnswerLog.from_json(answers.to_json(), Path("x")) == answers


def test_a_manifest_with_an_unknown_status_is_named(home: Home) -> None:
    snapshots.take(home.ensure(), "r1")
    assert snapshots.load_manifest(home, "r1").status == "applying"
    snapshots.mark(home, "r1", "applied", note="x")
    manifest = snapshots.load_manifest(home, "r1")
    assert (manifest.status, manifest.extra) == ("applied", {"note": "x"})
    path = snapshots.snapshot_dir(home, "r1") / snapshots.MANIFEST
    path.write_bytes(path.read_bytes().replace(b'"applied"', b'"done"'))
    with pytest.raises(CorruptFileError, match='"status" must be one of applying, applied'):
        snapshots.read_manifest(home, "r1")
