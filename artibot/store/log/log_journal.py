"""The append journal and the torn-tail repair of ``daily-experiences.json``.

**Journal.** Before an append writes, the writer stores in the lock file (its first 64
bytes) the offset where the closing bracket stood, the log's inode and the offset where
the append will end, and syncs it; after the append's ``fdatasync`` it blanks the
journal. The blank is not synced: a journal left armed by a power cut after a finished
append never applies, because the next append arms (and syncs) its own journal before
writing, any other writer replaces the file (a new inode), and a journal never explains
bytes past the end of its own append. So a repair never trusts a stale journal, and a
durable append costs two syncs, not three.

**When the journal is used**: whenever it is armed for this file and the append it names
is not all there (:func:`landed`), even if the file ends with the closing bracket: a
power cut can keep an append's last page and lose the one with its start.

**Where a tail is cut** (:func:`cut_offset`, pure): with an armed journal for this file,
everything after the journalled offset goes (the whole interrupted batch: a batch
append is all-or-nothing); without one, only what follows the last complete record
line (damage that is not at the tail is never cut here: that is ``doctor``'s job).

Readers use :func:`cut_offset` to *present* the log without its torn tail without
writing anything; only a writer cuts, keeping the bytes in ``quarantine/``.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable


from artibot.errors import CorruptFileError, StoreError
from artibot.store.fs import atomic_write_bytes, check_regular, ensure_dir, open_fd
from artibot.store.log import log_tail
from artibot.store.home import Home
from artibot.store.log.log_layout import FOOTER, HEADER, TAIL, record_on

JOURNAL_SIZE = 64
_BLANK = b" " * JOURNAL_SIZE


@dataclass(frozen=True)
class Journal:
    """An armed journal: the append that started at ``offset`` of the file ``inode``."""

    offset: int
    inode: int
    end: int | None  # None: written by an older artibot, which did not record it

    def applies_to(self, inode: int, size: int) -> bool:
        """Whether this journal explains the file's tail: same file, and nothing past the end of
        the append it names (bytes beyond it were written by something else, after it ended —
        a second defence should a blanked journal be lost in a power cut)."""
        return (inode == self.inode and len(HEADER) <= self.offset <= size
                and (self.end is None or size <= self.end))


def arm(lock_fd: int, offset: int, inode: int, end: int, *, durable: bool) -> None:
    os.pwrite(lock_fd, f"{offset} {inode} {end}".encode().ljust(JOURNAL_SIZE), 0)
    if durable:
        os.fdatasync(lock_fd)


def clear(lock_fd: int, *, durable: bool) -> None:
    os.pwrite(lock_fd, _BLANK, 0)
    if durable:
        os.fdatasync(lock_fd)


def write_append(fd: int, payload: bytes, start: int, lock_fd: int, *, durable: bool) -> None:
    """Write an append (the journal is armed) and blank the journal. If the disk refuses part
    of it (full), the closing bracket goes back at once, so that a full disk costs the batch
    and nothing else (if even that fails, the armed journal lets the next writer cut it)."""
    try:
        done = 0
        while done < len(payload):  # a full disk first writes what fits, then refuses
            done += os.pwrite(fd, payload[done:], start + done)
        if durable:
            os.fdatasync(fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.pwrite(fd, FOOTER, start)
            os.ftruncate(fd, start + len(FOOTER))
            if durable:
                os.fdatasync(fd)
            clear(lock_fd, durable=durable)
        raise
    clear(lock_fd, durable=False)  # see the module docstring: a stale journal never applies


def parse(raw: bytes) -> Journal | None:
    """The journal in the first bytes of the lock file, or None when blank or unreadable."""
    parts = raw[:JOURNAL_SIZE].split()
    try:
        numbers = [int(x) for x in parts]
    except ValueError:
        return None
    if len(numbers) == 2:
        return Journal(numbers[0], numbers[1], None)
    if len(numbers) == 3:
        return Journal(*numbers)
    return None


def read(lock_fd: int | None, lock_path: Path | None = None) -> Journal | None:
    """The journal, read from an open lock file (or by path, for a reader that could not open it)."""
    if lock_fd is not None:
        return parse(os.pread(lock_fd, JOURNAL_SIZE, 0))
    if lock_path is None:
        return None
    try:
        fd = open_fd(lock_path, os.O_RDONLY)
    except StoreError:
        return None
    try:
        return parse(os.pread(fd, JOURNAL_SIZE, 0))
    except OSError:
        return None
    finally:
        os.close(fd)


def landed(journal: Journal, size: int, region: bytes | memoryview) -> bool:
    """Whether the append ``journal`` names is all on disk: the file ends where the append
    did, and ``region`` (the file from the journal's offset) is complete record lines then
    the closing bracket. A matching tail alone proves nothing: after a power cut any page
    of an append may still hold old bytes or zeros, the one with its start included."""
    if journal.end is not None and size != journal.end:
        return False
    region = bytes(region)
    if not region.endswith(b"\n" + FOOTER):
        return False
    return all(record_on(line) is not None for line in region[:-len(FOOTER) - 1].split(b"\n"))


def unlanded(journal: Journal | None, inode: int, size: int, region: bytes | memoryview) -> bool:
    """Whether an armed journal names an append to this file that is not all there."""
    return journal is not None and journal.applies_to(inode, size) and not landed(journal, size, region)


def state_of(fd: int, size: int, journal: Journal | None) -> str:
    """``"none"`` when no armed journal applies to the file open as ``fd`` (``size`` bytes),
    else ``"landed"`` or ``"unlanded"`` for the append it names (see :func:`landed`)."""
    if journal is None or not journal.applies_to(os.fstat(fd).st_ino, size):
        return "none"
    return "landed" if landed(journal, size, os.pread(fd, size - journal.offset, journal.offset)) else "unlanded"


def cut_offset(data: bytes | memoryview, journal: Journal | None, inode: int, path: Path) -> int:
    """Where the intact part of a torn log ends (the closing bracket goes there).

    Raises :class:`CorruptFileError` when the file does not start like a log, or when a bad
    line is followed by complete records (damage in the middle: ``doctor --repair``).
    """
    size = len(data)
    if bytes(data[:len(HEADER)]) != HEADER:
        raise CorruptFileError(path, "does not start with the '[' line of an artibot experience log")
    if journal is not None and journal.applies_to(inode, size) and data[journal.offset - 1:journal.offset] == b"\n":
        return journal.offset
    return last_complete_line_end(data, path)


def last_complete_line_end(data: bytes | memoryview, path: Path) -> int:
    """Offset just after the last line that is a complete record (fallback without a journal)."""
    data = bytes(data)
    pos = good = len(HEADER)
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl < 0:
            break
        if record_on(data[pos:nl]) is None:
            # Only a tail may be cut automatically: if a complete record follows, this is
            # damage in the middle of the file, which only `doctor --repair` may handle.
            if any(record_on(line) is not None for line in data[nl + 1:].split(b"\n")):
                raise CorruptFileError(path, f"line at byte {pos} is not a record")
            break
        pos = good = nl + 1
    return good


def visible(data: bytes, journal: Journal | None, inode: int, path: Path) -> bytes:
    """The log as a reader should see it: intact bytes as they are, a torn log without its
    tail (nothing is written: the next writer repairs the file itself)."""
    if data == b"" or (data[:len(HEADER)] == HEADER and data.endswith(TAIL)
                       and not unlanded(journal, inode, len(data), data[journal.offset:] if journal else b"")):
        return data
    return bytes(data[:cut_offset(data, journal, inode, path)]) + FOOTER


@dataclass(frozen=True)
class Repair:
    """What an automatic tail repair did."""

    path: Path
    cut_bytes: int
    quarantined_to: Path | None


OURS = HEADER + b'{"'
"""How a non-empty log in artibot's layout starts: the ``[`` line, then a record on one line."""


def looks_foreign(fd: int | None) -> bool:
    """Whether the log open as ``fd``, framed like ours, starts like another writer's JSON
    (a pretty-printed array: ``[`` then an indented ``{`` line)."""
    if fd is None:
        return False
    head = os.pread(fd, len(OURS), 0)
    # zeros after the '[' are damage (a hole), for the readers' and doctor's checks, not a layout
    return head != OURS and head != HEADER + FOOTER and b"\0" not in head


def foreign_layout(path: Path) -> tuple[int, int] | None:
    """The offsets of the body (between ``[`` and ``]``) when the log is framed as a complete
    JSON array in another layout (pretty-printed by the old plugin, or by hand), which must
    be relaid, not cut as a torn tail; None otherwise (ours, torn, or missing). Only the
    frame is read: :func:`adopt_foreign_layout` parses the body as it relays it."""
    if not check_regular(path):
        return None
    fd = open_fd(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        if size >= len(HEADER + FOOTER) and os.pread(fd, 3, size - 3) == TAIL and not looks_foreign(fd):
            return None
        head, at = os.pread(fd, 64, 0), max(size - 64, 0)
        end = os.pread(fd, 64, at).rstrip()
        if not head.lstrip().startswith(b"[") or not end.endswith(b"]"):
            return None  # not a complete array (a torn tail, zeros): never read whole here
        return len(head) - len(head.lstrip()) + 1, at + len(end) - 1
    finally:
        os.close(fd)


def adopt_foreign_layout(home: Home, rewrite: Callable[[Iterable[bytes]], None]) -> Path | None:
    """Relay a log in another layout (:func:`foreign_layout`) in artibot's, a run of records at
    a time, the original kept in ``quarantine/`` (a hard link: no copy); returns where.
    A body that is not an array of objects (a torn tail) is left for the writer's repair."""
    from artibot.store.log.log_read import relaid_chunks

    path = home.experiences
    span = foreign_layout(path)
    if span is None:
        return None
    kept = quarantine_path(home, "relaid")
    fd = open_fd(path, os.O_RDONLY)
    try:
        try:
            os.link(path, kept, follow_symlinks=False)
        except OSError:  # no hard links here: a copy, a chunk at a time
            log_tail.quarantine_range(fd, 0, os.fstat(fd).st_size, kept, path)
        try:
            rewrite(relaid_chunks(fd, *span, path))
        except CorruptFileError:
            os.unlink(kept)
            return None
    finally:
        os.close(fd)
    return kept


def quarantine_path(home: Home, suffix: str) -> Path:
    """A new, unique name in ``quarantine/`` for bytes of the log."""
    qdir = ensure_dir(home.quarantine_dir)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    return qdir / f"daily-experiences.{stamp}.{os.getpid()}.{time.monotonic_ns()}.{suffix}"


def quarantine(home: Home, data: bytes, suffix: str = "torn") -> Path:
    """Keep ``data`` (a relaid original, records moved aside) in ``quarantine/`` under a unique name."""
    path = quarantine_path(home, suffix)
    atomic_write_bytes(path, data)
    return path


def tail_cut_at(fd: int, size: int, journal: Journal | None, path: Path) -> int:
    """:func:`cut_offset` of the file open as ``fd``, read a chunk at a time (a torn tail may be
    gigabytes of zeros)."""
    if os.pread(fd, len(HEADER), 0) != HEADER:
        raise CorruptFileError(path, "does not start with the '[' line of an artibot experience log")
    if journal is not None and journal.applies_to(os.fstat(fd).st_ino, size) \
            and os.pread(fd, 1, journal.offset - 1) == b"\n":
        return journal.offset
    good, first_bad = len(HEADER), None
    for at, line in log_tail.lines(fd, len(HEADER), size):
        ok = line is not None and record_on(line) is not None
        if first_bad is None and ok:
            good = at + len(line) + 1  # type: ignore[arg-type]
        elif first_bad is None:
            first_bad = at
        elif ok:  # a complete record after a bad line: damage in the middle, for `doctor --repair`
            raise CorruptFileError(path, f"line at byte {first_bad} is not a record")
    return good


def reader_cut(fd: int, size: int, journal: Journal | None, path: Path) -> int | None:
    """None when the log open as ``fd`` is intact (framed, no append the journal names missing);
    else where a reader's view of it ends (:func:`tail_cut_at`, read a chunk at a time)."""
    if size >= len(HEADER + FOOTER) and os.pread(fd, len(HEADER), 0) == HEADER \
            and os.pread(fd, len(TAIL), size - len(TAIL)) == TAIL and state_of(fd, size, journal) != "unlanded":
        return None
    return tail_cut_at(fd, size, journal, path)


def repair_tail(home: Home, fd: int, size: int, lock_fd: int) -> tuple[int, Repair]:
    """Cut the torn tail of the log open as ``fd`` (the caller holds the log's lock exclusively).

    The cut bytes are kept in ``quarantine/`` first; then the bracket is restored, the
    file truncated and synced, and the journal blanked. Returns the new size.
    """
    path = home.experiences
    cut_at = tail_cut_at(fd, size, read(lock_fd), path)
    tail = os.pread(fd, 8, cut_at) if size - cut_at <= 8 else None
    kept = None
    if tail is None or tail.strip() not in (b"", b"]"):  # more than a lost closing bracket
        kept = log_tail.quarantine_range(fd, cut_at, size, quarantine_path(home, "torn"), path)
    os.pwrite(fd, FOOTER, cut_at)
    os.ftruncate(fd, cut_at + len(FOOTER))
    os.fsync(fd)
    clear(lock_fd, durable=True)
    return cut_at + len(FOOTER), Repair(path, size - cut_at, kept)
