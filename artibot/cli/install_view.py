"""What ``install`` and ``uninstall`` show, for every client: the plan, the data home, the command hooks call."""

from __future__ import annotations

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


def show_plan(plan: InstallPlan, *, dry_run: bool, install: bool, note: Callable[[], None] | None = None) -> bool:
    """Print an install plan's summary (and in a dry run its diff); True when it is to be applied.

    Plain print, not the console: file paths must not be wrapped at 80 columns (or read as
    markup) when the output is piped or read by Claude. ``note`` prints before the last line
    when nothing is written.
    """
    for line in plan.summary():
        print(line)
    mentioned = tuple(c for c in plan.changes if "see the diff" in c.note)
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
        print("dry run: nothing written")
        return False
    if not plan.changed:
        print("artibot is already installed" if install else "nothing to remove")
        if note is not None:
            note()
        return False
    return True


def print_data_home() -> None:
    # The hooks resolve the home in Claude Code's environment, not in this shell's.
    print(f"experiences and learned state go to {Home.of(None).root} (ARTIBOT_HOME as Claude Code sees it, "
          "else ~/.claude/artibot); only anonymized text is stored")
