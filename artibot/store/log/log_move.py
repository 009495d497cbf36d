"""The byte plans of the two moves between the log and an archive: which lines leave the
log for a round's archive (:func:`plan_from_lines`, :func:`plan_from_source`), and where
archived records go back on a rollback (:func:`put_back`). Pure: no file is opened here;
``experiences`` runs the plans under the log's lock.
"""

from __future__ import annotations

import contextlib
from itertools import chain, islice
from typing import Any, Callable, ContextManager, Iterable, Iterator, Mapping, Sequence, Union

import orjson

from artibot.store.log.log_layout import EMPTY, FOOTER, HEADER, render_lines
from artibot.store.log.log_read import LogRead

Chunks = Union[bytes, Iterable[bytes]]
"""A file's new bytes, whole or as chunks to write one after the other."""
Plan = tuple[Any, Callable[[bytes, bytes], ContextManager[Chunks]], Chunks]
"""``(positions, archive(head, tail), new log)``: ``archive`` gives the archive document
(a context manager) with the moving lines between ``head`` and ``tail``."""
# numpy is imported where the learner's moves need it: the hooks append through the log
# and must start without it.


def plan_from_lines(lines: list[bytes], id_list: list[str], positions: Sequence[int] | None) -> Plan | None:
    """The plan from the log's record lines as they are now."""
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


def plan_from_source(source: LogRead, positions: Sequence[int], id_list: list[str],
                     appended: Callable[[], bytes | None]) -> Plan | None:
    """The plan from the bytes ``source`` read (``appended()`` gives the lines appended since,
    or None when the file changed otherwise); None when they cannot be used."""
    import numpy as np

    n = source.count
    if source.fd is None or n is None:
        return None
    pos = (np.arange(positions.start, positions.stop, positions.step, dtype=np.int64)
           if isinstance(positions, range) else np.asarray(positions, dtype=np.int64))
    if pos.ndim != 1 or not len(pos) or pos.min() < 0 or pos.max() >= n:
        return None
    moving = np.zeros(n, np.bool_)
    moving[pos] = True
    if int(np.count_nonzero(moving)) != len(pos):
        return None  # a position twice
    more = appended()
    runs = source.spans(pos, id_list)
    stay = source.spans(np.flatnonzero(~moving), None)
    if more is None or runs is None or stay is None:
        return None
    # Both files are written from the log's own bytes, a block at a time, never held whole.
    log: Chunks = chain([HEADER], _joined(source, stay, more), [b"\n" + FOOTER]) if stay or more else EMPTY
    return (pos, lambda head, tail: contextlib.nullcontext(chain([head], _joined(source, runs), [tail])), log)


def _joined(source: LogRead, spans: list[tuple[int, int]], more: bytes = b"") -> Iterator[bytes]:
    """The lines of ``spans`` (then ``more``), ``\n,`` between two of them, as chunks."""
    for k, (lo, hi) in enumerate(spans):
        if k:
            yield b"\n,"
        yield from source.ranges(lo, hi)
    if more:
        yield (b"\n," if spans else b"") + more


def _id_needle(rid: str) -> bytes:
    if rid.isalnum() or rid.replace("_", "").replace("-", "").isalnum():
        return b'"id":"' + rid.encode() + b'"'
    return b'"id":' + orjson.dumps(rid)


def _lines_hold_ids(lines: Sequence[bytes], positions: Sequence[int], ids: Sequence[str]) -> bool:
    n = len(lines)
    for pos, rid in zip(positions, ids):
        if not 0 <= pos < n or _id_needle(rid) not in lines[pos]:
            return False
    return True


def put_back(current: list[Any], records: Sequence[Mapping[str, Any]],
             positions: Sequence[int] | None) -> tuple[list[Any], int]:
    """``current`` with the archived ``records`` that it lacks put back (at their positions
    when known, else in front), and how many went back.

    One pass when the positions differ, as they do in an archive: inserting one by one
    shifts every later record each time, quadratic when a big round goes back in front of
    many newer records.
    """
    have = {r.get("id") for r in current}
    back = [(p, r) for p, r in zip(positions or [0] * len(records), records) if r.get("id") not in have]
    if positions is None:
        return [r for _, r in back] + current, len(back)
    back.sort(key=lambda item: item[0])
    if any(a[0] == b[0] for a, b in zip(back, back[1:])):
        merged = list(current)
        for pos, record in back:
            merged.insert(min(pos, len(merged)), dict(record))
        return merged, len(back)
    merged, rest = [], iter(current)
    for pos, record in back:
        merged.extend(islice(rest, max(pos - len(merged), 0)))
        merged.append(dict(record))
    merged.extend(rest)
    return merged, len(back)
