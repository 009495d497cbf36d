"""Experience records for tests: deterministic, valid, with controllable outcomes."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any

BASE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def record(i: int, *, domain: str = "backend", complexity: float = 0.5, routed_to: str = "system1",
           outcome: str = "success", confidence: float = 0.9, pattern: str | None = None,
           **extra: Any) -> dict[str, Any]:
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
