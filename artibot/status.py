"""``artibot status``: thresholds, cache, counts, last round, pending review (SPEC §9 shape)."""

from __future__ import annotations

from typing import Any

from artibot import round_checks
from artibot.collector import HomeArg, as_home
from artibot.config import Settings, load_settings
from artibot.store import state
from artibot.store.experiences import ExperienceLog


def status(*, home: HomeArg = None, settings: Settings | None = None) -> dict[str, Any]:
    """Sensible zeros before any learning; every damaged file raises (it is never shown as empty)."""
    h = as_home(home)
    settings = settings or load_settings(h.root)
    thresholds = state.read_thresholds(h)
    cache_doc = state.read_system1_patterns(h)
    stats = state.read_pattern_stats(h)
    rounds = state.read_learning_log(h)
    pending = state.read_pending(h)
    unprocessed = ExperienceLog(h).count()
    last = next((r for r in reversed(rounds) if r.get("type", "round") == "round"), None)
    return {
        "thresholds": {
            "default": float(thresholds["default"]) if thresholds else settings.router.threshold,
            "domains": dict(thresholds["domains"]) if thresholds else {},
        },
        "system1_patterns": sorted(state.active_patterns(cache_doc)),
        "unprocessed": unprocessed,
        "pending_review": pending is not None,
        "last_round": last["round_id"] if last else None,
        "last_round_status": last.get("status") if last else None,
        "pending_round": pending["round_id"] if pending else None,
        "full_batches": unprocessed // settings.lifelong.batch_size,
        "batch_size": settings.lifelong.batch_size,
        "mode": settings.lifelong.mode,
        # evidence mode keeps its per-bin learner state as reserved "~cell:" entries
        "patterns_tracked": sum(1 for k in stats["patterns"] if not k.startswith("~")) if stats else 0,
        "rounds": sum(1 for r in rounds if r.get("type", "round") == "round"),
        "home": str(h.root),
        "config": str(settings.source) if settings.source else None,
        # issue 12: applied rounds measured on the experiences after them (never rolled back here)
        "validation": round_checks.summary(round_checks.validations(h, settings, rounds)),
    }
