"""The three human checkpoints: their options and defaults, and the policies that answer
them (their evidence, built from a proposal: :mod:`artibot.round.checkpoint_evidence`; their words
in English and Korean: :mod:`artibot.round.checkpoint_texts`).

A :class:`Checkpoints` object is asked by the cycle at each checkpoint. Policies here
answer without a terminal (pre-approved defaults, scripted answers, deferral for an
unattended run); the terminal policy lives in ``artibot/cli/checkpoint_prompts.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Mapping, Protocol, Sequence, Union, cast

# the evidence a checkpoint shows, re-exported: callers ask this module for all of a checkpoint
from artibot.round.checkpoint_evidence import Evidence as Evidence
from artibot.round.checkpoint_evidence import EvidenceSet as EvidenceSet
from artibot.round.checkpoint_evidence import all_evidence as all_evidence
from artibot.round.checkpoint_evidence import json_row as json_row
from artibot.round.checkpoint_evidence import reason_said as reason_said
from artibot.round.checkpoint_evidence import utility_check as utility_check
from artibot.round.checkpoint_texts import direction as direction  # the words, in English and Korean
from artibot.round.checkpoint_texts import money_line as money_line
from artibot.round.checkpoint_texts import option, question, title
from artibot.errors import ReviewError
from artibot.messages import Message

if TYPE_CHECKING:
    from artibot.learning.types import RoundProposal
    from artibot.config.settings import Settings

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


def default_of(evidence: "Evidence") -> str:
    """The checkpoint's default answer: Apply at checkpoint 2 unless the off-policy estimate
    says the proposal is worse (then Revert: a bare Enter or ``--yes`` must not apply a change
    the evidence speaks against)."""
    if evidence.checkpoint == 2:
        check = evidence.summary.get("utility")
        if check and check.get("worse"):
            return "revert"
    return DEFAULTS[evidence.checkpoint]


def question_json(evidence: Evidence, *, answered: Any = None) -> dict[str, Any]:
    """One open question for ``artibot review --json`` (its shape is a contract: ``/learn`` and other agents read it)."""
    n = evidence.checkpoint
    lang = evidence.lang
    options = [{"choice": c, "label": option(n, c, lang)[0], "meaning": option(n, c, lang)[1],
                "default": c == default_of(evidence)} for c in CHOICES[n]]
    out: dict[str, Any] = {
        "number": n,
        "title": title(n, lang),
        "question": question(n, lang),
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
            raise ReviewError(Message("answers.no_pattern", key=repr(sorted(unknown)[0]),
                                      keys=", ".join(sorted(keys)) or Message("answers.no_patterns")))
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


def _check_choice(n: int, value: Any, where: Message) -> str:
    choice = str(value).strip().lower()
    if choice not in CHOICES[n]:
        raise ReviewError(Message("answers.bad_choice", where=where, n=n, choices="|".join(CHOICES[n]),
                                  choice=repr(choice)))
    return choice


def _groups_choice(value: Any, where: Message) -> GroupsChoice:
    return cast(GroupsChoice, _check_choice(1, value, where))


def _thresholds_choice(value: Any, where: Message) -> ThresholdsChoice:
    return cast(ThresholdsChoice, _check_choice(2, value, where))


def _transfer_choice(value: Any, where: Message) -> TransferChoice:
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
                raise ReviewError(Message("answers.shape", item=repr(item)))
            key, _, value = item.partition("=")
            pairs.append((key.strip(), value))
    for key, value in pairs:
        if key == "1":
            answers.groups = _groups_choice(value, Message("answers.where", answer=f"{key}={value}"))
        elif key == "2":
            answers.thresholds = _thresholds_choice(value, Message("answers.where", answer=f"{key}={value}"))
        elif key == "3":
            if isinstance(value, Mapping):
                for k, v in value.items():
                    answers.per_pattern[str(k)] = _transfer_choice(v, Message("answers.where", answer=f"3.{k}={v}"))
            else:
                answers.transfers = _transfer_choice(value, Message("answers.where", answer=f"{key}={value}"))
        elif key.startswith("3."):
            answers.per_pattern[key[2:]] = _transfer_choice(value, Message("answers.where", answer=f"{key}={value}"))
        else:
            raise ReviewError(Message("answers.unknown_checkpoint", answer=f"{key}={value}"))
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
        raise ReviewError(Message("answers.bad_kind", answers=repr(answers)))
    given = answers if isinstance(answers, Answers) else parse_answers(answers)
    return ScriptedAnswers(given, channel=channel)


def final_actions(proposal: "RoundProposal", answer3: TransferAnswer | None) -> dict[str, str]:
    """Each decided pattern's action after checkpoint 3 (``auto`` = the automatic decision)."""
    automatic = {d.key: d.action for d in proposal.decisions}
    final = dict(automatic)
    if isinstance(answer3, Mapping):
        for key, action in answer3.items():
            final[key] = automatic.get(key, "hold") if action == "auto" else action
    return final
