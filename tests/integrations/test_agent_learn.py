"""The ``/learn`` equivalents of Gemini CLI (a custom command) and Codex CLI (a skill).

Installed and removed with the hooks, in both scopes, by the rules of Claude Code's
``learn.md``; and recognised by the prompt hook, so that invoking one closes the last
turn but is neither routed nor recorded.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest

from artibot.errors import IntegrationError
from artibot.integrations import json_hooks as hook_files
from artibot.integrations.claude_code.installer import apply
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests.integrations.test_adapters import SID, SIMPLE, Hook, _greedy_routes  # noqa: F401 (autouse: greedy routes)
from tests.integrations.spools import SpoolView
from tests.integrations.test_agent_installers import PREFIX, _files, _spec

COMMAND = "'/opt/my tools/bin/artibot'"
WHERE = {  # the learn file's place under the user folder / the project, as each client reads it
    "gemini-cli": ("commands/learn.toml", ".gemini/commands/learn.toml"),
    "codex-cli": ("skills/learn/SKILL.md", ".codex/skills/learn/SKILL.md"),
}


@pytest.fixture(params=sorted(WHERE))
def agent(request: pytest.FixtureRequest) -> str:
    return request.param


def _run(spec: hook_files.HookFile, scope: str, *, install: bool, command: str = COMMAND):
    plan = hook_files.plan(spec, scope, PREFIX, install=install, command=command, project_dir=tmp_project(spec))
    apply(plan)
    return plan


def tmp_project(spec: hook_files.HookFile) -> Path:
    return spec.project_path.parent.parent


@pytest.mark.parametrize("scope", ["user", "project"])
def test_the_learn_file_goes_where_the_client_reads_it_and_leaves_with_the_hooks(
        agent: str, scope: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    _run(spec, scope, install=True)
    learn = (tmp_path / "user" / WHERE[agent][0]) if scope == "user" else (tmp_path / "project" / WHERE[agent][1])
    text = learn.read_text()
    assert "<!-- artibot:learn -->" in text
    # every artibot command in it is the one this install runs, the marker line included
    assert f"{COMMAND} review --json --prepare" in text and not re.search(r"(?<![\w/'])artibot review", text)
    assert not _run(spec, scope, install=True).changed  # idempotent
    _run(spec, scope, install=False)
    assert _files(tmp_path) == {}
    assert not list(tmp_path.rglob("commands")) and not list(tmp_path.rglob("skills"))


def test_gemini_learn_is_a_valid_custom_command(tmp_path: Path) -> None:
    spec = _spec("gemini-cli", tmp_path)
    _run(spec, "user", install=True)
    doc = tomllib.loads((tmp_path / "user/commands/learn.toml").read_text())
    assert set(doc) == {"description", "prompt"}
    prompt = doc["prompt"]
    assert prompt.startswith("<!-- artibot:learn -->\n")  # the line the BeforeAgent hook looks for
    assert "{{args}}" in prompt and f"!{{{COMMAND} review --json --prepare}}" in prompt


def test_codex_learn_is_a_skill_named_learn(tmp_path: Path) -> None:
    spec = _spec("codex-cli", tmp_path)
    _run(spec, "user", install=True)
    text = (tmp_path / "user/skills/learn/SKILL.md").read_text()
    front = text.split("---\n")[1]
    assert "name: learn\n" in front and "description: " in front


def test_a_learn_file_of_the_users_own_is_never_touched(agent: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    theirs = tmp_path / "user" / WHERE[agent][0]
    theirs.parent.mkdir(parents=True)
    theirs.write_text("my own learn command\n")
    with pytest.raises(IntegrationError, match="not artibot's"):
        hook_files.plan(spec, "user", PREFIX, install=True, command=COMMAND)
    assert not spec.user_path.exists()  # refused before anything was written
    plan = _run(spec, "user", install=False)
    assert theirs.read_text() == "my own learn command\n" and "left alone" in " ".join(plan.summary())


def test_an_edited_learn_file_is_backed_up_when_it_goes(agent: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    _run(spec, "user", install=True)
    learn = tmp_path / "user" / WHERE[agent][0]
    learn.write_text(learn.read_text() + "\nmy note\n")
    _run(spec, "user", install=False)
    assert not learn.exists()
    assert learn.with_name(learn.name + ".artibot-backup").read_text().endswith("my note\n")


def test_a_new_command_prefix_replaces_an_untouched_learn_file_without_a_backup(agent: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    _run(spec, "user", install=True, command="/old/bin/artibot")
    plan = _run(spec, "user", install=True)
    learn = tmp_path / "user" / WHERE[agent][0]
    assert "/old/bin" not in learn.read_text() and COMMAND in learn.read_text()
    assert [c.backup for c in plan.changes if c.path == learn] == [None]


def _rendered(agent: str, tmp_path: Path) -> str:
    spec = _spec(agent, tmp_path)
    _run(spec, "user", install=True)
    text = (tmp_path / "user" / WHERE[agent][0]).read_text()
    return tomllib.loads(text)["prompt"] if agent == "gemini-cli" else text


def test_invoking_learn_closes_the_last_turn_and_is_neither_routed_nor_recorded(
        agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        home: Home) -> None:
    hook = Hook(agent, monkeypatch, capsys)
    if agent == "gemini-cli":  # what BeforeAgent receives: the command's prompt, expanded
        typed = _rendered(agent, tmp_path).replace("{{args}}", "2=revert").replace(
            f"!{{{COMMAND} review --json --prepare}}", '{"pending": true, "questions": []}')
    else:  # what UserPromptSubmit receives: what was typed; the skill must exist
        monkeypatch.setenv("CODEX_HOME", str(tmp_path / "user"))
        _rendered(agent, tmp_path)
        typed = "$learn 2=revert"
    hook(hook.client.start())
    hook.turn(SIMPLE, 1)
    assert hook(hook.client.prompt(typed, 2)) is None  # no routing line
    assert (SpoolView(home, SID).read() or {}).get("turn") is None
    hook(hook.client.stop(2))
    hook(hook.client.end())
    [record] = ExperienceLog(home).read()
    assert (record["input"], record["outcome"], record["closed_by"]) == (SIMPLE, "success", "next-prompt")


def test_learn_only_counts_as_the_command_where_it_is_artibots(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str], home: Home,
                                                               tmp_path: Path) -> None:
    """``$learn`` without the skill, or the marker inside a prompt, is a prompt like any other."""
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "no-codex"))
    codex = Hook("codex-cli", monkeypatch, capsys)
    assert codex(codex.client.prompt("$learn the new API", 1)) is not None  # routed
    gemini = Hook("gemini-cli", monkeypatch, capsys)
    event, payload = gemini.client.prompt("x", 1)
    out = gemini((event, {**payload, "session_id": "other", "prompt": "explain <!-- artibot:learn --> in learn.toml"}))
    assert out is not None and "artibot router" in os.linesep.join(str(v) for v in out["hookSpecificOutput"].values())


@pytest.mark.parametrize("agent, tool", [("gemini-cli", "write_todos"), ("gemini-cli", "invoke_agent"),
                                         ("gemini-cli", "enter_plan_mode"), ("codex-cli", "update_plan"),
                                         ("codex-cli", "spawn_agent")])
def test_a_system1_turn_that_plans_or_delegates_with_the_clients_own_tool_escalates(
        agent: str, tool: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        home: Home) -> None:
    hook = Hook(agent, monkeypatch, capsys)
    hook(hook.client.start())
    hook(hook.client.prompt(SIMPLE, 1))
    assert SpoolView(home, SID).read()["turn"]["decision"]["system"] == "system1"
    event, payload = hook.client.tool(True, 1)
    hook((event, {**payload, "tool_name": tool, "tool_input": {}}))
    hook(hook.client.stop(1))
    hook(hook.client.end())
    [record] = ExperienceLog(home).read()
    assert record["outcome"] == "escalated", record
