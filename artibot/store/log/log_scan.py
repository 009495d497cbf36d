"""Classify the bytes of ``daily-experiences.json`` the way the log's own repair would:
intact, in a foreign layout, torn at the end (an interrupted append), or damaged in the
middle; and salvage every complete record line. Reads nothing itself: ``doctor`` passes
the bytes and the journalled offset of the last append.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import orjson

from artibot.messages import Message
from artibot.store.log.log_layout import HEADER


@dataclass(frozen=True)
class LogScan:
    state: Literal["ok", "layout", "torn", "damaged"]
    records: list[dict[str, Any]]
    """Every record the file holds (ok/layout) or every complete record line (salvage)."""
    detail: Message | None = None
    """Where it is torn or damaged (None when it is not)."""


def _record(line: bytes, *, first: bool | None = None) -> dict[str, Any] | None:
    """The record on a log line; with ``first`` also insist on the comma layout."""
    comma = line.startswith(b",")
    if first is not None and comma == first:
        return None
    try:
        value = orjson.loads(line[1:] if comma else line)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _salvage(data: bytes) -> list[dict[str, Any]]:
    """Every line that holds a whole record (an object with a string id), first copy of each id."""
    out, seen = [], set()
    for line in data.split(b"\n"):
        record = _record(line.strip())
        if record is not None and isinstance(record.get("id"), str) and record["id"] not in seen:
            seen.add(record["id"])
            out.append(record)
    return out


def scan_log(data: bytes, journal: int | None = None) -> LogScan:
    """Classify the bytes of ``daily-experiences.json`` the way the log's own repair would."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        doc = None
    if isinstance(doc, list) and all(isinstance(r, dict) for r in doc):
        in_layout = data.startswith(HEADER) and data.endswith(b"\n]\n") and data.count(b"\n") == len(doc) + 2
        return LogScan("ok" if in_layout else "layout", doc)
    if not data.startswith(HEADER):
        return LogScan("damaged", _salvage(data), Message("doctor.detail.no_header"))
    lines = data[len(HEADER):].split(b"\n")
    complete = lines[:-1]
    first_bad = next((i for i, line in enumerate(complete) if _record(line, first=(i == 0)) is None), None)
    where = Message("doctor.detail.bad_line", line=first_bad + 2) if first_bad is not None else \
        Message("doctor.detail.not_array")
    # an append the journal names that is not all there (any of its pages may be missing,
    # whatever the tail looks like): the whole append goes, as the log's own repair does
    if journal is not None and len(HEADER) <= journal <= len(data) and data[journal - 1:journal] == b"\n":
        head = data[len(HEADER):journal].split(b"\n")[:-1]
        if all(_record(line, first=(i == 0)) is not None for i, line in enumerate(head)):
            return LogScan("torn", _salvage(data), Message("doctor.detail.after_append", n=len(data) - journal))
        return LogScan("damaged", _salvage(data), where)
    if data.endswith(b"\n]\n"):  # the appender sees an intact tail here: only a salvage can help
        return LogScan("damaged", _salvage(data), where)
    if first_bad is not None and any(_record(line) is not None for line in complete[first_bad + 1:]):
        return LogScan("damaged", _salvage(data), where)
    keep = len(HEADER) + sum(len(line) + 1 for line in complete[:first_bad])
    return LogScan("torn", _salvage(data), Message("doctor.detail.after_record", n=len(data) - keep))
