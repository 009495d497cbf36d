"""One contract every learning mode keeps (as river checks every learner): run over each mode
of :data:`artibot.learning.learner.LEARNERS`, on several seeded worlds and starting states.

- its inputs are not mutated;
- the same inputs (and seed) give the same result;
- its own state survives the round trip through its file form, and what that round trip gives
  back proposes the same next round;
- no threshold step moves farther than ``±0.1`` per batch of the round.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest

from artibot.config import default_settings
from artibot.learning import Thresholds, frame_from_records
from artibot.learning.frame import Frame
from artibot.learning.learner import LEARNERS, Learned, Learner, RoundOptions, learner_for
from artibot.learning.learner_state import state_from_json
from artibot.learning.threshold_steps import MAX_STEP
from artibot.config.settings import Settings
from artibot.store.home import Home
from artibot.store.learned.learner_state import load_learner_state, write_learner_state
from tests.factories import mixed

MODES = sorted(LEARNERS)
SEEDS = (1, 2, 3)


def _settings(mode: str, batch: int = 20) -> Settings:
    s = default_settings()
    return replace(s, lifelong=replace(s.lifelong, mode=mode, batch_size=batch, grpo_group_size=5))


def _world(seed: int, n: int, start: int = 0) -> list[dict[str, Any]]:
    return mixed(n, seed=seed, start=start, domains=("api", "web", "db"))


def _started(learner: Learner, seed: int, settings: Settings) -> Learned:
    """A state after one round over a first world (the second round then has a history)."""
    rng = random.Random(seed)
    fresh = Learned(Thresholds(0.4, {"web": round(rng.uniform(0.2, 0.8), 2)}), {}, learner.initial())
    return learner.propose(frame_from_records(_world(seed, 120)), fresh, settings)[1]


def _frame(seed: int) -> Frame:
    return frame_from_records(_world(seed + 100, 130, start=1000))


def _snapshot(frame: Frame, state: Learned) -> tuple[Any, ...]:
    columns = tuple(np.array(getattr(frame, name), copy=True) for name in ("complexity", "confidence", "domain",
                                                                             "system2", "success", "propensity"))
    return columns, tuple(frame.ids), copy.deepcopy(state)


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("seed", SEEDS)
def test_inputs_are_not_mutated(mode: str, seed: int) -> None:
    learner, settings = learner_for(mode), _settings(mode)
    state, frame = _started(learner, seed, settings), _frame(seed)
    columns, ids, kept = _snapshot(frame, state)
    learner.propose(frame, state, settings, RoundOptions(flush=True))
    assert state == kept
    assert tuple(frame.ids) == ids
    for before, name in zip(columns, ("complexity", "confidence", "domain", "system2", "success", "propensity")):
        np.testing.assert_array_equal(getattr(frame, name), before)


@pytest.mark.parametrize("seed", SEEDS)
def test_same_inputs_give_the_same_round(mode: str, seed: int) -> None:
    learner, settings = learner_for(mode), _settings(mode)
    one = learner.propose(_frame(seed), _started(learner, seed, settings), settings)
    two = learner.propose(_frame(seed), _started(learner, seed, settings), settings)
    assert one == two
    assert orjson.dumps(one[0].to_json()) == orjson.dumps(two[0].to_json())


@pytest.mark.parametrize("seed", SEEDS)
def test_the_state_survives_its_file(mode: str, seed: int, artibot_home: Path) -> None:
    learner, settings = learner_for(mode), _settings(mode)
    _, after = learner.propose(_frame(seed), _started(learner, seed, settings), settings)
    assert state_from_json(mode, orjson.loads(orjson.dumps(after.own.to_json()))) == after.own
    home = Home(artibot_home)
    write_learner_state(home, after.own)
    loaded = load_learner_state(home, mode)
    assert loaded == after.own
    # and what comes back learns exactly what the state in memory learns
    following = frame_from_records(_world(seed + 200, 90, start=5000))
    again = Learned(after.thresholds, after.patterns, loaded)
    assert learner.propose(following, again, settings)[0] == learner.propose(following, after, settings)[0]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("batch", (10, 40))
def test_steps_stay_within_the_clamp_per_batch(mode: str, seed: int, batch: int) -> None:
    learner, settings = learner_for(mode), _settings(mode, batch)
    start = _started(learner, seed, settings)
    proposal, after = learner.propose(_frame(seed), start, settings, RoundOptions(flush=True))
    batches = max(1, len(proposal.batches) if mode == "seed" else int(proposal.params.batches))
    lo, hi = settings.router.min_threshold, settings.router.max_threshold
    for step in proposal.steps:  # the seed's rule steps once per batch; the evidence learner once per round
        assert abs(step.delta) <= MAX_STEP * (1 if mode == "seed" else batches) + 1e-9
        assert lo - 1e-9 <= step.new <= hi + 1e-9
    for domain, (old, new) in proposal.net_changes().items():
        assert abs(new - old) <= MAX_STEP * batches + 1e-9, (domain, old, new)
    assert after.thresholds == proposal.new and after.patterns == proposal.patterns_after


def test_every_mode_is_in_the_suite() -> None:
    assert MODES == ["evidence", "seed"]
    for mode in MODES:
        assert learner_for(mode).MODE == mode
    with pytest.raises(ValueError, match="learning mode must be one of"):
        learner_for("bandit")
