"""The pooled round's pure parts: a published state is checked field by field; the team prior is bounded."""

from __future__ import annotations

import numpy as np
import pytest

from artibot.learning import bandit
from artibot.learning.team_pool import CellStat, fresh_cells, parse_state, prior_cells, propose_pooled, state_json
from tests.factories import settings


def stat(domain: str, b: int, s2: bool, n: int, k: int) -> CellStat:
    return CellStat(domain, b, s2, n, k, float(n), float(k), 0.0, 0, 0, 0.0, b / 20, b / 20 + 0.04)


STATS = [stat("backend", b, s2, 30, 27 if s2 or b < 10 else 10) for b in range(20) for s2 in (False, True)]


def test_a_round_from_sums_publishes_a_state_that_parses_back() -> None:
    proposal = propose_pooled(STATS, None, 0.4, settings(batch=50), flush=False, extra={"seq_to": 9})
    assert proposal is not None and proposal.processed_ids == ()
    doc = state_json(proposal, apply_thresholds=True, seq_to=9)
    state = parse_state(doc)
    assert state.thresholds == proposal.new and state.seq_to == 9 and state.records == 1200
    assert np.allclose(state.cells["backend"], fresh_cells(STATS)["backend"])
    reverted = parse_state(state_json(proposal, apply_thresholds=False, seq_to=9))
    assert reverted.thresholds == proposal.old


def test_fewer_records_than_a_batch_is_no_round_unless_flushed() -> None:
    few = STATS[:1]  # 30 records
    assert propose_pooled(few, None, 0.4, settings(batch=50)) is None
    assert propose_pooled(few, None, 0.4, settings(batch=50), flush=True) is not None


@pytest.mark.parametrize("doc, where", [
    ([], "JSON object"), ({"schema": 2}, "schema"),
    ({"schema": 1, "thresholds": {"default": 1.5, "domains": {}}}, "default"),
    ({"schema": 1, "thresholds": {"default": 0.4, "domains": {}}, "cells": {"a": [[1, 2, 0, 0]] * 20},
      "seq_to": 0, "records": 0}, "0 <= k <= n"),
    ({"schema": 1, "thresholds": {"default": 0.4, "domains": {}}, "cells": {"a": "x"}, "seq_to": 0, "records": 0},
     "not numbers|rows"),
    ({"schema": 1, "thresholds": {"default": 0.4, "domains": {}}, "cells": {}, "seq_to": -1, "records": 0}, "seq_to"),
])
def test_a_state_that_does_not_parse_names_the_field(doc, where) -> None:
    with pytest.raises(ValueError, match=where):
        parse_state(doc)


def test_the_team_prior_is_bounded_and_only_where_the_member_has_no_evidence() -> None:
    team = {"backend": np.full((bandit.BINS, 4), 10.0), "docs": np.full((bandit.BINS, 4), 1.0)}
    own = {"backend": np.ones((bandit.BINS, 4))}
    prior = prior_cells(own, team, 50.0)
    assert set(prior) == {"docs"}
    assert prior["docs"][:, [0, 2]].sum() == pytest.approx(40.0)  # 40 trials, under the cap: kept whole
    capped = prior_cells({}, team, 50.0)["backend"]
    assert capped[:, [0, 2]].sum() == pytest.approx(50.0)
