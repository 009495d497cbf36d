"""The learned state files by name, for the code that walks them all (the doctor, rollback).

Each kind of file has its own module with its typed records and its one codec:
:mod:`~artibot.store.thresholds`, :mod:`~artibot.store.cache` (the System 1 cache),
:mod:`~artibot.store.patterns` (pattern statistics, the transfer log) and :mod:`~artibot.store.rounds` (the learning
log and the pending review). Readers return None (or an empty log) only when a file does
not exist; a file that exists but is damaged raises CorruptFileError and is left alone.
"""

from __future__ import annotations

from typing import Any, Mapping

from artibot.store.documents import write_document
from artibot.store.fs import ensure_dir
from artibot.store.home import Home
from artibot.store.cache import active_patterns, read_system1_patterns, write_system1_patterns
from artibot.store.patterns import read_pattern_stats, read_transfer_log, write_transfer_log
from artibot.store.rounds import clear_pending, read_learning_log, read_pending, write_learning_log
from artibot.store.thresholds import read_document_checked as read_thresholds

__all__ = ["active_patterns", "clear_pending", "read_learning_log", "read_pattern_stats", "read_pending",
           "read_system1_patterns", "read_thresholds", "read_transfer_log", "write_learning_log",
           "write_pattern_stats", "write_pending", "write_system1_patterns", "write_thresholds",
           "write_transfer_log"]


# Whole documents as given, for tools that put a file back as it was (tests build damaged
# homes with them); the learner writes through the typed functions of each module.
def write_thresholds(home: Home, doc: Mapping[str, Any]) -> None:
    home.ensure()
    write_document(home.thresholds, doc, "thresholds")


def write_pattern_stats(home: Home, doc: Mapping[str, Any]) -> None:
    ensure_dir(home.patterns_dir)
    write_document(home.pattern_stats, doc, "pattern-stats")


def write_pending(home: Home, doc: Mapping[str, Any]) -> None:
    home.ensure()
    write_document(home.pending_review, doc, "pending-review")
