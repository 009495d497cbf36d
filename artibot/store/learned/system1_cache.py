"""``system1-patterns.json``: the System 1 cache: a pattern is in it while its
``status`` is ``"active"``.

Read on every prompt by the router (the hook path: no learning code, no numpy here);
changed only by a round's promotions and demotions (:func:`update_cache`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from artibot.store.documents import read_document, write_document
from artibot.store.home import Home

if TYPE_CHECKING:
    from artibot.learning.types import PatternStats
    from artibot.store.round.commit import RoundCommit


def _check_cache(doc: dict[str, Any]) -> str | None:
    patterns = doc.get("patterns")
    if not isinstance(patterns, list):
        return '"patterns" must be a list'
    for i, item in enumerate(patterns):
        if not isinstance(item, dict) or not isinstance(item.get("key"), str) or not isinstance(item.get("status"), str):
            return f'"patterns[{i}]" must be an object with string "key" and "status"'
    return None


def read_system1_patterns(home: Home) -> dict[str, Any] | None:
    return read_document(home.system1_patterns, "system1-patterns", require=_check_cache)


def write_system1_patterns(home: Home, doc: Mapping[str, Any], *, into: RoundCommit | None = None) -> None:
    home.ensure()
    write_document(home.system1_patterns, doc, "system1-patterns", into=into)


def active_patterns(doc: Mapping[str, Any] | None) -> frozenset[str]:
    if not doc:
        return frozenset()
    return frozenset(p["key"] for p in doc["patterns"] if p.get("status") == "active")


def decided_patterns(doc: Mapping[str, Any] | None) -> frozenset[str]:
    """The keys this home decided itself (active or demoted): a team's table does not override them."""
    if not doc:
        return frozenset()
    return frozenset(p["key"] for p in doc["patterns"] if p.get("status") in ("active", "demoted"))


def load_cache(home: Home) -> frozenset[str]:
    """The keys System 1 answers from (status ``active``)."""
    return active_patterns(read_system1_patterns(home))


def update_cache(home: Home, final: Mapping[str, str], stats: Mapping[str, PatternStats], round_id: str,
                 now: str, *, freshness: Mapping[str, Any] | None = None, into: RoundCommit | None = None) -> None:
    """Apply a round's promotions and demotions to the cache (written on its first round even if empty);
    ``freshness``: the aging state of patterns that stay active, stored on their entries; ``into``:
    staged in the round's commit."""
    doc = read_system1_patterns(home) or {"patterns": []}
    entries = {p["key"]: p for p in doc["patterns"]}
    changed = False
    for key, action in final.items():
        if action == "promote":
            entries[key] = {**entries.get(key, {}), "key": key, "status": "active", "promoted_at": now,
                            "promoted_in": round_id, "evidence": stats[key].to_json()}
            changed = True
        elif action == "demote" and key in stats:  # also a pattern only the team's table had active
            entries[key] = {**entries.get(key, {}), "key": key, "status": "demoted", "demoted_at": now,
                            "demoted_in": round_id, "evidence": stats[key].to_json()}
            changed = True
    for key, fresh in (freshness or {}).items():
        if entries.get(key, {}).get("status") == "active":
            entries[key] = {**entries[key], "freshness": fresh}
            changed = True
    if changed or not home.system1_patterns.exists():
        write_system1_patterns(home, {"patterns": [entries[k] for k in sorted(entries)]}, into=into)
