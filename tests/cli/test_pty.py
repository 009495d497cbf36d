"""``artibot learn`` and ``artibot review`` under a real pseudo-terminal of 80 columns.

What a person sees and answers: the screens are read back as text and every value a
person judges — pattern keys, decisions, old and new thresholds, reasons — must appear
whole (never cut, never with an ellipsis), and no line may be wider than the terminal.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from rich.cells import cell_len

from artibot import learn
from artibot.collector import collect_many
from artibot.store.home import Home
from tests.factories import mixed, record

COLUMNS = 80
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]")

# real pattern keys are this long: a column of them cannot share a line with much else
DEMOTED = "frontend:refactor:component+dashboard+hook+management+~94feaa"
PROMOTED = "security:investigate:auth+fix+flow+leak+~8cd05f"


class Terminal:
    """A child process on a pty of ``COLUMNS`` x 50; ``screen()`` is everything it printed, as text."""

    def __init__(self, argv: list[str], home: Path):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update({"ARTIBOT_HOME": str(home), "HOME": str(home.parent), "TERM": "xterm"})
        # Ctrl-C as in a terminal even when the test runs in a background job, whose children
        # inherit SIGINT ignored (and Python then never raises KeyboardInterrupt)
        self.proc = subprocess.Popen([sys.executable, "-m", "artibot", *argv], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(slave)
        self.fd = master
        self.raw = b""

    def read_until(self, needle: bytes, timeout: float = 30.0) -> str:
        start = len(self.raw)
        end = time.monotonic() + timeout
        while needle not in self.raw[start:]:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {needle!r}; got:\n{self.screen()}")
            if not self._read(left):
                break
        return self.text(self.raw[start:])

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed the pty
                return False
            if not chunk:
                return False
            self.raw += chunk
        return True

    def wait_reading(self, timeout: float = 10.0) -> None:
        """Until the child sleeps (a prompt waits in ``read``) in three looks 50 ms apart. A Ctrl-C
        sent the moment a prompt appears can land after the interpreter's last check for signals
        and before the ``read`` starts: the read then waits for ever (a race of any process that
        handles signals in its main loop, not of artibot), so a test lets the child get there."""
        stat = f"/proc/{self.proc.pid}/stat"
        end, asleep = time.monotonic() + timeout, 0
        while asleep < 3 and time.monotonic() < end:
            try:
                with open(stat) as fh:
                    state = fh.read().rsplit(")", 1)[1].split()[0]
            except OSError:  # no /proc: a pause instead
                time.sleep(0.5)
                return
            asleep = asleep + 1 if state == "S" else 0
            time.sleep(0.05)

    def answer(self, keys: str) -> None:
        os.write(self.fd, keys.encode() + b"\n")

    def finish(self, timeout: float = 30.0) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.2)
        drained = len(self.raw) - 1
        while len(self.raw) > drained and self._read(0.05):  # what is left to read, not a silent child forever
            drained = len(self.raw)
        return self.proc.wait(timeout=1)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        os.close(self.fd)

    @staticmethod
    def text(raw: bytes) -> str:
        return ANSI.sub(b"", raw).decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "")

    def screen(self) -> str:
        return self.text(self.raw)


def prepare(home: Path, mode: str) -> None:
    """Two rounds of data: the first (applied here) promotes DEMOTED; the second (left for the
    terminal) demotes it again, promotes PROMOTED and moves thresholds — in either mode."""
    h = Home(home).ensure()
    if mode == "evidence":
        h.config_file.write_bytes(orjson.dumps({"learning": {"lifelong": {"mode": "evidence", "system2Cost": 0.05}}}))
    learner_system = "system2" if mode == "seed" else "system1"  # what earns a promotion in each mode
    collect_many([record(i, domain="frontend", routed_to=learner_system, pattern=DEMOTED, confidence=0.95,
                         complexity=0.2) for i in range(60)] + mixed(40, start=1000))
    assert learn(answers="defaults", flush=True).status == "applied"
    collect_many([record(100 + i, domain="frontend", routed_to="system1", outcome="failed", pattern=DEMOTED,
                         confidence=0.95, complexity=0.2) for i in range(80)]
                 + [record(200 + i, domain="security", routed_to=learner_system, pattern=PROMOTED,
                           confidence=0.95, complexity=0.2) for i in range(60)]
                 + mixed(160, start=2000, seed=3))


def judged_values(home: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Checkpoint 2's and 3's rows, as the round about to run will show them."""
    report = learn(home=home, dry_run=True)
    assert report.evidence is not None
    thresholds = [dict(r) for r in report.evidence[2].rows]
    patterns = [dict(r) for r in report.evidence[3].rows]
    # the data must make the screens worth checking: moves in both directions
    assert {r["automatic"] for r in patterns} >= {"promote", "demote"}
    assert any(r["old"] != r["new"] for r in thresholds)
    return thresholds, patterns


def assert_fits(screen: str) -> None:
    lines = screen.split("\n")
    wide = [line for line in lines if cell_len(line) > COLUMNS]
    assert not wide, "lines wider than the terminal:\n" + "\n".join(wide)
    assert "…" not in screen, f"a value was cut short:\n{screen}"


def assert_whole(screen: str, thresholds: list[dict[str, Any]], patterns: list[dict[str, Any]]) -> None:
    lines = [line.strip() for line in screen.split("\n")]
    for r in thresholds:
        row = f"{r['domain']} {r['old']:.3f} {r['new']:.3f}"
        assert any(" ".join(line.split()).startswith(row) for line in lines), f"no row {row!r} in:\n{screen}"
    flat = " ".join(screen.split())
    for r in patterns:
        # the decision and the key whole, on one line
        assert any(re.fullmatch(rf"{r['automatic']}\s+{re.escape(r['key'])}", line) for line in lines), \
            f"no line '{r['automatic']}  {r['key']}' in:\n{screen}"
        assert " ".join(r["reason"].split()) in flat, f"reason {r['reason']!r} not shown whole"


@pytest.mark.parametrize("mode", ["seed", "evidence"])
def test_learn_at_80_columns(artibot_home: Path, mode: str) -> None:
    prepare(artibot_home, mode)
    thresholds, patterns = judged_values(artibot_home)
    term = Terminal(["learn"], artibot_home)
    try:
        first = term.read_until(b"Choose 1-2 [1]:")
        assert "Checkpoint 1" in first and "Accept [accept] (default) —" in first
        assert "Reset group data [reset] —" in first
        term.answer("accept")  # the word review --answer takes, as well as the number
        second = term.read_until(b"Choose 1-2 [1]:")
        assert "Checkpoint 2" in second and "Revert adjustment [revert] —" in second
        term.answer("")  # Apply
        held = [r for r in patterns if r["automatic"] == "hold"]
        third = term.read_until(b"Choose 1-3 [1]:" if held else b"Choose 1-2 [1]:")
        assert "Checkpoint 3" in third
        # every option says what it does: nothing dangles after a dash
        assert "Automatic decisions [auto] (default) — take every decision shown above" in third
        assert "Pattern by pattern [each] —" in third
        assert not re.search(r"—\s*$", third, re.M)
        moves = [r for r in patterns if r["automatic"] != "hold"]
        assert_whole(third, [], moves)
        if held:  # what needs no decision is one line, and the last option unfolds it
            assert f"{len(held)} pattern(s) held where they are: nothing changes for them (the last option " \
                   "lists them)" in " ".join(third.split())
            assert "List the held patterns [list] — show them, then choose again" in third
            term.answer("3")
            listed = term.read_until(b"Choose 1-2 [1]:")
            assert_whole(listed, [], held)
        term.answer("2")  # decide pattern by pattern
        for _ in patterns:
            term.read_until(b"Choose 1-4 [1]:")
            term.answer("")
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen()
    assert_fits(screen)
    assert_whole(screen, thresholds, patterns)
    assert "applied" in screen
    log = orjson.loads((artibot_home / "learning-log.json").read_bytes())["rounds"][-1]
    assert [(a["checkpoint"], a["channel"]) for a in log["answers"]] == [(1, "terminal"), (2, "terminal"),
                                                                          (3, "terminal")]


def test_review_at_80_columns(artibot_home: Path) -> None:
    prepare(artibot_home, "seed")
    thresholds, patterns = judged_values(artibot_home)
    assert learn(answers="defer").status == "deferred"
    term = Terminal(["review"], artibot_home)
    try:
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("")
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("2")  # revert the thresholds
        term.read_until(b"Choose 1-3 [1]:" if any(r["automatic"] == "hold" for r in patterns) else b"Choose 1-2 [1]:")
        term.answer("auto")  # the automatic decisions, by their word
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen()
    assert_fits(screen)
    assert_whole(screen, thresholds, [r for r in patterns if r["automatic"] != "hold"])
    held = sum(1 for r in patterns if r["automatic"] == "hold")
    assert not held or f"{held} pattern(s) held where they are" in screen
    assert "reverted" in screen and "thresholds kept" in screen


def test_revert_in_a_terminal_keeps_the_thresholds(artibot_home: Path) -> None:
    collect_many(mixed(100))
    term = Terminal(["learn"], artibot_home)
    try:
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("")  # Accept
        term.read_until(b"Choose 1-2 [1]:")
        term.answer("2")  # Revert
        term.read_until(b"]:")
        term.answer("")
        assert term.finish() == 0
    finally:
        term.close()
    log = orjson.loads((artibot_home / "learning-log.json").read_bytes())["rounds"][-1]
    assert [(a["checkpoint"], a["answer"]) for a in log["answers"]][:2] == [(1, "accept"), (2, "revert")]
    assert not (artibot_home / "thresholds.json").exists()


def test_demo_at_80_columns(artibot_home: Path) -> None:
    """`artibot demo` in a real 80-column terminal: tables and the reasons under them fit, nothing cut."""
    term = Terminal(["demo", "--rounds", "3"], artibot_home)
    try:
        assert term.finish(timeout=120) == 0
        screen = term.screen()
    finally:
        term.close()
    assert_fits(screen)
    assert "What the shipped defaults learned" in screen and "…" not in screen
    assert "hidden truth" in screen
    # one header per column (two were both "S2"), the seed rule said in a line, the bill in dollars
    lines = screen.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("┃") and "seed rule" in line)
    cells = [[c.strip() for c in line.split("┃")[1:-1]] for line in lines[head:head + 2]]
    headers = [" ".join(p for p in col if p) for col in zip(*cells)]
    assert headers[1:] == ["defaults success", "defaults System 2", "defaults $ per 100", "seed rule success",
                           "seed rule System 2", "seed rule $ per 100"], headers
    flat = " ".join(screen.split())
    assert "seed rule: the original algorithm artibot was built to reproduce (mode \"seed\")" in flat
    assert "$0.05 a System 1 turn, $0.10 a System 2 turn" in flat
    day1 = next(line for line in lines if line.startswith("│ 1 "))
    assert day1.count("$") == 2 and day1.count("%") == 4
    assert "System 1 goes first where it fails less than" in flat and "price of a System 2 call" not in flat
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  day "))
    last = next(i for i, line in enumerate(lines) if line.startswith("last "))
    # each reason wraps under a hanging indent, so the days stand out at the left
    assert all(line.startswith(("  day ", "    ")) for line in lines[first:last]), screen
    assert any(line.startswith("    ") for line in lines[first:last]), screen
