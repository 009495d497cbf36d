"""A member's own round starts from the team: the cached team state's cells as a prior.

Imported by the learning cycle; touches no database (only the cached state file), so a
round never waits on the team's server.
"""

from __future__ import annotations

from typing import Mapping

from artibot.errors import CorruptFileError
from artibot.learning import bandit
from artibot.learning.pooled import parse_state, prior_cells
from artibot.learning.types import PatternStats
from artibot.store import team_files as files
from artibot.store.home import Home

PRIOR_TRIALS = 50.0
"""The team's evidence on a domain counts as at most this many trials in a member's round."""


def with_team_prior(h: Home, patterns: Mapping[str, PatternStats]) -> Mapping[str, PatternStats]:
    """``patterns`` with the team's cells added for the domains this member has no evidence
    of; unchanged when the home is not a member or the cached state cannot be used."""
    try:
        if files.read_membership(h) is None:
            return patterns
        cached = files.read_cached_state(h)
        if cached is None:
            return patterns
        state = parse_state(cached["state"])
    except (CorruptFileError, ValueError):
        return patterns  # status names the damaged file; the round runs on the member's own evidence
    own, _plain = bandit.split_patterns(patterns)
    prior = prior_cells(own, state.cells, PRIOR_TRIALS)
    if not prior:
        return patterns
    return {**patterns, **bandit.cells_to_patterns(prior, patterns, {})}
