"""The hook path, computed: every module a hook process may import, found by following
imports from the hook entry points, and none of them importing a heavy module.

The entry points are the dispatch of ``artibot hook`` (:mod:`artibot.__main__`) and, for
every client in the registry (:data:`artibot.hookpath.clients.CLIENTS`), the module its
hooks enter (``client.hook``) and, for the clients run through the adapter, their
``events`` module (imported by name, see :func:`artibot.hookpath.clients.module`).
From there the imports are read statically (:mod:`ast`), each package on the way
included (importing ``a.b.c`` runs ``a`` and ``a.b`` first).

Imports made inside functions count: the hooks make most of theirs late, per event, and a
late import is on the path like any other. The exceptions are the doors in :data:`COLD`,
each a late import that runs only off the warm hook (a cache being rebuilt, the detached
learner, a failure being recorded, another interpreter's fallback), with the reason. Listing
the imports that leave the path, rather than those that stay on it, makes a new late import
count until someone says why it may not. Imports under ``if TYPE_CHECKING:`` never run.

The runtime check of the same rule, per event, is ``tests/integrations/test_hook_e2e.py``
(``python -X importtime`` of real hooks); ``pyproject.toml``'s ruff configuration bans the
same imports at module level in the same files (:func:`test_ruff_bans_them_in_the_hook_path_folder`).
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

from artibot.hookpath import clients
from tests.test_layers import MODULES, PACKAGE

ROOT = PACKAGE.parent

HEAVY = (
    # the standard library's slow starters (each costs a warm prompt hook more than its
    # stand-in in artibot/hookpath: docs/design.md, "The hook's lean floor")
    "re", "typing", "dataclasses", "enum", "pathlib", "inspect", "functools", "collections", "random",
    "hashlib", "json", "pickle", "logging", "argparse", "datetime",
    # third-party packages: orjson and the rest need `site` (the hooks run under `python -S`)
    "numpy", "scipy", "typer", "rich", "click", "pydantic", "orjson", "psycopg", "aiohttp",
    # the library above the hooks
    "artibot.cli", "artibot.round.cycle", "artibot.learning", "artibot.team", "artibot.config", "artibot.errors",
    "artibot.store.home", "artibot.store.log", "artibot.collector", "artibot.learned_router",
)
"""Modules (and their submodules) no module on the hook path may import."""

COLD: dict[tuple[str, str], str] = {
    ("artibot.__main__", "artibot.cli"): "main() reaches the CLI only for a command other than `hook`",
    ("artibot.__main__", "site"): "loaded on demand, at the first module not found under `python -S` (a cold cache)",
    ("artibot.hookpath.turns.call", "artibot.store.home"):
        "HookCall.home(): the library's home, for the events that write the experience log",
    ("artibot.hookpath.turns.call", "pathlib"): "HookCall.home(), as above",
    ("artibot.hookpath.turns.handlers", "artibot.config"):
        "the detached learner and a session start with no learner check yet",
    ("artibot.hookpath.turns.handlers", "artibot.team"): "a team member's session start and learner",
    ("artibot.hookpath.turns.handlers", "artibot.hookpath.turns.spawn_learner"):
        "SessionStart, once the learner check's stamp is stale: deciding whether to spawn the learner",
    ("artibot.hookpath.turns.handlers", "artibot.gateway.launcher"): "the gateway on: starting it",
    ("artibot.hookpath.turns.ended", "artibot.collector"):
        "settling ended turns into the experience log (a batch, once a turn is judged)",
    ("artibot.hookpath.turns.ended", "artibot.errors"): "the experience log's lock wait, as above",
    ("artibot.hookpath.turns.routecache", "artibot.learned_router"):
        "the router cache rebuilt (a state file changed): the learned router through the config",
    ("artibot.hookpath.turns.notices", "artibot.config"): "the round notices rebuilt after a round",
    ("artibot.hookpath.turns.notices", "artibot.round.checks"): "the round notices rebuilt after a round",
    ("artibot.integrations.gemini_cli.events", "artibot.hookpath.store.gateway_state"):
        "Gemini CLI's model per route, with the gateway on",
    ("artibot.integrations.gemini_cli.events", "artibot.gateway"):
        "Gemini CLI's model for a turn, chosen at the turn's first model request through the gateway's "
        "profiles (dataclasses, json): a cost the lean floor does not cover yet (scripts/bench_agent_hooks.py)",
    ("artibot.hookpath.regex", "re"): "a pattern whose program is not kept yet (the first hook of a version)",
    ("artibot.hookpath.store.files", "json"): "an interpreter without the `_json` accelerator",
    ("artibot.hookpath.store.hookio", "hashlib"): "an interpreter without its built-in SHA-256 module",
    ("artibot.hookpath.router.patterns", "hashlib"): "an interpreter without its built-in SHA-1 module",
    ("artibot.hookpath.router.team_table", "hashlib"): "an interpreter without its built-in SHA-256 module",
    ("artibot.hookpath.router.domains", "artibot.errors"): "a domains file that does not validate",
    ("artibot.hookpath.router.domains", "collections"): "a domains file being validated, as above",
    ("artibot.hookpath.router.domains", "artibot.messages"): "a domains file that does not validate, as above",
    ("artibot.hookpath.router.policy", "artibot.errors"): "a policy document that does not validate",
    ("artibot.hookpath.router.policy", "artibot.messages"): "a policy document that does not validate, as above",
}
"""``(module, imported)`` -> why that late import (of ``imported`` or a submodule) is off the
warm hook path; only imports inside functions can be doors."""


DYNAMIC: dict[str, tuple[str, ...]] = {
    "artibot.hookpath.turns.routecache": ("artibot.hookpath.router.policy", "artibot.hookpath.router.domains"),
}
"""Imports made by name (``__import__``), which the source does not spell: the router cache
rebuilds the policy's records by class name (what a warm cache holds, read back from one)."""


def entry_points() -> list[str]:
    out = ["artibot.__main__"]
    for client in clients.CLIENTS.values():
        out.append(client.hook)
        if client.hook == clients.ADAPTER:
            out.append(f"artibot.integrations.{client.package}.events")
    return out


def _imports(module: str) -> list[tuple[int, bool, str]]:
    """``(line, late, imported)`` of each import ``module`` runs (``late``: inside a function)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, bool, str]] = []

    def visit(node: ast.AST, late: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                for other in child.orelse:
                    visit_one(other, late)
                continue
            visit_one(child, late)

    def visit_one(node: ast.AST, late: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((node.lineno, late, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.append((node.lineno, late, name if name in MODULES else base))
        else:
            visit(node, late or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return [(line, late, name) for line, late, name in found if name != "__future__"]


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _artibot_module(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def hook_path() -> dict[str, list[str]]:
    """Every artibot module on the hook path -> the chain of imports that reaches it."""
    chains: dict[str, list[str]] = {}
    todo = [(".".join(m.split(".")[:i]), [m]) for m in entry_points() for i in range(1, m.count(".") + 2)]
    while todo:
        module, chain = todo.pop(0)  # breadth first: the shortest chain is kept
        if module in chains:
            continue
        chains[module] = chain
        for name in DYNAMIC.get(module, ()):
            todo.append((name, [*chain, name]))
        for _, late, name in _imports(module):
            if late and any((module, door) in COLD and _within(name, door) for door in _prefixes(name)):
                continue
            target = _artibot_module(name) if name.startswith("artibot") else None
            if target is None:
                continue
            parts = target.split(".")
            for i in range(1, len(parts) + 1):  # the packages on the way run first
                todo.append((".".join(parts[:i]), [*chain, ".".join(parts[:i])]))
    return chains


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def heavy_imports(chains: dict[str, list[str]]) -> list[str]:
    out = set()
    for module, chain in chains.items():
        for line, late, name in _imports(module):
            if late and any((module, door) in COLD for door in _prefixes(name)):
                continue
            if any(_within(name, heavy) for heavy in HEAVY):
                out.add(f"{module}:{line} imports {name} (reached by {' -> '.join(chain)})")
    return sorted(out)


def test_the_hook_path_imports_no_heavy_module() -> None:
    assert heavy_imports(hook_path()) == []


def test_the_path_reaches_what_a_warm_prompt_hook_loads() -> None:
    # modules a warm prompt hook imports (python -X importtime), some only through a late import
    path = hook_path()
    for module in ("artibot.hookpath.store.hookio", "artibot.hookpath.store.files", "artibot.hookpath.regex",
                   "artibot.hookpath.frozen", "artibot.hookpath.router.policy", "artibot.hookpath.privacy.engine",
                   "artibot.hookpath.turns.followup", "artibot.hookpath.turns.context",
                   "artibot.integrations.gemini_cli.events"):
        assert module in path, module
    assert not any(_within(m, "artibot.learning") or _within(m, "artibot.cli") for m in path)


def test_every_door_is_a_late_import_that_exists() -> None:
    late = {(m, p) for m in MODULES for _, is_late, name in _imports(m) if is_late for p in _prefixes(name)}
    early = {(m, p) for m in MODULES for _, is_late, name in _imports(m) if not is_late for p in _prefixes(name)}
    assert [door for door in COLD if door not in late] == []
    assert [door for door in COLD if door in early] == []  # a module-level import always runs


def test_the_check_sees_a_heavy_import_reached_only_through_late_imports(tmp_path, monkeypatch) -> None:
    # followup is imported only inside handlers' functions, never at module level
    module = "artibot.hookpath.turns.followup"
    assert not any(name == module and not late for m in MODULES for _, late, name in _imports(m))
    changed = tmp_path / "followup.py"
    changed.write_text(MODULES[module].read_text(encoding="utf-8") + "\nimport re\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, module, changed)
    found = heavy_imports(hook_path())
    assert len(found) == 1 and found[0].startswith(f"{module}:") and " imports re (reached by " in found[0]


# --------------------------------------------------------------------- ruff
def _ruff() -> list[str] | None:
    if shutil.which("ruff"):
        return ["ruff"]
    done = subprocess.run([sys.executable, "-m", "ruff", "--version"], capture_output=True)
    return [sys.executable, "-m", "ruff"] if done.returncode == 0 else None


def _ruff_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]


def _banned_glob() -> list[str]:
    """The globs ruff's per-file-ignores leave the module-level bans on (the negated pattern)."""
    ignores = _ruff_config()["lint"]["per-file-ignores"]
    negated = [p for p, codes in ignores.items() if p.startswith("!") and "TID253" in codes]
    assert len(negated) == 1
    return re.fullmatch(r"!\{(.*)\}", negated[0]).group(1).split(",")


def _matches(path: str, glob: str) -> bool:
    """``glob`` as ruff reads it here: ``**`` any depth, ``*`` within one folder."""
    pattern = "".join(".*" if part == "**" else "[^/]*" if part == "*" else re.escape(part)
                      for part in re.split(r"(\*\*|\*)", glob))
    return re.fullmatch(pattern, path) is not None


def test_ruff_bans_them_in_the_hook_path_folder() -> None:
    # every module on the hook path is in artibot/hookpath/ but the entry points, the packages on
    # the way, and each client's `events.py` (its payload, read by its own hook)
    files = {str(MODULES[m].relative_to(ROOT)) for m in hook_path()}
    outside = {f for f in files if not f.startswith("artibot/hookpath/")}
    adapted = [c.package for c in clients.CLIENTS.values() if c.hook == clients.ADAPTER]
    assert outside == {"artibot/__init__.py", "artibot/__main__.py", "artibot/integrations/__init__.py",
                       *(f"artibot/integrations/{p}/{f}" for p in adapted for f in ("__init__.py", "events.py"))}
    globs = _banned_glob()
    assert [f for f in files if not any(_matches(f, g) for g in globs)] == []
    # and the globs hold nothing the path does not need: each matches a file on it
    assert [g for g in globs if not any(_matches(f, g) for f in files)] == []
    banned = set(_ruff_config()["lint"]["flake8-tidy-imports"]["banned-module-level-imports"])
    assert banned == {h for h in HEAVY if not h.startswith("artibot")}


def test_ruff_passes() -> None:
    ruff = _ruff()
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    done = subprocess.run([*ruff, "check", "artibot"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_sees_a_banned_import_on_the_hook_path(tmp_path) -> None:
    ruff = _ruff()
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    source = (ROOT / "artibot/hookpath/turns/followup.py").read_text(encoding="utf-8")
    done = subprocess.run([*ruff, "check", "--stdin-filename", "artibot/hookpath/turns/followup.py", "-"],
                          input="import re\n" + source, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1 and "TID253" in done.stdout
    outside = subprocess.run([*ruff, "check", "--stdin-filename", "artibot/round/cycle.py", "-"],
                             input="import re\n", cwd=ROOT, capture_output=True, text=True)
    assert "TID253" not in outside.stdout
