"""The learned state files and logs (SPEC §2), as plain JSON documents.

Readers return None (or an empty default for the logs) only when a file does not
exist; a file that exists but is damaged raises CorruptFileError and is left alone.
Conversions to value types (``Thresholds``, ``PatternStats``) live in the cycle.
"""

from __future__ import annotations

from typing import Any, Mapping

import orjson

from artibot.store.documents import list_field, read_document, write_document
from artibot.store.fs import ensure_dir
from artibot.store.home import Home


def _number_or_none(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_thresholds(doc: dict[str, Any]) -> str | None:
    if not _number_or_none(doc.get("default")) or not 0 <= doc["default"] <= 1:
        return '"default" must be a number from 0 to 1'
    domains = doc.get("domains")
    if not isinstance(domains, dict):
        return '"domains" must be an object'
    for name, value in domains.items():
        if not _number_or_none(value) or not 0 <= value <= 1:
            return f'"domains.{name}" must be a number from 0 to 1'
    return None


def _check_patterns(doc: dict[str, Any]) -> str | None:
    patterns = doc.get("patterns")
    if not isinstance(patterns, list):
        return '"patterns" must be a list'
    for i, item in enumerate(patterns):
        if not isinstance(item, dict) or not isinstance(item.get("key"), str) or not isinstance(item.get("status"), str):
            return f'"patterns[{i}]" must be an object with string "key" and "status"'
    return None


def _check_stats(doc: dict[str, Any]) -> str | None:
    if not isinstance(doc.get("patterns"), dict):
        return '"patterns" must be an object keyed by pattern'
    return None


def _check_pending(doc: dict[str, Any]) -> str | None:
    if not isinstance(doc.get("round_id"), str) or not isinstance(doc.get("proposal"), dict):
        return 'a pending review needs "round_id" and "proposal"'
    return None


# --------------------------------------------------------------------- thresholds
def read_thresholds(home: Home) -> dict[str, Any] | None:
    return read_document(home.thresholds, "thresholds", require=_check_thresholds)


def write_thresholds(home: Home, doc: Mapping[str, Any]) -> None:
    home.ensure()
    write_document(home.thresholds, doc, "thresholds")


# --------------------------------------------------------------------- System 1 cache
def read_system1_patterns(home: Home) -> dict[str, Any] | None:
    return read_document(home.system1_patterns, "system1-patterns", require=_check_patterns)


def write_system1_patterns(home: Home, doc: Mapping[str, Any]) -> None:
    home.ensure()
    write_document(home.system1_patterns, doc, "system1-patterns")


def active_patterns(doc: Mapping[str, Any] | None) -> frozenset[str]:
    if not doc:
        return frozenset()
    return frozenset(p["key"] for p in doc["patterns"] if p.get("status") == "active")


# --------------------------------------------------------------------- pattern statistics
def read_pattern_stats(home: Home) -> dict[str, Any] | None:
    return read_document(home.pattern_stats, "pattern-stats", require=_check_stats)


def write_pattern_stats(home: Home, doc: Mapping[str, Any]) -> None:
    ensure_dir(home.patterns_dir)
    write_document(home.pattern_stats, doc, "pattern-stats")


# --------------------------------------------------------------------- logs
def read_learning_log(home: Home) -> list[dict[str, Any]]:
    doc = read_document(home.learning_log, "learning-log", require=list_field("rounds"))
    return doc["rounds"] if doc else []


def write_learning_log(home: Home, rounds: list[dict[str, Any]]) -> None:
    home.ensure()
    write_document(home.learning_log, {"rounds": [_one_row_per_line(r) for r in rounds]}, "learning-log")


_TABLES = ("groups", "steps")
_ROW = b"\n" + b" " * 10  # where a row of rounds[i].groups.rows starts in the indented file


def _one_row_per_line(entry: Any) -> Any:
    """``entry`` with its group and step tables written one row per line (the same JSON):
    indented like the rest of the file, a round over a million records would spend a line
    on each of its 2.5 million numbers."""
    if not isinstance(entry, dict):
        return entry
    out = entry
    for name in _TABLES:
        table = entry.get(name)
        rows = table.get("rows") if isinstance(table, dict) else None
        if isinstance(rows, (list, tuple)) and rows and {*map(type, rows)} <= {list, tuple}:
            compact = orjson.dumps(rows)[1:-1]
            lines = compact.replace(b"],[", b"]," + _ROW + b"[")
            # Rows are arrays, so "],[" is each boundary between two rows; when a row's strings
            # hold it too (more replacements than boundaries), the table is left as it was.
            if len(lines) - len(compact) == (len(rows) - 1) * len(_ROW):
                if out is entry:
                    out = dict(entry)
                out[name] = {**table, "rows": orjson.Fragment(b"[" + _ROW + lines + b"\n" + b" " * 8 + b"]")}
    return out


def read_transfer_log(home: Home) -> list[dict[str, Any]]:
    doc = read_document(home.transfer_log, "transfer-log", require=list_field("events"))
    return doc["events"] if doc else []


def write_transfer_log(home: Home, events: list[dict[str, Any]]) -> None:
    home.ensure()
    write_document(home.transfer_log, {"events": events}, "transfer-log")


# --------------------------------------------------------------------- pending review
def read_pending(home: Home) -> dict[str, Any] | None:
    return read_document(home.pending_review, "pending-review", require=_check_pending)


def write_pending(home: Home, doc: Mapping[str, Any]) -> None:
    home.ensure()
    write_document(home.pending_review, doc, "pending-review")


def clear_pending(home: Home) -> None:
    if home.pending_review.exists():
        home.pending_review.unlink()
