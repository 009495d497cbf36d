"""The learned state files by name, for the code that walks them all (the doctor, rollback).

Each kind of file has its own module with its typed records and its one codec:
:mod:`~artibot.store.thresholds`, :mod:`~artibot.store.system1_cache` (the System 1 cache),
:mod:`~artibot.store.pattern_stats` (pattern statistics, the transfer log) and :mod:`~artibot.store.rounds` (the learning
log and the pending review). Readers return None (or an empty log) only when a file does
not exist; a file that exists but is damaged raises CorruptFileError and is left alone.
"""

from __future__ import annotations

from artibot.store.system1_cache import active_patterns, read_system1_patterns, write_system1_patterns
from artibot.store.pattern_stats import read_pattern_stats, read_transfer_log, write_transfer_log
from artibot.store.rounds import clear_pending, read_learning_log, read_pending, write_learning_log
from artibot.store.thresholds import read_document_checked as read_thresholds

__all__ = ["active_patterns", "clear_pending", "read_learning_log", "read_pattern_stats", "read_pending",
           "read_system1_patterns", "read_thresholds", "read_transfer_log", "write_learning_log",
           "write_system1_patterns", "write_transfer_log"]
