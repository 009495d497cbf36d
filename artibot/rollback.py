"""History of rounds, rollback, and recovery of a round interrupted by a crash."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from typing import Any

from artibot.collector import HomeArg, as_home
from artibot.errors import NotFoundError, ReviewError
from artibot.store import snapshots, state
from artibot.store.documents import read_document
from artibot.store.experiences import ExperienceLog
from artibot.store.fs import FileLock
from artibot.store.home import Home


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def history(*, home: HomeArg = None) -> list[dict[str, Any]]:
    """One summary line per learning-log entry, oldest first."""
    h = as_home(home)
    out = []
    for entry in state.read_learning_log(h):
        if entry.get("type") == "rollback":
            out.append({"type": "rollback", "round_id": entry["round_id"], "at": entry.get("at"),
                        "undone": entry.get("undone", []), "reason": entry.get("reason")})
            continue
        out.append({
            "type": "round", "round_id": entry["round_id"], "status": entry.get("status"),
            "mode": entry.get("mode"), "finished": entry.get("finished"),
            "processed": entry.get("inputs", {}).get("processed"),
            "batches": entry.get("inputs", {}).get("batches"),
            "threshold_changes": entry.get("threshold_changes", {}),
            "thresholds_applied": entry.get("thresholds_applied"),
            "transfers": entry.get("transfers", {}),
            "rolled_back": entry.get("rolled_back", False),
        })
    return out


def _restore_records(h: Home, round_id: str) -> int:
    """Move a round's archived records back into the log; the archive file is renamed, not deleted."""
    path = h.archive_dir / f"{round_id}.json"
    doc = read_document(path, "archive")
    if doc is None:
        return 0
    count = ExperienceLog(h).restore(doc["records"], doc.get("positions"))
    os.replace(path, h.archive_dir / f"{round_id}.rolled-back-{os.urandom(2).hex()}.json")
    return count


def _undo(h: Home, round_ids: list[str], reason: str) -> dict[str, Any]:
    """Restore the state before the first of ``round_ids`` (oldest first) and their experiences."""
    first = round_ids[0]
    replaced = snapshots.restore(h, first)
    restored = 0
    for rid in reversed(round_ids):  # newest first, so that each insert sees the log it was cut from
        restored += _restore_records(h, rid)
        snapshots.mark(h, rid, "rolled-back", rolled_back_at=_now())
    rounds = state.read_learning_log(h)
    for entry in rounds:
        if entry.get("round_id") in round_ids and entry.get("type", "round") == "round":
            entry["rolled_back"] = True
    rounds.append({"type": "rollback", "round_id": first, "at": _now(), "undone": round_ids,
                   "reason": reason, "experiences_restored": restored,
                   "replaced_state_kept_in": str(replaced.relative_to(h.root))})
    state.write_learning_log(h, rounds)
    return {"round_id": first, "undone": round_ids, "experiences_restored": restored,
            "replaced_state_kept_in": str(replaced)}


def rollback(round_id: str, *, home: HomeArg = None, lock_timeout: float = 5.0) -> dict[str, Any]:
    """Restore the learned state from before ``round_id``; later applied rounds are undone too."""
    h = as_home(home)
    with FileLock(h.learner_lock, timeout=lock_timeout, holder="another artibot learner"):
        manifest = snapshots.read_manifest(h, round_id)
        if manifest["status"] != "applied":
            raise ReviewError(f"round {round_id} is {manifest['status']}, not applied; nothing to roll back")
        applied = [rid for rid in snapshots.list_rounds(h)
                   if snapshots.read_manifest(h, rid)["status"] == "applied"]
        if round_id not in applied:
            raise NotFoundError(f"round {round_id} is not an applied round")
        undo = applied[applied.index(round_id):]
        pending = state.read_pending(h)
        result = _undo(h, undo, "rollback requested")
        if pending is not None:
            # it was computed on the state just replaced: keep it aside in the log, not applied
            rounds = state.read_learning_log(h)
            rounds.append({"type": "round", "round_id": pending["round_id"], "status": "discarded",
                           "finished": _now(), "reason": f"state rolled back to before {round_id}"})
            state.write_learning_log(h, rounds)
            state.clear_pending(h)
            result["discarded_pending"] = pending["round_id"]
        return result


def recover_interrupted(h: Home) -> list[str]:
    """Roll back any round whose snapshot is still ``applying`` (a crash mid-commit). Caller holds the learner lock."""
    done = []
    for rid in snapshots.list_rounds(h):
        if snapshots.read_manifest(h, rid)["status"] == "applying":
            _undo(h, [rid], "interrupted while applying (crash); rolled back automatically")
            snapshots.mark(h, rid, "interrupted")
            done.append(rid)
    return done
