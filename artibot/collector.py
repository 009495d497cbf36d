"""Step 1 of the cycle: collect experiences (validate, anonymize, append).

This module is on the hook path: it imports no numpy, scipy, typer or rich.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping

from artibot.errors import ValidationError
from artibot.experience import validate
from artibot.privacy import anonymize
from artibot.store.experiences import ExperienceLog
from artibot.store.home import Home

HomeArg = str | os.PathLike[str] | Home | None


def as_home(home: HomeArg) -> Home:
    return home if isinstance(home, Home) else Home.resolve(home)


def prepare(record: Mapping[str, Any]) -> dict[str, Any]:
    """A validated, anonymized copy of ``record``, ready to store (raises ValidationError)."""
    out = validate(record)
    out["input"] = anonymize(out["input"])
    return out


def prepare_many(records: Iterable[Any], *, label: str = "record") -> list[dict[str, Any]]:
    """Validate every record first; any problem rejects the whole batch, naming the record."""
    prepared: list[dict[str, Any]] = []
    problems: list[str] = []
    seen: set[str] = set()
    for i, record in enumerate(records, start=1):
        try:
            item = prepare(record)
        except ValidationError as exc:
            problems.extend(f"{label} {i}: {p}" for p in exc.problems)
            continue
        if item["id"] in seen:
            problems.append(f"{label} {i}: id {item['id']!r} appears twice in this batch")
        seen.add(item["id"])
        prepared.append(item)
    if problems:
        raise ValidationError(problems)
    return prepared


def collect(record: Mapping[str, Any], *, home: HomeArg = None) -> dict[str, Any]:
    """Validate, anonymize and append one experience; return the stored record.

    >>> import tempfile
    >>> stored = collect({"input": "fix typo in a@b.io's README", "domain": "docs",
    ...                   "complexity": 0.1, "routed_to": "system1", "outcome": "success",
    ...                   "latency_ms": 12, "confidence": 0.9}, home=tempfile.mkdtemp())
    >>> stored["input"]
    "fix typo in <EMAIL>'s README"
    """
    stored = prepare(record)
    ExperienceLog(as_home(home)).append([stored])
    return stored


def collect_many(records: Iterable[Any], *, home: HomeArg = None, label: str = "record") -> list[dict[str, Any]]:
    """Append a batch all-or-nothing: if any record is invalid, nothing is written."""
    prepared = prepare_many(records, label=label)
    ExperienceLog(as_home(home)).append(prepared)
    return prepared


def load_experiences(*, home: HomeArg = None) -> list[dict[str, Any]]:
    """Every unprocessed experience, in the order collected."""
    return ExperienceLog(as_home(home)).read()
