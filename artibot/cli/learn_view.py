"""What ``artibot learn`` and ``artibot review`` do and print, free of the CLI framework.

The nightly learner and a person checking in run them most often when there is nothing to
do, and typer with its parameter machinery would then be most of what they cost; so
:mod:`artibot.cli.quick` runs the plain argument lists (``artibot learn``, ``artibot
review``) from here before typer is imported, and the commands of :mod:`artibot.cli.cmd_learn`
run the same functions with their options.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Sequence

from artibot.round import checkpoints as cp
from artibot.store.home import Home
from artibot.config import load_settings
from artibot.round.cycle import RoundReport, RoundStatus, learn
from artibot.round.review import answer_pending, discard_pending, nothing_waiting, pending_questions, prepare_for_review
from artibot.errors import ArtibotError, InvalidInput
from artibot.messages import Message, render
from artibot.cli.checkpoint_prompts import TerminalCheckpoints
from artibot.cli.checkpoint_view import change_words, threshold_result, transfer_result, evidence_table
from artibot.cli.render import Hanging, console, emit_json, err_console, progress_line
from artibot.cli.quick import said
from artibot.cli.words import session_lang, w

if TYPE_CHECKING:
    from rich.console import Console

    from artibot.config.settings import Settings

# what --quiet keeps quiet about: the outcomes a cron job expects
QUIET = (RoundStatus.APPLIED, RoundStatus.NOTHING, RoundStatus.DEFERRED, RoundStatus.PENDING)


def show_report(report: RoundReport, out: Console, lang: str = "en") -> None:
    if report.status is RoundStatus.DRY_RUN and report.evidence is not None:
        for n in (1, 2, 3):
            out.print(evidence_table(report.evidence[n], w(lang, "held_in_dry_run")))
            out.print()
    if report.threshold_changes and report.status in (RoundStatus.APPLIED, RoundStatus.DRY_RUN, RoundStatus.DEFERRED):
        out.print(threshold_result(report.threshold_changes, lang))
        out.print()
    moved = [t for t in report.transfers if t["final"] != "hold" or t["final"] != t["automatic"]]
    if moved and report.status in (RoundStatus.APPLIED, RoundStatus.DRY_RUN):
        said = ({d.key: d.message for d in report.proposal.decisions if d.message is not None}
                if report.proposal is not None else None)
        out.print(transfer_result(moved, lang, said))
        out.print()
    out.print(Hanging(_message(report, lang)))


def _message(report: RoundReport, lang: str) -> str:
    """The round's closing line in the session's language."""
    if lang == "en" or report.said is None:
        return report.message
    from artibot.cli.words_errors import say_any

    return say_any(lang, report.said)


def run_learn(*, yes: bool = False, unattended: bool = False, dry_run: bool = False, flush: bool = False,
              as_json: bool = False, quiet: bool = False) -> None:
    """``artibot learn`` with its options."""
    if yes and unattended:
        raise InvalidInput(Message("learn.yes_unattended"))
    home = Home.of(None)
    settings = load_settings(home.root)
    out = err_console if as_json else console
    if yes:
        policy: cp.Checkpoints = cp.DefaultAnswers("pre-approved")
    elif unattended:
        policy = cp.policy_for("unattended", settings)
    else:
        policy = TerminalCheckpoints(out, settings.lang, read=lambda prompt: _read_line(out, prompt))
    spinner = out.is_terminal and not dry_run and (yes or unattended)
    if isinstance(policy, TerminalCheckpoints) and not dry_run:
        from artibot.round.review import pending_round

        waiting = pending_round(home)
        if waiting is not None:  # a round saved for review: answered here, where it is shown
            out.print(w(settings.lang, "continuing", round=waiting))
            report = answer_pending(home=home, settings=settings, policy=policy)
            if as_json:
                emit_json(report.to_json())
            else:
                show_report(report, out, settings.lang)
            return
    if unattended and not dry_run:
        done = _unattended(home, settings, out, quiet=quiet or as_json, flush=flush)
        if done is None:
            return
        if as_json:
            emit_json(done.to_json())
        elif not (quiet and done.status in QUIET):
            show_report(done, out, settings.lang)
        return
    # a spinner while nobody is asked anything; each step on its line before the questions
    shown = progress_line(out)
    say = None if spinner else (lambda message: shown(render(message, settings.lang)))
    with out.status("learning…", spinner="dots") if spinner else nullcontext():
        report = learn(home=home, checkpoints=policy, flush=flush, dry_run=dry_run, settings=settings,
                       progress=say)
    if as_json:
        emit_json(report.to_json())
    elif quiet and report.status is RoundStatus.DRY_RUN:
        out.print(Hanging(report.message))  # quiet: the one line, not the screens
    elif not (quiet and report.status in QUIET):
        show_report(report, out, settings.lang)
    if not dry_run:
        from artibot.cli.team_sync import team_push

        team_push(pull=True)


def _unattended(home: Home, settings: Settings, out: Console, *, quiet: bool, flush: bool) -> RoundReport | None:
    """``learn --unattended``: the job the detached learner and cron both run
    (:mod:`artibot.round.unattended`); its steps go to the hook log, and to the terminal unless quiet."""
    from artibot.round import unattended

    def log(line: str) -> None:
        unattended.log_line(home, line)
        if not quiet and not line.startswith(("learner running", "learner finished")):
            out.print(Hanging(said(line)))

    report = unattended.run(home, settings, log=log, flush=flush)
    if report is None:
        out.print(Hanging(w(settings.lang, "learner_busy")))
    return report


def run_review(*, as_json: bool = False, answer: Sequence[str] | None = None, prepare: bool = False,
               flush: bool = False, discard: bool = False, interactive: bool = False,
               question: int | None = None, page: int = 1, pattern: str | None = None) -> None:
    """``artibot review`` with its options."""
    home = Home.of(None)
    if (question is not None or pattern is not None) and as_json:
        emit_json(_evidence_part(home, question, page, pattern))
        return
    if question is not None or pattern is not None:  # the checkpoint's screen, every row
        console.print(_evidence_screen(home, question, pattern))
        return
    if discard:
        rid = discard_pending(home=home)
        console.print(said(Message("review.discarded", round=rid)))
        return
    if answer:
        report = answer_pending(home=home, answers=list(answer), channel="review")
        if as_json:
            emit_json(report.to_json())
        else:
            show_report(report, console, session_lang())
        return
    if prepare and as_json:
        # /learn inlines this output: a non-zero exit would abort the whole command,
        # so an error is reported inside the JSON instead.
        try:
            doc = _brief(home, prepare_for_review(home=home, flush=flush))
        except ArtibotError as exc:
            doc = {"pending": False, "error": str(exc), "message": f"artibot could not prepare a round: {exc}"}
        emit_json(doc)
        return
    doc = prepare_for_review(home=home, flush=flush) if prepare else pending_questions(home)
    if as_json:
        emit_json(doc)
        return
    if not doc["pending"]:
        console.print(said(nothing_waiting(doc["unprocessed"], doc["batch_size"])))
        return
    settings = load_settings(home.root)
    terminal = TerminalCheckpoints(console, doc["lang"], read=lambda prompt: _read_line(console, prompt))
    if interactive or sys.stdin.isatty():
        report = answer_pending(home=home, settings=settings, policy=terminal)
        show_report(report, console, doc["lang"])
        return
    from artibot.round.review import open_evidence

    shown = open_evidence(home)
    if shown is None:  # answered or discarded since
        console.print(said(Message("review.none")))
        return
    lang = doc["lang"]
    console.print(w(lang, "waiting", round=doc["round_id"], n=doc["processed"]))
    for evidence in shown[2]:
        terminal.present(evidence)
    console.print()
    console.print(Hanging(w(lang, "answer_with", syntax=doc["answer_syntax"])))


def _brief(home: Home, doc: dict[str, Any]) -> dict[str, Any]:
    """The pending round in brief, sized for an agent's chat (:mod:`artibot.round.brief`)."""
    if not doc.get("pending"):
        return doc
    from artibot.round.review import open_evidence
    from artibot.round.brief import brief

    shown = open_evidence(home)
    if shown is None:  # answered or discarded since
        return doc
    return brief(doc, shown[2], change_words)


def _evidence_part(home: Home, question: int | None, page: int, pattern: str | None) -> dict[str, Any]:
    """``review --json --question N [--page P]`` or ``--pattern KEY``: the part of the pending
    round the brief left out."""
    from artibot.round.review import all_open_evidence
    from artibot.round import brief as review_brief

    if question is not None and pattern is not None:
        raise InvalidInput(Message("review.question_pattern"))
    found = all_open_evidence(home)
    if found is None:
        raise InvalidInput(Message("review.none_start"))
    evidence = found[question or 3]
    if pattern is not None:
        return review_brief.pattern(evidence, pattern)
    return review_brief.page(evidence, page)


def _evidence_screen(home: Home, question: int | None, pattern: str | None) -> Any:
    """``review --question N`` or ``--pattern KEY`` in a terminal: the screen ``learn`` shows,
    with every row (held patterns too)."""
    from artibot.round.checkpoints import Evidence
    from artibot.round.review import all_open_evidence
    from artibot.round import brief as review_brief

    found = all_open_evidence(home)
    if found is None:
        raise InvalidInput(Message("review.none_start"))
    if pattern is not None:
        row = review_brief.pattern(found[3], pattern)  # the error names the near keys
        return evidence_table(Evidence(3, found[3].round_id, found[3].lang, rows=[row], summary=found[3].summary))
    return evidence_table(found[question or 3])


def _read_line(out: Console, prompt: str) -> str:
    out.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line
