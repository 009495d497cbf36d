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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
from scipy import stats

from artibot.learning.frame import OUTCOME_CODES, SUCCESS
from artibot.learning.timestamps import parse_timestamps

STRATA = np.array([0.2, 0.4, 0.6, 0.8])
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

    >>> round(stratified_p_value(np.array([[10, 20], [5, 20]]), np.array([[90, 100], [45, 50]])), 6)
    0.0
    >>> stratified_p_value(np.array([[9, 10]]), np.array([[90, 100]]))
    1.0
    """
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
    if not records:
        return []
    ts = parse_timestamps([r["timestamp"] for r in records])
    recent = ts >= now - days * 86400.0
    domains = np.array([r["domain"] for r in records], dtype=object)
    system = np.array([r["routed_to"] for r in records], dtype=object)
    ok = np.array([OUTCOME_CODES.get(r["outcome"], -1) == SUCCESS for r in records])
    stratum = np.searchsorted(STRATA, np.array([float(r["complexity"]) for r in records]), side="right")
    rows = []
    for domain in sorted(set(domains.tolist())):
        for name in SYSTEMS:
            mask = (domains == domain) & (system == name)
            if not mask.any():
                continue
            tables = []
            for part in (recent, ~recent):
                m = mask & part
                tables.append(np.stack([np.bincount(stratum[m], weights=ok[m], minlength=5),
                                        np.bincount(stratum[m], minlength=5)], axis=1).astype(np.int64))
            (rk, rn), (hk, hn) = tables[0].sum(axis=0), tables[1].sum(axis=0)
            tested = bool(rn and hn)
            p = stratified_p_value(tables[0], tables[1]) if tested else 1.0
            rows.append(DriftRow(domain, name, int(rk), int(rn), int(hk), int(hn), p, tested, False))
    m = sum(r.tested for r in rows)
    return [DriftRow(**{**r.__dict__, "drift": r.tested and r.p_value < alpha / max(1, m)}) for r in rows]


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
    if not tested:
        summary = f"nothing to test: no domain has both history and records from the last {days:g} days"
    elif not drifted:
        summary = (f"no drift: {len(tested)} domain/system pair(s) tested over the last {days:g} days "
                   f"(Bonferroni, alpha={alpha:g})")
    else:
        names = ", ".join(f"{r.domain}/{r.system}" for r in drifted)
        summary = (f"drift in {len(drifted)} of {len(tested)} domain/system pair(s) tested over the last "
                   f"{days:g} days: {names}; a reset of those domains is proposed")
    return summary, proposed
