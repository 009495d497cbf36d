"""Session spools as the tests inspect them: the hooks' own ``hookio.Spool`` with ``Path``s."""

from __future__ import annotations

from pathlib import Path

from artibot.hookpath.store import hookio
from artibot.store.home import Home


class SpoolView:
    """Read-only view of one session's spool (the hooks write it through ``hookio``)."""

    def __init__(self, home: Home | Path, session_id: str | None):
        self._spool = hookio.Spool(str(home.root if isinstance(home, Home) else home), session_id)
        self.path = Path(self._spool.path)
        self.lock_path = Path(self._spool.lock_path)

    def exists(self) -> bool:
        return self._spool.exists()

    def read(self) -> dict | None:
        return self._spool.read()
