"""A member's own round starts from the team: the cached team state's cells as a prior.

Imported by the learning cycle; touches no database (only the cached state file), so a
round never waits on the team's server.
"""

from __future__ import annotations

from artibot.errors import CorruptFileError
from artibot.learning.pooled import parse_state, prior_cells
from artibot.learning.state import EvidenceState, LearnerState
from artibot.store import team_files as files
from artibot.store.home import Home

PRIOR_TRIALS = 50.0
"""The team's evidence on a domain counts as at most this many trials in a member's round."""


def with_team_prior(h: Home, own: LearnerState) -> LearnerState:
    """The evidence learner's ``own`` cells with the team's added for the domains this member has
    no evidence of; unchanged in seed mode, when the home is not a member or the cached state
    cannot be used."""
    if not isinstance(own, EvidenceState):
        return own
    try:
        if files.read_membership(h) is None:
            return own
        cached = files.read_cached_state(h)
        if cached is None:
            return own
        state = parse_state(cached["state"])
    except (CorruptFileError, ValueError):
        return own  # status names the damaged file; the round runs on the member's own evidence
    prior = prior_cells(own.arrays(), state.cells, PRIOR_TRIALS)
    if not prior:
        return own
    return own.with_domains(EvidenceState.from_arrays(prior, own))
