"""The ``artibot`` command line: parse -> call the library -> render.

This is the one place that maps library errors to exit codes and messages: every
:class:`~artibot.errors.ArtibotError` becomes one line on stderr and its exit code
(1 failure, 2 bad usage or invalid input); a usage error from the parser is one line too
and exits 2; Ctrl-C is one line and exits 130; a closed pipe stops quietly; any
``OSError`` that escaped the store is one sentence naming the file (exit 1), never a
traceback.
"""

from __future__ import annotations

import os
import sys
from typing import Optional

import typer

try:  # typer vendors click since 0.2x; before, it depended on click itself
    from typer._click import exceptions as click_exceptions, utils as click_utils
except ImportError:  # pragma: no cover - older typer
    from click import exceptions as click_exceptions, utils as click_utils  # type: ignore[no-redef]

from artibot import __version__
from artibot.cli.lazy import LazyGroup
from artibot.cli.quick import INTERRUPTED, guarded, interrupted, said, setup_logging
from artibot.errors import ExitCode

app = typer.Typer(
    cls=LazyGroup,  # each command's module is imported when that command runs (start-up time)
    name="artibot",
    help="Make an AI coding agent's System 1 / System 2 router learn from experience.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"artibot {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
    home: Optional[str] = typer.Option(None, "--home", metavar="DIR",
                                       help="The data home [default: $ARTIBOT_HOME, else ~/.claude/artibot]."),
) -> None:
    """artibot — records routing decisions and outcomes, learns thresholds, asks you at three checkpoints."""
    # There is no -v: the library reports through return values and errors, and logs only
    # warnings (an ignored config key, say), which are always shown.
    setup_logging()  # here: `--help` and TAB completion never reach this callback
    if home is not None:
        # The environment carries the choice to every layer and to the processes artibot
        # starts (the detached learner), exactly as ARTIBOT_HOME would.
        os.environ["ARTIBOT_HOME"] = os.path.expanduser(home)


# The commands are in artibot.cli.lazy.COMMANDS: each module registers its own when used.

def _usage_line(exc: click_exceptions.ClickException) -> str:
    """A usage error as one line, like every other error, with where to look: the parser's
    words (:mod:`artibot.cli.words_foreign`), then artibot's own (a message)."""
    from artibot.messages import Message

    ctx = getattr(exc, "ctx", None)
    message = exc.format_message()
    where = Message("usage.see_help", command=ctx.command_path) if ctx is not None else None
    if "--home" in message and "No such option" in message and ctx is not None:
        # the one option of artibot itself that people put after the command
        where = Message("usage.home_first", command=ctx.info_name)
    return f"artibot: {said(message)}{said(where) if where is not None else ''}\n"


def run(argv: list[str]) -> int:
    """Run the CLI with ``argv``; never lets a traceback reach the user for an expected error.

    The parser runs in non-standalone mode so that every error, its own usage errors
    included, is one line on stderr here (the library's errors in :func:`guarded`).
    """
    return guarded(lambda: _parse_and_run(argv))


def _parse_and_run(argv: list[str]) -> int:
    try:
        code = app(args=argv, prog_name="artibot", standalone_mode=False)
    except SystemExit as exc:
        if isinstance(sys.stdout, click_utils.PacifyFlushWrapper):
            # the reader went away (`artibot demo | head`): the parser already silenced the
            # streams; stop quietly, as `cat` or `git log` do
            return int(ExitCode.OK)
        code = exc.code
        if code is None:
            return int(ExitCode.OK)
        if isinstance(code, int):
            return code
        sys.stderr.write(f"artibot: {code}\n")
        return int(ExitCode.FAILURE)
    except click_exceptions.ClickException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `artibot`: the help, as before
            sys.stdout.write(exc.format_message() + "\n")
            return int(ExitCode.USAGE)
        sys.stderr.write(_usage_line(exc))
        return int(exc.exit_code)
    except typer.Abort:
        sys.stderr.write(interrupted())
        return INTERRUPTED
    if code == INTERRUPTED:
        # the parser turns Ctrl-C into a silent exit 130; say it in one line
        sys.stderr.write(interrupted())
    return int(code) if isinstance(code, int) else int(ExitCode.OK)
