"""One learning cycle, steps 1–7 (SPEC §1, §4, §5).

load → batch → compare (checkpoint 1) → update thresholds (checkpoint 2) → transfer
(checkpoint 3) → persist. The math is in :mod:`artibot.learning` (pure); files are in
:mod:`artibot.store`; the questions are put to a :class:`~artibot.checkpoints.Checkpoints`
object. A learner lock makes sure two cycles never run at once.
"""

from __future__ import annotations

import logging
import os
from operator import attrgetter
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence

from artibot import checkpoints as cp
from artibot import round_checks
from artibot.collector import HomeArg, as_home
from artibot.config import Settings, load_settings
from artibot.errors import CorruptFileError, LockTimeout, ReviewError
from artibot.learning import (
    PatternStats,
    RoundProposal,
    Thresholds,
    apply_decisions,
    frame_from_records,
)
from artibot.learning.frame import Frame, collector_paused, frame_from_chunks
from artibot.store import snapshots, state
from artibot.store.experiences import ExperienceLog, LogRead
from artibot.store.fs import FileLock
from artibot.store.home import Home

log = logging.getLogger(__name__)

Progress = Callable[[str], None]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_round_id() -> str:
    """Sortable by time (rounds never run concurrently: the learner lock), unique by the random tail."""
    ns = time.time_ns()
    return time.strftime("r%Y%m%d-%H%M%S", time.gmtime(ns / 1e9)) + f"{ns // 1000 % 1_000_000:06d}-{os.urandom(2).hex()}"


@dataclass
class RoundReport:
    """What a cycle did. ``status``: applied, deferred, reset, nothing, dry-run or pending."""

    status: str
    round_id: str | None = None
    mode: str = "seed"
    processed: int = 0
    remainder: int = 0
    batches: int = 0
    threshold_changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    transfers: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    message: str = ""
    proposal: RoundProposal | None = None
    evidence: cp.EvidenceSet | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status, "round_id": self.round_id, "mode": self.mode,
            "processed": self.processed, "remainder": self.remainder, "batches": self.batches,
            "threshold_changes": self.threshold_changes, "transfers": self.transfers,
            "answers": self.answers, "message": self.message,
        }


# --------------------------------------------------------------------- loading state
def load_thresholds(home: Home, settings: Settings) -> Thresholds:
    doc = state.read_thresholds(home)
    if doc is None:
        return Thresholds(settings.router.threshold, {})
    return Thresholds.from_json(doc)


def load_pattern_stats(home: Home) -> dict[str, PatternStats]:
    doc = state.read_pattern_stats(home)
    if doc is None:
        return {}
    try:
        return {k: PatternStats.from_json(v) for k, v in doc["patterns"].items()}
    except ValueError as exc:
        raise CorruptFileError(home.pattern_stats, str(exc)) from None


def propose(records: list[dict[str, Any]], thresholds: Thresholds, patterns: Mapping[str, PatternStats],
            settings: Settings, *, flush: bool) -> RoundProposal:
    """Steps 2–6 as a proposal, in the configured mode."""
    return propose_frame(frame_from_records(records), thresholds, patterns, settings, flush=flush)


def propose_frame(frame: Frame, thresholds: Thresholds, patterns: Mapping[str, PatternStats],
                  settings: Settings, *, flush: bool) -> RoundProposal:
    """:func:`propose` for records already in a frame."""
    if settings.lifelong.mode == "evidence":
        from artibot.learning.evidence import propose_round as propose_evidence

        return propose_evidence(frame, thresholds, patterns, settings, flush=flush)
    from artibot.learning.seed import propose_round as propose_seed

    return propose_seed(frame, thresholds, patterns, settings, flush=flush)


# --------------------------------------------------------------------- policies
def policy_for(answers: Any, settings: Settings) -> cp.Checkpoints:
    """``answers``: "defaults", "defer", "unattended" (follow the config) or a mapping / list of answers."""
    if isinstance(answers, str):
        if answers == "defaults":
            return cp.DefaultAnswers("api")
        if answers == "defer":
            return cp.DeferAnswers()
        if answers == "unattended":
            if settings.checkpoints.unattended == "defaults":
                return cp.DefaultAnswers("unattended-defaults")
            return cp.DeferAnswers()
        raise ReviewError(f"answers must be 'defaults', 'defer', 'unattended' or a mapping, not {answers!r}")
    return cp.ScriptedAnswers(cp.parse_answers(answers), channel="api")


# --------------------------------------------------------------------- the cycle
def learn(*, home: HomeArg = None, answers: Any = "defaults", checkpoints: cp.Checkpoints | None = None,
          flush: bool = False, dry_run: bool = False, settings: Settings | None = None,
          lock_timeout: float = 5.0, progress: Progress | None = None) -> RoundReport:
    """Run one learning cycle and return its report.

    ``answers`` chooses how the checkpoints are answered when no ``checkpoints`` object
    is given: ``"defaults"`` (pre-approved), ``"defer"`` (prepare and save for review),
    ``"unattended"`` (as ``learning.checkpoints.unattended`` says) or a mapping such as
    ``{1: "accept", 2: "apply", 3: "auto"}``.
    """
    h = as_home(home)
    settings = settings or load_settings(h.root)
    policy = checkpoints or policy_for(answers, settings)
    say = progress or (lambda _msg: None)
    h.ensure()
    with FileLock(h.learner_lock, timeout=lock_timeout, holder="another artibot learner"):
        from artibot.rollback import recover_interrupted

        recovered = [] if dry_run else recover_interrupted(h)
        pending = state.read_pending(h)
        if pending is not None:
            if dry_run:
                return RoundReport("pending", pending["round_id"], message="a round is waiting for review")
            if isinstance(policy, cp.DeferAnswers):
                return RoundReport("pending", pending["round_id"],
                                   message="a round is already waiting for review; nothing new was prepared")
            raise ReviewError(f"round {pending['round_id']} is waiting for review: `artibot review` shows it, "
                              "`artibot review --answer 1=accept --answer 2=apply --answer 3=auto` answers it")
        say("loading experiences")
        # The bytes read stay (and the log stays open) for the archive move at the end; the
        # garbage collector waits: the round's big, acyclic tables would only be walked again.
        with ExperienceLog(h).open_read() as source, collector_paused():
            frame, order, records = _read_frame(source)
            thresholds = load_thresholds(h, settings)
            patterns = load_pattern_stats(h)
            if records is not None:
                frame = frame_from_records(records)  # raises here, as it always did, for records not validated
            say(f"computing the round over {len(frame):,} experiences")
            proposal = propose_frame(frame, thresholds, patterns, settings, flush=flush)
            if proposal.processed_ids:  # issue 12: off-policy estimate, window counts, stale patterns
                proposal = round_checks.annotate(h, frame, proposal, settings)
            unprocessed = len(frame)
            del frame
            if not proposal.processed_ids:
                msg = (f"{unprocessed} unprocessed experience(s), fewer than a batch of "
                       f"{settings.lifelong.batch_size}; nothing to learn yet (--flush processes them anyway)")
                if recovered:
                    msg += f"; rolled back interrupted round(s) {', '.join(recovered)}"
                return RoundReport("nothing", None, mode=proposal.mode, remainder=unprocessed, message=msg)
            round_id = new_round_id()
            report = _report(proposal, round_id, settings.lang)
            if dry_run:
                report.status = "dry-run"
                report.message = "dry run: nothing was written"
                return report
            context = {"round_id": round_id, "created": _now(), "flush": flush, "lang": settings.lang,
                       "unprocessed": unprocessed}
            k = len(proposal.processed_ids)
            if records is not None:
                positions: Sequence[int] = _positions(records, proposal.processed_ids)
                del records
            else:
                positions = range(k) if order is None else order[:k]
            return decide_and_commit(h, settings, proposal, context, policy, cp.Answers(), [], say,
                                     positions=positions, report=report, source=source)


def _read_frame(source: LogRead) -> tuple[Frame | None, Any, list[dict[str, Any]] | None]:
    """``(frame, order, None)`` from the log's canonical records, parsed a few hundred at a time;
    ``(None, None, records)`` when some record is unusual: the caller then takes the exact
    (slower) path of :func:`frame_from_records`, which also explains any invalid record."""
    try:
        frame, order = frame_from_chunks(source.chunks())
    except (ValueError, TypeError):
        return None, None, source.records()  # a damaged log raises CorruptFileError here, as read() does
    return frame, order, None


def _positions(records: list[dict[str, Any]], ids: tuple[str, ...]) -> list[int]:
    """Each processed record's index in the log as read (usually simply 0..k-1: the log is in time order)."""
    if all(records[i].get("id") == rid for i, rid in enumerate(ids)):
        return list(range(len(ids)))
    index = {r.get("id"): i for i, r in enumerate(records)}
    return [index[rid] for rid in ids]


def _report(proposal: RoundProposal, round_id: str, lang: str) -> RoundReport:
    changes = {
        ("default" if d == "*" else d): {"old": old, "new": new, "direction": cp.direction(old, new, "en")}
        for d, (old, new) in proposal.net_changes().items()
    }
    transfers = [{"key": d.key, "automatic": d.action, "final": d.action, "reason": d.reason}
                 for d in proposal.decisions]
    return RoundReport("proposed", round_id, mode=proposal.mode, processed=len(proposal.processed_ids),
                       remainder=proposal.remainder, batches=len(proposal.batches),
                       threshold_changes=changes, transfers=transfers, proposal=proposal,
                       evidence=cp.all_evidence(proposal, round_id, lang))


def decide_and_commit(h: Home, settings: Settings, proposal: RoundProposal, context: dict[str, Any],
                      policy: cp.Checkpoints, given: cp.Answers, answer_log: list[dict[str, Any]],
                      say: Progress, *, positions: Sequence[int] | None = None,
                      report: RoundReport | None = None, source: LogRead | None = None) -> RoundReport:
    """Ask the checkpoints still open, then persist (or defer, or end on Reset)."""
    round_id = context["round_id"]
    report = report or _report(proposal, round_id, context.get("lang", settings.lang))
    ev = report.evidence
    assert ev is not None
    answered = {a["checkpoint"] for a in answer_log}

    def record(n: int, answer: Any) -> None:
        answer_log.append({"checkpoint": n, "answer": answer, "channel": policy.channel, "at": _now()})

    try:
        if 1 not in answered:
            choice = given.groups or policy.groups(ev[1])
            record(1, choice)
        choice1 = next(a["answer"] for a in answer_log if a["checkpoint"] == 1)
        if choice1 == "reset":
            _finish_reset(h, proposal, context, answer_log)
            report.status, report.answers = "reset", answer_log
            report.message = "group data reset: nothing applied; the experiences stay unprocessed"
            return report
        if 2 not in answered:
            choice = given.thresholds or policy.thresholds(ev[2])
            record(2, choice)
        if 3 not in answered:
            if given.transfers or given.per_pattern:
                actions = cp.ScriptedAnswers(given).transfers(ev[3])
            else:
                actions = policy.transfers(ev[3])
            record(3, dict(actions) if actions is not None else "skip")
    except cp.Deferred as deferred:
        _save_pending(h, proposal, context, answer_log)
        report.status, report.answers = "deferred", answer_log
        report.message = (f"round {round_id} prepared and saved for review (checkpoint {deferred.checkpoint} "
                          "needs a human): run `artibot review` or /learn in Claude Code")
        return report
    apply_thresholds = next(a["answer"] for a in answer_log if a["checkpoint"] == 2) == "apply"
    ans3 = next(a["answer"] for a in answer_log if a["checkpoint"] == 3)
    automatic = {d.key: d.action for d in proposal.decisions}
    final = dict(automatic)
    if isinstance(ans3, dict):
        for key, action in ans3.items():
            final[key] = automatic.get(key, "hold") if action == "auto" else action
    say("writing the new state")
    commit(h, settings, proposal, context, answer_log, apply_thresholds, final, positions=positions, source=source)
    report.status, report.answers = "applied", answer_log
    for item in report.transfers:
        item["final"] = final.get(item["key"], item["automatic"])
    for change in report.threshold_changes.values():
        change["applied"] = apply_thresholds
    report.message = (f"round {round_id} applied: {report.processed} experiences in {report.batches} batch(es); "
                      + ("thresholds updated" if apply_thresholds else "thresholds kept (reverted)"))
    return report


# --------------------------------------------------------------------- persistence
def _save_pending(h: Home, proposal: RoundProposal, context: Mapping[str, Any],
                  answer_log: list[dict[str, Any]]) -> None:
    state.write_pending(h, {**context, "proposal": proposal.to_json(), "answers": answer_log})


def _log_entry(proposal: RoundProposal, context: Mapping[str, Any], status: str,
               answer_log: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    group_cols = ["batch", "domain", "size", "complexity_min", "complexity_max", "n1", "k1", "n2", "k2",
                  "s1", "s2", "advantage"]
    step_cols = ["batch", "domain", "advantage", "raw_delta", "delta", "old", "new", "clamped", "bounded"]
    return {
        "type": "round", "round_id": context["round_id"], "status": status, "mode": proposal.mode,
        "prepared": context.get("created"), "finished": _now(),
        "inputs": {"unprocessed": context.get("unprocessed"), "processed": len(proposal.processed_ids),
                   "remainder": proposal.remainder, "batches": len(proposal.batches),
                   "flush": context.get("flush", False)},
        "params": dict(proposal.params),
        "groups": {"columns": group_cols, "rows": _rows(proposal.groups, group_cols)},
        "steps": {"columns": step_cols, "rows": _rows(proposal.steps, step_cols)},
        "threshold_changes": {d: {"old": o, "new": n} for d, (o, n) in proposal.net_changes().items()},
        "answers": answer_log,
        **extra,
    }


def _rows(table: Any, cols: list[str]) -> list[tuple[Any, ...]]:
    """Rows of a columnar table without building a row object each (200k groups per 1M records)."""
    columns = getattr(table, "columns", None)
    if isinstance(columns, Mapping):
        return list(zip(*(columns[c] for c in cols)))
    return list(map(attrgetter(*cols), table))


def _append_learning_log(h: Home, entry: dict[str, Any]) -> None:
    rounds = state.read_learning_log(h)
    rounds.append(entry)
    state.write_learning_log(h, rounds)


def _finish_reset(h: Home, proposal: RoundProposal, context: Mapping[str, Any],
                  answer_log: list[dict[str, Any]]) -> None:
    _append_learning_log(h, _log_entry(proposal, context, "reset", answer_log))
    state.clear_pending(h)


def commit(h: Home, settings: Settings, proposal: RoundProposal, context: Mapping[str, Any],
           answer_log: list[dict[str, Any]], apply_thresholds: bool, final: Mapping[str, str],
           *, positions: Sequence[int] | None = None, source: LogRead | None = None) -> None:
    """Step 7: snapshot, then write thresholds, patterns, logs and archive the processed records.

    The snapshot's manifest stays ``applying`` until the last write; a crash in between is
    rolled back by the next cycle (:func:`artibot.rollback.recover_interrupted`).
    """
    round_id = context["round_id"]
    now = _now()
    snapshots.take(h, round_id, {"mode": proposal.mode})
    if apply_thresholds:
        doc = proposal.new.to_json()
        doc.update({"updated": now, "round_id": round_id})
        state.write_thresholds(h, doc)
    stats = apply_decisions(proposal.patterns_after, final)
    state.write_pattern_stats(h, {"patterns": {k: v.to_json() for k, v in sorted(stats.items())}})
    _update_cache(h, proposal, final, stats, round_id, now)
    events = state.read_transfer_log(h)
    automatic = {d.key: d for d in proposal.decisions}
    for key in sorted(final):
        decision = automatic.get(key)
        events.append({"round_id": round_id, "at": now, "key": key, "action": final[key],
                       "automatic": decision.action if decision else None,
                       "overridden": bool(decision and decision.action != final[key]),
                       "reason": decision.reason if decision else "chosen at checkpoint 3",
                       "evidence": (decision.stats if decision else stats[key]).to_json()})
    state.write_transfer_log(h, events)
    ExperienceLog(h).move_to_archive(proposal.processed_ids, round_id,
                                     {"round_id": round_id, "archived": now}, positions=positions,
                                     source=source)
    _append_learning_log(h, _log_entry(proposal, context, "applied", answer_log,
                                       thresholds_applied=apply_thresholds,
                                       transfers={k: final[k] for k in sorted(final)},
                                       archive=f"archive/{round_id}.json"))
    state.clear_pending(h)
    snapshots.mark(h, round_id, "applied")


def _update_cache(h: Home, proposal: RoundProposal, final: Mapping[str, str],
                  stats: Mapping[str, PatternStats], round_id: str, now: str) -> None:
    doc = state.read_system1_patterns(h) or {"patterns": []}
    entries = {p["key"]: p for p in doc["patterns"]}
    changed = False
    for key, action in final.items():
        if action == "promote":
            entries[key] = {**entries.get(key, {}), "key": key, "status": "active", "promoted_at": now,
                            "promoted_in": round_id, "evidence": stats[key].to_json()}
            changed = True
        elif action == "demote" and key in entries:
            entries[key] = {**entries[key], "status": "demoted", "demoted_at": now, "demoted_in": round_id,
                            "evidence": stats[key].to_json()}
            changed = True
    for key, fresh in round_checks.freshness_updates(proposal, final).items():
        if entries.get(key, {}).get("status") == "active":
            entries[key] = {**entries[key], "freshness": fresh}
            changed = True
    if changed or not h.system1_patterns.exists():
        state.write_system1_patterns(h, {"patterns": [entries[k] for k in sorted(entries)]})


# --------------------------------------------------------------------- review (pending rounds)
def pending_questions(h: Home, settings: Settings | None = None) -> dict[str, Any]:
    """``artibot review --json``: the open questions of the pending round, or ``{"pending": false}``."""
    doc = state.read_pending(h)
    if doc is None:
        count = ExperienceLog(h).count()
        settings = settings or load_settings(h.root)
        size = settings.lifelong.batch_size
        message = (f"nothing is waiting for review; {count} unprocessed experience(s), "
                   + (f"{count // size} full batch(es) ready: `artibot learn` starts a round" if count >= size
                      else f"{count} of {size} collected for the next batch"))
        return {"pending": False, "unprocessed": count, "batch_size": size, "full_batches": count // size,
                "message": message}
    proposal = _proposal_of(h, doc)
    lang = doc.get("lang", "en")
    ev = cp.all_evidence(proposal, doc["round_id"], lang)
    answered = {a["checkpoint"]: a["answer"] for a in doc.get("answers", [])}
    questions = [cp.question_json(ev[n], answered=answered.get(n)) for n in (1, 2, 3) if n not in answered]
    return {"pending": True, "round_id": doc["round_id"], "prepared": doc.get("created"), "lang": lang,
            "mode": proposal.mode, "processed": len(proposal.processed_ids), "questions": questions,
            "answered": [a for a in doc.get("answers", [])],
            "answer_syntax": "artibot review --answer 1=accept|reset --answer 2=apply|revert "
                             "--answer 3=auto (or 3.PATTERN=auto|promote|demote|hold)"}


def _proposal_of(h: Home, doc: Mapping[str, Any]) -> RoundProposal:
    try:
        return RoundProposal.from_json(doc["proposal"])
    except ValueError as exc:
        raise CorruptFileError(h.pending_review, str(exc)) from None


def answer_pending(*, home: HomeArg = None, answers: Any, channel: str = "review",
                   settings: Settings | None = None, lock_timeout: float = 5.0,
                   policy: cp.Checkpoints | None = None) -> RoundReport:
    """Answer (some of) the pending round's questions; applies the round once 1 and 2 are answered."""
    h = as_home(home)
    settings = settings or load_settings(h.root)
    given = answers if isinstance(answers, cp.Answers) else cp.parse_answers(answers)
    with FileLock(h.learner_lock, timeout=lock_timeout, holder="another artibot learner"):
        doc = state.read_pending(h)
        if doc is None:
            raise ReviewError("no round is waiting for review; `artibot learn` starts one")
        proposal = _proposal_of(h, doc)
        current = load_thresholds(h, settings)
        if current != proposal.old:
            raise ReviewError(f"the thresholds changed since round {doc['round_id']} was prepared "
                              "(a rollback?); discard it with `artibot review --discard` and run `artibot learn`")
        context = {k: v for k, v in doc.items() if k not in ("proposal", "answers", "schema_version")}
        policy = policy or cp.ScriptedAnswers(given, channel=channel)
        return decide_and_commit(h, settings, proposal, context, policy, given,
                                 list(doc.get("answers", [])), lambda _m: None)


def discard_pending(*, home: HomeArg = None) -> str:
    """Drop the pending round without applying it (logged; its experiences stay unprocessed)."""
    h = as_home(home)
    with FileLock(h.learner_lock, timeout=5.0, holder="another artibot learner"):
        doc = state.read_pending(h)
        if doc is None:
            raise ReviewError("no round is waiting for review")
        proposal = _proposal_of(h, doc)
        _append_learning_log(h, _log_entry(proposal, doc, "discarded", list(doc.get("answers", []))))
        state.clear_pending(h)
        return doc["round_id"]


def prepare_for_review(*, home: HomeArg = None, settings: Settings | None = None,
                       flush: bool = False) -> dict[str, Any]:
    """``artibot review --json --prepare`` (used by /learn): prepare a round if none is pending."""
    h = as_home(home)
    settings = settings or load_settings(h.root)
    if state.read_pending(h) is None:
        try:
            learn(home=h, checkpoints=cp.DeferAnswers(), settings=settings, flush=flush)
        except LockTimeout:
            pass  # a learner is running; show what is there
    return pending_questions(h, settings)
