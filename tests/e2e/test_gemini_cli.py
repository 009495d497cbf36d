"""artibot inside the real Gemini CLI (npm ``@google/gemini-cli``, pinned in :mod:`.gemini_harness`).

One interactive session (typed through a pseudo-terminal) of six prompts — a plain
turn, a failing shell command, a turn the next prompt corrects, the correction, a
secret, a System 1 turn of ten tool calls — then ``/quit``; a session that collects a
batch and answers the pending round with ``/learn 2=revert``; ``gemini -p`` runs between
``artibot install gemini-cli`` and ``uninstall``, in the user and the project scope.
A capturing hook beside artibot's records what Gemini CLI really sends.

Skipped, with the reason, when ``node``/``npm`` are missing or the package cannot be
installed. About half a minute once the client is cached.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.e2e.fake_gemini import call, text
from tests.e2e.gemini_harness import MODEL, USER_SETTINGS, VERSION, GeminiWorld, gemini_binary
from tests.e2e.harness import Unavailable
from tests.e2e.learn_model import answer_command, prepared, round_pending

pytestmark = pytest.mark.slow

SIMPLE = "#sc:plain fix the typo in the README title"
FAILING = "#sc:fail run the tests"
RENAME = "#sc:plain rename the variable in utils to snake_case"
CORRECTION = "no, that's wrong, the variable is in helpers"
TOKEN = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"
SECRET = f"#sc:plain use the token {TOKEN} to fix the deploy script"
ROUTED = "artibot router: System"
MANY = "#sc:many fix the typo in the README title"
GREEDY = '{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}'


def _learn(request: dict) -> list[dict]:
    """The expanded ``/learn`` holds the prepared round and the user's arguments: answer in one command."""
    texts = [p.get("text", "") for c in request["contents"] if c.get("role") == "user" for p in c.get("parts") or []]
    typed = next(t for t in reversed(texts) if "Arguments: " in t).split("Arguments: ", 1)[1].split("\n", 1)[0]
    return [call("run_shell_command", command=answer_command(prepared(texts), typed), description="send the answers")]


SCENARIOS = {
    "plain": [[text("Fixed the typo.")]],
    "fail": [[call("run_shell_command", command="echo running; exit 3", description="run the tests")],
             [text("The tests failed.")]],
    "many": [[call("run_shell_command", command=f"echo step {i}", description=f"step {i}")] for i in range(10)]
    + [[text("Done in many steps.")]],
    "learn": [_learn, [text("Round answered: thresholds kept.")]],
}


@pytest.fixture(scope="module")
def binary() -> Path:
    try:
        return gemini_binary()
    except Unavailable as exc:
        pytest.skip(f"real Gemini CLI {VERSION} not available: {exc}")


@pytest.fixture(scope="module")
def session(binary: Path, tmp_path_factory: pytest.TempPathFactory):
    """The six-prompt session, run once; the tests below read what it left."""
    with GeminiWorld(tmp_path_factory.mktemp("gemini"), binary, SCENARIOS) as world:
        world.data.mkdir()
        (world.data / "artibot.config.json").write_text(GREEDY)  # each prompt's greedy route: no exploration
        world.install()
        world.session(SIMPLE, FAILING, RENAME, CORRECTION, SECRET, MANY)
        world.records = world.wait_for_records(6)
        yield world
        assert world.api.refused == [], f"requests that would have left the machine: {world.api.refused}"


def _record(world: GeminiWorld, start: str) -> dict:
    found = [r for r in world.records if r["input"].startswith(start)]
    assert len(found) == 1, (start, [r["input"] for r in world.records], world.hook_log())
    return found[0]


def test_every_prompt_is_one_record_from_gemini_cli(session: GeminiWorld) -> None:
    [sid] = {p["session_id"] for p in session.payloads("BeforeAgent")}
    assert len(session.records) == 6, session.hook_log()
    assert {r["agent"] for r in session.records} == {"gemini-cli"}
    assert {r["session_id"] for r in session.records} == {sid}
    assert "Error" not in session.hook_log() and "unknown" not in session.hook_log()


def test_a_plain_turn_succeeds_and_the_model_sees_the_route(session: GeminiWorld) -> None:
    record = _record(session, "#sc:plain fix the typo")
    assert (record["outcome"], record["tools"], record["reached_stop"]) == ("success", 0, True)
    first = session.api.main_requests()[0][2]
    sent = json.dumps(first["contents"][-1])
    assert ROUTED in sent, "BeforeAgent's additionalContext did not reach the model with the prompt"
    assert first["contents"][-1]["role"] == "user"


def test_a_failing_shell_command_fails_the_turn(session: GeminiWorld) -> None:
    [after_tool] = [p for p in session.payloads("AfterTool") if "exit 3" in json.dumps(p["tool_input"])]
    assert after_tool["tool_name"] == "run_shell_command" and "Exit Code: 3" in after_tool["tool_response"]["llmContent"]
    assert "error" not in after_tool["tool_response"]  # Gemini CLI reports the exit code only in the text
    record = _record(session, FAILING)
    assert (record["outcome"], record["tool_failures"]) == ("failed", 1)


def test_the_next_prompt_judges_the_last_turn(session: GeminiWorld) -> None:
    corrected = _record(session, RENAME)
    assert (corrected["outcome"], corrected["tools"], corrected["closed_by"]) == ("failed", 0, "next-prompt")
    assert _record(session, SIMPLE)["outcome"] == "success"  # a new request is no correction
    assert _record(session, "no, that's wrong")["outcome"] == "success"


def test_a_many_tool_turn_escalates_a_system1_route(session: GeminiWorld) -> None:
    record = _record(session, MANY)
    assert (record["routed_to"], record["tools"], record["outcome"]) == ("system1", 10, "escalated")
    assert "10 tool calls" in record["outcome_reason"]


def test_a_secret_in_a_prompt_reaches_no_file(session: GeminiWorld) -> None:
    record = _record(session, "#sc:plain use the token")
    assert TOKEN not in record["input"] and record["closed_by"] == "next-prompt"
    for path in session.data.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


def test_learn_answers_a_pending_round_as_the_user_asked(binary: Path, tmp_path: Path) -> None:
    """A session of four turns fills a batch of four; in the next, ``/learn 2=revert`` answers the round."""
    with GeminiWorld(tmp_path, binary, SCENARIOS) as world:
        pending = round_pending(world, world.home / ".gemini" / "commands" / "learn.toml")
        world.session("/learn 2=revert #sc:learn", timeout=120)
        [before_agent] = [p for p in world.payloads("BeforeAgent") if "#sc:learn" in p["prompt"]]
        assert before_agent["prompt"].startswith("<!-- artibot:learn -->")  # expanded before the hook runs
        assert not pending.exists(), world.hook_log()
        log = json.loads((world.data / "learning-log.json").read_text())
        assert "revert" in json.dumps(log["rounds"][-1]), log["rounds"][-1]
        answered = [r for m, name, r in world.api.main_requests() if name == "learn"][0]
        assert ROUTED not in json.dumps(answered["contents"][-1])  # no routing line on the command
        time.sleep(2)  # SessionEnd is not awaited
        assert world.experiences() == []  # the round took the batch; /learn itself was not recorded
        assert "Error" not in world.hook_log(), world.hook_log()


def test_install_run_uninstall(binary: Path, tmp_path: Path) -> None:
    with GeminiWorld(tmp_path, binary, SCENARIOS) as world:
        before = world.settings.read_bytes()
        out = world.install(capture=False)
        assert "add 5 artibot hooks" in out
        assert "already installed" in world.install(capture=False)
        world.data.mkdir(exist_ok=True)
        (world.data / "artibot.config.json").write_text(GREEDY)  # the route is asserted: no exploration's coin
        hooks = json.loads(world.settings.read_text())["hooks"]
        assert sorted(hooks) == ["AfterAgent", "AfterTool", "BeforeAgent", "SessionEnd", "SessionStart"]
        result = json.loads(world.run(SIMPLE).stdout)
        assert result["response"] == "Fixed the typo." and MODEL in json.dumps(result["stats"])
        [record] = world.wait_for_records(1)
        assert (record["agent"], record["outcome"], record["closed_by"]) == ("gemini-cli", "success", "session-end")
        # -p puts SessionStart's context into the prompt; only what the user typed is routed and kept
        assert record["input"] == SIMPLE and record["routed_to"] == "system1"
        world.artibot("uninstall", "gemini-cli")
        assert world.settings.read_bytes() == before
        assert json.loads(before) == USER_SETTINGS
        assert not list(world.settings.parent.glob("*artibot*"))


def test_project_scope_beside_the_user_scope_and_uninstall(binary: Path, tmp_path: Path) -> None:
    with GeminiWorld(tmp_path, binary, SCENARIOS) as world:
        before = world.settings.read_bytes()
        folder = world.project / ".gemini"
        world.artibot("install", "gemini-cli", "--scope", "project")
        assert (folder / "commands" / "learn.toml").is_file() and world.settings.read_bytes() == before
        assert sorted(json.loads((folder / "settings.json").read_text())["hooks"]) == [
            "AfterAgent", "AfterTool", "BeforeAgent", "SessionEnd", "SessionStart"]
        world.run(SIMPLE)
        [record] = world.wait_for_records(1)
        assert (record["agent"], record["input"], record["outcome"]) == ("gemini-cli", SIMPLE, "success")
        world.install(capture=False)  # the user scope too: the same commands, which Gemini CLI runs once
        world.run(SIMPLE)
        assert len(world.wait_for_records(3, timeout=8)) == 2  # one more record, not two
        world.artibot("uninstall", "gemini-cli", "--scope", "user")
        assert world.settings.read_bytes() == before and not (world.home / ".gemini" / "commands").exists()
        world.artibot("uninstall", "gemini-cli", "--scope", "project")
        assert not folder.exists()


HARD = ("#sc:plain migrate the billing service from REST to gRPC across the backend, the React frontend and the "
        "Postgres schema, step by step, then add integration tests and a rollback plan")


def test_before_model_applies_the_routes_model(binary: Path, tmp_path: Path) -> None:
    """Opt-in (--model): each request of a routed turn goes to its route's model, the rest is untouched."""
    with GeminiWorld(tmp_path, binary, SCENARIOS) as world:
        world.data.mkdir()  # each prompt's greedy route: no exploration
        (world.data / "artibot.config.json").write_text(
            '{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}')
        world.artibot("install", "gemini-cli", "--model", "system1=gemini-2.5-flash-lite",
                      "--model", "system2=gemini-2.5-pro")
        world.add_capture_hook()
        world.run(SIMPLE)
        world.run(HARD)
        models = [model for model, name, request in world.api.main_requests()]
        assert models == ["gemini-2.5-flash-lite", "gemini-2.5-pro"], (models, world.experiences())
        assert [p["llm_request"]["model"] for p in world.payloads("BeforeModel")] == [MODEL, MODEL]
        records = world.wait_for_records(2)
        assert sorted(r["routed_to"] for r in records) == ["system1", "system2"]
        world.artibot("install", "gemini-cli")  # without --model: the BeforeModel hook goes
        assert "BeforeModel" not in json.dumps(
            [g for e, g in json.loads(world.settings.read_text())["hooks"].items() if e != "BeforeModel"])
        hooks = json.loads(world.settings.read_text())["hooks"]
        # artibot's own handler is gone (the capture hook stays); its command names the client and
        # the event, never a word a checkout's path can contain
        assert all(" hook gemini-cli BeforeModel" not in json.dumps(g) for g in hooks.get("BeforeModel", []))


TWO_CALLS = HARD.replace("#sc:plain", "#sc:fail")
"""The System 2 prompt of :data:`HARD` answered with a shell command, then text: two model calls."""


def test_every_model_call_of_a_system2_turn_runs_on_the_system2_model(binary: Path, tmp_path: Path) -> None:
    """One interactive session: a System 1 turn first (switched down to the System 1 model, the
    session's first routed turn), then a System 2 turn. However much cached context the first
    turn left on the cheap model, the harder turn must not stay there: each of its calls goes to
    the System 2 model."""
    with GeminiWorld(tmp_path, binary, SCENARIOS) as world:
        world.data.mkdir()
        (world.data / "artibot.config.json").write_text(GREEDY)
        world.artibot("install", "gemini-cli", "--model", "system1=gemini-2.5-flash-lite",
                      "--model", "system2=gemini-2.5-pro")
        world.add_capture_hook()
        world.session(SIMPLE, TWO_CALLS)
        records = world.wait_for_records(2)
        assert [r["routed_to"] for r in records] == ["system1", "system2"], (records, world.hook_log())
        calls = world.api.main_requests()
        first = [model for model, name, _ in calls if name == "plain"]
        second = [model for model, name, _ in calls if name == "fail"]
        assert first == ["gemini-2.5-flash-lite"], calls
        assert len(second) == 2 and set(second) == {"gemini-2.5-pro"}, [(m, n) for m, n, _ in calls]
        assert "Error" not in world.hook_log(), world.hook_log()
