"""What kind of prompt a ``UserPromptSubmit`` carries, judged by what Claude Code sends (pure).

Claude Code runs ``UserPromptSubmit`` for more than what the user typed:

* **harness input** — a background sub-agent's report arrives as a prompt that opens
  with ``<task-notification>`` (then ``<task-id>``, ``<tool-use-id>``,
  ``<output-file>``, ``<status>``, ``<summary>``; seen in Claude Code 2.1.331), and
  other harness messages come wrapped the same way (``<system-reminder>``,
  ``<local-command-stdout>``, ``<command-name>`` …). Nobody typed them: they are not
  recorded, not routed, not given routing context, and they never close or judge a turn;
* **slash commands** — ``/learn``, ``/review 3``, ``/plugin:cmd args``: the user typed
  them, but the command's own text tells Claude what to do, so they are not routed or
  recorded either. (Claude Code also fires ``UserPromptExpansion`` for them.)

Everything else is a **user** prompt. No regular expressions here: this runs first on
every prompt, and a harness prompt returns before anything heavier is imported.

>>> kind("<task-notification>\\n<task-id>a1</task-id>\\n<status>completed</status>\\n</task-notification>")
'harness'
>>> kind("/learn"), kind("/review 3 --json"), kind("/plugin:do-it now")
('slash', 'slash', 'slash')
>>> kind("/usr/lib is missing libfoo, why?"), kind("fix the typo"), kind("<div> is not closed in index.html")
('user', 'user', 'user')
"""

from __future__ import annotations

USER = "user"
SLASH = "slash"
HARNESS = "harness"

HARNESS_TAGS = (
    "task-notification", "system-reminder", "local-command-stdout", "local-command-stderr",
    "local-command-caveat", "command-name", "command-message", "command-args",
    "bash-input", "bash-stdout", "bash-stderr", "user-prompt-submit-hook",
)
"""Tags Claude Code wraps its own messages in. A prompt that opens with one is harness input."""

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:")
_TAG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def _opening_tag(text: str) -> str | None:
    """The name of the tag ``text`` opens with (``<name>`` or ``<name attr…>``), else None."""
    if not text.startswith("<"):
        return None
    end = text.find(">", 1, 80)
    if end < 0:
        return None
    name = text[1:end].split(" ", 1)[0]
    if not name or not set(name) <= _TAG_CHARS or not name[0].isalpha():
        return None
    return name


def kind(prompt: str) -> str:
    """``'harness'``, ``'slash'`` or ``'user'`` (see the module docstring)."""
    text = prompt.lstrip()
    tag = _opening_tag(text)
    if tag is not None:
        # A known harness tag, or any hyphenated tag that wraps the whole prompt
        # (Claude Code's own style; a user pasting <div>… does not close it at the end).
        if tag in HARNESS_TAGS or ("-" in tag and text.rstrip().endswith(f"</{tag}>")):
            return HARNESS
    if text.startswith("/") and len(text) > 1:
        # A command name has no "/" in it: "/usr/lib …" is a path, not a command.
        name = text[1:].split(None, 1)[0] if not text[1].isspace() else ""
        if name and set(name) <= _NAME_CHARS and name[0].isalnum():
            return SLASH
    return USER
