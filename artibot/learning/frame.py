"""A columnar, timestamp-ordered view of experience records for the vectorized learners.

:func:`frame_from_records` pulls each field out of the records once, codes domains and
patterns as integers (codes follow the sorted names, so sorting by code is sorting by
name), parses the timestamps and sorts everything by time (stable: records with the
same instant keep their input order). :func:`frame_from_chunks` builds the same frame
from records that arrive a few hundred at a time (the learner parses its log that way),
reading each batch's fields while it is still in the CPU cache, and says where each
frame row came from. Timestamps are parsed by :mod:`artibot.learning.timestamps`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, fields
from itertools import count
from operator import itemgetter
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from artibot.learning.timestamps import parse_timestamps
from artibot.shapes import EXPERIENCE_FIELDS

OUTCOME_CODES = {"success": 0, "escalated": 1, "failed": 2, "interrupted": 3}
SUCCESS, ESCALATED, FAILED, INTERRUPTED = 0, 1, 2, 3

_ARRAYS = {
    "ts": np.float64, "domain": np.int32, "complexity": np.float64, "system2": np.bool_,
    "success": np.bool_, "outcome": np.int8, "confidence": np.float64, "pattern": np.int32,
    "propensity": np.float64,
}


@dataclass(frozen=True, eq=False)
class Frame:
    """Records as columns, sorted by timestamp. Arrays are read-only views.

    ``domain`` indexes ``domains``; ``pattern`` indexes ``patterns`` (-1: no pattern);
    ``propensity`` is NaN where the record had none.
    """

    ids: tuple[str, ...]
    ts: np.ndarray
    timestamps: tuple[str, ...]
    domain: np.ndarray
    domains: tuple[str, ...]
    complexity: np.ndarray
    system2: np.ndarray
    success: np.ndarray
    outcome: np.ndarray
    confidence: np.ndarray
    pattern: np.ndarray
    patterns: tuple[str, ...]
    propensity: np.ndarray
    escalation: np.ndarray | None = None
    """True where the turn went to System 2 by the escalation rule (``route_reason``
    ``"escalation"``: the retry after a failed System 1 turn), not by the threshold; None: none did."""

    def __post_init__(self) -> None:
        n = len(self.ids)
        rule = np.zeros(n, np.bool_) if self.escalation is None else np.asarray(self.escalation, np.bool_)
        if rule.shape != (n,):
            raise ValueError(f"frame column escalation has shape {rule.shape}, expected ({n},)")
        rule = rule.view()
        rule.flags.writeable = False
        object.__setattr__(self, "escalation", rule)
        for name, dtype in _ARRAYS.items():
            arr: np.ndarray = np.asarray(getattr(self, name), dtype=dtype)
            if arr.shape != (n,):
                raise ValueError(f"frame column {name} has shape {arr.shape}, expected ({n},)")
            view = arr.view()
            view.flags.writeable = False
            object.__setattr__(self, name, view)
        for name in ("ids", "timestamps", "domains", "patterns"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if len(self.timestamps) != n:
            raise ValueError(f"frame has {len(self.timestamps)} timestamps for {n} ids")
        for name, table in (("domains", self.domains), ("patterns", self.patterns)):
            if list(table) != sorted(set(table)):
                raise ValueError(f"frame {name} must be sorted and unique")
        if n:
            if self.domain.min() < 0 or self.domain.max() >= len(self.domains):
                raise ValueError("frame domain codes out of range")
            if self.pattern.min() < -1 or self.pattern.max() >= len(self.patterns):
                raise ValueError("frame pattern codes out of range")
            if np.any(self.ts[1:] < self.ts[:-1]):
                raise ValueError("frame is not in timestamp order")

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def rule(self) -> np.ndarray:
        """:attr:`escalation` as an array (filled in by ``__post_init__``)."""
        rule = self.escalation
        assert rule is not None  # __post_init__ sets it
        return rule

    def head(self, k: int) -> Frame:
        """The first ``k`` records (in timestamp order) as a frame with the same code tables."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in ("ids", "timestamps", "escalation", *_ARRAYS):
            values[name] = values[name][:k]
        return Frame(**values)


def frame_from_records(records: Sequence[Mapping[str, Any]]) -> Frame:
    """Build a :class:`Frame` from validated experience records (:mod:`artibot.experience`); inputs are not mutated."""
    records = records if isinstance(records, (list, tuple)) else list(records)
    n = len(records)
    table = _table(records)
    routed, outcomes = table["routed_to"], table["outcome"]
    system2 = routed == "system2"
    known = system2 | (routed == "system1")
    outcome = np.full(n, -1, np.int8)
    for name, code in OUTCOME_CODES.items():
        outcome[outcomes == name] = code
    if not (known.all() and (outcome >= 0).all()):
        i = int(np.flatnonzero(~known | (outcome < 0))[0])
        raise ValueError(f"record {table['id'][i]!r} has routed_to {str(routed[i])!r} and outcome "
                         f"{str(outcomes[i])!r}; records must be validated before learning")
    domains, patterns = _Coder(), _Coder()
    domains.add(table["domain"].tolist())
    patterns.add(table["pattern"].tolist())
    return _assemble(
        ids=table["id"].tolist(), stamps=table["timestamp"].tolist(), domains=domains, patterns=patterns,
        complexity=table["complexity"].copy(),  # contiguous, and not keeping the whole table alive
        confidence=table["confidence"].copy(), system2=system2, outcome=outcome,
        propensity=table["propensity"].astype(np.float64),  # None -> NaN
        escalation=_escalations(records),
    )[0]


def _escalations(records: Sequence[Mapping[str, Any]]) -> np.ndarray:
    """Per record, whether the escalation rule routed it (``route_reason``, a field most records lack)."""
    return np.fromiter((r.get("route_reason") == ESCALATION for r in records), np.bool_, len(records))


class UnusualRecords(ValueError):
    """Records the fast path of :func:`frame_from_chunks` does not take (a missing optional
    field, a value of another type, an unknown ``routed_to`` or ``outcome``): build the frame
    with :func:`frame_from_records`, which handles them or explains what is wrong."""


COLUMNS = tuple(name for name, field in EXPERIENCE_FIELDS.items() if field.learned)
"""The fields of a record the frame reads (declared in :data:`artibot.shapes.EXPERIENCE_FIELDS`)."""
_ROUTES = {"system1": False, "system2": True}
ESCALATION = "escalation"
"""The ``route_reason`` of a turn the escalation rule sent to System 2 (the router's own word)."""


def frame_from_chunks(chunks: Iterable[Sequence[Mapping[str, Any]]]) -> tuple[Frame, np.ndarray | None]:
    """The frame of the records of ``chunks`` taken in order, and ``order``: frame row ``i``
    is input record ``order[i]`` (None when the frame keeps the input order).

    Equal to :func:`frame_from_records` of the concatenated chunks for records in the
    canonical shape (every field present, numbers as numbers, names as strings); anything
    else raises :class:`UnusualRecords`. Each chunk's fields are read while its records
    are fresh in the CPU cache (a few hundred at a time): reading a million parsed records
    field by field afterwards costs more than parsing them. The caller decides about the
    garbage collector (:func:`artibot.round.cycle.collector_paused`): a pure function does not
    switch off process-wide machinery.
    """
    get = itemgetter(*COLUMNS)
    ids: list[Any] = []
    stamps: list[Any] = []
    numbers: list[np.ndarray] = []  # per chunk: complexity, confidence and propensity, as rows
    routes: list[bool | None] = []
    outcomes: list[int | None] = []
    rules: list[np.ndarray] = []
    domains, patterns = _Coder(), _Coder()
    try:
        for chunk in chunks:
            if not chunk:
                continue
            col = dict(zip(COLUMNS, zip(*map(get, chunk))))
            i, t, d, c, f = col["id"], col["timestamp"], col["domain"], col["complexity"], col["confidence"]
            r, o, p, q = col["routed_to"], col["outcome"], col["pattern"], col["propensity"]
            ids += i
            stamps += t
            numbers.append(np.fromiter(c + f + q, np.float64, 3 * len(c)).reshape(3, len(c)))  # None -> NaN
            domains.add(d)
            patterns.add(p)
            routes += map(_ROUTES.get, r)
            outcomes += map(OUTCOME_CODES.get, o)
            rules.append(_escalations(chunk))
    except (KeyError, TypeError) as exc:  # a field missing, or a value that cannot be a name
        raise UnusualRecords(f"a record is not in the canonical shape ({exc!r})") from None
    except (ValueError, OverflowError) as exc:
        raise UnusualRecords(f"a record has a value that is not a number ({exc})") from None
    if None in routes or None in outcomes:
        raise UnusualRecords("a record has an unknown routed_to or outcome")
    if not domains.all_str(none=False) or not patterns.all_str(none=True):
        raise UnusualRecords("a domain or pattern is not a string")
    n = len(ids)
    complexity, confidence, propensity = np.concatenate(numbers, axis=1) if numbers else np.empty((3, 0))
    del numbers
    return _assemble(
        ids=ids, stamps=stamps, domains=domains, patterns=patterns, complexity=complexity,
        confidence=confidence, system2=np.fromiter(routes, np.bool_, n),
        outcome=np.fromiter(outcomes, np.int8, n), propensity=propensity,
        escalation=np.concatenate(rules) if rules else np.zeros(0, np.bool_),
    )


def set_aside_interrupted(frame: Frame) -> tuple[Frame, np.ndarray, np.ndarray]:
    """``frame`` without its ``interrupted`` rows, the rows kept and the rows set aside.

    An interrupted turn says nothing about its route, so no learner counts it; the cycle
    still archives it with the batch it falls in. Without such rows, ``frame`` itself.
    """
    aside = np.flatnonzero(frame.outcome == INTERRUPTED)
    if not len(aside):
        return frame, np.arange(len(frame.ids)), aside
    kept = np.flatnonzero(frame.outcome != INTERRUPTED)
    pick = kept.tolist()
    out = Frame(
        ids=tuple(frame.ids[i] for i in pick), ts=frame.ts[kept],
        timestamps=tuple(frame.timestamps[i] for i in pick), domain=frame.domain[kept], domains=frame.domains,
        complexity=frame.complexity[kept], system2=frame.system2[kept], success=frame.success[kept],
        outcome=frame.outcome[kept], confidence=frame.confidence[kept], pattern=frame.pattern[kept],
        patterns=frame.patterns, propensity=frame.propensity[kept], escalation=frame.rule[kept],
    )
    return out, kept, aside


def _assemble(*, ids: list[str], stamps: list[str], domains: _Coder, patterns: _Coder, complexity: np.ndarray,
              confidence: np.ndarray, system2: np.ndarray, outcome: np.ndarray, propensity: np.ndarray,
              escalation: np.ndarray) -> tuple[Frame, np.ndarray | None]:
    """Codes, timestamps and the stable sort by time shared by both builders."""
    n = len(ids)
    domain_names, domain = domains.finish()
    pattern_names, pattern = patterns.finish(none_code=-1)
    ts = parse_timestamps(stamps)

    order = np.argsort(ts, kind="stable")
    moved = bool(n) and bool(np.any(order != np.arange(n)))
    if moved:
        pick = order.tolist()
        ids = [ids[i] for i in pick]
        stamps = [stamps[i] for i in pick]
        ts, domain, complexity, system2, outcome, confidence, pattern, propensity, escalation = (
            a[order] for a in (ts, domain, complexity, system2, outcome, confidence, pattern, propensity, escalation))
    frame = Frame(
        ids=tuple(ids), ts=ts, timestamps=tuple(stamps), domain=domain, domains=domain_names,
        complexity=complexity, system2=system2, success=outcome == SUCCESS, outcome=outcome,
        confidence=confidence, pattern=pattern, patterns=pattern_names, propensity=propensity,
        escalation=escalation,
    )
    return frame, order if moved else None


_OPTIONAL = tuple(n for n in COLUMNS if not EXPERIENCE_FIELDS[n].required and n not in ("id", "timestamp"))
"""Columns a stored record may lack (read as null); ``id`` and ``timestamp`` it always has."""
_DTYPES = {"complexity": "f8", "confidence": "f8",
           # One character wider than the longest valid value, so that a longer one cannot pass for it.
           "routed_to": "U8", "outcome": "U12"}
_TABLE = np.dtype([(name, _DTYPES.get(name, "O")) for name in COLUMNS])


def _table(records: Sequence[Mapping[str, Any]]) -> np.ndarray:
    """The fields as one structured array, in a single pass over the records.

    A million records are visited once, not once per field: reaching the records is
    most of the cost of building a frame.
    """
    names = _TABLE.names or ()
    try:
        return _fill(map(itemgetter(*names), records), len(records))
    except KeyError as exc:
        if exc.args[0] not in _OPTIONAL:
            raise _lacks(exc) from exc
    # Records may lack the nullable fields altogether: read them as null.
    try:
        rows = (tuple(r.get(k) if k in _OPTIONAL else r[k] for k in names) for r in records)
        return _fill(rows, len(records))
    except KeyError as exc:
        raise _lacks(exc) from exc


def _fill(rows: Iterable[tuple[Any, ...]], n: int) -> np.ndarray:
    try:
        return np.fromiter(rows, dtype=_TABLE, count=n)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"an experience record has a value that is not a number in complexity or "
                         f"confidence ({exc}); records must be validated before learning") from exc


def _lacks(exc: KeyError) -> ValueError:
    return ValueError(f"an experience record lacks field {exc.args[0]!r}; "
                      "records must be validated before learning")


class _Coder:
    """Integer codes in the order of the sorted distinct names (``None`` -> ``none_code``), fed in parts."""

    def __init__(self) -> None:
        self.first_seen: defaultdict[Any, int] = defaultdict(count().__next__)  # codes by first appearance
        self.codes: list[int] = []

    def add(self, values: Iterable[Any]) -> None:
        self.codes += map(self.first_seen.__getitem__, values)

    def all_str(self, *, none: bool) -> bool:
        return all(type(k) is str or (none and k is None) for k in self.first_seen)

    def finish(self, none_code: int | None = None) -> tuple[tuple[str, ...], np.ndarray]:
        first_seen = self.first_seen
        codes = np.fromiter(self.codes, np.int32, len(self.codes))
        self.codes = []
        names = sorted(k for k in first_seen if k is not None)
        rank = np.empty(len(first_seen), np.int32)  # first-appearance code -> sorted code
        rank[[first_seen[k] for k in names]] = np.arange(len(names), dtype=np.int32)
        if None in first_seen:
            rank[first_seen[None]] = none_code if none_code is not None else -1
        return tuple(names), rank[codes]
