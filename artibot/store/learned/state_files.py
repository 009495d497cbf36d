"""The learned state files by name, for the code that walks them all (the doctor).

Each kind of file has its own module with its typed records and its one codec:
:mod:`~artibot.store.learned.thresholds_file`, :mod:`~artibot.store.learned.system1_cache` (the System 1 cache),
:mod:`~artibot.store.learned.pattern_stats` (pattern statistics, the transfer log) and :mod:`~artibot.store.round.rounds` (the learning
log and the pending review). Readers return None (or an empty log) only when a file does
not exist; a file that exists but is damaged raises CorruptFileError and is left alone.
"""

from __future__ import annotations

from artibot.store.learned.system1_cache import active_patterns, read_system1_patterns, write_system1_patterns
from artibot.store.learned.pattern_stats import read_pattern_stats, read_transfer_log, write_transfer_log
from artibot.store.round.rounds import clear_pending, read_learning_log, read_pending, write_learning_log
from artibot.store.learned.thresholds_file import read_document_checked as read_thresholds

__all__ = ["active_patterns", "clear_pending", "read_learning_log", "read_pattern_stats", "read_pending",
           "read_system1_patterns", "read_thresholds", "read_transfer_log", "write_learning_log",
           "write_system1_patterns", "write_transfer_log"]
