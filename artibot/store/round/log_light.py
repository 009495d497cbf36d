"""The learning log's entries for TAB completion, read with the hook path's light file access.

``artibot rollback <TAB>`` must answer within the 300 ms target; the regular reader
(:func:`artibot.store.round.rounds.read_learning_log`) brings the configuration, the round records
and orjson along, a good part of that target (docs/benchmarks.md, "Costs behind the code").
The common case, a current log in the environment's data home,
is read here with :mod:`artibot.hookpath.store.hookio`; anything else (another schema version, a
link, an unexpected shape, an error) goes to the regular reader, which decides as always.
"""

from __future__ import annotations

import os

from artibot.hookpath.names import LEARNING_LOG
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # `typing` itself would be a share of a TAB's time (docs/benchmarks.md)
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 1  # artibot.store.documents.CURRENT_VERSION["learning-log"]


def learning_log_entries() -> list[dict[str, Any]]:
    """The learning log's entries (rounds and rollbacks), oldest first; [] before any round."""
    try:
        root = hookio.home_root()
        root.encode("utf-8")  # a path that is not: the regular reader's sentence
        data = hookio.read_file(os.path.join(root, LEARNING_LOG))
        if data is None:
            return []
        doc = hookio.loads(data)
    except (OSError, ValueError):  # UnicodeError and HookIOError among them
        doc = None
    entries = doc.get("rounds") if isinstance(doc, dict) and doc.get("schema_version") == SCHEMA_VERSION else None
    if isinstance(entries, list) and all(isinstance(e, dict) for e in entries):
        return entries
    from artibot.store.home import Home
    from artibot.store.round.rounds import read_learning_log

    return [dict(e) for e in read_learning_log(Home.of(None))]
