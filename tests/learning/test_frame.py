"""Frame: columns, codes, timestamp parsing and ordering."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from artibot.learning import frame_from_records
from artibot.learning.timestamps import parse_timestamp, parse_timestamps

from tests.factories import rec


def test_columns_codes_and_order() -> None:
    records = [rec(0, "system2", "failed", domain="web", pattern="b", seconds=5, propensity=0.5),
               rec(1, "system1", "escalated", domain="api", pattern=None, seconds=1),
               rec(2, "system1", "success", domain="web", pattern="a", seconds=5)]
    before = copy.deepcopy(records)
    f = frame_from_records(records)
    assert records == before
    assert f.ids == ("r00001", "r00000", "r00002")  # by time; the tie keeps input order
    assert f.domains == ("api", "web") and f.domain.tolist() == [0, 1, 1]
    assert f.patterns == ("a", "b") and f.pattern.tolist() == [-1, 1, 0]
    assert f.system2.tolist() == [False, True, False]
    assert f.outcome.tolist() == [1, 2, 0] and f.success.tolist() == [False, False, True]
    assert np.isnan(f.propensity[0]) and f.propensity[1] == 0.5
    assert f.timestamps[0] == records[1]["timestamp"]
    assert f.ts[1] - f.ts[0] == 4.0
    with pytest.raises(ValueError):
        f.complexity[0] = 1.0
    assert len(f.head(2)) == 2 and f.head(2).domains == f.domains


def test_empty_and_optional_fields_missing() -> None:
    assert len(frame_from_records([])) == 0
    r = rec(0)
    del r["pattern"], r["propensity"]
    f = frame_from_records([r])
    assert f.pattern.tolist() == [-1] and np.isnan(f.propensity[0])


def test_offsets_are_compared_as_instants() -> None:
    a = rec(0, timestamp="2026-01-01T09:00:00+09:00")   # 00:00 UTC
    b = rec(1, timestamp="2025-12-31T23:30:00Z")         # earlier
    c = rec(2, timestamp="2025-12-31T19:15:00.5-05:00")  # 00:15:00.5 UTC
    f = frame_from_records([a, b, c])
    assert f.ids == ("r00001", "r00000", "r00002")


@pytest.mark.parametrize("bad", [{"outcome": "great"}, {"routed_to": "system3"}])
def test_unvalidated_values_are_refused(bad) -> None:
    with pytest.raises(ValueError, match="validated"):
        frame_from_records([rec(0, **bad)])


def test_missing_required_field_is_refused() -> None:
    r = rec(0)
    del r["domain"]
    with pytest.raises(ValueError, match="'domain'"):
        frame_from_records([r])


@pytest.mark.parametrize("text", [
    "2026-01-02T03:04:05Z", "2026-01-02T03:04:05z", "2026-01-02 03:04:05+00:00", "2026-01-02T03:04:05.1Z",
    "2026-01-02T03:04:05,25+01:00", "2026-01-02T03:04:05.123456789-11:30", "2024-02-29T23:59:59.999999+14:00",
    "2026-01-02T03:04Z", "20260102T030405Z", "2026-01-02T03:04:05+0130", "2026-01-02T03:04:05+01:30:15",
    "0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59.999999+00:00",
])
def test_fast_timestamp_parser_matches_fromisoformat(text: str) -> None:
    assert parse_timestamps([text, text[:]]).tolist() == [parse_timestamp(text)] * 2


@pytest.mark.parametrize("text", ["2026-02-30T00:00:00Z", "2026-01-02T24:00:00Z", "2026-01-02T03:04:05",
                                  "2026-13-01T00:00:00+00:00", "2026-01-02T03:04:05.x+00:00"])
def test_invalid_timestamps_raise(text: str) -> None:
    with pytest.raises(ValueError):
        parse_timestamps([text])


moments = st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2400, 1, 1))
offsets = st.integers(-23 * 60 - 59, 23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))


@st.composite
def iso_texts(draw) -> str:
    dt = draw(moments).replace(tzinfo=draw(offsets))
    spec = draw(st.sampled_from(["seconds", "milliseconds", "microseconds", "auto"]))
    text = dt.isoformat(sep=draw(st.sampled_from("T ")), timespec=spec)
    if text.endswith("+00:00") and draw(st.booleans()):
        text = text[:-6] + "Z"
    if spec == "microseconds" and draw(st.booleans()):  # 7-9 fraction digits: truncated like fromisoformat
        text = text[:26] + str(draw(st.integers(0, 999))) + text[26:]
    return text


@hsettings(max_examples=60, deadline=None)
@given(st.lists(iso_texts(), min_size=1, max_size=30))
def test_parser_equals_datetime_timestamp(texts: list[str]) -> None:
    assert parse_timestamps(texts).tolist() == [parse_timestamp(t) for t in texts]
