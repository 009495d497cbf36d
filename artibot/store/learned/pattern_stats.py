"""``patterns/stats.json`` (per-pattern evidence, as :class:`PatternStats`) and
``transfer-log.json`` (every promote / demote / hold applied, with its evidence).

Every entry is a pattern. Older homes kept the evidence learner's per-bin state here too,
under ``"cells"`` (or, older still, under ``"patterns"`` with ``~cell:`` keys); that state
now has its own file (:mod:`artibot.store.learned.learner_state`, which reads the old form while
its file does not exist), so those entries are skipped here and dropped at the next write.
The System 1 cache those decisions change is :mod:`artibot.store.learned.system1_cache`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from artibot.errors import CorruptFileError, problem_of
from artibot.hookpath.names import CELL_PREFIX
from artibot.learning.types import PatternStats, TransferDecision
from artibot.store.documents import list_field, read_document, write_document
from artibot.store.fs import ensure_dir
from artibot.store.home import Home

if TYPE_CHECKING:
    from artibot.store.round.commit import RoundCommit



def _check_stats(doc: dict[str, Any]) -> str | None:
    if not isinstance(doc.get("patterns"), dict):
        return '"patterns" must be an object keyed by pattern'
    if not isinstance(doc.get("cells", {}), dict):
        return '"cells" must be an object keyed by cell'
    return None


# --------------------------------------------------------------------- pattern statistics
def read_pattern_stats(home: Home) -> dict[str, Any] | None:
    """The stats document as stored (for the doctor's check); :func:`load_pattern_stats` decodes it."""
    return read_document(home.pattern_stats, "pattern-stats", require=_check_stats)


def load_pattern_stats(home: Home) -> dict[str, PatternStats]:
    doc = read_pattern_stats(home)
    if doc is None:
        return {}
    entries = {k: v for k, v in doc["patterns"].items() if not k.startswith(CELL_PREFIX)}
    try:
        return {k: PatternStats.from_json(entries[k]) for k in sorted(entries)}
    except ValueError as exc:
        raise CorruptFileError(home.pattern_stats, problem_of(exc)) from None


def write_pattern_stats(home: Home, stats: Mapping[str, PatternStats], *, into: RoundCommit | None = None) -> None:
    """Write the pattern statistics (call :func:`artibot.store.learned.learner_state.migrate` first in a
    home that may still keep the evidence learner's cells here: this drops them)."""
    ensure_dir(home.patterns_dir)
    doc: dict[str, Any] = {"patterns": {k: v.to_json() for k, v in sorted(stats.items())}}
    write_document(home.pattern_stats, doc, "pattern-stats", into=into)


def tracked_patterns(home: Home) -> int:
    """How many patterns have statistics (an older home's cells among them are not patterns)."""
    doc = read_pattern_stats(home)
    return sum(1 for k in doc["patterns"] if not k.startswith(CELL_PREFIX)) if doc else 0


# --------------------------------------------------------------------- transfer log
def read_transfer_log(home: Home) -> list[dict[str, Any]]:
    doc = read_document(home.transfer_log, "transfer-log", require=list_field("events"))
    return doc["events"] if doc else []


def write_transfer_log(home: Home, events: list[dict[str, Any]], *, into: RoundCommit | None = None) -> None:
    home.ensure()
    write_document(home.transfer_log, {"events": events}, "transfer-log", into=into)


def log_transfers(home: Home, final: Mapping[str, str], decisions: tuple[TransferDecision, ...],
                  stats: Mapping[str, PatternStats], round_id: str, now: str, *,
                  into: RoundCommit | None = None) -> None:
    """Append one event per pattern acted on: the final action, the automatic one and its evidence."""
    events = read_transfer_log(home)
    automatic = {d.key: d for d in decisions}
    for key in sorted(final):
        decision = automatic.get(key)
        events.append({"round_id": round_id, "at": now, "key": key, "action": final[key],
                       "automatic": decision.action if decision else None,
                       "overridden": bool(decision and decision.action != final[key]),
                       "reason": decision.reason if decision else "chosen at checkpoint 3",
                       "evidence": (decision.stats if decision else stats[key]).to_json()})
    write_transfer_log(home, events, into=into)
