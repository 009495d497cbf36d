"""``learning/`` is pure: no files, no clock, no environment, no process-wide switches.

Time and randomness come in as arguments (HOUSE.md); the garbage collector, the
environment and the file system belong to the edges that call the learner
(:func:`artibot.round.cycle.collector_paused` pauses the collector around a round).
Checked on the source of every module under ``artibot/learning/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import artibot.learning

LEARNING_DIR = Path(artibot.learning.__file__).parent
ALLOWED_IMPORTS = {
    "__future__", "math", "re", "sys", "dataclasses", "typing", "types", "collections", "collections.abc",
    "itertools", "functools", "operator", "statistics", "datetime", "bisect", "numpy", "scipy",
    "artibot.config.settings",  # frozen settings values, passed in
    "artibot.hookpath.names",  # names shared with the hooks (the cells' key prefix): constants only
    "artibot.shapes",  # the declared shapes (the experience record's fields): declarations only
    "artibot.gateway.price_table",  # the price table: constants and the config's rows over them
    "artibot.messages",  # a result's meaning as an id and its values (a reason), said at the edge
    "importlib",  # the package loads its names on first use (import_module only)
}
# calls that read a clock, the environment or a random source owned by the process
FORBIDDEN_CALLS = {"now", "utcnow", "today", "getenv", "open", "print", "input"}


def impurities(path: Path) -> list[str]:
    """Each import outside the allowed set and each forbidden call in ``path``, as ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if name in FORBIDDEN_CALLS:
                    found.append(f"{node.lineno}: {name}()")
            continue
        for name in names:
            top = name.split(".")[0]
            if not (name in ALLOWED_IMPORTS or top in {"numpy", "scipy"}
                    or name.startswith(("artibot.learning", "artibot.hookpath.router"))):
                found.append(f"{node.lineno}: import {name}")
    return found


def test_learning_modules_do_no_io_and_switch_nothing_off() -> None:
    offenders = {p.name: found for p in sorted(LEARNING_DIR.glob("*.py")) if (found := impurities(p))}
    assert offenders == {}, f"impure code in artibot/learning/: {offenders}"


def test_the_check_sees_impurity(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import gc\nimport os.path\nfrom time import time\nimport numpy as np\n"
                      "from datetime import datetime\nx = datetime.now()\nopen('f')\n")
    assert impurities(sample) == ["1: import gc", "2: import os.path", "3: import time", "6: now()", "7: open()"]
