"""The names the hooks and the rest of artibot share, each defined once.

A Claude Code hook is a whole Python process per event: it reads the data home with
:mod:`artibot.hookpath.store.hookio` and must not load :mod:`pathlib`, the configuration or the
store to learn a file's name. So the names both sides use live here, in a module that
imports nothing but :mod:`os` (loaded by every interpreter at start): the data home and
how ``ARTIBOT_HOME`` picks it, the files and folders in it, the hooks' caches, the
routed-character cap and the key prefix of the learner's cells.
"""

from __future__ import annotations

import os

HOME_ENV = "ARTIBOT_HOME"
DEFAULT_HOME = "~/.claude/artibot"

# --------------------------------------------------------------------- the data home's files
EXPERIENCES = "daily-experiences.json"
EXPERIENCES_LOCK = ".daily-experiences.lock"
EXPERIENCE_IDS = ".daily-experiences.ids"
THRESHOLDS = "thresholds.json"
SYSTEM1_PATTERNS = "system1-patterns.json"
PATTERNS_DIR = "patterns"
PATTERN_STATS = "stats.json"
LEARNER_DIR = "learner"
"""Each learning mode's own state, one file per mode (``learner/evidence.json``)."""
LEARNING_LOG = "learning-log.json"
TRANSFER_LOG = "transfer-log.json"
PENDING_REVIEW = "pending-review.json"
SNAPSHOTS_DIR = "snapshots"
ARCHIVE_DIR = "archive"
QUARANTINE_DIR = "quarantine"
STATE_LOCK = ".state.lock"
LEARNER_LOCK = ".learner.lock"
SESSIONS_DIR = "sessions"
PENDING_DIR = "pending"
LOGS_DIR = "logs"
HOOK_LOG = "hooks.log"
HOOK_FAILURES_DIR = "hook-failures"
"""Under ``logs/``: each hook event's failures since its last success (``store.hookhealth``)."""
CONFIG_NAME = "artibot.config.json"

# --------------------------------------------------------------------- the hooks' files under sessions/
LEARNER_STAMP = ".learner-stamp.json"
"""When the detached learner was last started (written by ``store.sessions``)."""
LEARNER_CHECK = ".learner-check.json"
"""When SessionStart last looked for a batch and found no learner needed."""
ROUTER_SUMMARY = ".router-summary.json"
ROUTER_CACHE = ".router-cache.marshal"
REGEX_PROGRAMS = ".regex-programs.marshal"
ROUND_NOTICES = ".round-notices.json"
"""Applied rounds measured worse, as the last learner run found them."""

HOOK_CACHES = (LEARNER_CHECK, ROUTER_SUMMARY, ROUTER_CACHE, REGEX_PROGRAMS, ROUND_NOTICES)
"""The hooks' own caches: each rebuilt whenever it is missing, stale or does not parse, so
``doctor`` neither checks their shape nor moves them aside (the next session would only
write them again)."""

ROUTER_CACHE_IGNORES = ("daily-experiences", ".daily-experiences", LEARNER_LOCK, STATE_LOCK)
"""Name prefixes of data-home files the routing policy does not depend on: the experience
log and its sidecar files change with every session, and would rebuild the cache each time."""

# --------------------------------------------------------------------- shared values
MAX_ROUTED_CHARS = 20_000
"""Only the start of a request is routed, anonymized and stored: a 20 MB paste costs what
20 KB does (longer text is cut, with a marker, when it is stored)."""

CELL_PREFIX = "~cell:"
"""Keys under which homes written before the learner's state had its own file kept the
evidence learner's per-bin state among the pattern stats (read to migrate them)."""


def home_path(given: str | os.PathLike[str] | None = None) -> str:
    """The data home as given: the argument, else ``$ARTIBOT_HOME``, else ``~/.claude/artibot``
    (``~`` expanded; a home that is a symbolic link is resolved by the caller)."""
    chosen = os.fspath(given) if given is not None else os.environ.get(HOME_ENV) or DEFAULT_HOME
    return os.path.expanduser(chosen)
