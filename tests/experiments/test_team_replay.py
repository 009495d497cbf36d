"""The team replay's pieces on rows made here (the MMLU file is not needed): the bound of bandit
feedback, the loss decomposition that adds up to the table's lead, and one tiny seeded pass."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import online, run_team, team_replay  # noqa: E402


def rows(n: int = 240, seed: int = 0) -> list[online.Row]:
    """Subject "hard": System 2 far better; "easy": both the same; "mid": System 2 a little better."""
    rng = random.Random(seed)
    p = {"hard": (0.3, 0.9), "easy": (0.8, 0.8), "mid": (0.6, 0.7)}
    out = []
    for i in range(n):
        d = ("hard", "easy", "mid")[i % 3]
        out.append(online.Row(f"explain question {i} of {d}", d, int(rng.random() < p[d][0]),
                              int(rng.random() < p[d][1])))
    return out


def test_the_bound_of_bandit_feedback_is_below_the_full_information_table_and_finds_the_clear_subject() -> None:
    data = rows(600)
    order = online.shuffled(data, 3)
    half = len(order) // 2
    price = float(np.mean([r.s2 for r in order[half:]]) - np.mean([r.s1 for r in order[half:]]))
    table = team_replay.table_choice(order[:half], order[half:], price)
    full = online.score_rows(table, order[half:])["score"]
    bound = team_replay.bandit_table(data, 3, draws=30)
    assert bound == team_replay.bandit_table(data, 3, draws=30)  # seeded
    assert 0 < bound <= full + 1e-9
    assert all(table[i] for i, r in enumerate(order[half:]) if r.domain == "hard")


def test_the_losses_add_up_to_the_tables_lead() -> None:
    order = online.shuffled(rows(300), 1)
    rng = np.random.default_rng(0)
    chose, explored = rng.random(len(order)) < 0.5, rng.random(len(order)) < 0.1
    out = team_replay.losses(order, chose, explored)
    half = len(order) // 2
    tail = order[half:]
    price = float(np.mean([r.s2 for r in tail]) - np.mean([r.s1 for r in tail]))
    lead = online.score_rows(team_replay.table_choice(order[:half], tail, price), tail)["score"] \
        - online.score_half(chose, order)["score"]
    assert out["total"] == pytest.approx(lead)
    assert out["explored"] + out["table_s1_subjects"] + out["table_s2_subjects"] == pytest.approx(lead)
    assert sum(s["lost"] for s in out["subjects"].values()) == pytest.approx(lead)


def test_a_seeded_pass_of_the_product_repeats_and_the_table_renders(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    data = rows(120)
    a = team_replay.run(data, 2, 50, router_seed=2)
    b = team_replay.run(data, 2, 50, router_seed=2)
    assert a["score"] == b["score"] and a["losses"] == b["losses"]
    runs = [{"study": "replay", "seed": s, "table": 0.3, "team": 0.25 + s / 100, "alone": 0.0,
             "bandit_table": 0.28, "team_share_of_table": (0.25 + s / 100) / 0.3, "alone_share_of_table": 0.0,
             "bandit_table_share_of_table": 0.28 / 0.3, "losses": a["losses"]} for s in (1, 2, 3)]
    text = "\n".join(run_team.render_replay(run_team.Args(), runs))
    assert "| 12 members pooling | 0.270 ± 0.010 | 0.900 ± 0.033 | 0.900 ± 0.083 |" in text
    assert "explored rows" in text and "Paired by seed" in text


def test_the_guarded_table_sends_the_rows_above_the_bound_to_system_2() -> None:
    from artibot.hookpath.router.complexity import score

    long = " then prove the theorem step by step and refactor the distributed architecture"
    data = [online.Row(r.prompt + long * (i % 4), r.domain, r.s1, r.s2) for i, r in enumerate(rows(300))]
    order = online.shuffled(data, 4)
    half = len(order) // 2
    tail = order[half:]
    price = float(np.mean([r.s2 for r in tail]) - np.mean([r.s1 for r in tail]))
    table = team_replay.table_choice(order[:half], tail, price)
    full = online.score_rows(table, tail)["score"]
    assert not all(table)  # the easy subject goes to System 1: the bound can cost something
    assert team_replay.guarded_table(data, 4, 1.0) == pytest.approx(full)  # no score lies above 1
    assert team_replay.guarded_table(data, 4, 0.0) == pytest.approx(0.0)  # every row on System 2: PGR 1 − share 1
    scores = sorted(score(r.prompt).score for r in tail)
    top = scores[len(scores) // 2]
    above = np.array([score(r.prompt).score > top for r in tail])
    assert 0 < above.sum() < len(tail)
    assert team_replay.guarded_table(data, 4, top) == pytest.approx(online.score_rows(table | above, tail)["score"])
    # the bound of bandit feedback within the same bounds: every row above 0 on System 2 scores 0,
    # none above 1 leaves the bound as it is
    assert team_replay.bandit_table(data, 4, draws=5, top=0.0) == pytest.approx(0.0)
    assert team_replay.bandit_table(data, 4, draws=5, top=1.0) == pytest.approx(team_replay.bandit_table(data, 4, draws=5))


def test_a_pass_runs_with_a_config_and_the_guarded_table_renders(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    data = rows(120)
    lifted = team_replay.run(data, 2, 50, router_seed=2, config={"cognitive": {"router": {"maxThreshold": 1.0}}})
    assert -1.0 <= lifted["score"] <= 1.0
    runs = [{"study": "replay", "seed": s, "table": 0.3, "team": 0.27, "alone": 0.0, "bandit_table": 0.28,
             "guarded_table": 0.29, "team_share_of_table": 0.9, "alone_share_of_table": 0.0,
             "bandit_table_share_of_table": 0.28 / 0.3, "guarded_table_share_of_table": 0.29 / 0.3}
            for s in (1, 2)]
    text = "\n".join(run_team.render_replay(run_team.Args(replay_max_threshold=1.0), runs))
    assert "maxThreshold 1" in text
    assert "| the table with the rows scoring above maxThreshold (1) on System 2 | 0.290 ± 0.000 | 0.967 ± 0.000 |" in text
