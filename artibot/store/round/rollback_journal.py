"""A rollback's plan and its run: ``snapshots/.rollback-in-progress.json`` is written before
the first step, so that a rollback killed at any instant is finished by the next recovery
(:func:`artibot.store.round.recovery.recover`).

The steps: the archives of the rounds undone go back into the log, newest first (each the
log's own restartable operation, ``ExperienceLog.restore_archive``); the state being replaced
is copied into ``snapshots/<round>/replaced-<time>/`` (nothing is deleted); then one commit
(:mod:`artibot.store.round.commit`) puts back the state files from the snapshot, marks the
snapshots, writes the learning log's entry, drops a pending round computed on the replaced
state, and removes the plan itself. Before that commit the state is untouched, so every
step can run again; after it there is no plan left to resume.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from typing import Any, Mapping

import orjson

from artibot.errors import CorruptFileError, StoreError
from artibot.store import archive
from artibot.store.fs import atomic_write_bytes, ensure_dir, fsync_dir, read_bytes
from artibot.store.home import Home
from artibot.store.log.experiences import ExperienceLog
from artibot.store.round import rounds, snapshots
from artibot.store.round.commit import RoundCommit

NAME = ".rollback-in-progress.json"


def write(home: Home, plan: Mapping[str, Any]) -> None:
    ensure_dir(home.snapshots_dir)
    atomic_write_bytes(home.snapshots_dir / NAME, orjson.dumps(dict(plan)))


def read(home: Home) -> dict[str, Any] | None:
    """The plan of an unfinished rollback, or None."""
    path = home.snapshots_dir / NAME
    raw = read_bytes(path)
    if raw is None:
        return None
    try:
        plan = orjson.loads(raw)
        if not (isinstance(plan, dict) and isinstance(plan.get("rounds"), list) and plan["rounds"]):
            raise ValueError
    except (orjson.JSONDecodeError, ValueError):
        raise CorruptFileError(path, "unreadable plan of an interrupted rollback; move it aside and run "
                               "`artibot rollback <round>` again") from None
    return plan


def clear(home: Home) -> None:
    path = home.snapshots_dir / NAME
    try:
        os.unlink(path)
        fsync_dir(home.snapshots_dir)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError.from_os(exc, path, "remove") from None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def plan(home: Home, round_ids: list[str], reason: str, *, final: str = "rolled-back",
         discard: str | None = None) -> dict[str, Any]:
    """The plan of a rollback of ``round_ids`` (in apply order): everything a resumed run
    needs, decided before any step (nothing is written)."""
    restored = 0
    for rid in round_ids:
        doc = archive.read(home, rid)
        restored += len(doc["records"]) if doc else 0
    return {"id": os.urandom(8).hex(), "rounds": round_ids, "reason": reason, "at": _now(), "final": final,
            "discard_pending": discard, "experiences": restored, "replaced": _replaced(home, round_ids[0]),
            "commit": 1}


def _replaced(home: Home, first: str) -> str:
    """Where the state a rollback replaces is kept (relative to the home)."""
    folder = snapshots.snapshot_dir(home, first) / time.strftime("replaced-%Y%m%dT%H%M%S", time.gmtime())
    return folder.relative_to(home.root).as_posix()


def undo(home: Home, round_ids: list[str], reason: str, *, final: str = "rolled-back",
         discard: str | None = None) -> dict[str, Any]:
    """Roll back ``round_ids`` (in apply order): the state from before the first of them, and
    their experiences back in the log. The caller holds the learner lock."""
    steps = plan(home, round_ids, reason, final=final, discard=discard)
    write(home, steps)
    return run(home, steps)


def run(home: Home, steps: dict[str, Any]) -> dict[str, Any]:
    """Run (or resume) a planned rollback; every step before its commit can run again."""
    round_ids: list[str] = steps["rounds"]
    first = round_ids[0]
    # A plan an artibot before the one commit wrote restored the state files first and then
    # set "replaced": then they are restored already, and the copy it kept must not be redone.
    keep = steps.get("commit") is not None or steps.get("replaced") is None
    if steps.get("replaced") is None:
        steps = {**steps, "replaced": _replaced(home, first), "commit": 1}
        write(home, steps)
    log = ExperienceLog(home)
    for rid in reversed(round_ids):  # newest first, so that each insert sees the log it was cut from
        log.restore_archive(rid)
    files = RoundCommit(home)
    snapshots.restore(home, first, files, keep_replaced_in=home.root / steps["replaced"] if keep else None)
    for rid in round_ids:
        if snapshots.load_manifest(home, rid).status != steps["final"]:
            snapshots.mark(home, rid, steps["final"], into=files, rolled_back_at=steps["at"])
    entries = rounds.read_learning_log(home)
    if not any(entry.get("rollback_id") == steps["id"] for entry in entries):
        for entry in entries:
            if entry.get("round_id") in round_ids and rounds.is_round(entry):
                entry["rolled_back"] = True
        entries.append({"type": "rollback", "round_id": first, "at": steps["at"], "undone": round_ids,
                        "reason": steps["reason"], "experiences_restored": steps["experiences"],
                        "replaced_state_kept_in": steps["replaced"], "rollback_id": steps["id"]})
        if steps["discard_pending"]:
            # it was computed on the state being replaced: keep it aside in the log, not applied
            entries.append({"type": "round", "round_id": steps["discard_pending"], "status": "discarded",
                            "finished": steps["at"], "reason": f"state rolled back to before {first}"})
        rounds.write_learning_log(home, entries, into=files)
    pending = rounds.read_pending(home)
    if steps["discard_pending"] and pending is not None and pending.get("round_id") == steps["discard_pending"]:
        rounds.clear_pending(home, into=files)
    files.remove(home.snapshots_dir / NAME)  # the plan goes with the state it restores
    files.run()
    result = {"round_id": first, "undone": round_ids, "experiences_restored": steps["experiences"],
              "replaced_state_kept_in": str(home.root / steps["replaced"])}
    if steps["discard_pending"]:
        result["discarded_pending"] = steps["discard_pending"]
    return result
