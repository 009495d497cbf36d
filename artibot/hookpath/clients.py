"""The clients artibot integrates with: one entry each, read by everything that names them.

The hook dispatch (``artibot.__main__``), the other clients' adapter (:mod:`.adapter`),
``artibot install|uninstall`` (``cli/cmd_integrate.py``, ``cli/cmd_agents.py``), the shell
completion and :func:`artibot.config.agent_user_dir` read this map; none of them lists the
clients again. A client's own modules live in its package,
``artibot/integrations/<package>/``, and are imported by name only when used (:func:`module`),
so a hook loads its own client's modules and no other's.

A new client is one entry here and its package: ``events.py`` (its event names, how its
payload reads and how its output is written: see :mod:`.adapter`) and ``installer.py``
(``hook_file(user_dir, project_dir)``: the settings file its hooks are registered in).

This module is imported by every hook before anything else: it imports nothing, and a
client is a plain class (no :mod:`dataclasses`, no :mod:`typing` at run time).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: imported on every hook
if TYPE_CHECKING:
    from types import ModuleType

ADAPTER = "artibot.hookpath.adapter"
"""The hook entry of the clients whose events are translated into the turn engine's."""


class Client:
    """One client: its name (in the CLI, the hook commands and the records) and where its parts are."""

    __slots__ = ("name", "title", "package", "hook", "config_env", "config_dir", "route_models")

    def __init__(self, name: str, title: str, package: str, *, hook: str, config_dir: str,
                 config_env: str | None = None, route_models: bool = False) -> None:
        self.name = name
        self.title = title
        """As the user knows it (completion, messages)."""
        self.package = package
        """The folder under ``artibot/integrations/``."""
        self.hook = hook
        """The module whose ``main(argv, client)`` runs this client's hooks."""
        self.config_dir = config_dir
        """The client's user settings folder under the home directory."""
        self.config_env = config_env
        """The environment variable the client itself reads for that folder, if any."""
        self.route_models = route_models
        """Whether ``artibot install`` takes ``--model ROUTE=MODEL`` (a model per route)."""


CLIENTS: dict[str, Client] = {client.name: client for client in (
    Client("claude-code", "Claude Code", "claude_code", hook="artibot.hookpath.turns.call",
           config_dir=".claude", config_env="CLAUDE_CONFIG_DIR"),
    Client("gemini-cli", "Gemini CLI", "gemini_cli", hook=ADAPTER, config_dir=".gemini", route_models=True),
    Client("codex-cli", "Codex CLI", "codex_cli", hook=ADAPTER, config_dir=".codex", config_env="CODEX_HOME"),
    Client("cursor", "Cursor", "cursor", hook=ADAPTER, config_dir=".cursor"),
)}

UNNAMED = "claude-code"
"""The client whose hook commands name no client (``artibot hook EVENT``): the form installed
for Claude Code from the start, which settings files written then still hold."""


def adapted() -> tuple[str, ...]:
    """The clients run through :mod:`.adapter`, in the registry's order."""
    return tuple(name for name, client in CLIENTS.items() if client.hook == ADAPTER)


def hook_target(args: list[str]) -> tuple[Client, list[str]]:
    """``artibot hook [CLIENT] EVENT``'s client and the rest of the arguments: a first
    argument that names a client other than :data:`UNNAMED` is that client; anything else
    is an event of :data:`UNNAMED`'s."""
    client = CLIENTS.get(args[0]) if args and args[0] != UNNAMED else None
    if client is None:
        return CLIENTS[UNNAMED], args
    return client, args[1:]


def module(name: str, part: str) -> ModuleType:
    """The module ``part`` of client ``name``'s package, imported now (and only it)."""
    client = CLIENTS.get(name)
    if client is None:
        raise ValueError(f"unknown client {name!r} (known: {', '.join(CLIENTS)})")
    dotted = f"artibot.integrations.{client.package}.{part}"
    return __import__(dotted, fromlist=[part])

