"""The rounds on disk: ``learning-log.json`` (every round that ended) and
``pending-review.json`` (the one round waiting for a human), as typed records.

A round's identity and inputs travel as a :class:`RoundContext`, its checkpoint answers
as an :class:`AnswerLog` of :class:`AnswerRecord`; each has one codec here, so the
cycle handles values and never a file's dict.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from operator import attrgetter
from pathlib import Path
from typing import Any, Iterable, Mapping, TypeGuard

import orjson

from artibot.errors import CorruptFileError, problem_of
from artibot.learning.types import PatternStats, RoundProposal
from artibot.shapes import LogEntry, RoundEntry
from artibot.store.documents import list_field, read_document, write_document
from artibot.store.fs import check_regular
from artibot.store.home import Home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from artibot.learning.learner_state import LearnerState
    from artibot.store.round.commit import RoundCommit


# --------------------------------------------------------------------- records
@dataclass(frozen=True)
class RoundContext:
    """Who a round is and what it was computed from (stored at the top of a pending review)."""

    round_id: str
    created: str | None = None
    flush: bool = False
    lang: str = "en"
    unprocessed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"round_id": self.round_id, "created": self.created, "flush": self.flush, "lang": self.lang,
                "unprocessed": self.unprocessed}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> RoundContext:
        return cls(round_id=doc["round_id"], created=doc.get("created"), flush=bool(doc.get("flush", False)),
                   lang=doc.get("lang", "en"), unprocessed=doc.get("unprocessed"))



def new_round_id() -> str:
    """Sortable by time (rounds never run concurrently: the learner lock), unique by the random tail."""
    ns = time.time_ns()
    return time.strftime("r%Y%m%d-%H%M%S", time.gmtime(ns / 1e9)) + f"{ns // 1000 % 1_000_000:06d}-{os.urandom(2).hex()}"

@dataclass(frozen=True)
class AnswerRecord:
    """One checkpoint's answer: ``accept``/``reset``, ``apply``/``revert``, or for checkpoint 3
    ``"skip"`` or a mapping of pattern key to action."""

    checkpoint: int
    answer: Any
    channel: str
    at: str

    def to_json(self) -> dict[str, Any]:
        return {"checkpoint": self.checkpoint, "answer": self.answer, "channel": self.channel, "at": self.at}

    @classmethod
    def from_json(cls, doc: Any, where: Path) -> AnswerRecord:
        if not isinstance(doc, Mapping) or doc.get("checkpoint") not in (1, 2, 3) or "answer" not in doc:
            raise CorruptFileError(where, f"an answer must name its checkpoint (1, 2 or 3) and answer, not {doc!r}")
        return cls(doc["checkpoint"], doc["answer"], str(doc.get("channel", "")), str(doc.get("at", "")))


@dataclass
class AnswerLog:
    """The answers given so far, in order; at most one per checkpoint."""

    records: list[AnswerRecord] = field(default_factory=list)

    def answered(self, checkpoint: int) -> bool:
        return any(a.checkpoint == checkpoint for a in self.records)

    def answer(self, checkpoint: int) -> Any:
        """The answer given at ``checkpoint`` (None if not answered yet)."""
        return next((a.answer for a in self.records if a.checkpoint == checkpoint), None)

    def add(self, checkpoint: int, answer: Any, channel: str, at: str) -> None:
        self.records.append(AnswerRecord(checkpoint, answer, channel, at))

    def to_json(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self.records]

    @classmethod
    def from_json(cls, items: Iterable[Any], where: Path) -> AnswerLog:
        return cls([AnswerRecord.from_json(a, where) for a in items])


@dataclass(frozen=True)
class PendingRound:
    """A round prepared and saved for review, with the answers given so far."""

    context: RoundContext
    proposal_json: Mapping[str, Any]
    answers: AnswerLog
    path: Path
    learner_json: Mapping[str, Any] | None = None
    """The learner's own state after the round, as saved (None: saved before it had its own place)."""

    @property
    def round_id(self) -> str:
        return self.context.round_id

    def proposal(self) -> RoundProposal:
        """The saved proposal, decoded on demand (a round over a million records is large).

        A round saved before the learner's state had its own file kept the evidence learner's
        cells among its pattern statistics: they are left out here (:meth:`learned` reads them)."""
        from artibot.hookpath.names import CELL_PREFIX

        try:
            proposal = RoundProposal.from_json(self.proposal_json)
        except ValueError as exc:
            raise CorruptFileError(self.path, problem_of(exc)) from None
        if not any(k.startswith(CELL_PREFIX) for k in (*proposal.patterns_before, *proposal.patterns_after)):
            return proposal
        return replace(proposal, patterns_before=_plain(proposal.patterns_before),
                       patterns_after=_plain(proposal.patterns_after))

    def learned(self) -> LearnerState:
        """The learner's own state if the round is applied: saved beside the proposal, or (a round
        saved before it had its own place) the cells among the proposal's pattern statistics."""
        from artibot.learning.learner_state import EvidenceState, state_from_json

        try:
            if self.learner_json is not None:
                return state_from_json(str(self.learner_json.get("mode")), self.learner_json)
            proposal = RoundProposal.from_json(self.proposal_json)
        except ValueError as exc:
            raise CorruptFileError(self.path, f"learner_state: {exc}") from None
        if proposal.mode == EvidenceState.MODE:
            return EvidenceState.from_legacy(proposal.patterns_after)[0]
        from artibot.learning.learner_state import SeedState

        return SeedState()


def _plain(patterns: Mapping[str, PatternStats]) -> dict[str, PatternStats]:
    from artibot.hookpath.names import CELL_PREFIX

    return {k: v for k, v in patterns.items() if not k.startswith(CELL_PREFIX)}


# --------------------------------------------------------------------- pending review
def _check_pending(doc: dict[str, Any]) -> str | None:
    if not isinstance(doc.get("round_id"), str) or not isinstance(doc.get("proposal"), dict):
        return 'a pending review needs "round_id" and "proposal"'
    if not isinstance(doc.get("answers", []), list):
        return '"answers" must be a list'
    if not isinstance(doc.get("learner_state", {}), dict):
        return '"learner_state" must be an object'
    return None


def read_pending(home: Home) -> dict[str, Any] | None:
    """The pending review as stored (the doctor's check); :func:`load_pending` decodes it."""
    return read_document(home.pending_review, "pending-review", require=_check_pending)


def load_pending(home: Home) -> PendingRound | None:
    doc = read_pending(home)
    if doc is None:
        return None
    return PendingRound(RoundContext.from_json(doc), doc["proposal"],
                        AnswerLog.from_json(doc.get("answers", []), home.pending_review), home.pending_review,
                        doc.get("learner_state"))


def save_pending(home: Home, context: RoundContext, proposal: RoundProposal, answers: AnswerLog,
                 learned: LearnerState) -> None:
    """Save the round for review, with the learner's own state it would leave (``learned``)."""
    home.ensure()
    write_document(home.pending_review, {**context.to_json(), "proposal": proposal.to_json(),
                                         "learner_state": {"mode": learned.MODE, **learned.to_json()},
                                         "answers": answers.to_json()}, "pending-review")


def has_pending(home: Home) -> bool:
    """Whether a round waits for review, without reading it (the hooks ask on every session start)."""
    return check_regular(home.pending_review)


def clear_pending(home: Home, *, into: RoundCommit | None = None) -> None:
    """Remove the pending review (``into``: staged in a round's commit)."""
    if into is not None:
        into.remove(home.pending_review)
    elif home.pending_review.exists():
        home.pending_review.unlink()


# --------------------------------------------------------------------- learning log
def read_learning_log(home: Home) -> list[LogEntry]:
    doc = read_document(home.learning_log, "learning-log", require=list_field("rounds"))
    entries: list[LogEntry] = doc["rounds"] if doc else []
    return entries


def write_learning_log(home: Home, rounds: list[LogEntry], *, into: RoundCommit | None = None) -> None:
    home.ensure()
    write_document(home.learning_log, {"rounds": [_one_row_per_line(r) for r in rounds]}, "learning-log",
                   into=into)


def append_round(home: Home, entry: LogEntry, *, into: RoundCommit | None = None) -> None:
    """Add ``entry`` to the learning log (``into``: staged in a round's commit)."""
    rounds = read_learning_log(home)
    rounds.append(entry)
    write_learning_log(home, rounds, into=into)


def last_round(rounds: list[LogEntry]) -> RoundEntry | None:
    """The latest entry that is a round (not a rollback)."""
    return next((r for r in reversed(rounds) if is_round(r)), None)


def is_round(entry: LogEntry) -> TypeGuard[RoundEntry]:
    """Whether ``entry`` is a round (entries written before ``type`` existed are)."""
    return entry.get("type", "round") == "round"


GROUP_COLUMNS = ["batch", "domain", "size", "complexity_min", "complexity_max", "n1", "k1", "n2", "k2",
                 "s1", "s2", "advantage"]
STEP_COLUMNS = ["batch", "domain", "advantage", "raw_delta", "delta", "old", "new", "clamped", "bounded"]


def round_entry(proposal: RoundProposal, context: RoundContext, status: str, answers: AnswerLog, finished: str,
                *, thresholds_applied: bool | None = None, transfers: dict[str, str] | None = None,
                archive: str | None = None) -> RoundEntry:
    """A round's record in the learning log: inputs, parameters, its tables, answers and outcome;
    an applied round also says what it changed (the keyword arguments)."""
    entry: RoundEntry = {
        "type": "round", "round_id": context.round_id, "status": status, "mode": proposal.mode,
        "prepared": context.created, "finished": finished,
        "inputs": {"unprocessed": context.unprocessed, "processed": len(proposal.processed_ids),
                   "remainder": proposal.remainder, "batches": len(proposal.batches), "flush": context.flush},
        "params": proposal.params.to_json(),
        "groups": {"columns": GROUP_COLUMNS, "rows": _rows(proposal.groups, GROUP_COLUMNS)},
        "steps": {"columns": STEP_COLUMNS, "rows": _rows(proposal.steps, STEP_COLUMNS)},
        "threshold_changes": {d: {"old": o, "new": n} for d, (o, n) in proposal.net_changes().items()},
        "answers": answers.to_json(),
    }
    if thresholds_applied is not None:
        entry["thresholds_applied"] = thresholds_applied
    if transfers is not None:
        entry["transfers"] = transfers
    if archive is not None:
        entry["archive"] = archive
    return entry


def _rows(table: Any, cols: list[str]) -> list[tuple[Any, ...]]:
    """Rows of a columnar table without building a row object each (200k groups per 1M records)."""
    columns = getattr(table, "columns", None)
    if isinstance(columns, Mapping):
        return list(zip(*(columns[c] for c in cols)))
    return list(map(attrgetter(*cols), table))


_TABLES = ("groups", "steps")
_ROW = b"\n" + b" " * 10  # where a row of rounds[i].groups.rows starts in the indented file


def _one_row_per_line(entry: Any) -> Any:
    """``entry`` with its group and step tables written one row per line (the same JSON):
    indented like the rest of the file, a round over a million records would spend a line
    on each of its 2.5 million numbers."""
    if not isinstance(entry, dict):
        return entry
    out = entry
    for name in _TABLES:
        table = entry.get(name)
        if not isinstance(table, dict):
            continue
        rows = table.get("rows")
        if isinstance(rows, (list, tuple)) and rows and {*map(type, rows)} <= {list, tuple}:
            compact = orjson.dumps(rows)[1:-1]
            lines = compact.replace(b"],[", b"]," + _ROW + b"[")
            # Rows are arrays, so "],[" is each boundary between two rows; when a row's strings
            # hold it too (more replacements than boundaries), the table is left as it was.
            if len(lines) - len(compact) == (len(rows) - 1) * len(_ROW):
                if out is entry:
                    out = dict(entry)
                out[name] = {**table, "rows": orjson.Fragment(b"[" + _ROW + lines + b"\n" + b" " * 8 + b"]")}
    return out
