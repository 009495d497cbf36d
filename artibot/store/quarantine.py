"""Moving bad copies aside into ``quarantine/`` (``doctor`` never deletes anything), and
telling what a path is without following a link.
"""

from __future__ import annotations

import os
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

