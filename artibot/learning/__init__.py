"""Pure learning math: no files, no clock, no environment (time and randomness come in as arguments).

The seed's algorithm (``mode: "seed"``): :func:`frame_from_records` turns validated
experience records into a timestamp-ordered :class:`Frame`; :func:`propose_round`
computes a round (GRPO groups, threshold steps, pattern stats, transfer decisions)
without changing anything; :func:`apply_decisions` applies the final checkpoint-3
actions to the pattern stats.
"""

from artibot.learning.columns import Batches, Table
from artibot.learning.frame import Frame, frame_from_records
from artibot.learning.seed_mode import apply_decisions, propose_round
from artibot.learning.types import (
    DEFAULT_KEY,
    DomainStep,
    GroupResult,
    PatternStats,
    RoundProposal,
    Thresholds,
    TransferDecision,
)

__all__ = [
    "Batches",
    "DEFAULT_KEY",
    "DomainStep",
    "Frame",
    "GroupResult",
    "PatternStats",
    "RoundProposal",
    "Table",
    "Thresholds",
    "TransferDecision",
    "apply_decisions",
    "frame_from_records",
    "propose_round",
]
