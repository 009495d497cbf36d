"""What artibot registers in Claude Code: the hook table and the ``/learn`` command text.

The installer (``installer.py``) merges these into a user's files; the plugin layout
under ``config/claude-code/`` ships the same content for ``/plugin install``.

Hooks are registered for seven events. ``PreToolUse`` is left out on purpose: it runs
before *every* tool call and blocks it until the hook returns, and the learner needs
nothing from it that ``PostToolUse`` / ``PostToolUseFailure`` do not already say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artibot.config import shipped_config_dir
from artibot.errors import IntegrationError, InvalidInput
from artibot.messages import Message
from artibot.store.fs import read_bytes

TYPE_CHECKING = False  # typing is not needed at run time
if TYPE_CHECKING:
    from typing import Any

LEARN_MARKER = "<!-- artibot:learn -->"
"""The line that marks a ``learn.md`` as artibot's (the installer never touches one without it)."""

TEMPLATE_DIR = "claude-code"
LEARN_TEMPLATE = "commands/learn.md"


@dataclass(frozen=True)
class HookSpec:
    event: str
    """Claude Code's event name, the key under ``hooks``."""
    cli_event: str
    """The kebab-case name ``artibot hook`` takes."""
    matcher: str | None
    """``None``: the group has no ``matcher`` key (events that take none, or all sources)."""
    timeout: int
    """Seconds (Claude Code's unit), not milliseconds."""


HOOKS: tuple[HookSpec, ...] = (
    # No matcher: SessionStart matchers are sources (startup/resume/...), and we want all.
    HookSpec("SessionStart", "session-start", None, 10),
    HookSpec("UserPromptSubmit", "user-prompt-submit", None, 5),
    HookSpec("PostToolUse", "post-tool-use", "*", 5),
    HookSpec("PostToolUseFailure", "post-tool-use-failure", "*", 5),
    # A tool call the permission system refuses fires no tool hook, only this one.
    HookSpec("PermissionRequest", "permission-request", "*", 5),
    HookSpec("Stop", "stop", None, 10),
    # The hook only starts a detached learner; 5 s also lifts the client's own SessionEnd
    # budget of about 1.5 s.
    HookSpec("SessionEnd", "session-end", None, 5),
)

KNOWN_CLI_EVENTS = frozenset({
    "session-start", "user-prompt-submit", "pre-tool-use", "post-tool-use",
    "post-tool-use-failure", "permission-request", "stop", "session-end",
})
_OURS = re.compile(r"\shook\s+(" + "|".join(sorted(KNOWN_CLI_EVENTS, key=len, reverse=True)) + r")\s*$")


_LAUNCH = ("exec(\"try:from artibot.__main__ import hook_process\\nexcept ImportError:sys.exit(0)\"); "
           "sys.exit(hook_process())")
HOOK_LAUNCHER = ("import sys, os; sys.path[0] or sys.path.pop(0); "
                 "sys.path.append({root}) if os.path.isfile({main}) else __import__(\"site\").main(); " + _LAUNCH)
"""What the registered hook command runs with ``python -S -c`` (``{root}``: the folder that
holds the ``artibot`` package the installer ran from).

Not the ``artibot`` console script: pip's wrapper imports ``re`` before anything else. Not
``python -m artibot``: that loads ``runpy``. ``-S``: the interpreter skips :mod:`site` (its
``.pth`` files, ``_distutils_hack``, the ``sitecustomize`` search) and the launcher puts
artibot's folder on ``sys.path`` itself; a hook that needs another
installed package (``orjson``, ``numpy``: the rebuilds, the learner) runs :func:`site.main`
at its first such import (``artibot.__main__``), and a folder that no longer holds artibot
(moved, reinstalled elsewhere) falls back to the interpreter's own search. Each hook is a
new process on every prompt and tool call, so these count (``scripts/bench_hooks.py``; what
each of the three costs: docs/benchmarks.md, "Costs behind the code").
The current directory (the user's project, where Claude Code runs hooks) is taken off
``sys.path`` so that a project's own ``json.py`` or ``artibot/`` cannot stand in for ours.
An interpreter that no longer finds artibot (``pip uninstall`` before ``artibot
uninstall``) exits 0 without a word, as the ``test -x`` guard does for one that is gone.
"""


def package_root() -> str:
    """The folder that holds the running ``artibot`` package (site-packages, or the
    checkout of an editable install)."""
    import os

    import artibot

    return os.path.dirname(os.path.dirname(os.path.abspath(artibot.__file__)))


def hook_launcher(root: str | None = None) -> str:
    """The launcher code for the package in ``root`` (default: the running one)."""
    import os

    import json

    root = package_root() if root is None else root
    # JSON's string literal is Python's too, and double-quoted: no quote to escape in ``sh``.
    return HOOK_LAUNCHER.format(root=json.dumps(root, ensure_ascii=False),
                                main=json.dumps(os.path.join(root, "artibot", "__main__.py"), ensure_ascii=False))


def hook_prefix(python: str, root: str | None = None, *, guard: bool = False, home: str | None = None) -> str:
    """The hook command prefix for the interpreter at ``python``: ``<python> -S -c '<launcher>'``.

    ``guard``: the command first checks that the interpreter is still there and exits 0
    quietly when it is not (``test -x <python> || exit 0; …``): a package removed before
    ``artibot uninstall`` (its virtualenv deleted with it) would otherwise fail every hook
    of every prompt with "not found" (exit 127) until the settings are cleaned. The client
    runs the command through ``sh``, which ``test`` is built into (no process of its own).

    ``home``: the data home the hooks write to, set in the command itself
    (``ARTIBOT_HOME=<home> <python> …``): a home chosen at install time (``--home``) must
    reach hooks that run in the client's environment, not in the installing shell's.
    """
    import shlex

    command = f"{shlex.quote(python)} -S -c {shlex.quote(hook_launcher(root))}"
    if home is not None:
        command = f"ARTIBOT_HOME={shlex.quote(home)} {command}"
    return f"test -x {shlex.quote(python)} || exit 0; {command}" if guard else command


def hook_command(command: str, cli_event: str) -> str:
    return f"{command} hook {cli_event}"


def is_artibot_hook(command: object, prefix: str) -> bool:
    """True for a hook command artibot installed, with this ``prefix`` or any earlier one.

    An earlier install may have used another prefix (another virtualenv, ``python -m
    artibot``), so any command that mentions artibot and ends in ``hook <known event>``
    counts as ours.
    """
    if not isinstance(command, str):
        return False
    if any(command == hook_command(prefix, e) for e in KNOWN_CLI_EVENTS):
        return True
    return "artibot" in command and _OURS.search(command) is not None


def hook_group(spec: HookSpec, command: str) -> dict[str, Any]:
    """The matcher group artibot adds for one event (key order as Claude Code's docs)."""
    group: dict[str, Any] = {}
    if spec.matcher is not None:
        group["matcher"] = spec.matcher
    group["hooks"] = [{"type": "command", "command": hook_command(command, spec.cli_event),
                       "timeout": spec.timeout}]
    return group


def hooks_mapping(command: str) -> dict[str, list[dict[str, Any]]]:
    """``{event: [group]}``: what install adds under a settings file's ``hooks`` key."""
    return {spec.event: [hook_group(spec, command)] for spec in HOOKS}


PLUGIN_LAUNCHER = "import sys; sys.path[0] or sys.path.pop(0); __import__(\"site\").main(); " + _LAUNCH
""":data:`HOOK_LAUNCHER` for an interpreter found at run time: no folder known in advance,
so the interpreter's own search (:func:`site.main`) finds artibot."""

PLUGIN_COMMAND = ('p=$(command -v artibot) || exit 0; read -r l < "$p"; '
                  'case $l in *" "*) ;; "#!/"*python*) exec "${l#??}" -S -c LAUNCHER hook EVENT;; esac; '
                  'exec "$p" hook EVENT')
"""The hook command of the plugin (``config/claude-code/hooks/hooks.json``), as ``sh`` runs it
(``LAUNCHER``: :data:`PLUGIN_LAUNCHER`, quoted; ``EVENT``: the hook's event).

A plugin is a folder of files, written before any install: it cannot name the interpreter
artibot was installed into, as ``artibot install claude-code`` does. The one thing it can
rely on is the ``artibot`` console script on ``PATH``, and that script's first line names
that interpreter (``#!/path/to/venv/bin/python``: pip, pipx and uv write it so). The command
reads that line with ``sh`` built-ins only (``command -v``, ``read``; one ``$(…)`` fork,
no exec) and starts the interpreter as the installed hooks do (``-S -c`` and the launcher),
skipping the console script's own imports. A first line that is not a plain interpreter
path (pip's ``#!/bin/sh`` wrapper for a path with spaces or over 127 bytes, ``#!/usr/bin/env
python3``) falls back to the console script itself, slower but the same hook. No
``artibot`` on ``PATH`` (uninstalled, plugin left enabled): exit 0 without a word.
"""


def plugin_hook_command(cli_event: str) -> str:
    """:data:`PLUGIN_COMMAND` for one event."""
    import shlex

    return PLUGIN_COMMAND.replace("LAUNCHER", shlex.quote(PLUGIN_LAUNCHER)).replace("EVENT", cli_event)


def plugin_hooks_document() -> dict[str, Any]:
    """The content of ``config/claude-code/hooks/hooks.json`` (a test holds the file equal to it)."""
    hooks = {}
    for spec in HOOKS:
        group = hook_group(spec, "artibot")
        group["hooks"] = [{**h, "command": plugin_hook_command(spec.cli_event)} for h in group["hooks"]]
        hooks[spec.event] = [group]
    return {
        "description": "artibot: record routing experiences and start the learner "
                       "(see `artibot install claude-code` for the settings-file equivalent)",
        "hooks": hooks,
    }


# ---------------------------------------------------------------------------
# /learn


_SUBCOMMANDS = ("collect", "route", "outcome", "learn", "review", "status", "turns", "history", "rollback", "doctor",
                "config", "install", "uninstall", "schedule", "hook", "demo", "drift", "gateway", "report", "team")
"""Every command of the CLI (a test holds this equal to its command table): an instruction that
names one by the bare ``artibot`` would run whatever ``artibot`` is on the client's ``PATH``
(often none), not the one the hooks and the rest of the file use."""
_COMMAND_REF = re.compile(r"(?<![\w./-])artibot(?= (?:" + "|".join(_SUBCOMMANDS) + r")\b)")


def check_command_prefix(command: str) -> None:
    """Refuse a prefix that cannot be written into settings JSON, YAML front matter and Markdown."""
    if not command.strip():
        raise InvalidInput(Message("installers.prefix_empty"))
    bad = [c for c in ("\n", "\r", "`", ": ", " #") if c in command]
    if bad:
        raise InvalidInput(Message("installers.prefix_bad", command=repr(command), bad=repr(bad[0])))


def learn_template() -> str:
    path = shipped_config_dir() / TEMPLATE_DIR / LEARN_TEMPLATE
    data = read_bytes(path)
    if data is None:
        raise IntegrationError(Message("installers.template_missing", path=str(path)))
    return data.decode("utf-8")


def render_learn(command: str, template: str | None = None) -> bytes:
    """The ``learn.md`` to install: the template with every ``artibot <subcommand>`` prefixed by ``command``.

    Claude Code matches ``allowed-tools`` patterns against the literal command line, so the
    front matter and the instructions must name the same executable the hooks use.
    """
    check_command_prefix(command)
    text = learn_template() if template is None else template
    if LEARN_MARKER not in text:
        raise IntegrationError(Message("installers.template_no_marker", marker=LEARN_MARKER))
    if command != "artibot":
        text = _COMMAND_REF.sub(lambda _m: command, text)
    return text.encode("utf-8")


def is_artibot_learn(data: bytes) -> bool:
    return LEARN_MARKER.encode() in data
