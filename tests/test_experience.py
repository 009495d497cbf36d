"""The experience record: every way a record can be wrong is named by its field."""

from __future__ import annotations

import math
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artibot.errors import ExitCode, ValidationError
from artibot.experience import OUTCOMES, REQUIRED, SYSTEMS, validate
from artibot.shapes import EXPERIENCE_FIELDS, ExperienceRecord

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
    assert {*REQUIRED, "id", "timestamp", "session_id", "pattern", "threshold", "propensity"} <= set(out)


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


_TEXT = st.one_of(st.text(max_size=12), st.none())
_UNIT = st.one_of(st.floats(0, 1), st.sampled_from([0, 1, 0.0, 1.0]))
_BAD_TEXT = st.one_of(st.integers(), st.just("\ud800"), st.just(""), st.booleans(), st.lists(st.text(), max_size=1))
_BAD_NUMBER = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2, 2**65), st.booleans(),
                        st.sampled_from(["0.5", -0.0, 0, 1, 1.0, 2**64 - 1, 2**64]))
_NUMBERS = [0, 1, 0.0, 1.0, -0.0, 0.5, -1e-9, 1.0000001, 2, math.nan, math.inf, -math.inf, True, False, "0.5",
            2**63, 2**64 - 1, 2**64, -(2**63) - 1, None]
_STRINGS = ["", " ", "x", "\ud800", "é", 5, None, True, ["x"], {"k": "v"}]
_BY_CHECK = {  # a declared field's kind of check (RecordField.check) -> (valid draw, bad draw, edges)
    "text": (_TEXT, _BAD_TEXT, _STRINGS),
    "count": (st.one_of(st.none(), st.integers(0, 2**63)), _BAD_NUMBER, _NUMBERS),
    "flag": (st.one_of(st.none(), st.booleans()), st.one_of(st.integers(0, 1), st.just("true"),
                                                             st.floats(allow_nan=True)),
             [True, False, None, 0, 1, "true"]),
    "object": (st.one_of(st.none(), st.dictionaries(st.text(max_size=3), st.integers(0, 9), max_size=2)),
               st.one_of(st.text(max_size=3), st.lists(st.integers(), max_size=2),
                         st.dictionaries(st.text(max_size=3), st.floats(allow_nan=True), max_size=2)),
               [None, {}, {"requests": 1}, {"x": math.nan}, "x", [1]]),
}
_CHECKED = {name: _BY_CHECK[field.check] for name, field in EXPERIENCE_FIELDS.items() if field.check}
VALID_DRAW = {
    "id": st.text(min_size=1, max_size=200).filter(str.strip),
    "timestamp": st.sampled_from(["2026-01-31T09:30:00+09:00", "2026-01-31T00:30:00Z"]),
    "session_id": _TEXT,
    "input": st.text(max_size=30),
    "domain": st.text(min_size=1, max_size=64).filter(str.strip),
    "complexity": _UNIT,
    "routed_to": st.sampled_from(SYSTEMS),
    "outcome": st.sampled_from(OUTCOMES),
    "latency_ms": st.one_of(st.floats(0, 1e9), st.integers(0, 2**63)),
    "confidence": _UNIT,
    "pattern": st.one_of(st.none(), st.text(min_size=1, max_size=200)),
    "threshold": st.one_of(st.none(), _UNIT),
    "propensity": st.one_of(st.none(), st.floats(0.001, 1), st.just(1)),
    "schema_version": st.one_of(st.none(), st.just(1)),
    **{name: valid for name, (valid, _, _) in _CHECKED.items()},
}
"""A valid value for every declared field."""
BAD_DRAW = {
    "id": st.one_of(st.text(max_size=210), st.integers(), st.sampled_from([" ", "i" * 200, "i" * 201])),
    "timestamp": st.one_of(st.just("2026-01-31T09:30:00"), st.text(max_size=5), st.integers()),
    "session_id": _BAD_TEXT, "input": st.one_of(st.none(), _BAD_TEXT),
    "domain": st.one_of(st.none(), st.text(max_size=70), _BAD_TEXT, st.sampled_from(["d" * 64, "d" * 65, " "])),
    "complexity": _BAD_NUMBER, "confidence": _BAD_NUMBER, "latency_ms": _BAD_NUMBER,
    "threshold": _BAD_NUMBER, "propensity": _BAD_NUMBER,
    "routed_to": st.sampled_from(["x", "System1", None, 1]),
    "outcome": st.sampled_from(["nope", "Success", None, True]),
    "pattern": st.one_of(st.text(max_size=210), _BAD_TEXT, st.sampled_from(["p" * 200, "p" * 201])),
    "schema_version": st.sampled_from([0, 2, "1", True, 1.0, -1]),
    **{name: bad for name, (_, bad, _) in _CHECKED.items()},
}
"""A value, often invalid or on a boundary, for every declared field."""
EDGES = {
    "id": [*_STRINGS, "i" * 200, "i" * 201],
    "timestamp": ["2026-01-31T09:30:00+09:00", "2026-01-31T09:30:00", "2026-01-31T00:30:00z", "", "x", 1, None],
    "session_id": _STRINGS, "input": [*_STRINGS, "a" * 50_000],
    "domain": [*_STRINGS, "d" * 64, "d" * 65],
    "complexity": _NUMBERS, "confidence": _NUMBERS, "latency_ms": _NUMBERS, "threshold": _NUMBERS,
    "propensity": _NUMBERS,
    "routed_to": ["system1", "system2", "System1", "x", None, 1],
    "outcome": ["success", "escalated", "failed", "interrupted", "ok", None, True],
    "pattern": [*_STRINGS, "p" * 200, "p" * 201],
    "schema_version": [None, 0, 1, 2, -1, "1", True, 1.0],
    **{name: edges for name, (_, _, edges) in _CHECKED.items()},
}
"""Values on and across the boundary of each declared field's check (a field that names a
kind of check, RecordField.check, gets that kind's values)."""


def test_every_declared_field_is_drawn():
    assert VALID_DRAW.keys() == BAD_DRAW.keys() == EDGES.keys() == EXPERIENCE_FIELDS.keys()


def _both_paths(record):
    """``validate`` on an ordinary dict (the inline fast path) and on a Mapping that is not a
    dict (the full path): the results, or the problems."""
    from types import MappingProxyType

    def outcome(value):
        try:
            return validate(value, assign=False)
        except ValidationError as exc:
            return ("invalid", tuple(exc.problems))

    return outcome(record), outcome(MappingProxyType(record))


@pytest.mark.parametrize("name, value", [(n, v) for n, values in EDGES.items() for v in values],
                         ids=lambda x: repr(x)[:20])
def test_each_field_on_its_edges_is_judged_the_same_by_both_paths(name, value):
    fast, full = _both_paths({**VALID, name: value})
    assert type(fast) is type(full)
    assert fast == full


@st.composite
def records(draw):
    """A valid record (required fields, some optional ones), then up to two declared fields
    replaced by a value drawn to break them: each check of every field is reached."""
    record = {}
    for name, field in EXPERIENCE_FIELDS.items():
        if field.required or draw(st.booleans()):
            record[name] = draw(VALID_DRAW[name])
    names = st.sampled_from(list(EXPERIENCE_FIELDS))
    broken = [] if draw(st.integers(0, 4)) == 0 else [draw(names), *draw(st.lists(names, max_size=1))]
    for name in broken:
        if draw(st.integers(0, 9)) == 0:
            record.pop(name, None)
        else:
            record[name] = draw(BAD_DRAW[name])
    return record


def test_the_typed_record_and_the_field_table_declare_the_same_fields():
    """The TypedDict (what mypy checks) and the table (what the code derives from) agree:
    same names in the same order; a field a caller must give is not NotRequired; the
    enumerations are the validator's."""
    annotations = {k: getattr(v, "__forward_arg__", v) for k, v in ExperienceRecord.__annotations__.items()}
    assert list(annotations) == list(EXPERIENCE_FIELDS)
    for name in REQUIRED:
        assert not annotations[name].startswith("NotRequired"), name
    assert annotations["routed_to"] == f"Literal[{', '.join(f'{s!r}' for s in SYSTEMS)}]"
    assert annotations["outcome"] == f"Literal[{', '.join(f'{s!r}' for s in OUTCOMES)}]"


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_the_fast_path_agrees_with_the_full_validation(record):
    """``validate`` checks an ordinary dict inline; a Mapping that is not a dict takes the full
    path: both must accept and reject the same records, with the same result."""
    fast, full = _both_paths(record)
    assert type(fast) is type(full)
    if isinstance(fast, dict):
        assert fast == full and list(fast) == list(full)
