"""Docstring examples are part of the documentation: they must run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import artibot

# the CLI is exercised by its own tests; experiments are not part of the package
MODULES = sorted(
    m.name for m in pkgutil.walk_packages(artibot.__path__, "artibot.")
    if not m.name.startswith("artibot.cli") and m.name != "artibot.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
