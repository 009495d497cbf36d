"""``@frozen``: an immutable record class without :mod:`dataclasses`, for the hook path.

The router and the anonymizer run in the Claude Code prompt hook, a new Python process
on every prompt. Importing :mod:`dataclasses` loads :mod:`inspect` (and with it ``ast``,
``dis``, ``tokenize``): about as long as the interpreter takes to start
(``scripts/bench_hooks.py``). The few record classes on that path use this decorator
instead; everything else keeps ``@dataclass``.

It covers what those classes use of ``@dataclass(frozen=True)``: fields are the class
annotations in order; a class attribute is the field's default, :func:`factory` gives a
fresh default per instance; a field named ``_x`` is not an ``__init__`` parameter and is
left out of ``==``, ``hash`` and ``repr`` (set it in ``__post_init__`` with
``object.__setattr__``). Instances are immutable, compare and hash by their fields, and
pickle.

>>> @frozen
... class Point:
...     x: int
...     y: int = 0
>>> p = Point(1)
>>> p, p == Point(1, 0), p.y
(Point(x=1, y=0), True, 0)
>>> p.x = 2
Traceback (most recent call last):
    ...
AttributeError: cannot assign to field 'x' of a frozen Point
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module (bench_hooks.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform

    _T = TypeVar("_T")
else:
    def dataclass_transform(**_kwargs):
        return lambda fn: fn

_MISSING = object()

MappingProxyType = type(type.__dict__)
""":class:`types.MappingProxyType` (a read-only view of a dict, for the records' tables),
without importing :mod:`types`, which a prompt hook would pay for (docs/benchmarks.md, "Costs behind
the code")."""


class _Factory:
    """A default made fresh for each instance: ``features: dict = factory(dict)``."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


if TYPE_CHECKING:
    # To the type checker ``factory(dict)`` is the default itself (a ``dict``), which is
    # what the field holds on every instance.
    def factory(make: Callable[[], _T]) -> _T: ...
else:
    factory = _Factory


def private(*, init: bool = False) -> Any:
    """Declares a ``_x`` field that ``__post_init__`` sets: ``_index: Index = private(init=False)``.

    The decorator leaves ``_x`` fields out of ``__init__`` by their name; the type checker
    learns it from ``init=False``, spelled out at the call because it reads it there."""
    return None


@dataclass_transform(frozen_default=True, eq_default=True, field_specifiers=(private,))
def frozen(cls: type[_T]) -> type[_T]:
    """Make ``cls`` an immutable record (see the module docstring)."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    public = tuple(n for n in names if not n.startswith("_"))
    defaults = {n: cls.__dict__[n] for n in public if n in cls.__dict__}
    for n in defaults:
        delattr(cls, n)  # instance values live in __dict__; the default is kept in the closure
    # Generated like dataclasses does, so that construction costs what a hand-written
    # __init__ would (the anonymizer makes a record per finding).
    params: list[str] = []
    body: list[str] = []
    for n in public:
        if n not in defaults:
            params.append(n)
        elif isinstance(defaults[n], _Factory):
            params.append(f"{n}=_MISSING")
            body.append(f" if {n} is _MISSING: {n} = _defaults[{n!r}].make()")
        else:
            params.append(f"{n}=_defaults[{n!r}]")
        body.append(f" _set(self, {n!r}, {n})")
    if hasattr(cls, "__post_init__"):
        body.append(" self.__post_init__()")
    key = "(" + "".join(f"self.{n}, " for n in public) + ")"
    source = (f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or " pass") + "\n"
              f"def _key(self): return {key}\n")
    scope: dict[str, Any] = {"_MISSING": _MISSING, "_defaults": defaults, "_set": object.__setattr__}
    exec(source, scope)  # noqa: S102 - generated from the class's own field names
    _key = scope["_key"]

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(_key(self) == _key(other))

    def __hash__(self: object) -> int:
        return hash(_key(self))

    def __repr__(self: object) -> str:
        return f"{cls.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in public)})"

    def __setattr__(self: object, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {cls.__name__}")

    def __delattr__(self: object, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {cls.__name__}")

    own_hash = "__hash__" in cls.__dict__ and cls.__dict__["__hash__"] is not None
    for fn in (scope["__init__"], __eq__, __hash__, __repr__, __setattr__, __delattr__):
        if fn is __hash__ and own_hash:  # a class whose fields do not hash (a dict) says how it hashes
            continue
        fn.__qualname__ = f"{cls.__qualname__}.{fn.__name__}"
        setattr(cls, fn.__name__, fn)
    setattr(cls, "__match_args__", public)  # noqa: B010 - the type checker reads the class as written
    return cls
