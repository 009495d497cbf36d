"""A member's own round starts from the team: the cached team state as a prior.

Imported by the learning cycle; touches no database (only the cached state file), so a
round never waits on the team's server.

* **Thresholds**: the team's cells enter the round for the domains this member has no
  evidence of, as at most :data:`PRIOR_TRIALS` trials a domain
  (:func:`artibot.learning.team_pool.prior_cells`).
* **Patterns**: a pattern the team's published table has active, and that this member has
  not decided itself, enters the member's checkpoint 3 as active: its router already sends
  it to System 1 (:mod:`artibot.hookpath.router.team_table`), and the member's own System 1
  outcomes of it can demote it there, which writes the member's own decision and ends the
  team's say on that pattern for this member. A pattern the team no longer has active goes
  back to candidate, unless the member decided it itself; so do all of them when the
  member leaves the team.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

from artibot.errors import CorruptFileError
from artibot.learning.team_pool import parse_state, prior_cells
from artibot.learning.learner_state import EvidenceState, LearnerState
from artibot.learning.types import PatternStats
from artibot.hookpath.router.team_table import keyed_hash
from artibot.store import team_files as files
from artibot.store.home import Home
from artibot.store.learned.system1_cache import decided_patterns, read_system1_patterns

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


def with_team_patterns(h: Home, patterns: Mapping[str, PatternStats], seen: Iterable[str] = ()
                       ) -> Mapping[str, PatternStats]:
    """``patterns`` with the team's active patterns marked active where the member has not
    decided them (``seen``: the pattern keys of the round's records, which may have no
    statistics yet); unchanged when the home is not a member or the cached state cannot be
    used, and the team's marks taken back when it left."""
    try:
        if files.read_membership(h) is None:
            return _after_leaving(h, patterns) if files.any_team_files(h) else patterns
        cached = files.read_cached_state(h)
        if cached is None:
            return patterns
        parse_state(cached["state"])  # a state the member cannot parse changes nothing
        own_decided = decided_patterns(read_system1_patterns(h))
    except (CorruptFileError, ValueError):
        return patterns  # status names the damaged file; the round runs on the member's own evidence
    key_hex, team_active = files.team_system1(h)
    if not key_hex:
        return patterns
    # a pattern first seen in this round has no statistics yet: it starts as the team has it
    new = {key: PatternStats(key) for key in seen if key and key not in patterns}
    return {**patterns, **team_statuses({**patterns, **new}, own_decided, key_hex, team_active)}


def _after_leaving(h: Home, patterns: Mapping[str, PatternStats]) -> Mapping[str, PatternStats]:
    """A home that left its team: the patterns active only by the team's table go back to
    candidate (its router no longer reads the table); what it decided itself stays."""
    try:
        own_decided = decided_patterns(read_system1_patterns(h))
    except CorruptFileError:
        return patterns
    back = {key: replace(s, status="candidate") for key, s in patterns.items()
            if s.status == "active" and key not in own_decided}
    return {**patterns, **back} if back else patterns


def team_statuses(plain: Mapping[str, PatternStats], own_decided: frozenset[str], key_hex: str,
                  team_active: frozenset[str]) -> dict[str, PatternStats]:
    """The patterns whose status the team's table sets: active where the team has them active,
    back to candidate where it no longer does; none the member decided itself."""
    out: dict[str, PatternStats] = {}
    for key, stats in plain.items():
        if key in own_decided:
            continue
        status = "active" if keyed_hash(key, key_hex) in team_active else "candidate"
        if status != stats.status and stats.status in ("active", "candidate"):
            out[key] = replace(stats, status=status)
    return out
