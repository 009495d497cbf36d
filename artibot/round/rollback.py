"""History of rounds, rollback, and recovery of a round interrupted by a crash.

A rollback's steps and their crash protocol are the store's
(:mod:`artibot.store.round.rollback_journal`: its plan is written first, the archives go
back into the log, then the state files in one commit); so is the one recovery every
command that changes a round's state runs first (:mod:`artibot.store.round.recovery`).
This module decides what to undo and refuses what could not be undone exactly; it touches
no file.
"""

from __future__ import annotations

from typing import Any, cast

from artibot.errors import NotFoundError, ReviewError
from artibot.messages import Message
from artibot.learning.round_params import logged_checks
from artibot.hookpath.router.thresholds import domain_label
from artibot.store import archive
from artibot.store.round import recovery, rollback_journal
from artibot.store.round import rounds
from artibot.store.round import snapshots
from artibot.store.fs import FileLock
from artibot.store.home import Home, HomeArg
from artibot.shapes import HistoryLine, RollbackEntry

UNAPPLIED = ("applying", "interrupted")
"""The statuses of a round's snapshot that was not applied (nor rolled back), each said by its
message (``rollback.status.<status>``)."""


def history(*, home: HomeArg = None) -> list[HistoryLine]:
    """One summary line per learning-log entry, oldest first."""
    h = Home.of(home)
    out: list[HistoryLine] = []
    for logged in rounds.read_learning_log(h):
        if not rounds.is_round(logged):
            undo = cast(RollbackEntry, logged)
            out.append({"type": "rollback", "round_id": undo["round_id"], "at": undo.get("at"),
                        "undone": undo.get("undone", []), "reason": undo.get("reason")})
            continue
        entry = logged
        out.append({
            "type": "round", "round_id": entry["round_id"], "status": entry.get("status"),
            "mode": entry.get("mode"), "finished": entry.get("finished"),
            "processed": entry.get("inputs", {}).get("processed"),
            "batches": entry.get("inputs", {}).get("batches"),
            # the learning log keys the default threshold "*"; every screen and the other JSON
            # outputs call it "default", so history does too
            "threshold_changes": {domain_label(d): c for d, c in entry.get("threshold_changes", {}).items()},
            "thresholds_applied": entry.get("thresholds_applied"),
            "transfers": entry.get("transfers", {}),
            "rolled_back": entry.get("rolled_back", False),
            # cost per route measured by the gateway, as the round saw it (None: nothing measured)
            "costs": logged_checks(entry).costs,
        })
    return out


def applied_in_order(h: Home) -> list[str]:
    """The applied rounds, in the order they were applied: by their snapshots' sequence
    numbers, never by their time-based ids (a clock set back would reorder those).
    Snapshots taken before numbering (no ``seq``) were all applied before any numbered one,
    in the order of their entries in the learning log. Raises :class:`ReviewError` when the
    order cannot be told: a rollback would then not be exact."""
    applied = {rid: m for rid, m in snapshots.manifests(h).items() if m.status == "applied"}
    numbered = sorted((m.seq, rid) for rid, m in applied.items() if m.seq is not None)
    seqs = [seq for seq, _ in numbered]
    if len(set(seqs)) != len(seqs):
        twice = next(seq for seq in seqs if seqs.count(seq) > 1)
        both = [rid for seq, rid in numbered if seq == twice]
        raise ReviewError(Message("rollback.same_seq", first=both[0], second=both[1], seq=twice,
                                  where=str(h.snapshots_dir)))
    legacy = [rid for rid, m in applied.items() if m.seq is None]
    if legacy:
        logged = [e.get("round_id") for e in rounds.read_learning_log(h)
                  if e.get("type", "round") == "round" and e.get("status") == "applied"]
        unknown = sorted(rid for rid in legacy if rid not in logged)
        if unknown:
            raise ReviewError(Message("rollback.no_seq", round=unknown[0], log=str(h.learning_log)))
        legacy.sort(key=logged.index)
    return legacy + [rid for _, rid in numbered]


def _refuse_inexact(h: Home, undo: list[str]) -> None:
    """Refuse, before any step, a rollback that could not put back exactly what was there."""
    missing = snapshots.missing_copies(h, undo[0])
    if missing:
        raise ReviewError(Message("rollback.copy_missing", round=undo[0], file=str(missing[0]),
                                  where=str(snapshots.snapshot_dir(h, undo[0]))))
    processed = {e["round_id"]: e["inputs"]["processed"] if "inputs" in e else None
                 for e in rounds.read_learning_log(h) if rounds.is_round(e)}
    for rid in undo:
        if processed.get(rid) and archive.read(h, rid) is None:
            raise ReviewError(Message("rollback.archive_missing", round=rid, n=processed[rid],
                                      path=str(archive.path_of(h, rid))))


def resolve_round(h: Home, round_id: str) -> str:
    """``round_id``, or the last applied round for ``last``; an id that names no applied
    round is an error listing the ones that can be rolled back."""
    applied = applied_in_order(h)
    if round_id == "last":
        if not applied:
            raise NotFoundError(Message("rollback.none"))
        return applied[-1]
    undone_at = _rolled_back_at(h, round_id) if round_id not in applied else None
    if undone_at is not None:
        # already rolled back (its snapshot may be gone): say so, not that it never existed
        raise ReviewError(_rolled_back_sentence(round_id, undone_at, applied))
    if round_id not in applied and round_id not in snapshots.manifests(h):
        raise NotFoundError(Message("rollback.not_applied", round=repr(round_id), choices=_choices(h, applied)))
    return round_id


def _choices(h: Home, applied: list[str]) -> Message:
    """What can be rolled back instead, in words."""
    if applied:
        shown = ", ".join(applied[-5:])
        if len(applied) > 5:
            return Message("rollback.choices_more", rounds=shown, n=len(applied) - 5)
        return Message("rollback.choices", rounds=shown)
    if any(rounds.is_round(e) and e.get("rolled_back") for e in rounds.read_learning_log(h)):
        return Message("rollback.none_now")
    return Message("rollback.none_yet")


def _rolled_back_at(h: Home, round_id: str) -> str | None:
    """When ``round_id`` was rolled back ("" when the log does not say), None if it was not."""
    entries = rounds.read_learning_log(h)
    if not any(rounds.is_round(e) and e.get("round_id") == round_id and e.get("rolled_back") for e in entries):
        return None
    for entry in reversed(entries):
        if not rounds.is_round(entry) and round_id in (cast(RollbackEntry, entry).get("undone") or []):
            return str(cast(RollbackEntry, entry).get("at") or "")
    return ""


def _rolled_back_sentence(round_id: str, at: str, applied: list[str]) -> Message:
    rest = Message("rollback.choices", rounds=", ".join(applied[-5:])) if applied else Message("rollback.none_now_short")
    if at:
        return Message("rollback.rolled_back_at", round=round_id, at=at[:16].replace("T", " "), rest=rest)
    return Message("rollback.rolled_back", round=round_id, rest=rest)


def _rounds_to_undo(h: Home, round_id: str) -> list[str]:
    """``round_id`` and every round applied after it, in the order they were applied;
    refused, with a reason, where the rollback could not be exact."""
    manifest = snapshots.read_manifest(h, round_id)
    if manifest["status"] == "rolled-back":
        at = manifest.get("rolled_back_at")
        raise ReviewError(_rolled_back_sentence(round_id, at if isinstance(at, str) else "", applied_in_order(h)))
    if manifest["status"] != "applied":
        status = str(manifest["status"])
        raise ReviewError(Message("rollback.not_applied_status", round=round_id,
                                  status=Message(f"rollback.status.{status}") if status in UNAPPLIED else status))
    applied = applied_in_order(h)
    if round_id not in applied:
        raise NotFoundError(Message("rollback.not_applied_plain", round=round_id))
    undo = applied[applied.index(round_id):]
    _refuse_inexact(h, undo)
    return undo


def plan_rollback(round_id: str, *, home: HomeArg = None) -> dict[str, Any]:
    """What ``rollback(round_id)`` would do, read without writing anything (``--dry-run``, the
    confirmation): the rounds undone, the experiences put back, a pending round discarded."""
    h = Home.of(home)
    round_id = resolve_round(h, round_id)
    undo = _rounds_to_undo(h, round_id)
    plan = rollback_journal.plan(h, undo, "preview")
    pending = rounds.read_pending(h)
    return {"round_id": round_id, "undone": undo, "experiences_restored": plan["experiences"],
            "discards_pending": pending["round_id"] if pending else None}


def rollback(round_id: str, *, home: HomeArg = None, lock_timeout: float = 5.0) -> dict[str, Any]:
    """Restore the learned state from before ``round_id``; rounds applied after it are undone too."""
    h = Home.of(home)
    with FileLock(h.learner_lock, timeout=lock_timeout, holder="another artibot learner"):
        recover_interrupted(h)
        undo = _rounds_to_undo(h, resolve_round(h, round_id))
        pending = rounds.read_pending(h)
        return rollback_journal.undo(h, undo, "rollback requested", discard=pending["round_id"] if pending else None)


def recover_interrupted(h: Home) -> list[str]:
    """The store's one recovery (:func:`artibot.store.round.recovery.recover`): a round's files
    committed or dropped, leftovers moved aside, an interrupted rollback finished, a round
    interrupted while applying rolled back. Caller holds the learner lock. Returns the rounds undone."""
    return recovery.recover(h)
