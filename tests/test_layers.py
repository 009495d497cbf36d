"""Imports run one way (HOUSE.md): the CLI over the library, the library over the store,
the store over the pure code, everything over the errors. Nothing imports ``cli``.

Each module of ``artibot/`` has a layer (the longest prefix of its dotted name in
:data:`LAYERS`); an import may go to the same layer or a lower one, never up. Imports
made late, inside a function, count too: a late import is still an arrow. Arrows inside
one layer may not make a cycle between modules imported at load time; in the
integrations and the CLI (:data:`NO_CIRCLES`), where imports are made late to keep the hooks
and the commands fast, not even with the late imports counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import artibot

PACKAGE = Path(artibot.__file__).parent

LAYERS = {
    # 0: shared by everything, import nothing of artibot: the hook path's stand-ins
    # (artibot.hookpath's own modules), the names, the record, the registry of clients
    "artibot.errors": 0, "artibot.messages": 0, "artibot.hookpath": 0, "artibot.shapes": 0,
    # 1: values and pure functions: no files, no clock, no environment
    "artibot.experience": 1, "artibot.hookpath.privacy": 1, "artibot.hookpath.router": 1, "artibot.learning": 1,
    "artibot.config.settings": 1, "artibot.config.validators": 1, "artibot.round.checkpoint_texts": 1,
    "artibot.learning.round_params": 1,
    "artibot.gateway.profiles": 1, "artibot.gateway.price_table": 1, "artibot.gateway.usage": 1,
    "artibot.gateway.cachesafe": 1,
    # 2: the files: configuration and the data home (the hooks' own files included)
    "artibot.config": 2, "artibot.store": 2, "artibot.hookpath.store.hookio": 2, "artibot.hookpath.store.hook_reads": 2,
    "artibot.hookpath.store.hookhealth": 2, "artibot.hookpath.store.gateway_state": 2,
    # 3: the library: a round, its checkpoints, collecting, routing, reports, the gateway
    "artibot": 3,
    # the turn engine every client's hooks run: library code (step 1 of a round settles the
    # waiting turns through it), which never reaches a client's own package
    "artibot.hookpath.turns": 3,
    # 4: the agents' integrations (hooks, installers), over the library; the adapter runs a
    # client's own events module
    "artibot.integrations": 4, "artibot.hookpath.adapter": 4,
    # 5: the command line, over everything
    "artibot.cli": 5, "artibot.__main__": 5,
}


# Arrows up that exist today, each with the reason it cannot go yet (none).
KNOWN_UP: dict[tuple[str, str], str] = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    name = module
    while name not in LAYERS:
        name = name.rpartition(".")[0]
    return LAYERS[name]


def imports(module: str, *, top_level_only: bool = False) -> list[tuple[int, str]]:
    """``(line, module)`` of each artibot module ``module`` imports."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    if top_level_only:  # `if TYPE_CHECKING:` blocks are not run
        nodes = [n for n in nodes if not isinstance(n, ast.If)]
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            # `from artibot.reports import status` imports the module artibot.reports.status
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target.startswith("artibot") and target != module:
                found.append((node.lineno, target))
    return found


def arrows_up() -> list[tuple[str, int, str]]:
    """``(module, line, imported)`` of each import that goes up a layer."""
    return [(m, line, t) for m in MODULES for line, t in imports(m) if layer(t) > layer(m)]


NO_CIRCLES = ("artibot.hookpath.turns", "artibot.integrations", "artibot.cli")
"""Packages whose modules may not import each other in a circle even through late imports."""


def cycles(*, late_in: tuple[str, ...] = ()) -> list[list[str]]:
    """Strongly connected groups of modules that import each other at load time (an import
    between two modules of a package in ``late_in`` counts wherever it is made)."""
    def inside(m: str) -> bool:
        return any(m == p or m.startswith(p + ".") for p in late_in)

    graph = {m: sorted({t for _, t in imports(m, top_level_only=True)}
                       | {t for _, t in imports(m) if inside(m) and inside(t)}) for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for t in graph[m]:
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            group = []
            while True:
                t = stack.pop()
                group.append(t)
                if t == m:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for m in graph:
        if m not in index:
            visit(m)
    return found


def test_every_module_has_a_layer() -> None:
    assert all(isinstance(layer(m), int) for m in MODULES)


def test_no_import_goes_up_a_layer() -> None:
    assert [f"{m}:{line} imports {t} (layer {layer(m)} -> {layer(t)})"
            for m, line, t in arrows_up() if (m, t) not in KNOWN_UP] == []


def test_no_modules_import_each_other_at_load_time() -> None:
    # a package imports its own submodules to re-export them; a submodule importing its
    # package back is the usual Python cycle and not what this test is about
    real = [g for g in cycles() if not any(a != b and b.startswith(a + ".") for a in g for b in g)]
    assert real == []


def test_no_circles_in_the_integrations_and_the_cli() -> None:
    real = [g for g in cycles(late_in=NO_CIRCLES)
            if not any(a != b and b.startswith(a + ".") for a in g for b in g)]
    assert real == []


def test_the_check_sees_a_circle_of_late_imports(tmp_path, monkeypatch) -> None:
    # two modules of the CLI that import each other inside functions only
    for name, other in (("a", "b"), ("b", "a")):
        (tmp_path / f"{name}.py").write_text(f"def f():\n    from artibot.cli import {other}\n", encoding="utf-8")
        monkeypatch.setitem(MODULES, f"artibot.cli.{name}", tmp_path / f"{name}.py")
    assert ["artibot.cli.a", "artibot.cli.b"] not in cycles()
    assert ["artibot.cli.a", "artibot.cli.b"] in cycles(late_in=NO_CIRCLES)


def test_the_check_sees_an_arrow_up(monkeypatch) -> None:
    monkeypatch.setitem(LAYERS, "artibot.store.round.rounds", 0)  # pretend the store's rounds were a base module
    assert any(m == "artibot.store.round.rounds" for m, _, _ in arrows_up())
