"""A Korean session prints no English sentence outside proper names, numbers and commands:
a round answered in a terminal, a saved round continued, its closing summary, Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from artibot import learn
from artibot.collector import collect_many
from tests.cli.test_pty import Terminal, assert_fits
from tests.factories import mixed

ALLOWED = re.compile(
    r"`[^`]*`"                                     # commands
    r"|\[[a-z]+\]"                                 # an option's --answer word
    r"|System [12]|GRPO|S[12]|Claude Code|artibot|doubly robust|self-normalised IPS"  # proper names
    r"|system2Cost|targetSystem2Share|[a-z]+:[\w:+~-]+"  # config keys, pattern keys
    r"|r\d{8}-\d+-[0-9a-f]+"                       # round ids
    r"|\b(?:backend|frontend|default|docs|security|data|devops|testing|general)\b")  # domain names
SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'’-]+[A-Za-z]{2,}){2,}")  # three English words in a row


def english_sentences(screen: str) -> list[str]:
    found = []
    for line in screen.splitlines():
        rest = ALLOWED.sub(" ", line)
        found += [m.group() for m in SENTENCE.finditer(rest)]
    return found


def korean_home(home: Path, n: int = 160) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "artibot.config.json").write_text('{"lang": "ko"}')
    collect_many(mixed(n))


def test_a_korean_round_in_a_terminal(artibot_home: Path) -> None:
    korean_home(artibot_home)
    term = Terminal(["learn"], artibot_home)
    try:
        for _ in range(3):
            term.read_until("중 선택".encode())
            term.answer("")
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen()
    assert_fits(screen)
    assert "체크포인트 1" in screen and "체크포인트 2" in screen and "적용" in screen
    assert english_sentences(screen) == []


def test_a_saved_korean_round_reviewed_and_its_summary(artibot_home: Path, cli) -> None:
    korean_home(artibot_home)
    learn(answers="defer")
    shown = cli("review").out
    assert "체크포인트 2" in shown
    leftover = english_sentences(shown)
    assert leftover == [], leftover
    env = {**os.environ, "ARTIBOT_HOME": str(artibot_home)}
    done = subprocess.run([sys.executable, "-m", "artibot", "review", "-i"], input=b"\n\n\n", env=env,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "라운드" in out and "적용" in out
    assert english_sentences(out) == []


def test_ctrl_c_in_korean(artibot_home: Path) -> None:
    korean_home(artibot_home, n=60)
    term = Terminal(["learn"], artibot_home)
    try:
        term.read_until("중 선택".encode())
        term.wait_reading()
        os.kill(term.proc.pid, signal.SIGINT)
        assert term.finish() == 130
    finally:
        term.close()
    tail = term.screen().strip().splitlines()[-1]
    assert "중단됨" in tail and english_sentences(tail) == []
    time.sleep(0)


def test_a_rounds_closing_line_counts_in_both_languages(artibot_home: Path) -> None:
    from artibot.messages import render

    korean_home(artibot_home)
    report = learn(answers="defaults")
    assert report.said is not None and str(report.said) == report.message
    assert re.fullmatch(r"round \S+ applied: 150 experiences in \d+ batch(es)?; "
                        r"(no threshold changed|1 threshold changed|\d+ thresholds changed)", report.message)
    assert re.fullmatch(r"라운드 \S+ 적용: 경험 150개, 배치 \d+개; (바뀐 임계값 없음|임계값 \d+개 변경)",
                        render(report.said, "ko"))
