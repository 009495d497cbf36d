"""The MMLU replay of ``run_team.py``, measured and taken apart.

The protocol (:mod:`experiments.online`): one pass over the rows in a seeded order, the real
product in a fresh home, a round every ``every`` rows, scored on the second half as
PGR − System 2 share. The reference is the per-subject table fitted with full information on
the first half (both systems' outcomes of every row): System 2 for a subject whose gain
beats the price. Here the router is seeded too (``router_seed`` = the seed), so a seed is one
exact run and the team's pass, one member's pass, the table and the bound below are paired.

What this module adds:

* :func:`bandit_table`, the **bound of bandit feedback** in this protocol: the first half routed
  uniformly at random (free: it is not scored), each row telling only the outcome of the
  system it drew, then the per-subject table fitted on those outcomes (the same price as the
  reference table). It is what the first half's information allows when every row is spent
  on learning; a learner that must also route well while learning sees less.
* :func:`guarded_table`, the table within the router's bounds: the same table with the rows
  whose complexity score is above ``maxThreshold`` (0.9 by default) sent to System 2, as a
  router whose thresholds stay at or below it must send them (3.9% of the held-out rows, 21%
  of high_school_statistics'); ``bandit_table(..., top=)`` is the bound of bandit feedback
  within the same bounds.
* :func:`losses`, where the product's pass loses against the table, in the scored half:
  on explored rows, on subjects the table sends to System 1 (System 2 calls the table does
  not make) and on subjects it sends to System 2 (System 1 calls it does not make), and
  per subject.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

import numpy as np

from experiments import online


def _score(chose: np.ndarray, rows: list[online.Row]) -> float:
    return online.score_rows(chose, rows)["score"]


def table_choice(first: list[online.Row], tail: list[online.Row], price: float) -> np.ndarray:
    """The full-information table's route for each row of ``tail`` (True: System 2)."""
    gains: dict[str, list[int]] = {}
    for r in first:
        g = gains.setdefault(r.domain, [0, 0])
        g[0] += 1
        g[1] += r.s2 - r.s1
    return np.array([(gains[r.domain][1] / gains[r.domain][0] > price) if r.domain in gains else True for r in tail])


def _halves(rows: list[online.Row], seed: int) -> tuple[list[online.Row], list[online.Row], float]:
    """The pass's first half, its scored half and the scored half's mean gain (the table's price)."""
    order = online.shuffled(rows, seed)
    half = len(order) // 2
    first, tail = order[:half], order[half:]
    return first, tail, float(np.mean([r.s2 for r in tail]) - np.mean([r.s1 for r in tail]))


def _above(tail: list[online.Row], top: float | None) -> np.ndarray:
    """Per row of ``tail``: its complexity score is above ``top`` (none when ``top`` is None)."""
    from artibot.hookpath.router.complexity import score

    return np.array([top is not None and score(r.prompt).score > top for r in tail], bool)


def guarded_table(rows: list[online.Row], seed: int, top: float) -> float:
    """The score of the full-information table with every scored row whose complexity score is
    above ``top`` sent to System 2 (see the module doc)."""
    first, tail, price = _halves(rows, seed)
    return _score(table_choice(first, tail, price) | _above(tail, top), tail)


def bandit_table(rows: list[online.Row], seed: int, draws: int = 20, top: float | None = None) -> float:
    """The mean score, over ``draws`` uniform random routings of the first half, of the table
    fitted on that half's bandit feedback (see the module doc); with ``top``, the scored rows
    scoring above it go to System 2, as in :func:`guarded_table`."""
    first, tail, price = _halves(rows, seed)
    above = _above(tail, top)
    rng = random.Random(seed * 7919 + 1)
    scores = []
    for _ in range(draws):
        seen: dict[str, list[int]] = {}  # subject -> [n1, k1, n2, k2]
        for r in first:
            s = seen.setdefault(r.domain, [0, 0, 0, 0])
            if rng.random() < 0.5:
                s[0] += 1
                s[1] += r.s1
            else:
                s[2] += 1
                s[3] += r.s2
        def s2(domain: str) -> bool:
            n1, k1, n2, k2 = seen.get(domain, (0, 0, 0, 0))
            if n1 == 0 or n2 == 0:
                return True
            return k2 / n2 - k1 / n1 > price
        scores.append(_score(np.array([s2(r.domain) for r in tail]) | above, tail))
    return float(np.mean(scores))


def losses(order: list[online.Row], chose: np.ndarray, explored: np.ndarray) -> dict[str, Any]:
    """The scored half's loss against the table, in score units (they add up to table − pass)."""
    half = len(order) // 2
    first, tail = order[:half], order[half:]
    a1 = np.array([r.s1 for r in tail], float)
    a2 = np.array([r.s2 for r in tail], float)
    gap = float(a2.mean() - a1.mean())
    table = table_choice(first, tail, gap)
    mine, ex = chose[half:], explored[half:]
    value = ((a2 - a1) / gap - 1.0) / len(tail) if gap else np.zeros(len(tail))  # of a System 2 call, per row
    lost = (table.astype(float) - mine.astype(float)) * value  # > 0: the table did better on the row
    subjects = np.array([r.domain for r in tail])
    per_subject = {}
    for name in sorted(set(subjects.tolist())):
        m = subjects == name
        per_subject[name] = {"rows": int(m.sum()), "table_s2": bool(table[m][0]),
                             "s2_share": float(mine[m].mean()), "lost": float(lost[m].sum())}
    return {"explored": float(lost[ex].sum()),
            "table_s1_subjects": float(lost[~ex & ~table].sum()),
            "table_s2_subjects": float(lost[~ex & table].sum()),
            "total": float(lost.sum()), "subjects": per_subject}


def run(rows: list[online.Row], seed: int, every: int, router_seed: int | None,
        config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The product's pass over ``rows`` (fresh home; the shipped defaults, or ``config`` when
    given) with its score and losses."""
    policy = (online.ProductRun("config", config, router_seed) if config is not None else
              online.make("defaults", seed, float(np.mean([r.s2 for r in rows]) - np.mean([r.s1 for r in rows])),
                          router_seed))
    order = online.shuffled(rows, seed)
    n = len(order)
    s2, explored = np.zeros(n, bool), np.zeros(n, bool)
    try:
        for i, row in enumerate(order):
            s2[i], _p, explored[i] = policy.route(row, i)
            if (i + 1) % every == 0 and i + 1 < n:
                policy.night()
    finally:
        policy.close()
    return {"score": online.score_half(s2, order)["score"], "losses": losses(order, s2, explored),
            "explored": float(explored.mean())}
