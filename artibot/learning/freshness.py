"""A System 1 cache that ages (pure): confidence decays with time and with contradictions.

A cached pattern's confidence is ``C(t) = C0 * exp(-λ (β + 1) / (α + 1) * t)`` (the
Self-Evolving-Skill seed's decay with asymmetric feedback): ``C0`` its confidence when it
was promoted, ``t`` the days since then, ``α`` and ``β`` its System 1 successes and
failures (``failed`` or ``escalated``) since then, ``λ`` ``learning.freshness.decayPerDay``.
Successes slow the decay, failures speed it up; an unused pattern decays at ``λ``.

A pattern whose confidence falls below ``cognitive.system1.minConfidence`` is proposed for
demotion at checkpoint 3, with the reason in words: "2 failures in its last 5 uses" when
its recent uses say so, else "unused for 30 days" when it has not been used for a week or
more, else how far it decayed.

>>> state = {"c0": 0.9, "since": 0.0, "alpha": 0, "beta": 0, "recent": "", "last_used": None}
>>> round(confidence(state, now=30 * DAY, decay_per_day=0.015), 4)
0.5739
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from artibot.messages import Message

DAY = 86_400.0
UNUSED_DAYS = 7.0
"""A pattern not used for this many days is called "unused" in a demotion reason."""


@dataclass(frozen=True)
class FreshnessRules:
    """The parameters of the decay (``learning.freshness`` and ``cognitive.system1.minConfidence``)."""

    decay_per_day: float = 0.015
    recent_uses: int = 5
    recent_failures: int = 2
    min_confidence: float = 0.6


def initial_state(c0: float, since: float) -> dict[str, Any]:
    """A pattern just promoted (``since``: POSIX seconds)."""
    return {"c0": float(c0), "since": float(since), "alpha": 0, "beta": 0, "recent": "", "last_used": None}


def confidence(state: Mapping[str, Any], now: float, decay_per_day: float) -> float:
    """``C(t)`` at ``now`` (POSIX seconds); time before the promotion counts as 0."""
    days = max(0.0, (now - float(state["since"])) / DAY)
    rate = decay_per_day * (int(state["beta"]) + 1) / (int(state["alpha"]) + 1)
    return float(state["c0"]) * math.exp(-rate * days)


def record_uses(state: Mapping[str, Any], uses: Sequence[tuple[float, bool]], keep: int) -> dict[str, Any]:
    """``state`` after System 1 ``uses`` (time, success) in time order; ``recent`` keeps the last
    ``keep`` outcomes as ``S``/``F`` (oldest first). Inputs are not modified."""
    out = dict(state)
    recent = str(out.get("recent") or "")
    for at, ok in uses:
        if at < float(out["since"]):
            continue  # logged before the promotion (a round's remainder): not evidence about the cache
        out["alpha" if ok else "beta"] = int(out["alpha" if ok else "beta"]) + 1
        recent += "S" if ok else "F"
        out["last_used"] = float(at)
    out["recent"] = recent[-keep:] if keep > 0 else ""
    return out


def demotion_reason(state: Mapping[str, Any], now: float, rules: FreshnessRules) -> Message | None:
    """Why the pattern should leave the cache now, or None while its confidence holds."""
    c = confidence(state, now, rules.decay_per_day)
    if round(c, 12) >= rules.min_confidence:
        return None
    recent = str(state.get("recent") or "")
    failures = recent.count("F")
    low = {"c": c, "floor": rules.min_confidence}
    if failures >= rules.recent_failures:
        return Message("fresh.failures", failures=failures, uses=len(recent), **low)
    last = state.get("last_used")
    idle = (now - float(last if last is not None else state["since"])) / DAY
    if idle >= UNUSED_DAYS:
        return Message("fresh.unused", days=int(idle), **low)
    days = max(0.0, (now - float(state["since"])) / DAY)
    return Message("fresh.decayed", days=days, successes=state["alpha"], failures=state["beta"], **low)
