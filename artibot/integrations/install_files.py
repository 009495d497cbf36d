"""Files an install or uninstall changes, planned before anything is written, then applied.

An :class:`InstallPlan` holds every :class:`Change` (a file's bytes before and after, its
backup, its mode) that ``artibot install`` / ``uninstall`` computed for one client and
scope; ``--dry-run`` prints it (:meth:`InstallPlan.summary`, :meth:`InstallPlan.diff`) and
:func:`apply` writes it: every backup first, then each new content atomically, after
checking that no file changed since the plan was made. Shared by every client's installer
(:mod:`artibot.integrations.claude_code.installer`, :mod:`artibot.integrations.json_hooks`).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from artibot.errors import IntegrationError, UnsafePathError
from artibot.messages import Message
from artibot.store.fs import atomic_write_bytes, ensure_dir, read_bytes

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
    said: Message | None = None
    """What the change does, as a message (None: nothing to say); :attr:`note` is its English."""
    mode: int | None = None
    """File mode to write with (an existing file keeps its own)."""
    cleanup: tuple[Path, ...] = ()
    """Files deleted once the change is written (backups of a file uninstall restored)."""

    @property
    def note(self) -> str:
        """What the change does, in English (for :meth:`InstallPlan.summary`)."""
        return str(self.said) if self.said is not None else ""

    def says(self, id: str) -> bool:
        """Whether the note holds the message ``id`` (itself or among its parts)."""
        def holds(m: Message) -> bool:
            return m.id == id or any(holds(p) for v in m.params.values()
                                     for p in (v if isinstance(v, tuple) else (v,)) if isinstance(p, Message))

        return self.said is not None and holds(self.said)


def notes(*parts: Message) -> Message:
    """A change's note made of ``parts``, said in turn (joined by ``"; "``)."""
    return parts[0] if len(parts) == 1 else Message("install.parts", parts=parts)


def kept_note(hooks: Message, kept: int) -> Message:
    """What happens to artibot's hooks (``hooks``), and how many of the file's other hooks stay."""
    return Message("install.kept_one" if kept == 1 else "install.kept", change=hooks, n=kept)


@dataclass(frozen=True)
class InstallPlan:
    scope: str
    settings_path: Path
    command_path: Path
    changes: tuple[Change, ...]
    said_warnings: tuple[Message, ...] = field(default=())
    """What the user should know beside the changes, a message each; :attr:`warnings` is their English."""
    empty_dirs: tuple[Path, ...] = field(default=())
    """Directories removed after the changes if they are then empty (uninstall)."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """The warnings in English (for :meth:`summary`)."""
        return tuple(str(m) for m in self.said_warnings)

    @property
    def changed(self) -> bool:
        return any(c.action != "unchanged" for c in self.changes)

    def with_changes(self, *extra: Change) -> "InstallPlan":
        """This plan with ``extra`` changes after its own (a client's files beyond its hook file)."""
        return InstallPlan(self.scope, self.settings_path, self.command_path, self.changes + extra, self.said_warnings,
                           self.empty_dirs)

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
        import difflib  # here: `status` reads the installed gateway port through this module, never a diff

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


def real_path(path: Path) -> Path:
    """``path``, or the file it links to (we edit through a dotfiles link, not over it)."""
    if not path.is_symlink():
        return path
    target = path.resolve()
    if not target.is_file():
        raise IntegrationError(Message("installers.link_not_file", path=str(path), target=str(target)))
    return target


def read(path: Path) -> bytes | None:
    try:
        return read_bytes(path)
    except UnsafePathError as exc:
        raise IntegrationError(Message("installers.not_regular", path=str(path))) from exc
    except OSError as exc:
        raise IntegrationError(Message("installers.cannot_read", path=str(path), reason=exc.strerror or str(exc))) from exc


def mode_of(path: Path, default: int) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return new_mode(default)


def new_mode(mode: int) -> int:
    """``mode`` narrowed by the process's umask (read by setting it back at once)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mode & ~mask


def apply(plan: InstallPlan) -> None:
    """Write the plan: for each changed file, the backup first, then the new content atomically."""
    for change in plan.changes:
        if change.action == "unchanged":
            continue
        if read(change.path) != change.before:
            raise IntegrationError(Message("installers.changed_since", path=str(change.path)))
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
            mode = change.mode if change.mode is not None else new_mode(NEW_SETTINGS_MODE)
            atomic_write_bytes(change.path, change.after or b"", mode=mode)
        except OSError as exc:
            raise IntegrationError(Message("installers.cannot_write", path=str(change.path),
                                           reason=exc.strerror or str(exc))) from exc
        finally:
            _cleanup(change)
    for directory in plan.empty_dirs:
        try:
            directory.rmdir()  # only ever succeeds on an empty directory
        except OSError:
            pass  # not empty, not there, or not ours to remove: left as it is


def _cleanup(change: Change) -> None:
    if read(change.path) != change.after:
        return  # the change was not written: keep the backup
    for path in change.cleanup:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise IntegrationError(Message("installers.cannot_remove", path=str(path), reason=exc.strerror or str(exc))) from exc
