"""A round waiting for a human (``artibot review``, /learn in Claude Code): show its open
questions, answer some or all of them, or discard it.

The round itself was computed by :func:`artibot.round.cycle.learn` and saved by the store
(:mod:`artibot.store.round.rounds`); answering it finishes it through the same
:func:`~artibot.round.cycle.decide_and_commit` a terminal run uses.
"""

from __future__ import annotations

from typing import Any

from artibot.round import checkpoints as cp
from artibot.store.home import Home, HomeArg
from artibot.config import load_settings
from artibot.config.settings import Settings
from artibot.round.cycle import RoundReport, _now, decide_and_commit, learn
from artibot.errors import LockTimeout, ReviewError
from artibot.messages import Message
from artibot.store.round import rounds
from artibot.store.round.commit import RoundCommit
from artibot.store.log.experiences import ExperienceLog
from artibot.round.rollback import recover_interrupted
from artibot.store.fs import FileLock
from artibot.store.learned.thresholds_file import load_thresholds

ANSWER_SYNTAX = ("artibot review --answer 1=accept|reset --answer 2=apply|revert "
                 "--answer 3=auto (or 3.PATTERN=auto|promote|demote|hold)")


def nothing_waiting(count: int, size: int) -> Message:
    """``review``'s line when no round waits: the unprocessed experiences and how near a round is."""
    if count >= size:
        return Message("review.none_ready", n=count, full=count // size)
    return Message("review.none_collecting", n=count, have=count, size=size)


def pending_questions(home: HomeArg = None, settings: Settings | None = None) -> dict[str, Any]:
    """``artibot review --json``: the open questions of the pending round, or ``{"pending": false}``."""
    h = Home.of(home)
    pending = rounds.load_pending(h)
    if pending is None:
        count = ExperienceLog(h).count()
        settings = settings or load_settings(h.root)
        size = settings.lifelong.batch_size
        return {"pending": False, "unprocessed": count, "batch_size": size, "full_batches": count // size,
                "message": str(nothing_waiting(count, size))}
    proposal = pending.proposal()
    lang = pending.context.lang
    ev = cp.all_evidence(proposal, pending.round_id, lang)
    questions = [cp.question_json(ev[n]) for n in (1, 2, 3) if not pending.answers.answered(n)]
    return {"pending": True, "round_id": pending.round_id, "prepared": pending.context.created, "lang": lang,
            "mode": proposal.mode, "processed": len(proposal.processed_ids), "questions": questions,
            "answered": pending.answers.to_json(), "answer_syntax": ANSWER_SYNTAX}


def open_evidence(home: HomeArg = None) -> tuple[str, str, list[cp.Evidence]] | None:
    """The pending round's id, language and the evidence of each question still open (the
    screens ``learn`` shows), or None when no round waits."""
    h = Home.of(home)
    pending = rounds.load_pending(h)
    if pending is None:
        return None
    ev = cp.all_evidence(pending.proposal(), pending.round_id, pending.context.lang)
    return pending.round_id, pending.context.lang, [ev[n] for n in (1, 2, 3) if not pending.answers.answered(n)]


def all_open_evidence(home: HomeArg = None) -> cp.EvidenceSet | None:
    """The pending round's evidence of every checkpoint (answered or not: ``--question N``
    shows any), or None when no round waits."""
    pending = rounds.load_pending(Home.of(home))
    if pending is None:
        return None
    return cp.all_evidence(pending.proposal(), pending.round_id, pending.context.lang)


def pending_round(home: HomeArg = None) -> str | None:
    """The id of the round waiting for review, or None."""
    pending = rounds.load_pending(Home.of(home))
    return pending.round_id if pending is not None else None


def answer_pending(*, home: HomeArg = None, answers: cp.AnswersArg | None = None, channel: str = "review",
                   settings: Settings | None = None, lock_timeout: float = 5.0,
                   policy: cp.Checkpoints | None = None) -> RoundReport:
    """Answer (some of) the pending round's questions; applies the round once 1 and 2 are answered.

    ``policy`` asks the open questions (a terminal); without it, ``answers`` are the
    answers given in advance (``["1=accept", "3.KEY=hold"]`` or a mapping).
    """
    h = Home.of(home)
    settings = settings or load_settings(h.root)
    if policy is None:
        policy = cp.policy_for(answers if answers is not None else cp.Answers(), settings, channel=channel)
    with FileLock(h.learner_lock, timeout=lock_timeout, holder="another artibot learner"):
        recover_interrupted(h)  # a rollback killed mid-way is finished before anything is decided
        pending = rounds.load_pending(h)
        if pending is None:
            raise ReviewError(Message("review.none_start"))
        proposal = pending.proposal()
        if load_thresholds(h, settings.router.threshold) != proposal.old:
            raise ReviewError(Message("review.thresholds_changed", round=pending.round_id))
        return decide_and_commit(h, settings, proposal, pending.learned(), pending.context, policy, pending.answers,
                                 lambda _m: None)


def discard_pending(*, home: HomeArg = None) -> str:
    """Drop the pending round without applying it (logged; its experiences stay unprocessed)."""
    h = Home.of(home)
    with FileLock(h.learner_lock, timeout=5.0, holder="another artibot learner"):
        recover_interrupted(h)
        pending = rounds.load_pending(h)
        if pending is None:
            raise ReviewError(Message("review.none_waiting"))
        files = RoundCommit(h)
        rounds.append_round(h, rounds.round_entry(pending.proposal(), pending.context, "discarded",
                                                  pending.answers, _now()), into=files)
        rounds.clear_pending(h, into=files)
        files.run()
        return pending.round_id


def prepare_for_review(*, home: HomeArg = None, settings: Settings | None = None,
                       flush: bool = False) -> dict[str, Any]:
    """``artibot review --json --prepare`` (used by /learn): prepare a round if none is pending."""
    h = Home.of(home)
    settings = settings or load_settings(h.root)
    if rounds.read_pending(h) is None:
        try:
            learn(home=h, checkpoints=cp.DeferAnswers(), settings=settings, flush=flush)
        except LockTimeout:
            pass  # a learner is running; show what is there
    return pending_questions(h, settings)
