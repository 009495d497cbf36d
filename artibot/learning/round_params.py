"""What a round records beside its tables, as typed records (a proposal's ``params``).

A round stores the settings it ran with and its counts (:attr:`RoundParams.numbers`), the
price it used (:class:`~artibot.learning.objective.Price`), the evidence behind each threshold
step (:class:`StepEvidence`), the intervals shown at the checkpoints (:class:`Intervals`)
and what the cycle checked around it (:class:`RoundChecks`); what only one mode records
(the prior's shape, the changes the drift test found, a team round's pool) is kept as JSON
in :attr:`RoundParams.extra`.

On disk (the learning log, a pending review) the record keeps the flat JSON object rounds
always had (``{"batch_size": 50, "price": 0.05, "price_source": "estimated", "evidence":
{...}, ...}``): :meth:`RoundParams.to_json` writes it, :meth:`RoundParams.from_json` reads it
back, including from rounds written before the records existed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Union

from artibot.learning.objective import Price, RouteCosts
from artibot.shapes import JsonValue

Scalar = Union[str, int, float, bool, None]
JSON = JsonValue
JSONObject = dict[str, JSON]
Bounds = tuple[float, float]


def _float(v: JSON, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"round params: {what} must be a number, not {v!r}")
    return float(v)


def _floats(v: JSON, what: str, n: int | None = None) -> tuple[float, ...]:
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise ValueError(f"round params: {what} must be a list of {n or 'some'} numbers, not {v!r}")
    return tuple(_float(x, what) for x in v)


def _bounds(v: JSON, what: str) -> Bounds:
    lo, hi = _floats(v, what, 2)
    return lo, hi


def _object(v: JSON, what: str) -> JSONObject:
    if not isinstance(v, dict):
        raise ValueError(f"round params: {what} must be an object, not {v!r}")
    return v


@dataclass(frozen=True)
class StepEvidence:
    """The numbers behind one threshold's step (evidence mode): see :func:`artibot.learning.evidence_reason.reason`."""

    best: float
    """The threshold with the best posterior mean utility anywhere."""
    probability: float
    """Posterior probability that the step improves utility."""
    improvement: float
    gain: tuple[float, float, float]
    """System 2's advantage at the old threshold: mean and interval."""
    trials: tuple[float, ...]
    """Trials of System 1 and System 2 behind the curves."""
    price: float
    seeking: bool
    region_gain: Bounds
    """System 2's mean gain over the traffic the step moves, and its posterior sd."""
    reach: float
    """How far the threshold could move this round."""
    reason: str
    """The step in a user's words."""
    exploration: float | None = None
    """The router's learned exploration rate away from the threshold (None: not learned)."""
    per_100: Bounds | None = None
    """The cost objective's step in the person's terms: the change of the bill in dollars and of
    the redos, per 100 of the domain's turns (None: no step, or another objective)."""

    def to_json(self) -> JSONObject:
        out: JSONObject = {"best": self.best, "probability": self.probability, "improvement": self.improvement,
                           "gain": list(self.gain), "trials": list(self.trials), "price": self.price,
                           "seeking": self.seeking, "region_gain": list(self.region_gain), "reach": self.reach,
                           "reason": self.reason}
        if self.exploration is not None:
            out["exploration"] = self.exploration
        if self.per_100 is not None:
            out["per_100"] = list(self.per_100)
        return out

    @classmethod
    def from_json(cls, d: JSON, domain: str) -> StepEvidence:
        w = f"evidence[{domain!r}]"
        o = _object(d, w)
        g = _floats(o.get("gain"), f"{w}.gain", 3)
        reason, seeking, exploration = o.get("reason"), o.get("seeking", False), o.get("exploration")
        per_100 = o.get("per_100")
        if not isinstance(reason, str) or not isinstance(seeking, bool):
            raise ValueError(f"round params: {w} needs a reason (text) and seeking (true or false)")
        return cls(_float(o.get("best"), f"{w}.best"), _float(o.get("probability"), f"{w}.probability"),
                   _float(o.get("improvement"), f"{w}.improvement"), (g[0], g[1], g[2]),
                   _floats(o.get("trials"), f"{w}.trials"), _float(o.get("price"), f"{w}.price"), seeking,
                   _bounds(o.get("region_gain"), f"{w}.region_gain"), _float(o.get("reach"), f"{w}.reach"), reason,
                   None if exploration is None else _float(exploration, f"{w}.exploration"),
                   None if per_100 is None else _bounds(per_100, f"{w}.per_100"))


@dataclass(frozen=True)
class Intervals:
    """The intervals shown at the checkpoints (evidence mode)."""

    groups: tuple[Bounds | None, ...] = ()
    """Per checkpoint-1 group, the 90% interval of System 2's advantage in its cell (None: a system never tried)."""
    patterns: Mapping[str, Bounds] = field(default_factory=dict)
    """Per decided pattern, the bounds of its System 1 success."""

    __hash__ = None  # type: ignore[assignment]  # holds a mapping; compare, don't hash

    def to_json(self) -> JSONObject:
        return {"groups": [None if g is None else list(g) for g in self.groups],
                "patterns": {k: list(b) for k, b in self.patterns.items()}}

    @classmethod
    def from_json(cls, d: JSON) -> Intervals:
        o = _object(d, "intervals")
        groups, patterns = o.get("groups") or [], _object(o.get("patterns") or {}, "intervals.patterns")
        if not isinstance(groups, list):
            raise ValueError(f"round params: intervals.groups must be a list, not {groups!r}")
        return cls(tuple(None if g is None else _bounds(g, "intervals.groups[]") for g in groups),
                   {k: _bounds(b, f"intervals.patterns[{k!r}]") for k, b in patterns.items()})


CHECKS = ("costs", "off_policy", "window", "freshness", "interrupted")


@dataclass(frozen=True)
class RoundChecks:
    """What the cycle adds around a round (:mod:`artibot.round.checks`, :mod:`artibot.round.cycle`)."""

    costs: JSONObject | None = None
    """The measured cost per route, shown beside the price."""
    off_policy: JSONObject | None = None
    """The proposed thresholds' estimated success on the logged window (:mod:`artibot.learning.offpolicy`)."""
    window: JSONObject | None = None
    """The outcome counts of the round's own experiences (:mod:`artibot.learning.validation`)."""
    freshness: JSONObject | None = None
    """Cache ageing: the state of each cached pattern (:mod:`artibot.learning.freshness`)."""
    interrupted: int | None = None
    """Interrupted records archived with the round, scored by nobody."""

    def to_json(self) -> JSONObject:
        return {name: getattr(self, name) for name in CHECKS if getattr(self, name) is not None}

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> RoundChecks:
        objects = {name: _object(d[name], name) for name in CHECKS[:4] if d.get(name) is not None}
        interrupted = d.get("interrupted")
        if interrupted is not None and (not isinstance(interrupted, int) or isinstance(interrupted, bool)):
            raise ValueError(f"round params: interrupted must be a whole number, not {interrupted!r}")
        return cls(interrupted=interrupted, **objects)


def logged_checks(entry: Mapping[str, object]) -> RoundChecks:
    """The checks a round in the learning log recorded (its ``params``). A check that is not an
    object reads as absent, one by one: a log written by an older version, or edited by hand,
    still reads, and a damaged check does not hide the others.

    >>> logged_checks({"params": {"window": {"all": {}}, "costs": 3}}).window, logged_checks({}).costs
    ({'all': {}}, None)
    """
    params = entry.get("params")
    if not isinstance(params, Mapping):
        return RoundChecks()
    def check(name: str) -> JSONObject | None:
        value = params.get(name)
        return dict(value) if isinstance(value, Mapping) else None

    return RoundChecks(costs=check("costs"), off_policy=check("off_policy"), window=check("window"),
                       freshness=check("freshness"))


PRICE_KEYS = ("price", "price_source", "target_system2_share", "measured_cost", "route_costs")
_RECORDS = ("evidence", "intervals", *PRICE_KEYS, *CHECKS)


@dataclass(frozen=True)
class RoundParams:
    """Everything a round records beside its tables (see the module doc)."""

    numbers: Mapping[str, Scalar] = field(default_factory=dict)
    """The settings the round ran with and its counts, in the order written (``batch_size``,
    ``batches``, ``flush``, ``max_step``, ``explored``, ...)."""
    price: Price | None = None
    """The price of a System 2 call it used (None: the seed's rule has none)."""
    evidence: Mapping[str, StepEvidence] = field(default_factory=dict)
    """Per domain stepped (``"*"``: the default threshold), the numbers behind the step."""
    intervals: Intervals | None = None
    checks: RoundChecks = field(default_factory=RoundChecks)
    extra: Mapping[str, JSON] = field(default_factory=dict)
    """What only one mode records, as JSON."""

    __hash__ = None  # type: ignore[assignment]  # holds mappings; compare, don't hash

    # the numbers every reader asks for by name
    def _int(self, name: str) -> int | None:
        v = self.numbers.get(name)
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    def _num(self, name: str) -> float | None:
        v = self.numbers.get(name)
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None

    @property
    def batches(self) -> int | None:
        """The batches of ``batch_size`` the round processed (evidence mode fits them as one table)."""
        return self._int("batches")

    @property
    def batch_size(self) -> int | None:
        return self._int("batch_size")

    @property
    def max_step(self) -> float | None:
        return self._num("max_step")

    def with_checks(self, **changes: JSON) -> RoundParams:
        """These params with the named checks (:data:`CHECKS`) set."""
        return replace(self, checks=RoundChecks.from_json({**self.checks.to_json(), **changes}))

    def to_json(self) -> JSONObject:
        out: JSONObject = dict(self.numbers)
        if self.price is not None:
            p = self.price
            out.update(price=p.value, price_source=p.source, target_system2_share=p.target_system2_share,
                       measured_cost=None if p.measured_cost is None else dict(p.measured_cost))
            if p.costs is not None:
                out["route_costs"] = p.costs.to_json()
        out.update(self.extra)
        if self.evidence:
            out["evidence"] = {d: e.to_json() for d, e in self.evidence.items()}
        if self.intervals is not None:
            out["intervals"] = self.intervals.to_json()
        out.update(self.checks.to_json())
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> RoundParams:
        price = None
        if d.get("price") is not None:
            source, share, measured = d.get("price_source"), d.get("target_system2_share"), d.get("measured_cost")
            if not isinstance(source, str):
                raise ValueError(f"round params: price_source must be text, not {source!r}")
            costs = d.get("route_costs")
            price = Price(_float(d["price"], "price"), source,
                          None if share is None else _float(share, "target_system2_share"),
                          None if measured is None else _measured(measured),
                          None if costs is None else RouteCosts.from_json(_object(costs, "route_costs")))
        evidence = {str(k): StepEvidence.from_json(v, str(k))
                    for k, v in _object(d.get("evidence") or {}, "evidence").items()}
        intervals = Intervals.from_json(d["intervals"]) if d.get("intervals") is not None else None
        numbers: dict[str, Scalar] = {}
        extra: dict[str, JSON] = {}
        for k, v in d.items():
            if k in _RECORDS:
                continue
            if isinstance(v, (list, dict)):
                extra[k] = v
            else:
                numbers[k] = v
        return cls(numbers, price, evidence, intervals, RoundChecks.from_json(d), extra)


def _measured(v: JSON) -> JSONObject:
    o = _object(v, "measured_cost")
    for k in ("price", "extra_usd", "value_usd"):
        _float(o.get(k), f"measured_cost.{k}")
    _floats(o.get("turns"), "measured_cost.turns", 2)
    return o


__all__ = ["CHECKS", "Intervals", "JSON", "JSONObject", "RoundChecks", "RoundParams", "StepEvidence"]
