"""A data home written by the artibot before the learner's state had its own file still works.

``tests/data/old_home`` was written by that version: two evidence rounds over
:func:`tests.factories.mixed` records (batch size 20), the first applied, the second saved
for review. Its per-bin evidence is in ``patterns/stats.json`` and its pending round keeps
the old form. Answering that round must give what the old version gave
(``tests/data/old_home_expected``: the questions it put, the thresholds and the statistics it wrote).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson

from artibot.collector import collect_many
from artibot.round.cycle import learn
from artibot.learning.learner_state import EvidenceState
from artibot.learning.types import PatternStats
from artibot.round.review import answer_pending, discard_pending, pending_questions
from artibot.store.home import Home
from artibot.store.learned.learner_state import load_learner_state
from artibot.store.learned.pattern_stats import read_pattern_stats
from tests.factories import mixed

DATA = Path(__file__).parent / "data"


def _old_home(artibot_home: Path) -> Home:
    shutil.copytree(DATA / "old_home", artibot_home)
    return Home(artibot_home)


def test_the_pending_round_of_an_old_home_shows_its_questions(artibot_home: Path) -> None:
    h = _old_home(artibot_home)
    questions = orjson.loads(orjson.dumps(pending_questions(h), default=str))
    assert questions == orjson.loads((DATA / "old_home_expected" / "questions.json").read_bytes())


def test_answering_the_pending_round_of_an_old_home_learns_what_the_old_version_learned(artibot_home: Path) -> None:
    h = _old_home(artibot_home)
    report = answer_pending(home=h, answers={1: "accept", 2: "apply", 3: "auto"})
    assert report.status == "applied"
    expected = orjson.loads((DATA / "old_home_expected" / "thresholds.json").read_bytes())
    got = orjson.loads(h.thresholds.read_bytes())
    assert (got["default"], got["domains"]) == (expected["default"], expected["domains"])
    stats = orjson.loads((DATA / "old_home_expected" / "stats.json").read_bytes())
    assert _patterns(h) == stats["patterns"]
    cells = {k: PatternStats.from_json(v) for k, v in stats["cells"].items()}
    assert load_learner_state(h, "evidence") == EvidenceState.from_legacy(cells)[0]
    assert h.learner_state("evidence").is_file()


def test_a_round_in_an_old_home_moves_the_cells_to_their_own_file(artibot_home: Path) -> None:
    h = _old_home(artibot_home)
    before = load_learner_state(h, "evidence")
    assert isinstance(before, EvidenceState) and before.cells  # read from the pattern statistics
    discard_pending(home=h)
    collect_many(mixed(20, seed=3, start=500), home=h)
    assert learn(home=h, flush=True).status == "applied"
    doc = read_pattern_stats(h)
    assert doc is not None and "cells" not in doc
    assert not any(k.startswith("~cell:") for k in doc["patterns"])
    after = load_learner_state(h, "evidence")
    assert isinstance(after, EvidenceState) and set(before.cells) <= set(after.cells)


def _patterns(h: Home) -> dict[str, object]:
    doc = read_pattern_stats(h)
    assert doc is not None
    return dict(doc["patterns"])


def test_the_params_saved_by_the_old_version_read_back_as_typed_records_and_write_the_same_json() -> None:
    from artibot.learning.round_params import RoundParams

    log = orjson.loads((DATA / "old_home" / "learning-log.json").read_bytes())["rounds"]
    pending = orjson.loads((DATA / "old_home" / "pending-review.json").read_bytes())["proposal"]["params"]
    for saved in [entry["params"] for entry in log] + [pending]:
        params = RoundParams.from_json(saved)
        assert params.price is not None and params.price.source == "estimated"
        assert params.evidence and params.intervals is not None and params.batches
        assert params.to_json() == saved  # the same keys and values: the learning log's form is kept
        assert RoundParams.from_json(orjson.loads(orjson.dumps(params.to_json()))) == params
