"""Member homes with records, for the team tests (each home a separate data home)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from artibot.collector import collect_many
from artibot.store.home import Home
from tests.factories import record


def records(n: int, *, seed: int = 0, prefix: str = "m0", start: int = 0,
            domains: tuple[str, ...] = ("backend", "frontend")) -> list[dict[str, Any]]:
    """``n`` valid records with unique ids: System 2 better above complexity 0.5, 5% explored."""
    rng = random.Random(seed)
    out = []
    for i in range(start, start + n):
        c = round(rng.random(), 3)
        explored = rng.random() < 0.1
        system = ("system2" if c >= 0.5 else "system1") if not explored else ("system1" if c >= 0.5 else "system2")
        p = 0.95 if system == "system2" else (0.9 if c < 0.5 else 0.4)
        outcome = "success" if rng.random() < p else "failed"
        out.append(record(i, id=f"exp_{prefix}_{i:08d}", domain=rng.choice(domains), complexity=c, routed_to=system,
                          outcome=outcome, propensity=0.05 if explored else 0.95, pattern=f"{domains[0]}:fix:typo",
                          input=f"fix the typo in module {i}"))
    return out


def member(tmp: Path, name: str, recs: list[dict[str, Any]] | None = None) -> Home:
    home = Home(tmp / name)
    if recs:
        collect_many(recs, home=home)
    return home
