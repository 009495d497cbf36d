"""The archived part of the off-policy window: which rounds are read, the filter, damage named."""

from __future__ import annotations

import numpy as np
import pytest

from artibot.store.home import Home
from artibot.errors import CorruptFileError
from artibot.learning.logged import concat, logged_near, records_window
from artibot.learning.types import Thresholds
from artibot.store.archive_window import recent_archived
from artibot.store.documents import write_document


def _rec(i, domain="api", threshold=0.4, **kw):
    return {"id": f"a{i}", "domain": domain, "complexity": 0.3, "routed_to": "system1", "outcome": "success",
            "confidence": 0.8, "propensity": 1.0, "threshold": threshold, "pattern": None, **kw}


def _archive(home, rid, records):
    home.archive_dir.mkdir(parents=True, exist_ok=True)
    write_document(home.archive_dir / f"{rid}.json", {"name": rid, "records": records}, "archive")


def test_newest_applied_rounds_first_up_to_the_limit_oldest_first_out():
    h = Home.of(None)
    _archive(h, "r1", [_rec(i) for i in range(3)])
    _archive(h, "r2", [_rec(i) for i in range(3, 6)])
    _archive(h, "r3", [_rec(i) for i in range(6, 9)])
    rounds = [{"round_id": "r1", "status": "applied"}, {"round_id": "r2", "status": "applied", "rolled_back": True},
              {"round_id": "r3", "status": "applied"}, {"round_id": "r4", "status": "applied"}]  # r4: no archive
    got = recent_archived(h, rounds, limit=5)
    assert [r["id"] for r in got] == ["a1", "a2", "a6", "a7", "a8"]
    near = recent_archived(h, rounds, limit=10, keep=lambda r: r["id"] != "a7")
    assert [r["id"] for r in near] == ["a0", "a1", "a2", "a6", "a8"]


def test_a_damaged_archive_is_named():
    h = Home.of(None)
    _archive(h, "r1", [_rec(0), 5])
    with pytest.raises(CorruptFileError, match="r1.json"):
        recent_archived(h, [{"round_id": "r1", "status": "applied"}], limit=10)


def test_logged_near_the_current_thresholds():
    keep = logged_near(Thresholds(0.4, {"api": 0.5}), 0.1, 0.9)
    assert keep(_rec(0, threshold=0.46)) and not keep(_rec(0, threshold=0.44))
    assert keep(_rec(0, domain="web", threshold=0.43)) and not keep(_rec(0, threshold=None))


def test_records_window_uses_each_records_own_threshold_and_concat_recodes_domains():
    records = [_rec(0, threshold=0.2),  # S1 at 0.3 above its threshold 0.2: not the threshold's route -> fixed
               _rec(1, threshold=0.5),  # S1 below 0.5: the threshold's route
               _rec(2, domain="web", threshold=0.5, pattern="web:x")]  # in the cache -> fixed
    w = records_window(records, frozenset({"web:x"}))
    assert w.domains == ("api", "web") and w.fixed.tolist() == [True, False, True]
    other = records_window([_rec(3, domain="docs")], frozenset())
    both = concat(other, w)
    assert both.domains == ("api", "docs", "web")
    assert [both.domains[i] for i in both.domain.tolist()] == ["docs", "api", "api", "web"]
    assert np.array_equal(both.fixed, [False, True, False, True])
