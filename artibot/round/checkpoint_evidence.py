"""What each checkpoint shows, built from a round's proposal: the rows and summary of
:class:`Evidence`, and the off-policy estimate in the learner's terms (:func:`utility_check`).

Checkpoint 1 shows the groups (and, in evidence mode, the interval of each group's
advantage), checkpoint 2 the threshold changes with the numbers behind each step and the
price in force, checkpoint 3 each pattern's automatic decision. The questions, options and
policies are in :mod:`artibot.round.checkpoints`.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from artibot.round.checkpoint_texts import direction, money_line
from artibot.learning.evidence_reason import row_message
from artibot.learning.types import RoundProposal, domain_label
from artibot.messages import Message, render


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
        return {"rows": [json_row(r) for r in self.rows], "summary": dict(self.summary)}


def json_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row as the JSON outputs carry it: without ``message``, the reason's id and values for
    a screen to say it in the round's language (JSON readers have the English ``reason``, and
    the brief the reason in the round's language), which would only add to every page."""
    return {k: v for k, v in row.items() if k != "message"}


def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(float(x), nd)


def group_evidence(proposal: RoundProposal, round_id: str, lang: str) -> Evidence:
    """Checkpoint 1: a table of groups (domain, complexity range, System 1 n/success, System 2 n/success, advantage)."""
    return Evidence(1, round_id, lang, build=lambda: _group_rows(proposal))


def _group_rows(proposal: RoundProposal) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
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
    pool = proposal.params.extra.get("pool")
    if isinstance(pool, dict) and pool.get("held_out"):  # a team round: new domains beyond the bounds
        summary["held_out"] = pool["held_out"]
        summary["held_out_limits"] = pool.get("held_out_limits")
    return tuple(rows), summary


def threshold_evidence(proposal: RoundProposal, round_id: str, lang: str) -> Evidence:
    """Checkpoint 2: old -> new threshold per domain with the direction in words."""
    return Evidence(2, round_id, lang, build=lambda: _threshold_rows(proposal, lang))


def _threshold_rows(proposal: RoundProposal, lang: str) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
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
            if step.per_100 is not None:  # the cost objective's step in dollars and redos per 100 turns
                row.update(usd_per_100=_r(step.per_100[0], 4), redos_per_100=_r(step.per_100[1], 4))
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


def transfer_evidence(proposal: RoundProposal, round_id: str, lang: str) -> Evidence:
    """Checkpoint 3: each pattern's automatic decision with its streaks, counts and confidence."""
    return Evidence(3, round_id, lang, build=lambda: _transfer_rows(proposal))


def _transfer_rows(proposal: RoundProposal) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
    rows = []
    # evidence mode: the bounds of each decided pattern's System 1 success
    bounds_of = proposal.params.intervals.patterns if proposal.params.intervals is not None else {}
    for d in proposal.decisions:
        s = d.stats
        row: dict[str, Any] = {
               "key": d.key, "status": s.status, "automatic": d.action, "reason": d.reason,
               **({"message": d.message.to_json()} if d.message is not None else {}),
               "promotion_streak": s.promotion_streak, "demotion_streak": s.demotion_streak,
               "k1": s.k1, "n1": s.n1, "k2": s.k2, "n2": s.n2, "confidence": _r(s.confidence)}
        bounds = bounds_of.get(d.key)
        if bounds is not None:
            row["bounds"] = [_r(bounds[0]), _r(bounds[1])]
        rows.append(row)
    return tuple(rows), {"patterns": len(rows), "mode": proposal.mode}


def reason_said(row: Mapping[str, Any], lang: str) -> str | None:
    """A checkpoint-2 or checkpoint-3 row's reason in ``lang``: from the row's message (a
    pattern's decision) or from the numbers it keeps (a threshold's step); the English
    ``reason`` for a row of a round saved before either was kept; None for a row with no reason."""
    reason = row.get("reason")
    if lang == "en" and reason:
        return str(reason)  # the sentence the round recorded, to the letter
    doc = row.get("message")
    message = Message.from_json(doc) if isinstance(doc, dict) else row_message(row)
    if message is not None:
        return render(message, lang)
    return str(reason) if reason else None


class EvidenceSet:
    """The three checkpoints' evidence, each built on first use (a pre-approved round over a
    million experiences never pays for tables nobody reads)."""

    _BUILDERS = {1: group_evidence, 2: threshold_evidence, 3: transfer_evidence}

    def __init__(self, proposal: RoundProposal, round_id: str, lang: str):
        self._args = (proposal, round_id, lang)
        self._built: dict[int, Evidence] = {}

    def __getitem__(self, n: int) -> Evidence:
        if n not in self._built:
            self._built[n] = self._BUILDERS[n](*self._args)
        return self._built[n]


def all_evidence(proposal: RoundProposal, round_id: str, lang: str) -> EvidenceSet:
    return EvidenceSet(proposal, round_id, lang)
