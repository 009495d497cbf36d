"""The evidence learner on a team's pool: the same round, from sufficient statistics.

A personal round counts its frame into cells (per domain and complexity bin: System 1
and System 2 trials and successes) and steps each threshold from the cells
(:func:`artibot.learning.evidence.step_cells`). On a pool of millions of rows the
counting is done by the database (``GROUP BY domain, bin, system``) and only the
counts travel: :class:`CellStat` rows. This module turns them into the same
:class:`~artibot.learning.types.RoundProposal` a personal round makes, so the same three
checkpoints show it and the same answers apply.

What differs from a personal round, and why: the round takes every row of its window
(the pool has no per-record archive to move, so no partial batch is left over);
checkpoint 3 decides patterns by the team's keyed hash of them, from counts the database
makes (:mod:`artibot.learning.team_patterns`); records a member's System 1 cache
routed are counted like the others (the pool does not know a member's cache); and when the
window holds two or more members' records the evidence's half-life is twice one person's
(:func:`artibot.learning.bandit.pooled_half_life`): with one person's, a pool that sends
twelve times the records would forget twelve times faster in days and keep no more evidence
than one person does.

The published state (:func:`state_json`) carries the thresholds, the accumulated
cells and the pattern decisions; :func:`parse_state` is what a member runs before using one (it raises ValueError
naming the field, with a message where this module words it: :func:`problem`; the member then keeps its previous
state).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from artibot.learning import bandit
from artibot.learning.bandit import K1, K2, N1, N2
from artibot.learning.batching import batch_plan
from artibot.learning.columns import Batches, Table
from artibot.learning.evidence import MODE, step_cells
from artibot.learning.evidence_frame import group, interval
from artibot.learning.round_params import Intervals, JSONObject, RoundParams, Scalar
from artibot.messages import Message
from artibot.learning.team_patterns import PatternCount, parse_patterns, pattern_round, patterns_json
from artibot.learning.transfer import apply_decisions
from artibot.learning.types import DomainStep, GroupResult, PatternStats, RoundProposal, Thresholds
from artibot.config.settings import Settings
from artibot.shapes import JsonValue

STATE_SCHEMA = 1


@dataclass(frozen=True)
class CellStat:
    """One ``(domain, bin, system)`` of a window of the pool, as the database sums it."""

    domain: str
    bin: int
    system2: bool
    n: int
    k: int
    weighted_n: float
    """Sum of 1/propensity (records without a propensity count 1)."""
    weighted_k: float
    """The same over the successes: the inverse-propensity weighted successes."""
    cost_usd: float
    explored_n: int
    """Records routed against the odds (propensity below one half): the explored trials."""
    explored_k: int
    explored_propensity: float
    """Sum of the explored trials' propensities."""
    complexity_min: float
    complexity_max: float


@dataclass(frozen=True)
class TeamState:
    """A published state as a member uses it."""

    thresholds: Thresholds
    cells: dict[str, np.ndarray]
    seq_to: int
    records: int
    patterns: dict[str, PatternStats] = field(default_factory=dict)
    """Pattern hash → its status and counts, as the team's checkpoint 3 settled them."""


def fresh_cells(stats: Sequence[CellStat]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for s in stats:
        arr = out.setdefault(s.domain, np.zeros((bandit.BINS, 4)))
        n, k = (N2, K2) if s.system2 else (N1, K1)
        arr[s.bin, n] += s.n
        arr[s.bin, k] += s.k
    return out


def propose_pooled(stats: Sequence[CellStat], state: TeamState | None, default: float, settings: Settings, *,
                   flush: bool = False, extra: Mapping[str, JsonValue] | None = None,
                   pattern_counts: Sequence[PatternCount] = (), members: int = 1) -> RoundProposal | None:
    """The round over ``stats`` and the window's ``pattern_counts`` (None: fewer records than a
    batch and not ``flush``); ``members``: how many members' records the window holds (the
    pool forgets over :func:`artibot.learning.bandit.pooled_half_life` of them)."""
    records = sum(s.n for s in stats)
    processed, n_batches = batch_plan(records, settings.lifelong.batch_size, flush)
    if processed == 0:
        return None
    thresholds = state.thresholds if state is not None else Thresholds(default, {})
    history = dict(state.cells) if state is not None else {}
    fresh = fresh_cells(stats)
    half_life = bandit.pooled_half_life(members)
    cs = step_cells(history, fresh, thresholds, settings, n_batches, half_life=half_life)
    groups, intervals = _groups(stats, cs.after_cells)
    before = dict(state.patterns) if state is not None else {}
    after, decisions, bounds = pattern_round(before, pattern_counts, settings)
    explored = sum(s.explored_n for s in stats)
    numbers: dict[str, Scalar] = {"batch_size": settings.lifelong.batch_size, "batches": n_batches, "flush": flush,
                                  "reach": cs.reach, "bins": bandit.BINS, "half_life": half_life,
                                  "members": members, "explored": explored}
    pool: JSONObject = {"records": records, "weighted_records": sum(s.weighted_n for s in stats),
                        "weighted_successes": sum(s.weighted_k for s in stats),
                        "cost_usd": sum(s.cost_usd for s in stats),
                        "explored_successes": sum(s.explored_k for s in stats), **(extra or {})}
    cells: JSONObject = {d: a.tolist() for d, a in sorted(cs.after_cells.items())}
    params = RoundParams(numbers, cs.price, cs.evidence,
                         Intervals(tuple(None if g is None else (g[0], g[1]) for g in intervals),
                                   {k: (b[0], b[1]) for k, b in bounds.items()}),
                         extra={"changes": cs.changes, "pool": pool, "cells_after": cells})
    return RoundProposal(mode=MODE, batches=Batches.of(GroupResult, (tuple(groups),)),
                         steps=Table.of(DomainStep, cs.steps), old=thresholds, new=cs.new, processed_ids=(),
                         remainder=0, patterns_before=before, patterns_after=after, decisions=decisions,
                         params=params)


def _groups(stats: Sequence[CellStat], cells: Mapping[str, np.ndarray]
            ) -> tuple[list[GroupResult], list[list[float] | None]]:
    """The window's cells as checkpoint-1 groups (what a personal round shows), with their intervals."""
    by_cell: dict[tuple[str, int], list[CellStat]] = {}
    for s in stats:
        by_cell.setdefault((s.domain, s.bin), []).append(s)
    groups: list[GroupResult] = []
    intervals: list[list[float] | None] = []
    for (domain, b), parts in sorted(by_cell.items()):
        counts = np.zeros(4)
        for p in parts:
            n, k = (N2, K2) if p.system2 else (N1, K1)
            counts[n] += p.n
            counts[k] += p.k
        groups.append(group(domain, counts, min(p.complexity_min for p in parts),
                            max(p.complexity_max for p in parts)))
        intervals.append(interval(cells[domain][b]))
    return groups, intervals


def state_json(proposal: RoundProposal, *, apply_thresholds: bool, seq_to: int,
               actions: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The state a round publishes: its thresholds (the old ones when checkpoint 2 said
    revert), the cells after it, the patterns after checkpoint 3's ``actions`` (pattern
    hash → promote, demote or hold), and how far into the pool it read."""
    thresholds = proposal.new if apply_thresholds else proposal.old
    patterns = apply_decisions(proposal.patterns_after, actions or {})
    return {"schema": STATE_SCHEMA, "thresholds": dict(thresholds.to_json()),
            "cells": proposal.params.extra["cells_after"], "seq_to": seq_to,
            "records": pool_number(proposal.params, "records"), "patterns": patterns_json(patterns)}


def pool_number(params: RoundParams, name: str) -> int:
    """A whole number a team round recorded about its pool (``records``, ``seq_to``)."""
    pool = params.extra.get("pool")
    value = pool.get(name) if isinstance(pool, dict) else None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(Message("team.pool_number", name=repr(name)))
    return value


def problem(exc: ValueError) -> Message | str:
    """What a refused state's ValueError says: its message, or the sentence of a check that
    words its own (the thresholds', the patterns')."""
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Message) else str(exc)


def parse_state(doc: Any) -> TeamState:
    """A published state, checked field by field (ValueError names the first problem)."""
    if not isinstance(doc, Mapping):
        raise ValueError(Message("team.state_not_object", type=type(doc).__name__))
    if doc.get("schema") != STATE_SCHEMA:
        raise ValueError(Message("team.state_schema", schema=repr(doc.get("schema")), reads=STATE_SCHEMA))
    thresholds = Thresholds.from_json(doc.get("thresholds"))  # type: ignore[arg-type]  # it checks the type
    cells_doc = doc.get("cells")
    if not isinstance(cells_doc, Mapping):
        raise ValueError(Message("team.state_cells"))
    cells: dict[str, np.ndarray] = {}
    for domain, rows in cells_doc.items():
        try:
            arr = np.asarray(rows, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(Message("team.state_cells_numbers", domain=repr(domain))) from None
        if arr.shape != (bandit.BINS, 4) or not np.all(np.isfinite(arr)) or np.any(arr < 0) \
                or np.any(arr[:, [K1, K2]] > arr[:, [N1, N2]] + 1e-9):
            raise ValueError(Message("team.state_cells_shape", domain=repr(domain), bins=bandit.BINS))
        cells[str(domain)] = arr
    seq_to, records = doc.get("seq_to"), doc.get("records")
    for name, value in (("seq_to", seq_to), ("records", records)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(Message("team.state_count", name=name, value=repr(value)))
    patterns = parse_patterns(doc.get("patterns"))
    return TeamState(thresholds, cells, int(seq_to), int(records), patterns)  # type: ignore[arg-type]


def prior_cells(own: Mapping[str, np.ndarray], team: Mapping[str, np.ndarray], weight: float
                ) -> dict[str, np.ndarray]:
    """The team's cells as a prior for the domains this member has no evidence of, scaled to
    at most ``weight`` trials per domain: a starting point the member's own outcomes soon
    outweigh (its own cells decay it like any old evidence)."""
    out: dict[str, np.ndarray] = {}
    for domain, arr in team.items():
        if domain in own and own[domain][:, [N1, N2]].sum() > 0:
            continue
        total = float(arr[:, [N1, N2]].sum())
        if total <= 0 or not math.isfinite(total):
            continue
        out[domain] = arr * min(1.0, weight / total)
    return out
