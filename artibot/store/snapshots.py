"""Snapshots of the learned state before each applied round, for rollback.

``snapshots/<round-id>/`` holds a byte copy of each state file as it was before the
round (or a note that it did not exist) and ``manifest.json`` with the round's status:
``applying`` while the round writes, ``applied`` when it is complete, ``rolled-back``
after a rollback. A manifest still ``applying`` when the next cycle starts marks a
round interrupted by a crash; the cycle rolls it back.

Restoring never deletes: the state being replaced is first copied into
``snapshots/<round-id>/replaced-<time>/``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Mapping

from artibot.errors import NotFoundError
from artibot.store.documents import read_document, write_document
from artibot.store.fs import atomic_write_bytes, ensure_dir, read_bytes
from artibot.store.home import Home

MANIFEST = "manifest.json"


def _name(home: Home, path: Path) -> str:
    return path.relative_to(home.root).as_posix().replace("/", "__")


def snapshot_dir(home: Home, round_id: str) -> Path:
    return home.snapshots_dir / round_id


def _copy_state(home: Home, into: Path) -> dict[str, bool]:
    ensure_dir(into)
    present: dict[str, bool] = {}
    for path in home.state_files():
        data = read_bytes(path)
        rel = path.relative_to(home.root).as_posix()
        present[rel] = data is not None
        if data is not None:
            atomic_write_bytes(into / _name(home, path), data)
    return present


def take(home: Home, round_id: str, meta: Mapping[str, Any] | None = None) -> Path:
    """Copy the state files into ``snapshots/<round_id>/`` and mark the round ``applying``."""
    folder = snapshot_dir(home, round_id)
    ensure_dir(home.snapshots_dir)
    present = _copy_state(home, folder)
    write_document(folder / MANIFEST, {"round_id": round_id, "status": "applying", "files": present,
                                       "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                       "meta": dict(meta or {})}, "snapshot")
    return folder


def read_manifest(home: Home, round_id: str) -> dict[str, Any]:
    folder = snapshot_dir(home, round_id)
    doc = read_document(folder / MANIFEST, "snapshot")
    if doc is None:
        raise NotFoundError(f"no snapshot for round {round_id!r} in {home.snapshots_dir}; "
                            "`artibot history` lists the rounds that can be rolled back")
    return doc


def mark(home: Home, round_id: str, status: str, **extra: Any) -> None:
    doc = read_manifest(home, round_id)
    doc["status"] = status
    doc.update(extra)
    write_document(snapshot_dir(home, round_id) / MANIFEST, doc, "snapshot")


def restore(home: Home, round_id: str) -> Path:
    """Put the state files back as they were before ``round_id``. Returns where the replaced state went."""
    doc = read_manifest(home, round_id)
    folder = snapshot_dir(home, round_id)
    replaced = folder / time.strftime("replaced-%Y%m%dT%H%M%S", time.gmtime())
    _copy_state(home, replaced)
    for path in home.state_files():
        rel = path.relative_to(home.root).as_posix()
        if doc["files"].get(rel):
            data = read_bytes(folder / _name(home, path))
            if data is None:
                raise NotFoundError(f"snapshot {folder} lacks its copy of {rel}")
            ensure_dir(path.parent)
            atomic_write_bytes(path, data)
        elif path.exists():
            path.unlink()  # did not exist before the round; its last content is kept in `replaced`
    return replaced


def list_rounds(home: Home) -> list[str]:
    if not home.snapshots_dir.is_dir():
        return []
    return sorted(p.name for p in home.snapshots_dir.iterdir() if (p / MANIFEST).exists())
