"""Threshold steps: ``delta = clamp(adaptRate * A, -0.1, 0.1)``, ``threshold -= delta``.

A positive advantage (System 2 better) lowers the threshold, so more requests go to
System 2. After the step the threshold is clipped into ``[minThreshold, maxThreshold]``.

Batches are applied in order, each to the thresholds the batch before left. Within a
batch the default threshold (``"*"``) steps first, over all two-sided groups; then each
domain with a two-sided group, by name. A domain without a learned threshold starts from
the default as it stood *before* this batch's step. A domain whose groups are all
one-sided does not move and is not added.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from artibot.config.settings import RouterSettings
from artibot.learning.columns import Table
from artibot.learning.types import DEFAULT_KEY, DomainStep, Thresholds

MAX_STEP = 0.1
"""The seed's trust region: no single step moves a threshold by more than this."""


def step(batch: int, domain: str, advantage: float, old: float, router: RouterSettings) -> DomainStep:
    """One step of one threshold."""
    raw = router.adapt_rate * advantage
    delta = min(max(raw, -MAX_STEP), MAX_STEP)
    moved = old - delta
    new = min(max(moved, router.min_threshold), router.max_threshold)
    return DomainStep(batch=batch, domain=domain, advantage=advantage, raw_delta=raw, delta=delta,
                      old=old, new=new, clamped=delta != raw, bounded=new != moved)


def apply_steps(thresholds: Thresholds, batch: np.ndarray, domain: Sequence[str], advantage: np.ndarray,
                router: RouterSettings) -> tuple[Table[DomainStep], Thresholds]:
    """Run every step of the round in order; return the steps and the thresholds after the last.

    ``batch``, ``domain`` and ``advantage`` list the steps to take (``domain`` ``"*"`` for
    the default threshold) ordered by batch, the default first within a batch. Only the
    threshold values are carried from step to step; the rest is computed as arrays, with
    the same IEEE arithmetic as :func:`step`.
    """
    batch = np.asarray(batch, np.int64)
    advantage = np.asarray(advantage, np.float64)
    raw = router.adapt_rate * advantage
    delta = np.clip(raw, -MAX_STEP, MAX_STEP)
    lo, hi = router.min_threshold, router.max_threshold
    default = thresholds.default
    learned = dict(thresholds.domains)
    olds: list[float] = []
    news: list[float] = []
    previous, default_before = None, default
    for b, name, d in zip(batch.tolist(), domain, delta.tolist()):
        if b != previous:
            previous, default_before = b, default
        if name == DEFAULT_KEY:
            old = default
        else:
            old = learned.get(name, default_before)
        moved = old - d
        new = lo if moved < lo else hi if moved > hi else moved
        olds.append(old)
        news.append(new)
        if name == DEFAULT_KEY:
            default = new
        else:
            learned[name] = new
    moved_all = np.array(olds, np.float64) - delta
    table = Table(DomainStep, {
        "batch": batch.tolist(), "domain": list(domain), "advantage": advantage.tolist(),
        "raw_delta": raw.tolist(),
        "delta": delta.tolist(), "old": olds, "new": news, "clamped": (delta != raw).tolist(),
        "bounded": (np.array(news, np.float64) != moved_all).tolist(),
    })
    return table, Thresholds(default, learned)
