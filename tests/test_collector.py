"""Collecting experiences: validate, anonymize, append; a batch is all-or-nothing."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from artibot.collector import collect, collect_many, load_experiences
from artibot.errors import ValidationError
from artibot.experience import FIELDS
from artibot.hookpath.privacy import anonymize
from artibot.store.home import Home

VALID = {
    "input": "mail alice@example.com the report",
    "domain": "backend",
    "complexity": 0.6,
    "routed_to": "system2",
    "outcome": "success",
    "latency_ms": 950,
    "confidence": 0.7,
}


def log_bytes(home) -> bytes | None:
    path = Home(home).experiences
    return path.read_bytes() if path.exists() else None


def test_collect_returns_the_stored_record(artibot_home):
    stored = collect({**VALID, "tool": "Bash"})
    assert stored["input"] == "mail <EMAIL> the report"
    assert stored["tool"] == "Bash"
    assert stored["id"] and stored["timestamp"]
    assert load_experiences() == [stored]


def test_secrets_never_reach_the_disk(artibot_home):
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    collect({**VALID, "input": f"use token {secret} and mail bob@corp.io"})
    raw = log_bytes(artibot_home)
    assert secret.encode() not in raw and b"bob@corp.io" not in raw


def test_home_argument_overrides_the_environment(artibot_home, tmp_path):
    other = tmp_path / "other"
    collect(VALID, home=other)
    assert len(load_experiences(home=other)) == 1
    assert load_experiences() == [] and not artibot_home.exists()


def test_loading_from_a_missing_home_creates_nothing(artibot_home):
    assert load_experiences() == []
    assert not artibot_home.exists()


def test_an_invalid_record_writes_nothing(artibot_home):
    collect(VALID)
    before = log_bytes(artibot_home)
    with pytest.raises(ValidationError, match="complexity"):
        collect({**VALID, "complexity": 3})
    assert log_bytes(artibot_home) == before


def test_a_batch_with_one_invalid_record_writes_nothing_and_names_it(artibot_home):
    collect(VALID)
    before = log_bytes(artibot_home)
    batch = [dict(VALID) for _ in range(5)]
    batch[2]["routed_to"] = "system9"
    batch[4].pop("domain")
    with pytest.raises(ValidationError) as info:
        collect_many(batch, label="line")
    assert info.value.problems == [
        "line 3: routed_to must be one of 'system1', 'system2', not 'system9'",
        "line 5: domain is required",
    ]
    assert log_bytes(artibot_home) == before


def test_a_batch_with_a_repeated_id_is_rejected(artibot_home):
    with pytest.raises(ValidationError, match="appears twice"):
        collect_many([{**VALID, "id": "x"}, {**VALID, "id": "x"}])
    assert log_bytes(artibot_home) is None


def test_a_batch_keeps_its_order_and_given_ids(artibot_home):
    batch = [{**VALID, "id": f"r{i}", "timestamp": f"2026-01-0{i + 1}T00:00:00Z"} for i in range(5)]
    stored = collect_many(batch)
    assert [r["id"] for r in load_experiences()] == ["r0", "r1", "r2", "r3", "r4"]
    assert stored == load_experiences()


def test_collect_many_accepts_any_iterable(artibot_home):
    assert len(collect_many(dict(VALID) for _ in range(3))) == 3
    assert len(load_experiences()) == 3


# ------------------------------------------------------------------ generated records
json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
)
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)
extra_key = st.text(min_size=1, max_size=12).filter(lambda k: k not in FIELDS)
unit = st.floats(min_value=0, max_value=1)

VALID_FIELDS = {
    "input": st.text(max_size=300),
    "domain": st.sampled_from(["frontend", "backend", "security", "data", "general", "데이터 분석"]),
    "complexity": unit,
    "routed_to": st.sampled_from(["system1", "system2"]),
    "outcome": st.sampled_from(["success", "escalated", "failed"]),
    "latency_ms": st.one_of(st.integers(0, 10**7), st.floats(min_value=0, max_value=1e7)),
    "confidence": unit,
}
OPTIONAL_FIELDS = {
    "session_id": st.one_of(st.none(), st.text(max_size=20)),
    "pattern": st.one_of(st.none(), st.text(min_size=1, max_size=20)),
    "threshold": st.one_of(st.none(), unit),
    "propensity": st.one_of(st.none(), st.floats(min_value=0, max_value=1, exclude_min=True)),
    "timestamp": st.sampled_from(["2026-01-31T09:30:00+09:00", "2026-02-01T00:00:00Z",
                                  "2026-02-01T00:00:00.5-03:30"]),
    "id": st.text(min_size=1, max_size=40).filter(str.strip),
}
BAD = st.one_of(st.none(), st.booleans(), st.just(math.nan), st.just(math.inf), st.just(2**64),
                st.floats(min_value=-5, max_value=-0.001), st.floats(min_value=1.001, max_value=5),
                st.text(max_size=5), st.lists(st.integers(), max_size=2), st.just("2026-01-31T09:30:00"))


@st.composite
def records(draw):
    """Mostly valid records with extra fields; about one in three has one field broken."""
    record = {name: draw(strategy) for name, strategy in VALID_FIELDS.items()}
    for name, strategy in OPTIONAL_FIELDS.items():
        if draw(st.booleans()):
            record[name] = draw(strategy)
    record.update(draw(st.dictionaries(extra_key, json_value, max_size=4)))
    if draw(st.integers(0, 2)) == 2:  # 0, the simplest draw, keeps the record valid
        field = draw(st.sampled_from([*VALID_FIELDS, *OPTIONAL_FIELDS, "extra"]))
        record[field] = draw(BAD)
    return record


def _same(a, b) -> bool:
    """Exact equality that also tells 1 from 1.0 and True from 1 (a lossy encoding would fail it)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=records())
def test_generated_records_round_trip_or_are_rejected_cleanly(artibot_home, record):
    before = log_bytes(artibot_home)
    try:
        stored = collect(record)
    except ValidationError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
        assert log_bytes(artibot_home) == before
        event("rejected")
        return
    event("stored")
    loaded = load_experiences()[-1]
    assert _same(loaded, stored)
    for key, value in record.items():
        if key == "input":
            assert loaded["input"] == anonymize(value)
        elif key in ("id", "timestamp") and value is None:
            assert isinstance(loaded[key], str) and loaded[key]  # null means "assign one"
        else:
            assert _same(loaded[key], value), key
    assert isinstance(json.loads(log_bytes(artibot_home)), list)


# ------------------------------------------------------------------ privacy of every field
def _valid(**extra):
    return {"input": "fix it", "domain": "backend", "complexity": 0.3, "routed_to": "system1",
            "outcome": "success", "latency_ms": 5, "confidence": 0.9, **extra}


def test_a_secret_straddling_the_cut_is_anonymized_whole():
    from artibot.collector import prepare
    from artibot.experience import MAX_INPUT_CHARS

    secret = "hunter2-Xy9!"
    text = "a" * (MAX_INPUT_CHARS - 26) + f" DB_PASSWORD={secret} and more after the cut"
    stored = prepare(_valid(input=text))["input"]
    assert secret[:5] not in stored and "<PASSWORD>" in stored
    assert stored.endswith(" …[cut]") and len(stored) <= MAX_INPUT_CHARS + len(" …[cut]")


def test_a_huge_input_only_costs_a_window(monkeypatch):
    from artibot.collector import prepare
    from artibot.hookpath.privacy import engine

    seen = []
    real = engine.find_secrets
    monkeypatch.setattr(engine, "find_secrets", lambda text: seen.append(len(text)) or real(text))
    prepare(_valid(input="mail bob@example.com " * 1_000_000))  # ~21 MB
    assert seen and max(seen) <= 20_000 + engine.WINDOW_MARGIN


def test_every_free_text_field_is_anonymized():
    from artibot.collector import prepare

    stored = prepare(_valid(pattern="backend:mail:alice@example.com", session_id="sess-bob@example.com",
                            note={"who": "carol@example.com", "list": ["my password is hunter2", 3]},
                            **{"dave@example.com": "key"}))
    assert stored["pattern"] == "backend:mail:<EMAIL>"
    assert stored["session_id"] == "<EMAIL>"
    assert stored["note"] == {"who": "<EMAIL>", "list": ["my password is <PASSWORD>", 3]}
    assert "<EMAIL>" in stored and "dave@example.com" not in stored
    assert stored["domain"] == "backend" and stored["routed_to"] == "system1"  # schema values stay


def test_a_given_id_already_stored_is_refused_and_nothing_is_written(artibot_home):
    from artibot.collector import collect, collect_many, load_experiences
    from artibot.errors import ValidationError

    collect(_valid(id="x1"))
    with pytest.raises(ValidationError, match="'x1' is already stored"):
        collect(_valid(id="x1"))
    with pytest.raises(ValidationError, match="'x1' is already stored"):
        collect_many([_valid(id="x2"), _valid(id="x1")])
    collect(_valid())  # a generated id is never refused
    assert [r["id"] for r in load_experiences()][:1] == ["x1"] and len(load_experiences()) == 2
