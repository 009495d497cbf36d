"""The learner protocol: every learning mode proposes a round the same way.

``propose(frame, state, settings) -> (proposal, new_state)``: ``state`` is what the learner
knows before the round (:class:`Learned`: the thresholds, the pattern statistics and the
mode's own state, :mod:`artibot.learning.learner_state`), ``new_state`` what it would know if the
round were accepted whole. A learner is pure: it changes none of its arguments, and the same
arguments give the same result. The cycle asks the checkpoints, then persists what was
accepted; the mode's own state goes to its own file (:mod:`artibot.store.learned.learner_state`).

:data:`LEARNERS` maps each ``learning.lifelong.mode`` to its learner; a new mode is one
module with a ``propose`` and one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Mapping, Protocol, TypeVar

from artibot.learning.route_costs import MeasuredPrice
from artibot.learning.objective import RouteCosts
from artibot.learning.frame import Frame
from artibot.learning.learner_state import EvidenceState, LearnerState, SeedState
from artibot.learning.types import PatternStats, RoundProposal, Thresholds
from artibot.config.settings import Settings
from artibot.messages import Message

T = TypeVar("T", SeedState, EvidenceState)


@dataclass(frozen=True)
class Learned:
    """What a learner knows between rounds."""

    thresholds: Thresholds
    patterns: Mapping[str, PatternStats]
    own: LearnerState
    """The mode's own state (the evidence learner's cells; nothing for the seed's rule)."""

    __hash__ = None  # type: ignore[assignment]  # holds mappings; compare, don't hash

    def __post_init__(self) -> None:
        object.__setattr__(self, "patterns", dict(self.patterns))


@dataclass(frozen=True)
class RoundOptions:
    """How this round runs, beside what the learner knows."""

    flush: bool = False
    """Process the records short of a batch too."""
    measured: MeasuredPrice | None = field(default=None)
    """The price of a System 2 call from the turns' measured costs (the evidence learner uses it
    in place of its estimate; an explicit ``system2Cost`` or ``targetSystem2Share`` still wins)."""
    costs: RouteCosts | None = field(default=None)
    """The turns' measured cost per route, for the cost objective (None: the price table's prior)."""


class Learner(Protocol):
    """A learning mode: ``MODE`` names it in the settings; ``initial`` is its own state before any round."""

    MODE: str

    def initial(self) -> LearnerState: ...

    def propose(self, frame: Frame, state: Learned, settings: Settings,
                options: RoundOptions = ...) -> tuple[RoundProposal, Learned]: ...


LEARNERS: dict[str, str] = {"seed": "artibot.learning.seed_mode", "evidence": "artibot.learning.evidence"}
"""Mode -> the module holding its learner (imported on first use: each mode loads only its own math)."""


def learner_for(mode: str) -> Learner:
    """The learner of ``mode`` (ValueError naming the modes when it is none of them)."""
    home = LEARNERS.get(mode)
    if home is None:
        raise ValueError(Message("value.one_of", key="learning mode", options=", ".join(LEARNERS), value=repr(mode)))
    learner: Learner = getattr(import_module(home), "LEARNER")
    return learner


def own_state(state: Learned, kind: type[T]) -> T:
    """``state.own`` as the state of the learner ``kind`` is for (TypeError: another mode's state)."""
    if not isinstance(state.own, kind):
        raise TypeError(f"a {kind.MODE} learner needs a {kind.__name__}, not {type(state.own).__name__}")
    return state.own


__all__ = ["LEARNERS", "Learned", "Learner", "RoundOptions", "learner_for", "own_state"]
