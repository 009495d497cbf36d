"""The nightly learner and the weekly drift check as lines in the user's crontab.

artibot owns exactly the lines that end in ``# artibot:<name>``; everything else in
the crontab is kept byte for byte. Scheduling twice gives the same crontab; unscheduling
removes only artibot's lines. (cron passes ``# ...`` after a command to the shell, which
ignores it, so the tag costs nothing at run time.)

cron runs with a minimal ``PATH`` and in ``$HOME``, so the command should be an absolute
path and the data home (and config file, if any) are set on the line itself.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path
from typing import Protocol

from artibot.config.settings import ScheduleSettings
from artibot.config.validators import cron_problem
from artibot.errors import IntegrationError, InvalidInput
from artibot.messages import Message

TAG = "# artibot:"
_TAGGED = re.compile(r"#\s*artibot:[\w-]+\s*$")


class Crontab(Protocol):
    def read(self) -> str: ...

    def write(self, text: str) -> None: ...


class SystemCrontab:
    """The current user's crontab through the ``crontab`` command."""

    def __init__(self, executable: str = "crontab", timeout: float = 30.0):
        self.executable = executable
        self.timeout = timeout

    def _run(self, args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        try:
            return subprocess.run([self.executable, *args], input=stdin, capture_output=True,
                                  text=True, timeout=self.timeout, check=False)
        except FileNotFoundError:
            raise IntegrationError(Message("args.no_crontab", executable=self.executable,
                                           command="artibot learn --unattended")) from None
        except subprocess.TimeoutExpired:
            raise IntegrationError(Message("installers.crontab_timeout", command=f"{self.executable} {' '.join(args)}",
                                           seconds=f"{self.timeout:g}")) from None

    def read(self) -> str:
        proc = self._run(["-l"])
        if proc.returncode == 0:
            return proc.stdout
        if "no crontab" in proc.stderr.lower():
            return ""
        raise IntegrationError(Message("installers.crontab_list_failed", executable=self.executable,
                                       reason=proc.stderr.strip() or str(proc.returncode)))

    def write(self, text: str) -> None:
        proc = self._run(["-"], stdin=text)
        if proc.returncode != 0:
            raise IntegrationError(Message("installers.crontab_refused", executable=self.executable,
                                           reason=proc.stderr.strip() or str(proc.returncode)))


def _cron_escape(text: str) -> str:
    return text.replace("%", r"\%")  # an unescaped % ends a cron command


def _check(expr: str, key: str) -> None:
    problem = cron_problem(expr, f"learning.schedule.{key}")
    if problem:
        raise InvalidInput(problem)


def schedule_lines(settings: ScheduleSettings, command: str, home: Path, *,
                   config: Path | None = None) -> list[str]:
    """artibot's crontab lines: the nightly learner and the drift check.

    ``command`` is the artibot command prefix (an absolute path: cron's ``PATH`` is
    minimal); ``config`` is the config file to pin when it is not in ``home``.
    """
    _check(settings.nightly_learner, "nightlyLearner")
    _check(settings.drift_check, "driftCheck")
    if not command.strip() or "\n" in command or TAG in command:
        raise InvalidInput(Message("installers.cron_prefix", command=repr(command)))
    env = f"ARTIBOT_HOME={shlex.quote(str(home))}"
    if config is not None:
        env += f" ARTIBOT_CONFIG={shlex.quote(str(config))}"
    prefix = _cron_escape(f"{env} {command}")
    return [
        f"{settings.nightly_learner} {prefix} learn --unattended  {TAG}nightly-learner",
        f"{settings.drift_check} {prefix} drift --json  {TAG}drift-check",
    ]


def is_ours(line: str) -> bool:
    return bool(_TAGGED.search(line))


def plan_schedule(current: str, lines: list[str]) -> str:
    """``current`` with artibot's lines replaced by ``lines`` (at the place of the first old one)."""
    for line in lines:
        if not is_ours(line) or "\n" in line:
            raise InvalidInput(Message("installers.not_cron_line", tag=TAG, line=repr(line)))
    kept: list[str] = []
    insert_at: int | None = None
    for line in current.splitlines(keepends=True):
        if is_ours(line.rstrip("\r\n")):
            if insert_at is None:
                insert_at = len(kept)
            continue
        kept.append(line)
    if insert_at is None:
        insert_at = len(kept)
        if lines and kept and not kept[-1].endswith("\n"):
            kept[-1] += "\n"  # cron needs every line terminated
    new = [line + "\n" for line in lines]
    return "".join(kept[:insert_at] + new + kept[insert_at:])


def plan_unschedule(current: str) -> str:
    return plan_schedule(current, [])


def show(current: str) -> list[str]:
    """artibot's lines in ``current``."""
    return [line for line in current.splitlines() if is_ours(line)]


def update(crontab: Crontab, lines: list[str]) -> tuple[str, str]:
    """Put ``lines`` (``[]``: none) in the crontab; write only if it changes. Returns (before, after)."""
    before = crontab.read()
    after = plan_schedule(before, lines)
    if after != before:
        crontab.write(after)
    return before, after
