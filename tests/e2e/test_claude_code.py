"""artibot inside the real Claude Code CLI (npm ``@anthropic-ai/claude-code``, pinned in :mod:`.harness`).

Each test is a temporary machine (``HOME``, data home, project) with artibot installed
by ``artibot install claude-code`` and ``claude -p`` talking to the scripted fake API
on 127.0.0.1. A second, capturing hook beside artibot's records every payload the
client sends, so the tests also check what Claude Code really sends.

Skipped, with the reason, when ``node``/``npm`` are missing or the package cannot be
installed. About a minute once the client is cached under ``.cache/``.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from artibot.integrations.claude_code.templates import HOOKS, hook_command, hook_prefix
from tests.e2e.fake_api import text, tool
from tests.e2e.harness import World
from tests.e2e.learn_model import prepared

pytestmark = pytest.mark.slow

SIMPLE = "fix the typo in the README title"
TOKEN = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"
ROUTED = "UserPromptSubmit hook additional context: artibot router"


def _learn_answers(request: dict) -> list[dict]:
    """What a model does with /learn here: answer every open question with its default."""
    texts = [b.get("text", "") for m in request["messages"] if m["role"] == "user"
             for b in (m["content"] if isinstance(m["content"], list) else [{"text": m["content"]}])]
    doc = None
    for chunk in texts:
        at = chunk.rfind("{", 0, chunk.find('"pending"'))
        if '"pending"' in chunk and at >= 0:
            doc = json.JSONDecoder().raw_decode(chunk[at:])[0]
    assert doc is not None and doc.get("pending"), "the /learn command did not inline a pending round"
    answers = " ".join(f"--answer {q['number']}={q['default']}" for q in doc["questions"])
    return [tool("Bash", command=f"{ARTIBOT} review {answers}", description="send the answers")]


ARTIBOT = shlex.quote(str(Path(sys.executable).with_name("artibot")))
HELD_PAGE = "--question 3 --page 2"


def _round_seen(request: dict) -> list[str]:
    """The texts of the user's side of the conversation (the expanded command, tool results)."""
    out = []
    for m in request["messages"]:
        if m["role"] != "user":
            continue
        for b in m["content"] if isinstance(m["content"], list) else [{"text": m["content"]}]:
            if b.get("type") == "tool_result":
                inner = b.get("content")
                out.extend(c.get("text", "") for c in inner if isinstance(c, dict)) if isinstance(inner, list) \
                    else out.append(str(inner))
            else:
                out.append(b.get("text", ""))
    return out


def _learn_large_first(request: dict) -> list[dict]:
    """/learn on a large round: the model reads the brief, then looks at a page of the held patterns."""
    assert "Output too large" not in json.dumps(request), "the client cut the round's output"
    prepared(_round_seen(request))
    return [tool("Bash", command=f"{ARTIBOT} review --json {HELD_PAGE}", description="the held patterns")]


def _learn_large_answer(request: dict) -> list[dict]:
    """The user's answers: the defaults, but the first promotion held."""
    seen = _round_seen(request)
    doc = prepared(seen)
    page = json.loads(seen[-1])
    assert page["page"] == 2 and all(r["automatic"] == "hold" for r in page["evidence"]["rows"])
    first = doc["questions"][2]["decisions"][0]["key"]
    return [tool("Bash", command=f"{ARTIBOT} review --answer 1=accept --answer 2=apply --answer '3.{first}=hold'",
                 description="send the answers")]

SCENARIOS = {
    "plain": [[text("Fixed the typo.")]],
    "bashfail": [[tool("Bash", command="echo running; exit 3", description="run the tests")], [text("It failed.")]],
    "many": [[tool("Bash", command=f"echo step {i}", description=f"step {i}")] for i in range(10)]
    + [[text("Done in many steps.")]],
    "tasks": [[tool("TaskCreate", subject="Fix the typo", description="README title",
                    activeForm="Fixing the typo")],
              [tool("TaskUpdate", taskId="1", status="completed")], [text("Done.")]],
    "refused": [[tool("Write", file_path="notes.txt", content="x")], [text("I could not write it.")]],
    "background": [[tool("Agent", description="audit", prompt="#sc:subagent check the README",
                         subagent_type="general-purpose", run_in_background=True)], [text("Started an audit.")]],
    "midturn": [[tool("Agent", description="audit", prompt="#sc:subagent check the README",
                      subagent_type="general-purpose", run_in_background=True)],
                [tool("Bash", command="sleep 6; echo main work", description="main work")], [text("All done.")]],
    "subagent": [[tool("Bash", command="sleep 1; echo audited", description="audit")], [text("Audit finished.")]],
    "learnlarge": [_learn_large_first, _learn_large_answer, [text("Round applied.")]],
    "learn": [_learn_answers, [tool("Bash", command=f"{ARTIBOT} status", description="status")],
              [text("Round applied.")]],
}


@pytest.fixture
def world(tmp_path: Path, binary: Path):
    with World(tmp_path, binary, SCENARIOS) as w:
        w.install()
        w.data.mkdir(exist_ok=True)  # each prompt's greedy route: the tests assert it, so no exploration's coin
        (w.data / "artibot.config.json").write_text(
            json.dumps({"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}))
        yield w
        assert w.api.refused == [], f"requests that would have left the machine: {w.api.refused}"
        assert "Error" not in w.hook_log(), w.hook_log()


def one(world: World) -> dict:
    [exp] = world.experiences()
    return exp


def test_plain_turn(world: World) -> None:
    out = world.claude("-p", f"{SIMPLE} #sc:plain")
    assert "Fixed the typo." in out.stdout
    exp = one(world)
    assert (exp["routed_to"], exp["outcome"], exp["reached_stop"], exp["source"]) == ("system1", "success", True,
                                                                                   "claude-code")
    assert exp["input"].startswith(SIMPLE) and exp["closed_by"] == "session-end"
    [start] = world.payloads("SessionStart")
    assert start["source"] == "startup"
    [prompt] = world.payloads("UserPromptSubmit")
    assert prompt["prompt"] == f"{SIMPLE} #sc:plain" and prompt["prompt_id"]
    [request] = [r for _, name, r in world.api.requests if name == "plain"]
    assert json.dumps(request).count(ROUTED) == 1  # Claude was told the route


def test_failing_bash_turn(world: World) -> None:
    world.claude("-p", "run the unit tests #sc:bashfail", "--allowedTools", "Bash")
    exp = one(world)
    assert exp["outcome"] == "failed" and exp["outcome_reason"] == "the last tool call failed"
    assert exp["tools"] == 1 and exp["tool_failures"] == 1
    [failure] = world.payloads("PostToolUseFailure")
    assert failure["error"].startswith("Exit code 3") and failure["is_interrupt"] is False


def test_many_tool_turn_escalates_a_system1_route(world: World) -> None:
    world.claude("-p", f"{SIMPLE} #sc:many", "--allowedTools", "Bash")
    exp = one(world)
    assert exp["routed_to"] == "system1" and exp["tools"] == 10
    assert exp["outcome"] == "escalated" and "10 tool calls" in exp["outcome_reason"]


def test_task_list_turn_escalates(world: World) -> None:
    # In -p mode Claude Code 2.1 offers the task tools only when asked for them by name.
    world.claude("-p", f"{SIMPLE} #sc:tasks", "--tools", "Bash,TaskCreate,TaskUpdate")
    exp = one(world)
    assert [p["tool_name"] for p in world.payloads("PostToolUse")] == ["TaskCreate", "TaskUpdate"]
    assert exp["outcome"] == "escalated" and exp["outcome_reason"] == "System 1 turn used TaskCreate"


def test_refused_tool_fails_the_turn(world: World) -> None:
    world.claude("-p", f"{SIMPLE} #sc:refused")
    exp = one(world)
    assert world.payloads("PostToolUse") == world.payloads("PostToolUseFailure") == []  # no tool hook at all
    [asked] = world.payloads("PermissionRequest")
    assert asked["tool_name"] == "Write"
    assert exp["outcome"] == "failed" and exp["outcome_reason"] == "a Write call was refused permission"


def test_background_agent_notification_between_turns_is_not_a_prompt(world: World) -> None:
    world.claude("-p", f"{SIMPLE} #sc:background", "--allowedTools", "Bash Agent")
    prompts = [p["prompt"] for p in world.payloads("UserPromptSubmit")]
    assert len(prompts) == 2 and prompts[1].startswith("<task-notification>")
    first, second = world.payloads("UserPromptSubmit")
    assert first["prompt_id"] != second["prompt_id"]  # between turns: a turn of its own
    exp = one(world)  # the notification is not recorded
    assert exp["input"].startswith(SIMPLE) and exp["outcome"] == "escalated"
    last = world.api.requests[-1][2]
    assert json.dumps(last).count(ROUTED) == 1  # no routing line for the notification


def test_background_agent_notification_mid_turn(world: World) -> None:
    world.claude("-p", f"{SIMPLE} #sc:midturn", "--allowedTools", "Bash Agent")
    prompts = world.payloads("UserPromptSubmit")
    notes = [p for p in prompts if p["prompt"].startswith("<task-notification>")]
    assert notes, "the sub-agent's notification did not arrive"
    assert notes[0]["prompt_id"] == prompts[0]["prompt_id"]  # mid-turn: it carries the open turn's id
    exp = one(world)
    assert exp["input"].startswith(SIMPLE) and exp["tools"] == 2  # Agent + the main Bash, not the sub-agent's
    assert exp["outcome"] == "escalated" and exp["reached_stop"]
    assert [p["agent_id"] for p in world.payloads("PostToolUse") if "agent_id" in p]  # the sub-agent's own call


def test_continue_and_resume_keep_the_session(world: World) -> None:
    world.claude("-p", f"{SIMPLE} #sc:plain")
    world.claude("-p", "--continue", "now fix the one in CONTRIBUTING #sc:plain")
    session = world.experiences()[0]["session_id"]
    world.claude("-p", "--resume", session, "and in the changelog #sc:plain")
    records = world.experiences()
    assert [r["session_id"] for r in records] == [session] * 3
    assert [p["source"] for p in world.payloads("SessionStart")] == ["startup", "resume", "resume"]


def test_a_follow_up_correction_fails_the_previous_turn(world: World) -> None:
    world.conversation(f"{SIMPLE} #sc:plain", "no, that's wrong — the title is in docs/index.md #sc:plain",
                       "thanks, now commit it #sc:plain")
    first, second, third = world.experiences()
    assert first["outcome"] == "failed" and first["closed_by"] == "next-prompt"
    assert "corrects it" in first["outcome_reason"]
    assert second["outcome"] == "success" and third["closed_by"] == "session-end"


def test_learn_answers_a_pending_round(world: World) -> None:
    (world.data / "artibot.config.json").write_text(json.dumps(
        {"learning": {"lifelong": {"batchSize": 4, "grpoGroupSize": 2}},
         "cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}))
    for i in range(4):
        world.claude("-p", f"fix typo number {i} in the docs #sc:plain")
    assert len(world.experiences()) == 4
    world.claude("-p", "/learn #sc:learn", "--allowedTools", f"Bash({ARTIBOT} review:*) Bash({ARTIBOT} status:*)")
    [expansion] = world.payloads("UserPromptExpansion")
    assert expansion["command_name"] == "learn"
    assert not (world.data / "pending-review.json").exists(), world.hook_log()
    assert (world.data / "learning-log.json").exists()
    assert world.experiences() == []  # the round consumed the batch; /learn itself was not recorded
    learn_prompt = [r for _, name, r in world.api.requests if name == "learn"][0]
    assert ROUTED not in json.dumps(learn_prompt)  # no routing line on a slash command


def test_learn_shows_a_round_of_50_patterns_whole(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round of 50 patterns: ``review --json --prepare`` printed every question whole was ~60 KB,
    past the 30,000 bytes Claude Code keeps inline (it sent the model "Output too large …
    Preview (first 2KB)" instead). The brief reaches the model whole; the model pages to the
    held patterns with the command the brief names, and its answer holds the first promotion."""
    from artibot import learn
    from artibot.collector import collect_many
    from tests.factories import round_of_patterns

    monkeypatch.setenv("ARTIBOT_HOME", str(world.data))
    collect_many(round_of_patterns(moving=5, held=45))
    assert learn(answers="defer", flush=True).status == "deferred"
    world.claude("-p", "/learn #sc:learnlarge", "--allowedTools", f"Bash({ARTIBOT} review:*)")
    asked = [r for _, name, r in world.api.requests if name == "learnlarge"]
    assert len(asked) >= 3, "the model was not asked for every step"
    doc = prepared(_round_seen(asked[0]))
    assert [q["number"] for q in doc["questions"]] == [1, 2, 3]
    transfers = doc["questions"][2]
    assert transfers["counts"] == {"promote": 5, "demote": 0, "hold": 45}
    assert [d["key"] for d in transfers["decisions"]] == [f"backend:fix:often{i:02d}" for i in range(5)]
    assert not (world.data / "pending-review.json").exists(), world.hook_log()
    last = json.loads((world.data / "learning-log.json").read_text())["rounds"][-1]
    assert last["transfers"]["backend:fix:often00"] == "hold"  # the user's answer
    assert last["transfers"]["backend:fix:often01"] == "promote"  # the automatic decision


def test_a_secret_in_a_prompt_stays_out_of_every_file(world: World) -> None:
    world.claude("-p", f"deploy with token {TOKEN} and mail dana.lee@example.com #sc:plain")
    exp = one(world)
    assert "<API_KEY>" in exp["input"] and "<EMAIL>" in exp["input"]
    for path in world.data.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert TOKEN.encode() not in data and b"dana.lee" not in data, path


def _hook_commands(settings_file: Path) -> set[str]:
    settings = json.loads(settings_file.read_text())
    return {h["command"] for groups in settings.get("hooks", {}).values() for g in groups for h in g["hooks"]}


def test_user_and_project_scope_and_uninstall(world: World) -> None:
    world.install("project", capture=False)
    # The exact commands, not a word: the interpreter's path may itself contain "artibot"
    # (a checkout cloned into a folder of that name).
    # the data home (not the default) is written into each command: Claude Code runs them as they are
    ours = {hook_command(hook_prefix(sys.executable, guard=True, home=str(world.data)), spec.cli_event)
            for spec in HOOKS}
    assert _hook_commands(world.project / ".claude" / "settings.json") == ours
    assert _hook_commands(world.home / ".claude" / "settings.json") == ours | {world.capture_command}
    world.claude("-p", f"{SIMPLE} #sc:plain")
    assert len(world.experiences()) == 1  # the same command in two scopes runs once
    world.artibot("uninstall", "claude-code", "--scope", "user")
    world.claude("-p", f"{SIMPLE} #sc:plain")
    assert len(world.experiences()) == 2  # the project scope alone still records
    world.artibot("uninstall", "claude-code", "--scope", "project")
    assert not (world.project / ".claude").exists()
    world.claude("-p", f"{SIMPLE} #sc:plain")
    assert len(world.experiences()) == 2  # nothing left to record
    user = world.home / ".claude"
    settings = json.loads((user / "settings.json").read_text())
    assert settings == world.capture_settings()  # only the capturing hook is left
    assert not (user / "commands").exists()
    assert not list(user.glob("*.artibot-backup"))
