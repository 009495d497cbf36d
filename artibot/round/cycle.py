"""One learning cycle, steps 1–6, with the three human checkpoints.

load (the agents' waiting turns settled first) → batch → compare (checkpoint 1) → update thresholds (checkpoint 2) → transfer
(checkpoint 3) → persist. This module only orchestrates: the math is in
:mod:`artibot.learning` (pure); files are in :mod:`artibot.store`; the questions are put
to a :class:`~artibot.round.checkpoints.Checkpoints` object; a round waiting for a human is
served by :mod:`artibot.round.review`. A learner lock makes sure two cycles never run at once.
"""

from __future__ import annotations

import contextlib
import gc
import logging
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from artibot.round import checkpoints as cp
from artibot.round.checkpoints import final_actions
from artibot.round import checks as round_checks
from artibot.round.checkpoint_texts import direction
from artibot.config import load_settings
from artibot.errors import CorruptFileError, ReviewError
from artibot.messages import Message
from artibot.learning.types import RoundProposal
from artibot.reports.costs import TurnCosts
from artibot.learning.route_costs import MeasuredPrice
from artibot.learning.objective import RouteCosts
from artibot.learning.round_params import JSONObject
from artibot.shapes import JsonValue
from artibot.learning.types import domain_label
from artibot.config.settings import Settings
from artibot.store.learned import learner_state as learner_store
from artibot.store.learned import pattern_stats as pattern_store
from artibot.store.learned.learner_state import load_learner_state
from artibot.store.round import rounds
from artibot.store.round import snapshots
from artibot.store.round.commit import RoundCommit
from artibot.store.learned import system1_cache as cache
from artibot.store.log.experiences import ExperienceLog, LogRead
from artibot.store.fs import FileLock
from artibot.store.home import Home, HomeArg
from artibot.store.round.rounds import AnswerLog, RoundContext, new_round_id
from artibot.store.learned.thresholds_file import load_thresholds, write_thresholds

# The round's arithmetic (numpy, and scipy's distributions) is imported where a round is
# computed: a `learn` with fewer experiences than a batch, a `review` with nothing waiting and
# `status` never load it, and it is most of what those commands would otherwise cost.
if TYPE_CHECKING:
    from artibot.learning.frame import Frame
    from artibot.learning.learner import Learned, RoundOptions
    from artibot.learning.learner_state import LearnerState

log = logging.getLogger(__name__)

Progress = Callable[[Message], None]
"""Told each step of a long round: a :class:`~artibot.messages.Message`, whose ``str()`` is the English line."""


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (if it runs) for the block.

    Reading a million records makes a tuple per record and lists of a million items, a
    round makes tables of a few hundred thousand rows: none of them in a reference cycle,
    but each full collection walks them all again (a fifth of building a frame). Whatever
    becomes garbage is still freed at once by reference counting. It lives here, at the
    edge that runs a round, because the switch is the whole process's: the pure learning
    code never touches it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class RoundStatus(StrEnum):
    """How a cycle ended (its report's ``status``; compares equal to the plain string)."""

    PROPOSED = "proposed"  # computed, not yet through the checkpoints (never returned)
    APPLIED = "applied"
    DEFERRED = "deferred"  # saved for review: a checkpoint needs a human
    RESET = "reset"  # checkpoint 1 answered Reset: nothing applied
    NOTHING = "nothing"  # fewer experiences than a batch
    DRY_RUN = "dry-run"
    PENDING = "pending"  # a round already waits for review


@dataclass
class RoundReport:
    """What a cycle did."""

    status: RoundStatus
    round_id: str | None = None
    mode: str = "seed"
    processed: int = 0
    remainder: int = 0
    batches: int = 0
    threshold_changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    transfers: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    message: str = ""
    """The closing line in English (``--json`` carries it); :attr:`said` is the same line to be
    said in the session's language."""
    proposal: RoundProposal | None = None
    evidence: cp.EvidenceSet | None = None
    said: Message | None = None

    def __post_init__(self) -> None:
        if self.said is not None and not self.message:
            self.message = str(self.said)

    def tell(self, said: Message) -> None:
        """The closing line: ``said``, and its English sentence as :attr:`message`."""
        self.said, self.message = said, str(said)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value, "round_id": self.round_id, "mode": self.mode,
            "processed": self.processed, "remainder": self.remainder, "batches": self.batches,
            "threshold_changes": self.threshold_changes, "transfers": self.transfers,
            "answers": self.answers, "message": self.message,
        }


def propose_frame(frame: Frame, state: Learned, settings: Settings,
                  options: RoundOptions) -> tuple[RoundProposal, Learned]:
    """Steps 2–6 as a proposal by the configured mode's learner, and what it would know after."""
    from artibot.learning.learner import learner_for

    return learner_for(settings.lifelong.mode).propose(frame, state, settings, options)


# --------------------------------------------------------------------- the cycle
def load_round_modules(mode: str) -> None:
    """Import what computing and committing a round needs (numpy, scipy's distributions, the
    mode's learner), a Ctrl-C meanwhile kept until they are loaded (:mod:`artibot.interrupts`):
    they are imported on first use, in the middle of a command. Cheap once loaded."""
    from importlib import import_module

    from artibot.interrupts import deferred

    with deferred():
        for name in ("artibot.learning.frame", "artibot.learning.learner", "artibot.learning.seed_mode",
                     "artibot.team.prior"):
            import_module(name)
        from artibot.learning.learner import learner_for

        learner_for(mode)


def _settle_waiting_turns(h: Home) -> None:
    """Step 1 starts with the agents' turns that wait in their session spools past their
    judging time (a session that ended, one idle too long): they join the log, so that the
    round sees them, whoever runs it (``learn``, ``/learn``, the detached learner, the API).
    Problems go to the hooks' log; the round goes on without those turns."""
    from artibot.hookpath.turns.call import settle_waiting_turns

    settle_waiting_turns(str(h.root))


def learn(*, home: HomeArg = None, answers: cp.AnswersArg = "defaults", checkpoints: cp.Checkpoints | None = None,
          flush: bool = False, dry_run: bool = False, settings: Settings | None = None,
          lock_timeout: float = 5.0, progress: Progress | None = None) -> RoundReport:
    """Run one learning cycle and return its report.

    ``checkpoints`` answers the three questions. Without it, ``answers`` says who does
    (the values ``/learn`` and scripts pass): ``"defaults"`` (pre-approved), ``"defer"`` (prepare and save for review),
    ``"unattended"`` (as ``learning.checkpoints.unattended`` says) or a mapping such as
    ``{1: "accept", 2: "apply", 3: "auto"}``.
    """
    h = Home.of(home)
    settings = settings or load_settings(h.root)
    policy = checkpoints or cp.policy_for(answers, settings)
    say = progress or (lambda _msg: None)
    h.ensure()
    with FileLock(h.learner_lock, timeout=lock_timeout, holder="another artibot learner"):
        if not dry_run:
            _settle_waiting_turns(h)
        from artibot.round.rollback import recover_interrupted

        recovered = [] if dry_run else recover_interrupted(h)
        pending = rounds.load_pending(h)
        if pending is not None:
            if dry_run:
                return RoundReport(RoundStatus.PENDING, pending.round_id, said=Message("round.waiting"))
            if isinstance(policy, cp.DeferAnswers):
                return RoundReport(RoundStatus.PENDING, pending.round_id, said=Message("round.already_waiting"))
            raise ReviewError(Message("round.waiting_answer", round=pending.round_id))
        say(Message("progress.loading"))
        # Fewer experiences than a batch (and no --flush) make no round whatever they hold: they
        # are read and checked (a bad record still raises) without the round's arithmetic.
        small = _too_few(h, settings, flush)
        # The bytes read stay (and the log stays open) for the archive move at the end; the
        # garbage collector waits: the round's big, acyclic tables would only be walked again.
        with ExperienceLog(h).open_read() as source, collector_paused():
            if small:
                records: list[dict[str, Any]] | None = source.records()
                assert records is not None
                if not _round_possible(len(records), settings, flush):
                    return _nothing(len(records), settings, recovered, flush)
            # the turns' costs (evidence mode's measured price) come from the same read of the log
            turns = TurnCosts.of_archive(h) if settings.lifelong.mode == "evidence" else None
            if small:
                assert records is not None
                if turns is not None:
                    turns.add(records)
                frame, order = None, None
            else:
                load_round_modules(settings.lifelong.mode)
                frame, order, records = _read_frame(source, turns)
            return _compute(h, settings, policy, say, source, frame, order, records, turns,
                            flush=flush, dry_run=dry_run, recovered=recovered)


def _round_possible(waiting: int, settings: Settings, flush: bool) -> bool:
    """Whether ``waiting`` unprocessed experiences can make a round (a full batch, or any with
    ``flush``): exactly when the learners' batch plan processes one."""
    return waiting >= settings.lifelong.batch_size or (flush and waiting > 0)


def _too_few(h: Home, settings: Settings, flush: bool) -> bool:
    """Whether the log's lines, counted without parsing them, say no round can come of it. The
    count is a guess the caller checks (a writer may append meanwhile, another layout holds
    more records on a line); a log it cannot count (another layout) takes the usual path,
    which reads it or says what is wrong with it."""
    try:
        return not _round_possible(ExperienceLog(h).count(), settings, flush)
    except CorruptFileError:
        return False


def _nothing_to_learn(unprocessed: int, batch_size: int, flush: bool) -> Message:
    """Why a round processed nothing, and the way on that exists (never a ``--flush`` that
    was given already, or one with nothing to process)."""
    if not unprocessed:
        return Message("round.nothing_none")
    if flush:
        return Message("round.nothing_flush", n=unprocessed)
    return Message("round.nothing_batch", n=unprocessed, size=batch_size)


def _nothing(unprocessed: int, settings: Settings, recovered: Sequence[str], flush: bool) -> RoundReport:
    said = _nothing_to_learn(unprocessed, settings.lifelong.batch_size, flush)
    if recovered:
        said = Message("round.recovered", nothing=said, rounds=", ".join(recovered))
    return RoundReport(RoundStatus.NOTHING, None, mode=settings.lifelong.mode, remainder=unprocessed, said=said)


def _compute(h: Home, settings: Settings, policy: cp.Checkpoints, say: Progress, source: LogRead,
             frame: Frame | None, order: Any, records: list[dict[str, Any]] | None, turns: TurnCosts | None, *,
             flush: bool, dry_run: bool, recovered: Sequence[str]) -> RoundReport:
    """Steps 2–6 over the log as read, then the checkpoints and the commit (under the caller's lock)."""
    load_round_modules(settings.lifelong.mode)
    from artibot.learning.frame import frame_from_records, set_aside_interrupted
    from artibot.learning.learner import Learned, RoundOptions
    from artibot.team.prior import with_team_patterns, with_team_prior  # the cached team state; no database

    if records is not None:
        frame = frame_from_records(records)  # raises here, as it always did, for records not validated
    assert frame is not None  # _read_frame gives the frame or the records to build it from
    learned = Learned(load_thresholds(h, settings.router.threshold),
                      with_team_patterns(h, pattern_store.load_pattern_stats(h), frame.patterns),
                      with_team_prior(h, load_learner_state(h, settings.lifelong.mode)))
    full = frame
    frame, kept, aside = set_aside_interrupted(full)
    say(Message("progress.computing", n=len(frame)))
    measured, costs, route_costs = _measured_costs(turns, settings)
    proposal, after = propose_frame(frame, learned, settings, RoundOptions(flush, measured, route_costs))
    if costs is not None:
        proposal = replace(proposal, params=proposal.params.with_checks(costs=costs))
    if proposal.processed_ids:  # off-policy estimate, window counts, stale patterns
        proposal = round_checks.annotate(h, frame, proposal, settings)
    unprocessed = len(full)
    rows = None
    if len(aside) and proposal.processed_ids:
        proposal, rows = _with_interrupted(proposal, full, kept, aside)
    del frame, full
    if not proposal.processed_ids:
        report = _nothing(unprocessed, settings, recovered, flush)
        report.mode = proposal.mode
        return report
    context = RoundContext(new_round_id(), _now(), flush, settings.lang, unprocessed)
    report = _report(proposal, context)
    if dry_run:
        report.status = RoundStatus.DRY_RUN
        report.tell(Message("round.dry_run"))
        return report
    k = len(proposal.processed_ids)
    if records is not None:
        positions: Sequence[int] = _positions(records, proposal.processed_ids)
        del records
    elif rows is not None:
        positions = [int(order[r]) if order is not None else int(r) for r in rows]
    else:
        positions = range(k) if order is None else order[:k]
    return decide_and_commit(h, settings, proposal, after.own, context, policy, AnswerLog(), say,
                             positions=positions, report=report, source=source)


def _with_interrupted(proposal: RoundProposal, full: Frame, kept: Any, aside: Any) -> tuple[RoundProposal, list[int]]:
    """The proposal with the interrupted records among its batches added to what it processes
    (archived with them, scored by nobody), and the rows of ``full`` it now processes."""
    k = len(proposal.processed_ids)
    last = int(kept[k - 1])
    extra = [int(r) for r in aside if proposal.remainder == 0 or int(r) < last]
    rows = sorted([int(r) for r in kept[:k]] + extra)
    params = proposal.params.with_checks(interrupted=len(extra))
    return replace(proposal, processed_ids=tuple(full.ids[r] for r in rows), params=params), rows


def _measured_costs(turns: TurnCosts | None, settings: Settings
                    ) -> tuple[MeasuredPrice | None, JSONObject | None, RouteCosts | None]:
    """From the measured turn costs: the success objective's price (when ``successValueUsd`` is
    set and enough turns were measured), the cost per route shown beside the price, and the cost
    objective's inputs (the price table's prior where nothing is measured). None: a mode without
    a price, or (the first two) nothing measured."""
    if turns is None:
        return None, None, None
    from artibot.learning.route_costs import measured_price
    from artibot.learning.objective import route_costs

    report = turns.report()
    per_route = route_costs(settings, {r: (c.turns, c.mean) for r, c in report.routes.items()})
    if not any(r.turns for r in report.routes.values()):
        return None, None, per_route
    value = settings.lifelong.success_value_usd
    measured = None if value is None else measured_price(report, value_usd=value,
                                                          min_turns=settings.lifelong.min_cost_turns)
    return measured, {r: dict[str, JsonValue](c.to_json()) for r, c in report.routes.items()}, per_route


def _read_frame(source: LogRead, turns: TurnCosts | None = None
                ) -> tuple[Frame | None, Any, list[dict[str, Any]] | None]:
    """``(frame, order, None)`` from the log's canonical records, parsed a few hundred at a time;
    ``(None, None, records)`` when some record is unusual: the caller then takes the exact
    (slower) path of :func:`frame_from_records`, which also explains any invalid record.
    ``turns`` is given each record as it is read (the round's one read of the log)."""
    from artibot.learning.frame import frame_from_chunks

    try:
        frame, order = frame_from_chunks(_tapped(source.chunks(), turns))
    except (ValueError, TypeError):
        return None, None, _read_whole(source, turns)  # a damaged log raises CorruptFileError here, as read() does
    if len(frame.ids) and not _in_schema(frame):
        return None, None, _read_whole(source, turns)  # a value of the right type out of range: this names its line
    return frame, order, None


def _tapped(chunks: Iterator[list[dict[str, Any]]], turns: TurnCosts | None) -> Iterator[list[dict[str, Any]]]:
    for chunk in chunks:
        if turns is not None:
            turns.add(chunk)
        yield chunk


def _read_whole(source: LogRead, turns: TurnCosts | None) -> list[dict[str, Any]]:
    records = source.records()
    if turns is not None:
        turns.restart()
        turns.add(records)
    return records


def _in_schema(frame: Frame) -> bool:
    """Whether the learned columns hold only values the schema allows (a hand-edited record
    can have the right types and still be out of range); vectorized, so the fast path stays fast."""
    unit = all(float(col.min()) >= 0 and float(col.max()) <= 1 for col in (frame.complexity, frame.confidence))
    p = frame.propensity[~(frame.propensity != frame.propensity)]  # NaN: the record had none
    return unit and not (len(p) and (float(p.min()) <= 0 or float(p.max()) > 1))


def _positions(records: list[dict[str, Any]], ids: tuple[str, ...]) -> list[int]:
    """Each processed record's index in the log as read (usually simply 0..k-1: the log is in time order)."""
    if all(records[i].get("id") == rid for i, rid in enumerate(ids)):
        return list(range(len(ids)))
    index = {r.get("id"): i for i, r in enumerate(records)}
    return [index[rid] for rid in ids]


def _report(proposal: RoundProposal, context: RoundContext) -> RoundReport:
    changes = {
        domain_label(d): {"old": old, "new": new, "direction": direction(old, new, "en")}
        for d, (old, new) in proposal.net_changes().items()
    }
    transfers = [{"key": d.key, "automatic": d.action, "final": d.action, "reason": d.reason}
                 for d in proposal.decisions]
    return RoundReport(RoundStatus.PROPOSED, context.round_id, mode=proposal.mode,
                       processed=len(proposal.processed_ids), remainder=proposal.remainder,
                       # the batches of batchSize the round processed (evidence mode fits them as one table)
                       batches=proposal.params.batches or len(proposal.batches),
                       threshold_changes=changes, transfers=transfers,
                       proposal=proposal, evidence=cp.all_evidence(proposal, context.round_id, context.lang))


def decide_and_commit(h: Home, settings: Settings, proposal: RoundProposal, own: LearnerState,
                      context: RoundContext, policy: cp.Checkpoints, answers: AnswerLog, say: Progress, *,
                      positions: Sequence[int] | None = None, report: RoundReport | None = None,
                      source: LogRead | None = None) -> RoundReport:
    """Ask the checkpoints still open in ``answers``, then persist (or defer, or end on Reset);
    ``own``: the learner's own state after the round, persisted with it."""
    report = report or _report(proposal, context)
    ev = report.evidence
    assert ev is not None
    try:
        if not answers.answered(1):
            answers.add(1, policy.groups(ev[1]), policy.channel, _now())
        if answers.answer(1) == "reset":
            files = RoundCommit(h)
            rounds.append_round(h, rounds.round_entry(proposal, context, "reset", answers, _now()), into=files)
            rounds.clear_pending(h, into=files)
            files.run()
            report.status, report.answers = RoundStatus.RESET, answers.to_json()
            report.tell(Message("round.reset"))
            return report
        if not answers.answered(2):
            answers.add(2, policy.thresholds(ev[2]), policy.channel, _now())
        if not answers.answered(3):
            actions = policy.transfers(ev[3])
            answers.add(3, dict(actions) if actions is not None else "skip", policy.channel, _now())
    except cp.Deferred as deferred:
        rounds.save_pending(h, context, proposal, answers, own)
        report.status, report.answers = RoundStatus.DEFERRED, answers.to_json()
        report.tell(Message("round.deferred", round=context.round_id, n=deferred.checkpoint))
        return report
    apply_thresholds = answers.answer(2) == "apply"
    final = final_actions(proposal, answers.answer(3))
    say(Message("progress.writing"))
    commit(h, settings, proposal, own, context, answers, apply_thresholds, final, positions=positions,
           source=source)
    report.status, report.answers = RoundStatus.APPLIED, answers.to_json()
    for item in report.transfers:
        item["final"] = final.get(item["key"], item["automatic"])
    for change in report.threshold_changes.values():
        change["applied"] = apply_thresholds
    moved = sum(1 for c in report.threshold_changes.values() if abs(c["new"] - c["old"]) > 1e-12)
    thresholds = (Message("round.thresholds_reverted") if not apply_thresholds
                  else _count("round.thresholds_changed", moved) if moved else Message("round.thresholds_same"))
    report.tell(Message("round.applied", round=context.round_id,
                        processed=_count("round.experiences", report.processed),
                        batches=_count("round.batches", report.batches), thresholds=thresholds))
    return report


def _count(id: str, n: int) -> Message:
    """``n`` things: the catalogue's ``<id>.one`` for one, ``<id>.many`` otherwise (English plurals)."""
    return Message(f"{id}.{'one' if n == 1 else 'many'}", n=n)


# --------------------------------------------------------------------- persistence
def commit(h: Home, settings: Settings, proposal: RoundProposal, own: LearnerState, context: RoundContext,
           answers: AnswerLog, apply_thresholds: bool, final: Mapping[str, str], *,
           positions: Sequence[int] | None = None, source: LogRead | None = None) -> None:
    """Step 7: snapshot, archive the processed records, then every file the round changes in
    one commit (:class:`~artibot.store.round.commit.RoundCommit`): thresholds, patterns, the
    learner's own state, the System 1 cache, the logs, and the snapshot marked ``applied``.

    The snapshot's manifest says ``applying`` until the commit: a crash before it is rolled
    back by the next cycle (:func:`artibot.round.rollback.recover_interrupted`), one after it
    is finished by the commit's own recovery.
    """
    round_id = context.round_id
    now = _now()
    snapshots.take(h, round_id, {"mode": proposal.mode})
    load_round_modules(settings.lifelong.mode)
    from artibot.learning.seed_mode import apply_decisions

    stats = apply_decisions(proposal.patterns_after, final)
    ExperienceLog(h).move_to_archive(proposal.processed_ids, round_id,
                                     {"round_id": round_id, "archived": now}, positions=positions,
                                     source=source)
    files = RoundCommit(h)
    if apply_thresholds:
        write_thresholds(h, proposal.new, updated=now, round_id=round_id, into=files)
    learner_store.migrate(h, into=files)  # an older home's cells leave the pattern stats for their own file
    pattern_store.write_pattern_stats(h, stats, into=files)
    learner_store.write_learner_state(h, own, into=files)
    cache.update_cache(h, final, stats, round_id, now, freshness=round_checks.freshness_updates(proposal, final),
                       into=files)
    pattern_store.log_transfers(h, final, proposal.decisions, stats, round_id, now, into=files)
    rounds.append_round(h, rounds.round_entry(proposal, context, "applied", answers, _now(),
                                              thresholds_applied=apply_thresholds,
                                              transfers={k: final[k] for k in sorted(final)},
                                              archive=f"archive/{round_id}.json"), into=files)
    rounds.clear_pending(h, into=files)
    snapshots.mark(h, round_id, "applied", into=files)
    files.run()
