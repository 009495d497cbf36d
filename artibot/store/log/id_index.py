"""``.daily-experiences.ids``: a fingerprint of every record id ever appended, so that a
caller-given id already stored (in the log or a live archive) is refused at collection
without reading the log or the archives.

Layout: a 64-byte header ``"<inode> <size> <boot>"`` naming the log file and size the
index is complete for and the boot it was written in, then one 8-byte BLAKE2b
fingerprint per id, appended. It is written under the log's exclusive lock, after the
log's append is synced, so it never holds an id that is not stored. If the header does
not match the log (a kill between the two writes, a rewrite by hand), the index catches
up from the lines appended since, or is rebuilt from the log and the live archives
(once, O(records)).

The index is trusted only as far as what it was built from:

* a rewrite of the log (a move to the archive, a restore, a repair) restamps the header
  only if the index was complete for the file being replaced (:meth:`IdIndex.moved`);
  otherwise the index is dropped and the next append rebuilds it. Stamping a stale index
  current would let a retried batch whose first copy landed just before a kill be
  stored twice.
* The index is not synced (an append would cost two more syncs). A power cut can keep
  its header page and lose a fingerprint page, so an index written in an earlier boot
  is rebuilt, once, on the first append of the next boot. Where the boot cannot be told
  (no ``/proc/sys/kernel/random/boot_id``), every index write is synced instead.

Cost per append: one 64-byte read and two small writes; a caller-given id also reads
the fingerprints (8 bytes per stored record) — generated ids (millisecond time and 64
random bits) are unique by construction and skip that read. A fingerprint match is
confirmed against the stored ids before an id is refused (a 1-in-2^64 collision never
refuses a new id).
"""

from __future__ import annotations

import os
from hashlib import blake2b
from pathlib import Path
from typing import Callable, Iterable

from artibot.store.fs import open_fd
from artibot.store.home import Home
from artibot.store.log import log_tail
from artibot.store.log.log_layout import EMPTY, FOOTER, TAIL, record_on

_HEADER = 64
_FP = 8
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
"""Where Linux says which boot this is (a new value after every restart)."""


def fingerprint(rid: str) -> bytes:
    return blake2b(rid.encode("utf-8", "surrogatepass"), digest_size=_FP).digest()


def boot_id() -> str | None:
    """This boot's id, or None where the system does not say."""
    try:
        with open(BOOT_ID, "rb") as fh:
            return fh.read(64).decode("ascii", "replace").strip() or None
    except OSError:
        return None


def _stamp(log_ino: int, log_size: int, boot: str | None) -> bytes:
    return f"{log_ino} {log_size} {boot or '-'}".encode().ljust(_HEADER)[:_HEADER]


class IdIndex:
    """The id index of one home; use only while holding the log's exclusive lock."""

    def __init__(self, home: Home):
        self.path = home.experience_ids
        self.boot = boot_id()

    def _open(self) -> int:
        return open_fd(self.path, os.O_RDWR | os.O_CREAT)

    def _header(self, fd: int) -> tuple[int, int] | None:
        """What the index is complete for; None when it cannot be trusted (unreadable, an older
        layout, or written unsynced in an earlier boot: a power cut may have lost part of it)."""
        try:
            ino, size, boot = os.pread(fd, _HEADER, 0).split()
            header = int(ino), int(size)
        except ValueError:
            return None
        if self.boot is not None and boot.decode("ascii", "replace") != self.boot:
            return None
        return header

    def _sync(self, fd: int) -> None:
        if self.boot is None:  # no way to tell a restart: the index must survive one as written
            os.fsync(fd)

    def sync(self, log_ino: int, log_size: int, appended_since: Callable[[int], Iterable[str] | None],
             every_id: Callable[[], Iterable[str]]) -> None:
        """Make the index complete for the log ``(log_ino, log_size)``: nothing to do when its
        header says so; else add the ids ``appended_since(size)`` gives (None: cannot tell),
        or rebuild from ``every_id()``."""
        fd = self._open()
        try:
            header = self._header(fd)
            if header == (log_ino, log_size):
                return
            more = appended_since(header[1]) if header is not None and header[0] == log_ino \
                and header[1] <= log_size else None
            if more is not None:
                self._add(fd, more, log_ino, log_size)
                return
            data = bytearray(_stamp(log_ino, log_size, self.boot))
            seen: set[bytes] = set()
            for rid in every_id():
                fp = fingerprint(rid)
                if fp not in seen:
                    seen.add(fp)
                    data += fp
            os.ftruncate(fd, 0)
            os.pwrite(fd, bytes(data), 0)
            self._sync(fd)
        finally:
            os.close(fd)

    def known(self, ids: Iterable[str]) -> list[str]:
        """The ``ids`` whose fingerprint is in the index (call :meth:`sync` first)."""
        wanted = {fingerprint(rid): rid for rid in ids}
        if not wanted:
            return []
        fd = self._open()
        try:
            size = os.fstat(fd).st_size
            body = os.pread(fd, size - _HEADER, _HEADER) if size > _HEADER else b""
        finally:
            os.close(fd)
        stored = {body[i:i + _FP] for i in range(0, len(body) - _FP + 1, _FP)}
        return [rid for fp, rid in wanted.items() if fp in stored]

    def add(self, ids: Iterable[str], log_ino: int, log_size: int) -> None:
        """Record ``ids`` as stored; the index is then complete for ``(log_ino, log_size)``."""
        fd = self._open()
        try:
            self._add(fd, ids, log_ino, log_size)
        finally:
            os.close(fd)

    def moved(self, was: tuple[int, int] | None, log_ino: int, log_size: int) -> None:
        """The log ``was`` ``(inode, size)`` (None: there was none) has been rewritten as
        ``(log_ino, log_size)``, keeping every id it had or moving it to a live archive.
        The index follows only if it was complete for the file replaced; else it is
        dropped (the next append rebuilds it), never stamped current."""
        fd = self._open()
        try:
            if os.fstat(fd).st_size < _HEADER:
                return
            if was is not None and self._header(fd) == was:
                os.pwrite(fd, _stamp(log_ino, log_size, self.boot), 0)
                self._sync(fd)
            else:
                os.ftruncate(fd, 0)
        finally:
            os.close(fd)

    def drop(self) -> None:
        """Forget what the index is complete for (the next append rebuilds it)."""
        fd = self._open()
        try:
            os.ftruncate(fd, 0)
        finally:
            os.close(fd)

    def _add(self, fd: int, ids: Iterable[str], log_ino: int, log_size: int) -> None:
        size = max(os.fstat(fd).st_size, _HEADER)
        body = b"".join(fingerprint(rid) for rid in ids)
        if body:
            os.pwrite(fd, body, size - (size - _HEADER) % _FP)  # a torn fingerprint is overwritten
            self._sync(fd)
        # the header last: a kill before it leaves the index marked stale, never ahead of the log
        os.pwrite(fd, _stamp(log_ino, log_size, self.boot), 0)
        self._sync(fd)


def appended_ids(fd: int, since: int, size: int) -> list[str] | None:
    """The ids of the lines appended after the log was ``since`` bytes long; None if unsure.
    Read a line at a time (:func:`log_tail.lines`): a hole or zeros there are never held."""
    if since < len(EMPTY) or since > size:
        return None
    if size == since:
        return [] if os.pread(fd, len(FOOTER), size - len(FOOTER)) == FOOTER else None
    if os.pread(fd, len(TAIL), size - len(TAIL)) != TAIL:
        return None
    out = []
    for _, line in log_tail.lines(fd, since - len(FOOTER), size - len(FOOTER)):
        record = record_on(line) if line is not None else None
        if record is None or not isinstance(record.get("id"), str):
            return None
        out.append(record["id"])
    return out
