"""What SessionStart tells the user besides the route: rounds measured worse, a pending review.

Kept apart from :mod:`.handlers` because measuring applied rounds needs the learner's
numpy; here it runs at most once per change of the learning log (see
:func:`worse_rounds`).
"""

from __future__ import annotations

from artibot.hookpath.names import LEARNING_LOG
from artibot.hookpath.names import ROUND_NOTICES as NOTICES_NAME
from artibot.hookpath.store import hook_reads
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: imported by SessionStart
if TYPE_CHECKING:
    from artibot.hookpath.turns.protocol import Call
    from artibot.store.home import Home


def worse_rounds(call: Call) -> list[str]:
    """Applied rounds measured worse, for the user.

    Measuring them reads the log and the archive with numpy behind it (many times the bare
    interpreter at SessionStart: docs/benchmarks.md, "Costs behind the code"). So they are
    measured once per change of the learning
    log — by the detached learner right after its run (:func:`save_round_notices`), or
    here when a round was applied another way — and read from ``sessions/`` otherwise.
    """
    changed = hook_reads.mtime_ns(f"{call.root}/{LEARNING_LOG}")
    if changed is None:
        return []  # no round yet: nothing to measure
    measured = hook_reads.mtime_ns(f"{call.root}/sessions/{NOTICES_NAME}")
    if measured is None or measured < changed:
        return save_round_notices(call)
    try:
        doc = hookio.loads(hookio.read_cache(call.root, NOTICES_NAME) or b"{}")
    except (ValueError, UnicodeDecodeError):
        return save_round_notices(call)  # a damaged cache is measured again, never trusted
    notes = doc.get("notices") if isinstance(doc, dict) else None
    return [n for n in notes if isinstance(n, str)] if isinstance(notes, list) else []


def save_round_notices(call: Call) -> list[str]:
    """Measure the applied rounds and keep the notices for the next SessionStart."""
    return save_notices(call.root, call.home())


def save_notices(root: str, home: "Home") -> list[str]:
    """:func:`save_round_notices` for the data home at ``root`` (the unattended learner runs it
    after its round, so the next SessionStart reads them instead of measuring)."""
    if hook_reads.mtime_ns(f"{root}/{LEARNING_LOG}") is None:
        return []
    from artibot.config import load_settings
    from artibot.round.checks import notices

    found = notices(home, load_settings(home.root))
    hookio.write_cache(root, NOTICES_NAME, hookio.dumps({"schema_version": 1, "notices": found}).encode("ascii"))
    return found


def pending_review(call: Call) -> bool:
    return hook_reads.review_waiting(call.root)
