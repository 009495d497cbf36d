"""``daily-experiences.json``: an append-only JSON array that never loses a record.

The layout (one record per line) is in ``log_layout``; the journal and the torn-tail
repair in ``log_journal``; the learner's chunked read in ``log_read``; the byte plans
of moves in ``log_move``; the archive documents in ``archive``; the id index in
``id_index``. This module runs them under the log's lock:

* **Append** (exclusive ``flock`` on ``.daily-experiences.lock``): arm the journal, one
  ``pwrite`` over the closing ``]\\n`` with ``,{record}\\n ... ]\\n``, ``fdatasync``,
  blank the journal. Cost is independent of the file's size. A caller-given id already
  stored is refused first (``id_index``).
* **Read** (shared lock, opened read-only): the file as it is, a torn tail left out —
  readers never write, so they work on a full disk or a read-only home.
* **Move to archive** (the learner) and **restore** (a rollback) each touch two files;
  a marker in ``archive/`` written first makes each restartable, and every exclusive
  open finishes an unfinished one before anything else: a record is never both in the
  log and in a live archive once a writer has opened the log.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import orjson

from artibot.errors import CorruptFileError, StoreError, ValidationError
from artibot.messages import Message
from artibot.store import archive
from artibot.store.log import log_journal, log_tail
from artibot.store.fs import FileLock, atomic_write_bytes, atomic_write_chunks, check_regular, open_fd
from artibot.store.home import Home
from artibot.store.log.id_index import IdIndex, appended_ids
from artibot.store.log.log_journal import Repair
from artibot.store.log.log_layout import (EMPTY, FOOTER, HEADER, TAIL, append_payload, encode, parse_records,
                                      record_lines, record_on, render, render_lines)
from artibot.store.log.log_move import Plan, plan_from_lines, plan_from_source, put_back
from artibot.store.log.log_read import LogRead, checked_records, read_range, zeros_error

__all__ = ["EMPTY", "MOVE_MARKER", "ExperienceLog", "LogRead", "Repair", "encode", "render"]

MOVE_MARKER = archive.MOVE_MARKER
log = logging.getLogger(__name__)


class ExperienceLog:
    """The append-only experience log of one data home."""

    def __init__(self, home: Home, *, durable: bool = True, lock_timeout: float = 30.0):
        self.home = home
        self.path = home.experiences
        self.durable = durable
        self.lock_timeout = lock_timeout
        self.last_repair: Repair | None = None
        self._held: FileLock | None = None
        self._skipped: list[Path] = []

    # ------------------------------------------------------------------ locking
    def _lock(self, shared: bool = False) -> FileLock:
        if not shared:
            self.home.ensure()
        return FileLock(self.home.experiences_lock, shared=shared, timeout=self.lock_timeout,
                        holder="another process writing the experience log")

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[FileLock]:
        """The exclusive lock, with any unfinished move or restore finished first."""
        with self._lock() as lock:
            self._held = lock
            try:
                self._finish_move()
                self._finish_restore()
                # a complete array in another layout (pretty-printed by the old plugin, or by
                # hand) is relaid in ours, never mistaken for a torn tail and cut
                log_journal.adopt_foreign_layout(self.home, self._rewrite)
                yield lock
            finally:
                self._held = None

    # ------------------------------------------------------------------ append
    def append(self, records: Sequence[Mapping[str, Any]], *, given_ids: Iterable[str] = (),
               skip_stored: bool = False) -> int:
        """Append ``records`` (already validated) as one all-or-nothing write. Returns the count.

        ``given_ids`` are the ids the caller chose (not generated): one already stored in the
        log or a live archive refuses the whole batch (:class:`ValidationError`), unless
        ``skip_stored``: then the records already stored are left out and the rest appended
        (a hand-over replayed after a crash stores each record once).
        """
        if not records:
            return 0
        with self._exclusive() as lock:
            assert lock.fd is not None
            fd = self._open_for_append()
            try:
                index, size, ino = self._synced_index(fd)
                stored = self._stored(index, list(given_ids))
                if stored and not skip_stored:
                    raise _already_stored(stored)
                records = [r for r in records if r["id"] not in stored]
                if not records:
                    return 0
                lines = [encode(r) for r in records]
                payload = append_payload(lines, empty=size == len(EMPTY))
                start = size - len(FOOTER)
                log_journal.arm(lock.fd, start, ino, start + len(payload), durable=self.durable)
                log_journal.write_append(fd, payload, start, lock.fd, durable=self.durable)
                index.add((r["id"] for r in records), ino, start + len(payload))
                if self._skipped:  # built without an unreadable archive: never trusted as complete
                    index.drop()
            except OSError as exc:
                raise StoreError.from_os(exc, self.path, "append to") from None
            finally:
                os.close(fd)
        return len(lines)

    def refuse_stored(self, given_ids: Iterable[str]) -> None:
        """ValidationError, as :meth:`append` words it, when one of ``given_ids`` is already stored
        (a caller appending in several batches checks all of them before the first)."""
        given = list(given_ids)
        if not given or not self.path.exists():
            return
        with self._exclusive() as lock:
            assert lock.fd is not None
            fd = self._open_for_append()
            try:
                index, _, _ = self._synced_index(fd)
                stored = self._stored(index, given)
            except OSError as exc:
                raise StoreError.from_os(exc, self.path, "read") from None
            finally:
                os.close(fd)
        if stored:
            raise _already_stored(stored)

    def _synced_index(self, fd: int) -> tuple[IdIndex, int, int]:
        """The id index brought up to the log open at ``fd`` (under the caller's lock), the log's
        size and inode."""
        size = self._ensure_intact(fd, os.fstat(fd).st_size)
        ino = os.fstat(fd).st_ino
        index = IdIndex(self.home)
        self._skipped = []
        index.sync(ino, size, lambda since: appended_ids(fd, since, size), self._every_id)
        return index, size, ino

    def _stored(self, index: IdIndex, given: list[str]) -> set[str]:
        """Which of ``given`` are already stored (a fingerprint match, confirmed on the files)."""
        maybe = index.known(given)
        if not maybe:
            return set()
        return set(self._every_id()) & set(maybe)

    def _every_id(self) -> list[str]:
        """Every id stored, in the log (read under the held lock, a chunk at a time: zeros and
        damaged lines are stepped over, a record beside them still counts) and the live archives."""
        from artibot.store.log.log_zeros import record_ids

        ids: list[str] = []
        if check_regular(self.path):
            with self._intact() as (fd, size):
                ids.extend(record_ids(fd, len(HEADER), size - len(FOOTER)))
        damaged: list[Path] = []
        ids.extend(archive.ids(self.home, damaged=damaged))
        for path in damaged:
            # not fatal to collecting: `artibot doctor` reports the file and moves it aside
            log.warning("%s is not a readable archive; its ids are not checked for duplicates (run `artibot "
                        "doctor`)", path)
        self._skipped = damaged
        return ids

    def _open_for_append(self) -> int:
        if not check_regular(self.path):
            atomic_write_bytes(self.path, EMPTY, durable=self.durable)
        return open_fd(self.path, os.O_RDWR)

    # ------------------------------------------------------------------ repair
    def _ensure_intact(self, fd: int, size: int) -> int:
        """Return the size of an intact file, repairing a torn tail first (caller holds the lock exclusively)."""
        if os.pread(fd, len(HEADER), 0) != HEADER:
            raise CorruptFileError(self.path, Message("log.bad_header"))
        assert self._held is not None and self._held.fd is not None
        if size >= len(EMPTY) and os.pread(fd, 3, size - 3) == TAIL and not self._unlanded(fd, size, self._held.fd):
            return size
        new_size, self.last_repair = log_journal.repair_tail(self.home, fd, size, self._held.fd)
        return new_size

    def _unlanded(self, fd: int, size: int, lock_fd: int | None) -> bool:
        """Whether the journal names an append that did not land whole (a finished append's
        journal, left armed by a kill or a power cut, is blanked when this holds the lock)."""
        state = log_journal.state_of(fd, size, log_journal.read(lock_fd, self.home.experiences_lock))
        if state == "landed" and self._held is not None and self._held.fd is not None and not self._held.shared:
            log_journal.clear(self._held.fd, durable=False)
        return state == "unlanded"

    @contextlib.contextmanager
    def _intact(self) -> Iterator[tuple[int, int]]:
        """``(fd, size)`` of the log open read-write, a torn tail repaired (the lock is held)."""
        fd = open_fd(self.path, os.O_RDWR)
        try:
            yield fd, self._ensure_intact(fd, os.fstat(fd).st_size)
        finally:
            os.close(fd)

    def repair(self) -> Repair | None:
        """Repair a torn tail now (``doctor``). Returns what was done, or None if the file was intact."""
        if not check_regular(self.path):
            return None
        with self._exclusive():
            self.last_repair = None
            if not check_regular(self.path):
                return None
            with self._intact():
                return self.last_repair

    # ------------------------------------------------------------------ read
    def read_bytes(self) -> bytes:
        """The whole log as a complete JSON array, a torn tail left out; writes nothing.

        An unfinished move (the marker of ``archive``) is presented finished: the records
        already archived are left out (the next writer drops them from the file). A torn
        tail is found a chunk at a time and never read; a log with a hole or zero bytes
        raises rather than being read whole.
        """
        if not check_regular(self.path):
            return EMPTY
        with self._lock(shared=True) as lock:
            fd = open_fd(self.path, os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
                journal = log_journal.read(lock.fd, self.home.experiences_lock)
                cut = log_journal.reader_cut(fd, size, journal, self.path) if size else None
                if cut is None and log_tail.has_hole(fd, size):
                    raise zeros_error(fd, self.path, 0, size)
                data = read_range(fd, 0, size) if cut is None else read_range(fd, 0, cut) + FOOTER
                if b"\0" in data:
                    raise zeros_error(fd, self.path, 0, size)
            finally:
                os.close(fd)
            moved = archive.marker_ids(self.home, archive.MOVE_MARKER)
        if moved:
            lines = record_lines(data)
            data = render_lines([ln for ln in lines if (record_on(ln) or {}).get("id") not in moved])
        return data

    def read(self) -> list[dict[str, Any]]:
        """Every unprocessed record, in the order appended (each checked: a bad one raises,
        naming its line and field)."""
        return parse_records(self.read_bytes(), self.path)

    def count(self) -> int:
        """Number of records: counts lines a chunk at a time, without parsing them or holding
        the file (a log as a reader sees it: a torn tail left out). Holes are never read;
        zero bytes where records should be raise, with where they are and ``doctor``'s advice."""
        if not check_regular(self.path):
            return 0
        with self._lock(shared=True) as lock:
            fd = open_fd(self.path, os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
                if size == 0:
                    return 0
                if not archive.pending(self.home):
                    cut = log_journal.reader_cut(fd, size, log_journal.read(lock.fd), self.path)
                    end = size if cut is None else cut  # torn: up to its last complete record
                    lines = 0
                    for _, chunk in log_tail.chunks(fd, 0, end):
                        if chunk is None or b"\0" in chunk:
                            raise zeros_error(fd, self.path, 0, end)
                        lines += chunk.count(b"\n")
                    return max(lines - (2 if cut is None else 1), 0)  # the '[' line (and the bracket's)
            finally:
                os.close(fd)
        return max(self.read_bytes().count(b"\n") - 2, 0)

    def open_read(self) -> LogRead:
        """The whole log for the learner (a writer: a torn tail or an unfinished move is
        repaired first), kept open for :meth:`move_to_archive` (close the result, or use it as
        a context manager)."""
        read = self._open_shared(layout=True) if check_regular(self.path) else LogRead.of_bytes(self.path, EMPTY)
        if read is not None:
            return read
        with self._exclusive():
            if not check_regular(self.path):
                return LogRead.of_bytes(self.path, EMPTY)
            with self._intact():  # a torn tail cut: nothing more is read
                return LogRead.open(self.path)

    def stream(self) -> Iterator[dict[str, Any]]:
        """:meth:`read`'s records, checked alike, parsed a run at a time from the file (a log
        in any layout); a log a reader must present otherwise (torn, mid-move) is read whole."""
        read = self._open_shared(layout=False) if check_regular(self.path) else LogRead.of_bytes(self.path, EMPTY)
        if read is None:
            yield from self.read()
            return
        with read:
            yield from checked_records(read)

    def _open_shared(self, *, layout: bool) -> LogRead | None:
        """The log held open as it is, when intact and in no move (``layout``: and in ours);
        else None (the caller repairs, or reads it whole)."""
        with self._lock(shared=True) as lock:
            read = LogRead.open(self.path)
            if read.intact() and not archive.pending(self.home) and not (
                    layout and log_journal.looks_foreign(read.fd)) and not (
                    read.fd is not None and self._unlanded(read.fd, read.size, lock.fd)):
                return read
        read.close()
        return None

    def _bytes_locked(self) -> bytes:
        """The intact log (torn tail repaired), read while this object holds the exclusive lock."""
        assert self._held is not None
        if not check_regular(self.path):
            return EMPTY
        with self._intact() as (fd, size):
            if log_tail.has_hole(fd, size):
                raise zeros_error(fd, self.path, 0, size)
            return os.pread(fd, size, 0)

    def _lines_locked(self) -> list[bytes]:
        """Every record as its raw JSON line (no leading comma), read under the exclusive lock."""
        return record_lines(self._bytes_locked())

    def _read_locked(self) -> list[dict[str, Any]]:
        """Every record, read while this object holds the exclusive lock."""
        try:
            records: list[dict[str, Any]] = orjson.loads(self._bytes_locked())
            return records
        except orjson.JSONDecodeError as exc:
            raise CorruptFileError(self.path, Message("json.invalid", reason=str(exc))) from None

    def _rewrite(self, data: bytes | Iterable[bytes]) -> None:
        """Replace the log (same ids overall, counting the live archives: the id index follows
        it, if it was complete for the file replaced)."""
        try:
            st = os.lstat(self.path)
            was: tuple[int, int] | None = (st.st_ino, st.st_size)
        except FileNotFoundError:
            was = None
        if isinstance(data, bytes):
            atomic_write_bytes(self.path, data, durable=True)
        else:  # chunks: written as they come, never held whole
            atomic_write_chunks(self.path, data, durable=True)
        st = os.stat(self.path)
        IdIndex(self.home).moved(was, st.st_ino, st.st_size)

    # ------------------------------------------------------------------ move to archive
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
                plan = plan_from_lines(self._lines_locked(), id_list, positions)
            if plan is None:
                return 0
            pos, build, kept = plan
            if check_regular(archive.path_of(self.home, name)):
                raise StoreError(Message("archive.exists", path=str(archive.path_of(self.home, name))))
            # The marker goes first: a crash right after the archive write must still let the
            # next open drop the archived records from the log (else they would be in both).
            archive.write_marker(self.home, archive.MOVE_MARKER, {"archive": f"{name}.json"})
            with build(archive.head(name, meta, pos), archive.TAIL) as doc:
                archive.write(self.home, name, doc)
            self._rewrite(kept)
            archive.clear_marker(self.home, archive.MOVE_MARKER)
            return len(pos)

    def _plan_from_source(self, source: LogRead, positions: Sequence[int], id_list: list[str]) -> Plan | None:
        if source.fd is None or not check_regular(self.path):
            return None
        fd = open_fd(self.path, os.O_RDWR)
        try:
            st, was = os.fstat(fd), os.fstat(source.fd)
            if (st.st_dev, st.st_ino) != (was.st_dev, was.st_ino):
                return None  # replaced since (the source holds the old file open: no inode reuse)
            size = self._ensure_intact(fd, st.st_size)
            return plan_from_source(source, positions, id_list, lambda: source.appended_since(fd, size))
        finally:
            os.close(fd)

    def _finish_move(self) -> None:
        """Complete a move interrupted between writing the archive and rewriting the log."""
        info = archive.read_marker(self.home, archive.MOVE_MARKER)
        if info is None:
            return
        doc = archive.read_path(self.home.archive_dir / info["archive"])
        if doc is not None:
            done = {r.get("id") for r in doc["records"]}
            lines = self._lines_locked()
            self._rewrite(render_lines([ln for ln in lines if (record_on(ln) or {}).get("id") not in done]))
        archive.clear_marker(self.home, archive.MOVE_MARKER)

    # ------------------------------------------------------------------ restore (rollback)
    def restore_archive(self, name: str) -> int:
        """Put the records of the live archive ``name`` back into the log and retire the archive,
        as one restartable operation. Returns how many records came back (0 when the archive
        is not live: never written, or already restored).

        With the archive's ``positions`` each record returns to the index it had, so a move
        followed by its restore leaves the file byte-for-byte as it was.
        """
        with self._exclusive():
            if archive.read(self.home, name) is None:
                return 0
            archive.write_marker(self.home, archive.RESTORE_MARKER,
                                 {"archive": f"{name}.json", "retired": archive.retired_name(name)})
            return self._finish_restore()

    def _finish_restore(self) -> int:
        """Finish a restore: the records back in the log (those it lacks), then the archive retired."""
        info = archive.read_marker(self.home, archive.RESTORE_MARKER)
        if info is None:
            return 0
        name = info["archive"].removesuffix(".json")
        doc = archive.read(self.home, name)
        count = 0
        if doc is not None:
            merged, count = put_back(self._read_locked(), doc["records"], archive.positions_of(doc))
            if count:
                self._rewrite(render(merged))
            archive.retire(self.home, name, Path(str(info.get("retired") or archive.retired_name(name))).name)
        archive.clear_marker(self.home, archive.RESTORE_MARKER)
        return count

    def drop_archived(self) -> int:
        """Drop from the log every record a live archive also holds (``doctor --repair``: the
        archived copy is the one a round processed). Returns how many were dropped."""
        with self._exclusive():
            archived = set(archive.ids(self.home))
            lines = self._lines_locked()
            kept = [ln for ln in lines if (record_on(ln) or {}).get("id") not in archived]
            if len(kept) != len(lines):
                self._rewrite(render_lines(kept))
            return len(lines) - len(kept)


def _already_stored(stored: set[str]) -> ValidationError:
    shown = ", ".join(repr(i) for i in sorted(stored)[:5]) + (" …" if len(stored) > 5 else "")
    return ValidationError([Message("record.already_stored", ids=shown)])
