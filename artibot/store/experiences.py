"""``daily-experiences.json``: an append-only JSON array that never loses a record.

Layout — one record per line, the comma leading, so that an append never rewrites
what is already there::

    [
    {"id": "a", ...}
    ,{"id": "b", ...}
    ]

* **Append** (under an exclusive ``flock`` on ``.daily-experiences.lock``): one
  ``pwrite`` that overwrites the closing ``]\\n`` with ``,{record}\\n ... ]\\n``, then
  ``fdatasync``. Cost is independent of the file's size.
* **Journal**: before that write the writer stores, in the lock file itself, the offset
  where the closing bracket stood and the file's inode. If the writer is killed mid-write,
  the next writer (or reader) under the lock sees that the file no longer ends with
  ``\\n]\\n``, cuts everything after the journalled offset — the whole interrupted batch,
  so a batch append is all-or-nothing — into ``quarantine/`` and restores the bracket.
  Without a usable journal it falls back to keeping every complete record line.
* **Read** under a shared lock: the file is always a complete JSON array then.
* **Move to archive** (the learner): write ``archive/<name>.json``, then atomically
  replace the log with the records that stay. A marker file makes the move
  restartable: if a crash falls between the two writes, the next open finishes it.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import orjson

from artibot.errors import CorruptFileError, StoreError
from artibot.store.documents import CURRENT_VERSION, read_document
from artibot.store.fs import (
    FileLock,
    atomic_write_bytes,
    check_regular,
    ensure_dir,
    open_fd,
    read_bytes,
)
from artibot.store.home import Home

HEADER = b"[\n"
FOOTER = b"]\n"
EMPTY = HEADER + FOOTER
_JOURNAL_SIZE = 64
MOVE_MARKER = ".move-in-progress.json"


@dataclass(frozen=True)
class Repair:
    """What an automatic tail repair did."""

    path: Path
    cut_bytes: int
    quarantined_to: Path | None
    kept_records: int | None = None


def encode(record: Mapping[str, Any]) -> bytes:
    """One record as a single JSON line (orjson escapes every newline inside strings)."""
    return orjson.dumps(record)


class ExperienceLog:
    """The append-only experience log of one data home."""

    def __init__(self, home: Home, *, durable: bool = True, lock_timeout: float = 30.0):
        self.home = home
        self.path = home.experiences
        self.durable = durable
        self.lock_timeout = lock_timeout
        self.last_repair: Repair | None = None
        self._held: FileLock | None = None

    # ------------------------------------------------------------------ locking
    def _lock(self, shared: bool = False) -> FileLock:
        self.home.ensure()
        return FileLock(self.home.experiences_lock, shared=shared, timeout=self.lock_timeout,
                        holder="another process writing the experience log")

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[FileLock]:
        with self._lock() as lock:
            self._held = lock
            try:
                self._finish_move()
                self._adopt_foreign_layout()
                yield lock
            finally:
                self._held = None

    def _adopt_foreign_layout(self) -> None:
        """A complete JSON array in another layout (pretty-printed by the old plugin, or by
        hand) is rewritten in ours; it must not be mistaken for a torn tail and cut."""
        if not check_regular(self.path):
            return
        fd = open_fd(self.path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            if size >= len(EMPTY) and os.pread(fd, 3, size - 3) == b"\n]\n" and os.pread(fd, 2, 0) == HEADER:
                return
            data = os.pread(fd, size, 0)
        finally:
            os.close(fd)
        try:
            records = orjson.loads(data)
        except orjson.JSONDecodeError:
            return  # a torn tail: the caller's repair handles it
        if isinstance(records, list) and all(isinstance(r, dict) for r in records):
            self._quarantine(data, suffix="relaid")  # the original bytes are kept
            atomic_write_bytes(self.path, render(records), durable=True)

    # ------------------------------------------------------------------ append
    def append(self, records: Sequence[Mapping[str, Any]]) -> int:
        """Append ``records`` (already validated) as one all-or-nothing write. Returns the count."""
        if not records:
            return 0
        lines = [encode(r) for r in records]
        with self._exclusive() as lock:
            fd = self._open_for_append()
            try:
                size = os.fstat(fd).st_size
                size = self._ensure_intact(fd, size, lock)
                empty = size == len(EMPTY)
                start = size - len(FOOTER)
                payload = bytearray()
                for i, line in enumerate(lines):
                    if not (empty and i == 0):
                        payload += b","
                    payload += line
                    payload += b"\n"
                payload += FOOTER
                self._journal(lock, start, os.fstat(fd).st_ino)
                written = os.pwrite(fd, bytes(payload), start)
                if written != len(payload):
                    raise StoreError(f"short write to {self.path} ({written} of {len(payload)} bytes); "
                                     "the next open will repair the tail")
                if self.durable:
                    os.fdatasync(fd)
            finally:
                os.close(fd)
        return len(lines)

    def _open_for_append(self) -> int:
        if not check_regular(self.path):
            atomic_write_bytes(self.path, EMPTY, durable=self.durable)
        return open_fd(self.path, os.O_RDWR)

    def _journal(self, lock: FileLock, offset: int, inode: int) -> None:
        text = f"{offset} {inode}".encode().ljust(_JOURNAL_SIZE)
        assert lock._fd is not None
        os.pwrite(lock._fd, text, 0)

    def _read_journal(self, lock: FileLock) -> tuple[int, int] | None:
        assert lock._fd is not None
        raw = os.pread(lock._fd, _JOURNAL_SIZE, 0).strip()
        try:
            offset, inode = (int(x) for x in raw.split())
        except ValueError:
            return None
        return offset, inode

    # ------------------------------------------------------------------ repair
    def _ensure_intact(self, fd: int, size: int, lock: FileLock) -> int:
        """Return the size of an intact file, repairing a torn tail first (caller holds the lock exclusively)."""
        head = os.pread(fd, len(HEADER), 0)
        if head != HEADER:
            raise CorruptFileError(self.path, "does not start with the '[' line of an artibot experience log")
        if size >= len(EMPTY) and os.pread(fd, 3, size - 3) == b"\n]\n":
            return size
        return self._repair_tail(fd, size, lock)

    def _repair_tail(self, fd: int, size: int, lock: FileLock) -> int:
        journal = self._read_journal(lock)
        cut_at: int | None = None
        if journal is not None:
            offset, inode = journal
            if inode == os.fstat(fd).st_ino and len(HEADER) <= offset <= size:
                before = os.pread(fd, 1, offset - 1)
                if before == b"\n":
                    cut_at = offset
        if cut_at is None:
            cut_at = self._last_complete_line_end(fd, size)
        tail = os.pread(fd, size - cut_at, cut_at) if size > cut_at else b""
        quarantined = self._quarantine(tail) if tail.strip() not in (b"", b"]") else None
        os.pwrite(fd, FOOTER, cut_at)
        os.ftruncate(fd, cut_at + len(FOOTER))
        os.fsync(fd)
        self.last_repair = Repair(self.path, len(tail), quarantined)
        return cut_at + len(FOOTER)

    def _last_complete_line_end(self, fd: int, size: int) -> int:
        """Offset just after the last line that is a complete record (fallback without a journal)."""
        data = os.pread(fd, size, 0)
        pos = len(HEADER)
        good = pos
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl < 0:
                break
            line = data[pos:nl]
            body = line[1:] if line.startswith(b",") else line
            try:
                parsed = orjson.loads(body)
            except orjson.JSONDecodeError:
                parsed = None
            if not isinstance(parsed, dict):
                # Only a tail may be cut automatically: if a complete record follows, this is
                # damage in the middle of the file, which only `doctor --repair` may handle.
                if self._record_follows(data, nl + 1):
                    raise CorruptFileError(self.path, f"line at byte {pos} is not a record")
                break
            pos = nl + 1
            good = pos
        return good

    @staticmethod
    def _record_follows(data: bytes, pos: int) -> bool:
        for line in data[pos:].split(b"\n"):
            body = line[1:] if line.startswith(b",") else line
            try:
                if isinstance(orjson.loads(body), dict):
                    return True
            except orjson.JSONDecodeError:
                continue
        return False

    def _quarantine(self, data: bytes, suffix: str = "torn") -> Path:
        qdir = ensure_dir(self.home.quarantine_dir)
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        path = qdir / f"daily-experiences.{stamp}.{os.getpid()}.{time.monotonic_ns()}.{suffix}"
        atomic_write_bytes(path, data)
        return path

    def repair(self) -> Repair | None:
        """Repair a torn tail now (``doctor``). Returns what was done, or None if the file was intact."""
        if not check_regular(self.path):
            return None
        with self._exclusive() as lock:
            self.last_repair = None
            if not check_regular(self.path):
                return None
            fd = open_fd(self.path, os.O_RDWR)
            try:
                self._ensure_intact(fd, os.fstat(fd).st_size, lock)
            finally:
                os.close(fd)
            return self.last_repair

    # ------------------------------------------------------------------ read
    def read_bytes(self) -> bytes:
        """The whole file, guaranteed to be a complete JSON array (repairs a torn tail if needed)."""
        if not check_regular(self.path):
            return EMPTY
        with self._lock(shared=True):
            data = self._read_raw()
            if data.endswith(b"\n]\n") and data.startswith(HEADER) and not self._move_pending():
                return data
        # Torn tail or an unfinished move: repair under the exclusive lock, then read.
        with self._exclusive() as lock:
            if not check_regular(self.path):
                return EMPTY
            fd = open_fd(self.path, os.O_RDWR)
            try:
                self._ensure_intact(fd, os.fstat(fd).st_size, lock)
            finally:
                os.close(fd)
            return self._read_raw()

    def _read_raw(self) -> bytes:
        fd = open_fd(self.path, os.O_RDONLY)
        with os.fdopen(fd, "rb") as fh:
            return fh.read()

    def read(self) -> list[dict[str, Any]]:
        """Every unprocessed record, in the order appended."""
        data = self.read_bytes()
        try:
            records = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise CorruptFileError(self.path, f"not valid JSON ({exc})") from None
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise CorruptFileError(self.path, "expected a JSON array of objects")
        return records

    def count(self) -> int:
        """Number of records (counts lines; does not parse them)."""
        data = self.read_bytes()
        return max(data.count(b"\n") - 2, 0)

    # ------------------------------------------------------------------ move to archive
    def _move_pending(self) -> bool:
        return (self.home.archive_dir / MOVE_MARKER).exists()

    def move_to_archive(self, ids: Iterable[str], name: str, meta: Mapping[str, Any] | None = None,
                        positions: Sequence[int] | None = None) -> int:
        """Move the records with ``ids`` into ``archive/<name>.json``. Returns how many moved.

        ``positions`` (the records' indices when the caller read the log, in ``ids`` order)
        enables a fast path that moves the raw lines without parsing or re-encoding them;
        each line is checked to hold its id, else the records are parsed and matched by id.
        """
        id_list = list(ids)
        wanted = set(id_list)
        if not wanted:
            return 0
        with self._exclusive():
            lines = self._lines_locked()
            if positions is not None and len(positions) == len(id_list) and _lines_hold_ids(lines, positions, id_list):
                pos = list(positions)
            else:
                records = [orjson.loads(line) for line in lines]
                pos = [i for i, r in enumerate(records) if r.get("id") in wanted]
            if not pos:
                return 0
            adir = ensure_dir(self.home.archive_dir)
            target = adir / f"{name}.json"
            if target.exists():
                raise StoreError(f"{target} already exists; refusing to overwrite an archive")
            moving = set(pos)
            # positions let a rollback put the records back exactly where they were
            doc = (b'{"schema_version":' + str(CURRENT_VERSION["archive"]).encode()
                   + b',"name":' + orjson.dumps(name) + b',"meta":' + orjson.dumps(dict(meta or {}))
                   + b',"positions":' + orjson.dumps(pos) + b',"records":[\n'
                   + b"\n,".join(lines[i] for i in pos) + b"\n]}\n")
            # The marker goes first: a crash right after the archive write must still let the
            # next open drop the archived records from the log (else they would be in both).
            marker = adir / MOVE_MARKER
            atomic_write_bytes(marker, orjson.dumps({"archive": target.name}), durable=True)
            atomic_write_bytes(target, doc)
            atomic_write_bytes(self.path, render_lines([ln for i, ln in enumerate(lines) if i not in moving]))
            marker.unlink()
            return len(pos)

    def _lines_locked(self) -> list[bytes]:
        """Every record as its raw JSON line (no leading comma), read under the exclusive lock."""
        assert self._held is not None
        if not check_regular(self.path):
            return []
        fd = open_fd(self.path, os.O_RDWR)
        try:
            size = self._ensure_intact(fd, os.fstat(fd).st_size, self._held)
            data = os.pread(fd, size, 0)
        finally:
            os.close(fd)
        body = data[len(HEADER):-len(FOOTER) - 1]  # without the last record's newline
        if not body:
            return []
        # Records never hold a raw newline, so "\n," only occurs between two records.
        return body.split(b"\n,")

    def _read_locked(self) -> list[dict[str, Any]]:
        """Every record, read while this object holds the exclusive lock."""
        assert self._held is not None
        if not check_regular(self.path):
            return []
        fd = open_fd(self.path, os.O_RDWR)
        try:
            size = self._ensure_intact(fd, os.fstat(fd).st_size, self._held)
            data = os.pread(fd, size, 0)
        finally:
            os.close(fd)
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise CorruptFileError(self.path, f"not valid JSON ({exc})") from None

    def _rewrite(self, records: Sequence[Mapping[str, Any]]) -> None:
        atomic_write_bytes(self.path, render(records), durable=True)

    def _finish_move(self) -> None:
        """Complete a move interrupted between writing the archive and rewriting the log."""
        marker = self.home.archive_dir / MOVE_MARKER
        if not marker.exists():
            return
        raw = read_bytes(marker)
        try:
            info = orjson.loads(raw or b"")
            archive = self.home.archive_dir / Path(info["archive"]).name
        except (orjson.JSONDecodeError, KeyError, TypeError):
            raise CorruptFileError(marker, "unreadable marker of an interrupted archive move") from None
        doc = read_document(archive, "archive")
        if doc is not None:
            done = {r.get("id") for r in doc.get("records", [])}
            records = self._read_locked()
            self._rewrite([r for r in records if r.get("id") not in done])
        marker.unlink()

    def restore(self, records: Sequence[Mapping[str, Any]], positions: Sequence[int] | None = None) -> int:
        """Put archived ``records`` back into the log (rollback of a round's move).

        With ``positions`` (kept in the archive) each record returns to the index it had,
        so a move followed by its restore leaves the file byte-for-byte as it was.
        Records already in the log are skipped. Returns how many came back.
        """
        with self._exclusive():
            current = self._read_locked()
            have = {r.get("id") for r in current}
            back = [(p, r) for p, r in zip(positions or [0] * len(records), records) if r.get("id") not in have]
            if positions is None:
                merged = [r for _, r in back] + current
            else:
                merged = list(current)
                for pos, record in sorted(back, key=lambda item: item[0]):
                    merged.insert(min(pos, len(merged)), dict(record))
            self._rewrite(merged)
            return len(back)


def _lines_hold_ids(lines: Sequence[bytes], positions: Sequence[int], ids: Sequence[str]) -> bool:
    n = len(lines)
    for pos, rid in zip(positions, ids):
        needle = (b'"id":"' + rid.encode() + b'"') if rid.isalnum() or rid.replace("_", "").replace("-", "").isalnum() \
            else b'"id":' + orjson.dumps(rid)
        if not 0 <= pos < n or needle not in lines[pos]:
            return False
    return True


def render_lines(lines: Sequence[bytes]) -> bytes:
    """The log layout for already-encoded record lines."""
    if not lines:
        return EMPTY
    return HEADER + b"\n,".join(lines) + b"\n" + FOOTER


def render(records: Sequence[Mapping[str, Any]]) -> bytes:
    """The log layout for ``records`` (used for rewrites; appends never call it)."""
    parts = [HEADER]
    for i, record in enumerate(records):
        if i:
            parts.append(b",")
        parts.append(encode(record))
        parts.append(b"\n")
    parts.append(FOOTER)
    return b"".join(parts)
