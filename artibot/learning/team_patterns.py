"""Checkpoint 3 on a team's pool: promote, demote or hold each pattern, on keyed hashes.

A personal round decides, per pattern, whether its requests are safe on System 1
(:mod:`artibot.learning.evidence_transfers`: one-sided posterior bounds on System 1's and
System 2's success). The pool holds no pattern text, only the team's keyed hash of it, so
the team round decides the same way per hash: the database counts each hash's System 1
and System 2 trials and successes in the round's window (a ``GROUP BY pattern_hash``),
the counts add to the ones the team's last published state carries, and the same rule
proposes the action that checkpoint 3 shows the reviewer. What the reviewer settles is
published with the state (``patterns``: hash → status and counts).

What a published pattern decision does on a member: its router starts from it. A hash the
team has active routes the member's request of that pattern to System 1 unless the member
decided the pattern itself (:mod:`artibot.hookpath.router.team_table`, :mod:`artibot.team.prior`),
and the member's own checkpoint 3 can demote it for that member on its own evidence, as its
own rounds move the team's thresholds. The member's own System 1 cache file stays its own.

The state's pattern table is bounded: a round counts at most :data:`ROUND_PATTERNS`
hashes (the most frequent), and a state keeps every active or demoted hash and at most
:data:`STATE_PATTERNS` in all, so a member pushing random hashes cannot grow it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from artibot.learning.evidence_transfers import CREDIBLE, decide
from artibot.learning.posterior import beta_bounds
from artibot.learning.types import STATUSES, PatternStats, TransferDecision
from artibot.config.settings import Settings

ROUND_PATTERNS = 500
STATE_PATTERNS = 2000
HASH_CHARS = 32
HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class PatternCount:
    """One pattern hash's trials in a window of the pool, as the database counts them."""

    hash: str
    n1: int
    k1: int
    n2: int
    k2: int


def pattern_round(before: Mapping[str, PatternStats], counts: Sequence[PatternCount], settings: Settings
                  ) -> tuple[dict[str, PatternStats], tuple[TransferDecision, ...], dict[str, list[float]]]:
    """The patterns after the window's counts, the automatic decision for each hash seen, and
    the bounds of its System 1 success (what checkpoint 3 shows)."""
    after = {key: before[key] for key in sorted(before)}
    for c in counts:
        old = before.get(c.hash) or PatternStats(c.hash)
        after[c.hash] = replace(old, n=old.n + c.n1 + c.n2, n1=old.n1 + c.n1, k1=old.k1 + c.k1,
                                n2=old.n2 + c.n2, k2=old.k2 + c.k2)
    seen = sorted({c.hash for c in counts})
    decisions = tuple(decide(after[h], settings) for h in seen)
    bounds = {h: list(beta_bounds(after[h].k1, after[h].n1, CREDIBLE)) for h in seen}
    return after, decisions, bounds


def patterns_json(stats: Mapping[str, PatternStats]) -> dict[str, dict[str, Any]]:
    """The published pattern table: every active or demoted hash, then the most tried candidates."""
    decided = [s for s in stats.values() if s.status != "candidate"]
    candidates = sorted((s for s in stats.values() if s.status == "candidate"), key=lambda s: (-s.n, s.key))
    kept = decided + candidates[:max(0, STATE_PATTERNS - len(decided))]
    return {s.key: {"status": s.status, "n1": s.n1, "k1": s.k1, "n2": s.n2, "k2": s.k2}
            for s in sorted(kept, key=lambda s: s.key)}


def parse_patterns(doc: Any) -> dict[str, PatternStats]:
    """A published pattern table, checked (ValueError names the first problem); absent is empty."""
    if doc is None:
        return {}
    if not isinstance(doc, Mapping):
        raise ValueError("the team state's patterns must be an object of pattern hashes")
    out: dict[str, PatternStats] = {}
    for key, entry in doc.items():
        if not isinstance(key, str) or len(key) != HASH_CHARS or not set(key) <= HEX:
            raise ValueError(f"the team state's pattern {key!r} is not a pattern hash ({HASH_CHARS} hex digits)")
        if not isinstance(entry, Mapping) or entry.get("status") not in STATUSES:
            raise ValueError(f"the team state's pattern {key} must have a status: {', '.join(STATUSES)}")
        counts = [entry.get(f) for f in ("n1", "k1", "n2", "k2")]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts) \
                or counts[1] > counts[0] or counts[3] > counts[2]:  # type: ignore[operator]
            raise ValueError(f"the team state's pattern {key} must have counts n1, k1, n2, k2 with 0 <= k <= n")
        n1, k1, n2, k2 = (int(v) for v in counts)  # type: ignore[arg-type]
        out[key] = PatternStats(key, str(entry["status"]), n=n1 + n2, n1=n1, k1=k1, n2=n2, k2=k2)
    return out
