"""The ``artibot`` command line: parse -> call the library -> render.

This is the one place that maps library errors to exit codes and messages: every
:class:`~artibot.errors.ArtibotError` becomes one line on stderr and its exit code
(1 failure, 2 bad usage or invalid input); a usage error from the parser exits 2; any
``OSError`` that escaped the store is one sentence naming the file (exit 1), never a
traceback.
"""

from __future__ import annotations

import logging
import sys

import typer

from artibot import __version__
from artibot.errors import ArtibotError, ExitCode, StoreError

app = typer.Typer(
    name="artibot",
    help="Make an AI coding agent's System 1 / System 2 router learn from experience.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"artibot {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what the library does to stderr."),
) -> None:
    """artibot — records routing decisions and outcomes, learns thresholds, asks you at three checkpoints."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(message)s")


def _register() -> None:
    from artibot.cli import cmd_collect, cmd_gateway, cmd_integrate, cmd_learn, cmd_report, cmd_route, cmd_state

    for module in (cmd_collect, cmd_route, cmd_learn, cmd_state, cmd_integrate, cmd_gateway, cmd_report):
        module.register(app)


_register()


def run(argv: list[str]) -> int:
    """Run the CLI with ``argv``; never lets a traceback reach the user for an expected error.

    The parser runs in standalone mode (usage errors print usage and exit 2 by
    themselves); library errors pass through it and are mapped here.
    """
    try:
        app(args=argv, prog_name="artibot", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return int(ExitCode.OK)
        if isinstance(code, int):
            return code
        sys.stderr.write(f"artibot: {code}\n")
        return int(ExitCode.FAILURE)
    except ArtibotError as exc:
        sys.stderr.write(f"artibot: {exc}\n")
        return int(exc.exit_code)
    except BrokenPipeError:
        return int(ExitCode.OK)
    except OSError as exc:
        # the store turns its own OSErrors into sentences; this is the net for any other file
        sys.stderr.write(f"artibot: {StoreError.from_os(exc, doing='access')}\n")
        return int(ExitCode.FAILURE)
    except KeyboardInterrupt:
        sys.stderr.write("artibot: interrupted; nothing half-written was kept\n")
        return 130
    return int(ExitCode.OK)
