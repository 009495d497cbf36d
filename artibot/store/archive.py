"""``archive/``: the records a round processed, one document per round — the one module
that writes, reads, lists and retires archives.

* ``archive/<round-id>.json`` is a *live* archive: its records count as processed.
* A rollback *retires* it: renamed ``<round-id>.rolled-back-<hex>.json`` after its
  records went back into the log (kept, never deleted; no longer live).
* Two markers make the two operations that touch both the log and an archive
  restartable (the experience log finishes them under its lock, see ``experiences``):
  ``.move-in-progress.json`` (a round's records moving into an archive) and
  ``.restore-in-progress.json`` (an archive's records going back into the log).

The document: ``{"schema_version", "name", "meta", "positions", "records"}``, where
``positions`` are the records' indices in the log they were cut from, so that a
restore puts each back where it was (byte-equal rollback).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import orjson

from artibot.errors import CorruptFileError, StoreError
from artibot.messages import Message
from artibot.store.documents import CURRENT_VERSION, read_document
from artibot.store.fs import atomic_write_bytes, atomic_write_chunks, check_regular, ensure_dir, fsync_dir, read_bytes
from artibot.store.home import Home

MOVE_MARKER = ".move-in-progress.json"
RESTORE_MARKER = ".restore-in-progress.json"
MARKERS = (MOVE_MARKER, RESTORE_MARKER)
TAIL = b"\n]}\n"
_RETIRED = ".rolled-back-"


def path_of(home: Home, name: str) -> Path:
    return home.archive_dir / f"{name}.json"


def is_live(path: Path) -> bool:
    """A live archive's file name (not a marker, not a retired archive, not a temp file)."""
    name = path.name
    return name.endswith(".json") and not name.startswith(".") and _RETIRED not in name


def live_paths(home: Home) -> list[Path]:
    """Every live archive, oldest round first."""
    folder = home.archive_dir
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if is_live(p))


def head(name: str, meta: Mapping[str, Any] | None, positions: Any) -> bytes:
    """The archive document up to its first record line (the lines follow, then :data:`TAIL`)."""
    return (b'{"schema_version":' + str(CURRENT_VERSION["archive"]).encode()
            + b',"name":' + orjson.dumps(name) + b',"meta":' + orjson.dumps(dict(meta or {}))
            + b',"positions":' + orjson.dumps(positions, option=orjson.OPT_SERIALIZE_NUMPY)
            + b',"records":[\n')


def write(home: Home, name: str, data: Any) -> Path:
    """Write a new archive (never over an existing one)."""
    target = path_of(home, name)
    ensure_dir(home.archive_dir)
    if check_regular(target):
        raise StoreError(Message("archive.exists", path=str(target)))
    if isinstance(data, (bytes, bytearray, memoryview)):
        atomic_write_bytes(target, bytes(data))
    else:  # chunks: the lines copied from the log a block at a time
        atomic_write_chunks(target, data)
    return target


def check(doc: dict[str, Any]) -> str | None:
    """What is wrong with an archive document's shape (None when nothing)."""
    records = doc.get("records")
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        return '"records" must be a list of experience objects'
    return None


def read_path(path: Path) -> dict[str, Any] | None:
    return read_document(path, "archive", require=check)


def read(home: Home, name: str) -> dict[str, Any] | None:
    """The live archive ``name``, or None when there is none (never written, or retired)."""
    return read_path(path_of(home, name))


def records(home: Home) -> Iterator[dict[str, Any]]:
    """Every record of every live archive, oldest round first."""
    for path in live_paths(home):
        doc = read_path(path)
        if doc is not None:
            yield from doc["records"]


def ids(home: Home, *, damaged: list[Path] | None = None) -> Iterator[str]:
    """The id of every record of every live archive. With ``damaged``, a file of ``archive/``
    that is not a readable archive (junk, or damaged: ``doctor`` reports it) is listed there
    and skipped instead of raising."""
    for path in live_paths(home):
        try:
            doc = read_path(path)
        except CorruptFileError:
            if damaged is None:
                raise
            damaged.append(path)
            continue
        for record in doc["records"] if doc is not None else ():
            rid = record.get("id")
            if isinstance(rid, str):
                yield rid


def retired_name(name: str) -> str:
    return f"{name}{_RETIRED}{os.urandom(2).hex()}.json"


def retire(home: Home, name: str, new_name: str) -> Path | None:
    """Rename a live archive out of the live set (a rollback); None if it is already gone."""
    src, dst = path_of(home, name), home.archive_dir / new_name
    if not check_regular(src):
        return None
    try:
        os.replace(src, dst)
        fsync_dir(home.archive_dir)
    except OSError as exc:
        raise StoreError.from_os(exc, src, "rename") from None
    return dst


# ------------------------------------------------------------------ markers
def marker_path(home: Home, marker: str) -> Path:
    return home.archive_dir / marker


def write_marker(home: Home, marker: str, info: Mapping[str, Any]) -> None:
    ensure_dir(home.archive_dir)
    atomic_write_bytes(marker_path(home, marker), orjson.dumps(dict(info)))


def read_marker(home: Home, marker: str) -> dict[str, Any] | None:
    """The marker's content, None when there is none; raises when it is unreadable."""
    path = marker_path(home, marker)
    raw = read_bytes(path)
    if raw is None:
        return None
    try:
        info: dict[str, Any] = orjson.loads(raw)
        info["archive"] = Path(info["archive"]).name
    except (orjson.JSONDecodeError, KeyError, TypeError):
        raise CorruptFileError(path, Message("archive.bad_marker")) from None
    return info


def clear_marker(home: Home, marker: str) -> None:
    path = marker_path(home, marker)
    try:
        os.unlink(path)
        fsync_dir(home.archive_dir)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError.from_os(exc, path, "remove") from None


def pending(home: Home) -> bool:
    """Whether a move or restore between the log and an archive is unfinished."""
    folder = home.archive_dir
    return any(os.path.lexists(folder / m) for m in MARKERS)


def marker_ids(home: Home, marker: str) -> set[str]:
    """The ids in the archive an unfinished ``marker`` names (empty when none)."""
    info = read_marker(home, marker)
    if info is None:
        return set()
    doc = read_path(home.archive_dir / info["archive"])
    return {r.get("id") for r in doc["records"]} if doc else set()


def positions_of(doc: Mapping[str, Any]) -> Sequence[int] | None:
    pos = doc.get("positions")
    return pos if isinstance(pos, list) and len(pos) == len(doc["records"]) else None
