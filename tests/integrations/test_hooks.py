"""The Claude Code hooks in process: payload shapes, turn outcomes, spools, errors, the learner spawn.

The real entry point in subprocesses (a whole session, concurrency, imports) is in
``test_hook_e2e.py``.
"""

from __future__ import annotations

import hashlib
import io
import time
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from artibot.hookpath.store import files as lean_files
from artibot.hookpath.turns import call
from artibot.hookpath.turns import context
from artibot.hookpath.turns import ended
from artibot.hookpath.turns import handlers
from artibot.hookpath.turns import spawn_learner as learner
from artibot.hookpath.turns import turn as turns
from artibot.store import sessions
from artibot.hookpath.store import hookio
from artibot.store.learned import state_files as state
from artibot.store.log.experiences import ExperienceLog
from artibot.store.fs import FileLock
from artibot.store.home import Home
from tests.factories import write_thresholds
from tests.integrations.spools import SpoolView

FIXTURES = Path(__file__).parent / "fixtures"
EVENTS = {
    "session_start": "session-start",
    "user_prompt_submit": "user-prompt-submit",
    "pre_tool_use": "pre-tool-use",
    "post_tool_use": "post-tool-use",
    "post_tool_use_failure": "post-tool-use-failure",
    "stop": "stop",
    "session_end": "session-end",
}
OPTIONAL = {  # fields Claude Code may leave out (older versions, some tools)
    "session_start": ("model", "source", "permission_mode"),
    "post_tool_use": ("duration_ms", "tool_response", "tool_use_id"),
    "post_tool_use_failure": ("duration_ms", "is_interrupt", "error"),
    "stop": ("last_assistant_message", "stop_hook_active"),
    "session_end": ("reason",),
}
SIMPLE = "fix the typo in the README title"
HARD = ("migrate the billing service from REST to gRPC across the backend, the React frontend and the "
        "Postgres schema, step by step, then add integration tests and a rollback plan")


def fixture(name: str, **changes: object) -> dict:
    doc = orjson.loads((FIXTURES / f"{name}.json").read_bytes())
    doc.update(changes)
    return doc


@pytest.fixture(autouse=True)
def _deterministic_routes(home: Home) -> None:
    """No exploration (on by default): these tests expect each prompt's greedy route.
    A test that writes its own config replaces this file."""
    home.root.mkdir(parents=True, exist_ok=True)
    (home.root / "artibot.config.json").write_text(
        '{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}')


class Driver:
    """Runs ``hooks.main`` in process with a payload on stdin; returns (exit code, stdout)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
        self.monkeypatch = monkeypatch
        self.capsys = capsys

    def __call__(self, event: str, payload: dict | bytes | None = None, **changes: object) -> tuple[int, str]:
        if payload is None:
            payload = fixture(event.replace("-", "_"), **changes)
        data = payload if isinstance(payload, bytes) else orjson.dumps(payload)
        self.monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        code = call.main([event])
        return code, self.capsys.readouterr().out

    def turn(self, prompt: str, tools: list[tuple[str, bool]], sid: str = "s1") -> None:
        self("user-prompt-submit", prompt=prompt, session_id=sid)
        for i, (tool, ok) in enumerate(tools):
            if i and not tools[i - 1][1]:
                time.sleep(0.02)  # the model answers a failure before its next call starts
            if ok:
                self("post-tool-use", tool_name=tool, session_id=sid)
            else:
                self("post-tool-use-failure", tool_name=tool, session_id=sid)
        self("stop", session_id=sid)


@pytest.fixture
def hook(home: Home, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Driver:
    return Driver(monkeypatch, capsys)


def experiences(home: Home) -> list[dict]:
    return ExperienceLog(home).read()


def final(hook: Driver, home: Home, sid: str | None = None) -> list[dict]:
    """The experiences once the session ends (a stopped turn is final at the next prompt or session end)."""
    hook("session-end", **({"session_id": sid} if sid else {}))
    return experiences(home)


def log_text(home: Home) -> str:
    path = sessions.hook_log_path(home)
    return path.read_text() if path.exists() else ""


def check_output(name: str, out: str) -> None:
    if not out:
        return
    doc = orjson.loads(out)
    assert isinstance(doc, dict)
    if name in ("session_start", "user_prompt_submit"):
        spec = doc["hookSpecificOutput"]
        assert spec["hookEventName"] == {"session_start": "SessionStart",
                                         "user_prompt_submit": "UserPromptSubmit"}[name]
        assert isinstance(spec["additionalContext"], str) and spec["additionalContext"]


# ----------------------------------------------------------------------------- payload shapes
@pytest.mark.parametrize("name", sorted(EVENTS))
@pytest.mark.parametrize("variant", ["documented", "extra-fields", "optional-missing", "only-session-id"])
def test_every_payload_shape_exits_0_with_valid_output(hook: Driver, name: str, variant: str) -> None:
    hook("user-prompt-submit", prompt=SIMPLE)  # an open turn for the tool and stop events
    payload = fixture(name)
    if variant == "extra-fields":
        payload.update(prompt_id="p-1", effort="high", agent_id="a-7", agent_type="general-purpose",
                       future_field={"nested": [1, 2, 3]})
    elif variant == "optional-missing":
        for key in OPTIONAL.get(name, ()):
            payload.pop(key, None)
    elif variant == "only-session-id":
        payload = {"session_id": payload["session_id"]}
    code, out = hook(EVENTS[name], payload)
    assert code == 0
    check_output(name, out)
    if name in ("session_start",) or (name == "user_prompt_submit" and variant != "only-session-id"):
        assert out, "SessionStart and UserPromptSubmit give Claude context"


@pytest.mark.parametrize("event", [*EVENTS.values(), "session-end-typo", ""])
@pytest.mark.parametrize("stdin", [b"", b"   \n", b"{not json", b"[1, 2]", b'"text"', b"\xff\xfe\x00garbage"])
def test_empty_or_garbage_stdin_exits_0_silently(hook: Driver, home: Home, event: str, stdin: bytes) -> None:
    code, out = hook(event, stdin)
    assert code == 0
    assert out == ""
    assert log_text(home)  # the problem is in the log, not on stdout


def test_unknown_event_and_no_argv_are_logged(home: Home, capsys: pytest.CaptureFixture[str]) -> None:
    assert call.main(["post-tool-uses"]) == 0
    assert call.main([]) == 0
    assert capsys.readouterr().out == ""
    assert "unknown hook event 'post-tool-uses'" in log_text(home)


def test_prompt_without_text_routes_nothing(hook: Driver, home: Home) -> None:
    code, out = hook("user-prompt-submit", {"session_id": "s1", "user_prompt": SIMPLE})
    assert (code, out) == (0, "")
    assert not SpoolView(home, "s1").exists()


# ----------------------------------------------------------------------------- turns and outcomes
def test_prompt_tells_claude_the_route_and_keeps_only_anonymized_text(hook: Driver, home: Home) -> None:
    secret = "deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789 and mail bob@example.com"
    _, out = hook("user-prompt-submit", prompt=secret, session_id="s1")
    line = orjson.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert line.startswith("artibot router: System ")
    spool = SpoolView(home, "s1").read()
    assert spool["turn"]["decision"]["system"] in ("system1", "system2")
    raw = spool_bytes(home)
    assert b"ghp_abcdef" not in raw and b"bob@example.com" not in raw
    assert b"<EMAIL>" in raw


def test_a_prompt_is_anonymized_once_on_its_way_to_the_log(hook: Driver, home: Home,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """At the prompt (the spool keeps only anonymized text), not again when the turn is logged."""
    from artibot import collector
    from artibot.hookpath.privacy import engine

    prompt = "mail bob@example.com about the typo in the README title"
    seen: list[str] = []

    def counting(real):
        def wrapper(text):
            for t in [text] if isinstance(text, str) else text:
                if "the typo in the README title" in t:
                    seen.append(t)
            return real(text)
        return wrapper

    monkeypatch.setattr(engine, "anonymize", counting(engine.anonymize))
    monkeypatch.setattr(collector, "anonymize", counting(collector.anonymize))
    monkeypatch.setattr(collector, "anonymize_many", counting(collector.anonymize_many))
    hook.turn(prompt, [("Edit", True)])
    [exp] = final(hook, home, "s1")
    assert exp["input"] == "mail <EMAIL> about the typo in the README title"
    assert seen == [prompt]


def spool_bytes(home: Home) -> bytes:
    return b"".join(p.read_bytes() for p in home.sessions_dir.glob("*.json"))


def test_stop_records_one_success_with_decision_fields(hook: Driver, home: Home) -> None:
    hook.turn(SIMPLE, [("Read", True), ("Edit", True)])
    spool = SpoolView(home, "s1").read()
    assert spool["turn"] is None and spool["done"]["outcome"] == "success"
    assert experiences(home) == []  # provisional until the next prompt or the session's end
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == "success" and exp["reached_stop"] is True
    assert exp["routed_to"] == "system1" and exp["domain"] == "docs"
    assert exp["source"] == "claude-code" and exp["tools"] == 2 and exp["tool_failures"] == 0
    assert exp["session_id"] == "s1" and exp["closed_by"] == "session-end"
    assert exp["propensity"] == 1.0 and exp["threshold"] == pytest.approx(0.4)
    assert exp["latency_ms"] >= 0


@pytest.mark.parametrize("tools, outcome", [
    ([("Bash", True), ("Bash", False)], "failed"),  # the last call failed
    ([("Bash", False), ("Bash", True)], "success"),  # recovered
    ([], "success"),
])
def test_last_tool_call_decides_failure(hook: Driver, home: Home, tools: list, outcome: str) -> None:
    hook.turn(SIMPLE, tools)
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == outcome
    assert exp["tool_failures"] == sum(1 for _, ok in tools if not ok)


def test_an_interrupted_tool_call_makes_the_turn_interrupted_even_if_later_calls_succeed(hook: Driver,
                                                                                       home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE)
    hook("post-tool-use-failure", is_interrupt=True, error="interrupted by user")
    hook("post-tool-use")
    hook("stop")
    [exp] = final(hook, home)
    assert exp["outcome"] == "interrupted" and exp["outcome_reason"].startswith("a tool call was interrupted")


def test_a_prompt_after_a_prompt_records_the_interrupted_turn_as_interrupted(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    hook("post-tool-use", session_id="s1")
    hook("user-prompt-submit", prompt=HARD, session_id="s1")
    [exp] = SpoolView(home, "s1").read()["queue"]
    assert exp["outcome"] == "interrupted" and exp["closed_by"] == "next-prompt" and exp["reached_stop"] is False
    assert exp["input"] == SIMPLE and exp["tools"] == 1
    hook("stop", session_id="s1")
    first, second = final(hook, home, "s1")
    assert second["outcome"] == "success" and second["routed_to"] == "system2"


@pytest.mark.parametrize("tools, prompt, outcome", [
    ([("TodoWrite", True), ("Edit", True)], SIMPLE, "escalated"),
    ([("Task", True)], SIMPLE, "escalated"),
    ([("Agent", True)], SIMPLE, "escalated"),
    ([("Read", True)] * (turns.MAX_SYSTEM1_TOOLS + 1), SIMPLE, "escalated"),
    ([("Read", True)] * turns.MAX_SYSTEM1_TOOLS, SIMPLE, "success"),
    ([("TodoWrite", True), ("Edit", True)], HARD, "success"),  # System 2 was meant to plan
    ([("TodoWrite", True), ("Bash", False)], SIMPLE, "failed"),  # failure wins over escalation
])
def test_escalation_rule(hook: Driver, home: Home, tools: list, prompt: str, outcome: str) -> None:
    hook.turn(prompt, tools)
    [exp] = final(hook, home, "s1")
    assert exp["outcome"] == outcome, exp["outcome_reason"]


def test_stop_is_idempotent_with_stop_hook_active(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE)
    hook("stop", stop_hook_active=False)
    hook("stop", stop_hook_active=True)
    hook("stop", stop_hook_active=True)
    assert len(final(hook, home)) == 1


def test_stop_hook_active_still_closes_an_open_turn(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE)
    hook("stop", stop_hook_active=True)
    [exp] = final(hook, home)
    assert exp["reached_stop"] is True


def test_events_outside_a_turn_touch_nothing(hook: Driver, home: Home) -> None:
    for event in ("post-tool-use", "post-tool-use-failure", "stop", "pre-tool-use"):
        assert hook(event) == (0, "")
    assert not home.sessions_dir.exists() and not home.experiences.exists()


def test_tool_durations_and_names_are_kept_in_the_turn(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE)
    hook("post-tool-use", duration_ms=10)
    hook("post-tool-use-failure", duration_ms=5.5)
    hook("post-tool-use", duration_ms="fast")  # ignored: not a number
    turn = SpoolView(home, fixture("stop")["session_id"]).read()["turn"]
    assert turn["tools"] == 3 and turn["tool_failures"] == 1 and not turn["last_failed"]
    assert turn["tool_duration_ms"] == 15.5 and turn["tool_names"] == ["Edit", "Bash"]


def test_a_sub_agents_tool_calls_are_kept_on_its_gateway_binding_not_in_the_turn(
        hook: Driver, home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the gateway, whether a sub-agent's last tool call failed decides where the
    session's next sub-agents run; its calls never count in the parent turn."""
    monkeypatch.setenv("ARTIBOT_GATEWAY_PORT", "41470")
    monkeypatch.setattr(handlers, "_ensure_gateway", lambda call: None)  # no gateway process here
    sid = fixture("stop")["session_id"]
    hook("user-prompt-submit", prompt=SIMPLE)
    with hookio.Spool(str(home.root), sid).edit(create=False) as doc:
        profile = {"route": "system1", "profile": {"effort": "low", "model": "claude-haiku-4-5"}}
        doc["gateway"] = {"agents": {"a-7": {"turn": doc["turn"]["id"], "gateway": profile}}}
    hook("post-tool-use-failure", agent_id="a-7", agent_type="general-purpose")
    view = SpoolView(home, sid).read()
    assert view["gateway"]["agents"]["a-7"]["last_failed"] is True and view["turn"].get("tools", 0) == 0
    hook("post-tool-use", agent_id="a-7")
    assert SpoolView(home, sid).read()["gateway"]["agents"]["a-7"]["last_failed"] is False
    hook("post-tool-use-failure", agent_id="a-unbound")  # an agent the gateway never saw: nothing written
    assert "a-unbound" not in SpoolView(home, sid).read()["gateway"]["agents"]


def test_a_correction_after_an_interrupted_turn_fails_it(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    hook("user-prompt-submit", prompt="no, that's wrong, the title is in docs/index.md", session_id="s1")
    [exp] = SpoolView(home, "s1").read()["queue"]
    assert exp["outcome"] == "failed" and "corrects" in exp["outcome_reason"]


def test_session_end_closes_an_open_turn_as_interrupted_and_removes_the_spool(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s9")
    hook("post-tool-use", session_id="s9")
    assert hook("session-end", session_id="s9") == (0, "")
    [exp] = experiences(home)
    assert exp["outcome"] == "interrupted" and exp["closed_by"] == "session-end"
    assert not SpoolView(home, "s9").exists()
    assert not SpoolView(home, "s9").lock_path.exists()


def test_session_start_closes_stale_spools_of_other_sessions(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="crashed")
    hook("user-prompt-submit", prompt=SIMPLE, session_id="idle")
    hook("stop", session_id="idle")
    hook("user-prompt-submit", prompt=SIMPLE, session_id="recent")
    hook("user-prompt-submit", prompt=SIMPLE, session_id="paused")
    hook("stop", session_id="paused")
    hook("user-prompt-submit", prompt=SIMPLE, session_id="working")
    hook("stop", session_id="working")
    hook("user-prompt-submit", prompt=SIMPLE, session_id="working")
    day = (ended.STALE_SESSION_MS / 1000) + 3600
    hour = turns.FOLLOWUP_WINDOW_MS / 1000 + 60
    for sid, old in (("crashed", day), ("idle", day), ("paused", hour), ("working", hour)):
        path = SpoolView(home, sid).path
        doc = orjson.loads(path.read_bytes())
        doc["updated_ms"] -= int(old * 1000)
        path.write_bytes(orjson.dumps(doc))
        st = path.stat()
        os.utime(path, (st.st_atime - old, st.st_mtime - old))
    hook("session-start", session_id="new")
    closed = {e["session_id"]: (e["closed_by"], e["outcome"]) for e in experiences(home)}
    assert closed == {"crashed": ("stale-session", "interrupted"), "idle": ("stale-session", "success"),
                      "paused": ("timeout", "success"), "working": ("next-prompt", "success")}
    for sid in ("crashed", "idle", "paused"):
        assert not SpoolView(home, sid).exists()
    assert SpoolView(home, "working").read()["turn"] is not None  # still working: kept
    assert SpoolView(home, "recent").read()["turn"] is not None


def test_session_start_does_not_close_its_own_open_turn(hook: Driver, home: Home) -> None:
    # SessionStart(compact) can fire in the middle of a turn.
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    hook("session-start", session_id="s1", source="compact")
    assert experiences(home) == []
    hook("stop", session_id="s1")
    assert final(hook, home, "s1")[0]["outcome"] == "success"


# ----------------------------------------------------------------------------- session context
def test_session_start_context_shows_state_and_pending_review(hook: Driver, home: Home) -> None:
    write_thresholds(home, {"default": 0.45, "domains": {"backend": 0.5, "docs": 0.3}})
    keys = [f"docs:fix:pattern{i}" for i in range(8)]
    state.write_system1_patterns(home, {"patterns": [{"key": k, "status": "active"} for k in keys]
                                        + [{"key": "x:y", "status": "demoted"}]})
    home.pending_review.write_text("{}")
    _, out = hook("session-start")
    text = orjson.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "default 0.45" in text and '"backend" 0.50' in text and '"docs" 0.30' in text
    assert "(8 active;" in text and f'"{keys[0]}"' in text and "+3 more" in text and "x:y" not in text
    assert "run /learn" in text
    assert len(text) <= context.SESSION_CONTEXT_LIMIT


def test_session_context_is_truncated_safely() -> None:
    summary = {"thresholds": {"default": 0.4, "domains": {f"domain{i:03d}": 0.5 for i in range(400)}},
               "system1_patterns": []}
    text = context.session_context(summary, pending_review=True)
    assert len(text) <= context.SESSION_CONTEXT_LIMIT and text.endswith("…")


def test_damaged_state_is_named_in_the_context_and_logged(hook: Driver, home: Home) -> None:
    home.ensure()
    home.thresholds.write_text("{broken")
    code, out = hook("session-start")
    assert code == 0
    text = orjson.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "thresholds.json" in text and "artibot doctor" in text
    assert "CorruptFileError" in log_text(home)


@pytest.mark.parametrize("reason, system, line", [
    ("threshold", "system2", "System 2 (deliberate) — complexity 0.72 >= threshold 0.40 for backend. Plan"),
    ("threshold", "system1", "System 1 (fast) — complexity 0.10 < threshold 0.40 for backend. Answer"),
    ("cache", "system1", "pattern backend:fix:x is in the System 1 cache"),
    ("forced", "system2", "asks for deliberate thinking"),
    ("explore", "system2", "complexity 0.10 < threshold 0.40 for backend (exploring the other route)"),
])
def test_routing_line(reason: str, system: str, line: str) -> None:
    cx = 0.72 if (system == "system2" and reason == "threshold") else 0.1
    text = context.routing_line({"system": system, "complexity": cx, "threshold": 0.4, "domain": "backend",
                                 "pattern": "backend:fix:x", "reason": reason})
    assert line in text


# ----------------------------------------------------------------------------- errors
def test_errors_go_to_the_log_without_the_prompt(hook: Driver, home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    from artibot.hookpath.router import RoutingPolicy

    def explode(self: RoutingPolicy, text: str, **kwargs: object) -> None:
        raise ValueError(f"cannot route {text!r}")

    monkeypatch.setattr(RoutingPolicy, "decide", explode)
    prompt = "refactor billing for carol@example.org please"
    code, out = hook("user-prompt-submit", prompt=prompt)
    # nothing but the notice the user sees once a session, itself without the prompt
    assert code == 0 and list(orjson.loads(out)) == ["systemMessage"] and "carol" not in out
    log = log_text(home)
    assert "user-prompt-submit\tValueError: " in log
    assert "carol" not in log and "refactor billing" not in log
    assert oct(sessions.hook_log_path(home).stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize("message, logged", [
    ("boom on 'refactor the billing module for carol@example.org now'", "<PROMPT>"),
    ("boom near 'the billing module for carol'", "message withheld"),
    ("boom, mail dave@example.org", "<EMAIL>"),
    ("boom", "boom"),
])
def test_error_messages_never_quote_the_prompt(message: str, logged: str) -> None:
    prompt = "refactor the billing module for carol@example.org now"
    out = call.without_prompt(message, prompt)
    assert logged in out and "carol" not in out and "dave@" not in out


def test_damaged_state_on_prompt_is_logged_and_told_once(hook: Driver, home: Home) -> None:
    home.ensure()
    home.system1_patterns.write_text('{"schema_version": 1}')
    code, out = hook("user-prompt-submit", prompt=SIMPLE)
    assert code == 0 and list(orjson.loads(out)) == ["systemMessage"] and "CorruptFileError" in out
    assert hook("user-prompt-submit", prompt=SIMPLE) == (0, "")  # once a session
    assert "CorruptFileError" in log_text(home)


def test_unusable_home_still_exits_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("ARTIBOT_HOME", str(blocker / "home"))
    drive = Driver(monkeypatch, capsys)
    for name, event in EVENTS.items():
        code, out = drive(event)
        assert code == 0
        check_output(name, out)


def test_damaged_spool_is_quarantined_and_the_session_goes_on(hook: Driver, home: Home) -> None:
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    spool = SpoolView(home, "s1")
    spool.path.write_bytes(b"{torn")
    hook("user-prompt-submit", prompt=SIMPLE, session_id="s1")
    assert spool.read()["turn"] is not None
    assert [p.read_bytes() for p in home.quarantine_dir.iterdir()] == [b"{torn"]
    assert "damaged session spool" in log_text(home)


def test_corrupt_session_spool_read_raises(home: Home) -> None:
    home.ensure()
    home.sessions_dir.mkdir()
    spool = SpoolView(home, "s1")
    spool.path.write_bytes(b'{"schema_version": 1, "turn": 3}')
    with pytest.raises(ValueError, match='"turn" must be an object or null'):
        spool.read()


@pytest.mark.parametrize("sid", ["../../etc/passwd", "a/b", ".hidden", "x" * 300, "é"])
def test_unsafe_session_ids_become_hashed_file_names(home: Home, sid: str) -> None:
    name = hookio.spool_name(sid)
    assert name.startswith("h-") and "/" not in name and name == hookio.spool_name(sid)
    assert hookio.spool_name("3f1c9a2e-5b7d") == "3f1c9a2e-5b7d"
    assert hookio.spool_name(None) == hookio.UNKNOWN_SESSION
    assert name == "h-" + hashlib.sha256(sid.encode("utf-8", "replace")).hexdigest()[:32]  # stable across versions


def test_the_hash_of_a_session_id_needs_no_hashlib_here() -> None:
    """The interpreter's own SHA-256 module is found under one of the names hookio tries: a
    Python that renames it again fails here, instead of quietly loading OpenSSL in the hook."""
    import importlib.util

    if sys.implementation.name != "cpython":
        pytest.skip("the built-in SHA-256 module is CPython's")
    assert any(importlib.util.find_spec(name) for name in hookio.SHA256_MODULES)
    code = ("import sys; from artibot.hookpath.store import hookio; hookio.spool_name('a/b'); "
            "print('hashlib' in sys.modules, '_hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# ----------------------------------------------------------------------------- learner
def small_batches(home: Home, n: int = 2) -> None:
    home.ensure()
    home.config_file.write_text(orjson.dumps(
        {"learning": {"lifelong": {"batchSize": 2, "grpoGroupSize": 2}}}).decode())
    from artibot.collector import collect

    for _ in range(n):
        collect({"input": "fix typo", "domain": "docs", "complexity": 0.1, "routed_to": "system1",
                 "outcome": "success", "latency_ms": 5, "confidence": 0.9}, home=home)


class FakePopen:
    calls: list[dict] = []

    def __init__(self, args: list[str], **kwargs: object):
        self.pid = 4242
        self.returncode = None
        FakePopen.calls.append({"args": args, **kwargs})


@pytest.fixture
def fake_popen(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    FakePopen.calls = []
    import subprocess

    monkeypatch.setattr(subprocess, "Popen", FakePopen)
    return FakePopen.calls


def test_session_end_spawns_a_detached_learner_with_the_home_pinned(hook: Driver, home: Home,
                                                                     fake_popen: list[dict]) -> None:
    small_batches(home)
    hook("session-end")
    [call] = fake_popen
    assert call["args"][1:] == ["-m", "artibot", "learn", "--unattended", "--quiet"]  # the crontab's job
    assert call["start_new_session"] is True and call["close_fds"] is True
    assert call["stdin"] == call["stdout"] == call["stderr"] == subprocess.DEVNULL
    assert call["env"]["ARTIBOT_HOME"] == str(home.root) and call["cwd"] == home.root
    stamp = sessions.read_learner_stamp(home)
    assert stamp["pid"] == 4242 and stamp["reason"] == "session-end"


def test_no_learner_without_a_full_batch_or_while_one_runs(hook: Driver, home: Home,
                                                          fake_popen: list[dict]) -> None:
    hook("session-end")
    assert fake_popen == [] and "no learner needed" in log_text(home)
    small_batches(home)
    with FileLock(home.learner_lock, timeout=0):
        hook("session-end")
    assert fake_popen == [] and "already running" in log_text(home)
    assert sessions.read_learner_stamp(home) is None


def test_no_learner_while_a_round_waits_for_review(hook: Driver, home: Home, fake_popen: list[dict]) -> None:
    small_batches(home)
    home.pending_review.write_text("{}")
    hook("session-end")
    hook("session-start")
    assert fake_popen == [] and "waiting for review" in log_text(home)


def test_session_start_spawns_only_when_the_last_start_is_stale(hook: Driver, home: Home,
                                                                fake_popen: list[dict]) -> None:
    small_batches(home)
    hook("session-start")
    assert len(fake_popen) == 1  # never started before
    hook("session-start")
    assert len(fake_popen) == 1  # just started
    stamp = sessions.read_learner_stamp(home)
    sessions.write_learner_stamp(home, started_ms=stamp["started_ms"] - learner.STALE_AFTER_MS - 1,
                                 pid=1, reason="old")
    hook("session-start")
    assert len(fake_popen) == 2


def test_stamp_staleness(home: Home) -> None:
    assert learner.stamp_is_stale(str(home.root), now=10**12)[0]
    sessions.write_learner_stamp(home, started_ms=10**12, pid=1, reason="t")
    assert not learner.stamp_is_stale(str(home.root), now=10**12 + learner.STALE_AFTER_MS)[0]
    assert learner.stamp_is_stale(str(home.root), now=10**12 + learner.STALE_AFTER_MS + 1)[0]
    (home.sessions_dir / sessions.LEARNER_STAMP).write_text("garbage")
    stale, why = learner.stamp_is_stale(str(home.root), now=0)
    assert stale and "unreadable" in why


def test_the_detached_learners_job_is_the_crontabs_command(home: Home, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # what SessionEnd starts (above) run in-process: one round, its lines in the hook log, the
    # applied rounds measured for the next SessionStart (no prompt hook measures them again)
    from artibot.cli.app import run
    from artibot.hookpath.names import ROUND_NOTICES

    small_batches(home)
    home.config_file.write_text(orjson.dumps({"learning": {"lifelong": {"batchSize": 2, "grpoGroupSize": 2},
                                                           "checkpoints": {"unattended": "defaults"}}}).decode())
    monkeypatch.setenv("ARTIBOT_HOME", str(home.root))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert run(["learn", "--unattended", "--quiet"]) == 0
    log = log_text(home)
    assert "\tlearner\tlearner running" in log and "\tlearner\tlearner finished: " in log
    assert (home.sessions_dir / ROUND_NOTICES).exists()
    assert ExperienceLog(home).read() == []  # the round took the batch


def test_the_unattended_learner_takes_flush_as_learn_does(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    from artibot.cli.app import run

    small_batches(home, n=1)  # one experience: less than the batch of 2
    home.config_file.write_text(orjson.dumps({"learning": {"lifelong": {"batchSize": 2, "grpoGroupSize": 2},
                                                           "checkpoints": {"unattended": "defaults"}}}).decode())
    monkeypatch.setenv("ARTIBOT_HOME", str(home.root))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert run(["learn", "--unattended", "--quiet"]) == 0
    assert len(ExperienceLog(home).read()) == 1  # too few without --flush
    assert run(["learn", "--unattended", "--quiet", "--flush"]) == 0
    assert ExperienceLog(home).read() == []


def test_the_unattended_learner_stops_at_a_held_lock_and_says_so(home: Home, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from artibot.cli.app import run

    small_batches(home)
    monkeypatch.setenv("ARTIBOT_HOME", str(home.root))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with FileLock(home.learner_lock, timeout=0):
        code = run(["learn", "--unattended"])
    assert code == 0
    assert "learner skipped" in log_text(home)
    assert "another learner holds the data home" in capsys.readouterr().out
    assert len(ExperienceLog(home).read()) == 2  # nothing taken


def test_a_recent_check_without_a_batch_skips_the_next_one(home: Home) -> None:
    root = str(home.root)
    assert learner.stamp_is_stale(root, now=10**12)[0]
    learner.note_check(root, now=10**12)
    stale, why = learner.stamp_is_stale(root, now=10**12 + learner.CHECK_EVERY_MS - 1)
    assert not stale and "last check" in why
    assert learner.stamp_is_stale(root, now=10**12 + learner.CHECK_EVERY_MS)[0]
    (home.sessions_dir / learner.CHECK_STAMP).write_text("garbage")
    assert learner.stamp_is_stale(root, now=10**12)[0]  # a damaged check stamp: check again


def test_a_hook_that_finds_the_log_locked_keeps_its_turns_queued_then_the_next_one_stores_them(
        hook: Driver, home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lean_files, "LOCK_BUDGET_S", 0.2)  # the shipped 2 s: scripts/bench_hook_lock.py
    hook.turn(SIMPLE, [("Read", True)], sid="s1")
    with FileLock(home.experiences_lock):  # a learner holding the log
        assert hook("session-end", session_id="s1") == (0, "")
        assert hook("session-end", session_id="s1") == (0, "")  # run again: still nothing lost
    log = (home.logs_dir / "hooks.log").read_text()
    assert "1 turn(s) stay queued in" in log and "s1.json" in log
    spool = SpoolView(home, "s1")
    assert len(spool.read()["queue"]) == 1 and experiences(home) == []
    old = (spool.path.stat().st_mtime - turns.FOLLOWUP_WINDOW_MS / 1000 - 60)
    os.utime(spool.path, (old, old))  # idle past the follow-up window
    hook("session-start", session_id="s2")
    [stored] = experiences(home)
    assert stored["session_id"] == "s1" and not spool.exists()
    hook("session-start", session_id="s3")
    assert len(experiences(home)) == 1


def test_a_hook_gives_up_on_a_held_lock_within_its_budget(hook: Driver, home: Home,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Every lock wait of one hook shares one budget: a session with several waits (the
    spool of another hook, the log, the learner's count) is not given each in turn."""
    import time

    monkeypatch.setattr(lean_files, "LOCK_BUDGET_S", 0.3)
    hook.turn(SIMPLE, [("Read", True)], sid="s1")
    with FileLock(home.experiences_lock), FileLock(Path(SpoolView(home, "s1").lock_path)):
        started = time.monotonic()
        hook("session-end", session_id="s1")
        spent = time.monotonic() - started
    assert spent < 0.3 + 1.0, f"waited {spent:.2f} s for locks on a 0.3 s budget"
    assert "stayed locked" in (home.logs_dir / "hooks.log").read_text()


@pytest.mark.parametrize("where", ["sessions/s1.json", "logs/hooks.log", "sessions/.router-summary.json",
                                   "sessions/.router-cache.marshal", ".daily-experiences.lock"])
def test_a_fifo_in_the_hooks_files_never_hangs_a_hook(hook: Driver, home: Home, where: str) -> None:
    import signal

    hook.turn(SIMPLE, [("Read", True)], sid="s1")
    path = home.root / where
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    os.mkfifo(path, 0o600)

    def hung(*_: object) -> None:
        raise TimeoutError(f"a hook hung on the FIFO at {where}")

    signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)  # a hang fails the test instead of the whole run
    try:
        for event in ("session-start", "user-prompt-submit", "stop", "session-end"):
            assert hook(event, session_id="s1")[0] == 0
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    if where != "logs/hooks.log":
        assert "not a regular file" in (home.logs_dir / "hooks.log").read_text()


def test_doctor_finds_nothing_after_an_ordinary_session(hook: Driver, home: Home) -> None:
    from artibot.store import doctor

    home.root.chmod(0o700)  # as artibot creates it (the fixture above made it with the test's umask)
    (home.root / "artibot.config.json").chmod(0o600)
    hook("session-start", session_id="s1")
    hook.turn(SIMPLE, [("Read", True), ("Edit", False)], sid="s1")
    hook.turn(HARD, [("Bash", True)], sid="s1")
    hook("session-start", session_id="s2")  # another session: the hooks' caches and stamps are all written
    hook.turn(SIMPLE, [("Read", True)], sid="s2")
    hook("session-end", session_id="s1")
    names = {p.name for p in home.sessions_dir.iterdir()}
    assert {".learner-check.json", ".router-summary.json"} & names, names
    problems = [(f.path.name, f.problem) for f in doctor.check(home) if f.severity != "ok"]
    assert not problems
    before = {p.name: p.read_bytes() for p in home.sessions_dir.iterdir()}
    doctor.repair(home)
    assert {p.name: p.read_bytes() for p in home.sessions_dir.iterdir()} == before
    assert not home.quarantine_dir.exists() or not any(home.quarantine_dir.iterdir())
