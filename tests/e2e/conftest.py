"""The real Claude Code client, installed once for every real-client test that needs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import VERSION, Unavailable, claude_binary


@pytest.fixture(scope="session")
def binary() -> Path:
    """The pinned ``claude`` executable; the test is skipped, with the reason, without node/npm."""
    try:
        return claude_binary()
    except Unavailable as exc:
        pytest.skip(f"real Claude Code {VERSION} not available: {exc}")
