"""``artibot install|uninstall gemini-cli|codex-cli|cursor``: the Claude Code installer's guarantees.

One suite for the three hook files: user and project scope, idempotent, nothing of
the user's touched, uninstall leaves nothing it made (byte for byte), dry run, bad files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from artibot.errors import IntegrationError, InvalidInput
from artibot.integrations import json_hooks as hook_files
from artibot.integrations.claude_code.installer import apply
from artibot.integrations.codex_cli.installer import hook_file as codex_file
from artibot.integrations.cursor.installer import hook_file as cursor_file
from artibot.integrations.gemini_cli.installer import hook_file as gemini_file

PREFIX = "/opt/venv/bin/python3 -c 'from artibot.__main__ import main; main()'"
MAKERS = {"gemini-cli": gemini_file, "codex-cli": codex_file, "cursor": cursor_file}
USERS_OWN = {  # another tool's hook, in each client's format, and a setting of the user's
    "gemini-cli": {"theme": "Dracula", "hooks": {"AfterTool": [
        {"matcher": "write_file", "hooks": [{"type": "command", "command": "lint.sh"}]}]}},
    "codex-cli": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}},
    "cursor": {"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}]}},
}


@pytest.fixture(params=sorted(MAKERS))
def agent(request: pytest.FixtureRequest) -> str:
    return request.param


def _spec(agent: str, tmp_path: Path) -> hook_files.HookFile:
    (tmp_path / "project").mkdir(exist_ok=True)
    return MAKERS[agent](tmp_path / "user", tmp_path / "project")


def _run(spec: hook_files.HookFile, scope: str, *, install: bool, prefix: str = PREFIX):
    plan = hook_files.plan(spec, scope, prefix, install=install, project_dir=spec.project_path.parent.parent)
    apply(plan)
    return plan


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("scope", ["user", "project"])
def test_install_then_uninstall_leaves_nothing(agent: str, scope: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    _run(spec, scope, install=True)
    doc = json.loads(spec.path(scope).read_bytes())
    commands = json.dumps(doc["hooks"])
    assert all(f"hook {agent} {h.event}" in commands for h in spec.hooks)
    if agent == "cursor":
        assert doc["version"] == 1
    assert not _run(spec, scope, install=True).changed  # idempotent
    _run(spec, scope, install=False)
    assert _files(tmp_path) == {}
    assert (tmp_path / "project").is_dir()  # the project stays; only its client folder went


def test_the_users_file_comes_back_byte_for_byte(agent: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    spec.user_path.parent.mkdir(parents=True)
    original = json.dumps(USERS_OWN[agent]) + "\n"  # one line: not the layout artibot writes
    spec.user_path.write_text(original)
    os.chmod(spec.user_path, 0o600)
    _run(spec, "user", install=True)
    doc = json.loads(spec.user_path.read_text())
    for event, entries in USERS_OWN[agent]["hooks"].items():
        assert doc["hooks"][event][0] == entries[0]  # theirs first, untouched
    assert oct(os.stat(spec.user_path).st_mode & 0o777) == "0o600"
    _run(spec, "user", install=False)
    assert spec.user_path.read_text() == original
    assert _files(tmp_path) == {str(spec.user_path.relative_to(tmp_path)): original.encode()}


def test_an_earlier_install_is_replaced_not_doubled(agent: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    _run(spec, "user", install=True, prefix="/old/venv/bin/artibot")
    plan = _run(spec, "user", install=True)
    assert "replacing" in plan.summary()[0]
    text = spec.user_path.read_text()
    assert "/old/venv" not in text and text.count(f"hook {agent} ") == len(spec.hooks)


def test_dry_run_writes_nothing_and_shows_the_diff(agent: str, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    plan = hook_files.plan(spec, "user", PREFIX, install=True)
    assert plan.changed and f"hook {agent}" in plan.diff()
    assert _files(tmp_path) == {}


@pytest.mark.parametrize("content", [b"{not json", b"[]", b'{"hooks": []}', b'{"hooks": {"stop": {}}}'])
def test_a_file_that_cannot_be_edited_safely_is_left_alone(agent: str, content: bytes, tmp_path: Path) -> None:
    spec = _spec(agent, tmp_path)
    spec.user_path.parent.mkdir(parents=True)
    spec.user_path.write_bytes(content)
    with pytest.raises(IntegrationError, match="untouched"):
        hook_files.plan(spec, "user", PREFIX, install=True)
    assert spec.user_path.read_bytes() == content


def test_an_unknown_scope_is_refused(agent: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="scope"):
        hook_files.plan(_spec(agent, tmp_path), "local", PREFIX, install=True)


def test_the_cli_installs_where_the_client_reads(tmp_path: Path) -> None:
    """``artibot install`` through the CLI, with ``HOME`` (and ``CODEX_HOME``) as the clients read them."""
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(tmp_path / "codex"), "ARTIBOT_HOME": str(tmp_path / "a")}
    env.pop("CLAUDE_PROJECT_DIR", None)
    for agent, path in (("gemini-cli", home / ".gemini/settings.json"), ("codex-cli", tmp_path / "codex/hooks.json"),
                        ("cursor", home / ".cursor/hooks.json")):
        out = subprocess.run([sys.executable, "-m", "artibot", "install", agent], env=env, cwd=tmp_path,
                             capture_output=True, text=True)
        assert out.returncode == 0 and path.exists(), out.stdout + out.stderr
        out = subprocess.run([sys.executable, "-m", "artibot", "uninstall", agent], env=env, cwd=tmp_path,
                             capture_output=True, text=True)
        assert out.returncode == 0 and not path.exists(), out.stdout + out.stderr
    assert not (home / ".claude").exists()
    refused = subprocess.run([sys.executable, "-m", "artibot", "install", "cursor", "--gateway"], env=env,
                             cwd=tmp_path, capture_output=True, text=True)
    assert refused.returncode != 0 and "claude-code" in refused.stdout + refused.stderr


def test_gemini_model_per_route_is_opt_in_and_removable(tmp_path: Path) -> None:
    from artibot.integrations.gemini_cli.installer import parse_models

    (tmp_path / "project").mkdir()
    models = parse_models(["system2=gemini-2.5-pro", "system1=gemini-2.5-flash-lite"])
    with_models = gemini_file(tmp_path / "user", tmp_path / "project", models)
    _run(with_models, "user", install=True)
    [group] = json.loads(with_models.user_path.read_text())["hooks"]["BeforeModel"]
    assert group["hooks"][0]["env"] == {"ARTIBOT_SYSTEM1_MODEL": "gemini-2.5-flash-lite",
                                        "ARTIBOT_SYSTEM2_MODEL": "gemini-2.5-pro"}
    _run(gemini_file(tmp_path / "user", tmp_path / "project"), "user", install=True)  # again, without --model
    assert "BeforeModel" not in json.loads(with_models.user_path.read_text())["hooks"]
    _run(with_models, "user", install=False)
    assert _files(tmp_path) == {}
    for bad in (["system3=x"], ["system1="], ["system1=two words"]):
        with pytest.raises(InvalidInput):
            parse_models(bad)


def test_an_event_name_with_underscores_is_recognised_as_ours(tmp_path: Path) -> None:
    """A client whose events are snake_case (Windsurf's ``pre_user_prompt``): a second install
    finds the first one's entries instead of doubling them, and uninstall removes them."""
    (tmp_path / "project").mkdir()
    spec = hook_files.HookFile("snake", "Snake", tmp_path / "user" / "hooks.json", tmp_path / "project" / "hooks.json",
                               (hook_files.Hook("pre_user_prompt"), hook_files.Hook("post_run_command")), grouped=False)
    assert spec.is_ours(spec.command(PREFIX, spec.hooks[0]))
    assert not spec.is_ours("./lint.sh hook snake pre_user_prompt") and not spec.is_ours(f"{PREFIX} hook other pre_x")
    _run(spec, "user", install=True)
    first = spec.user_path.read_bytes()
    assert not _run(spec, "user", install=True).changed and spec.user_path.read_bytes() == first
    _run(spec, "user", install=False)
    assert _files(tmp_path) == {}
