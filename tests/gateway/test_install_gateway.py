"""``install claude-code --gateway``: the settings' ``env`` entries, idempotent and fully removable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artibot.integrations.claude_code.installer import apply, plan_install, plan_uninstall


@pytest.fixture
def dirs(tmp_path: Path) -> dict[str, Path]:
    user, project = tmp_path / "claude", tmp_path / "project"
    user.mkdir()
    project.mkdir()
    return {"user_dir": user, "project_dir": project}


def _settings(dirs) -> dict:
    return json.loads((dirs["user_dir"] / "settings.json").read_text())


def test_gateway_env_is_added_once_and_removed_to_the_byte(dirs) -> None:
    original = b'{\n  "model": "opus",\n  "env": {\n    "FOO": "1"\n  }\n}\n'
    path = dirs["user_dir"] / "settings.json"
    path.write_bytes(original)
    apply(plan_install(command="artibot", gateway_port=41470, **dirs))
    assert _settings(dirs)["env"] == {"FOO": "1", "ANTHROPIC_BASE_URL": "http://127.0.0.1:41470",
                                      "ARTIBOT_GATEWAY_PORT": "41470"}
    assert not plan_install(command="artibot", gateway_port=41470, **dirs).changed  # idempotent
    assert not plan_install(command="artibot", **dirs).changed  # a plain install leaves it as it is
    apply(plan_uninstall(command="artibot", **dirs))
    assert path.read_bytes() == original


def test_the_users_own_base_url_becomes_the_upstream_and_comes_back(dirs) -> None:
    path = dirs["user_dir"] / "settings.json"
    path.write_text(json.dumps({"env": {"ANTHROPIC_BASE_URL": "https://proxy.corp.example"}}, indent=2) + "\n")
    apply(plan_install(command="artibot", gateway_port=5000, **dirs))
    env = _settings(dirs)["env"]
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:5000"
    assert env["ARTIBOT_GATEWAY_UPSTREAM"] == "https://proxy.corp.example"
    apply(plan_install(command="artibot", gateway_port=5001, **dirs))  # a new port: no stacking
    env = _settings(dirs)["env"]
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:5001"
    assert env["ARTIBOT_GATEWAY_UPSTREAM"] == "https://proxy.corp.example"
    apply(plan_install(command="artibot", gateway_port=0, **dirs))  # --no-gateway
    assert _settings(dirs)["env"] == {"ANTHROPIC_BASE_URL": "https://proxy.corp.example"}


def test_a_new_settings_file_made_for_the_gateway_goes_at_uninstall(dirs) -> None:
    plan = plan_install(command="artibot", gateway_port=41470, **dirs)
    assert any("goes through the artibot gateway" in c.note for c in plan.changes)
    apply(plan)
    apply(plan_uninstall(command="artibot", **dirs))
    assert not (dirs["user_dir"] / "settings.json").exists()
    assert not list(dirs["user_dir"].rglob("*"))


@pytest.mark.parametrize("original", [None, b"{}\n", b'{\n  "model": "opus",\n  "env": {\n    "FOO": "1"\n  }\n}\n'])
def test_install_then_another_port_then_uninstall_gives_the_first_bytes_back(dirs, original) -> None:
    """The backup is the first install's: a second install (another port) edits a file holding
    artibot's entries, and saving that one would leave uninstall nothing but artibot's own file."""
    path = dirs["user_dir"] / "settings.json"
    backup = path.with_name("settings.json.artibot-backup")
    if original is not None:
        path.write_bytes(original)
    apply(plan_install(command="artibot", gateway_port=41470, **dirs))
    first_backup = backup.read_bytes() if backup.exists() else None
    assert first_backup == original
    moved = plan_install(command="artibot", gateway_port=41473, **dirs)
    assert all(c.backup is None for c in moved.changes if c.path == path)
    assert any("moves from port 41470 to port 41473" in c.note for c in moved.changes), moved.summary()
    apply(moved)
    assert _settings(dirs)["env"]["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:41473"
    assert (backup.read_bytes() if backup.exists() else None) == original
    apply(plan_install(command="artibot", gateway_port=0, **dirs))  # --no-gateway in between
    apply(plan_install(command="other/artibot", gateway_port=41470, **dirs))  # another interpreter
    apply(plan_uninstall(command="artibot", **dirs))
    if original is None:
        assert not path.exists()
    else:
        assert path.read_bytes() == original
    assert not backup.exists()
    assert not list(dirs["user_dir"].rglob("*.artibot-backup"))


def test_the_installed_port_is_read_back(dirs) -> None:
    from artibot.integrations.claude_code.installer import installed_gateway_port

    assert installed_gateway_port("user", **dirs) is None
    apply(plan_install(command="artibot", gateway_port=41473, **dirs))
    assert installed_gateway_port("user", **dirs) == 41473
    (dirs["user_dir"] / "settings.json").write_text("{not json")
    assert installed_gateway_port("user", **dirs) is None  # the plan reports that file, not this
