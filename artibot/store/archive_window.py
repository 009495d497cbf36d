"""The most recent archived experiences (read-only): the off-policy window beyond a round's own.

Archives of applied rounds are read through :mod:`artibot.store.archive`; rounds rolled back have had
theirs renamed and their records returned to the log, so only rounds the learning log lists
as applied and not rolled back are read, newest first.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from artibot.store import archive
from artibot.store.home import Home


def recent_archived(home: Home, rounds: Sequence[Mapping[str, Any]], limit: int,
                    keep: Callable[[Mapping[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    """Up to ``limit`` of the newest archived records that ``keep`` accepts, oldest first; a missing
    archive is skipped (``doctor`` reports it), a damaged one raises :class:`CorruptFileError` naming it."""
    out: list[list[dict[str, Any]]] = []
    total = 0
    for entry in reversed(rounds):
        if total >= limit:
            break
        if entry.get("type", "round") != "round" or entry.get("status") != "applied" or entry.get("rolled_back"):
            continue
        doc = archive.read(home, entry["round_id"])  # checks that every record is an object
        if doc is None:
            continue
        records = doc["records"]
        if keep is not None:
            records = [r for r in records if keep(r)]
        if not records:
            continue
        take = records[-(limit - total):]
        out.append(take)
        total += len(take)
    return [r for part in reversed(out) for r in part]
