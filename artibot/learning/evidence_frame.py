"""A personal round's frame as the evidence learner's checkpoint-1 groups and cell time stamps.

Split from :mod:`artibot.learning.evidence`, whose threshold step (``step_cells``) takes
counts alone so that the team round can feed it sums from SQL; these two read the frame.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from artibot.learning import bandit
from artibot.learning.bandit import K1, K2, N1, N2
from artibot.learning.frame import Frame
from artibot.learning.posterior import beta_mean_var
from artibot.learning.types import GroupResult


def group(domain: str, counts: np.ndarray, cmin: float, cmax: float) -> GroupResult:
    """One cell's fresh ``n1, k1, n2, k2`` as a checkpoint-1 group."""
    n1, k1, n2, k2 = (int(round(v)) for v in counts)
    s1 = k1 / n1 if n1 else None
    s2 = k2 / n2 if n2 else None
    return GroupResult(batch=0, domain=domain, size=n1 + n2, complexity_min=cmin, complexity_max=cmax, n1=n1, k1=k1,
                       n2=n2, k2=k2, s1=s1, s2=s2, advantage=s2 - s1 if s1 is not None and s2 is not None else None)


def interval(acc: np.ndarray) -> list[float] | None:
    """The 90% interval of System 2's advantage in a cell of accumulated counts (None: a system never tried)."""
    if acc[N1] >= 1 and acc[N2] >= 1:
        (m1, m2), (v1, v2) = beta_mean_var(acc[[K1, K2]], acc[[N1, N2]])
        half = 1.645 * float(np.sqrt(v1 + v2))
        return [float(m2 - m1 - half), float(m2 - m1 + half)]
    return None


def frame_groups(frame: Frame, processed: int, use: np.ndarray, fresh: np.ndarray, cells: Mapping[str, np.ndarray],
                 seen_domains: list[int]) -> tuple[list[GroupResult], list[list[float] | None]]:
    """This round's cells as checkpoint-1 groups, with the 90% interval of the advantage."""
    c = frame.complexity[:processed][use]
    d = frame.domain[:processed][use]
    b = bandit.bin_of(c)
    groups: list[GroupResult] = []
    intervals: list[list[float] | None] = []
    for i in seen_domains:
        name = frame.domains[i]
        for cell in np.flatnonzero(fresh[i, :, N1] + fresh[i, :, N2]).tolist():
            members = c[(d == i) & (b == cell)]
            groups.append(group(name, fresh[i, cell], float(members.min()), float(members.max())))
            intervals.append(interval(cells[name][cell]))
    return groups, intervals


def cell_stamps(frame: Frame, processed: int, use: np.ndarray) -> dict[tuple[str, int], tuple[str, str]]:
    """``(domain, bin) -> (first, last)`` time stamps of the round's records that count as evidence."""
    rows = np.flatnonzero(use)
    keys = [(frame.domains[d], b) for d, b in
            zip(frame.domain[rows].tolist(), bandit.bin_of(frame.complexity[rows]).tolist())]
    out: dict[tuple[str, int], tuple[str, str]] = {}
    for key, row in zip(keys, rows.tolist()):  # rows are in timestamp order
        first = out.get(key, (frame.timestamps[row],))[0]
        out[key] = (first, frame.timestamps[row])
    return out
