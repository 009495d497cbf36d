"""GRPO group comparison: per group, System 2's success share minus System 1's.

``s1`` is the share of ``success`` among a group's System 1 records and ``s2`` the same
for System 2 (``escalated`` and ``failed`` are not successes). A group where both
systems occur has ``advantage = s2 - s1``; a group with one system only is one-sided
and has no advantage.

Per batch and domain, ``A`` is the mean advantage of the two-sided groups weighted by
group size (all of a group's records, not only the two systems' counts); the default
threshold's ``A`` is the same mean over all two-sided groups of the batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from artibot.learning.batching import Groups
from artibot.learning.columns import Batches, Table
from artibot.learning.types import GroupResult


@dataclass(frozen=True, eq=False)
class GroupStats:
    """Per-group counts and shares, aligned with :class:`Groups` (NaN where a share is absent)."""

    n1: np.ndarray
    k1: np.ndarray
    n2: np.ndarray
    k2: np.ndarray
    complexity_min: np.ndarray
    complexity_max: np.ndarray
    s1: np.ndarray
    s2: np.ndarray
    advantage: np.ndarray

    @property
    def two_sided(self) -> np.ndarray:
        return (self.n1 > 0) & (self.n2 > 0)


@dataclass(frozen=True, eq=False)
class BatchAdvantages:
    """Size-weighted mean advantages of the steps to take, in step order.

    One row per batch with a two-sided group for the default threshold (``code`` -1),
    followed by one row per domain of that batch with a two-sided group (by domain code).
    """

    batch: np.ndarray
    code: np.ndarray
    advantage: np.ndarray


def group_stats(groups: Groups, system2: np.ndarray, success: np.ndarray, complexity: np.ndarray) -> GroupStats:
    """Counts, shares and advantages of every group (arrays over the processed records)."""
    if len(groups) == 0:
        z = np.empty(0, np.int64)
        f = np.empty(0, np.float64)
        return GroupStats(z, z, z, z, f, f, f, f, f)
    s2 = system2[groups.order]
    ok = success[groups.order]
    n2 = np.add.reduceat(s2.astype(np.int64), groups.start)
    k2 = np.add.reduceat((s2 & ok).astype(np.int64), groups.start)
    k1 = np.add.reduceat((~s2 & ok).astype(np.int64), groups.start)
    n1 = groups.size - n2
    c = complexity[groups.order]
    with np.errstate(divide="ignore", invalid="ignore"):
        share1 = np.where(n1 > 0, k1 / n1, np.nan)
        share2 = np.where(n2 > 0, k2 / n2, np.nan)
    advantage = share2 - share1  # NaN unless both systems occur
    return GroupStats(
        n1=n1, k1=k1, n2=n2, k2=k2,
        complexity_min=c[groups.start], complexity_max=c[groups.start + groups.size - 1],
        s1=share1, s2=share2, advantage=advantage,
    )


def batch_advantages(groups: Groups, stats: GroupStats) -> BatchAdvantages:
    """Per batch, and per (batch, domain): the size-weighted mean advantage of two-sided groups."""
    keep = np.flatnonzero(stats.two_sided)
    batch = groups.batch[keep]
    code = groups.domain[keep].astype(np.int64)
    weight = groups.size[keep].astype(np.float64)
    weighted = weight * stats.advantage[keep]
    if len(keep) == 0:
        return BatchAdvantages(np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.float64))
    # Groups are already ordered by (batch, domain): equal keys are contiguous.
    new_pair = np.ones(len(keep), np.bool_)
    new_pair[1:] = (batch[1:] != batch[:-1]) | (code[1:] != code[:-1])
    pair = np.flatnonzero(new_pair)
    new_batch = np.ones(len(keep), np.bool_)
    new_batch[1:] = batch[1:] != batch[:-1]
    first = np.flatnonzero(new_batch)
    step_batch = np.concatenate((batch[first], batch[pair]))
    step_code = np.concatenate((np.full(len(first), -1, np.int64), code[pair]))
    step_adv = np.concatenate((np.add.reduceat(weighted, first) / np.add.reduceat(weight, first),
                               np.add.reduceat(weighted, pair) / np.add.reduceat(weight, pair)))
    order = np.lexsort((step_code, step_batch))
    return BatchAdvantages(batch=step_batch[order], code=step_code[order], advantage=step_adv[order])


def group_results(groups: Groups, stats: GroupStats, domains: tuple[str, ...], n_batches: int) -> Batches:
    """The groups of each batch as :class:`GroupResult` rows (plain Python numbers, None for NaN)."""

    def opt(values: np.ndarray) -> list[float | None]:
        return [None if v != v else v for v in values.tolist()]

    table = Table(GroupResult, {
        "batch": groups.batch.tolist(), "domain": list(map(domains.__getitem__, groups.domain.tolist())),
        "size": groups.size.tolist(), "complexity_min": stats.complexity_min.tolist(),
        "complexity_max": stats.complexity_max.tolist(), "n1": stats.n1.tolist(), "k1": stats.k1.tolist(),
        "n2": stats.n2.tolist(), "k2": stats.k2.tolist(), "s1": opt(stats.s1), "s2": opt(stats.s2),
        "advantage": opt(stats.advantage),
    })
    return Batches(table, np.bincount(groups.batch, minlength=n_batches).tolist())
