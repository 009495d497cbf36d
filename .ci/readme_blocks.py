"""The README's shell blocks, so that CI and the tests run exactly what a reader copies.

``python .ci/readme_blocks.py "Quick start"`` prints the commands of the first ``bash``
block under that heading, one per line (comments dropped, ``\\`` continuations joined).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def commands(section: str, readme: Path = README) -> list[str]:
    """The commands of the ``bash`` blocks under ``## section``, in order."""
    text = readme.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if match is None:
        raise SystemExit(f"README.md has no section '## {section}'")
    out: list[str] = []
    for block in re.findall(r"^```bash\n(.*?)^```", match.group(1), re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    if not out:
        raise SystemExit(f"README.md's '## {section}' has no bash block")
    return out


if __name__ == "__main__":
    print("\n".join(commands(sys.argv[1] if len(sys.argv) > 1 else "Quick start")))
