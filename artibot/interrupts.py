"""Ctrl-C never lands in the middle of an import.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be, and a module
interrupted while it initialises is worse than a late stop: measured on this CLI, a
Ctrl-C while the command's modules loaded crashed the interpreter (orjson's extension
half-initialised, then imported again: a segmentation fault), turned into a
``RuntimeError`` traceback (raised inside a class's ``__set_name__``), or made Python end
by SIGINT instead of the exit code 130 it had returned (an interrupt that passed through
an extension module's start-up code). So imports that can take long run under
:class:`deferred`: a Ctrl-C there is kept and raised the moment they end. The CLI loads its
command modules so; a round loads its arithmetic (numpy, scipy) so, when it first needs it
(:func:`artibot.round.cycle.load_round_modules`), since a command with nothing to compute never
loads it at all.

Only imports: everywhere else the interpreter's own handler is in place, so a Ctrl-C at
a prompt or in a long computation stops the command at once, as in any Python program.
Outside the main thread (a library caller's worker) nothing changes: signals go to the
main thread only.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType


class deferred:
    """``with deferred():`` — a Ctrl-C inside is raised when the block ends (nested: at the outermost)."""

    _kept = False

    def __enter__(self) -> deferred:
        # not when ignored (a background job) or someone else's handler, nor off the main thread
        self.owner = (threading.current_thread() is threading.main_thread()
                      and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        if self.owner:
            deferred._kept = False
            signal.signal(signal.SIGINT, _keep)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if not self.owner:
            return
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if deferred._kept and kind is None:
            deferred._kept = False
            raise KeyboardInterrupt


def _keep(signum: int, frame: FrameType | None) -> None:
    deferred._kept = True
