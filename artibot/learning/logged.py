"""A round's logged records seen by the checks of issue 12 (pure): the off-policy window and the
outcome counts a later validation compares.

>>> from artibot.learning.types import Thresholds
>>> thresholds_vector(Thresholds(0.4, {"api": 0.95}), ("api", "docs"), 0.1, 0.9)
[0.9, 0.4]
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from artibot.learning.frame import Frame
from artibot.learning.offpolicy import LoggedWindow, fixed_records
from artibot.learning.types import Thresholds


def thresholds_vector(thresholds: Thresholds, domains: Sequence[str], lo: float, hi: float) -> list[float]:
    """Each domain's threshold as the router uses it: learned value, else the default, clamped to [lo, hi]."""
    return [float(min(hi, max(lo, thresholds.for_domain(d)))) for d in domains]


def logged_window(frame: Frame, k: int, current: Thresholds, cache: frozenset[str], lo: float,
                  hi: float) -> LoggedWindow:
    """The first ``k`` records of ``frame`` as an off-policy window; records of patterns in the
    System 1 ``cache`` (the cache in force while they were logged) are fixed, as are forced ones."""
    domain = np.asarray(frame.domain[:k], dtype=np.int64)
    complexity = np.asarray(frame.complexity[:k], dtype=float)
    s2 = np.asarray(frame.system2[:k], dtype=bool)
    prop = np.asarray(frame.propensity[:k], dtype=float)
    cached_codes = [i for i, name in enumerate(frame.patterns) if name in cache]
    in_cache = np.isin(frame.pattern[:k], cached_codes) if cached_codes else np.zeros(k, bool)
    t = np.asarray(thresholds_vector(current, frame.domains, lo, hi) or [0.0])
    greedy = complexity >= t[domain] if len(frame.domains) else np.zeros(k, bool)
    fixed = fixed_records(s2, prop, frame.confidence[:k], in_cache, greedy)
    return LoggedWindow(domain, frame.domains, complexity, s2, np.asarray(frame.success[:k], bool), prop, fixed)


def counts(success: np.ndarray, system2: np.ndarray) -> dict[str, int]:
    """What a validation needs of a window: records, successes, System 2 records, System 2 successes."""
    ok = np.asarray(success, bool)
    s2 = np.asarray(system2, bool)
    return {"n": int(len(ok)), "success": int(ok.sum()), "system2": int(s2.sum()),
            "system2_success": int((ok & s2).sum())}


def window_counts(frame: Frame, k: int, skip: int | None) -> dict[str, Any]:
    """Counts of the round's ``k`` records, and of those after the first ``skip`` (the previous
    applied round's remainder: records logged before that round was applied; None when there is
    no previous round). Counting records instead of comparing clocks keeps simulated and
    replayed timestamps valid."""
    ok, s2 = frame.success[:k], frame.system2[:k]
    out: dict[str, Any] = {"all": counts(ok, s2)}
    if k:
        out["from"], out["to"] = frame.timestamps[0], frame.timestamps[k - 1]
    if skip is not None:
        out["after_previous"] = counts(ok[skip:], s2[skip:])
    return out
