"""A round saved for review is answered where it is shown: ``learn`` in a terminal continues
it, ``review`` without a terminal prints every checkpoint's screen, ``review -i`` reads answers."""

from __future__ import annotations

import subprocess
import sys
import os
from pathlib import Path

import orjson

from artibot import learn
from artibot.collector import collect_many
from tests.cli.test_pty import Terminal, assert_fits
from tests.factories import mixed


def _last_round(home: Path) -> dict:
    return orjson.loads((home / "learning-log.json").read_bytes())["rounds"][-1]


def test_learn_in_a_terminal_continues_the_saved_round(artibot_home: Path) -> None:
    collect_many(mixed(120))
    saved = learn(answers="defer")
    assert saved.status == "deferred"
    term = Terminal(["learn"], artibot_home)
    try:
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("")
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("")
        term.read_until(b"]:")
        term.answer("")
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen()
    assert_fits(screen)
    assert f"round {saved.round_id} was prepared earlier" in screen
    assert "estimate [90% interval]" in screen and "form a group, and System 2's success rate is compared" in " ".join(screen.split())
    assert "GRPO" not in screen  # the precise term is in docs/learning.md
    last = _last_round(artibot_home)
    assert last["round_id"] == saved.round_id and last["status"] == "applied"
    assert not (artibot_home / "pending-review.json").exists()


def test_review_without_a_terminal_prints_every_screen(artibot_home: Path, cli) -> None:
    collect_many(mixed(120))
    learn(answers="defer")
    out = cli("review").out
    for heading in ("Checkpoint 1: how the two systems did on similar requests",
                    "Checkpoint 2: proposed threshold changes", "What the proposed thresholds would have done"):
        assert heading in out
    assert "old" in out and "new" in out and "→" in out  # the old → new of each proposed change
    assert "Apply [apply] (default)" in out and "answer with: `artibot review --answer" in out


def test_review_interactive_reads_the_answers_from_stdin(artibot_home: Path) -> None:
    collect_many(mixed(120))
    saved = learn(answers="defer")
    env = {**os.environ, "ARTIBOT_HOME": str(artibot_home)}
    done = subprocess.run([sys.executable, "-m", "artibot", "review", "-i"], input=b"1\n2\n1\n", env=env,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answers = [(a["checkpoint"], a["answer"]) for a in _last_round(artibot_home)["answers"]]
    assert answers[:2] == [(1, "accept"), (2, "revert")] and _last_round(artibot_home)["round_id"] == saved.round_id
