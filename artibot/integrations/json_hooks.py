"""Install artibot's hooks into another client's JSON hook file, and remove them.

Gemini CLI (``settings.json``), Codex CLI (``hooks.json``) and Cursor (``hooks.json``)
each keep a ``hooks`` object mapping an event name to a list. Gemini CLI and Codex
CLI take Claude Code's matcher groups (``{"matcher"?, "hooks": [{"type": "command",
"command", "timeout"}]}``); Cursor takes plain entries (``{"command"}``). A
:class:`HookFile` says which, and the rules are the Claude Code installer's (its
:class:`~.claude_code.installer.InstallPlan`, backups and ``apply`` are used as they are):

* artibot's entries go at the end of each event's list; other keys and other tools'
  hooks keep their content and order; a second install changes nothing;
* our entries are recognised by their command (``… hook <agent> <Event>``), so an
  install with another interpreter replaces the old ones;
* a file that does not parse, or whose ``hooks`` is not an object of lists, is refused;
* uninstall removes only our entries, then whatever their removal left empty, and the
  file itself when install created it and nothing else is left in it (keys the client
  needs in a new file, such as Cursor's ``"version": 1``, count as ours then).

A client with a ``/learn`` equivalent (:class:`LearnFile`: Gemini CLI's custom command,
Codex CLI's skill) gets that file too, by the rules of Claude Code's ``learn.md``: it is
artibot's only while it has the ``<!-- artibot:learn -->`` line, a file without it is
never overwritten or removed, and a file the user edited is backed up before it changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from artibot.errors import ArtibotError, IntegrationError, InvalidInput
from artibot.integrations.install_files import (
    BACKUP_SUFFIX, NEW_COMMAND_MODE, NEW_SETTINGS_MODE, Change, InstallPlan, kept_note, mode_of, new_mode, notes, read,
    real_path,
)
from artibot.messages import Message
from artibot.integrations.claude_code.settings_merge import Style, detect_style, dump_settings, parse_settings
from artibot.integrations.claude_code.templates import check_command_prefix, is_artibot_learn, render_learn

SCOPES = ("user", "project")


@dataclass(frozen=True)
class Hook:
    event: str
    """The client's event name (the key under ``hooks``, and the argument of ``artibot hook AGENT``)."""
    timeout: int | None = None
    """In the client's unit (Gemini CLI: milliseconds; Codex CLI: seconds); None: not written."""
    matcher: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    """Variables the client sets for this hook (Gemini CLI's per-hook ``env``)."""


@dataclass(frozen=True)
class LearnFile:
    """A client's ``/learn`` equivalent: a shipped template, written with the CLI command in it."""
    template: str
    """Its path under the shipped ``config/`` folder."""
    user_path: Path
    project_path: Path
    prepare: str
    """A regular expression whose group 1 is the command in a rendered file (to recognise an untouched one)."""
    name: str
    """How the user invokes it (for messages): ``/learn``, ``$learn``."""

    def path(self, scope: str) -> Path:
        return self.user_path if scope == "user" else self.project_path

    def text(self) -> str:
        from artibot.config import shipped_config_dir

        path = shipped_config_dir() / self.template
        data = read(path)
        if data is None:
            raise IntegrationError(Message("installers.template_missing_named", name=self.name, path=str(path)))
        return data.decode("utf-8")

    def pristine(self, data: bytes, template: str) -> bool:
        """Whether ``data`` is exactly a rendering of ``template`` (for any command): nothing to back up."""
        found = re.search(self.prepare.encode(), data)
        try:
            return found is not None and render_learn(found.group(1).decode("utf-8"), template) == data
        except (ArtibotError, UnicodeDecodeError):
            return False


@dataclass(frozen=True)
class HookFile:
    agent: str
    """``gemini-cli``, ``codex-cli`` or ``cursor``."""
    client: str
    """The client's name as the user knows it (for messages)."""
    user_path: Path
    project_path: Path
    hooks: tuple[Hook, ...]
    grouped: bool
    """Matcher groups (Gemini CLI, Codex CLI) or plain entries (Cursor)."""
    new_file_keys: dict[str, Any] = field(default_factory=dict)
    """Top-level keys a new file needs (Cursor: ``{"version": 1}``)."""
    named: bool = False
    """Give each entry a ``name`` (Gemini CLI shows and toggles hooks by name)."""
    restart_hint: Message | None = None
    """What to do for the client to load the hooks (said after an install)."""
    learn: LearnFile | None = None
    """The client's ``/learn`` equivalent, when it has one."""

    def path(self, scope: str) -> Path:
        if scope not in SCOPES:
            raise InvalidInput(Message("installers.unknown_scope_for", scope=repr(scope), agent=self.agent,
                                       scopes=", ".join(SCOPES)))
        return self.user_path if scope == "user" else self.project_path

    def command(self, prefix: str, hook: Hook) -> str:
        return f"{prefix} hook {self.agent} {hook.event}"

    def is_ours(self, command: object) -> bool:
        """A command artibot installed for this client, with any interpreter or earlier prefix."""
        return (isinstance(command, str) and "artibot" in command
                and re.search(rf"\shook\s+{re.escape(self.agent)}\s+[A-Za-z_]+\s*$", command) is not None)

    def entry(self, prefix: str, hook: Hook) -> dict[str, Any]:
        handler: dict[str, Any] = {}
        if self.grouped:
            handler["type"] = "command"
        if self.named:
            handler["name"] = f"artibot-{hook.event}"
        handler["command"] = self.command(prefix, hook)
        if hook.timeout is not None:
            handler["timeout"] = hook.timeout
        if hook.env:
            handler["env"] = dict(hook.env)
        if not self.grouped:
            return handler
        group: dict[str, Any] = {"matcher": hook.matcher} if hook.matcher is not None else {}
        group["hooks"] = [handler]
        return group


def _check(path: Path, data: dict[str, Any]) -> None:
    for event, entries in (data.get("hooks") or {}).items():
        if not isinstance(entries, list):
            raise IntegrationError(Message("installers.event_not_list", path=str(path), event=str(event),
                                           type=type(entries).__name__))


def _without_ours(spec: HookFile, entries: list[Any]) -> tuple[list[Any], int, int]:
    """``entries`` without our handlers (a group we emptied goes), how many went, how many stayed."""
    out, removed, kept = [], 0, 0
    for entry in entries:
        if not spec.grouped:
            if isinstance(entry, dict) and spec.is_ours(entry.get("command")):
                removed += 1
            else:
                out.append(entry)
                kept += 1
            continue
        handlers = entry.get("hooks") if isinstance(entry, dict) else None
        if not isinstance(handlers, list):
            out.append(entry)
            continue
        keep = [h for h in handlers if not (isinstance(h, dict) and spec.is_ours(h.get("command")))]
        removed += len(handlers) - len(keep)
        kept += len(keep)
        if len(keep) == len(handlers):
            out.append(entry)
        elif keep:
            out.append({**entry, "hooks": keep})
    return out, removed, kept


def merge(spec: HookFile, data: dict[str, Any], prefix: str, *, install: bool) -> tuple[dict[str, Any], int, int, int]:
    """``(new data, added, removed, kept)``; ``data`` is not mutated."""
    wanted = {h.event: spec.entry(prefix, h) for h in spec.hooks} if install else {}
    hooks_in = data.get("hooks") or {}
    hooks: dict[str, list[Any]] = {}
    added = removed = kept = 0
    for event, entries in hooks_in.items():
        target = wanted.pop(event, None)
        rest, gone, stayed = _without_ours(spec, entries)
        kept += stayed
        if target is not None and gone == 1 and entries and entries[-1] == target and rest == entries[:-1]:
            hooks[event] = entries  # already installed exactly as we would
            continue
        removed += gone
        if target is not None:
            rest.append(target)
            added += 1
        if rest or not gone:
            hooks[event] = rest
    for event, target in wanted.items():
        hooks[event] = [target]
        added += 1
    out = dict(data)
    if install and not data:
        out.update(spec.new_file_keys)
    if hooks or ("hooks" in data and not removed):
        out["hooks"] = hooks
    else:
        out.pop("hooks", None)
    return out, added, removed, kept


def _created_by_install(spec: HookFile, path: Path, merged: dict[str, Any], prefix: str) -> bool:
    """Whether uninstall leaves only what install put in a file it created."""
    if any(k not in spec.new_file_keys or merged[k] != spec.new_file_keys[k] for k in merged):
        return False
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    data = read(backup)
    if data is None:
        return True
    try:
        before = parse_settings(backup, data)
        stripped, _, removed, _ = merge(spec, before, prefix, install=False)
    except ArtibotError:
        return False
    return bool(removed) and all(k in spec.new_file_keys for k in stripped)


def _parses_to(path: Path, data: bytes, value: dict[str, Any]) -> bool:
    try:
        return parse_settings(path, data) == value
    except ArtibotError:
        return False


def file_change(spec: HookFile, path: Path, prefix: str, *, install: bool) -> Change:
    real = real_path(path)
    before = read(real)
    data = parse_settings(real, before)
    _check(real, data)
    merged, added, removed, kept = merge(spec, data, prefix, install=install)
    style = detect_style(before) if before and before.strip() else Style()
    if merged == data or (before is None and not install):
        said = Message(("install.hooks_present" if install else "install.hooks_absent") if before is not None
                       else "install.no_hook_file")
        return Change(real, "unchanged", before, before, None, said)
    after = dump_settings(merged, style)
    if install:
        hooks = (Message("install.add_replacing", n=added, old=removed) if removed else
                 Message("install.add", n=added))
        backup = real.with_name(real.name + BACKUP_SUFFIX) if before is not None else None
        return Change(real, "create" if before is None else "update", before, after, backup, kept_note(hooks, kept),
                      mode_of(real, NEW_SETTINGS_MODE))
    note = kept_note(Message("install.remove", n=removed), kept)
    old_backup = real.with_name(real.name + BACKUP_SUFFIX)
    cleanup = (old_backup,) if read(old_backup) is not None else ()
    if _created_by_install(spec, real, merged, prefix):
        return Change(real, "remove", before, None, None, notes(note, Message("install.created_only")),
                      cleanup=cleanup)
    saved = read(old_backup)
    if saved is not None and _parses_to(old_backup, saved, merged):
        after = saved  # the user's own bytes, layout and all, not a re-serialisation
    return Change(real, "update", before, after, None, note, mode_of(real, NEW_SETTINGS_MODE), cleanup=cleanup)


def learn_change(learn: LearnFile, path: Path, command: str, *, install: bool) -> Change:
    """The change to the client's ``/learn`` file at ``path`` (see the module docstring)."""
    real = real_path(path)
    before = read(real)
    template = learn.text()
    backup = None
    if before is not None and not learn.pristine(before, template):
        backup = real.with_name(real.name + BACKUP_SUFFIX)
    if install:
        after = render_learn(command, template)
        if before is not None and not is_artibot_learn(before):
            raise IntegrationError(Message("installers.learn_foreign_named", path=str(real), name=learn.name))
        if before == after:
            return Change(real, "unchanged", before, before, None, Message("install.learn_current", command=learn.name))
        if before is None:
            return Change(real, "create", None, after, None, Message("install.learn", command=learn.name),
                          new_mode(NEW_COMMAND_MODE))
        return Change(real, "update", before, after, backup, Message("install.learn_new", command=learn.name),
                      mode_of(real, NEW_COMMAND_MODE))
    if before is None:
        return Change(real, "unchanged", None, None, None, Message("install.learn_none", command=learn.name))
    if not is_artibot_learn(before):
        return Change(real, "unchanged", before, before, None, Message("install.learn_foreign", command=learn.name))
    return Change(real, "remove", before, None, backup, Message("install.learn", command=learn.name))


def plan(spec: HookFile, scope: str, prefix: str, *, install: bool, command: str = "artibot",
         project_dir: Path | None = None) -> InstallPlan:
    """Every change ``artibot install|uninstall <agent>`` makes; raises before anything is written.

    ``prefix`` runs the hooks; ``command`` runs the CLI (the ``/learn`` file calls it);
    ``project_dir``: the project a project-scope install edits (its client folder goes if
    uninstall empties it).
    """
    check_command_prefix(prefix)
    check_command_prefix(command)
    path = spec.path(scope)
    if scope == "project" and project_dir is not None and not project_dir.is_dir():
        raise IntegrationError(Message("installers.no_project_dir", path=str(project_dir)))
    extra: tuple[Change, ...] = ()
    if spec.learn is not None:
        extra = (learn_change(spec.learn, spec.learn.path(scope), command, install=install),)
    changes = (file_change(spec, path, prefix, install=install),) + extra
    empty_dirs: tuple[Path, ...] = ()
    if not install:
        dirs: list[Path] = []
        for change in extra:  # commands/ (Gemini CLI), skills/learn/ then skills/ (Codex CLI)
            folder = change.path.parent
            while folder != path.parent and path.parent in folder.parents:
                dirs.append(folder)
                folder = folder.parent
        if scope == "project":
            dirs.append(path.parent)  # the project's client folder, if only ours was in it
        empty_dirs = tuple(dirs)
    return InstallPlan(scope, path, extra[0].path if extra else path, changes, (), empty_dirs)
