"""The team study runs end to end on a tiny budget, and joining a team beats starting from scratch there."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import run_team  # noqa: E402


def test_team_tiny(tmp_path, monkeypatch):
    from artibot.learning import bandit

    seen: list[float] = []
    one_seed = run_team.run_w1.one_seed
    monkeypatch.setattr(run_team.run_w1, "one_seed", lambda a, seed: seen.append(bandit.HALF_LIFE) or one_seed(a, seed))
    args = run_team.Args(seeds=(1,), members=2, nights=4, per_night=250, month=3, workers=1, out=str(tmp_path))
    result = run_team.main(args)
    # the pool ran with the team round's half-life, and the learner's own is back for what runs next
    assert seen == [bandit.pooled_half_life(2)] and bandit.HALF_LIFE == 1000.0
    w1 = result["per_seed"]["w1-1"]
    assert w1["regret_1k"] >= 0 and w1["scratch_regret_1k"] > 0
    assert {"recovery_backend", "recovery_data"} <= set(result["per_seed"]["w2-1"])
    assert "| evidence, pooled, seeds 1 |" in (tmp_path / "table.md").read_text()
