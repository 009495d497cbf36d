"""The slash commands and skills the user wrote: where their file is, and the text it sends the model.

Claude Code sends ``UserPromptSubmit`` with the prompt as typed (``/fix-bug login``) and
the model the command file's text; :func:`text_of` gives that text, so the prompt hook
routes and records what the model works on (:mod:`.prompts` says which prompts are
commands).
"""

from __future__ import annotations

from artibot.hookpath.store import hook_reads

TYPE_CHECKING = False  # not typing's: imported by prompt hooks
if TYPE_CHECKING:
    from artibot.hookpath.turns.protocol import Call


def file_of(call: Call, name: str) -> str | None:
    """The file of ``/name`` if it is a command or skill the user installed (project or user scope)."""
    import os

    base = name.replace(":", "/")  # a namespaced project command lives in a sub-folder
    project = call.field("cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or "."
    user = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.expanduser("~/.claude")
    for root in (f"{project}/.claude", user):
        for path in (f"{root}/commands/{base}.md", f"{root}/skills/{base}/SKILL.md"):
            if hook_reads.file_exists(path):
                return path
    return None


def text_of(call: Call, prompt: str, *, max_chars: int) -> str | None:
    """What a slash command the user wrote sends the model (:func:`.prompts.expand`), or None
    for a built-in's, a plugin's or artibot's own ``/learn`` (none of them the user's work);
    the file's first ``max_chars`` characters are read."""
    from artibot.hookpath.turns import prompts

    name, args = prompts.command_parts(prompt)
    if ":" in name or name in prompts.BUILTIN_COMMANDS:
        return None
    path = file_of(call, name)
    data = hook_reads.read_start(path, max_chars) if path else None
    if not data or prompts.LEARN_MARKER in data:
        return None
    return prompts.expand(data, args) or None
