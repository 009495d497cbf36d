"""The outcome rules in the real Claude Code client: what the route is blamed for, and what not.

* a prompt that starts with ``/`` but names no command goes to the model: it is routed
  and recorded like any prompt; a command the user wrote sends the model its text, which
  is routed and recorded in its place;
* an API error and Ctrl-C (SIGINT) cut a turn off before its ``Stop``: ``interrupted``,
  kept and left out of learning, never ``failed``;
* two tool calls of one batch of which one fails: the turn failed, whichever finishes
  last, whether Claude Code runs them together (read-only tools) or one after the other
  (the transcript tells the batch);
* a call to a tool the model was not offered fires no hook: the transcript shows it, and
  the turn failed (unless a later batch recovered);
* a correction typed after ``claude --continue``/``--resume`` fails the last turn of the
  session it resumes: that turn waited in the spool past the first session's end, and is
  stored once.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.fake_api import text, tool
from tests.e2e.harness import World

pytestmark = pytest.mark.slow

SIMPLE = "fix the typo in the README title"
SCENARIOS = {
    "plain": [[text("Fixed the typo.")]],
    "apierror": [{"http_error": 400}],
    "slow": [[tool("Bash", command="python3 -c \"import time; time.sleep(30)\"", description="a long build")],
             [text("Built.")]],
    # read-only calls run concurrently: both start together, and finish in either order
    "parallel": [[tool("Read", file_path="/nonexistent/CONTRIBUTING.md"), tool("Grep", pattern="Demo", path=".")],
                 [text("One failed.")]],
    # one batch that Claude Code runs one call after the other: the failure, then a success
    # a tool the model was not offered, or one --disallowedTools removed: no hook fires for it
    "unoffered": [[tool("Frobnicate", target="README.md")], [text("Done.")]],
    "recovered": [[tool("Frobnicate", target="README.md")], [tool("Read", file_path="README.md")], [text("Done.")]],
    "batch": [[tool("Bash", command="echo broken; exit 3", description="lint"),
               tool("Bash", command="echo fine", description="tests")], [text("One failed.")]],
}


@pytest.fixture
def world(tmp_path: Path, binary: Path):
    with World(tmp_path, binary, SCENARIOS) as w:
        w.install()
        w.data.mkdir(exist_ok=True)
        (w.data / "artibot.config.json").write_text(
            json.dumps({"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}))
        yield w
        assert w.api.refused == [], f"requests that would have left the machine: {w.api.refused}"


def test_a_slash_prompt_that_names_no_command_is_routed_and_recorded(world: World) -> None:
    prompt = "/build is failing again, fix it #sc:plain"
    world.claude("-p", prompt)
    [exp] = world.experiences()
    assert exp["input"] == prompt and exp["outcome"] == "success"
    [request] = [r for _, name, r in world.api.requests if name == "plain"]
    assert "artibot router" in json.dumps(request)  # Claude was told the route


def test_a_command_the_user_wrote_is_routed_and_recorded_by_the_text_it_sends(world: World) -> None:
    commands = world.project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "fix-bug.md").write_text("Fix bug $ARGUMENTS: find the bug and patch it. #sc:plain\n")
    world.claude("-p", "/fix-bug login")
    assert [p["command_name"] for p in world.payloads("UserPromptExpansion")] == ["fix-bug"]
    [request] = [r for _, name, r in world.api.requests if name == "plain"]  # the model got the command's text
    assert "artibot router" in json.dumps(request)
    [exp] = world.experiences()
    assert exp["input"] == "Fix bug login: find the bug and patch it. #sc:plain" and exp["outcome"] == "success"


def test_an_api_error_is_interrupted_not_failed(world: World) -> None:
    proc = subprocess.run([str(world.binary), "-p", f"{SIMPLE} #sc:apierror"],
                          env={**world.env, "CLAUDE_CODE_MAX_RETRIES": "0"}, cwd=world.project,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 or "error" in (proc.stdout + proc.stderr).lower()
    [exp] = world.experiences()
    assert exp["outcome"] == "interrupted" and exp["reached_stop"] is False
    assert world.payloads("Stop") == []  # the client fires no Stop after an API error


def test_ctrl_c_mid_turn_is_interrupted_not_failed(world: World) -> None:
    proc = subprocess.Popen([str(world.binary), "-p", f"{SIMPLE} #sc:slow", "--allowedTools", "Bash"],
                            env=world.env, cwd=world.project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not world.payloads("PreToolUse") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert world.payloads("PreToolUse"), "the tool never started"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    deadline = time.monotonic() + 10
    while not world.experiences() and time.monotonic() < deadline:  # SessionEnd runs as the client exits
        time.sleep(0.2)
    records = world.experiences()
    if not records:  # no SessionEnd after SIGINT: the next session settles the turn (after a day idle)
        pytest.fail(f"SIGINT left no record; hook log: {world.hook_log()}")
    [exp] = records
    assert exp["outcome"] == "interrupted", exp


@pytest.mark.parametrize("scenario, tools", [("parallel", "Read,Grep"), ("batch", "Bash")])
def test_two_calls_of_one_batch_of_which_one_fails_fail_the_turn(world: World, scenario: str, tools: str) -> None:
    world.claude("-p", f"{SIMPLE} #sc:{scenario}", "--allowedTools", tools)
    finished = [p["hook_event_name"] for p in world.payloads() if p["hook_event_name"] in
                ("PostToolUse", "PostToolUseFailure")]
    assert sorted(finished) == ["PostToolUse", "PostToolUseFailure"]
    [exp] = world.experiences()
    assert exp["outcome"] == "failed" and exp["tools"] == 2 and exp["tool_failures"] == 1


@pytest.mark.parametrize("how", ["--continue", "--resume"])
def test_a_correction_after_a_resume_fails_the_last_turn_once(world: World, how: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARTIBOT_RESUME_WINDOW_MIN", "")  # the shipped hold (the suite's default is 0)
    world.claude("-p", f"{SIMPLE} #sc:plain")
    [started] = world.payloads("SessionStart")
    assert world.payloads("SessionEnd") and world.experiences() == []  # ended, and the last turn waits
    resume = ["--continue"] if how == "--continue" else ["--resume", started["session_id"]]
    world.claude("-p", *resume, "no, that's wrong — the title is in docs/index.md #sc:plain")
    assert [p["source"] for p in world.payloads("SessionStart")] == ["startup", "resume"]
    [first] = world.experiences()  # the resumed session's own turn waits in its turn
    assert first["session_id"] == started["session_id"] and first["input"].startswith(SIMPLE)
    assert (first["outcome"], first["closed_by"]) == ("failed", "resumed-prompt"), first
    assert "corrects it" in first["outcome_reason"]
    world.artibot("collect", "--input", "rename a variable", "--domain", "general", "--complexity", "0.1",
                  "--routed-to", "system1", "--outcome", "success", "--latency-ms", "5", "--confidence", "0.9",
                  "--quiet")  # within the hold: collect writes nothing of the session's
    assert [r["id"] for r in world.experiences()].count(first["id"]) == 1
    assert len([r for r in world.experiences() if r["session_id"] == started["session_id"]]) == 1


@pytest.mark.parametrize("scenario, extra, outcome", [
    ("unoffered", (), "failed"), ("recovered", (), "success"),
    ("plain", (), "success"),  # no call at all: the transcript's look finds nothing
])
def test_a_call_to_a_tool_the_model_was_not_offered_fails_the_turn(world: World, scenario: str, extra: tuple,
                                                                   outcome: str) -> None:
    world.claude("-p", f"{SIMPLE} #sc:{scenario}", "--allowedTools", "Read", *extra)
    tool_events = [p["hook_event_name"] for p in world.payloads() if "ToolUse" in p["hook_event_name"]]
    assert not any(p.get("tool_name") == "Frobnicate" for p in world.payloads())  # the client fires no hook for it
    [exp] = world.experiences()
    assert exp["outcome"] == outcome, exp
    if scenario == "unoffered":
        assert tool_events == [] and "Frobnicate" in exp["outcome_reason"] and exp["tool_failures"] == 1


def test_a_call_to_a_disallowed_tool_fails_the_turn(world: World) -> None:
    world.claude("-p", f"{SIMPLE} #sc:batch", "--disallowedTools", "Bash")
    assert world.payloads("PostToolUse") == world.payloads("PostToolUseFailure") == []
    [exp] = world.experiences()
    assert exp["outcome"] == "failed" and "Bash" in exp["outcome_reason"], exp
