"""artibot inside the real Codex CLI (npm ``@openai/codex``, pinned in :mod:`.codex_harness`).

One interactive session (typed through a pseudo-terminal) of six prompts — a plain
turn, a failing shell command, a turn the next prompt corrects, the correction, a
secret, a System 1 turn of ten tool calls — then ``/quit``; a session that collects a
batch and answers the pending round with the ``learn`` skill (``$learn 2=revert``);
``codex exec`` between ``artibot install codex-cli`` and ``uninstall``, in the user and
the project scope; and Codex CLI's hook trust. A capturing hook beside artibot's records
what Codex CLI really sends.

Skipped, with the reason, when ``node``/``npm`` are missing or the package cannot be
installed.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.codex_harness import FLAGS, VERSION, CodexWorld, codex_binary
from tests.e2e.fake_openai import shell, text
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
ARTIBOT = shlex.quote(str(Path(sys.executable).with_name("artibot")))
"""As the skill names it: Codex CLI's shell does not keep the caller's PATH."""
MANY = "#sc:many fix the typo in the README title"
GREEDY = '{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}'


def _text_of(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text_of(v) for v in value)
    if isinstance(value, dict):
        return "\n".join(_text_of(v) for k, v in value.items() if k in ("text", "output", "content"))
    return ""


def _learn(request: dict) -> list[dict]:
    """The skill said: run ``review --json --prepare``, then send the answers in one command."""
    items = request.get("input") or []
    if not request.get("tools"):  # the side request for the session's title
        return [text("Review the round")]
    outputs = [_text_of(i.get("output")) for i in items if str(i.get("type", "")).endswith("call_output")]
    typed = next(_text_of(i.get("content")) for i in reversed(items)
                 if i.get("role") == "user" and _text_of(i.get("content")).startswith("$learn"))
    return [shell(answer_command(prepared(outputs), typed, ARTIBOT))]


def _prepare(request: dict) -> list[dict]:
    return [shell(f"{ARTIBOT} review --json --prepare")] if request.get("tools") else [text("Review the round")]


SCENARIOS = {
    "plain": [[text("Fixed the typo.")]],
    "fail": [[shell("echo running; exit 3")], [text("The tests failed.")]],
    "many": [[shell(f"echo step {i}")] for i in range(10)] + [[text("Done in many steps.")]],
    "learn": [_prepare, _learn, [text("Round answered: thresholds kept.")]],
}


@pytest.fixture(scope="module")
def binary() -> Path:
    try:
        return codex_binary()
    except Unavailable as exc:
        pytest.skip(f"real Codex CLI {VERSION} not available: {exc}")


@pytest.fixture(scope="module")
def session(binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with CodexWorld(tmp_path_factory.mktemp("codex"), binary, SCENARIOS) as world:
        world.data.mkdir()
        (world.data / "artibot.config.json").write_text(GREEDY)  # each prompt's greedy route: no exploration
        world.install()
        world.session(SIMPLE, FAILING, RENAME, CORRECTION, SECRET, MANY)
        world.records = world.wait_for_records(6)
        yield world
        assert world.refused_in_clear() == [], world.api.refused


def _record(world: CodexWorld, start: str) -> dict:
    found = [r for r in world.records if r["input"].startswith(start)]
    assert len(found) == 1, (start, [r["input"] for r in world.records], world.hook_log())
    return found[0]


def test_every_prompt_is_one_record_from_codex_cli(session: CodexWorld) -> None:
    [sid] = {p["session_id"] for p in session.payloads("UserPromptSubmit")}
    assert len(session.records) == 6, session.hook_log()
    assert {r["agent"] for r in session.records} == {"codex-cli"}
    assert {r["session_id"] for r in session.records} == {sid}
    assert "Error" not in session.hook_log() and "unknown" not in session.hook_log()


def test_a_plain_turn_succeeds_and_the_model_sees_the_route(session: CodexWorld) -> None:
    record = _record(session, "#sc:plain fix the typo")
    assert (record["outcome"], record["tools"], record["reached_stop"]) == ("success", 0, True)
    first = next(r for name, r in session.api.requests if name == "plain")
    assert ROUTED in json.dumps(first["input"]), "UserPromptSubmit's additionalContext did not reach the model"


def test_a_failing_shell_command_fails_the_turn(session: CodexWorld) -> None:
    [post] = [p for p in session.payloads("PostToolUse") if "exit 3" in json.dumps(p["tool_input"])]
    assert post["tool_name"] == "Bash" and isinstance(post["tool_response"], str)  # no exit code in the payload
    record = _record(session, FAILING)
    assert (record["outcome"], record["tool_failures"]) == ("failed", 1)


def test_the_next_prompt_judges_the_last_turn(session: CodexWorld) -> None:
    corrected = _record(session, RENAME)
    assert (corrected["outcome"], corrected["tools"], corrected["closed_by"]) == ("failed", 0, "next-prompt")
    assert _record(session, SIMPLE)["outcome"] == "success"
    assert _record(session, "no, that's wrong")["outcome"] == "success"


def test_a_many_tool_turn_escalates_a_system1_route(session: CodexWorld) -> None:
    record = _record(session, MANY)
    assert (record["routed_to"], record["tools"], record["outcome"]) == ("system1", 10, "escalated")
    assert "10 tool calls" in record["outcome_reason"]


def test_a_secret_in_a_prompt_reaches_no_file(session: CodexWorld) -> None:
    record = _record(session, "#sc:plain use the token")
    assert TOKEN not in record["input"] and record["closed_by"] == "next-prompt"
    for path in session.data.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


def test_install_exec_uninstall_and_hook_trust(binary: Path, tmp_path: Path) -> None:
    with CodexWorld(tmp_path, binary, SCENARIOS) as world:
        assert "add 6 artibot hooks" in world.install(capture=False)
        assert "already installed" in world.install(capture=False)
        world.data.mkdir(exist_ok=True)
        (world.data / "artibot.config.json").write_text(GREEDY)  # the route is asserted: no exploration's coin
        world.exec(SIMPLE, "--skip-git-repo-check")  # not trusted yet: Codex CLI runs none of them
        assert world.experiences() == [] and not world.data.joinpath("sessions").exists()
        world.exec(SIMPLE, "--skip-git-repo-check", *FLAGS)
        [record] = world.wait_for_records(1)
        assert (record["agent"], record["outcome"], record["closed_by"]) == ("codex-cli", "success", "session-end")
        assert record["input"] == SIMPLE and record["routed_to"] == "system1"
        world.artibot("uninstall", "codex-cli")
        assert not world.hooks.exists() and not list(world.codex_home.glob("*artibot*"))
        assert world.refused_in_clear() == [], world.api.refused


def test_learn_skill_answers_a_pending_round_as_the_user_asked(binary: Path, tmp_path: Path) -> None:
    """A session of four turns fills a batch of four; in the next, ``$learn 2=revert`` answers the round."""
    with CodexWorld(tmp_path, binary, SCENARIOS) as world:
        pending = round_pending(world, world.codex_home / "skills" / "learn" / "SKILL.md")
        world.session("$learn 2=revert #sc:learn", timeout=120)
        first = next(r for name, r in world.api.requests if name == "learn")
        assert "<name>learn</name>" in json.dumps(first["input"])  # Codex CLI sent the skill's text
        assert ROUTED not in json.dumps(first["input"][-3:])  # and no routing line for the command
        assert not pending.exists(), world.hook_log()
        log = json.loads((world.data / "learning-log.json").read_text())
        assert "revert" in json.dumps(log["rounds"][-1]), log["rounds"][-1]
        time.sleep(2)
        assert world.experiences() == []  # the round took the batch; $learn itself was not recorded
        assert "Error" not in world.hook_log(), world.hook_log()


def test_project_scope_beside_the_user_scope_and_uninstall(binary: Path, tmp_path: Path) -> None:
    with CodexWorld(tmp_path, binary, SCENARIOS) as world:
        folder = world.project / ".codex"
        world.artibot("install", "codex-cli", "--scope", "project")
        assert (folder / "skills" / "learn" / "SKILL.md").is_file() and not world.hooks.exists()
        world.exec(SIMPLE, "--skip-git-repo-check", *FLAGS)
        [record] = world.wait_for_records(1)
        assert (record["agent"], record["input"], record["outcome"]) == ("codex-cli", SIMPLE, "success")
        world.install(capture=False)
        world.exec(SIMPLE, "--skip-git-repo-check", *FLAGS)
        assert len(world.wait_for_records(3, timeout=8)) == 2  # one more record: Codex CLI runs the same hook once
        world.artibot("uninstall", "codex-cli", "--scope", "user")
        # skills/ stays: Codex CLI keeps its own system skills there (skills/.system)
        assert not world.hooks.exists() and not (world.codex_home / "skills" / "learn").exists()
        world.artibot("uninstall", "codex-cli", "--scope", "project")
        assert not folder.exists()
