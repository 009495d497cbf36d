"""One contract for every client's adapter (Gemini CLI, Codex CLI, Cursor), in process.

Each client's payloads drive the same turn model: a plain turn, a failing tool, a
correction in the next prompt, a secret in a prompt, harness input, garbage on stdin.
Gemini CLI's and Codex CLI's payloads are the fields their hooks send (read in their
source, and checked in the real clients by ``tests/e2e``); Cursor's are its documented
examples (``fixtures/cursor``: Cursor was not run).
"""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import orjson
import pytest

from artibot.hookpath import adapter
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests.integrations.spools import SpoolView

CURSOR = Path(__file__).parent / "fixtures" / "cursor"
SIMPLE = "fix the typo in the README title"
HARD = ("migrate the billing service from REST to gRPC across the backend, the React frontend and the "
        "Postgres schema, step by step, then add integration tests and a rollback plan")
TOKEN = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"
SID = "5f7c1c2e-0000-4000-8000-000000000001"


def cursor_payload(event: str, n: int = 1, **changes: object) -> dict:
    doc = orjson.loads((CURSOR / "common.json").read_bytes())
    doc.update(orjson.loads((CURSOR / f"{event}.json").read_bytes()))
    doc.update(hook_event_name=event, conversation_id=SID, generation_id=f"gen-{n}")
    if "session_id" in doc:
        doc["session_id"] = SID
    doc.update(changes)
    return doc


@dataclass(frozen=True)
class Client:
    """How one client says each moment of a session: (event name, payload)."""

    start: Callable[[], tuple[str, dict]]
    prompt: Callable[[str, int], tuple[str, dict]]
    tool: Callable[[bool, int], tuple[str, dict]]
    stop: Callable[[int], tuple[str, dict]]
    end: Callable[[], tuple[str, dict]]
    prompt_output: Callable[[dict], str | None]
    """The routing text in the prompt hook's output (None: the client takes none)."""


def _specific(out: dict) -> str | None:
    return (out.get("hookSpecificOutput") or {}).get("additionalContext")


def _gemini_base(event: str) -> dict:
    return {"session_id": SID, "transcript_path": "/tmp/chats/session.json", "cwd": "/tmp/project",
            "hook_event_name": event, "timestamp": "2026-11-25T01:00:00.000Z"}


def _codex_base(event: str, n: int = 1) -> dict:
    return {"session_id": SID, "turn_id": f"turn-{n}", "transcript_path": None, "cwd": "/tmp/project",
            "hook_event_name": event, "model": "gpt-5.1-codex", "permission_mode": "default"}


GEMINI = Client(
    start=lambda: ("SessionStart", {**_gemini_base("SessionStart"), "source": "startup"}),
    prompt=lambda text, n: ("BeforeAgent", {**_gemini_base("BeforeAgent"), "prompt": text}),
    tool=lambda ok, n: ("AfterTool", {**_gemini_base("AfterTool"), "tool_name": "run_shell_command",
                                      "tool_input": {"command": "make test"},
                                      "tool_response": {"llmContent": "Output: ok" if ok else "Output: boom\nExit Code: 2",
                                                        "returnDisplay": "ok"}}),
    stop=lambda n: ("AfterAgent", {**_gemini_base("AfterAgent"), "prompt": "x", "prompt_response": "done",
                                   "stop_hook_active": False}),
    end=lambda: ("SessionEnd", {**_gemini_base("SessionEnd"), "reason": "exit"}),
    prompt_output=_specific,
)
CODEX = Client(
    start=lambda: ("SessionStart", {**_codex_base("SessionStart"), "source": "startup"}),
    prompt=lambda text, n: ("UserPromptSubmit", {**_codex_base("UserPromptSubmit", n), "prompt": text}),
    tool=lambda ok, n: ("PostToolUse", {**_codex_base("PostToolUse", n), "tool_name": "Bash", "tool_use_id": "call_1",
                                        "tool_input": {"command": "make test"},
                                        "tool_response": {"exit_code": 0 if ok else 2, "output": "x"}}),
    stop=lambda n: ("Stop", {**_codex_base("Stop", n), "stop_hook_active": False, "last_assistant_message": "done"}),
    end=lambda: ("SessionEnd", {"session_id": SID, "transcript_path": None, "cwd": "/tmp/project",
                                "hook_event_name": "SessionEnd", "reason": "other"}),
    prompt_output=_specific,
)
CURSOR_CLIENT = Client(
    start=lambda: ("sessionStart", cursor_payload("sessionStart")),
    prompt=lambda text, n: ("beforeSubmitPrompt", cursor_payload("beforeSubmitPrompt", n, prompt=text)),
    tool=lambda ok, n: (("postToolUse", cursor_payload("postToolUse", n)) if ok
                        else ("postToolUseFailure", cursor_payload("postToolUseFailure", n))),
    stop=lambda n: ("stop", cursor_payload("stop", n)),
    end=lambda: ("sessionEnd", cursor_payload("sessionEnd")),
    prompt_output=lambda out: None,
)
CLIENTS = {"gemini-cli": GEMINI, "codex-cli": CODEX, "cursor": CURSOR_CLIENT}


@pytest.fixture(autouse=True)
def _greedy_routes(home: Home) -> None:
    home.root.mkdir(parents=True, exist_ok=True)
    (home.root / "artibot.config.json").write_text(
        '{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}')


class Hook:
    def __init__(self, agent: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
        self.agent, self.client = agent, CLIENTS[agent]
        self.monkeypatch, self.capsys = monkeypatch, capsys

    def raw(self, event: str, data: bytes) -> tuple[int, str]:
        self.monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        code = adapter.main([event], self.agent)
        return code, self.capsys.readouterr().out

    def __call__(self, moment: tuple[str, dict]) -> dict | None:
        code, out = self.raw(moment[0], orjson.dumps(moment[1]))
        assert code == 0
        return orjson.loads(out) if out.strip() else None

    def turn(self, prompt: str, n: int, *, tools: tuple[bool, ...] = ()) -> dict | None:
        out = self(self.client.prompt(prompt, n))
        for ok in tools:
            self(self.client.tool(ok, n))
        self(self.client.stop(n))
        return out


@pytest.fixture(params=sorted(CLIENTS))
def hook(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Hook:
    return Hook(request.param, monkeypatch, capsys)


def _records(home: Home) -> list[dict]:
    return ExperienceLog(home).read()


def test_a_plain_turn_is_recorded_with_its_client(hook: Hook, home: Home) -> None:
    start = hook(hook.client.start())
    assert "artibot routes each prompt" in (
        start.get("additional_context") if hook.agent == "cursor" else start["hookSpecificOutput"]["additionalContext"])
    out = hook.turn(SIMPLE, 1, tools=(True,))
    text = hook.client.prompt_output(out) if out else None
    if hook.agent == "cursor":
        assert out == {"continue": True}  # Cursor's prompt hook takes no context
    else:
        assert text and text.startswith("artibot router: System 1")
    hook(hook.client.end())
    [record] = _records(home)
    assert record["agent"] == record["source"] == hook.agent
    assert record["session_id"] == SID and record["outcome"] == "success" and record["tools"] == 1
    assert record["input"] == SIMPLE and record["routed_to"] == "system1"


def test_a_failing_tool_fails_the_turn(hook: Hook, home: Home) -> None:
    hook(hook.client.start())
    hook.turn(SIMPLE, 1, tools=(True, False))
    hook(hook.client.end())
    [record] = _records(home)
    assert (record["outcome"], record["tool_failures"]) == ("failed", 1)


def test_the_next_prompt_corrects_the_last_turn(hook: Hook, home: Home) -> None:
    hook(hook.client.start())
    hook.turn(SIMPLE, 1, tools=(True,))
    hook.turn("no, that's wrong — the title is in docs/index.md", 2)
    hook(hook.client.end())
    first = [r for r in _records(home) if r["input"] == SIMPLE]
    assert first and first[0]["outcome"] == "failed" and first[0]["closed_by"] == "next-prompt"


def test_a_secret_in_a_prompt_reaches_no_file(hook: Hook, home: Home) -> None:
    hook(hook.client.start())
    hook.turn(f"use the token {TOKEN} to fix the deploy script", 1)
    assert TOKEN not in (SpoolView(home, SID).path.read_text())
    hook(hook.client.end())
    for path in home.root.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


def test_harness_input_is_not_the_users(hook: Hook, home: Home) -> None:
    hook(hook.client.start())
    out = hook(hook.client.prompt("<task-notification>\n<status>completed</status>\n</task-notification>", 1))
    assert out is None or out == {"continue": True}
    assert (SpoolView(home, SID).read() or {}).get("turn") is None


def test_an_aborted_cursor_turn_is_interrupted_at_the_next_prompt(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str], home: Home) -> None:
    hook = Hook("cursor", monkeypatch, capsys)
    hook(hook.client.prompt(SIMPLE, 1))
    hook(("stop", cursor_payload("stop", 1, status="aborted")))
    hook.turn("fix the typo in docs/index.md", 2)
    hook(hook.client.end())
    first = [r for r in _records(home) if r["input"] == SIMPLE]
    assert first and first[0]["outcome"] == "interrupted" and first[0]["reached_stop"] is False


@pytest.mark.parametrize("data", [b"", b"not json", b"[1, 2]", b"{\"prompt\": 3}"])
def test_bad_input_exits_0_and_prints_nothing(hook: Hook, data: bytes) -> None:
    event = hook.client.prompt(SIMPLE, 1)[0]
    assert hook.raw(event, data) in ((0, ""), (0, '{"continue":true}'))
    assert hook.raw("NoSuchEvent", b"{}") == (0, "")


def test_an_unknown_agent_exits_0() -> None:
    assert adapter.main(["stop"], "vim") == 0


def test_a_codex_sub_agent_prompt_is_not_the_users(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], home: Home) -> None:
    hook = Hook("codex-cli", monkeypatch, capsys)
    event, payload = hook.client.prompt("#sub-agent: check the README", 1)
    assert hook((event, {**payload, "agent_id": "agent-7", "agent_type": "explorer"})) is None
    assert not SpoolView(home, SID).exists()


def test_the_client_hook_imports_what_the_claude_code_hook_does() -> None:
    """Each client's hook pays for its own event module only (the hooks' cost is in scripts/bench_hooks.py)."""
    import subprocess

    code = ("import sys; from artibot.hookpath import adapter; adapter.events_module('cursor'); "
            "print(sorted(m for m in sys.modules if m.startswith('artibot')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "gemini_cli" not in out and "codex_cli" not in out and "'artibot.hookpath.turns.handlers'" not in out


@pytest.mark.parametrize("exit_code, status, failed", [(3, "failed", True), (0, "completed", False)])
def test_codex_reads_a_shell_commands_exit_code_from_the_transcript(tmp_path: Path, exit_code: int, status: str,
                                                                    failed: bool) -> None:
    """Codex CLI 0.169.0 sends a Bash call's output text only; the transcript has the exit code."""
    from artibot.integrations.codex_cli import events

    transcript = tmp_path / "rollout.jsonl"
    item = {"type": "CommandExecution", "id": "call_3", "command": ["/bin/bash", "-lc", "make test"],
            "status": status, "aggregated_output": "x\n", "exit_code": exit_code}
    lines = [{"type": "session_meta", "payload": {"id": SID}},
             {"type": "event_msg", "payload": {"type": "item_completed", "turn_id": "turn-1", "item": item}},
             {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_3"}}]
    transcript.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    payload = {**_codex_base("PostToolUse"), "tool_name": "Bash", "tool_input": {"command": "make test"},
               "tool_response": "x\n", "tool_use_id": "call_3", "transcript_path": str(transcript)}
    handler, _ = events.translate("PostToolUse", payload)
    assert handler == ("post-tool-use-failure" if failed else "post-tool-use")
    assert events.translate("PostToolUse", {**payload, "tool_use_id": "call_9"})[0] == "post-tool-use"
    assert events.translate("PostToolUse", {**payload, "transcript_path": str(tmp_path / "gone")})[0] == "post-tool-use"


def test_gemini_before_model_names_the_routes_model(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], home: Home) -> None:
    hook = Hook("gemini-cli", monkeypatch, capsys)
    before_model = ("BeforeModel", {**_gemini_base("BeforeModel"),
                                    "llm_request": {"model": "gemini-2.5-flash", "messages": [], "config": {}}})
    monkeypatch.setenv("ARTIBOT_SYSTEM1_MODEL", "gemini-2.5-flash-lite")
    assert hook(before_model) is None  # no routed turn yet: the request is left alone
    hook(hook.client.prompt(SIMPLE, 1))
    assert hook(before_model) == {"hookSpecificOutput": {"hookEventName": "BeforeModel",
                                                         "llm_request": {"model": "gemini-2.5-flash-lite"}}}
    assert hook(before_model)["hookSpecificOutput"]["llm_request"]["model"] == "gemini-2.5-flash-lite"  # kept all turn
    monkeypatch.delenv("ARTIBOT_SYSTEM1_MODEL")
    hook(hook.client.prompt(SIMPLE, 2))
    assert hook(before_model) is None  # no model for this route


def test_gemini_before_model_keeps_the_sessions_model_when_a_switch_would_not_pay(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], home: Home) -> None:
    hook = Hook("gemini-cli", monkeypatch, capsys)
    monkeypatch.setenv("ARTIBOT_SYSTEM1_MODEL", "gemini-2.5-flash-lite")
    long = {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "x" * 600_000}], "config": {}}
    before_model = ("BeforeModel", {**_gemini_base("BeforeModel"), "llm_request": long})
    for n in range(1, 9):
        hook(hook.client.prompt(f"{HARD} (step {n})", n))
        assert hook(before_model) is None  # System 2: the client's model
    hook(hook.client.prompt(SIMPLE, 9))
    # After eight System 2 turns one System 1 turn is expected before the next System 2 one: 150k
    # tokens of context sent uncached to Flash-Lite and back to Flash cost more than that turn saves
    assert hook(before_model) is None
    why = SpoolView(home, SID).read()["turn"]["gateway"]["why"]
    assert why.startswith("kept gemini-2.5-flash: writing 150000 cached tokens again costs $0.0375"), why


def test_gemini_before_model_never_keeps_a_system2_turn_on_the_system1_model(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], home: Home) -> None:
    """The money rule may decline a switch down; a System 2 turn after a System 1 one goes up,
    however much context the cheap model holds."""
    hook = Hook("gemini-cli", monkeypatch, capsys)
    monkeypatch.setenv("ARTIBOT_SYSTEM1_MODEL", "gemini-2.5-flash-lite")
    monkeypatch.setenv("ARTIBOT_SYSTEM2_MODEL", "gemini-2.5-pro")
    long = {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "x" * 600_000}], "config": {}}
    before_model = ("BeforeModel", {**_gemini_base("BeforeModel"), "llm_request": long})
    hook(hook.client.prompt(SIMPLE, 1))
    assert hook(before_model)["hookSpecificOutput"]["llm_request"]["model"] == "gemini-2.5-flash-lite"
    hook(hook.client.prompt(HARD, 2))
    for _ in range(2):  # every request of the turn
        assert hook(before_model)["hookSpecificOutput"]["llm_request"]["model"] == "gemini-2.5-pro"
    why = SpoolView(home, SID).read()["turn"]["gateway"]["why"]
    assert why.startswith("System 2's profile"), why


def test_gemini_session_context_in_a_p_prompt_is_not_the_users(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str], home: Home) -> None:
    """``gemini -p`` prepends SessionStart's context to the prompt it hands BeforeAgent."""
    hook = Hook("gemini-cli", monkeypatch, capsys)
    event, payload = hook.client.prompt(SIMPLE, 1)
    hook((event, {**payload, "prompt": f"<hook_context>artibot routes each prompt…</hook_context>\n\n{SIMPLE}"}))
    assert SpoolView(home, SID).read()["turn"]["input"] == SIMPLE


def test_two_clients_feed_one_home_and_status_says_how_their_thresholds_are_kept(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], home: Home) -> None:
    from artibot.reports.status import status
    from tests.integrations.test_hooks import Driver

    gemini = Hook("gemini-cli", monkeypatch, capsys)
    gemini.turn(SIMPLE, 1)
    gemini(gemini.client.end())
    claude = Driver(monkeypatch, capsys)
    claude.turn("fix the typo in CONTRIBUTING.md", [("Edit", True)], sid="claude-session")
    claude("session-end", session_id="claude-session")
    doc = status(home=home)
    assert doc["agents"] == {"claude-code": 1, "gemini-cli": 1}
    assert doc["thresholds_per_agent"]["kept"] is False and "one set of thresholds" in \
        doc["thresholds_per_agent"]["reason"]
    assert {r["agent"] for r in _records(home)} == {"claude-code", "gemini-cli"}
