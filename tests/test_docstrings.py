"""Docstrings and comments say why, not how much: measured figures live in the docs.

A figure measured on one machine at one time ("importing typing costs a hook ~3 ms",
"0.043 ± 0.077 against 0.101") drifts the moment the code or the machine changes, and a
docstring is not rerun. So the code keeps the reason in a sentence and names the page that
holds the number: ``docs/benchmarks.md`` (its "Costs behind the code" for the import and scan
costs), ``experiments/README.md``, ``docs/team.md``. This test reads every comment and every
docstring of ``artibot/`` (module, class, function and attribute docstrings: any string that
stands alone as a statement) and ``pyproject.toml``'s comments and messages, and fails on a
stated measurement.

Docstring examples (``>>>`` and their expected output) are not prose and are left out: their
numbers are checked by ``tests/test_doctests.py``. Targets, timeouts and limits ("the 300 ms
target", "a timeout of 10 s", "64 MiB") are the product's own numbers, not measurements, and
are not what the patterns look for.
"""

from __future__ import annotations

import ast
import doctest
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "artibot"

_NUMBER = r"\d[\d.,]*(?:\s?[-–]\s?\d[\d.,]*)?"
FIGURES = {
    # "~4 ms", "~0.5 µs", "~1.5 s", "~5%", "~8x", "~12 M instructions": an approximate quantity
    # is a measured one
    "approximate figure": re.compile(rf"~\s?{_NUMBER}\s?(?:ns|µs|us|ms|s|sec|seconds|%|[×x]|[kMG]?\s?instructions)(?!\w)"),
    # "40 M instructions", "0.2–0.4 M instructions" (callgrind's counts)
    "instruction count": re.compile(rf"\b{_NUMBER}\s?[kMG]\s?instructions\b"),
    # "costs the prompt hook 4-15 ms", "loaded in 0.3 ms", "took 26 ms to compile"
    "timed cost": re.compile(
        rf"\b(?:costs?|costing|cost it|took|takes?|loads? in|loaded in)\b[^.;:()]{{0,40}}?\b{_NUMBER}\s?(?:ns|µs|us|ms)\b"),
    # "measured: 64 MB", "measured worse: 0.043", "measured in about 30 runs"
    "measured value": re.compile(r"\bmeasured\b\W+(?:[A-Za-z]+\W+){0,3}?\d"),
    # "0.101 ± 0.040": a result over seeds or runs
    "mean ± sd": re.compile(r"\d\s?±\s?\d"),
    # "12x the bare interpreter", "2.3 times slower"
    "measured ratio": re.compile(r"\b\d+(?:\.\d+)?\s?(?:[×x]|times)\s(?:the|as|slower|faster)\b"),
    # "65 regret per 1k in the next night"
    "regret figure": re.compile(r"(?<!\w)\d[\d.,]*\s+(?:W1\s+)?regret\b|\bregret\s+per\s+1k\b[^.]{0,20}\d"),
}

ALLOWED: dict[tuple[str, str], str] = {}
"""``(file relative to the repository, the matched text)`` -> why that figure may stay. Empty:
every figure found so far had a page to go to."""


def findings(text: str) -> list[tuple[str, str]]:
    """``(kind, matched text)`` of every measured figure stated in ``text``."""
    return [(kind, m.group(0)) for kind, rx in FIGURES.items() for m in rx.finditer(text)]


def _prose(docstring: str) -> str:
    """A docstring without its examples (``>>>`` lines and their expected output)."""
    return "".join(part for part in doctest.DocTestParser().parse(docstring) if isinstance(part, str))


def passages(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every comment and every standalone string statement of a module."""
    found = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                found.append((stmt.lineno, _prose(stmt.value.value)))
    return found


def _pyproject_passages() -> list[tuple[int, str]]:
    """``pyproject.toml``'s comments and ruff's messages (what a developer reads there)."""
    lines = (ROOT / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    return [(n, line) for n, line in enumerate(lines, 1) if line.lstrip().startswith("#") or ".msg" in line]


def _stated(rel: str, items: list[tuple[int, str]]) -> list[str]:
    return [f"{rel}:{line}: {kind}: {hit!r}" for line, text in items for kind, hit in findings(text)
            if (rel, hit) not in ALLOWED]


MODULES = sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py"))


def test_the_modules_are_found() -> None:
    assert len(MODULES) > 100 and "artibot/hookpath/store/files.py" in MODULES


@pytest.mark.parametrize("rel", MODULES)
def test_no_measured_figure_in_docstrings_or_comments(rel: str) -> None:
    stated = _stated(rel, passages((ROOT / rel).read_text(encoding="utf-8")))
    assert not stated, ("a measured figure in a docstring or comment: keep the reason, move the number to "
                        "docs/benchmarks.md (or experiments/README.md) and name its heading\n" + "\n".join(stated))


def test_no_measured_figure_in_pyproject() -> None:
    stated = _stated("pyproject.toml", _pyproject_passages())
    assert not stated, "a measured figure in pyproject.toml's comments or messages:\n" + "\n".join(stated)


def test_every_allowance_still_matches() -> None:
    """An allowance whose figure is gone is dropped, so the list stays as short as it is true."""
    for rel, hit in ALLOWED:
        assert hit in (ROOT / rel).read_text(encoding="utf-8"), f"{rel}: {hit!r} no longer there"


# what the figures used to look like in this tree, one per kind, and the reason-only sentences
# that replaced them
STATED = [
    "# Not `from typing import TYPE_CHECKING`: importing typing costs a hook ~3 ms, and",
    "(importing typing costs a prompt hook ~40 M instructions)",
    "One module, not two: each module a hook imports costs it 0.2–0.4 M instructions (up to 1% of",
    "SHA-1 without hashlib, whose OpenSSL binding costs the prompt hook 4-15 ms",
    "(CPython's own ``_sha1`` loads in 0.3 ms and gives the same digest).",
    "its length: one regular expression per table took 26 ms to compile and 8 ms per prompt,",
    "(measured: 64 MB idle through the full CLI).",
    "Off because it measured worse: with 1.0, tuning subjects 0.043 ± 0.077 against 0.101",
    "Measuring them reads the log and the archive with numpy behind it (12x the bare",
    "domain to 0.9 on that extrapolation, costing 65 regret per 1k in the next night (21 now;",
    "# collector's passes over the modules and caches it loads cost it ~5% (the detached",
    "# Two scans, each led by its literal quote (a scan led by a class of two quotes costs ~8x).",
    "``SessionEnd`` has ~1.5 s in all",
]
REASONS = [
    "# Not `from typing import TYPE_CHECKING`: importing typing costs a hook more than its own work",
    "In bash, quick_bash answers before typer is imported (a TAB must answer within the 300 ms target).",
    "the prompt hook's timeout is 10 s; a run that does not parse by 64 MiB is damage",
    "``SessionEnd`` has about 1.5 s in all, so the hook only starts the learner",
    "Applied rounds measured worse, for the user.",
    "System 2 costs $0.031 more per turn (40 System 1 and 35 System 2 turns measured)",
    "success − price × System 2 share; within ``±0.1`` per batch; W1 and W2 regret no worse",
    "a 20 MB paste costs what 20 KB does; typer vendors click since 0.2x",
]


@pytest.mark.parametrize("text", STATED)
def test_a_stated_figure_is_found(text: str) -> None:
    assert findings(text), text


@pytest.mark.parametrize("text", REASONS)
def test_a_reason_or_a_target_is_not_a_figure(text: str) -> None:
    assert findings(text) == []


def test_docstring_examples_are_not_prose() -> None:
    doc = "A log line.\n\n>>> line(1843)\n'POST /v1/messages 200 1843 ms'\n\nThe ~4 ms it took.\n"
    assert findings(_prose(doc)) == [("approximate figure", "~4 ms")]
    assert passages('"""Took ~2 ms."""\nX = 1\n"""Costs ~1 ms."""\n# ~3 ms\n') == [
        (4, "# ~3 ms"), (1, "Took ~2 ms."), (3, "Costs ~1 ms.")]
