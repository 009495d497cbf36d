"""The learner reads the experience log as a stream: never the whole file at once, in any
layout on disk, and a round learns exactly what the whole-file read learns."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artibot.round import cycle
from artibot.config import settings_from_mapping
from artibot.experience import validate
from artibot.store.log import log_read
from artibot.store.log.experiences import ExperienceLog, render
from artibot.store.home import Home
from tests.factories import mixed, record

SETTINGS = settings_from_mapping({"learning": {"lifelong": {"batchSize": 20}}})


class _Recorder:
    """Stands in for a module (``os`` or ``orjson``) in ``log_read``, recording sizes."""

    def __init__(self, module: Any, sizes: list[int]):
        self._module, self._sizes = module, sizes

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        if name in ("pread", "read", "readv", "loads"):
            def recorded(*args: Any) -> Any:
                out = value(*args)
                self._sizes.append(len(args[0]) if name == "loads" else len(out) if name != "readv" else out)
                return out
            return recorded
        return value


def _records(n: int, seed: int = 0) -> list[dict[str, Any]]:
    return [validate(r) for r in mixed(n, seed)]


def test_learn_reads_a_log_far_bigger_than_its_runs_a_block_at_a_time(home: Home, monkeypatch) -> None:
    records = _records(3_000)
    data = render(records)
    home.ensure()
    home.experiences.write_bytes(data)
    monkeypatch.setattr(log_read, "CHUNK_BYTES", 2_048)
    monkeypatch.setattr(log_read, "BLOCK", 8_192)
    reads: list[int] = []
    parsed: list[int] = []
    monkeypatch.setattr(log_read, "os", _Recorder(os, reads))
    monkeypatch.setattr(log_read, "orjson", _Recorder(orjson, parsed))

    def whole(*_args: Any) -> Any:
        raise AssertionError("the learner parsed the whole log")

    monkeypatch.setattr(log_read, "parse_records", whole)
    report = cycle.learn(home=home.root, answers="defaults", settings=SETTINGS)

    assert report.status == "applied" and report.processed == 3_000 and report.remainder == 0
    longest = max(len(orjson.dumps(r)) for r in records)
    assert len(data) > 100 * (2_048 + longest)
    assert parsed and max(parsed) <= 2_048 + longest + 2  # one run of lines, never the file
    # each run parsed twice (the frame; the measured costs, also streamed), a few lines checked by id
    assert sum(parsed) < 3 * len(data)
    # the file a block at a time for the parse and the move (and the last 64 KiB once, to check appends)
    assert reads and max(reads) <= 1 << 16 and len(data) > 10 * (1 << 16)
    archived = orjson.loads((home.archive_dir / f"{report.round_id}.json").read_bytes())
    assert [r["id"] for r in archived["records"]] == [r["id"] for r in records]
    assert ExperienceLog(home).read() == []


def _pretty(records: list[dict[str, Any]], newline: bool) -> bytes:
    return json.dumps(records, indent=2).encode() + (b"\n" if newline else b"")


@pytest.mark.parametrize("newline", [True, False], ids=["framed-like-ours", "no-last-newline"])
def test_a_pretty_printed_log_is_relaid_in_bounded_runs_and_learned(home: Home, monkeypatch, newline) -> None:
    records = _records(1_000)
    original = _pretty(records, newline)
    home.ensure()
    home.experiences.write_bytes(original)
    monkeypatch.setattr(log_read, "BLOCK", 4_096)
    monkeypatch.setattr(log_read, "CHUNK_BYTES", 2_048)
    parsed: list[int] = []
    monkeypatch.setattr(log_read, "orjson", _Recorder(orjson, parsed))
    report = cycle.learn(home=home.root, answers="defaults", settings=SETTINGS)
    assert report.status == "applied" and report.processed == 1_000
    assert max(parsed) < len(original) / 20
    [kept] = home.quarantine_dir.glob("*.relaid")
    assert kept.read_bytes() == original  # the other writer's bytes are kept as they were
    archived = orjson.loads((home.archive_dir / f"{report.round_id}.json").read_bytes())
    assert archived["records"] == records


def test_a_damaged_big_log_is_refused_with_the_byte_it_breaks_at(home: Home, monkeypatch) -> None:
    from artibot.errors import CorruptFileError

    lines = render(_records(400)).split(b"\n")
    lines[200] = lines[200][:40]  # a record cut short in the middle
    home.ensure()
    home.experiences.write_bytes(b"\n".join(lines))
    monkeypatch.setattr(log_read, "MAX_RUN", 4_096)  # "big": past what is read whole for the exact message
    monkeypatch.setattr(log_read, "CHUNK_BYTES", 1_024)
    with pytest.raises(CorruptFileError, match="not valid JSON in the records from byte"):
        cycle.learn(home=home.root, answers="defaults", settings=SETTINGS)
    assert home.experiences.read_bytes() == b"\n".join(lines)


# --------------------------------------------------------------------- same round as the whole read
def _whole_read(source: Any, turns: Any = None) -> tuple[None, None, list[dict[str, Any]]]:
    return None, None, cycle._read_whole(source, turns)  # the turns' costs still come from this read


def _round(root: Path, data: bytes, flush: bool, *, whole: bool, monkeypatch) -> dict[str, Any]:
    home = Home(root).ensure()
    home.experiences.write_bytes(data)
    with monkeypatch.context() as m:
        if whole:
            m.setattr(cycle, "_read_frame", _whole_read)
        report = cycle.learn(home=root, answers="defaults", settings=SETTINGS, flush=flush)
    out = {k: v for k, v in report.to_json().items() if k not in ("round_id", "message")}
    out["answers"] = [{k: v for k, v in a.items() if k != "at"} for a in out["answers"]]  # the clock
    out["log"] = home.experiences.read_bytes()
    if report.round_id:
        doc = orjson.loads((home.archive_dir / f"{report.round_id}.json").read_bytes())
        out["archive"] = (doc["positions"], doc["records"])
        out["files"] = {name: (root / name).read_bytes() for name in ("thresholds.json", "patterns/stats.json")}
        for entry in out["files"].values():
            assert entry
        out["files"] = {n: _without_times(orjson.loads(b)) for n, b in out["files"].items()}
    return out


def _without_times(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: _without_times(v) for k, v in doc.items() if k not in ("updated", "round_id", "last_round")}
    if isinstance(doc, list):
        return [_without_times(v) for v in doc]
    return doc


_record = st.builds(
    lambda i, shift, domain, c, system, outcome, pattern: validate(record(
        i, domain=domain, complexity=c, routed_to=system, outcome=outcome, pattern=pattern,
        timestamp=f"2026-01-01T{(i + shift) // 3600 % 24:02d}:{(i + shift) // 60 % 60:02d}:{(i + shift) % 60:02d}+00:00",
        input=f"request {i} }},{{ \"id\": \"fake\" }}\n")),
    st.integers(0, 10**6), st.integers(-30, 30), st.sampled_from(["backend", "frontend", "data"]),
    st.floats(0, 1).map(lambda x: round(x, 3)), st.sampled_from(["system1", "system2"]),
    st.sampled_from(["success", "failed", "escalated", "interrupted"]),
    st.sampled_from([None, "backend:fix:typo", "data:add:row"]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_record, max_size=90, unique_by=lambda r: r["id"]), st.booleans(),
       st.sampled_from(["ours", "pretty", "pretty-framed"]), st.sampled_from([64, 700, 1 << 15]))
def test_a_streamed_round_is_the_round_of_the_whole_read(monkeypatch, records, flush, layout, run) -> None:
    data = render(records) if layout == "ours" else _pretty(records, layout == "pretty-framed")
    monkeypatch.setattr(log_read, "CHUNK_BYTES", run)
    monkeypatch.setattr(log_read, "BLOCK", max(run, 256))
    with tempfile.TemporaryDirectory() as tmp:
        streamed = _round(Path(tmp) / "a", data, flush, whole=False, monkeypatch=monkeypatch)
        whole = _round(Path(tmp) / "b", data, flush, whole=True, monkeypatch=monkeypatch)
    assert streamed == whole
