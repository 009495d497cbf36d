"""The learner's read of ``daily-experiences.json`` (:class:`LogRead`): the bytes parsed in
cache-sized runs of lines (a million records never exist as dicts at once) and kept, with
the file held open, so that the move to the archive reuses them and reads only what was
appended since.
"""

from __future__ import annotations

import contextlib
import os
from bisect import bisect_right
from pathlib import Path
from typing import Any, Iterator, Sequence

import orjson

from artibot.store.log.log_layout import EMPTY, FOOTER, HEADER, is_intact, parse_records

CHUNK_BYTES = 32 * 1024
"""Bytes of log parsed at a time by :meth:`LogRead.chunks`: the dicts of one run stay in the
CPU cache while their fields are read, which costs less than parsing the whole file at once."""


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
        return is_intact(self.data)

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
