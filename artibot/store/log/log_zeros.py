"""Zero-filled regions in ``daily-experiences.json``: found, described and stepped over in
bounded memory and time, wherever they are.

A crashed copy or a file-system repair can leave a log with gigabytes of NUL bytes
anywhere in it: right after the ``[`` line, between two records, or glued to the end of
one, often as a sparse hole that costs no disk. JSON never holds a raw NUL, so a zero
byte is always damage, and a record is never split by one. Here the log is read as
*fragments*, the runs of bytes holding neither a newline nor a NUL: every intact record
is one fragment whatever zeros surround it, so a salvage keeps it. Holes are skipped
with ``SEEK_DATA``/``SEEK_HOLE`` (:func:`log_tail.chunks`); where the file system has
neither, zero runs are read a chunk at a time and stepped over by a C scan, never a byte
at a time, and never held.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any, Iterator, Literal

from artibot.messages import Message
from artibot.store.log import log_tail
from artibot.store.log.log_layout import FOOTER, HEADER, TAIL, encode, record_on

_FRAGMENT = re.compile(rb"[^\n\0]+")
_ZEROS = re.compile(rb"\0+")


def size_text(n: int) -> str:
    """``n`` bytes for a sentence (``2.0 GiB``, ``512 bytes``)."""
    if n < 1024:
        return f"{n} bytes"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if value < 1024 or unit == "TiB":
            break
    return f"{value:.1f} {unit}"


def first_zero(fd: int, start: int, end: int) -> int | None:
    """The offset of the first zero byte (or hole) in ``fd[start:end]``, or None."""
    for at, chunk in log_tail.chunks(fd, start, end):
        if chunk is None:
            return at
        i = chunk.find(b"\0")
        if i >= 0:
            return at + i
    return None


def zero_run(fd: int, at: int, end: int) -> int:
    """The length of the run of zero bytes (holes included) that starts at ``at``."""
    for pos, chunk in log_tail.chunks(fd, at, end):
        if chunk is None:
            continue  # a hole: the next chunk's offset says where it ends
        nonzero = len(chunk) - len(chunk.lstrip(b"\0"))
        if nonzero < len(chunk):
            return pos + nonzero - at
    return end - at


def zero_damage(fd: int, start: int, end: int) -> str | None:
    """A sentence for the first zero-filled region of ``fd[start:end]`` (None if there is none):
    where it starts, on which line, and how long it is."""
    at = first_zero(fd, start, end)
    if at is None:
        return None
    line = 1 + sum(chunk.count(b"\n") for _, chunk in log_tail.chunks(fd, 0, at) if chunk)
    return (f"holds {size_text(zero_run(fd, at, end))} of zero bytes from byte {at:,} (line {line:,}), where "
            "records should be (a crashed copy or a file-system repair leaves such a hole)")


def fragments(fd: int, start: int, end: int,
              zeros: list[list[int]] | None = None) -> Iterator[tuple[int, bytes | None, bool]]:
    """``(offset, bytes, newline)`` of each run of ``fd[start:end]`` that holds neither a newline
    nor a NUL byte, and whether a newline ends it (not a zero, a hole or the range's end); the
    bytes are None for a run longer than :data:`log_tail.MAX_LINE` (never held). With
    ``zeros``, every zero-filled run (holes included) is added to it as ``[offset, length]``."""
    parts: list[bytes] = []
    size = 0
    at_frag: int | None = None  # the offset of the fragment being gathered
    hole_at: int | None = None
    for at, chunk in log_tail.chunks(fd, start, end):
        if at_frag is not None and (chunk is None or chunk[:1] in (b"\n", b"\0")):
            yield at_frag, b"".join(parts) if size <= log_tail.MAX_LINE else None, chunk is not None and \
                chunk[:1] == b"\n"
            parts, size, at_frag = [], 0, None
        if chunk is None:
            hole_at = at
            continue
        if hole_at is not None:
            if zeros is not None:
                log_tail.extend_runs(zeros, hole_at, at - hole_at)
            hole_at = None
        if zeros is not None and b"\0" in chunk:
            for m in _ZEROS.finditer(chunk):
                log_tail.extend_runs(zeros, at + m.start(), m.end() - m.start())
        for m in _FRAGMENT.finditer(chunk):
            s, e = m.span()
            if at_frag is None:
                at_frag = at + s
            size += e - s
            if size <= log_tail.MAX_LINE:
                parts.append(m.group())
            else:
                parts = []  # too long to be a record: never held
            if e < len(chunk):
                yield at_frag, b"".join(parts) if size <= log_tail.MAX_LINE else None, chunk[e] == 10
                parts, size, at_frag = [], 0, None
    if at_frag is not None:
        yield at_frag, b"".join(parts) if size <= log_tail.MAX_LINE else None, False
    if hole_at is not None and zeros is not None:
        log_tail.extend_runs(zeros, hole_at, end - hole_at)


def record_of(fragment: bytes | None) -> dict[str, Any] | None:
    """The record a fragment holds (a leading comma allowed): an object with a string id."""
    if fragment is None:
        return None
    record = record_on(fragment)
    return record if record is not None and isinstance(record.get("id"), str) else None


@dataclass(frozen=True)
class ZeroScan:
    """What a log holding zero bytes is, read a fragment at a time."""

    state: Literal["torn", "damaged"]
    """``"torn"``: only the tail is damaged (cut it, as an append would); ``"damaged"``."""
    records: int
    """Records a salvage keeps (first copy of each id)."""
    cut_at: int
    """Just past the last complete record line before the first damage."""
    detail: Message
    """Where it is torn or damaged, and the zero-filled runs."""


def scan(fd: int, size: int, journal: int | None = None) -> ZeroScan:
    """Classify a log that holds zero bytes (``journal``: the offset of an append that is not
    all there, which a repair cuts whole), counting the records a salvage keeps.

    Torn, as the log's own repair sees it, when the damage only follows the last complete
    record line and the closing bracket is gone; else damaged: every record stays in a
    fresh log (:func:`salvaged`) and the bytes go to ``quarantine/``.
    """
    zeros: list[list[int]] = []
    seen: set[bytes] = set()
    good = len(HEADER) if os.pread(fd, len(HEADER), 0) == HEADER else 0
    first_bad: int | None = None if good else 0
    record_after_bad = False
    for at, fragment, newline in fragments(fd, good, size, zeros):
        if first_bad is None and zeros and zeros[0][0] < at:
            first_bad = zeros[0][0]
        record = record_of(fragment)
        if record is not None:
            seen.add(_print(record["id"]))
            if first_bad is None and newline:
                good = at + len(fragment or b"") + 1
            else:  # after the damage, or glued to zeros: its line is damaged, the record is not
                record_after_bad = True
                first_bad = at if first_bad is None else first_bad
        elif first_bad is None and not (fragment == b"]" and at == size - len(FOOTER)):
            first_bad = at
    if zeros and (first_bad is None or zeros[0][0] < first_bad):
        first_bad = zeros[0][0]
    bad = first_bad if first_bad is not None else size
    if not zeros:
        where = Message("doctor.detail.damage_from", at=f"{bad:,}")
    elif len(zeros) > 1:
        where = Message("doctor.detail.zeros_regions", size=size_text(sum(n for _, n in zeros)), at=f"{zeros[0][0]:,}",
                        regions=len(zeros))
    else:
        where = Message("doctor.detail.zeros", size=size_text(zeros[0][1]), at=f"{zeros[0][0]:,}")
    intact = size >= len(TAIL) and os.pread(fd, len(TAIL), size - len(TAIL)) == TAIL
    if good and journal is not None and len(HEADER) <= journal <= bad:
        return ZeroScan("torn", len(seen), journal, Message("doctor.detail.after_append_at", n=f"{size - journal:,}",
                                                            where=where))
    if good and not intact and not record_after_bad:
        return ZeroScan("torn", len(seen), good, Message("doctor.detail.after_record_at", n=f"{size - good:,}",
                                                         where=where))
    return ZeroScan("damaged", len(seen), good, Message("doctor.detail.holds", where=where))


def salvaged(fd: int, size: int) -> Iterator[bytes]:
    """A fresh log holding every record of ``fd[:size]`` (first copy of each id), in order,
    a record line at a time."""
    seen: set[bytes] = set()
    first = True
    for _, fragment, _ in fragments(fd, 0, size):
        record = record_of(fragment)
        if record is None:
            continue
        key = _print(record["id"])
        if key in seen:
            continue
        seen.add(key)
        yield (HEADER if first else b"\n,") + encode(record)
        first = False
    yield HEADER + FOOTER if first else b"\n" + FOOTER


def record_ids(fd: int, start: int, end: int) -> Iterator[str]:
    """The id of every record in ``fd[start:end]``, zeros and damaged lines stepped over."""
    for _, fragment, _ in fragments(fd, start, end):
        record = record_of(fragment)
        if record is not None:
            yield record["id"]


def records(fd: int, start: int, end: int) -> Iterator[dict[str, Any]]:
    """Every record in ``fd[start:end]``, in order (zeros and damaged lines stepped over)."""
    for _, fragment, _ in fragments(fd, start, end):
        record = record_of(fragment)
        if record is not None:
            yield record


def _print(rid: str) -> bytes:
    return blake2b(rid.encode("utf-8", "surrogatepass"), digest_size=16).digest()


__all__ = ["ZeroScan", "first_zero", "fragments", "record_ids", "records", "salvaged", "scan", "size_text",
           "zero_damage", "zero_run"]
