"""Each learning mode's own state between rounds, as a value (its file is
:mod:`artibot.store.learned.learner_state`).

The seed's rule keeps nothing beyond the thresholds and the pattern statistics
(:class:`SeedState`). The evidence learner keeps its *cells* (:class:`EvidenceState`): per
domain and complexity bin, how often each system was tried and succeeded, in units of
``1/SCALE`` trial (forgetting makes counts fractional; see :mod:`artibot.learning.bandit`),
with the first and last time a record landed in the cell.

Older homes kept the cells among the pattern statistics, under reserved keys
``"~cell:<domain>#<bin>"``; :meth:`EvidenceState.from_legacy` reads them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Mapping, Union

import numpy as np

from artibot.learning.bandit import BINS, N1, N2, SCALE
from artibot.learning.types import PatternStats
from artibot.hookpath.names import CELL_PREFIX
from artibot.messages import Message

JSONScalar = Union[str, int, float, bool, None]
CellJSON = dict[str, JSONScalar]


@dataclass(frozen=True)
class Cell:
    """One domain's complexity bin: System 1 and System 2 trials and successes (in ``1/SCALE`` trial)."""

    n1: int
    k1: int
    n2: int
    k2: int
    first_seen: str | None = None
    last_seen: str | None = None

    def to_json(self) -> CellJSON:
        return {"n1": self.n1, "k1": self.k1, "n2": self.n2, "k2": self.k2,
                "first_seen": self.first_seen, "last_seen": self.last_seen}

    @classmethod
    def from_json(cls, d: object, where: str) -> Cell:
        if not isinstance(d, Mapping):
            raise ValueError(f"{where}: a cell must be an object, not {d!r}")
        counts: list[int] = []
        for name in ("n1", "k1", "n2", "k2"):
            v = d.get(name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"{where}: {name!r} must be a whole number from 0, not {v!r}")
            counts.append(v)
        stamps: list[str | None] = []
        for name in ("first_seen", "last_seen"):
            s = d.get(name)
            if s is not None and not isinstance(s, str):
                raise ValueError(f"{where}: {name!r} must be a time stamp or null, not {s!r}")
            stamps.append(s)
        n1, k1, n2, k2 = counts
        return cls(n1, k1, n2, k2, stamps[0], stamps[1])


@dataclass(frozen=True)
class SeedState:
    """The seed's rule keeps no state of its own."""

    MODE: ClassVar[str] = "seed"

    def to_json(self) -> dict[str, dict[str, dict[str, CellJSON]]]:
        return {}

    @classmethod
    def from_json(cls, d: object) -> SeedState:
        return cls()


def _cells_map(cells: Mapping[str, Mapping[int, Cell]]) -> dict[str, dict[int, Cell]]:
    """A copy, in the given order of domains (the math sums over them in that order)."""
    return {d: {b: bins[b] for b in sorted(bins)} for d, bins in cells.items()}


def domain_order(domain: str) -> str:
    """Domains are stored in the order their cells' keys sorted in when they were pattern
    statistics (``~cell:<domain>#<bin>``), so that a round adds its floats in the same order."""
    return f"{domain}#"


@dataclass(frozen=True)
class EvidenceState:
    """The evidence learner's cells: ``cells[domain][bin]``, only bins with a trial; domains in
    :func:`domain_order`, a team's prior ones after the member's own."""

    MODE: ClassVar[str] = "evidence"

    cells: Mapping[str, Mapping[int, Cell]] = field(default_factory=dict)

    __hash__ = None  # type: ignore[assignment]  # holds mappings; compare, don't hash

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells_map(self.cells))

    def arrays(self) -> dict[str, np.ndarray]:
        """Per domain, the ``(BINS, 4)`` counts ``n1, k1, n2, k2`` in trials (what the math reads)."""
        out: dict[str, np.ndarray] = {}
        for domain, bins in self.cells.items():
            arr = out.setdefault(domain, np.zeros((BINS, 4)))
            for b, c in bins.items():
                arr[b] = np.array((c.n1, c.k1, c.n2, c.k2), dtype=float) / SCALE
        return out

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], before: EvidenceState | None = None,
                    seen: Mapping[tuple[str, int], tuple[str, str]] | None = None) -> EvidenceState:
        """Counts in trials as stored cells (rounded to ``1/SCALE``; a bin with no trial left
        out); ``seen[(domain, bin)] = (first, last)``: the time stamps of this round's records,
        kept beside the first time ``before`` saw the cell."""
        old = before.cells if before is not None else {}
        stamps = seen or {}
        cells: dict[str, dict[int, Cell]] = {}
        for domain in sorted(arrays, key=domain_order):
            stored = np.rint(arrays[domain] * SCALE).astype(np.int64)
            for b in np.flatnonzero(stored[:, N1] + stored[:, N2]).tolist():
                prev = old.get(domain, {}).get(b)
                first, last = stamps.get((domain, b), (None, None))
                n1, k1, n2, k2 = (int(v) for v in stored[b])
                cells.setdefault(domain, {})[b] = Cell(
                    n1, k1, n2, k2, first_seen=(prev.first_seen if prev and prev.first_seen else first),
                    last_seen=last or (prev.last_seen if prev else None))
        return cls(cells)

    def with_domains(self, other: EvidenceState) -> EvidenceState:
        """This state with ``other``'s domains added (a domain in both keeps ``other``'s cells)."""
        return EvidenceState({**self.cells, **other.cells})

    def to_json(self) -> dict[str, dict[str, dict[str, CellJSON]]]:
        return {"cells": {d: {f"{b:02d}": c.to_json() for b, c in self.cells[d].items()}
                          for d in sorted(self.cells, key=domain_order)}}

    @classmethod
    def from_json(cls, d: object) -> EvidenceState:
        where = "evidence state"
        if not isinstance(d, Mapping) or not isinstance(d.get("cells", {}), Mapping):
            raise ValueError(f'{where}: "cells" must be an object keyed by domain')
        cells: dict[str, dict[int, Cell]] = {}
        for domain, bins in d.get("cells", {}).items():
            if not isinstance(bins, Mapping):
                raise ValueError(f"{where}: the cells of {domain!r} must be an object keyed by bin")
            for b, c in bins.items():
                if not (isinstance(b, str) and b.isdigit() and 0 <= int(b) < BINS):
                    raise ValueError(f"{where}: bin {b!r} of {domain!r} must be a number from 00 to {BINS - 1}")
                cells.setdefault(str(domain), {})[int(b)] = Cell.from_json(c, f"{where}, {domain!r} bin {b}")
        return cls(cells)

    @classmethod
    def from_legacy(cls, patterns: Mapping[str, PatternStats]) -> tuple[EvidenceState, dict[str, PatternStats]]:
        """``(the cells, the real patterns)`` from pattern statistics as older homes stored them,
        the cells under ``~cell:<domain>#<bin>`` keys (a key of that prefix that names no bin is
        not one of ours: it stays a pattern)."""
        cells: dict[str, dict[int, Cell]] = {}
        plain: dict[str, PatternStats] = {}
        for key, s in patterns.items():
            domain, _, b = key[len(CELL_PREFIX):].rpartition("#")
            if not key.startswith(CELL_PREFIX) or not domain or not b.isdigit() or not 0 <= int(b) < BINS:
                plain[key] = s
                continue
            cells.setdefault(domain, {})[int(b)] = Cell(s.n1, s.k1, s.n2, s.k2, s.first_seen, s.last_seen)
        return cls(cells), plain


LearnerState = Union[SeedState, EvidenceState]
STATES: dict[str, type[SeedState] | type[EvidenceState]] = {"seed": SeedState, "evidence": EvidenceState}


def state_from_json(mode: str, d: object) -> LearnerState:
    """The state of ``mode`` from its file form (ValueError naming the field when it is wrong)."""
    kind = STATES.get(mode)
    if kind is None:
        raise ValueError(Message("value.one_of", key="learner state: mode", options=", ".join(STATES), value=repr(mode)))
    return kind.from_json(d)


__all__ = ["Cell", "EvidenceState", "LearnerState", "STATES", "SeedState", "state_from_json"]
