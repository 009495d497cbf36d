"""artibot: make an AI coding agent's System 1 / System 2 router learn from experience.

The public API is imported lazily, so that ``import artibot`` (done by every Claude Code
hook) costs nothing until a name is used::

    from artibot import collect, load_experiences, Router, learn
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: importing typing costs a hook more than its own
# work (docs/benchmarks.md, "Costs behind the code"), and `python -m artibot hook …`
# imports this file on every prompt and tool call.
TYPE_CHECKING = False

__version__ = "0.1.0"

__all__ = [
    "ArtibotError",
    "Decision",
    "Router",
    "__version__",
    "collect",
    "history",
    "learn",
    "load_experiences",
    "rollback",
    "status",
]

_LAZY = {
    "collect": ("artibot.collector", "collect"),
    "load_experiences": ("artibot.collector", "load_experiences"),
    "Router": ("artibot.learned_router", "Router"),
    "Decision": ("artibot.hookpath.router", "Decision"),
    "learn": ("artibot.round.cycle", "learn"),
    "history": ("artibot.round.rollback", "history"),
    "rollback": ("artibot.round.rollback", "rollback"),
    "status": ("artibot.reports.status", "status"),
    "ArtibotError": ("artibot.errors", "ArtibotError"),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'artibot' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # pragma: no cover
    from artibot.collector import collect, load_experiences
    from artibot.round.cycle import learn
    from artibot.errors import ArtibotError
    from artibot.round.rollback import history, rollback
    from artibot.hookpath.router import Decision
    from artibot.learned_router import Router
    from artibot.reports.status import status
