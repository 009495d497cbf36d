"""The data home: where every file lives."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from artibot.hookpath import names
from artibot.config import resolve_home
from artibot.store.fs import ensure_dir

HomeArg = Union[str, "os.PathLike[str]", "Home", None]
"""What the library's functions accept as a data home: a path, a :class:`Home`, or None
(``$ARTIBOT_HOME``, else ``~/.claude/artibot``)."""


@dataclass(frozen=True)
class Home:
    """Paths of every file artibot keeps. Creating the object touches nothing on disk."""

    root: Path

    @classmethod
    def resolve(cls, home: str | os.PathLike[str] | Path | None = None) -> "Home":
        return cls(resolve_home(home))

    @classmethod
    def of(cls, home: HomeArg = None) -> "Home":
        """``home`` as a :class:`Home` (a Home is returned as it is)."""
        return home if isinstance(home, Home) else cls.resolve(home)

    def require(self, *, folder: bool = True) -> "Home":
        """The home, when it exists; else an error naming it (a typo in ``--home`` would
        otherwise read as an empty, healthy home). ``folder=False``: a file in its place is
        left for the caller to report (``doctor`` examines it)."""
        from artibot.errors import NotAFolderError, NotFoundError

        if not self.root.exists():
            from artibot.messages import Message

            raise NotFoundError(Message("home.missing", root=str(self.root)))
        if folder and not self.root.is_dir():
            raise NotAFolderError(self.root)
        return self

    def is_folder(self) -> bool:
        """True when the home is a folder (``doctor`` reports a file in its place)."""
        return self.root.is_dir()

    def ensure(self) -> "Home":
        """Create the home (mode 0700) if missing."""
        ensure_dir(self.root)
        return self

    # --- the files every artibot version agrees on
    @property
    def experiences(self) -> Path:
        return self.root / names.EXPERIENCES

    @property
    def experiences_lock(self) -> Path:
        """Lock file of the experience log; its content is the append journal (see experiences.py)."""
        return self.root / names.EXPERIENCES_LOCK

    @property
    def experience_ids(self) -> Path:
        """Fingerprints of every id stored, for refusing a duplicate id (see id_index.py)."""
        return self.root / names.EXPERIENCE_IDS

    @property
    def archive_dir(self) -> Path:
        return self.root / names.ARCHIVE_DIR

    @property
    def thresholds(self) -> Path:
        return self.root / names.THRESHOLDS

    @property
    def system1_patterns(self) -> Path:
        return self.root / names.SYSTEM1_PATTERNS

    @property
    def patterns_dir(self) -> Path:
        return self.root / names.PATTERNS_DIR

    @property
    def pattern_stats(self) -> Path:
        return self.patterns_dir / names.PATTERN_STATS

    def learner_state(self, mode: str) -> Path:
        """The file of the learning mode's own state (:mod:`artibot.store.learned.learner_state`)."""
        return self.root / names.LEARNER_DIR / f"{mode}.json"

    @property
    def learning_log(self) -> Path:
        return self.root / names.LEARNING_LOG

    @property
    def transfer_log(self) -> Path:
        return self.root / names.TRANSFER_LOG

    @property
    def pending_review(self) -> Path:
        return self.root / names.PENDING_REVIEW

    @property
    def snapshots_dir(self) -> Path:
        return self.root / names.SNAPSHOTS_DIR

    # --- housekeeping files of our own
    @property
    def quarantine_dir(self) -> Path:
        """Bytes cut from a torn log tail and bad copies moved aside by ``doctor``."""
        return self.root / names.QUARANTINE_DIR

    @property
    def state_lock(self) -> Path:
        """Held (exclusive) while a round's state files are written, (shared) while read together."""
        return self.root / names.STATE_LOCK

    @property
    def learner_lock(self) -> Path:
        """Held for the whole of a learning cycle: two learners never run at once."""
        return self.root / names.LEARNER_LOCK

    @property
    def sessions_dir(self) -> Path:
        """Per-session spools of the Claude Code hooks (the turn in progress)."""
        return self.root / names.SESSIONS_DIR

    @property
    def pending_dir(self) -> Path:
        """Decisions recorded by ``artibot route --record`` waiting for ``artibot outcome``."""
        return self.root / names.PENDING_DIR

    @property
    def logs_dir(self) -> Path:
        return self.root / names.LOGS_DIR

    @property
    def config_file(self) -> Path:
        return self.root / names.CONFIG_NAME

    def state_files(self) -> tuple[Path, ...]:
        """The learned state a snapshot captures (the experience log is handled separately)."""
        return (self.thresholds, self.system1_patterns, self.pattern_stats, self.learner_state("evidence"))
