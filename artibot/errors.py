"""One error hierarchy for the whole library.

Every exception's ``str()`` is the sentence the user reads, in English (an API caller reads
it): what failed and what to do about it. An error raised with a
:class:`~artibot.messages.Message` keeps it as ``message`` (its id and fields), which the
command line says in the session's language; one raised with a plain sentence has none yet
(``message`` is None). The CLI maps ``exit_code`` to the process exit status; nothing else in
the library decides exit codes.
"""

from __future__ import annotations

import errno
from enum import IntEnum

from artibot.messages import Message

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
    """Base of every error artibot raises on purpose: with a sentence, or with a
    :class:`~artibot.messages.Message` (``message``) whose English sentence is ``str()``."""

    exit_code: ExitCode = ExitCode.FAILURE
    message: Message | None = None

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], Message):
            self.message = args[0]
            args = (str(args[0]),)
        super().__init__(*args)


class InvalidInput(ArtibotError):
    """The caller gave something artibot cannot accept; nothing was written."""

    exit_code = ExitCode.USAGE


class ConfigError(InvalidInput):
    """``artibot.config.json`` has an unknown key, a wrong type or a value out of range."""

    def __init__(self, problems: Iterable[str | Message], source: Path | str | None = None):
        said = tuple(problems)
        self.said_problems = said
        """The problems as given: a message each where the check words one."""
        self.problems = [str(p) for p in said]
        self.source = source
        super().__init__(Message("config.invalid_in", source=str(source), problems=said) if source else
                         Message("config.invalid", problems=said))


class ValidationError(InvalidInput):
    """An experience record breaks the schema. ``problems`` holds one sentence per field, in
    English; ``said_problems`` the same problems as given (a message each where the check words
    one), which the command line says in the session's language."""

    def __init__(self, problems: Iterable[str | Message], where: str | None = None):
        said = tuple(problems)
        self.said_problems = said
        self.problems = [str(p) for p in said]
        self.where = where
        super().__init__(Message("record.invalid_in", where=where, problems=said) if where else
                         Message("record.invalid", problems=said))


class StoreError(ArtibotError):
    """A file in the data home could not be read or written."""

    @classmethod
    def from_os(cls, exc: OSError, path: Path | str | None = None, doing: str = "write") -> "StoreError":
        """One sentence for an ``OSError``: the file, what failed, and what to do about it."""
        where = path if path is not None else exc.filename
        verb = _DOING.get(doing)
        return cls(Message("os.cannot", doing=Message(f"os.doing.{verb}") if verb else doing,
                           where=str(where) if where is not None else Message("os.somewhere"),
                           reason=os_reason(exc),
                           advice=Message(f"os.advice.{errno.errorcode[exc.errno]}") if exc.errno in _ADVICE
                           else Message("os.advice.other")))


_ADVICE = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR,
                     errno.EISDIR, errno.EIO, errno.EMFILE))
"""The failures with their own advice (``os.advice.<name>`` in the catalogues)."""

_DOING = {"write": "write", "read": "read", "access": "access", "create": "create", "open": "open",
          "remove": "remove", "move": "move", "lock": "lock", "replace": "replace", "rename": "rename",
          "append to": "append", "create the folder": "create_folder", "sync the folder": "sync_folder"}
"""What failed, as a caller says it -> its id (``os.doing.<id>``); another is said as given."""

_REASONS = frozenset((errno.EROFS, errno.EACCES, errno.ENOSPC, errno.EDQUOT, errno.EPERM, errno.ENOTDIR,
                      errno.EISDIR, errno.EIO, errno.ENOENT, errno.EMFILE, errno.EADDRINUSE, errno.EADDRNOTAVAIL))
"""The system's reasons the catalogues say (``os.reason.<name>``); another is the system's own text."""


def os_reason(exc: OSError) -> Message | str:
    """Why the system refused, as a message where the catalogues know the failure (by its
    errno, not by the system's English words), else the system's own text."""
    if exc.errno in _REASONS and exc.strerror == os_strerror(exc.errno):
        return Message(f"os.reason.{errno.errorcode[exc.errno]}")
    return exc.strerror or str(exc)


def os_strerror(number: int) -> str:
    import os

    return os.strerror(number)


class CorruptFileError(StoreError):
    """A state file does not parse or fails its schema. It is left untouched."""

    def __init__(self, path: Path | str, problem: str | Message):
        self.path = _as_path(path)
        self.said_problem = problem
        """The problem as given: a message where the check words one."""
        self.problem = str(problem)
        super().__init__(Message("file.corrupt", path=str(path), problem=problem))


def problem_of(exc: Exception) -> str | Message:
    """What a check's exception says is wrong: its message when it was raised with one (a pure
    check's ``ValueError(Message(...))``), else its text."""
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Message) else str(exc)


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
