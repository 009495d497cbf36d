"""The experience record's schema version is read: older records are migrated where the log
is read, a newer one stops the reader with its line named, new records carry the version."""

from __future__ import annotations

import pytest

from artibot import experience
from artibot.collector import collect
from artibot.errors import CorruptFileError, ValidationError
from artibot.store.log.experiences import ExperienceLog, render
from artibot.store.log.log_read import checked_records
from tests.factories import record


def stored(i: int, **extra) -> dict:
    return {**record(i, id=f"r{i:05d}", timestamp="2026-01-31T09:30:00+09:00", latency_ms=10, confidence=0.8,
                     session_id=None, pattern=None, threshold=None, propensity=None), **extra}


@pytest.fixture
def version_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """A release that renamed ``source`` to ``client`` (version 2), with the migration it adds."""

    def rename(doc: dict) -> dict:
        if "source" in doc:
            doc["client"] = doc.pop("source")
        doc["schema_version"] = 2
        return doc

    monkeypatch.setattr(experience, "SCHEMA_VERSION", 2)
    monkeypatch.setitem(experience.MIGRATIONS, 1, rename)


def test_records_written_before_a_version_change_are_migrated_where_they_are_read(home, version_2) -> None:
    home.ensure()
    data = render([stored(1, source="cli"), stored(2, schema_version=1, source="demo"), stored(3)])
    home.experiences.write_bytes(data)
    log = ExperienceLog(home)
    read = log.read()
    assert [r.get("client") for r in read] == ["cli", "demo", None]
    assert all(r["schema_version"] == 2 and "source" not in r for r in read)
    with log.open_read() as source:  # the learner's path: a run of lines at a time
        assert [r.get("client") for chunk in source.chunks() for r in chunk] == ["cli", "demo", None]
    with log.open_read() as source:
        assert [r["schema_version"] for r in checked_records(source)] == [2, 2, 2]
    assert home.experiences.read_bytes() == data  # migrated in memory only


def test_a_record_collected_after_a_version_change_carries_it(home, version_2) -> None:
    out = collect(record(1, source="cli"), home=home)
    assert out["schema_version"] == 2
    assert ExperienceLog(home).read()[0]["schema_version"] == 2
    assert experience.validate(stored(2, source="cli"))["client"] == "cli"  # the full path migrates too


@pytest.mark.parametrize("version, says", [(2, "newer than this artibot understands (1); upgrade artibot"),
                                           (0, "schema_version must be an integer from 1 to 1"),
                                           ("1", "schema_version must be an integer from 1 to 1")])
def test_a_record_of_an_unknown_version_stops_the_reader_with_its_line(home, version, says) -> None:
    home.ensure()
    data = render([stored(1), stored(2, schema_version=version)])
    home.experiences.write_bytes(data)
    log = ExperienceLog(home)
    with pytest.raises(CorruptFileError, match="line 3") as info:
        log.read()
    assert says in str(info.value)
    with log.open_read() as source, pytest.raises(CorruptFileError, match="line 3") as info:
        list(source.chunks())
    assert says in str(info.value)
    assert home.experiences.read_bytes() == data


def test_collecting_a_record_of_a_newer_version_is_refused(home) -> None:
    with pytest.raises(ValidationError, match="schema_version 2 is newer"):
        collect(record(1, schema_version=2), home=home)
    assert not home.experiences.exists() or ExperienceLog(home).read() == []
