"""Epoch seconds of ISO 8601 timestamps, one at a time or many at once (for :mod:`artibot.learning.frame`).

Timestamps are parsed without a ``datetime`` per record where possible: strings are
bucketed by length, each bucket is laid out as a byte matrix, and the canonical shape
``YYYY-MM-DD[T ]HH:MM:SS[.f{1,9}](Z|±HH:MM)`` is decoded with array operations (numpy's
strict ``datetime64`` parser for the date and time, digit arithmetic for the fraction and
the offset). Anything else (other ISO 8601 spellings) goes through
:func:`datetime.fromisoformat`. Both give exactly ``datetime.timestamp()`` (seconds as
float64; digits past microseconds are truncated, as ``fromisoformat`` does).
"""

from __future__ import annotations

import re
import sys
from datetime import datetime
from typing import Sequence

import numpy as np

def parse_timestamp(text: str) -> float:
    """Epoch seconds of one ISO 8601 timestamp with a timezone (``Z`` accepted)."""
    value = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    dt = datetime.fromisoformat(value)
    if dt.tzinfo is None:
        raise ValueError(f"timestamp {text!r} has no timezone")
    return dt.timestamp()


def parse_timestamps(texts: Sequence[str]) -> np.ndarray:
    """Epoch seconds (float64) of many ISO 8601 timestamps; equal to :func:`parse_timestamp` each."""
    n = len(texts)
    out = np.empty(n, np.float64)
    if n == 0:
        return out
    if len({*map(len, texts)}) == 1:  # the usual case: one writer, one format
        return _parse_same_length(texts, len(texts[0]))
    lengths = np.fromiter(map(len, texts), np.int64, n)
    sizes = np.unique(lengths)
    for size in sizes.tolist():
        if len(sizes) == 1:
            rows, subset = None, list(texts)
        else:
            rows = np.flatnonzero(lengths == size)
            subset = list(map(texts.__getitem__, rows.tolist()))
        values = _parse_same_length(subset, size)
        if rows is None:
            out[:] = values
        else:
            out[rows] = values
    return out


_DASH, _COLON, _T, _SPACE, _DOT, _PLUS, _MINUS, _Z, _z = b"-:T .+-Zz"
_OFFSET = re.compile(r"([+-])([01]\d|2[0-3]):([0-5]\d)")


def _parse_same_length(subset: Sequence[str], size: int) -> np.ndarray:
    """Parse strings of one length; rows outside the canonical shape go through :func:`parse_timestamp`."""
    try:
        raw = "".join(subset).encode("ascii")
    except UnicodeEncodeError:
        raw = None
    if raw is None or size < 20:
        return np.array([parse_timestamp(t) for t in subset], np.float64)
    mat = np.frombuffer(raw, np.uint8).reshape(len(subset), size)
    out = np.full(len(subset), np.nan)
    last = mat[:, size - 1]
    zulu = (last == _Z) | (last == _z)
    with_offset = np.zeros(len(subset), np.bool_)
    if size >= 25:
        sign = mat[:, size - 6]
        with_offset = ((sign == _PLUS) | (sign == _MINUS)) & (mat[:, size - 3] == _COLON)
    for form, tz_len in ((zulu, 1), (with_offset, 6)):
        rows = np.flatnonzero(form)
        if len(rows) == 0 or size - tz_len < 19:
            continue
        block = mat if len(rows) == len(subset) else mat[rows]
        micros, good = _local_micros(np.ascontiguousarray(block[:, : size - tz_len]))
        if tz_len == 6:
            offset, known = _offsets(block[:, size - 6:])
            micros -= offset * 1_000_000
            good &= known
        good &= np.abs(micros) < 2**53  # exact as a float64 (until the year 2255); later ones go the slow way
        out[rows[good]] = micros[good] / 1e6  # one correctly rounded division, as datetime.timestamp() does
    for i in np.flatnonzero(np.isnan(out)).tolist():
        out[i] = parse_timestamp(subset[i])
    return out


def _local_micros(head: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Microseconds of ``YYYY-MM-DD[T ]HH:MM:SS[.fff…]`` rows read as UTC, and which rows had that shape."""
    m, width = head.shape
    good = (head[:, 4] == _DASH) & (head[:, 7] == _DASH) & ((head[:, 10] == _T) | (head[:, 10] == _SPACE))
    good &= (head[:, 13] == _COLON) & (head[:, 16] == _COLON)
    if width > 19:
        good &= head[:, 19] == _DOT
        for j in range(20, width):
            good &= (head[:, j] - np.uint8(48)) <= 9  # non-digits wrap around past 9
    micros = np.zeros(m, np.int64)
    texts = (head if good.all() else head[good]).view(f"S{width}").ravel()
    parsed = np.empty(len(texts), np.int64)
    try:  # numpy's parser is strict (calendar, ranges) and truncates past microseconds, as fromisoformat
        # A few hundred at a time: over 500, numpy casts without the GIL, and a string it
        # cannot parse then crashes the process (numpy 2.4) instead of raising ValueError.
        for i in range(0, len(texts), 500):
            parsed[i:i + 500] = texts[i:i + 500].astype("datetime64[us]").astype(np.int64)
    except ValueError:
        good[:] = False
    else:
        micros[good] = parsed
    return micros, good


def _offsets(tz: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Seconds east of UTC of ``±HH:MM`` rows (few distinct values: each is parsed once)."""
    packed = np.zeros((len(tz), 8), np.uint8)
    packed[:, :6] = tz
    key = packed.view(np.uint64).ravel()
    if (key == key[0]).all():
        distinct, inverse = key[:1], np.zeros(len(key), np.intp)
    else:
        distinct, inverse = np.unique(key, return_inverse=True)
    seconds = np.zeros(len(distinct), np.int64)
    known = np.zeros(len(distinct), np.bool_)
    for i, value in enumerate(distinct.tolist()):
        match = _OFFSET.fullmatch(value.to_bytes(8, sys.byteorder)[:6].decode("ascii"))
        if match:
            sign = -1 if match[1] == "-" else 1
            seconds[i], known[i] = sign * (int(match[2]) * 3600 + int(match[3]) * 60), True
    return seconds[inverse], known[inverse]
