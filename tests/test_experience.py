"""The experience record: every way a record can be wrong is named by its field."""

from __future__ import annotations

import math
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artibot.errors import ExitCode, ValidationError
from artibot.experience import FIELDS, validate

VALID = {
    "input": "add a dark-mode toggle to the settings page",
    "domain": "frontend",
    "complexity": 0.35,
    "routed_to": "system1",
    "outcome": "success",
    "latency_ms": 120.5,
    "confidence": 0.82,
}

MISSING = object()

# (field, bad value or MISSING, text the message must carry besides the field name)
INVALID = [
    *[(name, MISSING, "required") for name in
      ("input", "domain", "complexity", "routed_to", "outcome", "latency_ms", "confidence")],
    # wrong types
    ("input", 42, "string"),
    ("input", ["a"], "string"),
    ("domain", 7, "non-empty string"),
    ("domain", "", "non-empty string"),
    ("domain", "x" * 65, "at most 64"),
    ("complexity", "0.5", "from 0 to 1"),
    ("confidence", [0.5], "from 0 to 1"),
    ("latency_ms", "fast", ">= 0"),
    ("session_id", 12, "string or null"),
    ("pattern", 5, "string"),
    ("pattern", "", "non-empty"),
    ("threshold", "0.4", "from 0 to 1"),
    ("propensity", "1", "(0, 1]"),
    ("id", 5, "non-empty string"),
    ("id", "", "non-empty string"),
    ("id", "x" * 201, "200"),
    ("timestamp", 1738315800, "ISO 8601"),
    # out of range
    ("complexity", 1.5, "from 0 to 1"),
    ("complexity", -0.01, "from 0 to 1"),
    ("confidence", 1.0001, "from 0 to 1"),
    ("latency_ms", -1, ">= 0"),
    ("threshold", 2, "from 0 to 1"),
    ("propensity", 0, "(0, 1]"),
    ("propensity", 1.5, "(0, 1]"),
    # bad enums
    ("routed_to", "system3", "'system1', 'system2'"),
    ("routed_to", "System1", "'system1', 'system2'"),
    ("outcome", "ok", "'success', 'escalated', 'failed'"),
    ("outcome", True, "'success', 'escalated', 'failed'"),
    # timestamps
    ("timestamp", "2026-01-31T09:30:00", "timezone"),
    ("timestamp", "2026-01-31", "timezone"),
    ("timestamp", "yesterday", "ISO 8601"),
    ("timestamp", "", "ISO 8601"),
    # a bool is not a number
    ("complexity", True, "from 0 to 1"),
    ("confidence", False, "from 0 to 1"),
    ("latency_ms", True, ">= 0"),
    ("threshold", True, "from 0 to 1"),
    ("propensity", True, "(0, 1]"),
    # not finite
    ("complexity", math.nan, "from 0 to 1"),
    ("confidence", math.inf, "from 0 to 1"),
    ("latency_ms", math.nan, ">= 0"),
    ("latency_ms", math.inf, ">= 0"),
    ("threshold", -math.inf, "from 0 to 1"),
    # not storable as JSON exactly
    ("latency_ms", 2**70, "64 bits"),
    ("input", "lone \ud800 surrogate", "Unicode"),
    ("notes", math.nan, "finite"),
    ("notes", {"deep": [1, math.inf]}, "finite"),
    ("notes", 2**64, "64 bits"),
    ("notes", {1, 2}, "JSON data"),
    ("notes", datetime(2026, 1, 1), "JSON data"),
    ("notes", {3: "x"}, "not a string"),
]


def _ids(case: tuple) -> str:
    field, value, _ = case
    shown = "missing" if value is MISSING else repr(value)[:30]
    return f"{field}={shown}"


@pytest.mark.parametrize("field,value,allowed", INVALID, ids=[_ids(c) for c in INVALID])
def test_invalid_field_is_rejected_with_one_message_naming_it(field, value, allowed):
    record = dict(VALID)
    if value is MISSING:
        record.pop(field)
    else:
        record[field] = value
    with pytest.raises(ValidationError) as info:
        validate(record)
    problems = info.value.problems
    assert len(problems) == 1, problems
    assert problems[0].startswith(field), problems
    assert allowed in problems[0]
    assert "nothing was written" in str(info.value)
    assert info.value.exit_code == ExitCode.USAGE


def test_every_problem_is_reported_at_once():
    record = {"input": 3, "complexity": 7, "routed_to": "s1", "outcome": "meh", "latency_ms": -2,
              "confidence": None}
    with pytest.raises(ValidationError) as info:
        validate(record)
    named = {p.split()[0] for p in info.value.problems}
    assert named == {"input", "domain", "complexity", "routed_to", "outcome", "latency_ms", "confidence"}


@pytest.mark.parametrize("thing", [None, [], "record", 3, ["input", "x"]])
def test_a_record_must_be_an_object(thing):
    with pytest.raises(ValidationError, match="JSON object"):
        validate(thing)


def test_id_and_timestamp_are_assigned_and_optional_fields_default_to_null():
    out = validate(VALID)
    assert out["id"].startswith("exp_") and len(out["id"]) > 10
    assert datetime.fromisoformat(out["timestamp"]).tzinfo is not None
    for name in ("session_id", "pattern", "threshold", "propensity"):
        assert out[name] is None
    assert set(FIELDS) <= set(out)


def test_ids_are_unique():
    assert len({validate(VALID)["id"] for _ in range(2000)}) == 2000


def test_given_id_and_timestamp_are_kept():
    out = validate({**VALID, "id": "mine-1", "timestamp": "2026-01-31T09:30:00Z"})
    assert out["id"] == "mine-1" and out["timestamp"] == "2026-01-31T09:30:00Z"


def test_assign_false_leaves_them_absent():
    out = validate(VALID, assign=False)
    assert "id" not in out and "timestamp" not in out


@pytest.mark.parametrize("ts", ["2026-01-31T09:30:00+09:00", "2026-01-31T00:30:00Z",
                                "2026-01-31T00:30:00.123456+00:00", "2026-01-31T00:30:00z"])
def test_timestamps_with_a_timezone_are_accepted(ts):
    assert validate({**VALID, "timestamp": ts})["timestamp"] == ts


def test_unknown_extra_fields_are_kept_as_they_are():
    extra = {"tool": "Edit", "tags": ["a", "ü"], "nested": {"k": [1, 2.5, None, True]}, "n": -3}
    out = validate({**VALID, **extra})
    for key, value in extra.items():
        assert out[key] == value


def test_boundaries_are_inclusive_where_the_table_says_so():
    out = validate({**VALID, "complexity": 0, "confidence": 1, "latency_ms": 0, "threshold": 0.0,
                    "propensity": 1.0})
    assert out["complexity"] == 0 and out["propensity"] == 1.0


def test_the_input_is_not_mutated():
    record = dict(VALID)
    validate(record)
    assert record == VALID


def test_numpy_scalars_become_plain_numbers():
    np = pytest.importorskip("numpy")
    out = validate({**VALID, "complexity": np.float64(0.25), "latency_ms": np.int64(7),
                    "extra": [np.float32(0.5)]})
    assert type(out["complexity"]) is float and type(out["latency_ms"]) is int
    assert type(out["extra"][0]) is float


def test_validation_does_not_cut_the_input():
    # the cut happens after anonymization (collector.prepare): a secret straddling it must be seen whole
    out = validate({**VALID, "input": "a" * 50_000})
    assert out["input"] == "a" * 50_000


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries(
    {"input": st.text(max_size=30), "domain": st.one_of(st.text(max_size=70), st.integers()),
     "complexity": st.one_of(st.floats(allow_nan=True), st.integers(-1, 2), st.booleans()),
     "confidence": st.floats(-0.5, 1.5), "routed_to": st.sampled_from(["system1", "system2", "x"]),
     "outcome": st.sampled_from(["success", "escalated", "failed", "nope"]),
     "latency_ms": st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 2**65))},
    optional={"id": st.one_of(st.text(max_size=210), st.integers()), "session_id": st.one_of(st.none(), st.text()),
              "pattern": st.one_of(st.none(), st.text(max_size=210)),
              "threshold": st.one_of(st.none(), st.floats(-1, 2)), "propensity": st.one_of(st.none(), st.floats(-1, 2)),
              "timestamp": st.one_of(st.just("2026-01-31T09:30:00+09:00"), st.just("2026-01-31T09:30:00"),
                                     st.text(max_size=5))}))
def test_the_fast_path_agrees_with_the_full_validation(record):
    """``validate`` checks an ordinary dict inline; a Mapping that is not a dict takes the full
    path: both must accept and reject the same records, with the same result."""
    from types import MappingProxyType

    def outcome(value):
        try:
            return validate(value, assign=False)
        except ValidationError as exc:
            return ("invalid", tuple(exc.problems))

    fast, full = outcome(record), outcome(MappingProxyType(record))
    assert type(fast) is type(full)
    if isinstance(fast, dict):
        assert fast == full and list(fast) == list(full)
