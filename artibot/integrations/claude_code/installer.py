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
* before a file is changed its previous content is saved beside it as
  ``<name>.artibot-backup`` (mode 0600; it holds the state before artibot's latest change);
* an existing file keeps its mode, indentation and final newline; a new settings file
  is 0644 with a 2-space indent, as Claude Code writes it;
* a symbolic link (a dotfiles setup) is followed and its target edited in place;
* ``apply`` re-reads each file and refuses to write if it changed since planning.

Uninstall removes exactly the handlers install adds, then any matcher group, event list
or ``hooks`` object that removal left empty, so install + uninstall gives back the
original bytes of a file in this format. It leaves nothing install made:

* a settings file left as ``{}`` is removed unless its backup shows the user had one
  (install created it);
* the ``.artibot-backup`` of a settings file is removed once the file is restored
  (uninstall itself writes no backup: what it removes is only ever ours);
* ``commands/`` (and a project's ``.claude/``) left empty are removed.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from artibot.errors import ArtibotError, IntegrationError, InvalidInput, UnsafePathError
from artibot.integrations.claude_code.settings_merge import (
    Style, detect_style, dump_settings, handlers_of, is_ours, merge_env, merge_hooks, parse_settings,
)
from artibot.integrations.claude_code.templates import check_command_prefix, is_artibot_learn, render_learn
from artibot.store.fs import atomic_write_bytes, ensure_dir, read_bytes

SCOPES = ("user", "project", "local")
BACKUP_SUFFIX = ".artibot-backup"
NEW_SETTINGS_MODE = 0o644
NEW_COMMAND_MODE = 0o644
"""At most: a file created outside the data home also honours the user's umask (077 gives
0600), as any other program's would; an existing file keeps its own mode."""
BACKUP_MODE = 0o600  # settings can hold tokens in "env"


@dataclass(frozen=True)
class Change:
    path: Path
    action: str
    """``create`` | ``update`` | ``unchanged`` | ``remove``."""
    before: bytes | None
    after: bytes | None
    backup: Path | None
    """Where ``before`` is saved when the change is applied (None: no backup)."""
    note: str = ""
    """What the change does, in words (for :meth:`InstallPlan.summary`)."""
    mode: int | None = None
    """File mode to write with (an existing file keeps its own)."""
    cleanup: tuple[Path, ...] = ()
    """Files deleted once the change is written (backups of a file uninstall restored)."""


@dataclass(frozen=True)
class InstallPlan:
    scope: str
    settings_path: Path
    command_path: Path
    changes: tuple[Change, ...]
    warnings: tuple[str, ...] = field(default=())
    empty_dirs: tuple[Path, ...] = field(default=())
    """Directories removed after the changes if they are then empty (uninstall)."""

    @property
    def changed(self) -> bool:
        return any(c.action != "unchanged" for c in self.changes)

    def summary(self) -> list[str]:
        lines = []
        for c in self.changes:
            line = f"{c.action} {c.path}"
            if c.note:
                line += f": {c.note}"
            if c.backup is not None:
                line += f" (backup: {c.backup.name})"
            for gone in c.cleanup:
                line += f"; remove {gone.name}"
            lines.append(line)
        return lines + [f"warning: {w}" for w in self.warnings]

    def diff(self) -> str:
        """A unified diff of every change (what ``--dry-run`` shows)."""
        out: list[str] = []
        for c in self.changes:
            if c.action == "unchanged":
                continue
            old = _lines(c.before)
            new = _lines(c.after)
            out.extend(difflib.unified_diff(
                old, new,
                fromfile=str(c.path) if c.before is not None else "/dev/null",
                tofile=str(c.path) if c.after is not None else "/dev/null",
            ))
        return "".join(out)


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    lines = data.decode("utf-8", errors="replace").splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


# ---------------------------------------------------------------------------
# Paths


def _check_scope(scope: str) -> None:
    if scope not in SCOPES:
        raise InvalidInput(f"unknown scope {scope!r}; use one of: {', '.join(SCOPES)}")


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


def _real(path: Path) -> Path:
    """``path``, or the file it links to (we edit through a dotfiles link, not over it)."""
    if not path.is_symlink():
        return path
    target = path.resolve()
    if not target.is_file():
        raise IntegrationError(
            f"{path} is a symbolic link to {target}, which is not a regular file; "
            "fix the link, then run the command again"
        )
    return target


def _read(path: Path) -> bytes | None:
    try:
        return read_bytes(path)
    except UnsafePathError as exc:
        raise IntegrationError(f"{path} is not a regular file; move it aside, then run the command again") from exc
    except OSError as exc:
        raise IntegrationError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _mode_of(path: Path, default: int) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return _new_mode(default)


def _new_mode(mode: int) -> int:
    """``mode`` narrowed by the process's umask (read by setting it back at once)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mode & ~mask


# ---------------------------------------------------------------------------
# settings.json (parsing and merging: settings_merge)


def _settings_change(path: Path, command: str, *, install: bool, gateway_port: int | None = None) -> Change:
    real = _real(path)
    before = _read(real)
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
        note = "artibot hooks already installed" if install else "no artibot hooks found"
        if before is None:
            note = "no settings file"
        return Change(real, "unchanged", before, before, None, note)
    if not count.added and not count.removed and env_note:
        count_note = env_note
        if install:
            backup = real.with_name(real.name + BACKUP_SUFFIX) if before is not None else None
            return Change(real, "create" if before is None else "update", before, after, backup, count_note,
                          _mode_of(real, NEW_SETTINGS_MODE))
    old = sorted({c for c in count.removed if c})
    replaced = [c for c in old if not c.startswith(command + " hook ")]
    if install:
        note = f"add {count.added} artibot hooks"
        if replaced:
            note += f", replacing {len(count.removed)} from an earlier install"
    else:
        note = f"remove {len(count.removed)} artibot hooks"
    note += f" ({count.kept} other hook{'' if count.kept == 1 else 's'} kept)"
    if env_note:
        note += f"; {env_note}"
    if before is not None and before.strip() and dump_settings(data, style) != before:
        note += "; the file is re-serialised, see the diff"
    if install:
        action = "create" if before is None else "update"
        backup = real.with_name(real.name + BACKUP_SUFFIX) if before is not None else None
        return Change(real, action, before, after, backup, note, _mode_of(real, NEW_SETTINGS_MODE))
    old_backup = real.with_name(real.name + BACKUP_SUFFIX)
    cleanup = (old_backup,) if _read(old_backup) is not None else ()
    if merged == {} and _install_created(old_backup, command):
        return Change(real, "remove", before, None, None, note + "; nothing else in it, artibot created it",
                      cleanup=cleanup)
    return Change(real, "update", before, after, None, note, _mode_of(real, NEW_SETTINGS_MODE), cleanup=cleanup)


def _env_note(before: object, after: object) -> str:
    """The gateway's ``env`` change, in words ("" when there is none)."""
    from artibot.integrations.claude_code.settings_merge import BASE_URL_KEY, GATEWAY_PORT_KEY

    old = before.get(GATEWAY_PORT_KEY) if isinstance(before, dict) else None
    new = after.get(GATEWAY_PORT_KEY) if isinstance(after, dict) else None
    if old == new:
        return ""
    if new is None:
        return f"Claude Code no longer goes through the artibot gateway (port {old})"
    return f"Claude Code goes through the artibot gateway: env {BASE_URL_KEY}=http://127.0.0.1:{new}"


def _install_created(backup: Path, command: str) -> bool:
    """Whether install created a settings file: no backup of a user's version exists, or the
    backup holds nothing but an earlier install's hooks (a re-install over its own file)."""
    data = _read(backup)
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
    real = _real(path)
    before = _read(real)
    backup = None
    if before is not None and not _pristine(before):
        backup = real.with_name(real.name + BACKUP_SUFFIX)
    if install:
        after = render_learn(command)
        if before is not None and not is_artibot_learn(before):
            raise IntegrationError(
                f"{real} exists and is not artibot's /learn command (it lacks the "
                "<!-- artibot:learn --> line); artibot will not overwrite it. Rename or "
                "move it, then run the command again."
            )
        if before == after:
            return Change(real, "unchanged", before, before, None, "/learn command up to date")
        if before is None:
            return Change(real, "create", None, after, None, "the /learn command", _new_mode(NEW_COMMAND_MODE))
        return Change(real, "update", before, after, backup, "new version of the /learn command",
                      _mode_of(real, NEW_COMMAND_MODE))
    if before is None:
        return Change(real, "unchanged", None, None, None, "no /learn command")
    if not is_artibot_learn(before):
        return Change(real, "unchanged", before, before, None, "not artibot's /learn command; left alone")
    return Change(real, "remove", before, None, backup, "the /learn command")


# ---------------------------------------------------------------------------
# Public API


def _other_scope_warnings(scope: str, *, user_dir: Path, project_dir: Path, command: str) -> tuple[str, ...]:
    """Hooks registered in two scopes both run, unless their commands are identical."""
    warnings = []
    mine = settings_path_for(scope, user_dir=user_dir, project_dir=project_dir).resolve()
    for other in SCOPES:
        path = settings_path_for(other, user_dir=user_dir, project_dir=project_dir)
        if other == scope or path.resolve() == mine:  # project scope run from ~ is the user file
            continue
        try:
            data = parse_settings(path, _read(_real(path)))
        except (ArtibotError, OSError):
            continue  # a warning only; that file is not the one being edited
        found = [h.get("command") for groups in (data.get("hooks") or {}).values()
                 for g in groups for h in (handlers_of(g) or []) if is_ours(h, command)]
        if found:
            warnings.append(
                f"{path} also registers artibot hooks ({other} scope); experiences may be "
                f"recorded twice. Run `artibot uninstall claude-code --scope {other}` if you "
                "want only this one."
            )
    return tuple(warnings)


def _plan(scope: str, user_dir: Path, project_dir: Path, command: str, *, install: bool,
          hook_prefix: str | None = None, gateway_port: int | None = None) -> InstallPlan:
    _check_scope(scope)
    check_command_prefix(command)
    hooks_by = hook_prefix or command
    check_command_prefix(hooks_by)
    if scope != "user" and not Path(project_dir).is_dir():
        raise IntegrationError(f"the project directory {project_dir} does not exist")
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


def apply(plan: InstallPlan) -> None:
    """Write the plan: for each changed file, the backup first, then the new content atomically."""
    for change in plan.changes:
        if change.action == "unchanged":
            continue
        if _read(change.path) != change.before:
            raise IntegrationError(
                f"{change.path} changed since the plan was made; nothing more was written. "
                "Run the command again."
            )
    for change in plan.changes:
        if change.action == "unchanged":
            continue
        try:
            if change.backup is not None and change.before is not None:
                atomic_write_bytes(change.backup, change.before, mode=BACKUP_MODE)
            if change.action == "remove":
                os.unlink(change.path)
                continue
            if not change.path.parent.is_dir():
                ensure_dir(change.path.parent)
            mode = change.mode if change.mode is not None else _new_mode(NEW_SETTINGS_MODE)
            atomic_write_bytes(change.path, change.after or b"", mode=mode)
        except OSError as exc:
            raise IntegrationError(f"cannot write {change.path}: {exc.strerror or exc}") from exc
        finally:
            _cleanup(change)
    for directory in plan.empty_dirs:
        try:
            directory.rmdir()  # only ever succeeds on an empty directory
        except OSError:
            pass  # not empty, not there, or not ours to remove: left as it is


def _cleanup(change: Change) -> None:
    if _read(change.path) != change.after:
        return  # the change was not written: keep the backup
    for path in change.cleanup:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise IntegrationError(f"cannot remove {path}: {exc.strerror or exc}") from exc
