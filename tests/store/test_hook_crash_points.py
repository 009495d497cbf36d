"""A kill at EVERY file-system mutation of the hooks that hand turns to the log (session-end,
a Stop that flushes, a SessionStart that settles a resumed session): after the next hook
of the session, every turn is in the log exactly once.

Turns carry the id they got when they opened, so a hand-over that a kill cut between the
log's append and the spool's rewrite is replayed without storing anything twice. Same
machinery as ``test_crash_points.py``: the hook runs in a forked child that dies just
before its Nth mutation.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import orjson
import pytest

from artibot.hookpath.store import hookio
from artibot.store.home import Home
from artibot.store.log.log_layout import record_on
from tests.store.forked import KILLED, run_child
from tests.store.test_crash_points import env  # noqa: F401  (the scratch folder fixture)

pytestmark = pytest.mark.slow

SID = "crash-session"


CLI = {"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PostToolUse": "post-tool-use",
       "Stop": "stop", "SessionEnd": "session-end"}


def payload(event: str, **fields: object) -> bytes:
    return orjson.dumps({"session_id": SID, "hook_event_name": event, "cwd": "/tmp", **fields})


def hook(event: str, *, kill_at: int | None = None, count: Path | None = None, **fields: object) -> int:
    return run_child(["hook", CLI[event]], stdin=payload(event, **fields), kill_at=kill_at, count=count)


def log_ids(home: Home) -> Counter[str]:
    data = home.experiences.read_bytes() if home.experiences.exists() else b"[\n]\n"
    return Counter(record_on(line)["id"] for line in data.split(b"\n")[1:-2])


def turn_ids(home: Home) -> set[str]:
    doc = hookio.Spool(str(home.root), SID).read() or {}
    ids = {r["id"] for r in doc.get("queue") or []}
    ids |= {t["id"] for t in (doc.get("turn"), doc.get("done")) if t}
    return ids


def play(run, turns: int, *, open_last: bool) -> None:
    """A session through the hook runner ``run``: started, ``turns`` turns of a prompt, an edit
    and a stop, and with ``open_last`` one more prompt left open."""
    assert run("SessionStart", source="startup") == 0
    for i in range(turns):
        assert run("UserPromptSubmit", prompt=f"fix the typo number {i} in the readme", prompt_id=f"p{i}") == 0
        assert run("PostToolUse", tool_name="Edit", prompt_id=f"p{i}", tool_response={}) == 0
        assert run("Stop", prompt_id=f"p{i}") == 0
    if open_last:
        assert run("UserPromptSubmit", prompt="now update the changelog", prompt_id="open") == 0


def session(base: Path, turns: int, *, open_last: bool) -> set[str]:
    """A session in ``base`` with ``turns`` stopped turns (the last one unjudged) and,
    with ``open_last``, one more turn still open; returns every turn id."""
    os.environ["ARTIBOT_HOME"] = str(base)
    (base.parent / "cfg").mkdir(parents=True, exist_ok=True)
    config = base.parent / "cfg" / "artibot.config.json"
    config.write_text('{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}')
    os.environ["ARTIBOT_CONFIG"] = str(config)
    play(hook, turns, open_last=open_last)
    ids = turn_ids(Home(base))
    assert len(ids) == turns + open_last
    return ids


def kill_at_each_mutation(tmp: Path, base: Path, event: str, fields: dict, check, *, before=lambda: None) -> int:
    """Kill ``event``'s hook at each of its mutations, each time on a fresh copy of ``base``:
    ``before()`` runs before the hook (on the copy), ``check(work, where)`` after the kill.
    Returns how many mutations the hook makes."""
    probe = tmp / "probe" / "artibot"
    shutil.copytree(base, probe)
    os.environ["ARTIBOT_HOME"] = str(probe)
    before()
    counted = tmp / "count"
    assert hook(event, count=counted, **fields) == 0
    total = int(counted.read_text())
    assert total > 0
    for n in range(1, total + 1):
        work = tmp / f"kill-{n}" / "artibot"
        shutil.copytree(base, work)
        os.environ["ARTIBOT_HOME"] = str(work)
        before()
        assert hook(event, kill_at=n, **fields) == KILLED, f"{event} was not killed at mutation {n}"
        check(work, f"{event} killed at mutation {n}/{total}")
        shutil.rmtree(work.parent)
    return total


def kill_everywhere(tmp: Path, base: Path, event: str, fields: dict, then: list[tuple[str, dict]],
                    ids: set[str]) -> int:
    """Kill ``event``'s hook at each of its mutations (on a copy of ``base``), run the hooks
    ``then``, and check that every turn of ``ids`` is in the log exactly once."""
    def check(work: Path, where: str) -> None:
        for name, more in then:
            assert hook(name, **more) == 0
        found = log_ids(Home(work))
        twice = sorted(i for i, c in found.items() if c > 1)
        assert not twice, f"{where}: turns stored twice: {twice}"
        assert set(found) == ids, f"{where}: missing {sorted(ids - set(found))}"

    return kill_at_each_mutation(tmp, base, event, fields, check)


END = ("SessionEnd", {"reason": "other"})


def test_session_end_killed_anywhere_then_the_session_ends_again(env):
    base = env / "base" / "artibot"
    ids = session(base, 3, open_last=True)
    assert kill_everywhere(env, base, "SessionEnd", {"reason": "other"}, [END], ids) >= 4


def test_a_resumed_session_hands_over_what_a_killed_session_end_left(env):
    base = env / "base" / "artibot"
    ids = session(base, 3, open_last=False)
    # the resumed session's start hands over the queue, its end the rest
    resume = ("SessionStart", {"source": "resume"})
    assert kill_everywhere(env, base, "SessionEnd", {"reason": "other"}, [resume, END], ids) >= 4


def test_a_stop_that_flushes_killed_anywhere(env):
    base = env / "base" / "artibot"
    ids = session(base, 8, open_last=True)  # the open turn's Stop finds 8 queued turns: it flushes them
    assert kill_everywhere(env, base, "Stop", {"prompt_id": "open"}, [END], ids) >= 4
