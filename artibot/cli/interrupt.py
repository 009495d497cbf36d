"""Ctrl-C in the CLI: raised as :class:`KeyboardInterrupt`, but never in the middle of an import.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be, and a module
interrupted while it initialises is worse than a late stop: measured on this CLI, a
Ctrl-C in the first half second (while the command's modules load) crashed the
interpreter (orjson's extension half-initialised, then imported again: a segmentation
fault), turned into a ``RuntimeError`` traceback (raised inside a class's
``__set_name__``), was swallowed, or made Python end by SIGINT instead of the exit code
130 it had returned. So while an import runs, the interrupt is kept and delivered at the
first moment none does: :data:`signal.SIGALRM` looks again every 20 ms. The CLI's
commands do not use SIGALRM themselves.
"""

from __future__ import annotations

import signal
from types import FrameType

_RECHECK_S = 0.02
_IMPORT_FILES = ("<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>")


def install() -> None:
    """Take over SIGINT in this process (the main thread only, as :mod:`signal` requires)."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return  # ignored (a background job) or someone else's: left as it is
    signal.signal(signal.SIGINT, _on_interrupt)
    signal.signal(signal.SIGALRM, _on_interrupt)


def importing(frame: FrameType | None) -> bool:
    """Whether an import is under way in the stack that ends at ``frame``."""
    while frame is not None:
        if frame.f_code.co_filename in _IMPORT_FILES:
            return True
        frame = frame.f_back
    return False


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    if importing(frame):
        signal.setitimer(signal.ITIMER_REAL, _RECHECK_S)  # a Ctrl-C is pending: look again soon
        return
    signal.setitimer(signal.ITIMER_REAL, 0)  # delivered now: nothing stays pending
    raise KeyboardInterrupt
