"""Experience records and settings for tests: deterministic, valid, with controllable outcomes.

One factory, :func:`record`, builds every record the tests use; the others are its
presets (any field can be overridden by keyword, e.g. ``id=``, ``timestamp=``). At the
end, writers of whole state files as given, for homes built by hand.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

from artibot.config import LifelongSettings, RouterSettings, Settings, System1Settings, TransferSettings
from artibot.store.documents import write_document
from artibot.store.fs import ensure_dir
from artibot.store.home import Home

BASE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def record(i: int, *, domain: str = "backend", complexity: float = 0.5, routed_to: str = "system1",
           outcome: str = "success", confidence: float = 0.9, pattern: str | None = None,
           **extra: Any) -> dict[str, Any]:
    """A valid experience record, ``i`` seconds after BASE; ``extra`` adds or overrides fields."""
    return {"id": f"t{i:06d}", "timestamp": (BASE + timedelta(seconds=i)).isoformat(),
            "session_id": "s1", "input": f"request {i}", "domain": domain, "complexity": complexity,
            "routed_to": routed_to, "outcome": outcome, "latency_ms": 10.0, "confidence": confidence,
            "pattern": pattern, "threshold": 0.4, "propensity": 1.0, **extra}


def mixed(n: int, seed: int = 0, *, start: int = 0, domains: tuple[str, ...] = ("backend", "frontend"),
          patterns: tuple[str | None, ...] = (None, "backend:fix:typo", "frontend:add:button")) -> list[dict[str, Any]]:
    """``n`` records where System 2 does better than System 1 at high complexity."""
    rng = random.Random(seed)
    out = []
    for i in range(start, start + n):
        c = round(rng.random(), 3)
        system = rng.choice(("system1", "system2"))
        p = 0.95 if system == "system2" else (0.9 if c < 0.5 else 0.4)
        outcome = "success" if rng.random() < p else rng.choice(("failed", "escalated"))
        out.append(record(i, domain=rng.choice(domains), complexity=c, routed_to=system, outcome=outcome,
                          confidence=round(0.5 + rng.random() / 2, 3), pattern=rng.choice(patterns)))
    return out


# --------------------------------------------------------------------- for the learning math
def cycling(n: int, start: int = 0) -> list[dict[str, Any]]:
    """``n`` terse :func:`rec` records that cycle by index through systems, outcomes, the
    domains ``api``/``web`` and the patterns ``None``/``p1``/``p2``: every batch of the
    specification's algorithm sees both systems in both domains, with no randomness
    (:func:`mixed` is the random sample with a real System 2 advantage)."""
    out = []
    for i in range(start, start + n):
        system = "system2" if i % 3 else "system1"
        outcome = ("success", "failed", "escalated")[(i * 7) % 3 if system == "system1" else (i % 5 == 0)]
        out.append(rec(i, system, outcome, domain=("api", "web")[i % 2], complexity=(i * 37 % 100) / 100,
                       confidence=0.5 + (i % 5) / 10, pattern=(None, "p1", "p2")[i % 3]))
    return out


def rec(i: int, system: str = "system1", outcome: str = "success", *, domain: str = "backend",
        complexity: float = 0.5, confidence: float = 0.9, pattern: str | None = None,
        seconds: float | None = None, **extra: Any) -> dict[str, Any]:
    """A terse :func:`record` for the learner: id ``r00000``, no session, no routing context;
    its timestamp is BASE + ``seconds`` (default ``i``)."""
    at = BASE + timedelta(seconds=i if seconds is None else seconds)
    terse = {"id": f"r{i:05d}", "timestamp": at.isoformat(), "session_id": None, "input": "x", "latency_ms": 5,
             "threshold": None, "propensity": None}
    out = record(i, domain=domain, complexity=complexity, routed_to=system, outcome=outcome,
                 confidence=confidence, pattern=pattern)
    out.update(terse)
    out.update(extra)  # may override any field, e.g. routed_to="system3" to test validation
    return out


def settings(*, batch: int = 10, group: int = 5, rate: float = 0.05, lo: float = 0.1, hi: float = 0.9,
             promote: int = 3, demote: int = 2, promote_conf: float = 0.8, min_conf: float = 0.6) -> Settings:
    base = Settings()
    return replace(
        base,
        router=RouterSettings(threshold=0.4, adapt_rate=rate, min_threshold=lo, max_threshold=hi),
        system1=System1Settings(min_confidence=min_conf),
        lifelong=LifelongSettings(batch_size=batch, grpo_group_size=group),
        transfer=TransferSettings(promotion_threshold=promote, demotion_threshold=demote,
                                  promotion_confidence=promote_conf),
    )


def group_of(systems_outcomes: list[tuple[str, str]], *, start: int = 0, domain: str = "backend",
             c0: float = 0.0, **kw: Any) -> list[dict[str, Any]]:
    """Records with increasing complexity (so a batch sorts them in this order)."""
    return [rec(start + j, s, o, domain=domain, complexity=round(c0 + 0.01 * j, 4), **kw)
            for j, (s, o) in enumerate(systems_outcomes)]


# --------------------------------------------------------------------- whole state files as given
# For tests that build a home with a damaged or hand-made file: the learner writes through
# the typed functions of each store module, never these.
def write_thresholds(home: Home, doc: Mapping[str, Any]) -> None:
    home.ensure()
    write_document(home.thresholds, doc, "thresholds")


def write_pattern_stats(home: Home, doc: Mapping[str, Any]) -> None:
    ensure_dir(home.patterns_dir)
    write_document(home.pattern_stats, doc, "pattern-stats")


def write_pending(home: Home, doc: Mapping[str, Any]) -> None:
    home.ensure()
    write_document(home.pending_review, doc, "pending-review")


def round_of_patterns(moving: int = 5, held: int = 45, seed: int = 0) -> list[dict[str, Any]]:
    """Records of ``moving + held`` patterns: the first ``moving`` with 16 System 1 successes
    each (a round promotes them), the others with a success or two of either system (a round
    holds them), mixed with :func:`mixed` traffic in two domains so that thresholds move too."""
    out: list[dict[str, Any]] = []
    i = 0
    for p in range(moving):
        for _ in range(16):
            out.append(record(i, complexity=0.2, pattern=f"backend:fix:often{p:02d}", confidence=0.95))
            i += 1
    rng = random.Random(seed)
    for p in range(held):
        for _ in range(2):
            out.append(record(i, complexity=round(rng.random(), 3), routed_to=rng.choice(("system1", "system2")),
                              pattern=f"frontend:add:rare{p:02d}"))
            i += 1
    out.extend(mixed(100, seed, start=i, patterns=(None,)))
    return out
