"""``.daily-experiences.ids``: a fingerprint of every record id ever appended, so that a
caller-given id already stored (in the log or a live archive) is refused at collection
without reading the log or the archives.

Layout: a 64-byte header ``"<inode> <size>"`` naming the log file and size the index
is complete for, then one 8-byte BLAKE2b fingerprint per id, appended. It is written
under the log's exclusive lock, after the log's append is synced, so it never holds an
id that is not stored. If the header does not match the log (a crash between the two
writes, a rewrite by hand or by ``doctor``), the index catches up from the lines
appended since, or is rebuilt from the log and the live archives (once, O(records)).

Cost per append: one 64-byte read and two small writes; a caller-given id also reads
the fingerprints (8 bytes per stored record) — generated ids (millisecond time and 64
random bits) are unique by construction and skip that read. A fingerprint match is
confirmed against the stored ids before an id is refused (a 1-in-2^64 collision never
refuses a new id). The index is not synced: after a power cut a stale header only
makes the next append catch up or rebuild.
"""

from __future__ import annotations

import os
from hashlib import blake2b
from typing import Callable, Iterable

from artibot.store.fs import open_fd
from artibot.store.home import Home

_HEADER = 64
_FP = 8


def fingerprint(rid: str) -> bytes:
    return blake2b(rid.encode("utf-8", "surrogatepass"), digest_size=_FP).digest()


class IdIndex:
    """The id index of one home; use only while holding the log's exclusive lock."""

    def __init__(self, home: Home):
        self.path = home.experience_ids

    def _open(self) -> int:
        return open_fd(self.path, os.O_RDWR | os.O_CREAT)

    @staticmethod
    def _header(fd: int) -> tuple[int, int] | None:
        try:
            ino, size = (int(x) for x in os.pread(fd, _HEADER, 0).split())
        except ValueError:
            return None
        return ino, size

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
            data = bytearray(f"{log_ino} {log_size}".encode().ljust(_HEADER))
            seen: set[bytes] = set()
            for rid in every_id():
                fp = fingerprint(rid)
                if fp not in seen:
                    seen.add(fp)
                    data += fp
            os.ftruncate(fd, 0)
            os.pwrite(fd, bytes(data), 0)
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

    def moved(self, log_ino: int, log_size: int) -> None:
        """The log was rewritten with the same ids overall (a move to or from an archive)."""
        fd = self._open()
        try:
            if os.fstat(fd).st_size >= _HEADER:
                os.pwrite(fd, f"{log_ino} {log_size}".encode().ljust(_HEADER), 0)
        finally:
            os.close(fd)

    def _add(self, fd: int, ids: Iterable[str], log_ino: int, log_size: int) -> None:
        size = max(os.fstat(fd).st_size, _HEADER)
        body = b"".join(fingerprint(rid) for rid in ids)
        if body:
            os.pwrite(fd, body, size - (size - _HEADER) % _FP)  # a torn fingerprint is overwritten
        # the header last: a crash before it leaves the index marked stale, never ahead of the log
        os.pwrite(fd, f"{log_ino} {log_size}".encode().ljust(_HEADER), 0)
