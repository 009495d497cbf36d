"""The hooks record exactly the turns the user typed, as Claude Code 2.1 really sends them.

Payload shapes follow what the real client sent in ``tests/e2e`` (2.1.331): notifications
of background sub-agents arrive as ``UserPromptSubmit`` with ``<task-notification>``;
a notification or a message typed mid-turn carries the open turn's ``prompt_id``;
sub-agents' tool calls carry ``agent_id``; a tool call that the permission system
refuses fires ``PermissionRequest`` and no tool hook.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot.hookpath.turns import handlers
from artibot.hookpath.turns import turn as turns
from artibot.store.home import Home
from tests.integrations.spools import SpoolView
from tests.integrations.test_hooks import SIMPLE, Driver, _deterministic_routes, experiences, final, hook  # noqa: F401

NOTIFICATION = (
    "<task-notification>\n<task-id>ac9027b3968c73a2f</task-id>\n<tool-use-id>toolu_000010</tool-use-id>\n"
    "<output-file>/tmp/claude-0/tasks/ac9027b3968c73a2f.output</output-file>\n<status>completed</status>\n"
    "<summary>Agent \"security audit\" finished</summary>\n</task-notification>"
)


def spool(home: Home, sid: str = "s1") -> dict:
    return SpoolView(home, sid).read()


def prompt(hook: Driver, text: str, pid: str, sid: str = "s1") -> str:
    return hook("user-prompt-submit", prompt=text, prompt_id=pid, session_id=sid)[1]


def tool(hook: Driver, name: str, pid: str, ok: bool = True, **extra: object) -> None:
    hook("post-tool-use" if ok else "post-tool-use-failure", tool_name=name, prompt_id=pid, session_id="s1",
         **extra)


def stop(hook: Driver, pid: str) -> None:
    hook("stop", prompt_id=pid, session_id="s1")


def test_a_notification_between_turns_is_not_recorded_routed_or_answered(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    stop(hook, "p1")
    assert prompt(hook, NOTIFICATION, "p2") == ""  # no routing context for a message nobody typed
    tool(hook, "Read", "p2")
    stop(hook, "p2")
    [exp] = final(hook, home, "s1")
    assert exp["input"] == SIMPLE and exp["outcome"] == "success" and exp["tools"] == 0


def test_a_notification_mid_turn_neither_fails_the_turn_nor_takes_its_tools(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    tool(hook, "Agent", "p1", run_in_background=True)
    assert prompt(hook, NOTIFICATION, "p1") == ""
    tool(hook, "Edit", "p1")
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["input"] == SIMPLE and exp["tools"] == 2 and exp["closed_by"] == "session-end"
    assert exp["outcome"] == "escalated"  # a System 1 turn that delegated to a sub-agent


def test_a_notification_after_an_interrupted_turn_does_not_touch_it(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    tool(hook, "Read", "p1")  # the user pressed Esc: no Stop for p1
    prompt(hook, NOTIFICATION, "p2")
    tool(hook, "Bash", "p2", ok=False)
    stop(hook, "p2")
    assert spool(home)["turn"]["tools"] == 1
    prompt(hook, "now rename the function", "p3")
    first = spool(home)["queue"][0]
    assert first["outcome"] == "interrupted" and first["closed_by"] == "next-prompt" and first["tools"] == 1


def test_a_message_typed_mid_turn_joins_the_open_turn(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    assert prompt(hook, "also fix the one in CONTRIBUTING", "p1") == ""
    tool(hook, "Edit", "p1")
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["input"] == SIMPLE and exp["tools"] == 1 and exp["reached_stop"]


@pytest.fixture
def learn_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's /learn (what `artibot install claude-code` writes), in a Claude Code home of the test's own."""
    user = tmp_path / "claude-user"
    (user / "commands").mkdir(parents=True)
    (user / "commands" / "learn.md").write_text("<!-- artibot:learn -->\n")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(user))


@pytest.mark.parametrize("command", ["/learn", "/learn 2 accept", "/review --json", "/my-plugin:audit src/"])
def test_slash_commands_are_not_routed_or_recorded(hook: Driver, home: Home, command: str,
                                                    learn_installed: None) -> None:
    assert prompt(hook, command, "p1") == ""
    tool(hook, "Bash", "p1")
    stop(hook, "p1")
    assert final(hook, home, "s1") == []


@pytest.mark.parametrize("where", ["commands/fix-bug.md", "skills/fix-bug/SKILL.md"])
def test_a_command_the_user_wrote_is_routed_and_recorded_by_the_text_it_sends(
        hook: Driver, home: Home, learn_installed: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        where: str) -> None:
    project = tmp_path / "project"
    path = project / ".claude" / where
    path.parent.mkdir(parents=True)
    path.write_text("---\ndescription: fix a bug\n---\nFix bug $ARGUMENTS: write to ops@example.com first.\n")
    context = hook("user-prompt-submit", prompt="/fix-bug login", session_id="s1", prompt_id="p1",
                   cwd=str(project))[1]
    assert "artibot router" in context
    tool(hook, "Edit", "p1")
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["input"].startswith("Fix bug login: write to ") and "ops@example.com" not in exp["input"]
    assert exp["tools"] == 1 and exp["outcome"] == "success"


def test_the_learn_marker_agrees_with_the_installer() -> None:
    from artibot.hookpath.turns import prompts
    from artibot.integrations.claude_code import templates

    assert prompts.LEARN_MARKER == templates.LEARN_MARKER


def test_a_path_is_a_prompt_not_a_command(hook: Driver, home: Home) -> None:
    assert "artibot router" in prompt(hook, "/usr/lib/libfoo.so is missing, why?", "p1")


@pytest.mark.parametrize("text", ["/build is failing again, fix it", "/fix-the-tests please"])
def test_a_slash_prompt_that_names_no_command_goes_to_the_model_and_is_routed(hook: Driver, home: Home,
                                                                              text: str) -> None:
    assert "artibot router" in prompt(hook, text, "p1")
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["input"] == text


def test_a_slash_command_does_not_judge_the_previous_turn(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    stop(hook, "p1")
    prompt(hook, "/compact", "p2")
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == "success"


def test_sub_agent_tool_calls_do_not_count_in_the_turn(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    tool(hook, "Edit", "p1")
    tool(hook, "Bash", "p1", ok=False, agent_id="ac9027b3968c73a2f", agent_type="general-purpose")
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["tools"] == 1 and exp["outcome"] == "success"


@pytest.mark.parametrize("name", sorted(turns.PLANNING_TOOLS))
def test_every_planning_tool_escalates_a_system1_turn(hook: Driver, home: Home, name: str) -> None:
    prompt(hook, SIMPLE, "p1")
    tool(hook, name, "p1")
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == "escalated" and name in exp["outcome_reason"]


def test_a_refused_tool_call_fails_the_turn(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    hook("permission-request", tool_name="Write", prompt_id="p1", session_id="s1",
         permission_suggestions=[{"type": "setMode", "mode": "acceptEdits"}])
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == "failed" and exp["outcome_reason"] == "a Write call was refused permission"


def test_a_granted_permission_is_not_a_refusal(hook: Driver, home: Home) -> None:
    prompt(hook, SIMPLE, "p1")
    hook("permission-request", tool_name="Write", prompt_id="p1", session_id="s1")
    tool(hook, "Write", "p1")
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == "success" and exp["tools"] == 1


# ----------------------------------------------------------------------------- the next prompt judges
@pytest.mark.parametrize("follow_up, outcome", [
    ("no, that's wrong — the title is in docs/index.md", "failed"),
    ("that broke the build", "failed"),
    ("revert that", "failed"),
    ("아니, 그게 아니라 다른 파일이야", "failed"),
    ("think harder about it and check the other READMEs too", "escalated"),
    ("단계별로 더 자세히 살펴봐 줘", "escalated"),
    ("thanks! now commit it", "success"),
])
def test_the_next_prompt_judges_the_previous_turn(hook: Driver, home: Home, follow_up: str, outcome: str) -> None:
    prompt(hook, SIMPLE, "p1")
    tool(hook, "Edit", "p1")
    stop(hook, "p1")
    prompt(hook, follow_up, "p2")
    first = spool(home)["queue"][0]
    assert first["outcome"] == outcome and first["closed_by"] == "next-prompt"


def test_deeper_work_after_a_system2_turn_is_no_escalation(hook: Driver, home: Home) -> None:
    from tests.integrations.test_hooks import HARD

    prompt(hook, HARD, "p1")
    stop(hook, "p1")
    prompt(hook, "think harder about the rollback", "p2")
    assert spool(home)["queue"][0]["outcome"] == "success"


def test_a_prompt_after_the_follow_up_window_does_not_judge(hook: Driver, home: Home,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    prompt(hook, SIMPLE, "p1")
    stop(hook, "p1")
    monkeypatch.setattr(turns, "FOLLOWUP_WINDOW_MS", -1)
    prompt(hook, "no, that's wrong", "p2")
    first = spool(home)["queue"][0]
    assert first["outcome"] == "success" and first["closed_by"] == "timeout"


def test_final_turns_reach_the_log_once_enough_wait(hook: Driver, home: Home) -> None:
    for i in range(handlers.FLUSH_AT + 1):
        prompt(hook, f"fix typo number {i} in the README", f"p{i}")
        stop(hook, f"p{i}")
    assert len(experiences(home)) == handlers.FLUSH_AT
    assert spool(home)["queue"] == [] and spool(home)["done"] is not None


# ----------------------------------------------------------------------------- prompt size
def test_a_huge_prompt_is_capped_before_routing_and_anonymizing(hook: Driver, home: Home) -> None:
    token = "ghp_" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"
    cut = handlers.MAX_ROUTED_CHARS - 10
    text = "fix the typo " + "x" * (cut - 13) + " " + token + " and more " * 2_000_000
    assert len(text) > 19_000_000
    out = prompt(hook, text, "p1")
    assert "artibot router" in out
    kept = spool(home)["turn"]["input"]
    assert len(kept) <= handlers.MAX_ROUTED_CHARS and "ghp_" not in kept and "Zx9Qw8" not in kept




def test_the_hooks_find_the_same_data_home_as_the_library(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from artibot.config import resolve_home
    from artibot.hookpath.store import hookio

    monkeypatch.setenv("ARTIBOT_HOME", str(tmp_path / "elsewhere"))
    assert hookio.home_root() == str(resolve_home())
    monkeypatch.delenv("ARTIBOT_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert hookio.home_root() == str(resolve_home())


def _call(hook: Driver, name: str, pid: str, *, ok: bool, duration_ms: int) -> None:
    event = "post-tool-use" if ok else "post-tool-use-failure"
    hook(event, tool_name=name, session_id="s1", prompt_id=pid, duration_ms=duration_ms)


@pytest.mark.parametrize("failing_first", [True, False])
def test_two_parallel_calls_of_which_one_fails_fail_the_turn_in_either_order(hook: Driver, home: Home,
                                                                             failing_first: bool) -> None:
    prompt(hook, SIMPLE, "p1")
    calls = [("Bash", False, 5), ("Read", True, 5_000)]  # both started before the failure ended
    for name, ok, took in (calls if failing_first else calls[::-1]):
        _call(hook, name, "p1", ok=ok, duration_ms=took)
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == "failed" and exp["tool_failures"] == 1


def test_a_retry_that_started_after_the_failure_recovers_the_turn(hook: Driver, home: Home) -> None:
    import time

    prompt(hook, SIMPLE, "p1")
    _call(hook, "Bash", "p1", ok=False, duration_ms=5)
    time.sleep(0.02)
    _call(hook, "Bash", "p1", ok=True, duration_ms=1)
    stop(hook, "p1")
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == "success"
