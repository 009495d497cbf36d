"""JSON state documents: schema versions, named migrations, strict reads, atomic writes.

Every state file is a JSON object with ``"schema_version"``. A file that does not
parse, is not an object, or carries a version we do not know is never treated as
empty and never overwritten: :func:`read_document` raises
:class:`~artibot.errors.CorruptFileError` naming the file and the problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

import orjson

from artibot.errors import CorruptFileError
from artibot.messages import Message
from artibot.store.fs import atomic_write_bytes, read_bytes

if TYPE_CHECKING:
    from artibot.store.round.commit import RoundCommit

# kind -> the version this artibot writes
CURRENT_VERSION: dict[str, int] = {
    "thresholds": 1,
    "system1-patterns": 1,
    "pattern-stats": 1,
    "learner-state": 1,
    "learning-log": 1,
    "transfer-log": 1,
    "pending-review": 1,
    "archive": 1,
    "snapshot": 1,
    "session": 1,
    "pending-decision": 1,
    "domains": 1,
    "team-membership": 1,
    "team-pushed": 1,
    "team-state": 1,
}

Migration = Callable[[dict[str, Any]], dict[str, Any]]
# (kind, from_version) -> a function returning the document at from_version + 1.
# Add an entry here (and a test) whenever a file's shape changes; reads migrate in memory,
# the next write stores the current version.
MIGRATIONS: dict[tuple[str, int], Migration] = {}


def parse_document(data: bytes, path: Path, kind: str) -> dict[str, Any]:
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise CorruptFileError(path, Message("json.invalid", reason=str(exc))) from None
    if not isinstance(doc, dict):
        raise CorruptFileError(path, f"expected a JSON object, found {type(doc).__name__}")
    version = doc.get("schema_version")
    current = CURRENT_VERSION[kind]
    if not isinstance(version, int) or isinstance(version, bool):
        raise CorruptFileError(path, f'missing or invalid "schema_version" (expected {current})')
    if version > current:
        raise CorruptFileError(
            path, f"schema_version {version} is newer than this artibot understands ({current}); upgrade artibot")
    while version < current:
        step = MIGRATIONS.get((kind, version))
        if step is None:
            raise CorruptFileError(path, f"schema_version {version} has no migration to {current}")
        doc = step(doc)
        version = doc["schema_version"]
    out: dict[str, Any] = doc
    return out


def read_document(path: Path, kind: str, *, require: Callable[[dict[str, Any]], str | None] | None = None
                  ) -> dict[str, Any] | None:
    """The parsed document, or None when the file does not exist.

    ``require`` returns a problem string when the document's shape is wrong.
    """
    data = read_bytes(path)
    if data is None:
        return None
    doc = parse_document(data, path, kind)
    if require is not None:
        problem = require(doc)
        if problem:
            raise CorruptFileError(path, problem)
    return doc


def dump_document(doc: Mapping[str, Any], kind: str) -> bytes:
    body = {"schema_version": CURRENT_VERSION[kind]}
    body.update((k, v) for k, v in doc.items() if k != "schema_version")
    return orjson.dumps(body, option=orjson.OPT_INDENT_2) + b"\n"


def write_document(path: Path, doc: Mapping[str, Any], kind: str, *, into: RoundCommit | None = None) -> bytes:
    """Write ``doc`` atomically with the current schema version; returns the bytes written.
    ``into``: staged in that round's commit instead, written when it commits."""
    data = dump_document(doc, kind)
    if into is not None:
        into.write(path, data)
    else:
        atomic_write_bytes(path, data)
    return data


def list_field(name: str) -> Callable[[dict[str, Any]], str | None]:
    """A ``require`` check: ``doc[name]`` is a list."""

    def check(doc: dict[str, Any]) -> str | None:
        if not isinstance(doc.get(name), list):
            return f'"{name}" must be a list'
        return None

    return check
