"""Files artibot writes outside the data home when asked to (``artibot report --out FILE``).

Written atomically (a reader sees the old page or the new one), 0600 like every file of
the data home: a report names the home and shows the learned state.
"""

from __future__ import annotations

from pathlib import Path

from artibot.errors import StoreError
from artibot.messages import Message
from artibot.store.fs import atomic_write_bytes


def write_export(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` (its folder must exist); every OSError becomes a sentence."""
    target = Path(path).expanduser().resolve()
    if not target.parent.is_dir():
        raise StoreError(Message("export.no_folder", path=str(target), folder=str(target.parent)))
    try:
        atomic_write_bytes(target, data, durable=False)
    except OSError as exc:
        raise StoreError.from_os(exc, target) from None
    return target
