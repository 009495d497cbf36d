"""docs/team.md shows the roles' SQL that `artibot team init --roles` prints, line for line."""

from __future__ import annotations

from pathlib import Path

from artibot.team.schema import CREATE_ROLES, GRANTS

DOC = Path(__file__).resolve().parents[2] / "docs" / "team.md"


def test_the_documented_roles_are_the_ones_printed() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for line in (CREATE_ROLES + GRANTS).splitlines():
        if line.strip() and not line.startswith("--"):
            assert line in doc, line
