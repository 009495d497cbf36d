"""A round's logged records seen by the checks before and after a change (pure): the off-policy window and the
outcome counts a later validation compares.

>>> from artibot.learning.types import Thresholds
>>> thresholds_vector(Thresholds(0.4, {"api": 0.95}), ("api", "docs"), 0.1, 0.9)
[0.9, 0.4]
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from artibot.learning.frame import ESCALATION, Frame
from artibot.learning.offpolicy import LoggedWindow, fixed_records
from artibot.learning.types import Thresholds


def thresholds_vector(thresholds: Thresholds, domains: Sequence[str], lo: float, hi: float) -> list[float]:
    """Each domain's threshold as the router uses it: learned value, else the default, clamped to [lo, hi]."""
    return [float(min(hi, max(lo, thresholds.for_domain(d)))) for d in domains]


def logged_window(frame: Frame, k: int, current: Thresholds, cache: frozenset[str], lo: float,
                  hi: float) -> LoggedWindow:
    """The first ``k`` records of ``frame`` as an off-policy window; records of patterns in the
    System 1 ``cache`` (the cache in force while they were logged) are fixed, as are forced ones and
    the escalation rule's retries."""
    domain = np.asarray(frame.domain[:k], dtype=np.int64)
    complexity = np.asarray(frame.complexity[:k], dtype=float)
    s2 = np.asarray(frame.system2[:k], dtype=bool)
    prop = np.asarray(frame.propensity[:k], dtype=float)
    cached_codes = [i for i, name in enumerate(frame.patterns) if name in cache]
    in_cache = np.isin(frame.pattern[:k], cached_codes) if cached_codes else np.zeros(k, bool)
    in_cache = in_cache | frame.rule[:k]  # a retry the escalation rule sent to System 2: every policy does so
    t = np.asarray(thresholds_vector(current, frame.domains, lo, hi) or [0.0])
    greedy = complexity >= t[domain] if len(frame.domains) else np.zeros(k, bool)
    fixed = fixed_records(s2, prop, frame.confidence[:k], in_cache, greedy)
    return LoggedWindow(domain, frame.domains, complexity, s2, np.asarray(frame.success[:k], bool), prop, fixed)


THRESHOLD_TOLERANCE = 0.05
"""An earlier record joins the window only if it was logged under a threshold within this of the
current one: its exploration band (±0.15) then covers every change up to the ±0.1 trust region,
so the proposed route had a chance on it. Selecting by logging policy (not by outcome) keeps the
estimate unbiased while requests stay alike."""


def logged_near(current: Thresholds, lo: float, hi: float,
                tolerance: float = THRESHOLD_TOLERANCE) -> Callable[[Mapping[str, Any]], bool]:
    """A filter for archived records: logged with a threshold near the current one of its domain."""

    def keep(record: Mapping[str, Any]) -> bool:
        t = record.get("threshold")
        if not isinstance(t, (int, float)):
            return False
        now = min(hi, max(lo, current.for_domain(str(record.get("domain")))))
        return abs(float(t) - now) <= tolerance

    return keep


def records_window(records: Sequence[Mapping[str, Any]], cache: frozenset[str]) -> LoggedWindow:
    """Archived (validated) experience records as an off-policy window. Each record's own logged
    threshold tells whether its route was the threshold's (records logged under other thresholds
    or another cache keep their meaning)."""
    domains = tuple(sorted({str(r["domain"]) for r in records}))
    code = {d: i for i, d in enumerate(domains)}
    n = len(records)
    domain = np.fromiter((code[str(r["domain"])] for r in records), np.int64, n)
    c = np.fromiter((float(r["complexity"]) for r in records), float, n)
    s2 = np.fromiter((r["routed_to"] == "system2" for r in records), bool, n)
    ok = np.fromiter((r["outcome"] == "success" for r in records), bool, n)
    prop = np.fromiter((np.nan if r.get("propensity") is None else float(r["propensity"]) for r in records), float, n)
    conf = np.fromiter((float(r.get("confidence") or 0.0) for r in records), float, n)
    t = np.fromiter((np.nan if r.get("threshold") is None else float(r["threshold"]) for r in records), float, n)
    in_cache = np.fromiter((r.get("pattern") in cache or r.get("route_reason") == ESCALATION for r in records),
                           bool, n)
    greedy = np.where(np.isnan(t), s2, c >= np.nan_to_num(t))  # no logged threshold: take the route as greedy
    return LoggedWindow(domain, domains, c, s2, ok, prop, fixed_records(s2, prop, conf, in_cache, greedy))


def concat(first: LoggedWindow, second: LoggedWindow) -> LoggedWindow:
    """Two windows as one, domain codes remapped onto the union of their domain names."""
    domains = tuple(sorted(set(first.domains) | set(second.domains)))
    index = {d: i for i, d in enumerate(domains)}

    def recode(w: LoggedWindow) -> np.ndarray:
        table = np.array([index[d] for d in w.domains] or [0], dtype=np.int64)
        return table[np.asarray(w.domain, np.int64)] if len(w) else np.zeros(0, np.int64)

    def cat(name: str) -> np.ndarray:
        return np.concatenate([getattr(first, name), getattr(second, name)])

    return LoggedWindow(np.concatenate([recode(first), recode(second)]), domains, cat("complexity"),
                        cat("system2"), cat("success"), cat("propensity"), cat("fixed"))


def counts(success: np.ndarray, system2: np.ndarray, retry: np.ndarray | None = None) -> dict[str, int]:
    """What a validation needs of a window: requests, successes, System 2 records, System 2 successes.

    ``retry``: records the escalation rule sent to System 2 after a failed System 1 turn. They
    are not requests of their own: each is the second try of one, and its success is that
    request's, so a failed System 1 turn that its retry put right counts as work done.

    >>> counts(np.array([False, True, True]), np.array([False, True, False]), np.array([False, True, False]))
    {'n': 2, 'success': 2, 'system2': 0, 'system2_success': 0}
    """
    ok = np.asarray(success, bool)
    s2 = np.asarray(system2, bool)
    again = np.zeros(len(ok), bool) if retry is None else np.asarray(retry, bool)
    first = ~again
    n = int(first.sum())
    return {"n": n, "success": min(int(ok.sum()), n), "system2": int((s2 & first).sum()),
            "system2_success": int((ok & s2 & first).sum())}


def window_counts(frame: Frame, k: int, skip: int | None) -> dict[str, Any]:
    """Counts of the round's ``k`` records, and of those after the first ``skip`` (the previous
    applied round's remainder: records logged before that round was applied; None when there is
    no previous round). Counting records instead of comparing clocks keeps simulated and
    replayed timestamps valid."""
    ok, s2, again = frame.success[:k], frame.system2[:k], frame.rule[:k]
    out: dict[str, Any] = {"all": counts(ok, s2, again)}
    if k:
        out["from"], out["to"] = frame.timestamps[0], frame.timestamps[k - 1]
    if skip is not None:
        out["after_previous"] = counts(ok[skip:], s2[skip:], again[skip:])
    return out
