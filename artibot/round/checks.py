"""Every learned change justified before and checked after, wired to the data home.

* :func:`annotate` — while a round is prepared: the off-policy estimate of its proposed
  thresholds (shown at checkpoint 2), the outcome counts of its window (for later
  validations) and, when the cache ages, the demotions of stale System 1 patterns
  (proposed at checkpoint 3). Everything lands in the proposal's ``params.checks``, so a round
  saved for review and the learning log keep it.
* :func:`validations` — each applied round measured on the experiences after it
  (``artibot status``, the SessionStart context, ``/learn``). Nothing is ever rolled back
  here: a round that made things worse is reported with the command that undoes it.

The math is in :mod:`artibot.learning.offpolicy`, :mod:`~artibot.learning.validation` and
:mod:`~artibot.learning.freshness`; this module only reads state files and the clock.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from artibot.experience import learnable
from artibot.config.settings import Settings
from artibot.learning.objective import configured as configured_price
from artibot.learning.freshness import FreshnessRules, demotion_reason, initial_state, record_uses
from artibot.learning.types import PatternStats, RoundProposal, TransferDecision
from artibot.learning.validation import validate
from artibot.messages import Message
from artibot.shapes import LogEntry, RoundEntry
from artibot.store.learned import system1_cache as cache_store
from artibot.store.round import rounds as round_store
from artibot.store.archive_window import recent_archived
from artibot.store.home import Home

if TYPE_CHECKING:
    from artibot.learning.frame import Frame

# The numpy-backed modules (the frame, the logged window, the off-policy estimate, timestamp
# parsing) are imported where a round is prepared: `artibot status` measures the applied rounds
# from the learning log's counts alone, in plain Python, and starts without numpy.


def _applied(entries: Sequence[LogEntry]) -> list[RoundEntry]:
    return [e for e in entries if round_store.is_round(e) and e.get("status") == "applied"
            and not e.get("rolled_back")]


def annotate(h: Home, frame: Frame, proposal: RoundProposal, settings: Settings,
             now: float | None = None) -> RoundProposal:
    """``proposal`` with ``params.off_policy``, ``params.window`` and (cache aging) ``params.freshness``."""
    from artibot.learning.logged import (
        concat,
        logged_near,
        logged_window,
        records_window,
        thresholds_vector,
        window_counts,
    )
    from artibot.learning.offpolicy import evaluate

    k = len(proposal.processed_ids)
    router = settings.router
    cache_doc = cache_store.read_system1_patterns(h)
    cache = cache_store.active_patterns(cache_doc)
    rounds = round_store.read_learning_log(h)
    applied = _applied(rounds)
    inputs = applied[-1].get("inputs") if applied else None
    skip = (int(inputs.get("remainder") or 0) if inputs is not None else 0) if applied else None
    window = logged_window(frame, k, proposal.old, cache, router.min_threshold, router.max_threshold)
    op = settings.offpolicy
    # the round's own experiences, topped up with the newest archived ones (a nightly round alone
    # rarely holds enough explored requests)
    lo, hi = router.min_threshold, router.max_threshold
    earlier = (recent_archived(h, applied, op.window - k, keep=logged_near(proposal.old, lo, hi))
               if op.window > k else [])
    earlier = [r for r in earlier if learnable(r)]  # an interrupted turn says nothing of its route
    if earlier:
        window = concat(records_window(earlier, cache), window)
    estimate = evaluate(window, thresholds_vector(proposal.old, window.domains, lo, hi),
                        thresholds_vector(proposal.new, window.domains, lo, hi),
                        method=op.method, level=op.level, min_support=op.min_support)
    estimate["earlier"] = len(earlier)
    params = proposal.params.with_checks(off_policy=estimate, window=window_counts(frame, k, skip))
    if not settings.freshness.active(proposal.mode) or cache_doc is None:
        return replace(proposal, params=params)
    now = time.time() if now is None else now
    states, stale = _age(cache_doc, frame, k, now, settings)
    return _with_demotions(replace(proposal, params=params.with_checks(freshness=states)), stale)


def _age(cache_doc: Mapping[str, Any], frame: Frame, k: int, now: float,
         settings: Settings) -> tuple[dict[str, Any], dict[str, Message]]:
    """Each active pattern's freshness state after this round's System 1 uses, and the stale ones' reasons."""
    fr = settings.freshness
    rules = FreshnessRules(fr.decay_per_day, fr.recent_uses, fr.recent_failures, settings.system1.min_confidence)
    codes = {name: i for i, name in enumerate(frame.patterns)}
    pattern, s1 = frame.pattern[:k], ~frame.system2[:k]
    states: dict[str, Any] = {}
    stale: dict[str, Message] = {}
    for entry in cache_doc["patterns"]:
        if entry.get("status") != "active":
            continue
        key = entry["key"]
        current = entry.get("freshness")
        if not isinstance(current, Mapping) or current.get("promoted_at") != entry.get("promoted_at"):
            current = _fresh(entry, now)
        uses: list[tuple[float, bool]] = []
        if key in codes:
            rows = (pattern == codes[key]) & s1
            uses = list(zip(frame.ts[:k][rows].tolist(), frame.success[:k][rows].tolist()))
        states[key] = record_uses(current, uses, rules.recent_uses)
        reason = demotion_reason(states[key], now, rules)
        if reason:
            stale[key] = reason
    return states, stale


def _fresh(entry: Mapping[str, Any], now: float) -> dict[str, Any]:
    """The state of a pattern promoted before the cache aged (or promoted again)."""
    from artibot.learning.timestamps import parse_timestamp
    from artibot.hookpath.router.policy import CACHE_CONFIDENCE  # not at import: `artibot status` needs no router

    given = entry.get("evidence")
    evidence: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    confidence = evidence.get("confidence")
    c0 = float(confidence) if isinstance(confidence, (int, float)) else CACHE_CONFIDENCE
    promoted = entry.get("promoted_at")
    try:
        since = parse_timestamp(promoted) if isinstance(promoted, str) else now
    except ValueError:
        since = now
    return {**initial_state(float(c0), since), "promoted_at": promoted}


def _with_demotions(proposal: RoundProposal, stale: Mapping[str, Message]) -> RoundProposal:
    """Stale patterns proposed for demotion (a demotion the round already proposes keeps its own reason)."""
    if not stale:
        return proposal
    decisions = {d.key: d for d in proposal.decisions}
    after = dict(proposal.patterns_after)
    for key, reason in stale.items():
        if key in decisions and decisions[key].action == "demote":
            continue
        stats = after.get(key) or PatternStats(key, status="active")
        after[key] = stats
        decisions[key] = TransferDecision.said(stats, "demote", reason, "demote_freshness")
    return replace(proposal, decisions=tuple(decisions[k] for k in sorted(decisions)), patterns_after=after)


def freshness_updates(proposal: RoundProposal, final: Mapping[str, str]) -> dict[str, Any]:
    """The freshness state to store on each cache entry that stays active after the round."""
    states = proposal.params.checks.freshness or {}
    return {k: v for k, v in states.items() if final.get(k) != "demote"}


def validations(h: Home, settings: Settings, rounds: Sequence[LogEntry] | None = None) -> list[dict[str, Any]]:
    """Every applied round that changed something, measured on the experiences after it (oldest first);
    ``rounds``: the learning log when the caller has read it already."""
    v = settings.validation
    fixed = configured_price(settings)  # a price set by hand; else utility is the success rate alone
    price = fixed.value if fixed is not None else 0.0
    return validate(round_store.read_learning_log(h) if rounds is None else rounds, window=v.window, alpha=v.alpha,
                    price=price, min_experiences=v.min_experiences, baseline=v.baseline)


def open_worse(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rounds found worse that still stand: not rolled back, and no later change measured fine since
    (a user who kept a worse round and moved on is not reminded of it forever)."""
    out: list[dict[str, Any]] = []
    for r in reversed([r for r in results if r["verdict"] != "waiting"]):
        if r["verdict"] != "worse":
            break
        out.append(r)
    return out[::-1]


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``status`` shows: the latest measured round, the rounds found worse that still stand
    (``worse``), and every validation's verdict (``rounds``)."""
    measured = [r for r in results if r["verdict"] != "waiting"]
    return {"last": measured[-1] if measured else None,
            "waiting": [r["round_id"] for r in results if r["verdict"] == "waiting"],
            "worse": open_worse(results),
            "rounds": {r["round_id"]: r["verdict"] for r in results}}


def notices(h: Home, settings: Settings) -> list[str]:
    """One sentence per round found worse that still stands, for the SessionStart context."""
    return [r["message"] for r in open_worse(validations(h, settings))]
