"""Every test runs against a fresh data home and a neutral working directory.

``ARTIBOT_HOME`` points at a temp dir, ``ARTIBOT_CONFIG`` is unset and the working
directory is an empty temp dir, so neither the developer's real home nor a
``./artibot.config.json`` in the repository can leak into a test.

``ARTIBOT_RESUME_WINDOW_MIN`` is 0: a session's last turn is written at its end, which
is what most hook tests read. The hold for a resumed session has its own tests
(``tests/integrations/test_resume.py``, ``tests/e2e/test_outcomes.py``), which unset it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot.store.home import Home


@pytest.fixture(autouse=True)
def artibot_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data home of this test (not created on disk: artibot creates it on first write)."""
    home = tmp_path_factory.mktemp("home") / "artibot"
    workdir = tmp_path_factory.mktemp("cwd")
    monkeypatch.setenv("ARTIBOT_HOME", str(home))
    monkeypatch.delenv("ARTIBOT_CONFIG", raising=False)
    monkeypatch.setenv("ARTIBOT_RESUME_WINDOW_MIN", "0")
    monkeypatch.chdir(workdir)
    return home


@pytest.fixture
def home(artibot_home: Path) -> Home:
    """The test's data home as a :class:`Home` (its folder is created on first write, as for a user)."""
    return Home(artibot_home)
