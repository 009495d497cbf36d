"""``snapshots/.rollback-in-progress.json``: the plan of a rollback, written before its first
step and removed after its last, so that a rollback killed at any instant is finished by
the next ``artibot learn`` or ``artibot rollback`` (see ``artibot.round.rollback``).

Each step of the plan can run again safely: state files are rewritten from the snapshot,
an archive already restored is no longer live (``archive``), a manifest is re-marked, and
the learning log gets the rollback's entry only if it lacks one with the plan's id.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

import orjson

from artibot.errors import CorruptFileError, StoreError
from artibot.store.fs import atomic_write_bytes, ensure_dir, fsync_dir, read_bytes
from artibot.store.home import Home

NAME = ".rollback-in-progress.json"


def write(home: Home, plan: Mapping[str, Any]) -> None:
    ensure_dir(home.snapshots_dir)
    atomic_write_bytes(home.snapshots_dir / NAME, orjson.dumps(dict(plan)))


def read(home: Home) -> dict[str, Any] | None:
    """The plan of an unfinished rollback, or None."""
    path = home.snapshots_dir / NAME
    raw = read_bytes(path)
    if raw is None:
        return None
    try:
        plan = orjson.loads(raw)
        if not (isinstance(plan, dict) and isinstance(plan.get("rounds"), list) and plan["rounds"]):
            raise ValueError
    except (orjson.JSONDecodeError, ValueError):
        raise CorruptFileError(path, "unreadable plan of an interrupted rollback; move it aside and run "
                               "`artibot rollback <round>` again") from None
    return plan


def clear(home: Home) -> None:
    path = home.snapshots_dir / NAME
    try:
        os.unlink(path)
        fsync_dir(home.snapshots_dir)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError.from_os(exc, path, "remove") from None
