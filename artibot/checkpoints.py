"""The three human checkpoints (SPEC §5): questions in English and Korean, their evidence,
options and defaults, and the policies that answer them.

A :class:`Checkpoints` object is asked by the cycle at each checkpoint. Policies here
answer without a terminal (pre-approved defaults, scripted answers, deferral for an
unattended run); the terminal policy lives in ``artibot/cli/prompts.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from artibot.errors import ReviewError

CHOICES = {1: ("accept", "reset"), 2: ("apply", "revert"), 3: ("auto", "promote", "demote", "hold")}
DEFAULTS = {1: "accept", 2: "apply", 3: "auto"}
SKIPPABLE = {1: False, 2: False, 3: True}

TEXTS: dict[str, dict[str, Any]] = {
    "en": {
        "title": {1: "Checkpoint 1: GRPO comparison review (after step 4)",
                  2: "Checkpoint 2: threshold direction check (after step 5)",
                  3: "Checkpoint 3: promote / demote review (after step 6)"},
        "question": {
            1: "The GRPO group comparison is done. Do the per-group success-rate differences look reasonable?",
            2: "The routing thresholds have been adjusted. Does the direction of each change "
               "(more or less System 2) match what was observed?",
            3: "Knowledge-transfer decisions are ready. Is each promote / demote / hold decision sound?",
        },
        "options": {
            1: {"accept": ("Accept", "the results look reasonable; go on to the threshold update"),
                "reset": ("Reset group data", "discard this round's groups; its experiences stay unprocessed")},
            2: {"apply": ("Apply", "apply the adjustment; go on to knowledge transfer"),
                "revert": ("Revert adjustment", "keep the current thresholds; the batches still count as processed")},
            3: {"auto": ("Automatic decision", "apply the automatic decision (the default)"),
                "promote": ("Promote", "move the pattern into the System 1 cache"),
                "demote": ("Demote", "take the pattern out of the System 1 cache, back to System 2"),
                "hold": ("Hold", "keep the pattern where it is this cycle")},
        },
        "direction": {"down": "lower: more System 2", "up": "higher: more System 1", "same": "unchanged"},
        "skip": "Skip (use the automatic decisions)",
        "default": "default",
    },
    "ko": {
        "title": {1: "체크포인트 1: GRPO 비교 결과 검토 (Step 4 이후)",
                  2: "체크포인트 2: 임계값 조정 방향 확인 (Step 5 이후)",
                  3: "체크포인트 3: 승격/강등 결정 검토 (Step 6 이후)"},
        "question": {
            1: "Step 4 GRPO 그룹 비교 결과를 확인했습니다. 각 그룹의 성공률 차이가 합리적으로 보이나요?",
            2: "라우팅 임계값이 조정되었습니다. 조정 방향(System 2 비중 증가/감소)이 세션에서 관찰된 패턴과 맞나요?",
            3: "지식 이전 결정이 생성되었습니다. 각 패턴의 승격/강등/보류 결정이 타당해 보이나요?",
        },
        "options": {
            1: {"accept": ("Accept", "결과가 합리적, Step 5 임계값 조정으로 진행"),
                "reset": ("Reset group data", "이번 그룹 데이터를 폐기, 경험은 미처리로 남김")},
            2: {"apply": ("Apply", "조정값 적용, Step 6 지식 이전으로 진행"),
                "revert": ("Revert adjustment", "이번 조정 취소, 기존 임계값 유지 (배치는 처리됨)")},
            3: {"auto": ("자동 결정", "자동 기준 결과 적용 (기본값)"),
                "promote": ("Promote", "해당 패턴을 System 1로 승격"),
                "demote": ("Demote", "해당 패턴을 System 2로 강등"),
                "hold": ("Hold", "이번 사이클에서는 현재 위치 유지")},
        },
        "direction": {"down": "낮춤: System 2 비중 증가", "up": "높임: System 1 비중 증가", "same": "변화 없음"},
        "skip": "건너뛰기 (자동 결정 사용)",
        "default": "기본값",
    },
}


def texts(lang: str) -> dict[str, Any]:
    return TEXTS.get(lang, TEXTS["en"])


def direction(old: float, new: float, lang: str = "en") -> str:
    words = texts(lang)["direction"]
    if new < old - 1e-12:
        return words["down"]
    if new > old + 1e-12:
        return words["up"]
    return words["same"]


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
        self._data = None if build else (tuple(rows), dict(summary or {}))
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
    """One open question for ``artibot review --json`` (SPEC §9)."""
    n = evidence.checkpoint
    t = texts(evidence.lang)
    options = [
        {"choice": c, "label": t["options"][n][c][0], "meaning": t["options"][n][c][1], "default": c == DEFAULTS[n]}
        for c in CHOICES[n]
    ]
    out: dict[str, Any] = {
        "number": n,
        "title": t["title"][n],
        "question": t["question"][n],
        "skippable": SKIPPABLE[n],
        "options": options,
        "default": DEFAULTS[n],
        "evidence": evidence.to_json(),
        "answered": answered,
    }
    if n == 2:
        out["off_policy"] = evidence.summary.get("off_policy")
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

    def groups(self, evidence: Evidence) -> str: ...            # "accept" | "reset"

    def thresholds(self, evidence: Evidence) -> str: ...        # "apply" | "revert"

    def transfers(self, evidence: Evidence) -> Mapping[str, str] | None: ...  # key -> action; None = skip


class DefaultAnswers:
    """Takes every default: ``--yes`` (an explicit human choice) or the ``"defaults"`` unattended policy."""

    def __init__(self, channel: str = "pre-approved"):
        self.channel = channel

    def groups(self, evidence: Evidence) -> str:
        return DEFAULTS[1]

    def thresholds(self, evidence: Evidence) -> str:
        return DEFAULTS[2]

    def transfers(self, evidence: Evidence) -> Mapping[str, str] | None:
        return None


class DeferAnswers:
    """Unattended with ``checkpoints.unattended = "defer"``: nothing can be answered."""

    channel = "unattended"

    def groups(self, evidence: Evidence) -> str:
        raise Deferred(1)

    def thresholds(self, evidence: Evidence) -> str:
        raise Deferred(2)

    def transfers(self, evidence: Evidence) -> Mapping[str, str] | None:
        raise Deferred(3)


class ScriptedAnswers:
    """Answers given in advance (``artibot review --answer``, Python ``learn(answers=...)``).

    A question without an answer defers the round, except checkpoint 3, which is skippable.
    """

    def __init__(self, answers: "Answers", channel: str = "review"):
        self.answers = answers
        self.channel = channel

    def groups(self, evidence: Evidence) -> str:
        if self.answers.groups is None:
            raise Deferred(1)
        return self.answers.groups

    def thresholds(self, evidence: Evidence) -> str:
        if self.answers.thresholds is None:
            raise Deferred(2)
        return self.answers.thresholds

    def transfers(self, evidence: Evidence) -> Mapping[str, str] | None:
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

    groups: str | None = None
    thresholds: str | None = None
    transfers: str | None = None  # "auto" for every pattern
    per_pattern: dict[str, str] = field(default_factory=dict)

    def merged(self, other: "Answers") -> "Answers":
        return Answers(
            groups=other.groups or self.groups,
            thresholds=other.thresholds or self.thresholds,
            transfers=other.transfers or self.transfers,
            per_pattern={**self.per_pattern, **other.per_pattern},
        )

    def to_json(self) -> dict[str, Any]:
        return {"1": self.groups, "2": self.thresholds, "3": self.transfers, "3.patterns": dict(self.per_pattern)}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> "Answers":
        return cls(groups=doc.get("1"), thresholds=doc.get("2"), transfers=doc.get("3"),
                   per_pattern=dict(doc.get("3.patterns") or {}))


def _check_choice(n: int, value: Any, where: str) -> str:
    value = str(value).strip().lower()
    if value not in CHOICES[n]:
        raise ReviewError(f"{where}: checkpoint {n} takes {'|'.join(CHOICES[n])}, not {value!r}")
    return value


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
            answers.groups = _check_choice(1, value, f"answer {key}={value}")
        elif key == "2":
            answers.thresholds = _check_choice(2, value, f"answer {key}={value}")
        elif key == "3":
            if isinstance(value, Mapping):
                for k, v in value.items():
                    answers.per_pattern[str(k)] = _check_choice(3, v, f"answer 3.{k}={v}")
            else:
                answers.transfers = _check_choice(3, value, f"answer {key}={value}")
        elif key.startswith("3."):
            answers.per_pattern[key[2:]] = _check_choice(3, value, f"answer {key}={value}")
        else:
            raise ReviewError(f"answer {key}={value}: the checkpoints are 1, 2 and 3 (or 3.PATTERN)")
    return answers


# --------------------------------------------------------------------- evidence from a proposal
def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(float(x), nd)


def group_evidence(proposal: Any, round_id: str, lang: str) -> Evidence:
    """Checkpoint 1: a table of groups (domain, complexity range, System 1 n/success, System 2 n/success, advantage)."""
    return Evidence(1, round_id, lang, build=lambda: _group_rows(proposal))


def _group_rows(proposal: Any) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
    rows = []
    # evidence mode: the 90% interval of each group's advantage, aligned with the groups
    intervals = (proposal.params.get("intervals") or {}).get("groups") or []
    for i, g in enumerate(proposal.groups):
        row = {"batch": g.batch, "domain": g.domain,
               "complexity": [_r(g.complexity_min), _r(g.complexity_max)],
               "s1": f"{g.k1}/{g.n1}", "s2": f"{g.k2}/{g.n2}",
               "advantage": _r(g.advantage), "one_sided": g.one_sided}
        extra = intervals[i] if i < len(intervals) else None
        if extra is not None:
            row["interval"] = [_r(extra[0]), _r(extra[1])]
        rows.append(row)
    two = sum(1 for g in proposal.groups if not g.one_sided)
    summary = {"batches": len(proposal.batches), "groups": len(rows), "two_sided": two,
               "one_sided": len(rows) - two, "mode": proposal.mode}
    return tuple(rows), summary


def threshold_evidence(proposal: Any, round_id: str, lang: str) -> Evidence:
    """Checkpoint 2: old -> new threshold per domain with the direction in words."""
    return Evidence(2, round_id, lang, build=lambda: _threshold_rows(proposal, lang))


def _threshold_rows(proposal: Any, lang: str) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
    rows = []
    for domain, (old, new) in proposal.net_changes().items():
        steps = [s for s in proposal.steps if s.domain == domain]
        rows.append({"domain": "default" if domain == "*" else domain, "old": _r(old, 4), "new": _r(new, 4),
                     "change": _r(new - old, 4), "direction": direction(old, new, lang),
                     "batches": len(steps), "clamped": sum(1 for s in steps if s.clamped)})
    # issue 12: what the proposed thresholds would have done on the logged window (None before it existed)
    return tuple(rows), {"mode": proposal.mode, "off_policy": proposal.params.get("off_policy")}


def transfer_evidence(proposal: Any, round_id: str, lang: str) -> Evidence:
    """Checkpoint 3: each pattern's automatic decision with its streaks, counts and confidence."""
    return Evidence(3, round_id, lang, build=lambda: _transfer_rows(proposal))


def _transfer_rows(proposal: Any) -> tuple[tuple[Mapping[str, Any], ...], Mapping[str, Any]]:
    rows = []
    # evidence mode: the bounds of each decided pattern's System 1 success
    bounds_of = (proposal.params.get("intervals") or {}).get("patterns") or {}
    for d in proposal.decisions:
        s = d.stats
        row = {"key": d.key, "status": s.status, "automatic": d.action, "reason": d.reason,
               "promotion_streak": s.promotion_streak, "demotion_streak": s.demotion_streak,
               "s1": f"{s.k1}/{s.n1}", "s2": f"{s.k2}/{s.n2}", "confidence": _r(s.confidence)}
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
