"""What ``artibot install cursor`` registers: six hooks in Cursor's ``hooks.json``.

User scope ``~/.cursor/hooks.json``, project scope ``<project>/.cursor/hooks.json``;
Cursor's format (from its documentation: ``{"version": 1, "hooks": {event: [{"command"}]}}``).
"""

from __future__ import annotations

from pathlib import Path

from artibot.integrations.json_hooks import Hook, HookFile
from artibot.messages import Message

HOOKS = tuple(Hook(event) for event in (
    "sessionStart", "beforeSubmitPrompt", "postToolUse", "postToolUseFailure", "stop", "sessionEnd"))


def hook_file(user_dir: Path, project_dir: Path) -> HookFile:
    return HookFile("cursor", "Cursor", user_dir / "hooks.json", project_dir / ".cursor" / "hooks.json",
                    HOOKS, grouped=False, new_file_keys={"version": 1},
                    restart_hint=Message("installers.restart_cursor"))
