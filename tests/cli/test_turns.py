"""``artibot turns``: what the router decided, why, and how each turn ended — in the log, the
archives and still in a session's spool — and ``--follow`` as turns land; health in a terminal."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from artibot import learn
from artibot.collector import collect, collect_many
from artibot.store.home import Home
from tests.cli.test_pty import Terminal, assert_fits
from tests.factories import mixed
from tests.integrations.test_hooks import Driver

HARD = ("migrate the billing service from REST to gRPC across the backend, the React frontend and the "
        "Postgres schema, step by step, then add integration tests and a rollback plan")


@pytest.fixture
def hook(home: Home, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Driver:
    home.ensure()
    (home.root / "artibot.config.json").write_text('{"cognitive": {"router": {"exploration": 0, '
                                                   '"domainExploration": 0}}}')
    return Driver(monkeypatch, capsys)


def test_turns_show_the_decision_the_reason_and_the_end(hook: Driver, home: Home, cli) -> None:
    hook("user-prompt-submit", prompt="fix the typo in the README title, mail bob@example.org", session_id="s1")
    hook("stop", session_id="s1")
    hook("user-prompt-submit", prompt=HARD, session_id="s1")
    hook("stop", session_id="s1")
    hook("session-end", session_id="s1")
    hook("user-prompt-submit", prompt="now rename the helper", session_id="s2")  # still open
    lines = cli("turns", "--json").json()
    assert [t["outcome"] != "pending" for t in lines] == [True, True, False]
    first, second, open_turn = lines
    assert first["route"] == "system1" and first["why"].startswith("complexity ") and " < threshold " in first["why"]
    assert second["route"] == "system2"
    assert "<EMAIL>" in first["prompt"] and "bob@" not in cli("turns").out  # only anonymized text
    assert first["agent"] == "claude-code" and first["session_id"] == "s1" and first["outcome_reason"]
    assert open_turn["session_id"] == "s2" and open_turn["prompt"].startswith("now rename")
    assert [t["session_id"] for t in cli("turns", "--session", "s2", "--json").json()] == ["s2"]
    assert len(cli("turns", "-n", "1", "--json").json()) == 1
    out = cli("turns").out
    assert "why system1: complexity" in out and "pending" in out and "prompt at (UTC)" in out


def test_turns_show_the_gateway_and_the_archived_rounds(cli, home: Home) -> None:
    collect_many(mixed(60))
    learn(answers="defaults")  # the first 50 go to an archive
    collect({"input": "explain the cache", "domain": "docs", "complexity": 0.2, "routed_to": "system1",
             "outcome": "success", "latency_ms": 900, "confidence": 0.8, "threshold": 0.4, "agent": "claude-code",
             "usage": {"requests": 2, "input_tokens": 1200, "output_tokens": 300, "cache_creation_input_tokens": 0,
                       "cache_read_input_tokens": 500, "cost_usd": 0.0123, "models": ["claude-sonnet-4"],
                       "profile": {"effort": "low", "model": None}}})
    lines = cli("turns", "-n", "30", "--json").json()
    assert len(lines) == 30
    last = lines[-1]
    assert (last["effort"], last["model"], last["tokens"], last["cost_usd"]) == ("low", "claude-sonnet-4", 2000,
                                                                                   0.0123)
    assert len(cli("turns", "-n", "100", "--json").json()) == 61  # the archive's turns too
    assert "$0.0123" in cli("turns", "-n", "1").out


def test_turns_on_an_empty_home_and_a_missing_one(cli, home: Home, tmp_path: Path) -> None:
    home.ensure()
    assert cli("turns").out.strip() == "no turns yet"
    missing = cli("--home", str(tmp_path / "nope"), "turns")
    assert missing.code == 2 and "does not exist" in missing.err


def test_turns_follow_prints_turns_as_they_land(artibot_home: Path) -> None:
    Home(artibot_home).ensure()
    env = {**os.environ, "ARTIBOT_HOME": str(artibot_home)}
    proc = subprocess.Popen([sys.executable, "-m", "artibot", "turns", "--follow", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1.5)
        collect({"input": "add a unit test", "domain": "testing", "complexity": 0.3, "routed_to": "system1",
                 "outcome": "failed", "latency_ms": 900, "confidence": 0.8, "threshold": 0.4},
                home=artibot_home)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert b'"prompt":"add a unit test"' in line and b'"outcome":"failed"' in line
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_turns_and_a_broken_config_in_a_terminal(artibot_home: Path, tmp_path: Path) -> None:
    """What a person sees: the turns table at 80 columns, and the health lines after a config typo."""
    collect_many(mixed(5), home=artibot_home)
    term = Terminal(["turns"], artibot_home)
    try:
        assert term.finish() == 0
    finally:
        term.close()
    assert_fits(term.screen())
    assert term.screen().count("why system") == 5

    project = tmp_path / "project"
    project.mkdir()
    (project / "artibot.config.json").write_text('{"learning": {"lifelong": {"sytem2Cost": 0.05}}}')
    env = {**os.environ, "ARTIBOT_HOME": str(artibot_home)}
    hooked = subprocess.run([sys.executable, "-m", "artibot", "hook", "user-prompt-submit"], cwd=project, env=env,
                            input=b'{"session_id": "s1", "prompt": "fix the login bug"}', capture_output=True)
    assert hooked.returncode == 0 and b"systemMessage" in hooked.stdout
    for argv, code in ((["status"], 0), (["doctor"], 1)):
        term = Terminal(argv, artibot_home)
        try:
            assert term.finish() == code
        finally:
            term.close()
        screen = " ".join(term.screen().split())
        assert "sytem2Cost" in screen and "user-prompt-submit" in screen
        assert_fits(term.screen())


def test_report_cost_says_turns_are_pending(hook: Driver, cli) -> None:
    hook("user-prompt-submit", prompt="fix the typo in the README title", session_id="s1")
    out = cli("report", "cost").out
    assert "turns pending in 1 session(s): 1" in out and "until their session ends" in out


def test_every_turn_is_listed_by_its_prompt_time_never_after_its_correction(
        hook: Driver, home: Home, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Recorded turns were listed at the time they were written to the log (at the session's
    end), pending ones at their prompt's: a turn came after the correction that judged it."""
    hook("user-prompt-submit", prompt="fix the typo in the README title", session_id="s1")
    hook("stop", session_id="s1")
    time.sleep(0.05)
    hook("user-prompt-submit", prompt="no, that is wrong: the title is still misspelt, fix it", session_id="s1")
    lines = cli("turns", "--json").json()
    assert [t["prompt"][:6] for t in lines] == ["fix th", "no, th"], lines
    assert lines[0]["outcome"] != "pending" and lines[1]["outcome"] == "pending"
    assert lines[1]["waits_for"] == "in progress" and lines[0]["waits_for"] == "session end"
    hook("stop", session_id="s1")
    time.sleep(0.05)
    monkeypatch.delenv("ARTIBOT_RESUME_WINDOW_MIN")  # the correction is the last turn: held
    hook("session-end", session_id="s1")  # the first turn goes to the log, stamped now
    lines = cli("turns", "--json").json()
    assert [t["prompt"][:6] for t in lines] == ["fix th", "no, th"], lines
    assert lines[0]["time"] < lines[1]["time"] and lines[0]["waits_for"] is None
    assert lines[1]["waits_for"] == "resumed session" and lines[1]["until"]


def test_a_held_turn_says_what_it_waits_for_in_a_terminal(hook: Driver, home: Home,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``claude -p`` turns showed "pending" for 30 minutes with no word of why."""
    monkeypatch.delenv("ARTIBOT_RESUME_WINDOW_MIN")  # the shipped hold
    hook("user-prompt-submit", prompt="explain the cache layer", session_id="s1")
    hook("stop", session_id="s1")
    hook("session-end", session_id="s1")
    term = Terminal(["turns"], home.root)
    try:
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen()
    assert_fits(screen)
    said = " ".join(screen.split())
    assert "pending: the session ended; its last turn waits until " in said, said
    assert "UTC in case the session resumes (`claude --continue`), so that a correction still reaches it" in said
    assert "then the next `artibot learn` or session start records it as it ended" in said


def test_the_pending_notes_in_korean() -> None:
    from artibot.cli.words import w
    from tests.cli.test_korean import english_sentences

    said = [w("ko", "t_pending") + w("ko", key, until="15:30")
            for key in ("t_wait_open", "t_wait_next", "t_wait_resume", "t_wait_queued")]
    assert english_sentences("\n".join(said)) == [], said
