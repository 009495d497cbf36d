"""The library raises its own errors with a message, not a finished English sentence: a
sentence raised as text is said in English whatever the session's language, and no test of a
language would notice. (An error class with a shape of its own — a validation error's
problems, a corrupt file's problem — takes its parts, each a message where the library words it.)"""

from __future__ import annotations

import ast
from pathlib import Path

import artibot
from artibot import errors

ROOT = Path(artibot.__file__).parent
OURS = {name for name, value in vars(errors).items() if isinstance(value, type) and issubclass(value, errors.ArtibotError)}


def _sentence_raises(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        args = node.exc.args
        if name in OURS and args and isinstance(args[0], (ast.Constant, ast.JoinedStr, ast.BinOp)) and \
                not (isinstance(args[0], ast.Constant) and not isinstance(args[0].value, str)):
            found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} {name}")
    return found


def test_no_error_of_ours_is_raised_with_an_english_sentence() -> None:
    found = [hit for path in sorted(ROOT.rglob("*.py")) for hit in _sentence_raises(path)]
    assert found == [], found
