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
