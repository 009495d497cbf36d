"""What the command line answers before typer is imported, and the error handling it shares.

typer, its vendored click and the pydantic it validates parameters with cost ~150 ms to
load, half of the ~300 ms a command a person types often may take to start. So
``artibot status`` and ``artibot status --json`` (argv exactly that) run from here, and
bash's TAB completion of a command's arguments (:func:`artibot.cli.completion.quick_bash`)
is answered from plain data. Anything else, ``--help`` and every error of usage included,
goes through the full CLI (:mod:`artibot.cli.app`), which uses :func:`guarded` and
:func:`setup_logging` too, so that both paths behave alike.
"""

from __future__ import annotations

import sys

from artibot.errors import ArtibotError, ExitCode, StoreError, ValidationError

TYPE_CHECKING = False  # `typing` itself costs ~10 ms of the start-up
if TYPE_CHECKING:
    from typing import Callable

INTERRUPTED = 130

QUICK_COMMANDS = {("status",): False, ("status", "--json"): True}
"""argv -> the ``--json`` flag of ``status``, for the argument lists answered here."""


def setup_logging() -> None:
    """Warnings (an ignored config key, say) as ``artibot: warning: ...`` lines; the library
    reports through return values and errors and logs nothing else."""
    import logging

    logging.basicConfig(level=logging.WARNING, format="artibot: warning: %(message)s")


def interrupted() -> str:
    """The Ctrl-C line, in the configured language."""
    return f"\nartibot: {said('interrupted; nothing half-written was kept')}\n"


def said(message: str | ArtibotError) -> str:
    """An error line (without ``artibot:``) in the configured language (:mod:`artibot.cli.words_errors`):
    a sentence, or an error (a record's validation problems are said one by one)."""
    text = str(message)
    try:
        from artibot.cli.words import session_lang

        lang = session_lang()
        if lang == "en":
            return text
        from artibot.cli.words_errors import say, say_problems

        if isinstance(message, ValidationError):
            return say_problems(lang, message.problems, message.where)
        return say(lang, text)
    except Exception:  # noqa: BLE001 - the error itself matters more than its language
        return text


def guarded(call: Callable[[], int]) -> int:
    """``call()``'s exit code; every expected error as one line on stderr and its code, never a traceback."""
    try:
        return call()
    except ArtibotError as exc:
        sys.stderr.write(f"artibot: {said(exc)}\n")
        return int(exc.exit_code)
    except BrokenPipeError:
        return int(ExitCode.OK)
    except OSError as exc:
        # the store turns its own OSErrors into sentences; this is the net for any other file
        sys.stderr.write(f"artibot: {said(str(StoreError.from_os(exc, doing='access')))}\n")
        return int(ExitCode.FAILURE)
    except KeyboardInterrupt:
        sys.stderr.write(interrupted())
        return INTERRUPTED


def run_quick(args: list[str]) -> int | None:
    """The exit code of ``args`` when answered here, else None (the full CLI runs them)."""
    as_json = QUICK_COMMANDS.get(tuple(args))
    if as_json is None:
        return None

    def show() -> int:
        from artibot.cli.status_view import show_status

        setup_logging()
        show_status(as_json)
        return int(ExitCode.OK)

    return guarded(show)
