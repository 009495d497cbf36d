"""Hook failures the user can see: a config the hooks cannot load is counted for ``status`` and
``doctor``, told once a session in Claude Code's visible channel, and cleared by the next success."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from artibot.store import sessions
from artibot.store.home import Home
from tests.cli.conftest import cli  # noqa: F401 - the fixture
from tests.integrations.test_hooks import Driver, fixture

TYPO = '{"learning": {"lifelong": {"sytem2Cost": 0.05}}}'


@pytest.fixture
def hook(home: Home, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Driver:
    return Driver(monkeypatch, capsys)


@pytest.fixture
def broken_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "artibot.config.json").write_text(TYPO)
    monkeypatch.chdir(project)
    return project


def _system_message(out: str) -> str | None:
    return orjson.loads(out).get("systemMessage") if out.strip() else None


def test_a_config_typo_is_counted_told_once_and_cleared(hook: Driver, home: Home, broken_project: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _, out = hook("session-start", session_id="s1")
    told = _system_message(out)
    assert told and "sytem2Cost" in told and str(broken_project / "artibot.config.json") in told
    for _ in range(3):
        _, out = hook("user-prompt-submit", prompt="fix the login bug", session_id="s1")
        assert _system_message(out) is None  # told once a session, not on every prompt
    _, out = hook("user-prompt-submit", prompt="fix the login bug", session_id="s2")
    assert "sytem2Cost" in (_system_message(out) or "")  # a new session is told again
    failures = {f["event"]: f for f in sessions.hook_failures(home)}
    assert failures["user-prompt-submit"]["count"] == 4
    assert "learning.lifelong.sytem2Cost" in failures["user-prompt-submit"]["cause"]
    assert failures["user-prompt-submit"]["first"] <= failures["user-prompt-submit"]["last"]
    assert failures["session-start"]["count"] == 1

    (broken_project / "artibot.config.json").write_text("{}")  # fixed: the next prompt works
    _, out = hook("user-prompt-submit", prompt="fix the login bug", session_id="s2")
    assert "hookSpecificOutput" in orjson.loads(out) and "systemMessage" not in orjson.loads(out)
    assert [f["event"] for f in sessions.hook_failures(home)] == ["session-start"]


def test_status_and_doctor_show_the_failure_and_doctor_fails(hook: Driver, home: Home, broken_project: Path,
                                                             cli, monkeypatch: pytest.MonkeyPatch) -> None:
    hook("user-prompt-submit", prompt="fix the login bug", session_id="s1")
    monkeypatch.chdir(broken_project.parent)  # status run elsewhere: its own config is fine
    result = cli("status")
    assert result.code == 0
    assert "hook failures" in result.out and "learning.lifelong.sytem2Cost" in result.out
    assert "user-prompt-submit" in result.out
    doc = cli("status", "--json").json()
    assert doc["hook_failures"][0]["count"] == 1
    doctor = cli("doctor")
    assert doctor.code == 1 and "user-prompt-submit hook failed 1 time" in doctor.out
    assert "every file is fine" not in doctor.out


def test_pending_turns_are_shown(hook: Driver, home: Home, cli) -> None:
    hook("user-prompt-submit", prompt="fix the typo in the README title", session_id="s1")
    hook("stop", session_id="s1")
    hook("user-prompt-submit", prompt="now rename the function", session_id="s1")
    doc = cli("status", "--json").json()
    assert doc["pending_turns"] == {"sessions": 1, "open": 1, "waiting": 0, "queued": 1, "held": 0}
    assert "turns pending in 1 session(s): 2" in cli("status").out


@pytest.mark.parametrize("command", ["status", "doctor"])
def test_a_home_that_does_not_exist_is_an_error(cli, tmp_path: Path, command: str) -> None:
    result = cli("--home", str(tmp_path / "typo"), command)
    assert result.code == 2
    assert "does not exist" in result.err and "every file is fine" not in result.out
    assert not (tmp_path / "typo").exists()


def test_the_healthy_path_writes_nothing(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", **{**fixture("user_prompt_submit"), "session_id": "s1"})
    assert not (home.logs_dir / "hook-failures").exists()
