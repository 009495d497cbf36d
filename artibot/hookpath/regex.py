"""Regular expressions that the prompt hook can build without importing :mod:`re`.

A Claude Code hook is a whole Python process per prompt. Importing ``re`` (with
``enum``, ``functools`` and ``collections`` behind it) and compiling the router's and
the anonymizer's patterns cost about as much as the interpreter's own start. What
``re.compile`` produces is a pattern object made by the C module ``_sre`` from a list of
integers (the compiled program); :func:`compile` builds the same object from that list
when it is known (:func:`preload`), and falls back to ``re`` otherwise. The hook keeps
the programs of the patterns it compiled (:func:`programs`) in its data home and
preloads them in the next process (``hookpath/turns/routecache.py``). A program
may be given as its :mod:`marshal` bytes: it is decoded only when its pattern is compiled (a
prompt needs a small part of those kept, and decoding them all is a cost a hook notices:
docs/benchmarks.md, "Costs behind the code").

A program is kept only if the pattern built from it compares equal to the one
``re.compile`` returns — same source, flags and program (``Pattern.__eq__`` compares
them) — and only for the interpreter that compiled it (:data:`RUNTIME`), so a pattern
built here matches exactly what ``re`` would match.

Pure: no I/O; the one piece of state is the table of known programs (:func:`reset`).
"""

from __future__ import annotations

import marshal
import sys

import _sre  # type: ignore[import-not-found]  # CPython's regular expression engine, untyped

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    import re
    from typing import Any

    Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
    """``_sre.compile``'s arguments after the source: flags, code, groups, groupindex, indexgroup."""

# re.RegexFlag's values (stable since Python 3.6), as plain ints so ``re`` need not load.
IGNORECASE = 2
MULTILINE = 8
DOTALL = 16
VERBOSE = 64
ASCII = 256

RUNTIME = f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}"
"""Programs are valid for the interpreter that compiled them, and only for it."""

_SPECIAL = {i: "\\" + chr(i) for i in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}  # re._special_chars_map

_known: dict[tuple[str, int], Program | bytes] = {}
"""Programs given by :func:`preload`, each as given: a program, or its marshal bytes."""
_compiled: dict[tuple[str, int], Program] = {}
"""Programs compiled by ``re`` in this process, not yet known (what is worth keeping)."""


def escape(text: str) -> str:
    """``re.escape(text)``, without importing ``re``."""
    return text.translate(_SPECIAL)


def compile(source: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - the name re uses
    """``re.compile(source, flags)``: from a known program if there is one, else by ``re``."""
    key = (source, flags)
    program = _known.get(key)
    if program is not None:
        try:
            if isinstance(program, bytes):
                program = _known[key] = _decoded(program)
            built: re.Pattern[str] = _sre.compile(source, *program)
            return built
        except Exception:  # noqa: BLE001 - a program that does not decode or validate: compile it again
            del _known[key]
    import re

    pattern = re.compile(source, flags)  # noqa: TID251 - the fallback this module stands in for
    program = _program(source, flags, pattern)
    if program is not None:
        _compiled[key] = program
    return pattern


def _program(source: str, flags: int, pattern: re.Pattern[str]) -> Program | None:
    """The arguments ``re._compiler.compile`` gave ``_sre.compile`` for ``pattern``, or None
    if this interpreter's ``re`` does not build them so (then nothing is kept)."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]  # private, typed nowhere

        parsed = _parser.parse(source, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[Any] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        program = (int(flags | parsed.state.flags), [int(op) for op in code],  # plain ints: marshal-able
                   parsed.state.groups - 1, groupindex, tuple(indexgroup))
        return program if _sre.compile(source, *program) == pattern else None
    except Exception:  # noqa: BLE001 - another interpreter's internals: fall back to re, keep nothing
        return None


def _decoded(data: bytes) -> Program:
    program = marshal.loads(data)
    if not (isinstance(program, tuple) and len(program) == 5):
        raise ValueError("not a program")
    return program


def preload(runtime: object, programs: object) -> int:
    """Make ``programs`` (as :func:`programs` returned them, or each as its marshal bytes)
    known; returns how many.

    Nothing is loaded unless ``runtime`` is this interpreter's :data:`RUNTIME` and the
    table has the expected shape.
    """
    if runtime != RUNTIME or not isinstance(programs, dict):
        return 0
    count = 0
    for key, program in programs.items():
        if (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str) and isinstance(key[1], int)
                and (isinstance(program, bytes) or isinstance(program, tuple) and len(program) == 5)):
            _known[key] = program
            count += 1
    return count


def programs(*, known: bool = True) -> dict[tuple[str, int], Program]:
    """Every program compiled in this process, and those it was given unless ``known=False``
    (each decoded; one that does not decode is left out)."""
    out: dict[tuple[str, int], Program] = {}
    for key, program in _known.items() if known else ():
        try:
            out[key] = _decoded(program) if isinstance(program, bytes) else program
        except Exception:  # noqa: BLE001 - damaged: compiled again when needed
            continue
    out.update(_compiled)
    return out


def compiled_here() -> int:
    """How many patterns this process compiled with ``re`` that were not known."""
    return len(_compiled)


def reset() -> None:
    """Forget every program (tests)."""
    _known.clear()
    _compiled.clear()
