"""One error hierarchy for the whole library.

Every exception's ``str()`` is the sentence the user reads: what failed and what to
do about it. The CLI maps ``exit_code`` to the process exit status; nothing else in
the library decides exit codes.
"""

from __future__ import annotations

import errno
from enum import IntEnum

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module (bench_hooks.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Iterable


def _as_path(path: Path | str) -> Path:
    from pathlib import Path  # only when an error is raised: pathlib weighs on every prompt hook

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

    @classmethod
    def from_os(cls, exc: OSError, path: Path | str | None = None, doing: str = "write") -> "StoreError":
        """One sentence for an ``OSError``: the file, what failed, and what to do about it."""
        where = path if path is not None else (exc.filename or "a file in the data home")
        reason = exc.strerror or str(exc)
        advice = _ADVICE.get(exc.errno or 0, "fix the cause and run the command again")
        return cls(f"cannot {doing} {where}: {reason}; {advice}")


_ADVICE = {
    errno.ENOSPC: "the disk is full: free some space and run the command again (what was already "
                  "stored is intact)",
    errno.EDQUOT: "the disk quota is used up: free some space and run the command again",
    errno.EROFS: "the file system is read-only: point ARTIBOT_HOME at a writable folder, or remount it",
    errno.EACCES: "permission denied: check that you own the data home and its files (chmod u+rw)",
    errno.EPERM: "operation not permitted: check that you own the data home and its files",
    errno.ENOTDIR: "a path in the data home is a file where a folder should be: set ARTIBOT_HOME to a "
                   "folder, or move the file aside",
    errno.EISDIR: "a folder stands where a file should be: move it aside (`artibot doctor` shows it)",
    errno.EIO: "the disk reported an I/O error: check the disk, then run `artibot doctor`",
    errno.EMFILE: "too many open files: close some programs and run the command again",
}


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


class NotAFolderError(StoreError):
    """A file stands where artibot needs a folder (the data home itself, or one of its folders)."""

    def __init__(self, path: Path | str):
        self.path = _as_path(path)
        super().__init__(
            f"{path} is not a folder, and artibot needs a folder there (the data home or one of its folders); "
            "move the file aside, or set ARTIBOT_HOME to a folder."
        )


class LockTimeout(StoreError):
    """Another process held a lock for longer than we were willing to wait."""

    transient = True
    """Trying again later works (a hook does not count it as a failure of its own)."""

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


class GatewayError(ArtibotError):
    """The gateway could not start (its port is taken, or it cannot listen)."""


class TeamError(ArtibotError):
    """The team's database refused, was unreachable, or holds something a member cannot use."""


class TeamUnavailable(TeamError):
    """The team's database could not be reached in time (down, slow, or refusing connections)."""
