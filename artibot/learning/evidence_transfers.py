"""Evidence mode's promotion and demotion of patterns: one-sided posterior bounds with hysteresis.

The rules are described with the rest of evidence mode in :mod:`artibot.learning.evidence`
(*Transfers*); this module holds the decision for one pattern.
"""

from __future__ import annotations

from artibot.learning.posterior import beta_bounds
from artibot.learning.types import PatternStats, TransferDecision
from artibot.messages import Message
from artibot.config.settings import Settings

CREDIBLE = 0.95
"""One-sided credible level of the transfer bounds."""


def demotion_level(settings: Settings) -> float:
    return 0.5 * (settings.system1.min_confidence + settings.transfer.promotion_confidence)


def against(x: float, bar: float) -> str:
    """``x`` with as many decimals (two to four) as it takes to stand on its side of ``bar``:
    a bound said to fall short of a bar is never shown as reaching it.

    >>> against(0.7996, 0.8), against(0.8312, 0.8), against(0.69996, 0.7)
    ('0.7996', '0.83', '0.69996')
    """
    for d in (2, 3, 4):
        if (round(x, d) < bar) == (x < bar):
            return f"{x:.{d}f}"
    return repr(round(x, 6))


def _bar(x: float) -> str:
    """A bar as configured: two decimals, more when it has them (0.805 is not 0.81)."""
    return f"{x:.2f}" if abs(round(x, 2) - x) < 1e-12 else f"{x:g}"


def decide(stats: PatternStats, settings: Settings) -> TransferDecision:
    """The automatic decision for one pattern from its posterior bounds (see the module doc).

    Each reason shows the bounds it compared and the bar, each bound on its side of the bar
    (:func:`against`): what is said to fall short is shown short of it.
    """
    bar = settings.transfer.promotion_confidence
    floor = demotion_level(settings)
    lo1, hi1 = beta_bounds(stats.k1, stats.n1, CREDIBLE)
    lo2, _ = beta_bounds(stats.k2, stats.n2, CREDIBLE)
    compared = floor if stats.status == "active" else bar  # what System 1's bounds are held against
    s1 = Message("transfer.s1", k=stats.k1, n=stats.n1, lo=against(lo1, compared), hi=against(hi1, compared))
    if stats.status == "active":
        if hi1 < floor:
            return TransferDecision.said(stats, "demote", Message("transfer.demote_bound", s1=s1, bar=_bar(floor)),
                                         "demote_bound")
        return TransferDecision.said(stats, "hold", Message("transfer.hold_active_bound", s1=s1, bar=_bar(floor)),
                                     "hold_active")
    if lo1 >= bar:
        return TransferDecision.said(stats, "promote", Message("transfer.promote_s1", s1=s1, bar=_bar(bar)),
                                     "promote_s1")
    s2 = Message("transfer.s2", k=stats.k2, n=stats.n2, lo=against(lo2, bar))
    if lo2 >= bar and hi1 >= bar:
        return TransferDecision.said(stats, "promote", Message("transfer.promote_s2", s1=s1, s2=s2), "promote_s2")
    if lo2 >= bar:  # System 2 reaches the bar, System 1 is surely short of it
        return TransferDecision.said(stats, "hold", Message("transfer.hold_s1_short", s1=s1, s2=s2, bar=_bar(bar)),
                                     "hold_evidence")
    return TransferDecision.said(stats, "hold", Message("transfer.hold_neither", s1=s1, s2=s2, bar=_bar(bar)),
                                 "hold_evidence")
