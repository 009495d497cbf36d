"""Command-line flags from an ``Args`` dataclass, and the run folder of a study.

Every field of a study's ``Args`` becomes ``--field-name VALUE`` (tuples take several
values, booleans are ``--flag`` / ``--no-flag``); the field's docstring is its help.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import typing
from dataclasses import MISSING, asdict, fields
from pathlib import Path
from typing import Any, TypeVar

EXPERIMENTS = Path(__file__).resolve().parent
RUNS = EXPERIMENTS / "runs"
RESULTS = EXPERIMENTS / "results"

T = TypeVar("T")


def _field_docs(cls: type) -> dict[str, str]:
    """The string literal right after each field of a dataclass (its one-line docstring)."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[node.target.id] = str(after.value.value)  # type: ignore[union-attr]
    return docs


def parse(cls: type[T], argv: list[str] | None = None) -> T:
    """Parse ``argv`` into an instance of the dataclass ``cls``."""
    parser = argparse.ArgumentParser(description=(cls.__doc__ or "").strip())
    docs = _field_docs(cls)
    hints = typing.get_type_hints(cls)
    for f in fields(cls):
        flag = "--" + f.name.replace("_", "-")
        default = f.default if f.default is not MISSING else f.default_factory()  # type: ignore[misc]
        kind = hints[f.name]
        origin = typing.get_origin(kind)
        # argparse %-formats help strings: a literal "%" (as in "within 2% of the oracle") must be doubled
        help_text = f"{docs.get(f.name, '')} (default: {default})".replace("%", "%%")
        if kind is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=help_text)
        elif origin is tuple:
            inner = typing.get_args(kind)[0]
            parser.add_argument(flag, nargs="+", type=inner, default=default, help=help_text)
        else:
            base = next((a for a in typing.get_args(kind) if a is not type(None)), kind)
            parser.add_argument(flag, type=base, default=default, help=help_text)
    ns = parser.parse_args(argv)
    values = {f.name: (tuple(v) if isinstance(v, list) else v) for f, v in
              ((f, getattr(ns, f.name)) for f in fields(cls))}
    return cls(**values)


def run_dir(name: str, out: str | None = None) -> Path:
    """``experiments/runs/<name>/`` (or ``out``), created."""
    path = Path(out) if out else RUNS / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, default=_plain) + "\n", encoding="utf-8")


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
