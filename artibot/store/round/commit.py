"""One commit for the files a round changes: all of them, or none.

A round (and a reset, a discard) changes several state files at once: the thresholds, the
pattern statistics, the learner's own state, the System 1 cache, the transfer log, the
learning log, the pending review, the snapshot's manifest. Each module of the store still
says what its file holds (its codec); none of them writes its file itself during a round:
it stages the new contents in a :class:`RoundCommit`, and :meth:`RoundCommit.run` commits
them all with one redo journal, the steps in this order:

1. every new file written into ``.commit/`` (the staging folder in the home), ``fsync``\\ ed,
   and the folder synced, so their names are on disk too;
2. ``.commit/journal.json`` (atomically: temp file, ``fsync``, rename, folder synced) naming
   each target, its staged file and the SHA-256 of its contents (or that it is removed):
   **the commit point**;
3. each target replaced by its staged file (a hard link beside it, renamed over it; a removal
   unlinks it), every folder touched synced;
4. the staged files removed, then the journal (the folder synced after each).

:func:`recover` runs once at the start of anything that reads or writes a round's state
(under the learner lock, before any other recovery): a journal on disk is complete (it is
written atomically), so its renames are redone, each staged file checked against its
checksum first; without a journal, whatever ``.commit/`` holds is a commit that never
reached its commit point, and is dropped: the files it meant to replace were never touched.
A new piece of round state therefore adds one line to the round's commit (its module's
write, given the commit), never a crash protocol of its own.
"""

from __future__ import annotations

import errno
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import orjson

from artibot.errors import CorruptFileError, NotAFolderError, StoreError, UnsafePathError
from artibot.messages import Message
from artibot.store.fs import atomic_write_bytes, check_regular, ensure_dir, fsync_dir, open_fd, read_bytes
from artibot.store.home import Home

STAGING = ".commit"
"""The staging folder in the home: the new contents of an unfinished commit, and its journal."""
JOURNAL = "journal.json"
VERSION = 1
_REMOVED = None


def staging_dir(home: Home) -> Path:
    return home.root / STAGING


def journal_path(home: Home) -> Path:
    return staging_dir(home) / JOURNAL


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class RoundCommit:
    """The new contents of the files one round changes, staged until :meth:`run` commits them.

    ``write`` and ``remove`` only record; a later change of the same file replaces an earlier
    one (the last word wins), and :meth:`staged` lets a writer read what an earlier line of
    the same commit staged. Nothing reaches the disk before :meth:`run`."""

    home: Home
    _changes: dict[str, bytes | None] = field(default_factory=dict)

    def _rel(self, path: Path) -> str:
        try:
            rel = Path(path).relative_to(self.home.root).as_posix()
        except ValueError:
            raise StoreError(Message("commit.outside", path=str(path), root=str(self.home.root))) from None
        if rel.split("/")[0] == STAGING or rel in ("", "."):
            raise StoreError(Message("commit.staging", path=str(path)))
        return rel

    def write(self, path: Path, data: bytes) -> None:
        """Stage ``data`` as the new contents of ``path`` (a file of the home)."""
        self._changes[self._rel(path)] = bytes(data)

    def remove(self, path: Path) -> None:
        """Stage the removal of ``path`` (nothing happens at commit if it does not exist)."""
        self._changes[self._rel(path)] = _REMOVED

    def staged(self, path: Path) -> tuple[bool, bytes | None]:
        """``(True, contents)`` when this commit already changes ``path`` (contents None: removed)."""
        rel = self._rel(path)
        return (rel in self._changes, self._changes.get(rel))

    @property
    def paths(self) -> list[Path]:
        """The files this commit changes, in the order they were first staged."""
        return [self.home.root / rel for rel in self._changes]

    def run(self) -> None:
        """Commit every staged change, all or none (the steps in the module's docstring). An
        error before the commit point leaves every target as it was; after it, :func:`recover`
        finishes the commit."""
        if not self._changes:
            return
        home = self.home
        for rel in self._changes:  # refuse a link or a folder planted in place of a target, before any step
            check_regular(home.root / rel)
        recover(home)  # a caller that skipped it must not stage over another commit's files
        folder = _durable_dir(home, staging_dir(home))
        entries: list[dict[str, Any]] = []
        for n, (rel, data) in enumerate(self._changes.items()):
            if data is _REMOVED:
                entries.append({"path": rel, "remove": True})
                continue
            name = f"{n}.new"
            _write_synced(folder / name, data)
            entries.append({"path": rel, "staged": name, "sha256": _digest(data), "size": len(data)})
        _sync(folder)
        for rel in self._changes:
            _durable_dir(home, (home.root / rel).parent)
        journal = {"schema_version": VERSION, "files": entries}
        atomic_write_bytes(journal_path(home), orjson.dumps(journal))  # the commit point
        _finish(home, entries)
        self._changes = {}


def _durable_dir(home: Home, folder: Path) -> Path:
    """``folder`` (0700), with the entry of every folder created on the way synced in its parent:
    a name in a new folder is on disk only once the folder's own name is."""
    missing = []
    at = folder
    while at != home.root and not os.path.lexists(at):
        missing.append(at)
        at = at.parent
    ensure_dir(folder)
    for made in missing:
        _sync(made.parent)
    return folder


def _write_synced(path: Path, data: bytes) -> None:
    fd = open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        raise StoreError.from_os(exc, path, "write") from None
    finally:
        os.close(fd)


def _sync(folder: Path) -> None:
    try:
        fsync_dir(folder)
    except OSError as exc:
        raise StoreError.from_os(exc, folder, "sync the folder") from None


def _finish(home: Home, entries: list[dict[str, Any]]) -> None:
    """Steps 3 and 4 of a commit whose journal is on disk: every step can run again.

    A staged file keeps its name in ``.commit/`` until every target's folder is synced: the
    target gets it through a second name (a hard link, renamed over the target in the
    target's own folder), never by renaming the staged name away. A power cut that lands
    one folder's change without the other's then still finds every staged file the journal
    names, so a redo never depends on two folders agreeing."""
    folder = staging_dir(home)
    touched: dict[Path, None] = {}
    for entry in entries:
        target = home.root / entry["path"]
        touched[target.parent] = None
        if entry.get("remove"):
            if check_regular(target):
                _os(os.unlink, target, "remove", target)
            continue
        staged = folder / entry["staged"]
        data = read_bytes(staged)
        if data is None:  # removed after every target was synced: each must hold what was committed
            held = read_bytes(target)
            if held is None or _digest(held) != entry["sha256"]:
                raise CorruptFileError(journal_path(home), Message("commit.lost", file=str(entry["path"]),
                                                                     staging=STAGING))
            continue
        if _digest(data) != entry["sha256"]:
            raise CorruptFileError(staged, Message("commit.mismatch", file=str(entry["path"]), staging=STAGING))
        ensure_dir(target.parent)
        check_regular(target)
        _put(staged, data, target)
    for parent in touched:
        _sync(parent)
    for entry in entries:  # every target is on disk: the staged names can go, then the journal
        if not entry.get("remove") and os.path.lexists(folder / entry["staged"]):
            _os(os.unlink, folder / entry["staged"], "remove", folder / entry["staged"])
    _sync(folder)
    _os(os.unlink, journal_path(home), "remove", journal_path(home))
    _sync(folder)


def _put(staged: Path, data: bytes, target: Path) -> None:
    """``target`` replaced by the staged file, the staged name kept: a hard link beside the
    target renamed over it; where the file system has no hard links, a synced copy."""
    temp = target.with_name(f".{target.name}.commit.tmp")
    if os.path.lexists(temp):
        _os(os.unlink, temp, "remove", temp)
    try:
        os.link(staged, temp)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EXDEV, errno.EOPNOTSUPP, errno.EMLINK):
            raise StoreError.from_os(exc, temp, "write") from None
        _write_synced(temp, data)
    _os(os.replace, temp, "rename", temp, target)


def _os(call: Any, path: Path, doing: str, *args: Path) -> None:
    try:
        call(*args)
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            raise NotAFolderError(path) from None
        raise StoreError.from_os(exc, path, doing) from None


def read_journal(home: Home) -> list[dict[str, Any]] | None:
    """The entries of a commit's journal on disk, or None when there is none."""
    path = journal_path(home)
    raw = read_bytes(path)
    if raw is None:
        return None
    try:
        doc = orjson.loads(raw)
        files = doc["files"]
        if doc.get("schema_version") != VERSION or not isinstance(files, list):
            raise ValueError
        for entry in files:
            rel = entry["path"]
            parts = PurePosixPath(rel).parts
            if (not isinstance(rel, str) or not parts or rel.startswith("/") or ".." in parts
                    or parts[0] == STAGING):
                raise ValueError
            if not entry.get("remove") and not (isinstance(entry.get("staged"), str) and "/" not in entry["staged"]
                                                and isinstance(entry.get("sha256"), str)):
                raise ValueError
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        raise CorruptFileError(path, Message("commit.bad_journal", staging=STAGING)) from None
    out: list[dict[str, Any]] = files
    return out


def leftovers(home: Home) -> list[Path]:
    """What an unfinished commit left in the staging folder (the journal among them, if any)."""
    folder = staging_dir(home)
    try:
        return sorted(folder / name for name in os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise StoreError.from_os(exc, folder, "read") from None


def recover(home: Home) -> bool:
    """Finish a commit whose journal is on disk, or drop the staged files of one that never
    reached its commit point. True when a journaled commit was finished. The caller holds
    the learner lock (no commit runs meanwhile)."""
    folder = staging_dir(home)
    if not os.path.lexists(folder):
        return False
    if os.path.islink(folder):
        raise UnsafePathError(folder)
    entries = read_journal(home)
    if entries is not None:
        _finish(home, entries)
    dropped = False
    for path in leftovers(home):
        # staged contents nobody committed (or a journal's own temp file): never state, the
        # targets untouched; a folder planted here is not ours to remove
        if os.path.isfile(path) and not os.path.islink(path):
            _os(os.unlink, path, "remove", path)
            dropped = True
    if dropped:
        _sync(folder)
    return entries is not None
