"""Pure learning math: no files, no clock, no environment (time and randomness come in as arguments).

The seed's algorithm (``mode: "seed"``): :func:`frame_from_records` turns validated
experience records into a timestamp-ordered :class:`Frame`; :func:`propose_round`
computes a round (GRPO groups, threshold steps, pattern stats, transfer decisions)
without changing anything; :func:`apply_decisions` applies the final checkpoint-3
actions to the pattern stats.

The names below are loaded on first use: ``artibot status`` reads the round records
(:mod:`artibot.learning.types`) and the validations (pure Python) without the frame's
numpy, which alone costs more than the command's whole start-up budget.
"""

from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
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

_HOMES = {
    "Batches": "columns", "Table": "columns",
    "Frame": "frame", "frame_from_records": "frame",
    "apply_decisions": "seed_mode", "propose_round": "seed_mode",
    "DEFAULT_KEY": "types", "DomainStep": "types", "GroupResult": "types", "PatternStats": "types",
    "RoundProposal": "types", "Thresholds": "types", "TransferDecision": "types",
}

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


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'artibot.learning' has no attribute {name!r}")
    value = getattr(import_module(f"artibot.learning.{home}"), name)
    globals()[name] = value
    return value
