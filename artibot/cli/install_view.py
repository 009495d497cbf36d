"""What ``install`` and ``uninstall`` show, for every client: the plan, the data home, the command hooks call."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from artibot.store.home import Home

if TYPE_CHECKING:
    from artibot.integrations.install_files import InstallPlan


def artibot_command() -> str:
    """How hooks and cron should call this artibot: the absolute path of the script when we can find it."""
    found = shutil.which("artibot")
    if found:
        return shlex.quote(str(Path(found).resolve()))
    return f"{shlex.quote(sys.executable)} -m artibot"


def saved_home() -> str | None:
    """The data home to write into a client's files: the one in force (``--home`` or
    ``$ARTIBOT_HOME``), as an absolute path, when it is not the default ``~/.claude/artibot``;
    None for the default (nothing to write: the hooks find it themselves).

    A client runs its hooks in its own environment (started from a desktop launcher, another
    shell), which need not have the installing shell's ``ARTIBOT_HOME``: a home that is not
    written into the hook commands and the ``/learn`` command is a home the data never reaches.
    """
    from artibot.hookpath import names

    given = os.environ.get(names.HOME_ENV)
    if not given:
        return None
    home = os.path.abspath(names.home_path())
    return None if home == os.path.abspath(os.path.expanduser(names.DEFAULT_HOME)) else home


def learn_command() -> str:
    """What the ``/learn`` command runs: :func:`artibot_command`, with ``--home`` when the home is saved."""
    home = saved_home()
    return artibot_command() + (f" --home {shlex.quote(home)}" if home is not None else "")


def show_plan(plan: InstallPlan, *, dry_run: bool, install: bool, note: Callable[[], None] | None = None) -> bool:
    """Print an install plan's summary (and in a dry run its diff); True when it is to be applied.

    Plain print, not the console: file paths must not be wrapped at 80 columns (or read as
    markup) when the output is piped or read by Claude. ``note`` prints before the last line
    when nothing is written.
    """
    from artibot.cli.words import session_lang, w

    lang = session_lang()
    for line in plan.summary() if lang == "en" else _summary(plan, lang):
        print(line)
    mentioned = tuple(c for c in plan.changes if c.says("install.reserialised"))
    if not dry_run and mentioned:
        # the note points at the diff: a real install shows that file's diff too
        from dataclasses import replace

        diff = replace(plan, changes=mentioned).diff()
        sys.stdout.write(diff if diff.endswith("\n") or not diff else diff + "\n")
    if dry_run:
        diff = plan.diff()
        if diff:
            sys.stdout.write(diff if diff.endswith("\n") else diff + "\n")
        if note is not None:
            note()
        print(w(lang, "in_dry"))
        return False
    if not plan.changed:
        print(w(lang, "in_already") if install else w(lang, "in_nothing"))
        if note is not None:
            note()
        return False
    return True


def _summary(plan: InstallPlan, lang: str) -> list[str]:
    """:meth:`InstallPlan.summary` in ``lang``: the same parts, the installer's notes reworded."""
    from artibot.cli.words import change_word, w
    from artibot.cli.words_errors import said_message

    lines = []
    for c in plan.changes:
        line = w(lang, "in_change", action=change_word(lang, c.action), path=c.path)
        if c.said is not None:
            line += w(lang, "in_note", note=said_message(lang, c.said))
        if c.backup is not None:
            line += w(lang, "in_backup", name=c.backup.name)
        for gone in c.cleanup:
            line += w(lang, "in_cleanup", name=gone.name)
        lines.append(line)
    return lines + [w(lang, "in_warning", warning=said_message(lang, warning)) for warning in plan.said_warnings]


def print_data_home() -> None:
    from artibot.cli.words import session_lang, w

    # Without a saved home the hooks resolve it in the client's environment, not in this shell's.
    saved = saved_home()
    print(w(session_lang(), "in_home_saved" if saved else "in_home", home=saved or Home.of(None).root))
