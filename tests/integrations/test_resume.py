"""A session's last turn waits past the session's end for the first prompt of the same
session resumed (``claude --continue``/``--resume``): a correction there fails it, once."""

from __future__ import annotations

import os

import pytest

from artibot.hookpath.turns import call
from artibot.hookpath.turns import turn as turns
from artibot.hookpath.store import hookio
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests.integrations.spools import SpoolView
from tests.integrations.test_hooks import Driver, SIMPLE
from tests.integrations.test_hooks import _deterministic_routes, hook  # noqa: F401  (greedy routes)

CORRECTION = "no, that's wrong — the title is in docs/index.md"
MINUTE = 60_000


@pytest.fixture(autouse=True)
def _hold_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARTIBOT_RESUME_WINDOW_MIN")  # the shipped window (the suite's default is 0)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch):
    """Moves the hooks' clock forward: ``clock(31)`` makes every later hook run 31 minutes on."""
    real = hookio.now_ms
    shift = {"ms": 0}
    monkeypatch.setattr(hookio, "now_ms", lambda: real() + shift["ms"])

    def advance(minutes: float) -> int:
        shift["ms"] += int(minutes * MINUTE)
        return hookio.now_ms()

    return advance


def log(home: Home) -> list[dict]:
    return ExperienceLog(home).read()


def held(home: Home, sid: str = "s1") -> dict | None:
    doc = SpoolView(home, sid).read()
    return doc["done"] if doc else None


def test_the_last_turn_waits_past_session_end_and_every_other_is_written(hook: Driver, home: Home) -> None:
    hook.turn(SIMPLE, [("Edit", True)])
    hook.turn("now fix the one in CONTRIBUTING", [("Edit", True)])
    hook("session-end", session_id="s1")
    [first] = log(home)  # what the learner started at session end sees
    assert first["input"] == SIMPLE and first["closed_by"] == "next-prompt"
    last = held(home)
    assert last["input"] == "now fix the one in CONTRIBUTING"
    assert last["hold_until"] == last["stopped_ms"] + turns.RESUME_WINDOW_MS


def test_a_correction_after_a_resume_fails_the_last_turn_exactly_once(hook: Driver, home: Home) -> None:
    hook.turn(SIMPLE, [("Edit", True)])
    hook("session-end", session_id="s1")
    opened = held(home)["id"]
    hook("session-start", session_id="s1", source="resume")
    assert log(home) == []
    hook.turn(CORRECTION, [("Edit", True)])
    hook("session-end", session_id="s1")
    [first] = log(home)
    assert first["id"] == opened and first["outcome"] == "failed"
    assert first["closed_by"] == "resumed-prompt" and "corrects it" in first["outcome_reason"]
    assert held(home)["input"].startswith("no, that")  # the resumed session's own last turn waits in turn
    call.settle_waiting_turns(str(home.root), now=hookio.now_ms() + turns.RESUME_WINDOW_MS + MINUTE)
    ids = [r["id"] for r in log(home)]
    assert len(ids) == len(set(ids)) == 2
    assert not SpoolView(home, "s1").exists()


def test_a_neutral_prompt_after_a_resume_keeps_the_outcome(hook: Driver, home: Home) -> None:
    hook.turn(SIMPLE, [("Edit", True)])
    hook("session-end", session_id="s1")
    hook("session-start", session_id="s1", source="resume")
    hook.turn("thanks, now commit it", [("Bash", True)])
    hook("session-end", session_id="s1")
    [first] = log(home)
    assert (first["outcome"], first["closed_by"]) == ("success", "resumed-prompt")


def test_a_correction_after_the_hold_judges_nothing(hook: Driver, home: Home, clock) -> None:
    hook.turn(SIMPLE, [("Edit", True)])
    hook("session-end", session_id="s1")
    clock(turns.RESUME_WINDOW_MS / MINUTE + 1)
    hook("session-start", session_id="s1", source="resume")
    hook("user-prompt-submit", prompt=CORRECTION, session_id="s1")
    hook("session-end", session_id="s1")
    [first] = log(home)
    assert (first["outcome"], first["closed_by"]) == ("success", "timeout")


def test_a_session_ended_mid_turn_holds_it_interrupted_and_only_a_correction_fails_it(hook: Driver,
                                                                                      home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    hook("session-end", session_id="s1")
    cut = held(home)
    assert cut["outcome"] == "interrupted" and cut["cut_off"] and "stopped_ms" not in cut
    hook("session-start", session_id="s1", source="resume")
    hook("user-prompt-submit", prompt="think harder about it", session_id="s1")  # deeper work: not a correction
    hook("stop", session_id="s1")
    hook("session-end", session_id="s1")
    [first] = log(home)
    assert (first["outcome"], first["reached_stop"], first["closed_by"]) == ("interrupted", False, "resumed-prompt")

    hook("user-prompt-submit", prompt=SIMPLE, session_id="s2")
    hook("session-end", session_id="s2")
    hook("session-start", session_id="s2", source="resume")
    hook("user-prompt-submit", prompt=CORRECTION, session_id="s2")
    hook("session-end", session_id="s2")
    [again] = [r for r in log(home) if r["session_id"] == "s2"]
    assert again["outcome"] == "failed" and again["reached_stop"] is False


def test_a_resumed_session_that_ends_without_a_prompt_keeps_the_same_deadline(hook: Driver, home: Home,
                                                                               clock) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    hook("session-end", session_id="s1")
    until = held(home)["hold_until"]
    clock(10)
    hook("session-start", session_id="s1", source="resume")
    hook("session-end", session_id="s1")
    assert held(home)["hold_until"] == until and log(home) == []
    clock(turns.RESUME_WINDOW_MS / MINUTE)
    hook("session-start", session_id="s1", source="resume")
    hook("session-end", session_id="s1")  # past the deadline: written, unjudged
    [first] = log(home)
    assert first["outcome"] == "interrupted" and first["closed_by"] == "session-end"


def _age(home: Home, sid: str, minutes: float) -> None:
    path = SpoolView(home, sid).path
    st = path.stat()
    os.utime(path, (st.st_atime - minutes * 60, st.st_mtime - minutes * 60))


def test_another_session_writes_a_held_turn_once_its_hold_is_over(hook: Driver, home: Home, clock) -> None:
    hook.turn(SIMPLE, [("Edit", True)])
    hook("session-end", session_id="s1")
    _age(home, "s1", turns.FOLLOWUP_WINDOW_MS / MINUTE + 1)  # idle on disk, but its hold runs
    hook("session-start", session_id="other")
    assert log(home) == [] and held(home) is not None
    clock(turns.RESUME_WINDOW_MS / MINUTE + 1)
    hook("session-start", session_id="other")
    [first] = log(home)
    assert (first["outcome"], first["closed_by"]) == ("success", "timeout")
    assert not SpoolView(home, "s1").exists()


def test_learn_and_collect_write_held_turns_whose_hold_is_over(hook: Driver, home: Home, clock,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from artibot.cli.app import app

    for sid in ("s1", "s2"):
        hook.turn(SIMPLE, [("Edit", True)], sid=sid)
        hook("session-end", session_id=sid)
    assert CliRunner().invoke(app, ["learn", "--yes"]).exit_code == 0
    assert log(home) == []  # still held: learn leaves them waiting
    clock(turns.RESUME_WINDOW_MS / MINUTE + 1)
    for sid in ("s1", "s2"):
        _age(home, sid, turns.FOLLOWUP_WINDOW_MS / MINUTE + 1)
    assert CliRunner().invoke(app, ["learn", "--yes"]).exit_code == 0  # the CLI's learn settles them first
    assert sorted(r["session_id"] for r in log(home)) == ["s1", "s2"]

    hook.turn(SIMPLE, [("Edit", True)], sid="s3")
    hook("session-end", session_id="s3")
    clock(turns.RESUME_WINDOW_MS / MINUTE + 1)
    _age(home, "s3", turns.FOLLOWUP_WINDOW_MS / MINUTE + 1)
    result = CliRunner().invoke(app, ["collect", "--input", "rename a variable", "--domain", "general",
                                      "--complexity", "0.1", "--routed-to", "system1", "--outcome", "success",
                                      "--latency-ms", "100", "--confidence", "0.9",
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    assert sorted(r["session_id"] or "" for r in log(home)) == ["", "s1", "s2", "s3"]


@pytest.mark.parametrize("value, minutes", [("0", 0), ("5", 5), ("90", 90), ("soon", 30), ("-1", 30)])
def test_the_window_can_be_set_and_a_bad_value_is_named(hook: Driver, home: Home, monkeypatch: pytest.MonkeyPatch,
                                                        value: str, minutes: int) -> None:
    monkeypatch.setenv("ARTIBOT_RESUME_WINDOW_MIN", value)
    hook.turn(SIMPLE, [("Edit", True)])
    hook("session-end", session_id="s1")
    if minutes == 0:
        assert len(log(home)) == 1 and not SpoolView(home, "s1").exists()
    else:
        last = held(home)
        assert last["hold_until"] - last["stopped_ms"] == minutes * MINUTE
    said = (home.root / "logs" / "hooks.log").read_text() if (home.root / "logs" / "hooks.log").exists() else ""
    assert ("ARTIBOT_RESUME_WINDOW_MIN" in said) == (value in ("soon", "-1"))


def test_status_counts_the_turns_waiting_for_a_resumed_session(hook: Driver, home: Home) -> None:
    from typer.testing import CliRunner

    from artibot.cli.app import app
    from artibot.reports.status import status

    assert status(home=home)["held_for_resume"] == 0
    for sid in ("s1", "s2"):
        hook.turn(SIMPLE, [("Edit", True)], sid=sid)
    hook("session-end", session_id="s1")
    assert status(home=home)["held_for_resume"] == 1  # s2 still runs: its stopped turn is not held
    (home.root / "sessions" / "broken.json").write_text("{not json")
    result = CliRunner().invoke(app, ["status"])
    assert result.exit_code == 0, result.output
    assert "turns waiting for a resumed session: 1" in result.output


def test_a_round_settles_the_turns_whose_hold_is_over_itself(hook: Driver, home: Home, clock) -> None:
    """Step 1 of the learning cycle hands over the waiting turns, whoever runs it (here the API)."""
    from artibot import learn

    hook.turn(SIMPLE, [("Edit", True)])
    hook("session-end", session_id="s1")
    learn(home=home.root, dry_run=True)  # a dry run writes nothing, the spool included
    learn(home=home.root)  # the hold is not over: the turn still waits for a resumed session
    assert log(home) == [] and held(home)["input"] == SIMPLE
    clock(turns.RESUME_WINDOW_MS / MINUTE + 1)
    learn(home=home.root, dry_run=True)
    assert log(home) == []
    report = learn(home=home.root)
    [record] = log(home)
    assert (record["input"], record["closed_by"]) == (SIMPLE, "timeout")
    assert not SpoolView(home, "s1").exists()
    assert report.remainder == 1  # the round saw it (fewer than a batch: nothing learned yet)
