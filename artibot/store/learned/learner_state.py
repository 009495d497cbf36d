"""``learner/<mode>.json``: each learning mode's own state (:mod:`artibot.learning.learner_state`).

Only the evidence learner keeps one (its cells); the seed's rule has none and writes no file.
Homes written before the state had its own file kept the cells among the pattern statistics
(``patterns/stats.json``, under ``"cells"`` or, older still, under ``"patterns"`` with
``~cell:`` keys): while ``learner/evidence.json`` does not exist, the cells are read from
there, and :func:`migrate` writes them to their own file before the statistics are next
written without them. A rollback to a round before the migration removes the new file and
puts the statistics back with their cells, which are then read from there again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artibot.errors import CorruptFileError, problem_of
from artibot.hookpath.names import CELL_PREFIX
from artibot.messages import Message
from artibot.store.documents import read_document, write_document
from artibot.store.fs import ensure_dir
from artibot.store.home import Home
from artibot.store.learned.pattern_stats import read_pattern_stats

if TYPE_CHECKING:  # the states' math (numpy) loads when a state is decoded, not for `doctor`
    from artibot.learning.learner_state import EvidenceState, LearnerState
    from artibot.store.round.commit import RoundCommit

KIND = "learner-state"
MODES = ("seed", "evidence")
"""The learning modes (:data:`artibot.learning.learner_state.STATES`)."""


def _check(doc: dict[str, Any]) -> str | None:
    if doc.get("mode") not in MODES:
        return f'"mode" must be one of {", ".join(MODES)}'
    return None


def read_learner_state(home: Home, mode: str) -> dict[str, Any] | None:
    """The state document of ``mode`` as stored (the doctor's check); :func:`load_learner_state` decodes it."""
    return read_document(home.learner_state(mode), KIND, require=_check)


def load_learner_state(home: Home, mode: str) -> LearnerState:
    """The own state of learning ``mode``: its file, else (evidence) the cells an older home kept
    among the pattern statistics, else the state before any round."""
    from artibot.learning.learner_state import SeedState, state_from_json

    if mode not in MODES:
        raise ValueError(Message("value.one_of", key="learning mode", options=", ".join(MODES), value=repr(mode)))
    if mode == SeedState.MODE:
        return SeedState()
    path = home.learner_state(mode)
    doc = read_learner_state(home, mode)
    if doc is None:
        return legacy_cells(home)
    try:
        return state_from_json(mode, doc)
    except ValueError as exc:
        raise CorruptFileError(path, problem_of(exc)) from None


def write_learner_state(home: Home, state: LearnerState, *, into: RoundCommit | None = None) -> None:
    """Write the mode's own state (nothing for a mode without one; ``into``: staged in a round's commit)."""
    if state.MODE == "seed":
        return
    path = home.learner_state(state.MODE)
    ensure_dir(path.parent)
    write_document(path, {"mode": state.MODE, **state.to_json()}, KIND, into=into)


def legacy_cells(home: Home) -> EvidenceState:
    """The cells an older home kept in ``patterns/stats.json`` (none: the state before any round)."""
    from artibot.learning.learner_state import EvidenceState
    from artibot.learning.types import PatternStats

    doc = read_pattern_stats(home)
    if doc is None:
        return EvidenceState()
    entries = {**{k: v for k, v in doc["patterns"].items() if k.startswith(CELL_PREFIX)}, **doc.get("cells", {})}
    try:
        stats = {k: PatternStats.from_json(entries[k]) for k in sorted(entries)}
    except ValueError as exc:
        raise CorruptFileError(home.pattern_stats, problem_of(exc)) from None
    return EvidenceState.from_legacy(stats)[0]


def migrate(home: Home, *, into: RoundCommit | None = None) -> None:
    """Give the cells an older home keeps among the pattern statistics their own file (before the
    statistics are written without them, or in the same commit); nothing when the file exists or
    there are no cells."""
    if read_learner_state(home, "evidence") is not None:
        return
    cells = legacy_cells(home)
    if cells.cells:
        write_learner_state(home, cells, into=into)


__all__ = ["legacy_cells", "load_learner_state", "migrate", "read_learner_state", "write_learner_state"]
