"""The router runs in the per-prompt hook: stdlib only, no I/O, and fast."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import time
from pathlib import Path

import artibot.hookpath.router
from artibot.hookpath.router import score

ROUTER_DIR = Path(artibot.hookpath.router.__file__).parent
HEAVY = ("numpy", "scipy", "typer", "rich", "pydantic", "orjson", "click")
ALLOWED_IMPORTS = {
    "__future__", "re", "math", "random", "dataclasses", "hashlib", "_sha1", "_sha256", "_sha2", "unicodedata", "typing",
    "types", "collections", "collections.abc", "itertools", "functools", "artibot.errors",
    "artibot.hookpath.frozen",  # immutable records without dataclasses (pure, stdlib-free)
    "artibot.hookpath.regex",  # re.compile without importing re (pure: programs come in as arguments)
    "artibot.shapes",  # the JSON shapes, imported for the type checker only
    "artibot.messages",  # a refused policy's problems by id (imports nothing)
}


def test_importing_the_router_loads_no_heavy_module():
    code = "import sys, json, artibot.hookpath.router; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY]
    assert heavy == []


def test_router_modules_import_only_the_standard_library_and_do_no_io():
    for path in ROUTER_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):  # from artibot.hookpath import regex -> artibot.hookpath.regex
                names = [f"{node.module}.{alias.name}" if node.module in ("artibot", "artibot.hookpath") else node.module or ""
                         for alias in node.names]
            else:
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    assert node.func.id not in ("open", "print", "input"), f"{path.name}: {node.func.id}()"
                continue
            for name in names:
                assert name in ALLOWED_IMPORTS or name.startswith("artibot.hookpath.router"), f"{path.name}: {name}"


def test_scoring_a_2kb_prompt_is_fast():
    unit = ("Migrate the user database schema to the new architecture, then update the API endpoints and "
            "the React components. 테스트가 왜 가끔 실패하는지 모르겠어. 1. check the logs\n- deploy it\n")
    text = (unit * 20)[:2048]
    best = float("inf")
    for _ in range(30):
        start = time.perf_counter()
        score(text)
        best = min(best, time.perf_counter() - start)
    # the target is 0.3 ms on a normal machine; this bound only catches a pathological regex
    assert best < 0.003
