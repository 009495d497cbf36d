"""``artibot learn`` and ``artibot review``: a cycle with its three checkpoints.

The options are parsed here; what the commands do and print is :mod:`artibot.cli.learn_view`
(which :mod:`artibot.cli.quick` also runs, before typer loads, for the plain argument lists).
"""

from __future__ import annotations

from typing import List, Optional

import typer

from artibot.cli import completion
from artibot.cli.learn_view import run_learn, run_review


def register(app: typer.Typer) -> None:
    @app.command("learn")
    def learn_cmd(
        yes: bool = typer.Option(False, "--yes", "-y", help="Pre-approve: take every checkpoint's default."),
        unattended: bool = typer.Option(False, "--unattended",
                                        help="No human: defer the round for review (or take defaults if "
                                             "learning.checkpoints.unattended is \"defaults\")."),
        dry_run: bool = typer.Option(False, "--dry-run", help="Show everything, write nothing."),
        flush: bool = typer.Option(False, "--flush", help="Also process a last, smaller batch."),
        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON (prompts go to stderr)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing on success (for cron)."),
    ) -> None:
        """One learning round (steps 1–6) with the three human checkpoints (after steps 3, 4 and 5)."""
        run_learn(yes=yes, unattended=unattended, dry_run=dry_run, flush=flush, as_json=as_json, quiet=quiet)

    @app.command("review")
    def review_cmd(
        as_json: bool = typer.Option(False, "--json", help="List the open questions with evidence, options, defaults."),
        answer: Optional[List[str]] = typer.Option(None, "--answer", "-a",
                                                   help="N=CHOICE: 1=accept|reset, 2=apply|revert, 3=auto, "
                                                        "3.PATTERN=auto|promote|demote|hold. Repeatable.",
                                                   autocompletion=completion.answers),
        prepare: bool = typer.Option(False, "--prepare", help="Prepare a round for review if none is pending; "
                                                              "with --json, in brief (sized for an agent's chat)."),
        flush: bool = typer.Option(False, "--flush", help="With --prepare: also process a last, smaller batch."),
        discard: bool = typer.Option(False, "--discard", help="Drop the pending round (logged; nothing applied)."),
        interactive: bool = typer.Option(False, "--interactive", "-i",
                                         help="Ask the open questions one by one, reading the answers from stdin "
                                              "(the default on a terminal)."),
        question: Optional[int] = typer.Option(None, "--question", min=1, max=3,
                                               help="Every row of checkpoint N's evidence (with --json: a page at "
                                                    "a time, --page)."),
        page: int = typer.Option(1, "--page", min=1, help="With --question: which page of its rows."),
        pattern: Optional[str] = typer.Option(None, "--pattern",
                                              help="One pattern of checkpoint 3 (with --json: every field)."),
    ) -> None:
        """Show or answer the round waiting for review."""
        run_review(as_json=as_json, answer=answer, prepare=prepare, flush=flush, discard=discard,
                   interactive=interactive, question=question, page=page, pattern=pattern)
