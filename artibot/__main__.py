"""``python -m artibot`` and the ``artibot`` console script.

``artibot hook EVENT`` (Claude Code) and ``artibot hook AGENT EVENT`` (the other clients
:mod:`artibot.hookpath.clients` lists) are dispatched here, to the client's own entry
point, before the CLI framework is imported: hooks run on
every prompt and tool call, and typer and rich alone take several times a hook's whole run to
import (docs/benchmarks.md, "Costs behind the code"). Asked for its
help, ``hook`` goes through the CLI like any command.

The registered hook commands start the interpreter with ``-S`` (no :mod:`site`: see
``HOOK_LAUNCHER`` in ``integrations/claude_code/templates.py``); :func:`_site_on_demand`
runs :func:`site.main` the first time such a process imports a module the standard library
and artibot's folder do not hold, so that ``orjson`` or ``numpy`` are found as usual.
"""

from __future__ import annotations

import gc
import os  # loaded by the interpreter's own start-up anyway
import sys

TYPE_CHECKING = False  # not typing's: every hook starts here
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Callable, Sequence


class _SiteOnDemand:
    """The last import finder under ``python -S``: loads :mod:`site` at the first top-level
    module nothing else found, then looks again on the paths it added."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if path is not None or _SiteOnDemand not in sys.meta_path:
            return None  # a submodule: its package's own path was searched
        sys.meta_path.remove(_SiteOnDemand)
        import site
        from importlib.machinery import PathFinder

        site.main()
        return PathFinder.find_spec(name)


def _site_on_demand() -> None:
    if sys.flags.no_site and "site" not in sys.modules and _SiteOnDemand not in sys.meta_path:
        sys.meta_path.append(_SiteOnDemand)


def main(argv: list[str] | None = None) -> int:
    _site_on_demand()
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["hook"] and not {"-h", "--help"} & set(args[1:]):
        return _hook(args[1:])
    from artibot.cli.interrupt import deferred

    try:
        with deferred():  # a Ctrl-C while the CLI loads is raised once its imports are done
            code = _quick(args)
            if code is None:
                from artibot.cli.app import run
    except KeyboardInterrupt:  # one line, as later
        sys.stderr.write("\nartibot: interrupted; nothing half-written was kept\n")
        return 130
    if callable(code):  # a command answered without the framework, its modules loaded: Ctrl-C acts at once
        return code()
    return code if code is not None else run(args)


def _quick(args: list[str]) -> int | Callable[[], int] | None:
    """The exit code of what is answered before the CLI framework loads (TAB), what runs a
    command answered so (``status``, ``learn``, ``review``, ``drift``), else None."""
    if "_ARTIBOT_COMPLETE" in os.environ:  # TAB in bash: the common cases need no framework
        from artibot.cli.completion import quick_bash, quick_zsh_fish  # and zsh, fish

        names = quick_bash(dict(os.environ))
        if names is not None:
            sys.stdout.write(names)
            return 0
        answered = quick_zsh_fish(dict(os.environ))
        if answered is not None:
            sys.stdout.write(answered[0])
            return answered[1]
    elif args[:1] in (["status"], ["learn"], ["review"], ["drift"]):  # asked often: without the framework
        from artibot.cli.quick import prepare_quick

        return prepare_quick(args)
    return None


def _hook(args: list[str]) -> int:
    """``artibot hook [AGENT] EVENT``, without the cyclic garbage collector."""
    from artibot.hookpath.clients import hook_target

    client, argv = hook_target(args)  # each client's hooks go to its own entry point
    # A hook lives for tens of milliseconds and frees what it allocates as it goes; the cyclic
    # collector's passes over the modules and caches it loads are a share of its time worth
    # saving (docs/benchmarks.md, "Costs behind the code"; the detached learner is a command,
    # `learn --unattended`, and keeps it).
    collect = gc.isenabled()
    if collect:
        gc.disable()
    try:
        entry = __import__(client.hook, fromlist=["main"])
        code: int = entry.main(argv, client.name)
        return code
    finally:
        if collect:
            gc.enable()


def hook_process() -> int:
    """What the registered hook command runs (``HOOK_LAUNCHER``): :func:`main` in a process
    that ends with it. The cyclic collector stays off to the end and what is still alive is
    frozen (:func:`gc.freeze`), so that the interpreter's exit does not walk every object the
    hook loaded (a share of a prompt hook worth saving: docs/benchmarks.md, "Costs behind the
    code"); modules are torn down and files closed as usual."""
    code = main()
    gc.disable()
    gc.freeze()
    return code


def console() -> None:
    """The ``artibot`` console script and ``python -m artibot``: :func:`main`, then exit with its code.

    After a Ctrl-C (code 130) the process ends with 130 itself, once the exit functions have
    run: an interrupt that passed through an extension module's start-up code (scipy's) marks
    the interpreter, which then ends by SIGINT whatever code it was given; seen with ``demo``
    interrupted at a random moment (how often: docs/benchmarks.md, "Costs behind the code")."""
    code = main()
    if code == 130:
        import atexit

        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a reader gone or a stream closed: nothing more to say
                pass
        os._exit(130)
    sys.exit(code)


if __name__ == "__main__":
    console()
