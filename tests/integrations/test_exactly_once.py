"""A turn's record id is fixed when the turn opens: a hand-over to the log that a kill made
run twice (the log appended, the spool not yet rewritten) stores each turn once."""

from __future__ import annotations

import pytest

from artibot.hookpath.turns import ended
from artibot.hookpath.store import hookio
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests.integrations.test_hooks import Driver, SIMPLE  # noqa: F401  (fixtures below)
from tests.integrations.test_hooks import _deterministic_routes, hook  # noqa: F401  (greedy routes)


def _queue(home: Home, sid: str) -> list[dict]:
    return hookio.Spool(str(home.root), sid).read()["queue"]


def test_a_turn_has_its_id_from_the_prompt_on(hook, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    opened = hookio.Spool(str(home.root), "s1").read()["turn"]["id"]
    assert opened.startswith("exp_") and len(opened) == 32
    hook("stop", session_id="s1")
    hook("session-end", session_id="s1")
    [stored] = ExperienceLog(home).read()
    assert stored["id"] == opened


@pytest.mark.parametrize("replays", [1, 3])
def test_a_flush_replayed_after_a_kill_stores_each_turn_once(hook, home: Home, monkeypatch, replays) -> None:
    for i in range(3):
        hook.turn(f"{SIMPLE} number {i}", [("Edit", True)])
    hook("user-prompt-submit", prompt="and the next one", session_id="s1")  # judges the last: queued
    queued = _queue(home, "s1")
    assert len(queued) == 3
    # The kill lands between the log's append and the spool's rewrite: the queue survives.
    real_edit = hookio.Spool.edit

    class KeepQueue:
        def __init__(self, spool, **kw):
            self.inner = real_edit(spool, **kw)

        def __enter__(self):
            doc = self.inner.__enter__()
            self.doc, self.keep = doc, list(doc.get("queue") or []) if doc else []
            return doc

        def __exit__(self, *exc):
            if self.doc is not None:
                self.doc["queue"] = self.keep  # as if the rewrite never happened
            return self.inner.__exit__(*exc)

    with monkeypatch.context() as patch:
        patch.setattr(hookio.Spool, "edit", lambda self, **kw: KeepQueue(self, **kw))
        for _ in range(replays):
            ended.flush(_Call(home), hookio.Spool(str(home.root), "s1"))
    assert _queue(home, "s1") == queued  # the kill kept the queue
    hook("session-end", session_id="s1")  # the next hand-over replays it
    stored = ExperienceLog(home).read()
    ids = [r["id"] for r in stored]
    assert len(ids) == len(set(ids)) == 4, [(r["input"], r["outcome"]) for r in stored]
    assert {q["id"] for q in queued} <= set(ids)


class _Call:
    """The part of a hook call that :func:`ended.flush` uses."""

    def __init__(self, home: Home, root: str = ""):
        self._home = home
        self.root = root

    def home(self) -> Home:
        return self._home

    def log_error(self, exc: Exception, doing: str) -> None:
        raise AssertionError(f"{doing}: {exc}")

    def attempt(self, doing, fn):
        return fn()

