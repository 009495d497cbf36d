"""``thresholds.json``: the learned routing thresholds, read as one :class:`Thresholds`.

The only reader of the file: the cycle, the router (on the hook path) and ``artibot
status`` all get a ``Thresholds`` from here, or the configured default when nothing was
learned yet. A file that exists but is damaged raises CorruptFileError and is left alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artibot.errors import CorruptFileError, problem_of
from artibot.hookpath.router.thresholds import Thresholds
from artibot.store.documents import read_document, write_document
from artibot.store.home import Home

if TYPE_CHECKING:
    from artibot.store.round.commit import RoundCommit

KIND = "thresholds"


def _check(doc: dict[str, Any]) -> str | None:
    try:
        Thresholds.from_json(doc)
    except ValueError as exc:
        return str(exc)
    return None


def read_document_checked(home: Home) -> dict[str, Any] | None:
    """The file as stored (with its bookkeeping fields), checked by the one decoder: what the
    doctor verifies and a migration test inspects. Everyone else reads :func:`read_thresholds`."""
    return read_document(home.thresholds, KIND, require=_check)


def read_thresholds(home: Home) -> Thresholds | None:
    """The learned thresholds, or None before the first applied round."""
    doc = read_document(home.thresholds, KIND)
    if doc is None:
        return None
    try:
        return Thresholds.from_json(doc)
    except ValueError as exc:
        raise CorruptFileError(home.thresholds, problem_of(exc)) from None


def load_thresholds(home: Home, default: float) -> Thresholds:
    """The learned thresholds, or ``default`` for every domain when nothing was learned yet."""
    return read_thresholds(home) or Thresholds(default, {})


def write_thresholds(home: Home, thresholds: Thresholds, *, updated: str, round_id: str,
                     into: RoundCommit | None = None) -> None:
    """Write the thresholds a round learned (``into``: staged in the round's commit)."""
    home.ensure()
    write_document(home.thresholds, {**thresholds.to_json(), "updated": updated, "round_id": round_id}, KIND,
                   into=into)
