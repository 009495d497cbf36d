"""The bytes of ``daily-experiences.json``: one record per line, the comma leading, so that
an append never rewrites what is already there::

    [
    {"id": "a", ...}
    ,{"id": "b", ...}
    ]

Encoding, rendering and parsing live here, with the check of each record *where it is
read* (:func:`check_records`): a record hand-edited or written by an old tool must stop
the learner with its line and field named, never with a traceback.
"""

from __future__ import annotations

from itertools import repeat
from operator import contains
from pathlib import Path
from typing import Any, Mapping, Sequence

import orjson

from artibot.errors import CorruptFileError, ValidationError
from artibot.messages import Message

HEADER = b"[\n"
FOOTER = b"]\n"
EMPTY = HEADER + FOOTER
TAIL = b"\n]\n"
"""How an intact, non-empty log ends."""


def encode(record: Mapping[str, Any]) -> bytes:
    """One record as a single JSON line (orjson escapes every newline inside strings)."""
    return orjson.dumps(record)


def render(records: Sequence[Mapping[str, Any]]) -> bytes:
    """The log layout for ``records`` (used for rewrites; appends never call it)."""
    return render_lines([encode(r) for r in records])


def render_lines(lines: Sequence[Any]) -> bytes:
    """The log layout for already-encoded record lines (no leading comma, no newline)."""
    if not lines:
        return EMPTY
    return b"".join([HEADER, *joined(lines), b"\n", FOOTER])


def joined(parts: Sequence[Any]) -> list[Any]:
    """``parts`` with ``\\n,`` between them, ready for one ``b"".join``."""
    out: list[Any] = []
    for i, part in enumerate(parts):
        if i:
            out.append(b"\n,")
        out.append(part)
    return out


def append_payload(lines: Sequence[bytes], empty: bool) -> bytes:
    """What an append writes over the closing ``]\\n``: its lines, then the bracket again."""
    return b"".join((b"" if empty else b",", b"\n,".join(lines), b"\n", FOOTER))


def is_intact(data: bytes | memoryview) -> bool:
    """Whether ``data`` is a complete log in this layout's frame (header and closing bracket)."""
    return bytes(data[:2]) == HEADER and bytes(data[-3:]) == TAIL  # the empty log "[\n]\n" ends so too


def record_lines(data: bytes) -> list[bytes]:
    """Every record's raw JSON line (no leading comma) of an intact log's bytes."""
    body = data[len(HEADER):-len(FOOTER) - 1]  # without the last record's newline
    if not body or not is_intact(data):
        return []
    # Records never hold a raw newline, so "\n," only occurs between two records.
    return body.split(b"\n,")


def record_on(line: bytes | memoryview) -> dict[str, Any] | None:
    """The record on one log line (leading comma allowed), or None."""
    body = line[1:] if line[:1] == b"," else line
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def parse_records(data: bytes | memoryview, path: Path) -> list[dict[str, Any]]:
    """The records of a complete log file's bytes, each checked (:func:`check_records`)."""
    try:
        records = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise CorruptFileError(path, Message("json.invalid", reason=str(exc))) from None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise CorruptFileError(path, "expected a JSON array of objects")
    check_records(records, path)
    return records


def record_problems(record: Mapping[str, Any]) -> list[str]:
    """What is wrong with a stored record (empty when nothing), in English: :func:`said_record_problems`."""
    return [str(p) for p in said_record_problems(record)]


def said_record_problems(record: Mapping[str, Any]) -> list[str | Message]:
    """What is wrong with a stored record (empty when nothing): the schema, and the two fields
    assigned at collection, which a stored record must carry; a message each."""
    from artibot.experience import validate  # the schema; imported late (experience imports nothing of store)

    problems: list[str | Message] = [Message("record.required", field=name) for name in ("id", "timestamp")
                                     if record.get(name) is None]
    try:
        validate(record, assign=False)
    except ValidationError as exc:
        problems.extend(exc.said_problems)
    return problems


def check_records(records: list[dict[str, Any]], path: Path, first_line: int = 2) -> None:
    """Raise :class:`CorruptFileError` naming the line and field of the first bad record;
    records of an older schema version are migrated in place (:func:`upgrade`).

    Record ``i`` sits on line ``first_line + i`` of the file (line 1 is the ``[``).
    """
    for i, record in enumerate(records):
        problems = said_record_problems(record)
        if problems:
            raise _bad_record(path, first_line + i, record, problems)
    upgrade(records, path, first_line)


def _bad_record(path: Path, line: int, record: Mapping[str, Any], problems: Sequence[str | Message]
                ) -> CorruptFileError:
    rid = record.get("id")
    return CorruptFileError(path, Message("record.stored_bad", line=line, id=repr(rid), problems=tuple(problems))
                            if isinstance(rid, str) else
                            Message("record.stored_bad_anon", line=line, problems=tuple(problems)))


def upgrade(records: list[dict[str, Any]], path: Path, first_line: int = 2) -> None:
    """Each record of an older schema version replaced by its migration to the current one
    (in memory: the file keeps what was written until a round archives it); a record of a
    newer version, or one no migration reaches, raises :class:`CorruptFileError` naming its line.

    A record without ``schema_version`` is at version 1. Every reader of the log's records
    passes through here: :func:`parse_records` and the learner's chunks alike.
    """
    from artibot.experience import SCHEMA_VERSION, migrate, version_of  # the schema; imported late, as above

    unversioned_is_current = SCHEMA_VERSION == 1
    if unversioned_is_current and not any(map(contains, records, repeat("schema_version"))):
        return  # the common case, checked in C: the learner reads a million records through here
    for i, record in enumerate(records):
        version = record.get("schema_version")
        if (unversioned_is_current if version is None else version == SCHEMA_VERSION and type(version) is int):
            continue
        new = migrate(record)
        if version_of(new) != SCHEMA_VERSION:
            version = version_of(record)
            problem = (Message("record.version_newer", version=version, current=SCHEMA_VERSION)
                       if type(version) is int and version > SCHEMA_VERSION
                       else Message("record.version", current=SCHEMA_VERSION, value=repr(version)))
            raise _bad_record(path, first_line + i, record, [problem])
        records[i] = new
