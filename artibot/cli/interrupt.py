"""Ctrl-C in the CLI never lands in the middle of an import (:mod:`artibot.interrupts` says why).

The CLI loads itself and each command's modules under :class:`deferred`.
"""

from __future__ import annotations

from artibot.interrupts import deferred as deferred


def load_learning() -> None:
    """Import the learning modules that load scipy now, under :class:`deferred`: for a command
    sure to run rounds (the demo), whose first round would otherwise import them mid-run."""
    with deferred():
        from artibot.learning import bandit, drift, posterior  # noqa: F401
