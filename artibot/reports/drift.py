"""``artibot drift``: the weekly drift check over the experience log and the archive.

Reads every processed record (the live archives) and every unprocessed one, then asks
:func:`artibot.learning.drift.drift_check` whether each domain's outcomes of the last
``days`` days differ from its history. Read-only: a drift is reported with a proposed
reset, never acted on.
"""

from __future__ import annotations

import time
from typing import Any

from artibot.experience import learnable
from artibot.collector import load_experiences
from artibot.store.home import Home, HomeArg
from artibot.learning.drift import drift_check, summarize
from artibot.store import archive


def load_history(home: HomeArg = None) -> list[dict[str, Any]]:
    """Archived and unprocessed records, each id once (an archived copy wins)."""
    h = Home.of(home)
    seen: dict[str, dict[str, Any]] = {}
    for r in archive.records(h):
        seen.setdefault(r["id"], r)
    for r in load_experiences(home=h):
        seen.setdefault(r["id"], r)
    return list(seen.values())


def drift_report(*, home: HomeArg = None, now: float | None = None, days: float = 7.0,
                 alpha: float = 0.05) -> dict[str, Any]:
    """``{"domains": [...], "summary": str, "proposed": [...], "days", "alpha", "records"}``.

    Each domain row: ``domain``, ``system``, ``recent`` and ``history`` as ``"successes/n"``,
    ``p_value``, ``tested`` and ``drift``.
    """
    records = [r for r in load_history(home) if learnable(r)]  # interrupted turns say nothing of a route
    from artibot.interrupts import deferred

    with deferred():  # a pair to test imports scipy's tests here: a Ctrl-C waits for the check (seconds at most)
        rows = drift_check(records, now=time.time() if now is None else now, days=days, alpha=alpha)
    summary, proposed = summarize(rows, days=days, alpha=alpha)
    return {"domains": [r.to_json() for r in rows], "summary": summary, "proposed": proposed,
            "days": days, "alpha": alpha, "records": len(records)}
