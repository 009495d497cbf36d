"""Snapshots of the learned state before each applied round, for rollback.

``snapshots/<round-id>/`` holds a byte copy of each state file as it was before the
round (or a note that it did not exist) and ``manifest.json`` with the round's status:
``applying`` while the round writes, ``applied`` when it is complete, ``rolled-back``
after a rollback. ``seq`` numbers the snapshots in the order they were taken, which is
the order their rounds were applied (one learner at a time): a rollback orders rounds by
it, never by their time-based ids, which a clock set back would put out of order.

A snapshot is durable (its files, its folder and the folder's entry in ``snapshots/``
synced) before :func:`take` returns, so before the round writes anything it would undo. A manifest still ``applying`` when the next cycle starts marks a
round interrupted by a crash; the cycle rolls it back.

Restoring never deletes: the state being replaced is first copied into
``snapshots/<round-id>/replaced-<time>/``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Mapping, cast, get_args

from artibot.errors import CorruptFileError, NotFoundError, StoreError
from artibot.messages import Message
from artibot.store.documents import read_document, write_document
from artibot.store.fs import atomic_write_bytes, ensure_dir, fsync_dir, read_bytes
from artibot.store.home import Home

if TYPE_CHECKING:
    from artibot.store.round.commit import RoundCommit

MANIFEST = "manifest.json"

SnapshotStatus = Literal["applying", "applied", "rolled-back", "interrupted"]


@dataclass(frozen=True)
class Manifest:
    """``manifest.json``: the round a snapshot was taken for, its status, and which state
    files existed before it (``files``: path relative to the home -> existed)."""

    round_id: str
    status: SnapshotStatus
    files: Mapping[str, bool]
    created: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)  # e.g. rolled_back_at, kept in order
    seq: int | None = None  # None: taken by an artibot that did not number snapshots

    def to_json(self) -> dict[str, Any]:
        seq = {} if self.seq is None else {"seq": self.seq}
        return {"round_id": self.round_id, "status": self.status, **seq, "files": dict(self.files),
                "created": self.created, "meta": dict(self.meta), **self.extra}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], path: Path) -> Manifest:
        status, files = doc.get("status"), doc.get("files")
        if not isinstance(doc.get("round_id"), str):
            raise CorruptFileError(path, Message("snapshot.bad_round_id"))
        if status not in get_args(SnapshotStatus):
            raise CorruptFileError(path, Message("value.one_of", key='"status"',
                                                 options=", ".join(get_args(SnapshotStatus)), value=repr(status)))
        if not isinstance(files, dict) or not all(isinstance(v, bool) for v in files.values()):
            raise CorruptFileError(path, Message("snapshot.bad_files"))
        seq = doc.get("seq")
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool) or seq < 1):
            raise CorruptFileError(path, Message("snapshot.bad_seq", seq=repr(seq)))
        known = ("round_id", "status", "seq", "files", "created", "meta", "schema_version")
        return cls(doc["round_id"], cast(SnapshotStatus, status), files, doc.get("created"), dict(doc.get("meta") or {}),
                   {k: v for k, v in doc.items() if k not in known}, seq)


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
    """Copy the state files into ``snapshots/<round_id>/`` and mark the round ``applying``,
    numbered after every snapshot already taken; all of it synced before returning."""
    folder = snapshot_dir(home, round_id)
    seq = 1 + max((m.seq or 0 for m in manifests(home).values()), default=0)
    ensure_dir(home.snapshots_dir)
    present = _copy_state(home, folder)
    manifest = Manifest(round_id, "applying", present, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        dict(meta or {}), seq=seq)
    write_document(folder / MANIFEST, manifest.to_json(), "snapshot")
    # the files are synced by their atomic writes; the folder's own entry is not, until now
    try:
        fsync_dir(home.snapshots_dir)
        fsync_dir(home.root)
    except OSError as exc:
        raise StoreError.from_os(exc, home.snapshots_dir, "sync the folder") from None
    return folder


def manifests(home: Home) -> dict[str, Manifest]:
    """Every snapshot's manifest, by round id."""
    return {rid: load_manifest(home, rid) for rid in list_rounds(home)}


def missing_copies(home: Home, round_id: str) -> list[str]:
    """The state files the snapshot of ``round_id`` says existed but holds no copy of."""
    manifest = load_manifest(home, round_id)
    folder = snapshot_dir(home, round_id)
    return [rel for rel, existed in manifest.files.items()
            if existed and not (folder / rel.replace("/", "__")).is_file()]


def load_manifest(home: Home, round_id: str) -> Manifest:
    path = snapshot_dir(home, round_id) / MANIFEST
    doc = read_document(path, "snapshot")
    if doc is None:
        raise NotFoundError(Message("snapshot.none", round=repr(round_id), where=str(home.snapshots_dir)))
    return Manifest.from_json(doc, path)


def read_manifest(home: Home, round_id: str) -> dict[str, Any]:
    """The manifest as JSON (checked by :meth:`Manifest.from_json`)."""
    return load_manifest(home, round_id).to_json()


def mark(home: Home, round_id: str, status: SnapshotStatus, *, into: RoundCommit | None = None,
         **extra: Any) -> None:
    """Set the snapshot's status (``into``: staged in a round's commit, so that ``applied`` lands
    with the files of the round it describes)."""
    old = load_manifest(home, round_id)
    new = Manifest(old.round_id, status, old.files, old.created, old.meta, {**old.extra, **extra}, old.seq)
    write_document(snapshot_dir(home, round_id) / MANIFEST, new.to_json(), "snapshot", into=into)


def restore(home: Home, round_id: str, into: RoundCommit, *, keep_replaced_in: Path | None) -> None:
    """Stage in ``into`` the state files as they were before ``round_id`` (a file that did not
    exist then is removed). The state being replaced is first copied into ``keep_replaced_in``
    and synced (None: an earlier attempt kept it already)."""
    manifest = load_manifest(home, round_id)
    folder = snapshot_dir(home, round_id)
    if keep_replaced_in is not None:
        _copy_state(home, keep_replaced_in)
        try:
            fsync_dir(keep_replaced_in.parent)
        except OSError as exc:
            raise StoreError.from_os(exc, keep_replaced_in.parent, "sync the folder") from None
    for path in home.state_files():
        rel = path.relative_to(home.root).as_posix()
        if manifest.files.get(rel):
            data = read_bytes(folder / _name(home, path))
            if data is None:
                raise NotFoundError(Message("snapshot.copy_missing", folder=str(folder), file=rel))
            into.write(path, data)
        else:
            into.remove(path)  # did not exist before the round; its last content is kept aside


def list_rounds(home: Home) -> list[str]:
    if not home.snapshots_dir.is_dir():
        return []
    return sorted(p.name for p in home.snapshots_dir.iterdir() if (p / MANIFEST).exists())
