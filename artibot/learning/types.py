"""Value types of a learning round (all immutable; each persisted one has ``to_json``/``from_json``).

``to_json`` returns plain JSON types (dict, list, str, int, float, bool, None) with a
stable key order, so that ``from_json(to_json(x)) == x`` exactly: floats go through JSON
as their shortest round-tripping text. ``from_json`` raises :class:`ValueError` naming
the type and the field when a shape is wrong; the store turns that into a message about
the file.
A proposal keeps its groups and steps as columns (see :mod:`artibot.learning.columns`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from artibot.learning.columns import Batches, Table, check_column, check_fields, get_list, get_object
from artibot.learning.round_params import RoundParams
# The thresholds are the router's parameters: defined (and decoded) beside it, used here.
from artibot.hookpath.router.thresholds import DEFAULT_KEY, Thresholds, domain_label
from artibot.messages import Message

STATUSES = ("candidate", "active", "demoted")
ACTIONS = ("promote", "demote", "hold")


@dataclass(frozen=True)
class GroupResult:
    """One GRPO group: System 1 vs System 2 success shares among similar records."""

    JSON: ClassVar[dict[str, str]] = {
        "batch": "int", "domain": "str", "size": "int", "complexity_min": "float", "complexity_max": "float",
        "n1": "int", "k1": "int", "n2": "int", "k2": "int", "s1": "float?", "s2": "float?", "advantage": "float?"}

    batch: int
    domain: str
    size: int
    complexity_min: float
    complexity_max: float
    n1: int
    k1: int
    n2: int
    k2: int
    s1: float | None
    s2: float | None
    advantage: float | None

    @property
    def one_sided(self) -> bool:
        return self.advantage is None

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.JSON}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GroupResult:
        return cls(**check_fields(d, cls.JSON, "group"))


@dataclass(frozen=True)
class DomainStep:
    """One batch's threshold step for one domain (``"*"``: the default threshold)."""

    JSON: ClassVar[dict[str, str]] = {
        "batch": "int", "domain": "str", "advantage": "float?", "raw_delta": "float", "delta": "float",
        "old": "float", "new": "float", "clamped": "bool", "bounded": "bool"}

    batch: int
    domain: str
    advantage: float | None
    raw_delta: float
    delta: float
    old: float
    new: float
    clamped: bool
    bounded: bool

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.JSON}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> DomainStep:
        return cls(**check_fields(d, cls.JSON, "step"))


@dataclass(frozen=True)
class PatternStats:
    """Per-pattern evidence: status, both streaks, counts and summed confidence."""

    JSON: ClassVar[dict[str, str]] = {
        "key": "str", "status": "str", "promotion_streak": "int", "demotion_streak": "int", "n": "int",
        "n1": "int", "k1": "int", "n2": "int", "k2": "int", "confidence_sum": "float",
        "first_seen": "str?", "last_seen": "str?"}

    key: str
    status: str = "candidate"
    promotion_streak: int = 0
    demotion_streak: int = 0
    n: int = 0
    n1: int = 0
    k1: int = 0
    n2: int = 0
    k2: int = 0
    confidence_sum: float = 0.0
    first_seen: str | None = None
    last_seen: str | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(Message("value.one_of", key=f"pattern {self.key!r}: status",
                                     options=", ".join(STATUSES), value=repr(self.status)))

    @property
    def confidence(self) -> float:
        """Running mean of the records' confidence (0.0 before any record)."""
        return self.confidence_sum / self.n if self.n else 0.0

    def to_json(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in self.JSON}
        out["confidence"] = self.confidence  # derived, for readers of the files; ignored by from_json
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PatternStats:
        what = f"pattern {d.get('key')!r}" if isinstance(d, Mapping) else "pattern"
        return cls(**check_fields(d, cls.JSON, what))


@dataclass(frozen=True)
class TransferDecision:
    """An automatic promote / demote / hold decision with its reason and evidence.

    ``code`` names the rule that decided (``promote``, ``demote_streak``,
    ``demote_confidence``, ``hold_streak``, ``hold_confidence``, ``hold_active``);
    ``message`` is the reason to be said in any language and ``reason`` its English sentence
    (a round's files and JSON keep it). A decision read from a round saved before messages
    were kept has no ``message``: its English ``reason`` is all there is.
    """

    key: str
    action: str
    reason: str
    stats: PatternStats
    code: str = ""
    message: Message | None = None

    @classmethod
    def said(cls, stats: PatternStats, action: str, message: Message, code: str) -> TransferDecision:
        """The decision on ``stats`` with its reason as ``message`` (and its English sentence)."""
        return cls(stats.key, action, str(message), stats, code, message)

    def to_json(self) -> dict[str, Any]:
        out = {"key": self.key, "action": self.action, "reason": self.reason, "code": self.code,
               "stats": self.stats.to_json()}
        if self.message is not None:
            out["message"] = self.message.to_json()
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> TransferDecision:
        spec = {"key": "str", "action": "str", "reason": "str", "code": "str"}
        values = check_fields(d, spec, "decision")
        if values["action"] not in ACTIONS:
            raise ValueError(Message("value.one_of", key="decision: action", options=", ".join(ACTIONS),
                                     value=repr(values["action"])))
        said = d.get("message")
        message = Message.from_json(said) if said is not None else None
        return cls(stats=PatternStats.from_json(get_object(d, "stats", "decision")), message=message, **values)


def _stats_map(items: Mapping[str, PatternStats]) -> dict[str, PatternStats]:
    return {k: items[k] for k in sorted(items)}


@dataclass(frozen=True)
class RoundProposal:
    """Everything one round of the learner proposes, before any checkpoint answer.

    ``batches`` and ``steps`` accept plain tuples and are kept as :class:`Batches` and
    :class:`Table` (sequences that compare equal to the tuples). ``params`` records the
    settings the round was computed with, its price, the evidence behind its steps and what
    was checked around it (:class:`~artibot.learning.round_params.RoundParams`), so that a
    stored proposal explains itself.
    """

    mode: str
    batches: Batches
    steps: Table[DomainStep]
    old: Thresholds
    new: Thresholds
    processed_ids: tuple[str, ...]
    remainder: int
    patterns_before: Mapping[str, PatternStats]
    patterns_after: Mapping[str, PatternStats]
    decisions: tuple[TransferDecision, ...]
    params: RoundParams = field(default_factory=RoundParams)

    __hash__ = None  # type: ignore[assignment]  # holds mappings; compare, don't hash

    def __post_init__(self) -> None:
        if not isinstance(self.batches, Batches):
            object.__setattr__(self, "batches", Batches.of(GroupResult, self.batches))
        if not isinstance(self.steps, Table):
            object.__setattr__(self, "steps", Table.of(DomainStep, self.steps))
        object.__setattr__(self, "processed_ids", tuple(self.processed_ids))
        object.__setattr__(self, "decisions", tuple(self.decisions))
        object.__setattr__(self, "patterns_before", _stats_map(self.patterns_before))
        object.__setattr__(self, "patterns_after", _stats_map(self.patterns_after))

    @property
    def groups(self) -> Table[GroupResult]:
        """All groups of all batches, in order."""
        return self.batches.groups

    def net_changes(self) -> dict[str, tuple[float, float]]:
        """``domain -> (old, new)`` for the default (``"*"``) and every domain stepped this round.

        ``old`` is what routing used before the round: for a domain first learned in this
        round, that is the old default. Listed ``"*"`` first, then domains by name.
        """
        stepped = set(self.steps.columns["domain"])
        out: dict[str, tuple[float, float]] = {}
        if DEFAULT_KEY in stepped:
            out[DEFAULT_KEY] = (self.old.default, self.new.default)
        for name in sorted(stepped - {DEFAULT_KEY}):
            out[name] = (self.old.for_domain(name), self.new.for_domain(name))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "params": self.params.to_json(),
            "old": self.old.to_json(),
            "new": self.new.to_json(),
            "processed_ids": list(self.processed_ids),
            "remainder": self.remainder,
            "batches": self.batches.to_json(),
            "steps": self.steps.to_json(),
            "patterns_before": [p.to_json() for p in self.patterns_before.values()],
            "patterns_after": [p.to_json() for p in self.patterns_after.values()],
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RoundProposal:
        w = "round proposal"
        scalars = check_fields(d, {"mode": "str", "remainder": "int"}, w)

        def stats(name: str) -> dict[str, PatternStats]:
            items = [PatternStats.from_json(p) for p in get_list(d, name, w)]
            return {p.key: p for p in items}

        return cls(
            batches=Batches.from_json(GroupResult, get_list(d, "batches", w), f"{w}.batches"),
            steps=Table.from_json(DomainStep, get_list(d, "steps", w), f"{w}.steps"),
            old=Thresholds.from_json(get_object(d, "old", w)),
            new=Thresholds.from_json(get_object(d, "new", w)),
            processed_ids=tuple(check_column("str", get_list(d, "processed_ids", w), f"{w}.processed_ids")),
            patterns_before=stats("patterns_before"),
            patterns_after=stats("patterns_after"),
            decisions=tuple(TransferDecision.from_json(x) for x in get_list(d, "decisions", w)),
            params=RoundParams.from_json(get_object(d, "params", w)),
            **scalars,
        )


__all__ = ["ACTIONS", "DEFAULT_KEY", "domain_label", "STATUSES", "Batches", "DomainStep", "GroupResult", "PatternStats",
           "RoundProposal", "Table", "Thresholds", "TransferDecision"]
