"""Reading a log's tail in bounded memory: its lines a chunk at a time, and a copy of a
cut tail into ``quarantine/`` that keeps a description of zero-filled regions instead of
their bytes.

A power cut or a full disk can leave a log with a tail of gigabytes of zeros (a file
grown whose data never landed, or a sparse file). Reading it whole to find the last
complete record, or copying it byte for byte into ``quarantine/``, would cost memory and
disk in proportion to the damage, not to the work. Here a line longer than
:data:`MAX_LINE` or holding a NUL byte is known not to be a record without being kept
(JSON never holds a raw NUL), holes are skipped with ``SEEK_DATA`` where the file system
has them, and zero-filled runs of :data:`ZERO_BLOCK` bytes or more are described in a
``.zeros.json`` beside the quarantined bytes rather than copied.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import orjson

from artibot.store.fs import atomic_write_chunks

CHUNK = 1 << 20
MAX_LINE = 1 << 26
"""64 MiB: far past any record artibot writes; a longer line is damage."""
ZERO_BLOCK = 1 << 16
"""Zero-filled runs of at least this many bytes (aligned to it) are described, not copied."""


def _data_from(fd: int, pos: int, end: int) -> int:
    """The next offset at or after ``pos`` that may hold data (``end`` if only a hole follows)."""
    try:
        return min(os.lseek(fd, pos, os.SEEK_DATA), end)
    except OSError:  # ENXIO: a hole to the end of the file; EINVAL: no SEEK_DATA here
        return end if _no_data_left(fd, pos) else pos


def _no_data_left(fd: int, pos: int) -> bool:
    try:
        os.lseek(fd, pos, os.SEEK_DATA)
    except OSError as exc:
        import errno

        return exc.errno == errno.ENXIO
    return False


def _hole_from(fd: int, pos: int, end: int) -> int:
    """The next offset at or after ``pos`` where a hole starts (``end`` if none before it)."""
    try:
        at = os.lseek(fd, pos, os.SEEK_HOLE)
    except OSError:  # no SEEK_HOLE here: the zeros are read, a chunk at a time
        return end
    return min(at, end) if at > pos else end


def has_hole(fd: int, size: int) -> bool:
    """Whether the file system says ``fd[:size]`` has a hole (a log written by appends never
    has one: a hole is damage, and reading the file whole would read it as zeros)."""
    try:
        return os.lseek(fd, 0, os.SEEK_HOLE) < size
    except OSError:
        return False


def chunks(fd: int, start: int, end: int) -> Iterator[tuple[int, bytes | None]]:
    """``(offset, bytes)`` of ``fd[start:end]`` a chunk at a time; a hole comes as
    ``(offset, None)`` with the next chunk's offset telling where it ends. A chunk stops
    where a hole starts, so a hole is never read as zeros (where the file system says)."""
    pos = start
    while pos < end:
        data_at = _data_from(fd, pos, end)
        if data_at > pos:
            yield pos, None
            pos = data_at
            continue
        chunk = os.pread(fd, min(CHUNK, _hole_from(fd, pos, end) - pos), pos)
        if not chunk:
            return
        yield pos, chunk
        pos += len(chunk)


def lines(fd: int, start: int, end: int) -> Iterator[tuple[int, bytes | None]]:
    """``(offset, line)`` of each complete line (ending in a newline) of ``fd[start:end]``;
    ``line`` is None when it cannot be a record (too long, a NUL byte, a hole in it), so it
    is never held in memory."""
    parts: list[bytes] = []
    size = 0
    bad = False
    line_at = start
    for at, chunk in chunks(fd, start, end):
        if chunk is None:
            bad, parts, size = True, [], 0
            continue
        i = 0
        while True:
            nl = chunk.find(b"\n", i)
            piece = chunk[i:] if nl < 0 else chunk[i:nl]
            if not bad and (b"\0" in piece or size + len(piece) > MAX_LINE):
                bad, parts, size = True, [], 0
            if not bad:
                parts.append(piece)
                size += len(piece)
            if nl < 0:
                break
            yield line_at, None if bad else b"".join(parts)
            line_at = at + nl + 1
            bad, parts, size = False, [], 0
            i = nl + 1


def quarantine_range(fd: int, start: int, end: int, target: Path, source: Path) -> Path:
    """Copy ``fd[start:end]`` to ``target``, a chunk at a time. Zero-filled runs of
    :data:`ZERO_BLOCK` bytes or more are left out of the copy and listed in
    ``<target>.zeros.json`` (offsets within the range), so that the bytes can be put back
    together; without such runs the copy is the bytes exactly and no description is written."""
    runs: list[list[int]] = []

    def kept() -> Iterator[bytes]:
        pos = start
        for at, chunk in chunks(fd, start, end):
            if chunk is None:
                continue  # a hole: its extent is the gap to the next chunk
            if at > pos:
                extend_runs(runs, pos - start, at - pos)
            pos = at + len(chunk)
            yield from _split_zeros(chunk, at - start, runs)
        if pos < end:
            extend_runs(runs, pos - start, end - pos)

    atomic_write_chunks(target, kept())
    if runs:
        description = {"schema_version": 1, "source": source.name, "from_offset": start, "bytes": end - start,
                       "zero_runs": runs,
                       "note": f"the bytes of {source.name} from offset {start}, with each zero-filled run left "
                               f"out of {target.name}: put back zero_runs [offset, length] (offsets in the "
                               "original range) to rebuild them"}
        atomic_write_chunks(target.with_name(target.name + ".zeros.json"),
                            [orjson.dumps(description, option=orjson.OPT_INDENT_2)])
    return target


def _split_zeros(chunk: bytes, offset: int, runs: list[list[int]]) -> Iterator[bytes]:
    i = 0
    while i < len(chunk):
        block = chunk[i:i + ZERO_BLOCK]
        if len(block) == ZERO_BLOCK and block.count(0) == ZERO_BLOCK:
            extend_runs(runs, offset + i, ZERO_BLOCK)
        else:
            yield block
        i += ZERO_BLOCK


def extend_runs(runs: list[list[int]], offset: int, length: int) -> None:
    """Add the run ``[offset, length]`` to ``runs``, merged with the last one when they touch."""
    if runs and runs[-1][0] + runs[-1][1] == offset:
        runs[-1][1] += length
    else:
        runs.append([offset, length])
