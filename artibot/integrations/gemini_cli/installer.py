"""What ``artibot install gemini-cli`` registers: five hooks in Gemini CLI's ``settings.json``.

User scope ``~/.gemini/settings.json``, project scope ``<project>/.gemini/settings.json``
(Gemini CLI asks before it runs a project's hooks the first time, and again whenever
one changes). Timeouts are in milliseconds, Gemini CLI's unit. Each entry has a
``name`` (``artibot-BeforeAgent`` …) so that ``/hooks disable`` can name it.
"""

from __future__ import annotations

from pathlib import Path

from artibot.integrations.hook_files import Hook, HookFile

HOOKS = (
    Hook("SessionStart", 10_000),
    Hook("BeforeAgent", 5_000),
    Hook("AfterTool", 5_000),
    Hook("AfterAgent", 10_000),
    Hook("SessionEnd", 5_000),
)


def hook_file(user_dir: Path, project_dir: Path) -> HookFile:
    return HookFile("gemini-cli", "Gemini CLI", user_dir / "settings.json", project_dir / ".gemini" / "settings.json",
                    HOOKS, grouped=True, named=True,
                    restart_hint="start a new Gemini CLI session (or run /hooks panel) to load the hooks")
