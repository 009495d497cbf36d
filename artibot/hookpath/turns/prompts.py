"""What kind of prompt a ``UserPromptSubmit`` carries, judged by what Claude Code sends (pure).

Claude Code runs ``UserPromptSubmit`` for more than what the user typed:

* **harness input** — a background sub-agent's report arrives as a prompt that opens
  with ``<task-notification>`` (then ``<task-id>``, ``<tool-use-id>``,
  ``<output-file>``, ``<status>``, ``<summary>``; seen in Claude Code 2.1.331), and
  other harness messages come wrapped the same way (``<system-reminder>``,
  ``<local-command-stdout>``, ``<command-name>`` …). Nobody typed them: they are not
  recorded, not routed, not given routing context, and they never close or judge a turn;
* **slash commands** — ``/learn``, ``/review 3``, ``/plugin:cmd args``: not routed or
  recorded as typed. A command or skill the user wrote (a file in ``.claude/commands/``
  or ``skills/``) sends the model its text: that text (:func:`expand`) is routed and
  recorded in the typed prompt's place; a built-in's or a plugin's text is inside the
  client, and artibot's own ``/learn`` is not work to learn from. (Claude Code also
  fires ``UserPromptExpansion`` for them.) Only a
  name Claude Code knows is a command: a built-in (:data:`BUILTIN_COMMANDS`), a
  plugin's (``plugin:name``), or one the caller finds as a command or skill file.
  ``/build is failing again, fix it`` names no command: Claude Code sends it to the
  model as it is, so it is a user prompt, routed and recorded.

Everything else is a **user** prompt. No regular expressions here: this runs first on
every prompt, and a harness prompt returns before anything heavier is imported.

>>> kind("<task-notification>\\n<task-id>a1</task-id>\\n<status>completed</status>\\n</task-notification>")
'harness'
>>> kind("/learn", lambda name: name == "learn"), kind("/review 3 --json"), kind("/plugin:do-it now")
('slash', 'slash', 'slash')
>>> kind("/build is failing again, fix it", lambda name: False)
'user'
>>> kind("/usr/lib is missing libfoo, why?"), kind("fix the typo"), kind("<div> is not closed in index.html")
('user', 'user', 'user')
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: this module is on every prompt's path
if TYPE_CHECKING:
    from typing import Callable

USER = "user"
SLASH = "slash"
HARNESS = "harness"

HARNESS_TAGS = (
    "task-notification", "system-reminder", "local-command-stdout", "local-command-stderr",
    "local-command-caveat", "command-name", "command-message", "command-args",
    "bash-input", "bash-stdout", "bash-stderr", "user-prompt-submit-hook",
)
"""Tags Claude Code wraps its own messages in. A prompt that opens with one is harness input."""

BUILTIN_COMMANDS = frozenset({
    "add-dir", "agents", "bashes", "bug", "clear", "compact", "config", "context", "cost", "doctor", "effort",
    "exit", "export", "fast", "feedback", "help", "hooks", "ide", "init", "install-github-app", "login",
    "logout", "mcp", "memory", "migrate-installer", "model", "output-style", "permissions", "plan", "plugin",
    "plugins", "pr-comments", "privacy-settings", "quit", "release-notes", "resume", "review", "rewind",
    "sandbox", "security-review", "skills", "status", "statusline", "terminal-setup", "todos", "upgrade",
    "usage", "vim",
})
"""Claude Code's own commands (2.1; a name not here counts only when its file exists)."""

LEARN_MARKER = "<!-- artibot:learn -->"
"""What marks artibot's own ``/learn`` command file (``templates.LEARN_MARKER``, not imported
for it: that module loads the config; a test checks they agree)."""

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


def kind(prompt: str, known: Callable[[str], bool] | None = None) -> str:
    """``'harness'``, ``'slash'`` or ``'user'`` (see the module docstring).

    ``known(name)`` says whether a command or skill of that name is installed; without
    it every well-formed name counts as a command.
    """
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
            if known is None or ":" in name or name in BUILTIN_COMMANDS or known(name):
                return SLASH
    return USER


def command_parts(prompt: str) -> tuple[str, str]:
    """``("name", "args")`` of a slash command prompt.

    >>> command_parts("  /fix-bug login urgent\\n"), command_parts("/learn")
    (('fix-bug', 'login urgent'), ('learn', ''))
    """
    parts = prompt.strip()[1:].split(None, 1)
    return (parts[0] if parts else ""), (parts[1].strip() if len(parts) > 1 else "")


def expand(body: str, args: str) -> str:
    """The text a command file sends the model: its front matter dropped, ``$ARGUMENTS``
    (and ``$1`` … ``$9``) replaced, the arguments appended when it has no placeholder.

    >>> expand("---\\ndescription: fix\\n---\\nFix bug $ARGUMENTS, then test.\\n", "login")
    'Fix bug login, then test.'
    >>> expand("Review $1 against $2", "a.py b.py"), expand("Summarize the diff", "briefly")
    ('Review a.py against b.py', 'Summarize the diff\\n\\nARGUMENTS: briefly')
    """
    text = body.lstrip("\ufeff")
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end >= 0:
            text = text[text.find("\n", end + 4) + 1:] if text.find("\n", end + 4) >= 0 else ""
    text = text.strip()
    placeholders = "$ARGUMENTS" in text or any(f"${i}" in text for i in range(1, 10))
    text = text.replace("$ARGUMENTS", args)
    words = args.split()
    for i in range(9, 0, -1):
        text = text.replace(f"${i}", words[i - 1] if i <= len(words) else "")
    return text if placeholders or not args else f"{text}\n\nARGUMENTS: {args}"

