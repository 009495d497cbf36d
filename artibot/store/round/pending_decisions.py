"""Decisions recorded by ``artibot route --record``, waiting for ``artibot outcome``.

One small file per decision in ``pending/``; ``outcome`` turns it into an experience and
moves the file into ``pending/done/`` (kept, never deleted).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Mapping

from artibot.errors import NotFoundError
from artibot.messages import Message
from artibot.store.documents import read_document, write_document
from artibot.store.fs import ensure_dir
from artibot.store.home import Home

_ID = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")


def _path(home: Home, decision_id: str) -> Path:
    if not _ID.match(decision_id):
        raise NotFoundError(Message("decision.bad_id", id=repr(decision_id)))
    return home.pending_dir / f"{decision_id}.json"


def save(home: Home, decision_id: str, doc: Mapping[str, Any]) -> Path:
    home.ensure()
    ensure_dir(home.pending_dir)
    path = _path(home, decision_id)
    write_document(path, doc, "pending-decision")
    return path


def load(home: Home, decision_id: str) -> dict[str, Any]:
    path = _path(home, decision_id)
    doc = read_document(path, "pending-decision")
    if doc is None:
        done = home.pending_dir / "done" / path.name
        if done.exists():
            raise NotFoundError(Message("decision.done", id=decision_id))
        raise NotFoundError(Message("decision.missing", id=decision_id, folder=str(home.pending_dir),
                                    command="artibot route TEXT --record"))
    return doc


def close(home: Home, decision_id: str) -> None:
    path = _path(home, decision_id)
    done = ensure_dir(home.pending_dir / "done")
    os.replace(path, done / path.name)
