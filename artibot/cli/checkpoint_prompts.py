"""Terminal checkpoints: line-based prompts (the option's number or its word, then Enter; bare
Enter = default). ``learn`` and ``review`` show the same options under the same names, each
with the word ``review --answer`` takes for it.

End of input on a question that cannot be skipped defers the round (it is saved for
``artibot review``): a closed stdin never silently approves anything.
"""

from __future__ import annotations

from typing import Callable, Mapping

from rich.console import Console

from artibot.round.checkpoint_texts import default_word, mode, option, pattern_option, question
from artibot.round.checkpoints import (
    CHOICES,
    default_of,
    Deferred,
    Evidence,
    GroupsChoice,
    reason_said,
    ThresholdsChoice,
    TransferChoice,
)
from artibot.errors import InvalidInput
from artibot.messages import Message
from artibot.cli.checkpoint_view import evidence_table, held_patterns, transfer_order
from artibot.cli.render import Hanging
from artibot.cli.words import action, w
from artibot.cli.render_round_checks import offpolicy_block

MAX_TRIES = 5


# the answer as its type: _choose returns one of the labels it was given
_TRANSFER_CHOICES: dict[str, TransferChoice] = {"auto": "auto", "promote": "promote", "demote": "demote", "hold": "hold"}


class TerminalCheckpoints:
    channel = "terminal"

    def __init__(self, console: Console, lang: str = "en", read: Callable[[str], str] = input):
        self.console = console
        self.lang = lang
        self.read = read

    def _options(self, labels: list[tuple[str, str, str]], default_index: int) -> None:
        """The options, numbered, the default marked, each with its word (what ``--answer`` takes)."""
        for i, (choice, label, meaning) in enumerate(labels, start=1):
            mark = f" ({default_word(self.lang)})" if i - 1 == default_index else ""
            self.console.print(Hanging(f"{label} [{choice}]{mark} — {meaning}", first=f"  {i}) "))

    def present(self, evidence: Evidence) -> None:
        """The checkpoint's screen and options as ``learn`` shows them, asking nothing (``review``
        without a terminal: the answers go on the command line)."""
        n = evidence.checkpoint
        if n == 2 and not evidence.rows:
            self.console.print("\n" + w(self.lang, "no_move"))
        if n == 3 and not evidence.rows:
            return
        self._show(evidence, held=w(self.lang, "held_in_review"))
        if n == 3:  # the same two ways as learn's; by pattern, the answers go on the command line
            auto, each = mode("auto", self.lang), mode("each", self.lang)
            self._options([("auto", *auto), ("3.PATTERN=auto|promote|demote|hold", *each)], 0)
            return
        self._options([(c, *option(n, c, self.lang)) for c in CHOICES[n]], CHOICES[n].index(default_of(evidence)))

    def _choose(self, n: int, labels: list[tuple[str, str, str]], default_index: int = 0) -> str:
        """``labels``: (choice, label, meaning). Returns the chosen choice."""
        self._options(labels, default_index)
        for _ in range(MAX_TRIES):
            try:
                line = self.read(w(self.lang, "choose", n=len(labels), default=default_index + 1))
            except EOFError:
                raise Deferred(n) from None
            line = line.strip()
            if not line:
                return labels[default_index][0]
            if line.isdigit() and 1 <= int(line) <= len(labels):
                return labels[int(line) - 1][0]
            for choice, _label, _meaning in labels:
                if line.lower() == choice:  # the word shown in [ ], as review --answer takes it
                    return choice
            self.console.print(w(self.lang, "retry", n=len(labels)))
        raise InvalidInput(Message("answers.no_valid", n=n, tries=MAX_TRIES))

    def _show(self, evidence: Evidence, held: str | None = None) -> None:
        self.console.print()
        self.console.print(evidence_table(evidence, held))
        if evidence.checkpoint == 2:  # what the change would have done on the logged requests
            for part in offpolicy_block(evidence.summary.get("off_policy"), evidence.summary.get("utility"),
                                        lang=self.lang):
                self.console.print(part)
        self.console.print()
        self.console.print(Hanging(question(evidence.checkpoint, self.lang)))

    def _ask(self, evidence: Evidence) -> str:
        n = evidence.checkpoint
        self._show(evidence)
        labels = [(c, *option(n, c, self.lang)) for c in CHOICES[n]]
        return self._choose(n, labels, CHOICES[n].index(default_of(evidence)))

    def groups(self, evidence: Evidence) -> GroupsChoice:
        return "reset" if self._ask(evidence) == "reset" else "accept"

    def thresholds(self, evidence: Evidence) -> ThresholdsChoice:
        if not evidence.rows:
            self.console.print("\n" + w(self.lang, "no_move"))
        return "revert" if self._ask(evidence) == "revert" else "apply"

    def transfers(self, evidence: Evidence) -> Mapping[str, TransferChoice] | None:
        if not evidence.rows:
            return None
        holds = any(r["automatic"] == "hold" for r in evidence.rows)
        self._show(evidence, held=w(self.lang, "held_in_learn") if holds else None)
        modes = ("auto", "each", "list") if holds else ("auto", "each")
        while True:
            try:
                way = self._choose(3, [(m, *mode(m, self.lang)) for m in modes])
            except Deferred:
                return None  # skippable: end of input means the automatic decisions
            if way != "list":
                break
            self.console.print()
            self.console.print(held_patterns(evidence))
            self.console.print()
            modes = ("auto", "each")
        if way == "auto":
            return None
        answers: dict[str, TransferChoice] = {}
        labels = [(c, *pattern_option(c, self.lang)) for c in CHOICES[3]]
        for row in transfer_order(evidence.rows):
            self.console.print()
            self.console.print(Hanging(row["key"], first="pattern ", style="bold"))
            reason = reason_said(row, self.lang) or ""
            self.console.print(Hanging(w(self.lang, "automatic", action=action(self.lang, row["automatic"]),
                                         reason=reason), first="  "))
            try:
                answers[row["key"]] = _TRANSFER_CHOICES[self._choose(3, labels)]
            except Deferred:
                answers[row["key"]] = "auto"
        return answers
