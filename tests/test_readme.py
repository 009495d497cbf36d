"""The README a newcomer reads: short, in the promised order, its commands run as written.

The quick start itself (install, demo, the suite) runs in ``.ci/run`` in a fresh clone
under a path with a space; running the suite from inside the suite would recurse.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"

_spec = importlib.util.spec_from_file_location("readme_blocks", REPO / ".ci" / "readme_blocks.py")
readme_blocks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(readme_blocks)

ORDER = ["Quick start", "Install for real use", "How it works", "Commands", "Configuration",
         "The data home and its guarantees", "Does it learn?", "Development"]

# References a reader of this repository cannot follow: tracker numbers, a specification's
# sections, and documents that are not in the repository.
OUTSIDE = re.compile(r"\b[Ii]ssues? ?#?\d+\b|\bSPEC\b|§|CLAUDE-CODE|shared/data|\bthe specification\b")


def test_readme_is_short_and_in_order():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, len(lines)
    headings = [line[3:] for line in lines if line.startswith("## ")]
    assert [h for h in headings if h in ORDER] == ORDER, headings


def test_readme_links_resolve():
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
        assert (REPO / target).exists(), target


def _documents() -> list[Path]:
    docs = [README, REPO / "experiments" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    code = [p for top in ("artibot", "experiments", "scripts", "tests", "config", ".ci")
            for p in sorted((REPO / top).rglob("*")) if p.suffix in (".py", ".md", ".json") and p.is_file()
            and "results" not in p.relative_to(REPO).parts]
    return docs + code


def test_no_reference_a_reader_cannot_follow():
    found = []
    for path in _documents():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if path.name == "test_readme.py" and "OUTSIDE" in line:
                continue
            for match in OUTSIDE.finditer(line):
                # a test's sample request text is data, and the studies' default data
                # folder is a path the code tries, not a document the reader is sent to
                if path.parts[-2:] not in (("router", "test_patterns.py"), ("experiments", "replay.py")):
                    found.append(f"{path.relative_to(REPO)}:{number}: {match.group()}")
    assert found == []


@pytest.mark.slow
def test_readme_commands_run_in_order(tmp_path):
    """The "Commands" section's example session, command by command, in a fresh home."""
    env = {**os.environ, "ARTIBOT_HOME": str(tmp_path / "home"), "HOME": str(tmp_path),
           "COLUMNS": "80"}
    env.pop("ARTIBOT_CONFIG", None)
    commands = readme_blocks.commands("Commands")
    assert commands[0].startswith("artibot ")
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "artibot", command
        proc = subprocess.run([sys.executable, "-m", "artibot", *argv[1:]], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"{command}\n{proc.stdout}{proc.stderr}"
