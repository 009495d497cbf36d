"""What ``artibot install codex-cli`` registers: six hooks in Codex CLI's ``hooks.json``.

User scope ``$CODEX_HOME/hooks.json`` (``~/.codex``), project scope
``<project>/.codex/hooks.json``. The format is Claude Code's (matcher groups, timeouts
in seconds). Hooks are on by default in Codex CLI 0.169.0, but it runs a hook it does not
manage only once the user has reviewed and trusted it (``/hooks`` in the TUI; ``codex
--dangerously-bypass-hook-trust`` skips that for one run): installing cannot do that for them.

The ``/learn`` equivalent is a **skill**, ``skills/learn/SKILL.md`` (user
``$CODEX_HOME/skills/``, project ``<project>/.codex/skills/``), invoked as ``$learn``:
Codex CLI 0.169.0 has no custom prompts any more (``/prompts:learn`` is "Unrecognized
command"), and a skill cannot run a command itself, so its text tells the model to run
``artibot review --json --prepare`` first. The ``UserPromptSubmit`` hook sees only
``$learn …`` (the skill's text goes to the model separately) and treats it as a command
(:func:`~.events.is_learn`), not a prompt to route or record.
"""

from __future__ import annotations

from pathlib import Path

from artibot.integrations.json_hooks import Hook, HookFile, LearnFile
from artibot.messages import Message

HOOKS = (
    Hook("SessionStart", 10),
    Hook("UserPromptSubmit", 5),
    Hook("PostToolUse", 5),
    Hook("PermissionRequest", 5),
    Hook("Stop", 10),
    Hook("SessionEnd", 3),  # Codex CLI clamps a SessionEnd hook to 3 s
)


def hook_file(user_dir: Path, project_dir: Path) -> HookFile:
    learn = LearnFile("codex-cli/skills/learn/SKILL.md", user_dir / "skills" / "learn" / "SKILL.md",
                      project_dir / ".codex" / "skills" / "learn" / "SKILL.md",
                      r"(?m)^ {6}(.+) review --json --prepare$", "$learn")
    return HookFile("codex-cli", "Codex CLI", user_dir / "hooks.json", project_dir / ".codex" / "hooks.json",
                    HOOKS, grouped=True, learn=learn,
                    restart_hint=Message("installers.restart_codex"))
