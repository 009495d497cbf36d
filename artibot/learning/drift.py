"""The weekly drift check: has a domain's success rate changed lately?

Per domain and system, the recent outcomes (the records of the last ``days`` days
before ``now``) are tested against the history (everything before). A plain
two-proportion test would flag drift every time a threshold moved, because a moved
threshold changes *which* requests a system gets (System 1's success rate falls when it
is handed harder requests). So the test is stratified by complexity (five bins of
0.2): the Cochran-Mantel-Haenszel test of "same odds of success, recent vs history,
within each complexity bin", with continuity correction; its p-value is exact enough
when the strata are not tiny, and Fisher's exact test on the pooled 2x2 table is used
instead when only one stratum has both recent and history records.

Drift is flagged when ``p < alpha / m``, ``m`` the number of (domain, system) pairs
actually tested (Bonferroni). Pure: records in, rows out; ``now`` comes in as an argument.

The counting is plain Python (a pass over the records, as building arrays from them would
be); numpy and scipy are imported only to test a pair that has both recent and history
records, so a check with nothing to test (a new data home, a first week) starts in a
fraction of the time.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from artibot.messages import Message

if TYPE_CHECKING:
    import numpy as np

STRATA = (0.2, 0.4, 0.6, 0.8)
"""The upper edges of the complexity bins but the last (a value on an edge goes to the bin above)."""
SYSTEMS = ("system1", "system2")


@dataclass(frozen=True)
class DriftRow:
    """One (domain, system): recent and history successes and the test's verdict."""

    domain: str
    system: str
    recent_k: int
    recent_n: int
    history_k: int
    history_n: int
    p_value: float
    tested: bool
    drift: bool

    @property
    def recent_rate(self) -> float | None:
        return self.recent_k / self.recent_n if self.recent_n else None

    @property
    def history_rate(self) -> float | None:
        return self.history_k / self.history_n if self.history_n else None

    def to_json(self) -> dict[str, Any]:
        return {"domain": self.domain, "system": self.system, "recent": f"{self.recent_k}/{self.recent_n}",
                "history": f"{self.history_k}/{self.history_n}", "p_value": self.p_value,
                "tested": self.tested, "drift": self.drift}


def stratified_p_value(recent: np.ndarray, history: np.ndarray) -> float:
    """Two-sided p-value that recent and history have the same odds of success within each stratum.

    ``recent`` and ``history`` are ``(strata, 2)`` arrays of ``(successes, trials)``.

    >>> import numpy as np
    >>> round(stratified_p_value(np.array([[10, 20], [5, 20]]), np.array([[90, 100], [45, 50]])), 6)
    0.0
    >>> stratified_p_value(np.array([[9, 10]]), np.array([[90, 100]]))
    1.0
    """
    from scipy import stats

    a = recent[:, 0].astype(float)
    n1 = recent[:, 1].astype(float)
    n2 = history[:, 1].astype(float)
    m1 = a + history[:, 0]
    total = n1 + n2
    use = (n1 > 0) & (n2 > 0) & (total > 1)
    if use.sum() <= 1:
        k1, k2 = int(recent[:, 0].sum()), int(history[:, 0].sum())
        t1, t2 = int(recent[:, 1].sum()), int(history[:, 1].sum())
        return float(stats.fisher_exact([[k1, t1 - k1], [k2, t2 - k2]])[1])
    a, n1, n2, m1, total = a[use], n1[use], n2[use], m1[use], total[use]
    expected = n1 * m1 / total
    variance = n1 * n2 * m1 * (total - m1) / (total * total * (total - 1))
    if variance.sum() <= 0:
        return 1.0
    chi2 = (max(0.0, abs(float(a.sum() - expected.sum())) - 0.5)) ** 2 / float(variance.sum())
    return float(stats.chi2.sf(chi2, 1))


def drift_check(records: Sequence[Mapping[str, Any]], *, now: float, days: float = 7.0,
                alpha: float = 0.05) -> list[DriftRow]:
    """Rows per (domain, system) seen in ``records``, sorted by domain then system."""
    since = now - days * 86400.0
    # per (domain, system): [recent, history] tables of [successes, trials] per complexity bin
    tables: dict[tuple[str, str], list[list[list[int]]]] = {}
    for r in records:
        cell = tables.get((r["domain"], r["routed_to"]))
        if cell is None:
            cell = tables[r["domain"], r["routed_to"]] = [[[0, 0] for _ in range(5)] for _ in range(2)]
        part = cell[0 if _seconds(r["timestamp"]) >= since else 1]
        counts = part[bisect_right(STRATA, float(r["complexity"]))]
        counts[0] += r["outcome"] == "success"
        counts[1] += 1
    rows = []
    for domain in sorted({d for d, _ in tables}):
        for name in SYSTEMS:
            cell = tables.get((domain, name))
            if cell is None:
                continue
            (rk, rn), (hk, hn) = ([sum(c[i] for c in part) for i in (0, 1)] for part in cell)
            tested = bool(rn and hn)
            p = stratified_p_value(*_arrays(cell)) if tested else 1.0
            rows.append(DriftRow(domain, name, rk, rn, hk, hn, p, tested, False))
    m = sum(r.tested for r in rows)
    return [DriftRow(**{**r.__dict__, "drift": r.tested and r.p_value < alpha / max(1, m)}) for r in rows]


def _seconds(text: str) -> float:
    """Epoch seconds of a record's timestamp (validated: ISO 8601 with a timezone, ``Z`` accepted),
    as :func:`artibot.learning.timestamps.parse_timestamp` gives them without loading numpy."""
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text).timestamp()


def _arrays(cell: list[list[list[int]]]) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    return np.array(cell[0], np.int64), np.array(cell[1], np.int64)


def summarize(rows: Sequence[DriftRow], *, days: float, alpha: float) -> tuple[str, list[dict[str, Any]]]:
    """A one-line summary and a proposed reset per drifted domain."""
    tested = [r for r in rows if r.tested]
    drifted = [r for r in rows if r.drift]
    proposed = []
    for domain in sorted({r.domain for r in drifted}):
        parts = [f"{r.system} success {r.history_rate:.0%} before, {r.recent_rate:.0%} in the last {days:g} days "
                 f"(p={r.p_value:.2g})" for r in drifted if r.domain == domain]
        proposed.append({"domain": domain, "action": "reset",
                         "reason": "; ".join(parts) + ": its learned threshold and evidence no longer describe it"})
    return str(summary([r.domain + "/" + r.system for r in drifted], tested=len(tested), days=days,
                       alpha=alpha)), proposed


def summary(drifted: Sequence[str], *, tested: int, days: float, alpha: float) -> Message:
    """The check's one line: ``drifted`` names each drifted pair as ``domain/system``, of
    ``tested`` pairs tested over the last ``days`` days."""
    if not tested:
        return Message("drift.summary.nothing", days=days)
    if not drifted:
        return Message("drift.summary.none", tested=tested, days=days, alpha=alpha)
    return Message("drift.summary.found", drifted=len(drifted), tested=tested, days=days, names=", ".join(drifted))
