"""The compiled code of the modules a hook imports, kept in one file for the next hook of its kind.

Every hook is a new process, and each of the ~25 artibot modules on the prompt path costs
the import system a search, a ``stat``, an ``open`` and a read of its own ``.pyc`` before
its code runs. So a hook keeps the compiled code of the artibot modules it imported in
``sessions/.hook-code.<client>.<event>.marshal`` (one file per kind of hook: each path
imports its own modules), and the next hook of that kind serves them from there through a
finder placed first on ``sys.meta_path``: one read for all of them.

Never stale: each module is served only while its source file has the size and
modification time it had when its code was kept (one ``stat``: the check the import system
makes of a ``.pyc``, to the nanosecond), by the interpreter that kept it (version, bytecode
magic number, optimization level) and from the same artibot folder; anything else is
imported as usual, and the file is written again at the end of that hook, with the modules
other runs of that kind needed while they are unchanged. A hook that imported more than
:data:`MAX_MODULES` artibot modules was on a rare path (a rebuild of the router cache, the
learner): it does not replace the file.

The file lives in the user's 0700 data home, written 0600 by artibot only, as the other
hook caches (and as the ``.pyc`` files beside an installed package); a file that does not
load is ignored and replaced.
"""

from __future__ import annotations

import marshal
import os
import sys

from artibot.store import hookio

TYPE_CHECKING = False  # not typing's own: every hook imports this module
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    Entry = tuple[str, int, int, bool, bytes]
    """``(source path, mtime_ns, size, is a package, marshalled code)``."""

FORMAT = 1
MAX_MODULES = 48
"""The prompt path imports about 25 artibot modules; more means a rare path, not worth keeping."""
PREFIX = ".hook-code."
_PACKAGE = "artibot"
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def _root() -> str:
    """The folder holding the ``artibot`` package (its modules' paths start with it)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(sys.modules[_PACKAGE].__file__ or "")))


def _key() -> tuple[int, str, bytes, int, str]:
    from _frozen_importlib_external import MAGIC_NUMBER

    return (FORMAT, sys.version, MAGIC_NUMBER, sys.flags.optimize, _root())


def file_name(kind: str) -> str | None:
    """``.hook-code.<kind>.marshal`` for a kind of hook such as ``claude-code.stop``; None
    for a name that is not plain (a client's event names come from its payloads)."""
    parts = kind.split(".")
    if len(kind) > 80 or not all(part and set(part) <= _PLAIN for part in parts):
        return None
    return f"{PREFIX}{kind}.marshal"


class CodeFinder:
    """Serves the kept modules whose source has not changed; notes every other artibot
    module imported (then the file is written again)."""

    def __init__(self, table: dict[str, Entry]) -> None:
        self.table = table
        self.served: set[str] = set()
        self.missed = False
        self.before = set(sys.modules)

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith(_PACKAGE + "."):
            return None
        entry = self.table.get(name)
        if entry is None or not _unchanged(entry):
            self.missed = True
            return None
        from _frozen_importlib import ModuleSpec as Spec  # importlib.machinery's, without importing importlib

        origin, _, _, package, _ = entry
        # a duck-typed loader (create_module, exec_module), as importlib's own are
        spec: ModuleSpec = Spec(name, self, origin=origin, is_package=package)  # type: ignore[arg-type]
        spec.has_location = True  # __file__ as an import from the file would set it
        if package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        return spec

    @staticmethod
    def create_module(spec: ModuleSpec) -> None:
        return None  # the default module object

    def exec_module(self, module: ModuleType) -> None:
        import _imp

        origin = self.table[module.__name__][0]
        code = marshal.loads(self.table[module.__name__][4])
        # as the import system does for a .pyc compiled at another path
        _imp._fix_co_filename(code, origin)  # type: ignore[attr-defined]
        self.served.add(module.__name__)
        exec(code, module.__dict__)  # noqa: S102 - the module's own code, as the import system runs it


def _unchanged(entry: Entry) -> bool:
    try:
        st = os.stat(entry[0])
    except OSError:
        return False
    return st.st_mtime_ns == entry[1] and st.st_size == entry[2]


def install(root: str, kind: str) -> CodeFinder | None:
    """Put a finder for the code kept for ``kind`` first on ``sys.meta_path`` (also when none
    is kept yet: it notes what to keep). None if ``kind`` is not a plain name."""
    name = file_name(kind)
    if name is None:
        return None
    table: dict[str, Entry] = {}
    try:
        data = hookio.read_cache(root, name)
        if data is not None:
            key, kept = marshal.loads(data)
            if key == _key() and isinstance(kept, dict):
                table = kept
    except Exception:  # noqa: BLE001 - a damaged or foreign file: import as usual, keep again
        table = {}
    finder = CodeFinder(table)
    sys.meta_path.insert(0, finder)
    return finder


def keep(root: str, kind: str, finder: CodeFinder | None) -> None:
    """Take ``finder`` off ``sys.meta_path``; write the file again if a module was imported
    from its own file (and the hook stayed on a common path)."""
    if finder is None:
        return
    try:
        sys.meta_path.remove(finder)
    except ValueError:
        pass
    name = file_name(kind)
    if name is None or not (finder.missed or not finder.table):
        return
    mine = os.path.join(_root(), _PACKAGE) + os.sep
    imported = []
    for module_name, module in list(sys.modules.items()):
        if module_name in finder.before or not module_name.startswith(_PACKAGE + "."):
            continue
        origin = getattr(getattr(module, "__spec__", None), "origin", None)
        if isinstance(origin, str) and origin.startswith(mine) and origin.endswith(".py"):
            imported.append((module_name, module, origin))
    if not imported or len(imported) > MAX_MODULES:
        return
    table: dict[str, Entry] = {}
    for module_name, module, origin in imported:
        entry = finder.table.get(module_name) if module_name in finder.served else _entry(module, origin)
        if entry is None:
            return  # one module's code cannot be had: keeping the rest would miss again each time
        table[module_name] = entry
    # The modules other runs of this kind needed and this one did not (a Stop with a failed tool
    # reads the transcript, one without does not): kept too while unchanged, or the variants of
    # one hook would take turns rewriting the file.
    for module_name, entry in finder.table.items():
        if len(table) >= MAX_MODULES:
            break
        if module_name not in table and _unchanged(entry):
            table[module_name] = entry
    hookio.write_cache(root, name, marshal.dumps((_key(), table)))


def _entry(module: ModuleType, origin: str) -> Entry | None:
    """The code of ``module`` as its ``.pyc`` holds it when that matches the source as it is
    now (else compiled from the source), with the source's stamp."""
    try:
        st = os.stat(origin)
        package = getattr(module, "__path__", None) is not None
        cached = getattr(module, "__cached__", None)
        if isinstance(cached, str):
            with open(cached, "rb") as fh:
                pyc = fh.read()
            # the header of a timestamp-checked .pyc: magic, flags 0, source mtime and size
            if (pyc[:4] == _key()[2] and int.from_bytes(pyc[4:8], "little") == 0
                    and int.from_bytes(pyc[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
                    and int.from_bytes(pyc[12:16], "little") == st.st_size & 0xFFFFFFFF):
                return (origin, st.st_mtime_ns, st.st_size, package, pyc[16:])
        with open(origin, "rb") as fh:
            source = fh.read()
        after = os.stat(origin)
        if (after.st_mtime_ns, after.st_size) != (st.st_mtime_ns, st.st_size):
            return None  # changing under us: not this time
        code = compile(source, origin, "exec", dont_inherit=True)
        return (origin, st.st_mtime_ns, st.st_size, package, marshal.dumps(code))
    except (OSError, SyntaxError, ValueError):
        return None
