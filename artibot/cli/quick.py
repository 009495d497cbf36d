"""What the command line answers before typer is imported, and the error handling it shares.

typer, its vendored click and the pydantic it validates parameters with take about half of
the time a command a person types often may take to start (its target is 300 ms;
docs/benchmarks.md, "Costs behind the code"). So
``artibot status``, and ``learn``, ``review`` and ``drift`` in the forms the nightly learner,
the weekly check and a person checking in use (argv exactly one of :data:`QUICK_COMMANDS`;
most often with nothing to do, which then costs what ``status`` does) run from here, and
bash's TAB completion of a command's arguments (:func:`artibot.cli.completion.quick_bash`)
is answered from plain data. Anything else, ``--help`` and every error of usage included,
goes through the full CLI (:mod:`artibot.cli.app`), which uses :func:`guarded` and
:func:`setup_logging` too, so that both paths behave alike.
"""

from __future__ import annotations

import sys

from artibot.errors import ArtibotError, ExitCode, StoreError
from artibot.messages import Message

TYPE_CHECKING = False  # `typing` itself is a share of the start-up (docs/benchmarks.md)
if TYPE_CHECKING:
    from typing import Callable

INTERRUPTED = 130

QUICK_COMMANDS: dict[tuple[str, ...], tuple[str, str, dict[str, bool]]] = {
    ("status",): ("status_view", "show_status", {"as_json": False}),
    ("status", "--json"): ("status_view", "show_status", {"as_json": True}),
    ("learn",): ("learn_view", "run_learn", {}),
    ("learn", "--unattended"): ("learn_view", "run_learn", {"unattended": True}),
    ("learn", "--unattended", "--quiet"): ("learn_view", "run_learn", {"unattended": True, "quiet": True}),
    ("learn", "--json"): ("learn_view", "run_learn", {"as_json": True}),
    ("review",): ("learn_view", "run_review", {}),
    ("review", "--json"): ("learn_view", "run_review", {"as_json": True}),
    ("drift",): ("drift_view", "run_drift", {"as_json": False}),
    ("drift", "--json"): ("drift_view", "run_drift", {"as_json": True}),
}
"""argv -> the module of :mod:`artibot.cli`, the function and its options, for the argument
lists answered here (the commands of the full CLI call the same functions)."""


def setup_logging() -> None:
    """Warnings (an ignored config key, say) as ``artibot: warning: ...`` lines; the library
    reports through return values and errors and logs nothing else."""
    import logging

    logging.basicConfig(level=logging.WARNING, format="artibot: warning: %(message)s")


def interrupted() -> str:
    """The Ctrl-C line, in the configured language."""
    return f"\nartibot: {said(Message('error.interrupted'))}\n"


def said(message: str | Message | ArtibotError) -> str:
    """An error line (without ``artibot:``) in the configured language (:mod:`artibot.cli.words_errors`):
    a message, a sentence, or an error (a record's validation problems are said one by one)."""
    text = str(message)
    try:
        from artibot.cli.words import session_lang

        lang = session_lang()
        if lang == "en":
            return text
        from artibot.cli.words_errors import say_any, say_error

        return say_error(lang, message) if isinstance(message, ArtibotError) else say_any(lang, message)
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


def prepare_quick(args: list[str]) -> Callable[[], int] | None:
    """What runs ``args`` when they are answered here (its modules imported now: the caller holds
    Ctrl-C back meanwhile), else None (the full CLI runs them). Called, it gives the exit code."""
    found = QUICK_COMMANDS.get(tuple(args))
    if found is None:
        return None
    module, name, options = found
    from importlib import import_module

    setup_logging()
    command = getattr(import_module(f"artibot.cli.{module}"), name)

    def run() -> int:
        try:
            command(**options)
        except (EOFError, KeyboardInterrupt):
            # as the full CLI's parser does: the line ended, then the one "interrupted" line
            sys.stderr.write("\n")
            raise KeyboardInterrupt from None
        return int(ExitCode.OK)

    return lambda: guarded(run)
