"""The learner's read of ``daily-experiences.json`` (:class:`LogRead`): the records parsed
in cache-sized runs straight from the file, a block at a time (neither the file's bytes nor
its records are ever held whole), with the file held open, so that the move to the
archive copies the processed lines from it by offset and reads only what was appended since.

:func:`record_runs` cuts any JSON array of objects into runs that parse alone, whatever
its layout: artibot's own (one record per line) and a pretty-printed array (records over
many lines) alike, so a foreign layout is relaid (:func:`relaid_chunks`) in bounded memory too.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from pathlib import Path
from typing import Any, Iterator, Sequence

import orjson

from artibot.errors import CorruptFileError
from artibot.store.fs import open_fd
from artibot.store.log.log_layout import EMPTY, FOOTER, HEADER, check_records, is_intact, parse_records, upgrade

CHUNK_BYTES = 32 * 1024
"""Bytes of log parsed at a time by :meth:`LogRead.chunks`: the dicts of one run stay in the
CPU cache while their fields are read, which costs less than parsing the whole file at once."""
BLOCK = 1 << 20
"""Bytes read from the file at a time."""
MAX_RUN = 1 << 26
"""64 MiB: a run that does not parse by then is damage (a record is far smaller)."""
_CUT = re.compile(rb"\}[ \t\r\n]*,")
"""Where one record may end and the next begin: a ``}`` then a comma (in artibot's layout,
``}\\n,``). Inside a string or a nested value a run cut there does not parse, and grows."""
_TAIL_CHECK = 1 << 16


def read_range(fd: int, lo: int, hi: int) -> bytes:
    """The bytes ``fd[lo:hi]``, read in blocks."""
    return _pread_all(fd, hi - lo, lo)


def zeros_error(fd: int, path: Path, start: int, end: int) -> CorruptFileError:
    """The error for zero bytes in ``fd[start:end]`` (JSON never holds one: a hole)."""
    from artibot.store.log.log_zeros import zero_damage

    return CorruptFileError(path, zero_damage(fd, start, end) or "holds zero bytes where records should be")


def _pread_all(fd: int, size: int, at: int) -> bytes:
    parts = []
    while size > 0:
        part = os.pread(fd, min(size, BLOCK << 2), at)
        if not part:
            break
        parts.append(part)
        size -= len(part)
        at += len(part)
    return b"".join(parts)


def record_runs(fd: int, start: int, end: int, path: Path,
                size: int | None = None) -> Iterator[tuple[int, int, list[dict[str, Any]]]]:
    """``(lo, hi, records)`` for the objects of the JSON array body ``fd[start:end]`` (the
    bytes between ``[`` and ``]``), in order, about ``size`` bytes at a time; ``fd[lo:hi]``
    holds exactly ``records`` and a comma (with white space) separates two runs.

    Reads a block at a time and keeps at most one run and a block in memory. A run that
    does not parse is grown (a ``}`` inside a string looked like a record's end); one that
    still does not parse at :data:`MAX_RUN` bytes or at ``end`` raises :class:`CorruptFileError`,
    as does a value that is not an object, and the first zero byte read (a hole: its
    extent is found without reading it, and nothing past it is read).
    """
    size = size or CHUNK_BYTES
    buf, base = b"", start  # buf holds fd[base:base + len(buf)]
    lo = start
    while lo < end:
        want = size
        while True:
            target = lo + want
            hi = nxt = end
            while target < end:
                found = _CUT.search(buf, max(target - base, 0))
                if found is not None:
                    hi, nxt = base + found.start() + 1, base + found.end()
                    break
                have = base + len(buf)
                if have >= end:
                    break
                if have - target > MAX_RUN:  # no record is that long: never read on to the next
                    raise CorruptFileError(path, f"no record ends in the {MAX_RUN:,} bytes from byte {target:,}")
                more = os.pread(fd, min(BLOCK, end - have), have)
                if not more:
                    raise CorruptFileError(path, f"ends at byte {have}, before the array it holds")
                if b"\0" in more:
                    raise zeros_error(fd, path, start, end)
                buf, base = buf[lo - base:] + more, lo
            if base + len(buf) < hi:
                more = _pread_all(fd, hi - base - len(buf), base + len(buf))
                if b"\0" in more:
                    raise zeros_error(fd, path, start, end)
                buf = buf[lo - base:] + more
                base = lo
            try:
                records = orjson.loads(b"".join((b"[", buf[lo - base:hi - base], b"]")))
                break
            except orjson.JSONDecodeError as exc:
                if hi >= end or hi - lo > MAX_RUN:
                    raise CorruptFileError(path, f"not valid JSON in the records from byte {lo} ({exc})") from None
                want = max(2 * want, hi - lo + 1)
        if not isinstance(records, list) or {*map(type, records)} - {dict}:
            raise CorruptFileError(path, "expected a JSON array of objects")
        if records:
            yield lo, hi, records
        lo = nxt


def relaid_chunks(fd: int, start: int, end: int, path: Path) -> Iterator[bytes]:
    """The log in artibot's layout for the JSON array body ``fd[start:end]`` in any layout,
    a run at a time (raises :class:`CorruptFileError`, before the last chunk, if it is not
    an array of objects)."""
    first = True
    for _, _, records in record_runs(fd, start, end, path, 2 * BLOCK):
        lines = b"\n,".join(map(orjson.dumps, records))
        yield (HEADER if first else b"\n,") + lines
        first = False
    yield EMPTY if first else b"\n" + FOOTER


class LogRead:
    """The log as one reader found it, and the file held open.

    :meth:`chunks` parses the records a few hundred at a time, reading the file a block
    at a time; parsed to the end, it also knows where each run of lines starts and ends,
    so that :meth:`ExperienceLog.move_to_archive` can copy lines by position without
    reading or splitting the whole file again. Holding the file open means a later move
    can tell whether the file is still this one: a rewrite replaces the inode, which cannot
    be reused while it is open; appends only add lines at the end (over the closing
    bracket), so every byte before it stays as it was read.
    """

    def __init__(self, path: Path, fd: int | None, size: int, data: bytes | None = None):
        self.path = path
        self.fd = fd
        self.size = size
        self.count: int | None = None  # records, once chunks() has parsed them all
        self._data = data  # the bytes, when given instead of a file
        self._firsts: list[int] = []   # per run: index of its first record
        self._starts: list[int] = []   # per run: offset of its first byte
        self._stops: list[int] = []    # per run: offset just past its last record
        # The bytes before the closing bracket as first read: appended_since checks them.
        at = max(size - len(FOOTER) - _TAIL_CHECK, 0)
        self._tail = (at, self.read(at, max(size - len(FOOTER), at)))

    @classmethod
    def of_bytes(cls, path: Path, data: bytes) -> LogRead:
        return cls(path, None, len(data), data)

    @classmethod
    def open(cls, path: Path) -> LogRead:
        """The file at ``path`` as it is, held open (for a move); its bytes are read as needed."""
        fd = open_fd(path, os.O_RDONLY)
        try:
            return cls(path, fd, os.fstat(fd).st_size)
        except BaseException:
            os.close(fd)
            raise

    def read(self, lo: int, hi: int) -> bytes:
        """The bytes ``[lo, hi)`` of the log as read."""
        hi = min(hi, self.size)
        if self._data is not None or self.fd is None:
            return (self._data or b"")[lo:hi]
        return _pread_all(self.fd, hi - lo, lo) if hi > lo else b""

    def ranges(self, lo: int, hi: int) -> Iterator[bytes]:
        """:meth:`read` of ``[lo, hi)`` a block at a time."""
        if self.fd is not None and 0 < hi - lo <= BLOCK and hi <= self.size:
            yield os.pread(self.fd, hi - lo, lo)  # one line, or a few: one call
            return
        while lo < hi:
            step = min(hi, lo + (BLOCK << 2))
            yield self.read(lo, step)
            lo = step

    def intact(self) -> bool:
        """Whether the log is complete (starts with the ``[`` line, the closing bracket is there)."""
        return self.size >= len(EMPTY) and is_intact(self.read(0, 2) + self.read(self.size - 3, self.size))

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)

    def __enter__(self) -> LogRead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def records(self) -> list[dict[str, Any]]:
        """Every record, exactly as :meth:`ExperienceLog.read` returns them (read whole: the
        exact path, for records the streaming learner does not take)."""
        data = self.read(0, self.size)
        if b"\0" in data and self.fd is not None:
            raise zeros_error(self.fd, self.path, 0, self.size)
        return parse_records(data, self.path)

    def chunks(self, size: int | None = None) -> Iterator[list[dict[str, Any]]]:
        """The records of :meth:`records`, in order, in lists of about ``size`` bytes of lines
        (:data:`CHUNK_BYTES` by default),
        read from the file a block at a time (:func:`record_runs`).

        A log that does not parse as an array of objects raises the error of
        :meth:`records` when it is small enough to read whole, else the run's own error.
        """
        self.count, self._firsts, self._starts, self._stops = None, [], [], []
        done = 0
        if self.size <= len(EMPTY):
            self.count = 0
            if self.read(0, self.size) != EMPTY:
                yield from _nonempty(self.records())
            return
        if self._data is not None or self.fd is None:
            yield from _nonempty(self.records())
            return
        runs = record_runs(self.fd, len(HEADER), self.size - len(FOOTER) - 1, self.path, size)
        while True:
            try:
                lo, hi, records = next(runs)
            except StopIteration:
                break
            except CorruptFileError:
                if self.size > MAX_RUN:
                    raise
                self._firsts, self._starts, self._stops = [], [], []
                yield from _nonempty(self.records()[done:])  # the exact error, with its line
                return
            upgrade(records, self.path, first_line=2 + done)  # older schema versions, in memory
            self._firsts.append(done)
            self._starts.append(lo)
            self._stops.append(hi)
            done += len(records)
            yield records
        self.count = done

    def appended_since(self, fd: int, size: int) -> bytes | None:
        """The record lines appended after this read (joined by ``\\n,``; empty if none), from
        ``fd`` open on the same, intact file of ``size`` bytes; None if it changed otherwise."""
        n = self.size
        if size < n or n < len(EMPTY):
            return None
        at, seen = self._tail
        if os.pread(fd, len(seen), at) != seen:  # appends write at n - 2 onwards; what precedes stays
            return None
        tail = os.pread(fd, size - n + len(FOOTER), n - len(FOOTER))
        if tail == FOOTER:
            return b""
        if len(tail) < 5 or not tail.startswith(b",") or not tail.endswith(b"\n" + FOOTER):
            return None
        return tail[1:-len(FOOTER) - 1]

    def _run_lines(self, c: int) -> tuple[bytes, list[int]] | None:
        """Run ``c``'s bytes and the offset of each record's line in it; None unless the run
        is one record per line in artibot's layout (joined to the next run by ``\\n,``, the
        last by ``\\n]``)."""
        import numpy as np

        assert self.count is not None
        lo, hi = self._starts[c], self._stops[c]
        last = c + 1 == len(self._starts)
        size = (self.count if last else self._firsts[c + 1]) - self._firsts[c]
        raw_bytes = self.read(lo, hi + 2)
        raw = np.frombuffer(raw_bytes, np.uint8, hi - lo)
        newlines = np.flatnonzero(raw == ord("\n"))
        # One record per line: as many lines as records, each newline between two of them ("}\n,{").
        after = raw_bytes[hi - lo:]
        ok = (len(newlines) == size - 1 and raw_bytes[:1] == b"{" and raw_bytes[hi - lo - 1:hi - lo] == b"}"
              and (after == b"\n]" if last else (after == b"\n," and self._starts[c + 1] == hi + 2)))
        if ok and len(newlines):
            ok = 1 <= newlines[0] and newlines[-1] + 2 < len(raw) and bool(
                np.all(raw[newlines - 1] == ord("}")) and np.all(raw[newlines + 1] == ord(","))
                and np.all(raw[newlines + 2] == ord("{")))
        return (raw_bytes, [lo, *(newlines + (lo + 2)).tolist()]) if ok else None

    def spans(self, positions: Any, ids: Sequence[str] | None) -> list[tuple[int, int]] | None:
        """The lines of the records at ``positions``, as ``(start, end)`` offsets of runs of
        consecutive lines; None if they cannot be told apart. With ``ids``, the first and
        the last line of each run must each be one record with its id. Each run of the file
        that holds such a line is read once (positions in time order may jump around)."""
        import numpy as np

        if not len(positions):
            return []
        breaks = np.flatnonzero(np.diff(positions) != 1) + 1
        firsts = np.concatenate(([0], breaks)).tolist()
        lasts = np.concatenate((breaks - 1, [len(positions) - 1])).tolist()
        at = positions.tolist()
        ends: dict[int, str | None] = {}  # record index -> the id its line must hold
        for a, b in zip(firsts, lasts):
            ends[at[a]] = ids[a] if ids is not None else None
            ends[at[b]] = ids[b] if ids is not None else None
        need = sorted(ends)
        found: dict[int, tuple[int, int]] = {}
        k = 0
        while k < len(need):
            c = bisect_right(self._firsts, need[k]) - 1
            run = self._run_lines(c)
            if run is None:
                return None
            raw, lines = run
            lo, first, upto = self._starts[c], self._firsts[c], _first_of_next(self._firsts, c, self.count)
            while k < len(need) and need[k] < upto:
                i = need[k]
                j = i - first
                span = lines[j], (lines[j + 1] - 2 if j + 1 < len(lines) else self._stops[c])
                rid = ends[i]
                if rid is not None and not _holds(raw[span[0] - lo:span[1] - lo], rid):
                    return None
                found[i] = span
                k += 1
        return [(found[at[a]][0], found[at[b]][1]) for a, b in zip(firsts, lasts)]


def _first_of_next(firsts: list[int], c: int, count: int | None) -> int:
    return firsts[c + 1] if c + 1 < len(firsts) else (count or 0)


def _holds(line: bytes, rid: str) -> bool:
    """Whether ``line`` is one record with id ``rid``."""
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return isinstance(record, dict) and record.get("id") == rid


def checked_records(read: LogRead) -> Iterator[dict[str, Any]]:
    """Every record of ``read``, a run at a time, each checked as :func:`parse_records` checks
    them (a bad one raises, naming its line)."""
    done = 0
    for records in read.chunks():
        check_records(records, read.path, first_line=2 + done)  # line 1 is the [
        done += len(records)
        yield from records


def _nonempty(records: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    if records:
        yield records
