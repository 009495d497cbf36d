"""`config show`, `rollback --dry-run` and checkpoint 2's proposal wording in a real 80-column terminal."""

from __future__ import annotations

from pathlib import Path

import orjson

from artibot import learn
from artibot.collector import collect_many
from tests.cli.test_pty import Terminal, assert_fits
from tests.factories import mixed

# an estimate the proposal loses by, beyond noise: success −2.0 points [−3.0, −1.0]
WORSE = {"method": "dr", "level": 0.9, "n": 5000, "changed": 800, "explored": 120, "no_propensity": 0, "fixed": 0,
         "support": {"current": 60, "proposed": 60}, "unsupported": 0, "ess": 2100.0, "ess_changed": 300.0,
         "earlier": 0, "verdict": "estimated",
         "reason": "800 of 5,000 logged requests would be routed differently",
         "current": {"success": 0.84, "interval": [0.83, 0.85], "system2_share": 0.5},
         "proposed": {"success": 0.82, "interval": [0.805, 0.835], "system2_share": 0.55},
         "difference": {"success": -0.02, "system2_share": 0.05}, "interval": [-0.03, -0.01]}


def test_config_show_at_80_columns(artibot_home: Path) -> None:
    artibot_home.mkdir(parents=True)
    (artibot_home / "artibot.config.json").write_text('{"learning": {"lifelong": {"system2Cost": 0.07}}}')
    term = Terminal(["config", "show"], artibot_home)
    try:
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen()
    assert "(the data home: in use)" in screen and '"system2Cost": 0.07' in screen
    assert "…" not in screen  # paths are printed whole (a path may be wider than the terminal)


def test_rollback_dry_run_at_80_columns(artibot_home: Path) -> None:
    collect_many(mixed(100))
    round_id = learn(answers="defaults").round_id
    term = Terminal(["rollback", round_id, "--dry-run"], artibot_home)
    try:
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen()
    assert_fits(screen)
    flat = " ".join(screen.split())
    assert f"rounds undone: {round_id}" in flat and "experiences put back in the log to learn from again: 100" in flat
    assert "dry run: nothing changed" in screen and "Roll back?" not in screen
    assert orjson.loads((artibot_home / "learning-log.json").read_bytes())["rounds"][-1].get("rolled_back") is not True


def test_rollback_asks_on_a_terminal(artibot_home: Path) -> None:
    collect_many(mixed(100))
    round_id = learn(answers="defaults").round_id
    term = Terminal(["rollback", round_id], artibot_home)
    try:
        term.read_until(b"Roll back? [y/N]:")
        term.answer("")  # Enter: no
        assert term.finish() == 1
    finally:
        term.close()
    assert "nothing changed" in term.screen()


def test_a_worse_proposal_defaults_to_revert(artibot_home: Path) -> None:
    collect_many(mixed(100))
    assert learn(answers="defer").status == "deferred"
    path = artibot_home / "pending-review.json"
    doc = orjson.loads(path.read_bytes())
    doc["proposal"]["params"]["off_policy"] = WORSE
    path.write_bytes(orjson.dumps(doc))
    term = Terminal(["review"], artibot_home)
    try:
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("")  # Accept
        second = term.read_until(b"Choose 1-2 [2]:")  # the default is now the second option, Revert
        term.answer("")  # Enter takes it
        term.read_until(b"]:")
        term.answer("")
        assert term.finish() == 0
    finally:
        term.close()
    assert_fits(term.screen())
    flat = " ".join(second.split())
    assert "Checkpoint 2: proposed threshold changes" in flat
    assert "These threshold changes are proposed, not yet applied." in flat
    assert "utility = success −" in flat and "(what the learner maximises)" in flat
    assert "The estimate says the proposal is worse" in flat and "the default is Revert" in flat
    assert "Revert adjustment [revert] (default)" in flat
    log = orjson.loads((artibot_home / "learning-log.json").read_bytes())["rounds"][-1]
    assert [(a["checkpoint"], a["answer"]) for a in log["answers"]][:2] == [(1, "accept"), (2, "revert")]


def test_checkpoint_3_of_50_patterns_shows_the_decisions_and_one_line_for_the_held(artibot_home: Path) -> None:
    from tests.factories import round_of_patterns

    collect_many(round_of_patterns(moving=5, held=45))
    assert learn(answers="defer", flush=True).status == "deferred"
    term = Terminal(["review"], artibot_home)
    try:
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("accept")
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("apply")
        third = term.read_until(b"Choose 1-3 [1]:")
        term.answer("list")
        listed = term.read_until(b"Choose 1-2 [1]:")
        term.answer("auto")
        assert term.finish() == 0
    finally:
        term.close()
    assert_fits(term.screen())
    screen3 = third[third.index("Checkpoint 3"):]
    assert len(screen3.splitlines()) < 35, screen3  # was ~150 lines: one entry per held pattern
    assert screen3.count("promote   backend:fix:often") == 5 and "rare" not in screen3
    flat = " ".join(screen3.split())
    assert "45 pattern(s) held where they are: nothing changes for them (the last option lists them)" in flat
    assert "Automatic decisions [auto] (default)" in flat and "Pattern by pattern [each]" in flat
    assert sum(1 for line in listed.splitlines() if line.startswith("hold      frontend:add:rare")) == 45
    # each hold says which bounds fell short of the bar, and every bound shown is short of it; no
    # confidence beside them (evidence mode decides on the bounds)
    import re

    said = " ".join(listed.split())
    assert said.count("neither is surely at least 0.80, the success a promotion needs") == 45
    bounds = [float(x) for x in re.findall(r"success at least (\d\.\d+)", said)]
    assert len(bounds) == 45 and max(bounds) < 0.80
    assert "confidence" not in screen3 + listed
    log = orjson.loads((artibot_home / "learning-log.json").read_bytes())["rounds"][-1]
    assert sorted(k for k, v in log["transfers"].items() if v == "promote") == [f"backend:fix:often{i:02d}"
                                                                                 for i in range(5)]


def test_checkpoint_3_held_line_in_korean(artibot_home: Path) -> None:
    from tests.cli.test_korean import english_sentences
    from tests.factories import round_of_patterns

    artibot_home.mkdir(parents=True, exist_ok=True)
    (artibot_home / "artibot.config.json").write_text('{"lang": "ko"}')
    collect_many(round_of_patterns(moving=2, held=6))
    assert learn(answers="defer", flush=True).status == "deferred"
    term = Terminal(["review"], artibot_home)
    try:
        term.read_until(b"[1]:")
        term.answer("")
        term.read_until(b"[1]:")
        term.answer("")
        third = term.read_until(b"1-3")
        term.answer("3")
        listed = term.read_until(b"1-2")
        term.answer("")
        assert term.finish() == 0
    finally:
        term.close()
    screen3 = third[third.index("체크포인트 3"):]
    assert "보류(현재 위치 유지) 패턴 6개: 바뀌는 것 없음 (마지막 선택지로 목록을 볼 수 있음)" in " ".join(screen3.split())
    assert "보류된 패턴 보기 [list]" in screen3
    assert not english_sentences(screen3 + listed), english_sentences(screen3 + listed)


def test_checkpoint_2_says_one_thing_of_a_threshold_that_stays(artibot_home: Path) -> None:
    """A threshold kept while the best-looking one lay beyond the round's limit: the screen said
    "threshold stays 0.40: no threshold within reach is surely better" and then "the evidence
    pointed farther: the move stops at that limit", a move that never happened."""
    from tests.factories import round_of_patterns

    collect_many(round_of_patterns(moving=1, held=2))
    assert learn(answers="defer", flush=True).status == "deferred"
    path = artibot_home / "pending-review.json"
    doc = orjson.loads(path.read_bytes())
    proposal = doc["proposal"]
    step = next(s for s in proposal["steps"] if s["domain"] == "backend")
    old = step["old"]
    step.update(new=old, delta=0.0, clamped=True)
    proposal["new"]["domains"]["backend"] = old
    evidence = proposal["params"]["evidence"]["backend"]
    evidence["reason"] = evidence["reason"].split(" → ")[0] + f" → threshold stays {old:.2f}: no threshold within " \
                                                               "reach is surely better"
    evidence["per_100"] = None
    path.write_bytes(orjson.dumps(doc))
    term = Terminal(["review"], artibot_home)
    try:
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("")
        second = term.read_until(b"Choose 1-2 [1]:")
        term.answer("")
        term.read_until(b" [1]:")
        term.answer("")
        assert term.finish() == 0
    finally:
        term.close()
    assert_fits(term.screen())
    flat = " ".join(second.split())
    at = flat.index("backend: System 1")
    backend = flat[at:flat.index("frontend", at)]
    assert f"threshold stays {old:.2f}: no threshold within reach is surely better" in backend
    assert "the best-looking threshold lies beyond that limit" in backend
    assert "the move stops at that limit" not in backend
