"""Helpers for the learning tests: records with controlled timestamps, and small settings."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

from artibot.config import LifelongSettings, RouterSettings, Settings, System1Settings, TransferSettings

BASE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def rec(i: int, system: str = "system1", outcome: str = "success", *, domain: str = "backend",
        complexity: float = 0.5, confidence: float = 0.9, pattern: str | None = None,
        seconds: float | None = None, **extra: Any) -> dict[str, Any]:
    """A valid experience record; its timestamp is BASE + ``seconds`` (default ``i``)."""
    at = BASE + timedelta(seconds=i if seconds is None else seconds)
    return {"id": f"r{i:05d}", "timestamp": at.isoformat(), "session_id": None, "input": "x",
            "domain": domain, "complexity": complexity, "routed_to": system, "outcome": outcome,
            "latency_ms": 5, "confidence": confidence, "pattern": pattern, "threshold": None,
            "propensity": None, **extra}


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
