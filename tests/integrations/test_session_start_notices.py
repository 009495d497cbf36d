"""SessionStart tells the user about applied rounds measured worse without loading numpy:
the detached learner measures them and leaves the sentences for it."""

from __future__ import annotations

import pytest

from artibot.hookpath.turns import notices
from artibot.store.home import Home
from tests.integrations.test_exactly_once import _Call
from tests.integrations.test_hooks import _deterministic_routes, hook  # noqa: F401


def test_session_start_shows_the_notices_the_learner_measured_without_measuring(hook, home: Home,
                                                                             monkeypatch) -> None:
    import artibot.round.checks as round_checks

    (home.root / "learning-log.json").write_text("[]")
    monkeypatch.setattr(round_checks, "notices", lambda h, s: ["round r1 made things worse: roll it back?"])
    notices.save_round_notices(_Call(home, root=str(home.root)))
    monkeypatch.setattr(round_checks, "notices", lambda h, s: pytest.fail("SessionStart measured"))
    code, out = hook("session-start", session_id="s9")
    assert code == 0 and "round r1 made things worse" in out
