"""The Claude Code installer: merge, idempotence, exact uninstall, refusals, the plugin layout."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from artibot.config import shipped_config_dir
from artibot.errors import IntegrationError, InvalidInput
from artibot.integrations.claude_code import installer
from artibot.integrations.claude_code.installer import (
    apply, commands_dir_for, plan_install, plan_uninstall, settings_path_for,
)
from artibot.integrations.claude_code.templates import (
    HOOKS, LEARN_MARKER, hooks_mapping, is_artibot_hook, render_learn,
)

OUR_EVENTS = [spec.event for spec in HOOKS]

# Settings files as other tools and people leave them.
FORMATTER = {
    "permissions": {"allow": ["Bash(npm run lint)", "Read(~/.zshrc)"], "deny": ["Bash(curl:*)"]},
    "model": "opus",
    "hooks": {
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [
                {"type": "command", "command": "npx prettier --write \"$CLAUDE_PROJECT_DIR\"", "timeout": 30},
            ]},
        ],
        "Notification": [
            {"hooks": [{"type": "command", "command": "notify-send 'Claude Code' 'needs your input'"}]},
        ],
    },
    "env": {"DISABLE_TELEMETRY": "1"},
}
NO_HOOKS = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
    "language": "한국어",
    "cleanupPeriodDays": 30,
    "includeCoAuthoredBy": False,
}
MANY_TOOLS = {
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "cat ~/notes/today.md"}]},
        ],
        "PreToolUse": [],
        "Stop": [
            {"hooks": [
                {"type": "command", "command": "afplay /System/Library/Sounds/Glass.aiff"},
                {"type": "command", "command": "~/bin/log-turn --quiet", "timeout": 2},
            ]},
        ],
        "PostToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit-bash"}]},
        ],
    },
    "alwaysThinkingEnabled": True,
}
EMPTY: dict = {}
FIXTURES = {"formatter": FORMATTER, "no-hooks": NO_HOOKS, "many-tools": MANY_TOOLS, "empty": EMPTY}


def dump(data: dict, indent: int | str = 2, newline: bool = True) -> bytes:
    return (json.dumps(data, indent=indent, ensure_ascii=False) + ("\n" if newline else "")).encode()


@pytest.fixture
def dirs(tmp_path: Path) -> dict[str, Path]:
    user = tmp_path / "home" / ".claude"
    project = tmp_path / "project"
    user.mkdir(parents=True)
    project.mkdir()
    return {"user_dir": user, "project_dir": project}


def install(dirs, scope="user", command="artibot"):
    plan = plan_install(scope, command=command, **dirs)
    apply(plan)
    return plan


def uninstall(dirs, scope="user", command="artibot"):
    plan = plan_uninstall(scope, command=command, **dirs)
    apply(plan)
    return plan


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def handlers(data: dict, event: str) -> list[dict]:
    return [h for g in data.get("hooks", {}).get(event, []) for h in g.get("hooks", [])]


# ---------------------------------------------------------------------------
# Merge


@pytest.mark.parametrize("name", FIXTURES)
def test_install_keeps_other_keys_and_hooks_and_appends_ours(dirs, name):
    original = FIXTURES[name]
    path = dirs["user_dir"] / "settings.json"
    path.write_bytes(dump(original))
    install(dirs)
    after = json.loads(path.read_bytes())
    expected_keys = list(original) + ([] if "hooks" in original else ["hooks"])
    assert list(after) == expected_keys
    for key, value in original.items():
        if key != "hooks":
            assert after[key] == value
    old_hooks = original.get("hooks", {})
    assert list(after["hooks"])[: len(old_hooks)] == list(old_hooks)
    for event, groups in old_hooks.items():
        assert after["hooks"][event][: len(groups)] == groups  # theirs first, untouched
    for event, groups in hooks_mapping("artibot").items():
        assert after["hooks"][event][-1] == groups[0]  # ours last
        assert [h["command"] for h in handlers(after, event)].count(groups[0]["hooks"][0]["command"]) == 1


def test_registered_hooks_match_the_contract(dirs):
    install(dirs)
    data = json.loads((dirs["user_dir"] / "settings.json").read_bytes())
    assert list(data["hooks"]) == OUR_EVENTS
    assert "PreToolUse" not in data["hooks"]
    table = {e: (g[0].get("matcher"), g[0]["hooks"][0]) for e, g in data["hooks"].items()}
    assert table["PostToolUse"][0] == "*" and table["PostToolUseFailure"][0] == "*"
    assert table["PermissionRequest"][0] == "*"
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"):
        assert table[event][0] is None
    assert {e: h["timeout"] for e, (_, h) in table.items()} == {
        "SessionStart": 10, "UserPromptSubmit": 5, "PostToolUse": 5,
        "PostToolUseFailure": 5, "PermissionRequest": 5, "Stop": 10, "SessionEnd": 5,
    }
    assert table["PostToolUseFailure"][1]["command"] == "artibot hook post-tool-use-failure"
    assert all(h["type"] == "command" for _, h in table.values())


def test_summary_counts(dirs):
    (dirs["user_dir"] / "settings.json").write_bytes(dump(MANY_TOOLS))
    plan = plan_install(**dirs)
    lines = plan.summary()
    assert lines[0].startswith(f"update {dirs['user_dir'] / 'settings.json'}: add 7 artibot hooks (4 other hooks kept)")
    assert "backup: settings.json.artibot-backup" in lines[0]
    assert lines[1].startswith(f"create {dirs['user_dir'] / 'commands' / 'learn.md'}")
    assert plan.changed


# ---------------------------------------------------------------------------
# Idempotence, backups, exact uninstall


@pytest.mark.parametrize("name", FIXTURES)
def test_second_install_is_a_no_op(dirs, name):
    path = dirs["user_dir"] / "settings.json"
    original = dump(FIXTURES[name])
    path.write_bytes(original)
    install(dirs)
    backup = path.with_name("settings.json.artibot-backup")
    assert backup.read_bytes() == original
    backup.unlink()
    state = snapshot(dirs["user_dir"])
    mtimes = {p: p.stat().st_mtime_ns for p in dirs["user_dir"].rglob("*")}
    plan = install(dirs)
    assert [c.action for c in plan.changes] == ["unchanged", "unchanged"]
    assert not plan.changed and plan.diff() == ""
    assert snapshot(dirs["user_dir"]) == state
    assert not backup.exists()
    assert {p: p.stat().st_mtime_ns for p in dirs["user_dir"].rglob("*")} == mtimes


@pytest.mark.parametrize("name", FIXTURES)
@pytest.mark.parametrize("scope", ["user", "project", "local"])
def test_uninstall_restores_the_original_bytes(dirs, name, scope):
    path = settings_path_for(scope, **dirs)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = dump(FIXTURES[name])
    path.write_bytes(original)
    install(dirs, scope)
    assert path.read_bytes() != original
    plan = uninstall(dirs, scope)
    assert path.read_bytes() == original
    assert not (commands_dir_for(scope, **dirs) / "learn.md").exists()
    assert plan.summary()[0].startswith(f"update {path}: remove 7 artibot hooks")
    assert [c.action for c in plan_uninstall(scope, **dirs).changes] == ["unchanged", "unchanged"]


@pytest.mark.parametrize("indent,newline", [(4, True), ("\t", True), (2, False)])
def test_other_formatting_is_kept(dirs, indent, newline):
    path = dirs["user_dir"] / "settings.json"
    original = dump(FORMATTER, indent, newline)
    path.write_bytes(original)
    install(dirs)
    text = path.read_bytes()
    assert text == dump(json.loads(text), indent, newline)
    uninstall(dirs)
    assert path.read_bytes() == original


def test_uninstall_without_install_changes_nothing(dirs):
    path = dirs["user_dir"] / "settings.json"
    odd = b'{"model":"opus",   "hooks": {}}'  # not our format: must not even be reformatted
    path.write_bytes(odd)
    plan = uninstall(dirs)
    assert [c.action for c in plan.changes] == ["unchanged", "unchanged"]
    assert path.read_bytes() == odd
    assert sorted(p.name for p in dirs["user_dir"].iterdir()) == ["settings.json"]


def test_missing_files_install_and_uninstall(dirs):
    path = dirs["user_dir"] / "settings.json"
    plan = install(dirs)
    assert [c.action for c in plan.changes] == ["create", "create"]
    assert all(c.backup is None for c in plan.changes)
    assert json.loads(path.read_bytes()) == {"hooks": hooks_mapping("artibot")}
    assert path.read_bytes().endswith(b"}\n")
    uninstall(dirs)
    assert sorted(dirs["user_dir"].iterdir()) == []  # no settings.json, no backup, no commands/


@pytest.mark.parametrize("scope", ["user", "project", "local"])
def test_uninstall_leaves_nothing_install_made(dirs, scope):
    before = snapshot(dirs["user_dir"].parent), snapshot(dirs["project_dir"])
    dirs_before = sorted(dirs["user_dir"].parent.rglob("*")) + sorted(dirs["project_dir"].rglob("*"))
    install(dirs, scope)
    install(dirs, scope, command="/opt/venv/bin/artibot")  # a re-install over its own file
    uninstall(dirs, scope, command="/opt/venv/bin/artibot")
    assert (snapshot(dirs["user_dir"].parent), snapshot(dirs["project_dir"])) == before
    assert sorted(dirs["user_dir"].parent.rglob("*")) + sorted(dirs["project_dir"].rglob("*")) == dirs_before


def test_uninstall_keeps_a_users_empty_settings_file_and_drops_the_backup(dirs):
    path = dirs["user_dir"] / "settings.json"
    (dirs["user_dir"] / "commands").mkdir()
    (dirs["user_dir"] / "commands" / "deploy.md").write_text("deploy it")
    path.write_bytes(b"{}\n")
    install(dirs)
    plan = uninstall(dirs)
    assert path.read_bytes() == b"{}\n"
    assert "remove settings.json.artibot-backup" in plan.summary()[0]
    assert sorted(p.name for p in dirs["user_dir"].rglob("*")) == ["commands", "deploy.md", "settings.json"]


def test_stale_entries_from_an_older_version_are_removed(dirs):
    data = json.loads(dump(FORMATTER))
    data["hooks"]["PreToolUse"] = [{"matcher": "*", "hooks": [
        {"type": "command", "command": "artibot hook pre-tool-use", "timeout": 5}]}]
    path = dirs["user_dir"] / "settings.json"
    path.write_bytes(dump(data))
    install(dirs)
    assert "PreToolUse" not in json.loads(path.read_bytes())["hooks"]


# ---------------------------------------------------------------------------
# Another command prefix


def test_old_command_prefix_is_replaced_not_duplicated(dirs):
    path = dirs["user_dir"] / "settings.json"
    original = dump(MANY_TOOLS)
    path.write_bytes(original)
    install(dirs, command="/home/me/.venvs/old/bin/artibot")
    plan = install(dirs, command="/opt/artibot/bin/artibot")
    assert "replacing 7 from an earlier install" in plan.summary()[0]
    data = json.loads(path.read_bytes())
    for spec in HOOKS:
        ours = [h["command"] for h in handlers(data, spec.event) if is_artibot_hook(h["command"], "x")]
        assert ours == [f"/opt/artibot/bin/artibot hook {spec.cli_event}"]
    assert data["hooks"]["Stop"][0] == MANY_TOOLS["hooks"]["Stop"][0]
    learn = (dirs["user_dir"] / "commands" / "learn.md").read_text()
    assert "/opt/artibot/bin/artibot review --json --prepare" in learn
    assert not (dirs["user_dir"] / "commands" / "learn.md.artibot-backup").exists()  # ours, unedited
    uninstall(dirs, command="artibot")  # any prefix finds our entries
    assert path.read_bytes() == original


def test_recognised_commands():
    assert is_artibot_hook("python3 -m artibot hook stop", "artibot")
    assert is_artibot_hook("'/a b/venv/bin/artibot' hook session-end", "artibot")
    assert is_artibot_hook("/x/bin/tool hook stop", "/x/bin/tool")  # exact prefix, no 'artibot'
    assert not is_artibot_hook("~/bin/log-turn hook stop", "artibot")
    assert not is_artibot_hook("artibot hook stop --verbose", "artibot")
    assert not is_artibot_hook("artibot learn", "artibot")
    assert not is_artibot_hook(None, "artibot")


# ---------------------------------------------------------------------------
# Refusals


@pytest.mark.parametrize("content,needle", [
    (dump(FORMATTER)[:-40], "not valid JSON"),
    (b'{"hooks": [{"matcher": "*"}]}\n', '"hooks" must be an object'),
    (b'{"hooks": {"Stop": {"hooks": []}}}\n', '"hooks.Stop" must be a list'),
    (b'["not", "an", "object"]\n', "top level must be a JSON object"),
    (b'\xff\xfe{"a": 1}', "not UTF-8"),
])
def test_a_file_that_cannot_be_edited_is_left_untouched(dirs, content, needle):
    path = dirs["user_dir"] / "settings.json"
    path.write_bytes(content)
    before = snapshot(dirs["user_dir"])
    for plan in (plan_install, plan_uninstall):
        with pytest.raises(IntegrationError) as err:
            plan(**dirs)
        assert str(path) in str(err.value) and needle in str(err.value)
        assert "left untouched" in str(err.value)
    assert snapshot(dirs["user_dir"]) == before


def test_foreign_learn_command_is_refused_and_kept(dirs):
    learn = dirs["user_dir"] / "commands" / "learn.md"
    learn.parent.mkdir()
    learn.write_text("---\ndescription: my own learning notes\n---\nSummarise what I learned today.\n")
    before = snapshot(dirs["user_dir"])
    with pytest.raises(IntegrationError, match="not artibot's /learn command") as err:
        plan_install(**dirs)
    assert str(learn) in str(err.value)
    assert snapshot(dirs["user_dir"]) == before
    plan = plan_uninstall(**dirs)
    assert plan.changes[1].action == "unchanged" and "left alone" in plan.changes[1].note


def test_edited_learn_command_is_backed_up_on_removal(dirs):
    install(dirs)
    learn = dirs["user_dir"] / "commands" / "learn.md"
    edited = learn.read_bytes() + b"\nAlways answer in French.\n"
    learn.write_bytes(edited)
    plan = uninstall(dirs)
    assert plan.changes[1].action == "remove"
    assert not learn.exists()
    assert learn.with_name("learn.md.artibot-backup").read_bytes() == edited


def test_unknown_scope_and_bad_prefix_are_invalid_input(dirs):
    with pytest.raises(InvalidInput, match="unknown scope 'global'"):
        plan_install("global", **dirs)
    with pytest.raises(InvalidInput):
        plan_install(command="artibot\nrm -rf ~", **dirs)
    with pytest.raises(InvalidInput):
        plan_install(command="  ", **dirs)


def test_missing_project_dir_is_refused(tmp_path):
    with pytest.raises(IntegrationError, match="does not exist"):
        plan_install("project", user_dir=tmp_path, project_dir=tmp_path / "nope")


def test_file_changed_after_planning_is_not_overwritten(dirs):
    path = dirs["user_dir"] / "settings.json"
    path.write_bytes(dump(FORMATTER))
    plan = plan_install(**dirs)
    path.write_bytes(dump(NO_HOOKS))  # e.g. Claude Code saved a permission meanwhile
    with pytest.raises(IntegrationError, match="changed since the plan"):
        apply(plan)
    assert path.read_bytes() == dump(NO_HOOKS)
    assert sorted(p.name for p in dirs["user_dir"].iterdir()) == ["settings.json"]


# ---------------------------------------------------------------------------
# Dry run, scopes, modes, links


def test_dry_run_writes_nothing(dirs, tmp_path):
    (dirs["user_dir"] / "settings.json").write_bytes(dump(FORMATTER))
    before = snapshot(tmp_path)
    plan = plan_install(**dirs)
    diff = plan.diff()
    assert snapshot(tmp_path) == before
    assert '+            "command": "artibot hook session-start",' in diff
    assert "+++ " + str(dirs["user_dir"] / "commands" / "learn.md") in diff
    assert "--- /dev/null" in diff


@pytest.mark.parametrize("scope,settings,commands", [
    ("user", "home/.claude/settings.json", "home/.claude/commands"),
    ("project", "project/.claude/settings.json", "project/.claude/commands"),
    ("local", "project/.claude/settings.local.json", "project/.claude/commands"),
])
def test_scopes_resolve_to_their_files(dirs, tmp_path, scope, settings, commands):
    assert settings_path_for(scope, **dirs) == tmp_path / settings
    assert commands_dir_for(scope, **dirs) == tmp_path / commands
    plan = install(dirs, scope)
    assert plan.settings_path == tmp_path / settings
    assert plan.command_path == tmp_path / commands / "learn.md"
    assert (tmp_path / settings).is_file() and (tmp_path / commands / "learn.md").is_file()
    others = {s for s in ("home/.claude/settings.json", "project/.claude/settings.json",
                          "project/.claude/settings.local.json") if s != settings}
    assert not any((tmp_path / o).exists() for o in others)


def test_new_files_outside_the_home_honour_the_umask(dirs):
    old = os.umask(0o077)
    try:
        install(dirs)
    finally:
        os.umask(old)
    for path in (dirs["user_dir"] / "settings.json", dirs["user_dir"] / "commands" / "learn.md"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_modes(dirs):
    old = os.umask(0o022)
    try:
        install(dirs)
    finally:
        os.umask(old)
    settings = dirs["user_dir"] / "settings.json"
    learn = dirs["user_dir"] / "commands" / "learn.md"
    assert stat.S_IMODE(settings.stat().st_mode) == 0o644
    assert stat.S_IMODE(learn.stat().st_mode) == 0o644
    uninstall(dirs)
    settings.write_text('{"model": "opus"}')
    os.chmod(settings, 0o600)
    install(dirs)
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600  # an existing file keeps its mode
    backup = settings.with_name("settings.json.artibot-backup")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600


def test_a_symlinked_settings_file_is_edited_in_place(dirs, tmp_path):
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_bytes(dump(FORMATTER))
    link = dirs["user_dir"] / "settings.json"
    link.symlink_to(dotfiles)
    plan = install(dirs)
    assert plan.changes[0].path == dotfiles
    assert link.is_symlink()
    assert "SessionEnd" in json.loads(dotfiles.read_bytes())["hooks"]
    uninstall(dirs)
    assert dotfiles.read_bytes() == dump(FORMATTER)


def test_install_warns_about_hooks_in_another_scope(dirs):
    install(dirs, "user")
    plan = plan_install("project", **dirs)
    assert any("user scope" in w for w in plan.warnings)
    assert any(line.startswith("warning: ") for line in plan.summary())


# ---------------------------------------------------------------------------
# The /learn command and the plugin layout


PLUGIN = shipped_config_dir() / "claude-code"


def test_plugin_hooks_register_what_install_adds(dirs):
    """Same events, matchers and timeouts; the command finds its interpreter at run time
    (``test_plugin_command``)."""
    doc = json.loads((PLUGIN / "hooks" / "hooks.json").read_bytes())
    installed = json.loads(plan_install(**dirs).changes[0].after)["hooks"]

    def shape(hooks):
        return {event: [{**g, "hooks": [{**h, "command": h["command"].rsplit(" hook ", 1)[1]} for h in g["hooks"]]}
                        for g in groups] for event, groups in hooks.items()}

    assert shape(doc["hooks"]) == shape(installed) == shape(hooks_mapping("artibot"))


def test_plugin_manifest():
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_bytes())
    assert manifest["name"] == "artibot"
    assert manifest["version"] == "0.1.0"
    assert manifest["description"]


def test_learn_template():
    text = (PLUGIN / "commands" / "learn.md").read_text()
    front, body = text.split("---\n", 2)[1:]
    assert "allowed-tools: Bash(artibot review:*), Bash(artibot learn:*), Bash(artibot status:*)" in front
    assert "description: " in front and "argument-hint: " in front
    assert body.startswith(LEARN_MARKER + "\n")
    assert "!`artibot review --json --prepare`" in body
    assert "$ARGUMENTS" in body
    assert render_learn("artibot") == text.encode()


def test_learn_command_uses_the_installed_prefix():
    cmd = "'/home/me/my venv/bin/artibot'"
    text = render_learn(cmd).decode()
    assert f"allowed-tools: Bash({cmd} review:*), Bash({cmd} learn:*), Bash({cmd} status:*)" in text
    assert f"!`{cmd} review --json --prepare`" in text
    assert f"{cmd} review --answer 1=accept --answer 2=apply --answer 3=auto" in text
    stripped = text.replace(cmd, "")
    for sub in ("review", "learn", "status", "report"):
        assert f"artibot {sub} " not in stripped and f"artibot {sub}`" not in stripped
    assert LEARN_MARKER in text


@pytest.mark.parametrize("template", ["claude-code/commands/learn.md", "gemini-cli/commands/learn.toml",
                                      "codex-cli/skills/learn/SKILL.md"])
def test_every_command_a_learn_file_runs_uses_the_installed_prefix(template):
    """`artibot report cost` was left bare while every other command used the absolute path."""
    import re

    from artibot.cli.command_table import COMMANDS
    from artibot.integrations.claude_code import templates

    assert set(templates._SUBCOMMANDS) == set(COMMANDS)
    cmd = "'/opt/venv/bin/artibot' --home /data/x"
    text = render_learn(cmd, (shipped_config_dir() / template).read_text()).decode().replace(cmd, "")
    bare = re.findall(r"(?<![\w./-])artibot (" + "|".join(COMMANDS) + r")\b", text)
    assert bare == [], bare


def test_module_constants_are_consistent():
    assert installer.BACKUP_SUFFIX == ".artibot-backup"
    assert len({s.cli_event for s in HOOKS}) == len(HOOKS)


def test_cli_output_is_not_wrapped_when_piped(tmp_path):
    home = tmp_path / ("a-rather-long-home-directory-name-" * 3)
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "HOME": str(home), "ARTIBOT_HOME": str(tmp_path / "data"), "COLUMNS": "80"}
    env.pop("CLAUDE_PROJECT_DIR", None)
    for verb in ("install", "uninstall"):
        proc = subprocess.run([sys.executable, "-m", "artibot", verb, "claude-code"], env=env, cwd=project,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[0].startswith(("create ", "remove ")) and str(home / ".claude" / "settings.json") in lines[0]
        assert lines[-1].startswith("done")
    assert [p.name for p in home.rglob("*")] == [".claude"]  # Claude Code's own home stays
