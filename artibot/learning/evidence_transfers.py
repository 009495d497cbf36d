"""Evidence mode's promotion and demotion of patterns: one-sided posterior bounds with hysteresis.

The rules are described with the rest of evidence mode in :mod:`artibot.learning.evidence`
(*Transfers*); this module holds the decision for one pattern.
"""

from __future__ import annotations

from artibot.learning.posterior import beta_bounds
from artibot.learning.types import PatternStats, TransferDecision
from artibot.settings import Settings

CREDIBLE = 0.95
"""One-sided credible level of the transfer bounds."""


def demotion_level(settings: Settings) -> float:
    return 0.5 * (settings.system1.min_confidence + settings.transfer.promotion_confidence)


def decide(stats: PatternStats, settings: Settings) -> TransferDecision:
    """The automatic decision for one pattern from its posterior bounds (see the module doc)."""
    bar = settings.transfer.promotion_confidence
    floor = demotion_level(settings)
    lo1, hi1 = beta_bounds(stats.k1, stats.n1, CREDIBLE)
    lo2, _ = beta_bounds(stats.k2, stats.n2, CREDIBLE)
    s1 = f"System 1 {stats.k1}/{stats.n1} (success {lo1:.2f}-{hi1:.2f})"
    if stats.status == "active":
        if hi1 < floor:
            return TransferDecision(stats.key, "demote", f"{s1}: credibly below {floor:.2f}", stats, "demote_bound")
        return TransferDecision(stats.key, "hold", f"active; {s1} not credibly below {floor:.2f}", stats,
                                "hold_active")
    if lo1 >= bar:
        return TransferDecision(stats.key, "promote", f"{s1}: credibly at least {bar:.2f}", stats, "promote_s1")
    if lo2 >= bar and hi1 >= bar:
        return TransferDecision(stats.key, "promote", (
            f"System 2 {stats.k2}/{stats.n2} (success at least {lo2:.2f}) and {s1} not against it: "
            "System 1 tried on probation"), stats, "promote_s2")
    return TransferDecision(stats.key, "hold", (
        f"{s1}, System 2 {stats.k2}/{stats.n2} (success at least {lo2:.2f}): "
        f"not enough evidence for {bar:.2f}"), stats, "hold_evidence")
