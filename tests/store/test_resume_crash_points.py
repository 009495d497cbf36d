"""The last turn held past a session's end, under a kill at EVERY file-system mutation of
the hooks that hold it and hand it over: a ``SessionEnd`` that holds it, the resumed
session's first prompt that judges it. After the hooks that follow, every turn is in the
log exactly once, and the held one is ``failed`` when the resumed prompt corrected it.
(Same machinery as ``test_hook_crash_points.py``.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from artibot.hookpath.turns import call
from artibot.hookpath.turns import turn as turns
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests.store.test_crash_points import env  # noqa: F401  (the scratch folder fixture)
from tests.store.test_hook_crash_points import hook, kill_at_each_mutation, log_ids, session

pytestmark = pytest.mark.slow

CORRECTION = "no, that's wrong, the title is in docs/index.md"
LATER = 3 * turns.FOLLOWUP_WINDOW_MS  # past every hold and every idle threshold


@pytest.fixture(autouse=True)
def _hold_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARTIBOT_RESUME_WINDOW_MIN")  # the shipped window (the suite's default is 0)


def resumed(correct: bool = True) -> None:
    """The same session resumed: its start, a prompt (a correction or not), its end."""
    assert hook("SessionStart", source="resume") == 0
    prompt = CORRECTION if correct else "thanks, now commit it"
    assert hook("UserPromptSubmit", prompt=prompt, prompt_id="resumed") == 0
    assert hook("SessionEnd", reason="other") == 0


def check(work: Path, ids: set[str], last: str, where: str, *, failed: bool) -> None:
    home = Home(work)
    from artibot.hookpath.store import hookio

    call.settle_waiting_turns(str(work), now=hookio.now_ms() + LATER)  # whatever is still held
    found = log_ids(home)
    twice = sorted(i for i, c in found.items() if c > 1)
    assert not twice, f"{where}: turns stored twice: {twice}"
    assert ids <= set(found), f"{where}: missing {sorted(ids - set(found))}"
    if failed:
        [record] = [r for r in ExperienceLog(home).read() if r["id"] == last]
        assert record["outcome"] == "failed", f"{where}: {record['outcome']} ({record['outcome_reason']})"


def kill_everywhere(tmp: Path, base: Path, event: str, fields: dict, before, after, ids: set[str], last: str,
                    *, failed_always: bool) -> int:
    def then(work: Path, where: str) -> None:
        after()
        check(work, ids, last, where, failed=failed_always)

    return kill_at_each_mutation(tmp, base, event, fields, then, before=before)


def _last_id(base: Path) -> str:
    from artibot.hookpath.store import hookio

    return hookio.Spool(str(base), "crash-session").read()["done"]["id"]


def test_a_session_end_that_holds_the_last_turn_killed_anywhere(env):
    base = env / "base" / "artibot"
    ids = session(base, 3, open_last=False)
    last = _last_id(base)
    # killed or not, the resumed session's correction reaches the last turn, and it is stored once
    total = kill_everywhere(env, base, "SessionEnd", {"reason": "other"}, lambda: None, resumed, ids, last,
                            failed_always=True)
    assert total >= 3


def test_the_resumed_prompt_that_judges_the_held_turn_killed_anywhere(env):
    base = env / "base" / "artibot"
    ids = session(base, 2, open_last=False)
    last = _last_id(base)
    assert hook("SessionEnd", reason="other") == 0  # the last turn is held
    assert log_ids(Home(base)).keys() == ids - {last}
    assert hook("SessionStart", source="resume") == 0

    def end() -> None:
        assert hook("SessionEnd", reason="other") == 0

    # a kill before the spool's rewrite loses the correction (the prompt never happened for
    # artibot), never the turn: it is stored once, judged or not
    total = kill_everywhere(env, base, "UserPromptSubmit", {"prompt": CORRECTION, "prompt_id": "resumed"},
                            lambda: None, end, ids, last, failed_always=False)
    assert total >= 1
    os.environ["ARTIBOT_HOME"] = str(base)
    assert hook("UserPromptSubmit", prompt=CORRECTION, prompt_id="resumed") == 0
    end()
    check(base, ids, last, "no kill", failed=True)
