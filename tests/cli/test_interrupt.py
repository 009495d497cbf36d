"""Ctrl-C while the CLI's imports run waits for them to end, then stops the command as usual."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from artibot.cli import interrupt

# a module that takes a second to import and says whether its own body was interrupted
SLOW_MODULE = textwrap.dedent("""
    import pathlib, time
    pathlib.Path(__file__).with_name("started").touch()
    try:
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            time.sleep(0.01)
    except KeyboardInterrupt:
        print("the import was interrupted", flush=True)
        raise
    print("the import ended", flush=True)
""")

PROGRAM = textwrap.dedent("""
    import sys
    import contextlib
    from artibot.cli.interrupt import deferred
    sys.path.insert(0, sys.argv[1])
    try:
        with {guard}:
            import slow_module
        import time
        time.sleep(30)
    except KeyboardInterrupt:
        print("interrupted after the import", flush=True)
        sys.exit(130)
""")


def _interrupt_during_import(tmp_path: Path, *, install: bool) -> tuple[int, str]:
    (tmp_path / "slow_module.py").write_text(SLOW_MODULE)
    code = PROGRAM.format(guard="deferred()" if install else "contextlib.nullcontext()")
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # well inside the module's one second
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    return proc.returncode, out


def test_a_ctrl_c_during_an_import_is_delivered_when_the_import_ends(tmp_path: Path) -> None:
    code, out = _interrupt_during_import(tmp_path, install=True)
    assert (code, out.splitlines()) == (130, ["the import ended", "interrupted after the import"])


def test_without_it_the_import_is_cut_in_the_middle(tmp_path: Path) -> None:
    """The check above can fail: Python's own handler stops the module half-run."""
    code, out = _interrupt_during_import(tmp_path, install=False)
    assert out.splitlines() == ["the import was interrupted", "interrupted after the import"] and code == 130


def test_after_the_block_python_s_own_handler_is_back_and_nothing_is_left_pending() -> None:
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    try:
        with interrupt.deferred():
            assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt):
            with interrupt.deferred():
                with interrupt.deferred():  # nested: the outer block raises it
                    signal.raise_signal(signal.SIGINT)
                    inner_done = True
                assert inner_done
        with interrupt.deferred():
            pass  # the interrupt above was raised once, not kept for the next block
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)


def test_an_ignored_sigint_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupt.deferred():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
