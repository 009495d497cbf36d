"""``artibot --home X install claude-code``, then the real Claude Code started from an
environment that knows nothing of X: the data must still go to X.

Before, the install said the data went to X and wrote nothing that made it so; Claude Code,
started from a desktop launcher or another shell, ran the hooks with its own environment and
the data went to ``~/.claude/artibot``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.fake_api import text
from tests.e2e.harness import World

pytestmark = pytest.mark.slow


class Elsewhere(World):
    """Claude Code without ``ARTIBOT_HOME`` in its environment, once artibot is installed."""

    started = False

    @property
    def env(self) -> dict[str, str]:
        env = super().env
        if self.started:
            env.pop("ARTIBOT_HOME")
        return env


def test_the_home_given_at_install_is_where_the_real_client_writes(tmp_path: Path, binary: Path) -> None:
    with Elsewhere(tmp_path, binary, {"plain": [[text("Fixed the typo.")]]}) as world:
        chosen = tmp_path / "chosen home"
        out = world.artibot("--home", str(chosen), "install", "claude-code").stdout
        assert f"go to {chosen}, written into the hook commands" in out, out
        world.started = True
        world.claude("-p", "fix the typo in the README title #sc:plain")
        from artibot.store.home import Home
        from artibot.store.log.experiences import ExperienceLog

        [exp] = ExperienceLog(Home(chosen)).read()
        assert exp["input"].startswith("fix the typo") and exp["source"] == "claude-code"
        assert not (world.home / ".claude" / "artibot").exists()  # the default home got nothing
        assert not world.data.exists()  # nor the installing shell's ARTIBOT_HOME
        learn_md = (world.home / ".claude" / "commands" / "learn.md").read_text()
        assert f"--home '{chosen}' review --json --prepare" in learn_md
        assert world.api.refused == []
        hooks_log = chosen / "logs" / "hooks.log"
        assert "Error" not in (hooks_log.read_text() if hooks_log.exists() else ""), json.dumps(exp)[:200]
