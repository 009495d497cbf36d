"""``doctor``'s checks of the experience log: classify it (``log_scan``), check its records,
and the two repairs, cutting a torn tail and salvaging a log damaged in the middle.
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import orjson

from artibot.errors import ArtibotError, CorruptFileError, LockTimeout, StoreError
from artibot.messages import Message
from artibot.store import archive
from artibot.store.log import log_tail, log_zeros
from artibot.store.log import log_journal
from artibot.store.log.experiences import ExperienceLog
from artibot.store.fs import (FileLock, atomic_write_bytes, atomic_write_chunks, check_regular, ensure_dir, open_fd,
                              read_bytes)
from artibot.store.log.id_index import IdIndex, fingerprint
from artibot.store.home import Home
from artibot.store.log.log_layout import (EMPTY, FOOTER, HEADER, TAIL, record_on, record_problems, render,
                                      render_lines, said_record_problems)
from artibot.store.log.log_scan import scan_log
from artibot.store.quarantine import kind_of, stamp

if TYPE_CHECKING:
    from artibot.messages import Param

LOCK_WAIT_S = 10.0


def why(exc: Exception) -> Param:
    """Why a check or a repair failed: the error's message, else its sentence as a one-part
    tuple (a part that is a sentence, not a message, is said by the command line's rules)."""
    message = exc.message if isinstance(exc, ArtibotError) else None
    return message if message is not None else (str(exc),)


class LogChecks:
    """The experience-log part of ``doctor``'s examination, which mixes it in and provides
    these three: the home, ``add`` (a finding and its repair) and ``regular``."""

    home: Home
    add: Callable[..., None]
    regular: Callable[[Path, Message], bool]

    def experience_log(self) -> None:
        path = self.home.experiences
        if not self.regular(path, Message("doctor.lost.log")):
            return
        lock_path = self.home.experiences_lock
        healthy = self.healthy_log(path, lock_path)
        if healthy is not None:
            self.add(path, "ok", Message("doctor.unprocessed", n=healthy))
            return
        if self.zero_filled_log(path, lock_path):
            return
        lock = FileLock(lock_path, shared=True, timeout=LOCK_WAIT_S) if kind_of(lock_path) == "file" else None
        try:
            if lock:
                lock.acquire()
            try:
                data = read_bytes(path) or b""
                journal = self.journal(path, lock_path, data)
            finally:
                if lock:
                    lock.release()
        except LockTimeout as exc:
            self.add(path, "warning", Message("doctor.unchecked", why=why(exc)), Message("doctor.run_again"))
            return
        scan = scan_log(data, journal)
        if scan.state == "ok":
            self.log_records(path, scan.records)
        elif scan.state == "torn":
            self.add(path, "warning", Message("doctor.torn", detail=scan.detail), Message("doctor.torn_fix"),
                     self.cut_tail)
            self.log_records(path, self.before_tail(path, data, lock_path), torn=True)
        elif scan.state == "layout":
            self.add(path, "warning", Message("doctor.layout"), Message("doctor.layout_fix", n=len(scan.records)),
                     self.salvage)
        else:
            self.add(path, "error", Message("doctor.damaged_middle", detail=scan.detail),
                     Message("doctor.salvage_fix", n=len(scan.records)), self.salvage)

    def zero_filled_log(self, path: Path, lock_path: Path) -> bool:
        """The findings for a log that holds zero bytes (a hole where records should be), read
        a fragment at a time with the holes skipped (:mod:`log_zeros`); False when it holds none."""
        lock = FileLock(lock_path, shared=True, timeout=LOCK_WAIT_S) if kind_of(lock_path) == "file" else None
        try:
            if lock:
                lock.acquire()
        except LockTimeout as exc:
            self.add(path, "warning", Message("doctor.unchecked", why=why(exc)), Message("doctor.run_again"))
            return True
        try:
            fd = open_fd(path, os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
                if log_zeros.first_zero(fd, 0, size) is None:
                    return False
                scan = log_zeros.scan(fd, size, self.unlanded_at(fd, size, lock.fd if lock else None, lock_path))
                if scan.state == "torn":
                    self.add(path, "warning", Message("doctor.torn", detail=scan.detail),
                             Message("doctor.torn_zeros_fix"), self.cut_tail)
                    self.log_records(path, log_zeros.records(fd, len(HEADER), scan.cut_at), torn=True)
                else:
                    self.add(path, "error", Message("doctor.damaged", detail=scan.detail),
                             Message("doctor.salvage_zeros_fix", n=scan.records), self.salvage)
            finally:
                os.close(fd)
        finally:
            if lock:
                lock.release()
        return True

    @staticmethod
    def unlanded_at(fd: int, size: int, lock_fd: int | None, lock_path: Path) -> int | None:
        """The offset of the append the journal names when it is not all there, else None."""
        journal = log_journal.read(lock_fd, lock_path)
        if journal is None or log_journal.state_of(fd, size, journal) != "unlanded":
            return None
        return journal.offset

    def healthy_log(self, path: Path, lock_path: Path) -> int | None:
        """The number of records when the log needs nothing (intact, in layout, every record
        valid, no id twice nor also in a live archive), checked a line at a time: a log of
        gigabytes costs 8 bytes a record. None when anything needs the full examination."""
        lock = FileLock(lock_path, shared=True, timeout=LOCK_WAIT_S) if kind_of(lock_path) == "file" else None
        try:
            if lock:
                lock.acquire()
        except LockTimeout:
            return None
        try:
            fd = open_fd(path, os.O_RDONLY)
            try:
                fps = self._fingerprints_if_healthy(fd, lock.fd if lock else None, lock_path)
            finally:
                os.close(fd)
        finally:
            if lock:
                lock.release()
        if fps is None:
            return None
        prints = np.frombuffer(fps, dtype=np.uint64)
        if np.unique(prints).size != prints.size:
            return None
        if prints.size and not archive.pending(self.home):
            try:
                archived = np.fromiter((int.from_bytes(fingerprint(rid), "little") for rid in archive.ids(self.home)),
                                       dtype=np.uint64)
            except StoreError:  # a damaged archive (or a link in its place) is reported by its own check
                archived = np.empty(0, dtype=np.uint64)
            if np.isin(prints, archived).any():
                return None
        return int(prints.size)

    @staticmethod
    def _fingerprints_if_healthy(fd: int, lock_fd: int | None, lock_path: Path) -> array[int] | None:
        size = os.fstat(fd).st_size
        if size < len(EMPTY) or os.pread(fd, len(HEADER), 0) != HEADER or os.pread(fd, len(TAIL), size - 3) != TAIL:
            return None
        journal = log_journal.read(lock_fd, lock_path)
        if journal is not None and journal.applies_to(os.fstat(fd).st_ino, size) and not log_journal.landed(
                journal, size, os.pread(fd, size - journal.offset, journal.offset)):
            return None
        fps = array("Q")
        batch: list[bytes] = []

        def check(bodies: list[bytes]) -> bool:
            # one parse per batch of lines; more values than lines means a line held two records
            try:
                records = orjson.loads(b"[" + b",".join(bodies) + b"]")
            except orjson.JSONDecodeError:
                return False
            if len(records) != len(bodies):
                return False
            for record in records:
                if not isinstance(record, dict) or not isinstance(record.get("id"), str) or record_problems(record):
                    return False
                fps.append(int.from_bytes(fingerprint(record["id"]), "little"))
            return True

        for n, (_, line) in enumerate(log_tail.lines(fd, len(HEADER), size - len(FOOTER))):
            if line is None or line.startswith(b",") != (n > 0) or not line.rstrip().endswith(b"}"):
                return None
            batch.append(line[1:] if n else line)
            if len(batch) >= 4096:
                if not check(batch):
                    return None
                batch = []
        return fps if not batch or check(batch) else None

    @staticmethod
    def journal(path: Path, lock_path: Path, data: bytes) -> int | None:
        """The offset journalled by the last append, if it applies to the current file (``data``)
        and that append is not all there (a finished append's journal, left armed, is not)."""
        if kind_of(lock_path) != "file":
            return None
        journal = log_journal.parse((read_bytes(lock_path) or b"")[:log_journal.JOURNAL_SIZE])
        if journal is None or journal.inode != os.lstat(path).st_ino:
            return None
        if journal.applies_to(journal.inode, len(data)) and log_journal.landed(journal, len(data),
                                                                               data[journal.offset:]):
            return None
        return journal.offset

    @staticmethod
    def before_tail(path: Path, data: bytes, lock_path: Path) -> list[dict[str, Any]]:
        """The records before a torn tail, as a reader sees them (nothing is written)."""
        journal = log_journal.parse((read_bytes(lock_path) or b"")[:log_journal.JOURNAL_SIZE]) \
            if kind_of(lock_path) == "file" else None
        try:
            seen = log_journal.visible(data, journal, os.lstat(path).st_ino, path)
        except CorruptFileError:
            return []
        return [r for r in (record_on(line) for line in seen.split(b"\n")[1:-2]) if r is not None]

    def log_records(self, path: Path, records: Iterable[dict[str, Any]], *, torn: bool = False) -> None:
        invalid = 0
        first_line = 0  # the first record that breaks the schema: its line and its problems
        first_problems: tuple[str | Message, ...] = ()
        seen: set[Any] = set()
        duplicates = 0
        count = 0
        for i, record in enumerate(records):
            count += 1
            problems = said_record_problems(record)
            if problems and not invalid:
                first_line, first_problems = i + 2, tuple(problems)  # line 1 is the '['
            invalid += bool(problems)
            duplicates += record.get("id") in seen
            seen.add(record.get("id"))
        if invalid:
            # the first record's problems are said one by one, as a record's validation words them
            self.add(path, "error", Message("doctor.schema_broken", n=invalid, line=first_line, problems=first_problems),
                     Message("doctor.schema_broken_fix"), self.quarantine_records)
        if duplicates:
            self.add(path, "warning", Message("doctor.duplicates", n=duplicates), Message("doctor.duplicates_fix"),
                     self.quarantine_records)
        both = self.in_live_archive(seen)
        if both:
            self.add(path, "error", Message("doctor.in_archive", n=len(both), first=repr(sorted(both)[0])),
                     Message("doctor.in_archive_fix"),
                     lambda: ExperienceLog(self.home, lock_timeout=LOCK_WAIT_S).drop_archived() and None)
        if not invalid and not duplicates and not both and not torn:
            self.add(path, "ok", Message("doctor.unprocessed", n=count))

    def in_live_archive(self, ids: set[Any]) -> set[Any]:
        """The ids also in a live archive (none while a move or restore is unfinished: the
        next writer finishes it, see the archive markers)."""
        if not ids or archive.pending(self.home):
            return set()
        try:
            return ids & set(archive.ids(self.home))
        except Exception:  # noqa: BLE001 - a damaged archive is reported by its own check
            return set()

    def quarantine_records(self) -> Path | None:
        """Under the log's lock: move each record that breaks the schema, and each later copy of an
        id, into one quarantine/ file (one line each, as they were); the log keeps the rest."""
        log = ExperienceLog(self.home, lock_timeout=LOCK_WAIT_S)
        with log._exclusive():
            lines = log._lines_locked()
            kept, bad, seen = [], [], set()
            for line in lines:
                record = record_on(line)
                if record is None or record_problems(record) or record.get("id") in seen:
                    bad.append(line)
                else:
                    seen.add(record.get("id"))
                    kept.append(line)
            if not bad:
                return None
            moved = log_journal.quarantine(self.home, b"\n".join(bad) + b"\n", suffix="bad-records")
            log._rewrite(render_lines(kept))
            return moved

    def cut_tail(self) -> Path | None:
        done = ExperienceLog(self.home).repair()
        return done.quarantined_to if done else None

    def salvage(self) -> Path | None:
        """Under the log's lock: keep the bad copy (hard link, else a byte copy) in quarantine/, write a fresh log."""
        path = self.home.experiences
        with FileLock(self.home.experiences_lock, timeout=LOCK_WAIT_S) as lock:
            moved = self.salvage_zeros(path, lock.fd)
            if moved is not False:
                return moved
            data = read_bytes(path)
            if data is None:
                return None
            scan = scan_log(data, self.journal(path, self.home.experiences_lock, data))
            if scan.state in ("ok", "torn"):
                return None  # someone repaired or rewrote it meanwhile
            qdir = ensure_dir(self.home.quarantine_dir)
            kept = qdir / f"daily-experiences.json.{stamp()}.{time.time_ns() % 10**9}.damaged"
            try:
                os.link(path, kept)
            except OSError:
                atomic_write_bytes(kept, data)
            atomic_write_bytes(path, render(scan.records))
            return kept

    def salvage_zeros(self, path: Path, lock_fd: int | None) -> Path | None | Literal[False]:
        """:meth:`salvage` of a log holding zero bytes (the caller holds the lock), a fragment at
        a time: every record (first copy of each id) into a fresh log; the damaged copy into
        quarantine/ as its non-zero bytes and a description of the zero-filled runs. False when
        the log holds no zero byte (the whole-file salvage applies)."""
        if not check_regular(path):
            return None
        fd = open_fd(path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            if log_zeros.first_zero(fd, 0, size) is None:
                return False
            if log_zeros.scan(fd, size, self.unlanded_at(fd, size, lock_fd, self.home.experiences_lock)).state \
                    != "damaged":
                return None  # someone repaired or rewrote it meanwhile, or only its tail is torn
            kept = ensure_dir(self.home.quarantine_dir) / \
                f"daily-experiences.json.{stamp()}.{time.time_ns() % 10**9}.damaged"
            log_tail.quarantine_range(fd, 0, size, kept, path)
            atomic_write_chunks(path, log_zeros.salvaged(fd, size))
            IdIndex(self.home).drop()  # rebuilt from the fresh log by the next append
            return kept
        finally:
            os.close(fd)
