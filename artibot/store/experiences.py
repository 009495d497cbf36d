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
* **Learner's read** (:class:`LogRead`): the bytes are parsed in cache-sized runs of
  lines (a million records never exist as dicts at once) and kept, with the file held
  open, so that the move reuses them: it reads only what was appended since.
"""

from __future__ import annotations

import contextlib
import os
import time
from bisect import bisect_right
from itertools import islice
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterable, Iterator, Mapping, Sequence

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
CHUNK_BYTES = 32 * 1024
"""Bytes of log parsed at a time by :meth:`LogRead.chunks`: the dicts of one run stay in the
CPU cache while their fields are read, which costs less than parsing the whole file at once."""


_Plan = tuple[Any, Callable[[bytes, bytes], ContextManager[Any]], bytes]
# numpy is imported where the learner's moves need it: the hooks append through this module
# and must start without it.


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
        return self._read_intact(keep_open=False).as_bytes()

    def open_read(self) -> LogRead:
        """The whole file as :meth:`read_bytes` gives it, kept open for :meth:`move_to_archive`
        (close the result, or use it as a context manager)."""
        return self._read_intact(keep_open=True)

    def _read_intact(self, keep_open: bool) -> LogRead:
        if not check_regular(self.path):
            return LogRead.of_bytes(self.path, EMPTY)
        with self._lock(shared=True):
            read = self._read_raw(keep_open)
            if read.intact() and not self._move_pending():
                return read
        read.close()
        # Torn tail or an unfinished move: repair under the exclusive lock, then read.
        with self._exclusive() as lock:
            if not check_regular(self.path):
                return LogRead.of_bytes(self.path, EMPTY)
            fd = open_fd(self.path, os.O_RDWR)
            try:
                self._ensure_intact(fd, os.fstat(fd).st_size, lock)
            finally:
                os.close(fd)
            return self._read_raw(keep_open)

    def _read_raw(self, keep_open: bool) -> LogRead:
        """The file as it is; held open for a move (``keep_open``), with room for the archive's head."""
        fd = open_fd(self.path, os.O_RDONLY)
        try:
            if not keep_open:
                with os.fdopen(fd, "rb", closefd=False) as fh:
                    return LogRead.of_bytes(self.path, fh.read())
            size = os.fstat(fd).st_size
            room = size // 16 + (1 << 16)  # the archive's head: positions take < 8 bytes a record
            buf = bytearray(room + size + 8)
            got = 0
            with memoryview(buf) as view:
                while got < size:
                    n = os.readv(fd, [view[room + got:room + size]])
                    if not n:
                        break
                    got += n
            read = LogRead(self.path, buf, room, got, fd)
            fd = -1  # the LogRead closes it
            return read
        finally:
            if fd >= 0:
                os.close(fd)

    def read(self) -> list[dict[str, Any]]:
        """Every unprocessed record, in the order appended."""
        return parse_records(self.read_bytes(), self.path)

    def count(self) -> int:
        """Number of records (counts lines; does not parse them)."""
        data = self.read_bytes()
        return max(data.count(b"\n") - 2, 0)

    # ------------------------------------------------------------------ move to archive
    def _move_pending(self) -> bool:
        return (self.home.archive_dir / MOVE_MARKER).exists()

    def move_to_archive(self, ids: Iterable[str], name: str, meta: Mapping[str, Any] | None = None,
                        positions: Sequence[int] | None = None, source: LogRead | None = None) -> int:
        """Move the records with ``ids`` into ``archive/<name>.json``. Returns how many moved.

        ``positions`` (the records' indices when the caller read the log, in ``ids`` order)
        enables a fast path that moves the raw lines without parsing or re-encoding them;
        each line is checked to hold its id, else the records are parsed and matched by id.
        With ``source`` (the :class:`LogRead` the positions index, parsed to its end) the
        bytes already read are reused: if the file is still that one, only the lines
        appended since are read, and the lines move as whole runs.
        """
        id_list = list(ids)
        if not id_list:
            return 0
        with self._exclusive():
            plan = None
            if source is not None and positions is not None and len(positions) == len(id_list):
                plan = self._plan_from_source(source, positions, id_list)
            if plan is None:
                plan = self._plan_from_file(id_list, positions)
            if plan is None:
                return 0
            pos, archive, kept = plan
            adir = ensure_dir(self.home.archive_dir)
            target = adir / f"{name}.json"
            if target.exists():
                raise StoreError(f"{target} already exists; refusing to overwrite an archive")
            # positions let a rollback put the records back exactly where they were
            head = (b'{"schema_version":' + str(CURRENT_VERSION["archive"]).encode()
                    + b',"name":' + orjson.dumps(name) + b',"meta":' + orjson.dumps(dict(meta or {}))
                    + b',"positions":' + orjson.dumps(pos, option=orjson.OPT_SERIALIZE_NUMPY)
                    + b',"records":[\n')
            # The marker goes first: a crash right after the archive write must still let the
            # next open drop the archived records from the log (else they would be in both).
            marker = adir / MOVE_MARKER
            atomic_write_bytes(marker, orjson.dumps({"archive": target.name}), durable=True)
            with archive(head, b"\n]}\n") as doc:
                atomic_write_bytes(target, doc)
            atomic_write_bytes(self.path, kept)
            marker.unlink()
            return len(pos)

    def _plan_from_file(self, id_list: list[str], positions: Sequence[int] | None) -> _Plan | None:
        """``(positions, archive, new log)`` from the file as it is now: ``archive(head, tail)``
        gives the archive document (a context manager) with the moving lines between."""
        lines = self._lines_locked()
        if positions is not None and len(positions) == len(id_list) and _lines_hold_ids(lines, positions, id_list):
            pos = list(positions)
        else:
            wanted = set(id_list)
            records = [orjson.loads(line) for line in lines]
            pos = [i for i, r in enumerate(records) if r.get("id") in wanted]
        if not pos:
            return None
        moving = set(pos)
        body = b"\n,".join(lines[i] for i in pos)
        return (pos, lambda head, tail: contextlib.nullcontext(head + body + tail),
                render_lines([ln for i, ln in enumerate(lines) if i not in moving]))

    def _plan_from_source(self, source: LogRead, positions: Sequence[int], id_list: list[str]) -> _Plan | None:
        """The plan of :meth:`_plan_from_file` from the bytes ``source`` read, or None when
        they cannot be used (the file was replaced or cut, or its lines are not one record each)."""
        import numpy as np

        assert self._held is not None
        n = source.count
        if source.fd is None or n is None or not check_regular(self.path):
            return None
        pos = (np.arange(positions.start, positions.stop, positions.step, dtype=np.int64)
               if isinstance(positions, range) else np.asarray(positions, dtype=np.int64))
        if pos.ndim != 1 or not len(pos) or pos.min() < 0 or pos.max() >= n:
            return None
        moving = np.zeros(n, np.bool_)
        moving[pos] = True
        if int(np.count_nonzero(moving)) != len(pos):
            return None  # a position twice
        fd = open_fd(self.path, os.O_RDWR)
        try:
            st, was = os.fstat(fd), os.fstat(source.fd)
            if (st.st_dev, st.st_ino) != (was.st_dev, was.st_ino):
                return None  # replaced since (the source holds the old file open: no inode reuse)
            appended = source.appended_since(fd, self._ensure_intact(fd, st.st_size, self._held))
        finally:
            os.close(fd)
        runs = source.spans(pos, id_list)
        stay = source.spans(np.flatnonzero(~moving), None)
        if appended is None or runs is None or stay is None:
            return None
        data = source.data
        kept = [data[lo:hi] for lo, hi in stay] + ([appended] if appended else [])
        log = b"".join([HEADER, *_joined(kept), b"\n" + FOOTER]) if kept else EMPTY
        if len(runs) == 1:  # the usual case: the oldest records, one run of lines from the first
            (lo, hi), = runs
            return pos, lambda head, tail: source.framed(head, lo, hi, tail), log
        body = _joined([data[lo:hi] for lo, hi in runs])
        return pos, lambda head, tail: contextlib.nullcontext(b"".join([head, *body, tail])), log

    def _bytes_locked(self) -> bytes:
        """The intact log (torn tail repaired), read while this object holds the exclusive lock."""
        assert self._held is not None
        if not check_regular(self.path):
            return EMPTY
        fd = open_fd(self.path, os.O_RDWR)
        try:
            size = self._ensure_intact(fd, os.fstat(fd).st_size, self._held)
            return os.pread(fd, size, 0)
        finally:
            os.close(fd)

    def _lines_locked(self) -> list[bytes]:
        """Every record as its raw JSON line (no leading comma), read under the exclusive lock."""
        data = self._bytes_locked()
        body = data[len(HEADER):-len(FOOTER) - 1]  # without the last record's newline
        if not body:
            return []
        # Records never hold a raw newline, so "\n," only occurs between two records.
        return body.split(b"\n,")

    def _read_locked(self) -> list[dict[str, Any]]:
        """Every record, read while this object holds the exclusive lock."""
        try:
            return orjson.loads(self._bytes_locked())
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
                merged = _put_back(current, sorted(back, key=lambda item: item[0]))
            self._rewrite(merged)
            return len(back)


class LogRead:
    """The log's bytes as one reader saw them, and the file held open.

    :meth:`chunks` parses the records a few hundred at a time; parsed to the end in the
    log's own layout, it also knows where each record's line starts, so that
    :meth:`ExperienceLog.move_to_archive` can move lines by position without reading or
    splitting the whole file again. Holding the file open means a later move can tell
    whether the file is still this one: a rewrite replaces the inode, which cannot be
    reused while it is open; appends only add lines at the end.

    The bytes sit in a buffer with room before them, where the move writes the archive's
    head: the archive of the first records is then written without copying them.
    """

    def __init__(self, path: Path, buffer: bytes | bytearray, offset: int, size: int, fd: int | None):
        self.path = path
        self.fd = fd
        self.count: int | None = None  # records, once chunks() has parsed them all in the log's layout
        self._buf, self._off, self._size = buffer, offset, size
        self._firsts: list[int] = []   # per chunk: index of its first record
        self._starts: list[int] = []   # per chunk: offset of its first line
        self._lines: dict[int, list[int] | None] = {}

    @classmethod
    def of_bytes(cls, path: Path, data: bytes, fd: int | None = None) -> LogRead:
        return cls(path, data, 0, len(data), fd)

    def as_bytes(self) -> bytes:
        if isinstance(self._buf, bytes) and self._off == 0 and self._size == len(self._buf):
            return self._buf
        return bytes(self.data)

    def intact(self) -> bool:
        """Whether the bytes are a complete log (the closing bracket is there)."""
        data = self.data
        return data[-3:] == b"\n]\n" and data[:2] == HEADER

    @property
    def data(self) -> memoryview:
        """The file's bytes as read."""
        return memoryview(self._buf)[self._off:self._off + self._size].toreadonly()

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)

    def __enter__(self) -> LogRead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def records(self) -> list[dict[str, Any]]:
        """Every record, exactly as :meth:`ExperienceLog.read` returns them."""
        return parse_records(self.data, self.path)

    def chunks(self, size: int = CHUNK_BYTES) -> Iterator[list[dict[str, Any]]]:
        """The records of :meth:`records`, in order, in lists of about ``size`` bytes of lines.

        Each run of lines is parsed alone (cut where a line starts: records never hold a
        raw newline). A file where a run does not parse alone as records (another layout
        that still starts with ``[`` and ends with ``]``, or damage) is parsed whole
        instead, with the errors of :meth:`records`.
        """
        self.count, self._firsts, self._starts, self._lines = None, [], [], {}
        buf, off, data = self._buf, self._off, self.data
        end = self._size - len(FOOTER) - 1  # the "\n" after the last record
        start, done = len(HEADER), 0
        while start < end:
            cut = buf.find(b"\n,", off + start + size, off + end) - off if start + size < end else -1
            stop = end if cut < 0 else cut
            try:
                records = orjson.loads(b"".join((b"[", data[start:stop], b"]")))
            except orjson.JSONDecodeError:
                records = None
            # A run that parses alone ends where a record ends, so the runs parsed so far are
            # exactly the first records of the whole file.
            if not records or {*map(type, records)} != {dict}:
                rest = self.records()[done:]
                self._firsts, self._starts = [], []
                if rest:
                    yield rest
                return
            self._firsts.append(done)
            self._starts.append(start)
            done += len(records)
            yield records
            start = stop + 2
        self.count = done

    @contextlib.contextmanager
    def framed(self, head: bytes, lo: int, hi: int, tail: bytes) -> Iterator[Any]:
        """``head + data[lo:hi] + tail`` as one buffer: without a copy when ``head`` fits in
        the room before ``data[lo]`` (that is, before the first line; the bytes it covers
        are put back afterwards)."""
        at = self._off + lo - len(head)
        if not isinstance(self._buf, bytearray) or lo > len(HEADER) or at < 0 \
                or self._off + hi + len(tail) > len(self._buf):
            yield b"".join((head, self.data[lo:hi], tail))
            return
        end = self._off + hi + len(tail)
        saved = (bytes(self._buf[at:self._off + lo]), bytes(self._buf[self._off + hi:end]))
        try:
            self._buf[at:self._off + lo] = head
            self._buf[self._off + hi:end] = tail
            yield memoryview(self._buf)[at:end]
        finally:
            self._buf[at:self._off + lo], self._buf[self._off + hi:end] = saved

    def appended_since(self, fd: int, size: int) -> bytes | None:
        """The record lines appended after this read (joined by ``\\n,``; empty if none), from
        ``fd`` open on the same, intact file of ``size`` bytes; None if it changed otherwise."""
        n = self._size
        if size < n or n < len(EMPTY):
            return None
        check = min(n - len(FOOTER), 1 << 16)  # appends write at n - 2 onwards; what precedes stays
        if os.pread(fd, check, n - len(FOOTER) - check) != self.data[n - len(FOOTER) - check:n - len(FOOTER)]:
            return None
        tail = os.pread(fd, size - n + len(FOOTER), n - len(FOOTER))
        if tail == FOOTER:
            return b""
        if len(tail) < 5 or not tail.startswith(b",") or not tail.endswith(b"\n" + FOOTER):
            return None
        return tail[1:-len(FOOTER) - 1]

    def _line_start(self, i: int) -> int | None:
        """Offset of record ``i``'s line (``i == count``: two bytes past the end of the last
        line); None if the run of lines holding it is not one record per line."""
        import numpy as np

        assert self.count is not None
        if i >= self.count:
            return self._size - len(FOOTER) + 1
        c = bisect_right(self._firsts, i) - 1
        if c not in self._lines:
            lo = self._starts[c]
            last = c + 1 == len(self._starts)
            hi = self._size - len(FOOTER) - 1 if last else self._starts[c + 1] - 2
            size = (self.count if last else self._firsts[c + 1]) - self._firsts[c]
            raw = np.frombuffer(self._buf, np.uint8, hi - lo, self._off + lo)
            newlines = np.flatnonzero(raw == ord("\n"))
            # One record per line: as many lines as records, each newline between two of them ("}\n,{").
            ok = len(newlines) == size - 1
            if ok and len(newlines):
                ok = 1 <= newlines[0] and newlines[-1] + 2 < len(raw) and bool(
                    np.all(raw[newlines - 1] == ord("}")) and np.all(raw[newlines + 1] == ord(","))
                    and np.all(raw[newlines + 2] == ord("{")))
            self._lines[c] = [lo, *(newlines + (lo + 2)).tolist()] if ok else None
        lines = self._lines[c]
        return None if lines is None else lines[i - self._firsts[c]]

    def _line(self, i: int) -> tuple[int, int] | None:
        lo, hi = self._line_start(i), self._line_start(i + 1)
        return None if lo is None or hi is None else (lo, hi - 2)

    def spans(self, positions: Any, ids: Sequence[str] | None) -> list[tuple[int, int]] | None:
        """The lines of the records at ``positions``, as ``(start, end)`` offsets of runs of
        consecutive lines; None if they cannot be told apart. With ``ids``, the first and
        the last line of each run must each be one record with its id."""
        import numpy as np

        if not len(positions):
            return []
        breaks = np.flatnonzero(np.diff(positions) != 1) + 1
        firsts = np.concatenate(([0], breaks)).tolist()
        lasts = np.concatenate((breaks - 1, [len(positions) - 1])).tolist()
        at = positions.tolist()
        out = []
        for a, b in zip(firsts, lasts):
            first, last = self._line(at[a]), self._line(at[b])
            if first is None or last is None:
                return None
            if ids is not None and not (self._is_record(first, ids[a]) and self._is_record(last, ids[b])):
                return None
            out.append((first[0], last[1]))
        return out

    def _is_record(self, span: tuple[int, int], rid: str) -> bool:
        try:
            record = orjson.loads(self.data[span[0]:span[1]])
        except orjson.JSONDecodeError:
            return False
        return isinstance(record, dict) and record.get("id") == rid


def parse_records(data: bytes, path: Path) -> list[dict[str, Any]]:
    """The records of a complete log file's bytes (the checks of :meth:`ExperienceLog.read`)."""
    try:
        records = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise CorruptFileError(path, f"not valid JSON ({exc})") from None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise CorruptFileError(path, "expected a JSON array of objects")
    return records


def _joined(parts: list[Any]) -> list[Any]:
    """``parts`` with ``\\n,`` between them, ready for one ``b"".join``."""
    out = []
    for i, part in enumerate(parts):
        if i:
            out.append(b"\n,")
        out.append(part)
    return out


def _id_needle(rid: str) -> bytes:
    if rid.isalnum() or rid.replace("_", "").replace("-", "").isalnum():
        return b'"id":"' + rid.encode() + b'"'
    return b'"id":' + orjson.dumps(rid)


def _put_back(current: list[Any], back: list[tuple[int, Mapping[str, Any]]]) -> list[Any]:
    """``current`` with each record of ``back`` (sorted by position) inserted at its position,
    in turn (past the end: appended). One pass when the positions differ, as they do in an
    archive: inserting one by one shifts every later record each time, quadratic when a
    big round goes back in front of many newer records."""
    if any(a[0] == b[0] for a, b in zip(back, back[1:])):
        merged = list(current)
        for pos, record in back:
            merged.insert(min(pos, len(merged)), dict(record))
        return merged
    merged, rest = [], iter(current)
    for pos, record in back:
        merged.extend(islice(rest, max(pos - len(merged), 0)))
        merged.append(dict(record))
    merged.extend(rest)
    return merged


def _lines_hold_ids(lines: Sequence[bytes], positions: Sequence[int], ids: Sequence[str]) -> bool:
    n = len(lines)
    for pos, rid in zip(positions, ids):
        if not 0 <= pos < n or _id_needle(rid) not in lines[pos]:
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
