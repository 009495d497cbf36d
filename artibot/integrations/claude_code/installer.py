"""Register artibot's hooks and the ``/learn`` command in Claude Code, and remove them.

Planning and writing are separate: ``plan_install`` / ``plan_uninstall`` read the files
and compute every change (raising before anything is written if a file cannot be
edited safely); ``apply`` writes them. ``--dry-run`` is a plan that is never applied.

Rules for ``settings.json`` (user, project or local scope):

* artibot's entries are merged into ``hooks`` as new matcher groups at the end of each
  event's list; other keys and other tools' hooks keep their content and order;
* our entries are recognised by their command (``<prefix> hook <event>``), so a second
  install changes nothing and an install with another prefix replaces the old entries;
* a file that does not parse, or whose ``hooks`` is not an object, is refused and left
  untouched;
* before a file without any of artibot's entries is changed, its content is saved beside
  it as ``<name>.artibot-backup`` (mode 0600). The backup is taken once, at the first
  install: a later install (another port, ``--no-gateway``, a new interpreter) edits a file
  that already holds artibot's entries and leaves the backup as it is, so that it always
  holds the user's own file from before artibot touched it;
* an existing file keeps its mode, indentation and final newline; a new settings file
  is 0644 with a 2-space indent, as Claude Code writes it;
* a symbolic link (a dotfiles setup) is followed and its target edited in place;
* ``apply`` re-reads each file and refuses to write if it changed since planning.

Uninstall removes exactly the handlers install adds, then any matcher group, event list
or ``hooks`` object that removal left empty, so install + uninstall gives back the
original bytes of a file in this format; so do any number of installs in between (the
backup is the first install's), as long as nothing but artibot changed the file. It leaves nothing install made:

* a settings file left as ``{}`` is removed unless its backup shows the user had one
  (install created it);
* the ``.artibot-backup`` of a settings file is removed once the file is restored
  (uninstall itself writes no backup: what it removes is only ever ours);
* ``commands/`` (and a project's ``.claude/``) left empty are removed.
"""

from __future__ import annotations

import re
from pathlib import Path

from artibot.errors import ArtibotError, IntegrationError, InvalidInput
from artibot.integrations.claude_code.settings_merge import (
    Style, detect_style, dump_settings, handlers_of, is_ours, merge_env, merge_hooks, parse_settings,
)
from artibot.integrations.claude_code.templates import check_command_prefix, is_artibot_learn, render_learn
from artibot.integrations.install_files import (
    BACKUP_SUFFIX, NEW_COMMAND_MODE, NEW_SETTINGS_MODE, Change, InstallPlan, apply, kept_note, mode_of, new_mode, notes,
    read, real_path,
)
from artibot.messages import Message

TYPE_CHECKING = False  # typing is not needed at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = ["SCOPES", "BACKUP_SUFFIX", "Change", "InstallPlan", "apply", "commands_dir_for", "gateway_ports",
           "holds_ours", "installed_gateway_port", "plan_install", "plan_uninstall", "settings_path_for"]
"""``apply``, ``Change`` and ``InstallPlan`` live in :mod:`artibot.integrations.install_files`."""

SCOPES = ("user", "project", "local")

# ---------------------------------------------------------------------------
# Paths


def _check_scope(scope: str) -> None:
    if scope not in SCOPES:
        raise InvalidInput(Message("installers.unknown_scope", scope=repr(scope), scopes=", ".join(SCOPES)))


def settings_path_for(scope: str, *, user_dir: Path, project_dir: Path) -> Path:
    _check_scope(scope)
    if scope == "user":
        return Path(user_dir) / "settings.json"
    name = "settings.json" if scope == "project" else "settings.local.json"
    return Path(project_dir) / ".claude" / name


def commands_dir_for(scope: str, *, user_dir: Path, project_dir: Path) -> Path:
    _check_scope(scope)
    if scope == "user":
        return Path(user_dir) / "commands"
    return Path(project_dir) / ".claude" / "commands"


# ---------------------------------------------------------------------------
# settings.json (parsing and merging: settings_merge)


def _settings_change(path: Path, command: str, *, install: bool, gateway_port: int | None = None) -> Change:
    real = real_path(path)
    before = read(real)
    data = parse_settings(real, before)
    merged, count = merge_hooks(data, command, install=install)
    merged = merge_env(merged, gateway_port, install=install)
    env_note = _env_note(data.get("env"), merged.get("env"))
    style = detect_style(before) if before and before.strip() else Style()
    if install or before is not None:
        after = dump_settings(merged, style)
    else:
        after = None
    if before is not None and merged == data:
        after = before  # nothing of ours to change: never reformat someone's file
    if after == before:
        note = Message("install.hooks_present" if install else "install.hooks_absent")
        if before is None:
            note = Message("install.no_settings")
        return Change(real, "unchanged", before, before, None, note)
    if not count.added and not count.removed and env_note:
        if install:
            backup = _first_backup(real, before, data, hooks_by=command)
            return Change(real, "create" if before is None else "update", before, after, backup, env_note,
                          mode_of(real, NEW_SETTINGS_MODE))
    old = sorted({c for c in count.removed if c})
    replaced = [c for c in old if not c.startswith(command + " hook ")]
    if install:
        hooks = (Message("install.add_replacing", n=count.added, old=len(count.removed)) if replaced else
                 Message("install.add", n=count.added))
    else:
        hooks = Message("install.remove", n=len(count.removed))
    parts = [kept_note(hooks, count.kept)]
    if env_note:
        parts.append(env_note)
    if before is not None and before.strip() and dump_settings(data, style) != before:
        parts.append(Message("install.reserialised"))
    if install:
        action = "create" if before is None else "update"
        backup = _first_backup(real, before, data, hooks_by=command)
        return Change(real, action, before, after, backup, notes(*parts), mode_of(real, NEW_SETTINGS_MODE))
    old_backup = real.with_name(real.name + BACKUP_SUFFIX)
    original = _original_bytes(old_backup, merged)
    if original is not None:
        # nothing but artibot changed the file since the install: its very bytes come back
        return Change(real, "update", before, original, None,
                      notes(*parts, Message("install.restored", file=old_backup.name)),
                      mode_of(real, NEW_SETTINGS_MODE), cleanup=(old_backup,))
    # The file changed since (another tool, the user): its content is kept as it is now, and
    # the backup stays beside it when it holds something the result does not.
    cleanup = (old_backup,) if _backup_redundant(old_backup, merged, command) else ()
    if merged == {} and _install_created(old_backup, command):
        return Change(real, "remove", before, None, None, notes(*parts, Message("install.created_only")),
                      cleanup=cleanup)
    return Change(real, "update", before, after, None, notes(*parts), mode_of(real, NEW_SETTINGS_MODE),
                  cleanup=cleanup)


def holds_ours(data: dict[str, Any], command: str) -> bool:
    """Whether a parsed settings file holds any of artibot's entries (a hook, the gateway's env)."""
    from artibot.integrations.claude_code.settings_merge import GATEWAY_PORT_KEY

    env = data.get("env")
    if isinstance(env, dict) and GATEWAY_PORT_KEY in env:
        return True
    return any(is_ours(h, command) for groups in (data.get("hooks") or {}).values()
               for g in groups for h in (handlers_of(g) or []))


def _first_backup(real: Path, before: bytes | None, data: dict[str, Any], *, hooks_by: str) -> Path | None:
    """Where to save ``before``: beside the file when it holds nothing of artibot's (the user's
    own file, before the first install); None when there is nothing to save, or when an earlier
    install's backup already holds the user's file (saving this one would put artibot's own
    entries in the backup, and uninstall could no longer give the user's bytes back)."""
    if before is None or holds_ours(data, hooks_by):
        return None
    return real.with_name(real.name + BACKUP_SUFFIX)


def installed_gateway_port(scope: str, *, user_dir: Path, project_dir: Path) -> int | None:
    """The gateway port an earlier ``install --gateway`` wrote into the scope's settings file
    (None: none, or a file that cannot be read; the plan itself reports that file)."""
    from artibot.integrations.claude_code.settings_merge import GATEWAY_PORT_KEY

    path = settings_path_for(scope, user_dir=user_dir, project_dir=project_dir)
    try:
        env = parse_settings(path, read(real_path(path))).get("env")
    except (ArtibotError, OSError):
        return None
    value = env.get(GATEWAY_PORT_KEY) if isinstance(env, dict) else None
    return int(value) if isinstance(value, str) and value.isdigit() and 0 < int(value) < 65536 else None


_HOME_IN_COMMAND = re.compile(r"(?:^|[;\s])ARTIBOT_HOME=('[^']*'|\S+)")


def _home_of(command: object) -> str | None:
    """The data home a registered hook command sets (``ARTIBOT_HOME=… <python> …``), else None."""
    import shlex

    found = _HOME_IN_COMMAND.search(command) if isinstance(command, str) else None
    if found is None:
        return None
    try:
        words = shlex.split(found.group(1))
    except ValueError:
        return None
    return words[0] if words else None


def gateway_ports(home: str, *, user_dir: Path, project_dir: Path, command: str = "artibot") -> list[int]:
    """The gateway ports Claude Code's settings (each scope seen from here) send requests to
    for the data home ``home``: a file whose hooks name another home is that home's concern."""
    import os

    mine = os.path.realpath(home)
    seen: set[Path] = set()
    ports: list[int] = []
    for scope in SCOPES:
        path = settings_path_for(scope, user_dir=user_dir, project_dir=project_dir)
        try:
            real = real_path(path).resolve()
            if real in seen:
                continue
            seen.add(real)
            data = parse_settings(real, read(real))
        except (ArtibotError, OSError):
            continue  # doctor and install report that file; this only says where requests go
        port = installed_gateway_port(scope, user_dir=user_dir, project_dir=project_dir)
        if port is None or port in ports:
            continue
        homes = {_home_of(h.get("command")) for groups in (data.get("hooks") or {}).values()
                 for g in groups for h in (handlers_of(g) or []) if is_ours(h, command)}
        if not homes or None in homes or any(os.path.realpath(h) == mine for h in homes if h):
            ports.append(port)
    return ports


def _env_note(before: object, after: object) -> Message | None:
    """The gateway's ``env`` change (None when there is none)."""
    from artibot.integrations.claude_code.settings_merge import BASE_URL_KEY, GATEWAY_PORT_KEY

    old = before.get(GATEWAY_PORT_KEY) if isinstance(before, dict) else None
    new = after.get(GATEWAY_PORT_KEY) if isinstance(after, dict) else None
    if old == new:
        return None
    if new is None:
        return Message("install.claude_gateway_off", port=str(old))
    if old is not None:
        # the command stops this home's gateway on the old port, and says so when one ran
        return Message("install.claude_gateway_moves", old=str(old), new=str(new),
                       env=f"{BASE_URL_KEY}=http://127.0.0.1:{new}")
    return Message("install.claude_gateway_on", env=f"{BASE_URL_KEY}=http://127.0.0.1:{new}")


def _original_bytes(backup: Path, merged: dict[str, Any]) -> bytes | None:
    """The backup's bytes when they hold exactly ``merged`` (the file with artibot's part
    removed), else None."""
    data = read(backup)
    if data is None:
        return None
    try:
        return data if parse_settings(backup, data) == merged else None
    except ArtibotError:
        return None


def _backup_redundant(backup: Path, merged: dict[str, Any], command: str) -> bool:
    """Whether the backup holds nothing but ``merged`` and artibot's own earlier hooks."""
    data = read(backup)
    if data is None:
        return False
    try:
        stripped, _count = merge_hooks(parse_settings(backup, data), command, install=False)
    except ArtibotError:
        return False
    return stripped == merged


def _install_created(backup: Path, command: str) -> bool:
    """Whether install created a settings file: no backup of a user's version exists, or the
    backup holds nothing but an earlier install's hooks (a re-install over its own file)."""
    data = read(backup)
    if data is None:
        return True
    try:
        before = parse_settings(backup, data)
        stripped, count = merge_hooks(before, command, install=False)
    except ArtibotError:
        return False  # a backup we cannot read: keep the user's file
    return stripped == {} and bool(count.removed)


# ---------------------------------------------------------------------------
# /learn


_PREPARE_LINE = re.compile(rb"^!`(.+) review --json --prepare`$", re.MULTILINE)


def _pristine(data: bytes) -> bool:
    """True if ``data`` is exactly a ``learn.md`` artibot rendered (for any prefix): nothing to back up."""
    m = _PREPARE_LINE.search(data)
    if not m:
        return False
    try:
        return render_learn(m.group(1).decode("utf-8")) == data
    except (InvalidInput, UnicodeDecodeError):
        return False


def _learn_change(path: Path, command: str, *, install: bool) -> Change:
    real = real_path(path)
    before = read(real)
    backup = None
    if before is not None and not _pristine(before):
        backup = real.with_name(real.name + BACKUP_SUFFIX)
    if install:
        after = render_learn(command)
        if before is not None and not is_artibot_learn(before):
            raise IntegrationError(Message("installers.learn_foreign", path=str(real)))
        if before == after:
            return Change(real, "unchanged", before, before, None, Message("install.learn_current_command",
                                                                           command="/learn"))
        if before is None:
            return Change(real, "create", None, after, None, Message("install.learn", command="/learn"),
                          new_mode(NEW_COMMAND_MODE))
        return Change(real, "update", before, after, backup, Message("install.learn_new_command", command="/learn"),
                      mode_of(real, NEW_COMMAND_MODE))
    if before is None:
        return Change(real, "unchanged", None, None, None, Message("install.learn_none", command="/learn"))
    if not is_artibot_learn(before):
        return Change(real, "unchanged", before, before, None,
                      Message("install.learn_foreign_command", command="/learn"))
    return Change(real, "remove", before, None, backup, Message("install.learn", command="/learn"))


# ---------------------------------------------------------------------------
# Public API


def _other_scope_warnings(scope: str, *, user_dir: Path, project_dir: Path, command: str) -> tuple[Message, ...]:
    """Hooks registered in two scopes both run, unless their commands are identical."""
    warnings: list[Message] = []
    mine = settings_path_for(scope, user_dir=user_dir, project_dir=project_dir).resolve()
    for other in SCOPES:
        path = settings_path_for(other, user_dir=user_dir, project_dir=project_dir)
        if other == scope or path.resolve() == mine:  # project scope run from ~ is the user file
            continue
        try:
            data = parse_settings(path, read(real_path(path)))
        except (ArtibotError, OSError):
            continue  # a warning only; that file is not the one being edited
        found = [h.get("command") for groups in (data.get("hooks") or {}).values()
                 for g in groups for h in (handlers_of(g) or []) if is_ours(h, command)]
        if found:
            warnings.append(Message("installers.other_scope", path=str(path), scope=other))
    return tuple(warnings)


def _plan(scope: str, user_dir: Path, project_dir: Path, command: str, *, install: bool,
          hook_prefix: str | None = None, gateway_port: int | None = None) -> InstallPlan:
    _check_scope(scope)
    check_command_prefix(command)
    hooks_by = hook_prefix or command
    check_command_prefix(hooks_by)
    if scope != "user" and not Path(project_dir).is_dir():
        raise IntegrationError(Message("installers.no_project_dir", path=str(project_dir)))
    settings = settings_path_for(scope, user_dir=user_dir, project_dir=project_dir)
    learn = commands_dir_for(scope, user_dir=user_dir, project_dir=project_dir) / "learn.md"
    changes = (
        _settings_change(settings, hooks_by, install=install, gateway_port=gateway_port),
        _learn_change(learn, command, install=install),
    )
    warnings = _other_scope_warnings(scope, user_dir=user_dir, project_dir=project_dir,
                                     command=hooks_by) if install else ()
    empty_dirs: tuple[Path, ...] = ()
    if not install:
        # ~/.claude is Claude Code's own home and stays; a project's .claude left empty goes.
        empty_dirs = (learn.parent,) if scope == "user" else (learn.parent, settings.parent)
    return InstallPlan(scope, settings, learn, changes, warnings, empty_dirs)


def plan_install(scope: str = "user", *, user_dir: Path, project_dir: Path,
                 command: str = "artibot", hook_prefix: str | None = None,
                 gateway_port: int | None = None) -> InstallPlan:
    """Every change ``artibot install claude-code`` makes; raises before anything is written.

    ``command`` runs the CLI (the ``/learn`` command calls it); ``hook_prefix`` runs the
    hooks (:func:`~.templates.hook_prefix`; default: ``command``). ``gateway_port``: route
    Claude Code through the gateway on that port (0: stop doing so; None: leave as is).
    """
    return _plan(scope, user_dir, project_dir, command, install=True, hook_prefix=hook_prefix,
                 gateway_port=gateway_port)


def plan_uninstall(scope: str = "user", *, user_dir: Path, project_dir: Path,
                   command: str = "artibot", hook_prefix: str | None = None) -> InstallPlan:
    """Every change ``artibot uninstall claude-code`` makes (only artibot's own entries)."""
    return _plan(scope, user_dir, project_dir, command, install=False, hook_prefix=hook_prefix)
