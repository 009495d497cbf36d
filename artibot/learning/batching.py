"""Cutting a round's records into batches and GRPO groups, vectorized.

Records arrive in timestamp order. Batch ``b`` holds records ``b*size .. (b+1)*size - 1``;
only full batches are processed unless the round is flushed, in which case the
remainder is one last, smaller batch (even a batch of one record: it becomes a single
one-sided group, so it moves no threshold but its record counts as processed and feeds
the pattern streaks).

Within a batch, records are sorted by (domain, complexity), stably, and each domain's
run is cut into consecutive groups of ``group_size``. A last group of one record joins
the group before it; when it is the domain's only record in the batch it stays alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def batch_plan(n: int, batch_size: int, flush: bool) -> tuple[int, int]:
    """``(records processed, number of batches)`` for ``n`` waiting records."""
    if batch_size < 1:
        raise ValueError(f"batch size must be at least 1, not {batch_size}")
    full = n // batch_size
    processed = full * batch_size
    if flush and processed < n:
        return n, full + 1
    return processed, full


@dataclass(frozen=True, eq=False)
class Groups:
    """GRPO groups of the processed records.

    ``order`` lists record positions (into the processed prefix of the frame) in group
    order: by batch, then domain code, then complexity. Group ``i`` is
    ``order[start[i] : start[i] + size[i]]``; it belongs to ``batch[i]`` and ``domain[i]``.
    """

    order: np.ndarray
    start: np.ndarray
    size: np.ndarray
    batch: np.ndarray
    domain: np.ndarray

    def __len__(self) -> int:
        return len(self.start)


def make_groups(domain: np.ndarray, complexity: np.ndarray, batch_size: int, group_size: int) -> Groups:
    """Groups for records in timestamp order (``domain`` codes sort like the domain names)."""
    if group_size < 2:
        raise ValueError(f"group size must be at least 2, not {group_size}")
    k = len(domain)
    empty = np.empty(0, np.int64)
    if k == 0:
        return Groups(empty, empty, empty, empty, np.empty(0, np.int32))
    batch = np.arange(k, dtype=np.int64) // batch_size
    order = _sort_within_batches(domain, complexity, batch_size)
    b = batch[order]
    d = domain[order]

    new_run = np.ones(k, np.bool_)
    new_run[1:] = (b[1:] != b[:-1]) | (d[1:] != d[:-1])
    run_start = np.flatnonzero(new_run)
    run_len = np.diff(np.append(run_start, k))
    run_id = np.cumsum(new_run) - 1
    pos = np.arange(k, dtype=np.int64) - run_start[run_id]
    length = run_len[run_id]
    full, rest = length // group_size, length % group_size
    g = pos // group_size
    # A last group of one joins the group before it (a domain's only record stays alone).
    g = np.where((rest == 1) & (full >= 1) & (g == full), full - 1, g)

    new_group = new_run.copy()
    new_group[1:] |= g[1:] != g[:-1]
    start = np.flatnonzero(new_group)
    size = np.diff(np.append(start, k))
    return Groups(order=order, start=start, size=size, batch=b[start], domain=d[start])


def _sort_within_batches(domain: np.ndarray, complexity: np.ndarray, batch_size: int) -> np.ndarray:
    """Positions ordered by (batch, domain, complexity), stably.

    Full batches are sorted as the rows of a (batches, batch_size) matrix: many small
    sorts are much faster than one ``lexsort`` over every record.
    """
    k = len(domain)
    n_full = k // batch_size
    full = n_full * batch_size
    parts = []
    if n_full:
        by_complexity = np.argsort(complexity[:full].reshape(n_full, batch_size), axis=1, kind="stable")
        codes = np.take_along_axis(domain[:full].reshape(n_full, batch_size), by_complexity, axis=1)
        inner = np.take_along_axis(by_complexity, np.argsort(codes, axis=1, kind="stable"), axis=1)
        parts.append((inner + (np.arange(n_full, dtype=np.int64) * batch_size)[:, None]).ravel())
    if full < k:
        parts.append(full + np.lexsort((complexity[full:], domain[full:])))
    return np.concatenate(parts)
