"""A whole round: batches, remainder and flush, proposal contents and persistence."""

from __future__ import annotations

import json

import orjson
import pytest

from artibot.learning import (
    DomainStep,
    GroupResult,
    PatternStats,
    RoundProposal,
    Thresholds,
    TransferDecision,
    frame_from_records,
    propose_round,
)

from tests.factories import cycling, settings


def test_remainder_waits_and_flush_processes_it() -> None:
    records = cycling(25)
    waiting = propose_round(frame_from_records(records), Thresholds(0.4), {}, settings(batch=10))
    assert len(waiting.batches) == 2 and waiting.remainder == 5
    assert waiting.processed_ids == tuple(r["id"] for r in records[:20])
    flushed = propose_round(frame_from_records(records), Thresholds(0.4), {}, settings(batch=10), flush=True)
    assert len(flushed.batches) == 3 and flushed.remainder == 0
    assert flushed.processed_ids == tuple(r["id"] for r in records)
    assert sum(g.size for g in flushed.batches[2]) == 5
    assert flushed.params.numbers["flush"] is True and waiting.params.numbers["batch_size"] == 10


def test_flush_of_a_single_record_is_one_one_sided_group() -> None:
    p = propose_round(frame_from_records(cycling(21)), Thresholds(0.4), {}, settings(batch=10), flush=True)
    (last,) = p.batches[2]
    assert last.size == 1 and last.one_sided and all(s.batch < 2 for s in p.steps)


def test_fewer_records_than_a_batch_process_nothing() -> None:
    p = propose_round(frame_from_records(cycling(9)), Thresholds(0.4, {"api": 0.3}), {}, settings(batch=10))
    assert (len(p.batches), len(p.steps), p.processed_ids, p.remainder) == (0, 0, (), 9)
    assert p.new == p.old and p.decisions == () and p.patterns_after == {}
    empty = propose_round(frame_from_records([]), Thresholds(0.4), {}, settings())
    assert empty.remainder == 0 and empty.to_json()["batches"] == []


def test_processed_in_timestamp_order_whatever_the_input_order() -> None:
    records = cycling(20)
    shuffled = records[7:] + records[:7]
    p = propose_round(frame_from_records(shuffled), Thresholds(0.4), {}, settings(batch=10))
    assert p.processed_ids == tuple(r["id"] for r in records)


def test_proposal_round_trips_through_json_exactly() -> None:
    s = settings(batch=10)
    first = propose_round(frame_from_records(cycling(40)), Thresholds(0.4, {"web": 0.45}), {}, s)
    second = propose_round(frame_from_records(cycling(35, start=40)), first.new, first.patterns_after, s,
                           flush=True)
    for p in (first, second):
        data = p.to_json()
        assert list(data) == ["mode", "params", "old", "new", "processed_ids", "remainder", "batches",
                              "steps", "patterns_before", "patterns_after", "decisions"]
        for text in (orjson.dumps(data), json.dumps(data)):
            back = RoundProposal.from_json(orjson.loads(text))
            assert back == p
            assert back.to_json() == data
            assert back.net_changes() == p.net_changes()
            assert list(back.batches) == list(p.batches) and tuple(back.steps) == tuple(p.steps)
    assert second.decisions and second.patterns_before


def test_proposal_compares_equal_to_plain_tuples() -> None:
    p = propose_round(frame_from_records(cycling(20)), Thresholds(0.4), {}, settings(batch=10))
    rebuilt = RoundProposal(p.mode, tuple(tuple(b) for b in p.batches), tuple(p.steps), p.old, p.new,
                            p.processed_ids, p.remainder, p.patterns_before, p.patterns_after, p.decisions,
                            p.params)
    assert rebuilt == p
    assert p.batches == tuple(tuple(b) for b in p.batches)
    assert p.steps[0] == tuple(p.steps)[0] and p.steps[-1] == list(p.steps)[-1]
    assert p.groups[0] == p.batches[0][0] and len(p.groups) == sum(len(b) for b in p.batches)


@pytest.mark.parametrize("value", [
    Thresholds(0.4, {"b": 0.2, "a": 0.35}),
    GroupResult(0, "api", 5, 0.1, 0.5, 2, 1, 3, 3, 0.5, 1.0, 0.5),
    GroupResult(1, "web", 1, 0.2, 0.2, 0, 0, 1, 0, None, 0.0, None),
    DomainStep(0, "*", 0.25, 0.0125, 0.0125, 0.4, 0.3875, False, False),
    PatternStats("k", "active", 1, 2, 3, 1, 1, 2, 1, 2.4, "2026-01-01T00:00:00+00:00", None),
    TransferDecision("k", "hold", "promotion streak 1 of 3", PatternStats("k"), "hold_streak"),
])
def test_every_persisted_type_round_trips(value) -> None:
    data = value.to_json()
    assert type(value).from_json(orjson.loads(orjson.dumps(data))) == value


def test_from_json_names_what_is_wrong() -> None:
    good = PatternStats("k").to_json()
    with pytest.raises(ValueError, match="missing field 'n'"):
        PatternStats.from_json({k: v for k, v in good.items() if k != "n"})
    with pytest.raises(ValueError, match="promotion_streak must be a whole number"):
        PatternStats.from_json({**good, "promotion_streak": "3"})
    with pytest.raises(ValueError, match="status must be one of"):
        PatternStats.from_json({**good, "status": "cached"})
    with pytest.raises(ValueError, match="thresholds.default must be a finite number"):
        Thresholds.from_json({"default": True, "domains": {}})
    with pytest.raises(ValueError, match="must be a finite number"):
        Thresholds.from_json({"default": 0.4, "domains": {"a": float("nan")}})
    p = propose_round(frame_from_records(cycling(10)), Thresholds(0.4), {}, settings(batch=10)).to_json()
    p["batches"][0][0]["advantage"] = "high"
    with pytest.raises(ValueError, match="advantage must be a finite number or null"):
        RoundProposal.from_json(p)
    assert Thresholds.from_json({"default": 1, "domains": {"a": 0}}) == Thresholds(1.0, {"a": 0.0})


def test_net_changes_lists_default_first_and_new_domains_from_the_old_default() -> None:
    p = propose_round(frame_from_records(cycling(40)), Thresholds(0.5, {"web": 0.45}), {}, settings(batch=10))
    changes = p.net_changes()
    assert list(changes) == ["*", "api", "web"]
    assert changes["api"][0] == 0.5 and changes["web"][0] == 0.45
    assert changes["api"][1] == p.new.domains["api"]
