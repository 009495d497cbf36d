"""One error hierarchy for the whole library.

Every exception's ``str()`` is the sentence the user reads: what failed and what to
do about it. The CLI maps ``exit_code`` to the process exit status; nothing else in
the library decides exit codes.
"""

from __future__ import annotations

from enum import IntEnum

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module (bench_hooks.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Iterable


def _as_path(path: Path | str) -> Path:
    from pathlib import Path  # only when an error is raised: pathlib costs the prompt hook ~4 ms

    return Path(path)


class ExitCode(IntEnum):
    OK = 0
    FAILURE = 1  # a failure the message explains
    USAGE = 2  # bad usage or invalid input


class ArtibotError(Exception):
    """Base of every error artibot raises on purpose."""

    exit_code: ExitCode = ExitCode.FAILURE


class InvalidInput(ArtibotError):
    """The caller gave something artibot cannot accept; nothing was written."""

    exit_code = ExitCode.USAGE


class ConfigError(InvalidInput):
    """``artibot.config.json`` has an unknown key, a wrong type or a value out of range."""

    def __init__(self, problems: Iterable[str], source: Path | str | None = None):
        self.problems = list(problems)
        self.source = source
        where = f" in {source}" if source else ""
        body = "; ".join(self.problems)
        super().__init__(f"invalid configuration{where}: {body}")


class ValidationError(InvalidInput):
    """An experience record breaks the schema. ``problems`` holds one message per field."""

    def __init__(self, problems: Iterable[str], where: str | None = None):
        self.problems = list(problems)
        self.where = where
        prefix = f"{where}: " if where else ""
        super().__init__(prefix + "; ".join(self.problems) + " (nothing was written)")


class StoreError(ArtibotError):
    """A file in the data home could not be read or written."""


class CorruptFileError(StoreError):
    """A state file does not parse or fails its schema. It is left untouched."""

    def __init__(self, path: Path | str, problem: str):
        self.path = _as_path(path)
        self.problem = problem
        super().__init__(
            f"{path}: {problem}. The file was left untouched; "
            "run `artibot doctor` to see the problem and `artibot doctor --repair` "
            "to move the bad copy aside."
        )


class UnsafePathError(StoreError):
    """A data file is a symlink or not a regular file; artibot will not follow it."""

    def __init__(self, path: Path | str, what: str = "a symbolic link"):
        self.path = _as_path(path)
        super().__init__(
            f"{path} is {what}; artibot never follows links planted in its data home. "
            "Remove or move it, then run the command again."
        )


class LockTimeout(StoreError):
    """Another process held a lock for longer than we were willing to wait."""

    def __init__(self, path: Path | str, seconds: float, holder: str = "another artibot process"):
        self.path = _as_path(path)
        super().__init__(
            f"{holder} holds {path} (waited {seconds:g} s); "
            "try again when it has finished."
        )


class ReviewError(InvalidInput):
    """A review answer does not fit the pending round (or there is none)."""


class NotFoundError(InvalidInput):
    """A round, decision or other named thing does not exist."""


class IntegrationError(ArtibotError):
    """Installing into or talking to an agent (Claude Code) failed."""
