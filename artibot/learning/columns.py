"""Columnar sequences of frozen rows, and the JSON checks the learning types share.

A round over a million records has some 200,000 groups and 100,000 threshold steps.
Building a frozen dataclass per row costs more than all the arithmetic of the round, so
a :class:`~artibot.learning.types.RoundProposal` keeps them as columns (:class:`Table`,
:class:`Batches`) and builds the row objects on first access; ``to_json`` and
``from_json`` work on the columns directly. Both compare equal to the plain tuples of
rows they stand for.

A row kind is a frozen dataclass with a ``JSON`` class attribute mapping each field to
its JSON kind: ``int``, ``float``, ``float?``, ``str``, ``str?`` or ``bool``.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any, ClassVar, Generic, Iterable, Iterator, Mapping, Protocol, Sequence, TypeVar

from artibot.messages import Message

_TYPES: dict[str, set[type]] = {"int": {int}, "float": {float, int}, "float?": {float, int, type(None)},
          "str": {str}, "str?": {str, type(None)}, "bool": {bool}}
_WORDS = {"int": "int", "float": "float", "float?": "float_or_null", "str": "str", "str?": "str_or_null", "bool": "bool"}
"""Each JSON kind's words, by id (``columns.kind.<id>``)."""


def check_column(kind: str, values: list[Any], what: str) -> list[Any]:
    """``values`` checked against ``kind`` (numbers as float where the kind is a float)."""
    allowed = _TYPES[kind]
    found = set(map(type, values))
    numbers = kind.startswith("float")
    typed = found <= allowed
    finite = not (typed and numbers) or all(map(math.isfinite, (v for v in values if v is not None)))
    if not typed or not finite:
        example = next(v for v in values if type(v) not in allowed or (type(v) is float and not math.isfinite(v)))
        raise ValueError(Message("columns.must_be", what=what, kind=Message(f"columns.kind.{_WORDS[kind]}"),
                                 value=repr(example)))
    if numbers and int in found:
        return [v if v is None else float(v) for v in values]
    return values


def check_fields(d: Any, spec: Mapping[str, str], what: str) -> dict[str, Any]:
    """The fields ``spec`` names, each checked against its kind."""
    if not isinstance(d, Mapping):
        raise ValueError(Message("columns.not_object", what=what, type=type(d).__name__))
    missing = [name for name in spec if name not in d]
    if missing:
        raise ValueError(Message("columns.missing", what=what, field=repr(missing[0])))
    return {name: check_column(kind, [d[name]], f"{what}.{name}")[0] for name, kind in spec.items()}


def get_object(d: Mapping[str, Any], name: str, what: str) -> Any:
    value = d.get(name) if isinstance(d, Mapping) else None
    if not isinstance(value, Mapping):
        raise ValueError(Message("columns.object", what=f"{what}.{name}"))
    return value


def get_list(d: Mapping[str, Any], name: str, what: str) -> list[Any]:
    value = d.get(name) if isinstance(d, Mapping) else None
    if not isinstance(value, list):
        raise ValueError(Message("columns.list", what=f"{what}.{name}"))
    return value


class Row(Protocol):
    """A row kind: a frozen dataclass whose ``JSON`` maps each field to its JSON kind."""

    JSON: ClassVar[dict[str, str]]

    def __init__(self, *fields: Any) -> None: ...


R = TypeVar("R", bound=Row)


class Table(Sequence[R], Generic[R]):
    """An immutable sequence of ``kind`` rows kept as columns; rows are built on first access."""

    __slots__ = ("kind", "columns", "_rows")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, kind: type[R], columns: Mapping[str, Sequence[Any]]):
        self.kind = kind
        self.columns = {name: tuple(columns[name]) for name in kind.JSON}
        if len({len(c) for c in self.columns.values()}) > 1:
            raise ValueError(Message("columns.lengths", kind=kind.__name__))
        self._rows: tuple[R, ...] | None = None

    @classmethod
    def of(cls, kind: type[R], rows: Iterable[R]) -> Table[R]:
        rows = tuple(rows)
        return cls(kind, {name: [getattr(r, name) for r in rows] for name in kind.JSON})

    @property
    def rows(self) -> tuple[R, ...]:
        if self._rows is None:
            self._rows = tuple(map(self.kind, *self.columns.values()))
        return self._rows

    def __len__(self) -> int:
        return len(next(iter(self.columns.values())))

    def __getitem__(self, i: Any) -> Any:
        return self.rows[i]

    def __iter__(self) -> Iterator[R]:
        return iter(self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Table):
            return self.kind is other.kind and self.columns == other.columns
        if isinstance(other, (tuple, list)):
            return self.rows == tuple(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Table({self.kind.__name__}, {len(self)} rows)"

    def to_json(self) -> list[dict[str, Any]]:
        names = tuple(self.kind.JSON)
        return [dict(zip(names, row)) for row in zip(*self.columns.values())]

    @classmethod
    def from_json(cls, kind: type[R], items: list[Any], what: str) -> Table[R]:
        if not all(isinstance(item, Mapping) for item in items):
            raise ValueError(Message("columns.items", what=what))
        columns: dict[str, list[Any]] = {}
        for name, spec in kind.JSON.items():
            try:
                values = list(map(itemgetter(name), items))
            except KeyError:
                raise ValueError(Message("columns.item_lacks", what=what, field=repr(name))) from None
            columns[name] = check_column(spec, values, f"{what}.{name}")
        return cls(kind, columns)


class Batches(Sequence[tuple[Any, ...]]):
    """Rows cut into consecutive runs (the groups of each batch): ``batches[i]`` is a tuple of rows."""

    __slots__ = ("groups", "bounds")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, groups: Table[Any], sizes: Sequence[int]):
        self.groups = groups
        bounds = [0]
        for size in sizes:
            bounds.append(bounds[-1] + size)
        if bounds[-1] != len(groups):
            raise ValueError(Message("columns.batch_sizes", total=bounds[-1], groups=len(groups)))
        self.bounds = tuple(bounds)

    @classmethod
    def of(cls, kind: type[Row], batches: Iterable[Iterable[Any]]) -> Batches:
        nested = [tuple(b) for b in batches]
        return cls(Table.of(kind, (g for b in nested for g in b)), [len(b) for b in nested])

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("batch index out of range")
        return self.groups[self.bounds[i]:self.bounds[i + 1]]

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Batches):
            return self.bounds == other.bounds and self.groups == other.groups
        if isinstance(other, (tuple, list)):
            return tuple(self) == tuple(tuple(b) for b in other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Batches({len(self)} batches, {len(self.groups)} groups)"

    def to_json(self) -> list[list[dict[str, Any]]]:
        flat = self.groups.to_json()
        return [flat[self.bounds[i]:self.bounds[i + 1]] for i in range(len(self))]

    @classmethod
    def from_json(cls, kind: type[Row], items: list[Any], what: str) -> Batches:
        if not all(isinstance(b, list) for b in items):
            raise ValueError(Message("columns.batches", what=what))
        return cls(Table.from_json(kind, [g for b in items for g in b], what), [len(b) for b in items])
