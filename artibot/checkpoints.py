"""The three human checkpoints: their evidence, options and defaults, and the
policies that answer them (their words in English and Korean: :mod:`artibot.checkpoint_texts`).

A :class:`Checkpoints` object is asked by the cycle at each checkpoint. Policies here
answer without a terminal (pre-approved defaults, scripted answers, deferral for an
unattended run); the terminal policy lives in ``artibot/cli/checkpoint_prompts.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Protocol, Sequence, Union, cast

from artibot.checkpoint_texts import direction, money_line, texts  # the words, in English and Korean
from artibot.errors import ReviewError
from artibot.learning.types import domain_label

if TYPE_CHECKING:
    from artibot.settings import Settings

GroupsChoice = Literal["accept", "reset"]
ThresholdsChoice = Literal["apply", "revert"]
TransferChoice = Literal["auto", "promote", "demote", "hold"]
TransferAnswer = Union[Mapping[str, TransferChoice], Literal["skip"]]
"""Checkpoint 3's recorded answer: an action per pattern, or ``"skip"`` (the automatic decisions)."""
AnswersArg = Union[Literal["defaults", "defer", "unattended"], Mapping[Any, Any], Sequence[str], "Answers"]
"""How ``learn(answers=...)`` and ``artibot review --answer`` say who answers (see :func:`policy_for`)."""

CHOICES = {1: ("accept", "reset"), 2: ("apply", "revert"), 3: ("auto", "promote", "demote", "hold")}
DEFAULTS = {1: "accept", 2: "apply", 3: "auto"}
SKIPPABLE = {1: False, 2: False, 3: True}


def utility_check(op: Mapping[str, Any] | None, price: float | None) -> dict[str, Any] | None:
    """The off-policy estimate in the learner's own terms: utility = success − price × System 2
    share, for the current and the proposed thresholds and their difference, with intervals.

    The System 2 share of a threshold rule is counted, not estimated, so each utility's
    interval is its success interval shifted by ``price × share``. ``worse`` is True when
    the whole interval of the difference is below zero: the estimate says the proposal
    loses, beyond its noise. None when nothing was estimated (too thin, no change).

    >>> op = {"verdict": "estimated", "current": {"success": 0.8, "interval": [0.78, 0.82], "system2_share": 0.5},
    ...       "proposed": {"success": 0.79, "interval": [0.77, 0.81], "system2_share": 0.6},
    ...       "difference": {"success": -0.01, "system2_share": 0.1}, "interval": [-0.02, 0.0]}
    >>> u = utility_check(op, 0.05)
    >>> round(u["difference"]["value"], 3), [round(x, 3) for x in u["difference"]["interval"]], u["worse"]
    (-0.015, [-0.025, -0.005], True)
    """
    if not op or op.get("verdict") != "estimated":
        return None
    p = price or 0.0

    def one(side: Mapping[str, Any]) -> dict[str, Any]:
        cost = p * side["system2_share"]
        lo, hi = side["interval"]
        return {"value": side["success"] - cost, "interval": [lo - cost, hi - cost]}

    d_cost = p * op["difference"]["system2_share"]
    lo, hi = op["interval"]
    diff = {"value": op["difference"]["success"] - d_cost, "interval": [lo - d_cost, hi - d_cost]}
    return {"price": p, "current": one(op["current"]), "proposed": one(op["proposed"]), "difference": diff,
            "worse": diff["interval"][1] < 0}


def default_of(evidence: "Evidence") -> str:
    """The checkpoint's default answer: Apply at checkpoint 2 unless the off-policy estimate
    says the proposal is worse (then Revert: a bare Enter or ``--yes`` must not apply a change
    the evidence speaks against)."""
    if evidence.checkpoint == 2:
        check = evidence.summary.get("utility")
        if check and check.get("worse"):
            return "revert"
    return DEFAULTS[evidence.checkpoint]


# --------------------------------------------------------------------- evidence
class Evidence:
    """What a checkpoint shows: JSON-able rows plus a summary, built on first access
    (a pre-approved round over a million experiences never pays for tables nobody reads)."""

    def __init__(self, checkpoint: int, round_id: str, lang: str,
                 rows: Any = (), summary: Mapping[str, Any] | None = None,
                 build: Callable[[], tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]] | None = None):
        self.checkpoint = checkpoint
        self.round_id = round_id
        self.lang = lang
        self._data: tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]] | None = (
            None if build else (tuple(rows), dict(summary or {})))
        self._build = build

    def _get(self) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
        if self._data is None:
            assert self._build is not None
            self._data = self._build()
        return self._data

    @property
    def rows(self) -> tuple[Mapping[str, Any], ...]:
        return self._get()[0]

    @property
    def summary(self) -> Mapping[str, Any]:
        return self._get()[1]

    def to_json(self) -> dict[str, Any]:
        return {"rows": [dict(r) for r in self.rows], "summary": dict(self.summary)}


def question_json(evidence: Evidence, *, answered: Any = None) -> dict[str, Any]:
    """One open question for ``artibot review --json`` (its shape is a contract: ``/learn`` and other agents read it)."""
    n = evidence.checkpoint
    t = texts(evidence.lang)
    options = [
        {"choice": c, "label": t["options"][n][c][0], "meaning": t["options"][n][c][1],
         "default": c == default_of(evidence)}
        for c in CHOICES[n]
    ]
    out: dict[str, Any] = {
        "number": n,
        "title": t["title"][n],
        "question": t["question"][n],
        "skippable": SKIPPABLE[n],
        "options": options,
        "default": default_of(evidence),
        "evidence": evidence.to_json(),
        "answered": answered,
    }
    if n == 2:
        out["off_policy"] = evidence.summary.get("off_policy")
        out["utility"] = evidence.summary.get("utility")
    if n == 3:
        out["patterns"] = [
            {"key": r["key"], "automatic": r["automatic"], "reason": r["reason"],
             "answer_as": f"3.{r['key']}=auto|promote|demote|hold"}
            for r in evidence.rows
        ]
    return out


# --------------------------------------------------------------------- policies
class Deferred(Exception):
    """Raised by a policy that cannot answer a non-skippable question now (no terminal)."""

    def __init__(self, checkpoint: int):
        self.checkpoint = checkpoint
        super().__init__(f"checkpoint {checkpoint} needs a human answer")


class Checkpoints(Protocol):
    """Answers the three checkpoints. ``channel`` is recorded with every answer."""

    channel: str

    def groups(self, evidence: Evidence) -> GroupsChoice: ...

    def thresholds(self, evidence: Evidence) -> ThresholdsChoice: ...

    def transfers(self, evidence: Evidence) -> Mapping[str, TransferChoice] | None: ...  # None = skip


class DefaultAnswers:
    """Takes every default: ``--yes`` (an explicit human choice) or the ``"defaults"`` unattended policy."""

    def __init__(self, channel: str = "pre-approved"):
        self.channel = channel

    def groups(self, evidence: Evidence) -> GroupsChoice:
        return cast(GroupsChoice, DEFAULTS[1])

    def thresholds(self, evidence: Evidence) -> ThresholdsChoice:
        return default_of(evidence)  # type: ignore[return-value]

    def transfers(self, evidence: Evidence) -> Mapping[str, TransferChoice] | None:
        return None


class DeferAnswers:
    """Unattended with ``checkpoints.unattended = "defer"``: nothing can be answered."""

    channel = "unattended"

    def groups(self, evidence: Evidence) -> GroupsChoice:
        raise Deferred(1)

    def thresholds(self, evidence: Evidence) -> ThresholdsChoice:
        raise Deferred(2)

    def transfers(self, evidence: Evidence) -> Mapping[str, TransferChoice] | None:
        raise Deferred(3)


class ScriptedAnswers:
    """Answers given in advance (``artibot review --answer``, Python ``learn(answers=...)``).

    A question without an answer defers the round, except checkpoint 3, which is skippable.
    """

    def __init__(self, answers: "Answers", channel: str = "review"):
        self.answers = answers
        self.channel = channel

    def groups(self, evidence: Evidence) -> GroupsChoice:
        if self.answers.groups is None:
            raise Deferred(1)
        return self.answers.groups

    def thresholds(self, evidence: Evidence) -> ThresholdsChoice:
        if self.answers.thresholds is None:
            raise Deferred(2)
        return self.answers.thresholds

    def transfers(self, evidence: Evidence) -> Mapping[str, TransferChoice] | None:
        keys = {r["key"] for r in evidence.rows}
        unknown = set(self.answers.per_pattern) - keys
        if unknown:
            raise ReviewError(f"checkpoint 3 has no pattern {sorted(unknown)[0]!r}; "
                              f"patterns in this round: {', '.join(sorted(keys)) or 'none'}")
        if self.answers.transfers is None and not self.answers.per_pattern:
            return None
        base = self.answers.transfers or "auto"
        return {k: self.answers.per_pattern.get(k, base) for k in sorted(keys)}


@dataclass
class Answers:
    """Parsed answers. ``None`` = not answered (yet)."""

    groups: GroupsChoice | None = None
    thresholds: ThresholdsChoice | None = None
    transfers: TransferChoice | None = None  # the same action for every pattern
    per_pattern: dict[str, TransferChoice] = field(default_factory=dict)


def _check_choice(n: int, value: Any, where: str) -> str:
    choice = str(value).strip().lower()
    if choice not in CHOICES[n]:
        raise ReviewError(f"{where}: checkpoint {n} takes {'|'.join(CHOICES[n])}, not {choice!r}")
    return choice


def _groups_choice(value: Any, where: str) -> GroupsChoice:
    return cast(GroupsChoice, _check_choice(1, value, where))


def _thresholds_choice(value: Any, where: str) -> ThresholdsChoice:
    return cast(ThresholdsChoice, _check_choice(2, value, where))


def _transfer_choice(value: Any, where: str) -> TransferChoice:
    return cast(TransferChoice, _check_choice(3, value, where))


def parse_answers(items: Any) -> Answers:
    """Answers from ``["1=accept", "3.KEY=hold"]`` or a mapping ``{1: "accept", 2: "apply", 3: "auto"}``.

    Checkpoint 3 also takes a mapping of pattern key to action.

    >>> parse_answers(["1=accept", "2=revert", "3.fix:typo=hold"]).per_pattern
    {'fix:typo': 'hold'}
    """
    answers = Answers()
    pairs: list[tuple[str, Any]] = []
    if isinstance(items, Mapping):
        pairs = [(str(k), v) for k, v in items.items()]
    else:
        for item in items:
            if not isinstance(item, str) or "=" not in item:
                raise ReviewError(f"answer {item!r} must look like N=CHOICE (e.g. 1=accept, 2=apply, 3=auto, "
                                  "3.PATTERN=hold)")
            key, _, value = item.partition("=")
            pairs.append((key.strip(), value))
    for key, value in pairs:
        if key == "1":
            answers.groups = _groups_choice(value, f"answer {key}={value}")
        elif key == "2":
            answers.thresholds = _thresholds_choice(value, f"answer {key}={value}")
        elif key == "3":
            if isinstance(value, Mapping):
                for k, v in value.items():
                    answers.per_pattern[str(k)] = _transfer_choice(v, f"answer 3.{k}={v}")
            else:
                answers.transfers = _transfer_choice(value, f"answer {key}={value}")
        elif key.startswith("3."):
            answers.per_pattern[key[2:]] = _transfer_choice(value, f"answer {key}={value}")
        else:
            raise ReviewError(f"answer {key}={value}: the checkpoints are 1, 2 and 3 (or 3.PATTERN)")
    return answers


def policy_for(answers: AnswersArg, settings: "Settings", channel: str = "api") -> Checkpoints:
    """Who answers, from ``learn(answers=...)`` or ``--answer``: ``"defaults"`` (pre-approved),
    ``"defer"`` (save for review), ``"unattended"`` (as ``learning.checkpoints.unattended``
    says), or answers given in advance (a mapping, ``["1=accept", ...]`` or :class:`Answers`)."""
    if isinstance(answers, str):
        if answers == "defaults":
            return DefaultAnswers(channel)
        if answers == "defer":
            return DeferAnswers()
        if answers == "unattended":
            if settings.checkpoints.unattended == "defaults":
                return DefaultAnswers("unattended-defaults")
            return DeferAnswers()
        raise ReviewError(f"answers must be 'defaults', 'defer', 'unattended' or a mapping, not {answers!r}")
    given = answers if isinstance(answers, Answers) else parse_answers(answers)
    return ScriptedAnswers(given, channel=channel)


# --------------------------------------------------------------------- evidence from a proposal
def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(float(x), nd)


def group_evidence(proposal: Any, round_id: str, lang: str) -> Evidence:
    """Checkpoint 1: a table of groups (domain, complexity range, System 1 n/success, System 2 n/success, advantage)."""
    return Evidence(1, round_id, lang, build=lambda: _group_rows(proposal))


def _group_rows(proposal: Any) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
    rows = []
    # evidence mode: the 90% interval of each group's advantage, aligned with the groups
    intervals = proposal.params.intervals.groups if proposal.params.intervals is not None else ()
    for i, g in enumerate(proposal.groups):
        row = {"batch": g.batch, "domain": g.domain,
               "complexity": [_r(g.complexity_min), _r(g.complexity_max)],
               "k1": g.k1, "n1": g.n1, "k2": g.k2, "n2": g.n2,
               "advantage": _r(g.advantage), "one_sided": g.one_sided}
        extra = intervals[i] if i < len(intervals) else None
        if extra is not None:
            # the estimate the interval is about (the cell's whole history), at its centre;
            # "advantage" is this round's raw difference, which may lie outside it
            row["estimate"] = _r((extra[0] + extra[1]) / 2)
            row["interval"] = [_r(extra[0]), _r(extra[1])]
        rows.append(row)
    two = sum(1 for g in proposal.groups if not g.one_sided)
    summary = {"batches": proposal.params.batches or len(proposal.batches), "groups": len(rows),
               "two_sided": two,
               "one_sided": len(rows) - two, "mode": proposal.mode}
    return tuple(rows), summary


def threshold_evidence(proposal: Any, round_id: str, lang: str) -> Evidence:
    """Checkpoint 2: old -> new threshold per domain with the direction in words."""
    return Evidence(2, round_id, lang, build=lambda: _threshold_rows(proposal, lang))


def _threshold_rows(proposal: Any, lang: str) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
    rows = []
    # evidence mode: each change in a user's words, with the numbers behind it
    evidence = proposal.params.evidence
    price = proposal.params.price
    for domain, (old, new) in proposal.net_changes().items():
        steps = [s for s in proposal.steps if s.domain == domain]
        row = {"domain": domain_label(domain), "old": _r(old, 4), "new": _r(new, 4),
               "change": _r(new - old, 4), "direction": direction(old, new, lang),
               "batches": len(steps), "clamped": sum(1 for s in steps if s.clamped)}
        step = evidence.get(domain)
        if step is not None:
            if step.reason:
                row["reason"] = step.reason
            # the reason's numbers, for a screen that words it in another language
            row.update(gain=_r(step.region_gain[0], 4), sd=_r(step.region_gain[1], 4), price=_r(step.price, 4),
                       source=price.source if price is not None else None)
            row["limit"] = _r(step.reach, 4)  # how far this domain's threshold could move this round
        rows.append(row)
    # what the proposed thresholds would have done on the logged window (None before it existed)
    params = proposal.params
    summary = {"mode": proposal.mode, "off_policy": params.checks.off_policy, "max_step": params.max_step,
               "batch_size": params.batch_size, "batches": params.batches}
    if price is not None:  # the price in force and its source
        summary.update(price=_r(price.value, 4), price_source=price.source)
    summary["utility"] = utility_check(params.checks.off_policy, price.value if price is not None else None)
    money = money_line(params)
    if money:
        summary["money"] = money
    return tuple(rows), summary


def transfer_evidence(proposal: Any, round_id: str, lang: str) -> Evidence:
    """Checkpoint 3: each pattern's automatic decision with its streaks, counts and confidence."""
    return Evidence(3, round_id, lang, build=lambda: _transfer_rows(proposal))


def _transfer_rows(proposal: Any) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
    rows = []
    # evidence mode: the bounds of each decided pattern's System 1 success
    bounds_of = proposal.params.intervals.patterns if proposal.params.intervals is not None else {}
    for d in proposal.decisions:
        s = d.stats
        row = {"key": d.key, "status": s.status, "automatic": d.action, "reason": d.reason,
               "promotion_streak": s.promotion_streak, "demotion_streak": s.demotion_streak,
               "k1": s.k1, "n1": s.n1, "k2": s.k2, "n2": s.n2, "confidence": _r(s.confidence)}
        bounds = bounds_of.get(d.key)
        if bounds is not None:
            row["bounds"] = [_r(bounds[0]), _r(bounds[1])]
        rows.append(row)
    return tuple(rows), {"patterns": len(rows)}


class EvidenceSet:
    """The three checkpoints' evidence, each built on first use (a pre-approved round over a
    million experiences never pays for tables nobody reads)."""

    _BUILDERS = {1: group_evidence, 2: threshold_evidence, 3: transfer_evidence}

    def __init__(self, proposal: Any, round_id: str, lang: str):
        self._args = (proposal, round_id, lang)
        self._built: dict[int, Evidence] = {}

    def __getitem__(self, n: int) -> Evidence:
        if n not in self._built:
            self._built[n] = self._BUILDERS[n](*self._args)
        return self._built[n]


def all_evidence(proposal: Any, round_id: str, lang: str) -> EvidenceSet:
    return EvidenceSet(proposal, round_id, lang)
