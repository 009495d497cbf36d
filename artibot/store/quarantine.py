"""Moving bad copies aside into ``quarantine/`` (``doctor`` never deletes anything),
telling what a path is without following a link, and sweeping what a killed process left
behind (:func:`sweep_leftovers`).
"""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

from artibot.store.fs import DIR_MODE, FILE_MODE, ensure_dir, fsync_dir
from artibot.store.home import Home


def stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def move_aside(home: Home, path: Path) -> Path:
    """Rename ``path`` (file, link or folder; a link is never followed) into ``quarantine/``."""
    qdir = ensure_dir(home.quarantine_dir)
    base = path.relative_to(home.root).as_posix().replace("/", "__")
    target = qdir / f"{base}.{stamp()}"
    n = 1
    while os.path.lexists(target):
        n += 1
        target = qdir / f"{base}.{stamp()}.{n}"
    os.rename(path, target)
    kind = kind_of(target)
    if kind in ("file", "dir"):  # a copy kept aside is as private as the data it came from
        os.chmod(target, FILE_MODE if kind == "file" else DIR_MODE)
    fsync_dir(qdir)
    fsync_dir(path.parent)
    return target


def kind_of(path: Path) -> str | None:
    """"file", "dir", "link", "other", or None when missing."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    return "file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode) else "other"



_TEMP = re.compile(r"^\..+\.(\d+)\.(\d+)\.tmp$")
_MANIFEST = "manifest.json"


def is_dead_temp(path: Path) -> bool:
    """A temp file of ``atomic_write_bytes`` whose writer is gone (killed before its rename):
    the file it was meant to replace is intact. A live (or unknowable) writer's is not."""
    match = _TEMP.match(path.name)
    if not match:
        return False
    try:
        os.kill(int(match.group(1)), 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, ValueError):
        return False
    return False


def sweep_leftovers(home: Home) -> list[Path]:
    """Move aside what a killed process left (the learner runs this under its lock): temp files
    of dead writers anywhere in the home, and snapshot folders without a manifest (a round
    killed while taking its snapshot, before it changed anything). Returns where they went."""
    if kind_of(home.root) != "dir":
        return []
    moved = []
    for folder, dirs, files in os.walk(home.root):
        here = Path(folder)
        if here == home.quarantine_dir:
            dirs[:] = []
            continue
        for name in files:
            if is_dead_temp(here / name):
                moved.append(move_aside(home, here / name))
    if kind_of(home.snapshots_dir) == "dir":
        for snap in sorted(home.snapshots_dir.iterdir()):
            if kind_of(snap) == "dir" and kind_of(snap / _MANIFEST) is None:
                moved.append(move_aside(home, snap))
    return moved
