"""artibot inside the real Codex CLI (npm ``@openai/codex``, pinned in :mod:`.codex_harness`).

One interactive session (typed through a pseudo-terminal) of five prompts — a plain
turn, a failing shell command, a turn the next prompt corrects, the correction, a
secret — then ``/quit``; ``codex exec`` between ``artibot install codex-cli`` and
``uninstall``; and Codex CLI's hook trust. A capturing hook beside artibot's records
what Codex CLI really sends.

Skipped, with the reason, when ``node``/``npm`` are missing or the package cannot be
installed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.codex_harness import FLAGS, VERSION, CodexWorld, codex_binary
from tests.e2e.fake_openai import shell, text
from tests.e2e.harness import Unavailable

pytestmark = pytest.mark.slow

SIMPLE = "#sc:plain fix the typo in the README title"
FAILING = "#sc:fail run the tests"
RENAME = "#sc:plain rename the variable in utils to snake_case"
CORRECTION = "no, that's wrong, the variable is in helpers"
TOKEN = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"
SECRET = f"#sc:plain use the token {TOKEN} to fix the deploy script"
ROUTED = "artibot router: System"

SCENARIOS = {
    "plain": [[text("Fixed the typo.")]],
    "fail": [[shell("echo running; exit 3")], [text("The tests failed.")]],
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
        world.install()
        world.session(SIMPLE, FAILING, RENAME, CORRECTION, SECRET)
        world.records = world.wait_for_records(5)
        yield world
        assert world.refused_in_clear() == [], world.api.refused


def _record(world: CodexWorld, start: str) -> dict:
    found = [r for r in world.records if r["input"].startswith(start)]
    assert len(found) == 1, (start, [r["input"] for r in world.records], world.hook_log())
    return found[0]


def test_every_prompt_is_one_record_from_codex_cli(session: CodexWorld) -> None:
    [sid] = {p["session_id"] for p in session.payloads("UserPromptSubmit")}
    assert len(session.records) == 5, session.hook_log()
    assert {r["agent"] for r in session.records} == {"codex-cli"}
    assert {r["session_id"] for r in session.records} == {sid}
    assert "Error" not in session.hook_log() and "unknown" not in session.hook_log()


def test_a_plain_turn_succeeds_and_the_model_sees_the_route(session: CodexWorld) -> None:
    record = _record(session, "#sc:plain fix the typo")
    assert (record["outcome"], record["tools"], record["reached_stop"]) == ("success", 0, True)
    first = next(r for name, r in session.api.requests if name == "plain")
    assert ROUTED in json.dumps(first["input"]), "UserPromptSubmit's additionalContext did not reach the model"


def test_a_failing_shell_command_fails_the_turn(session: CodexWorld) -> None:
    [post] = session.payloads("PostToolUse")
    assert post["tool_name"] == "Bash" and isinstance(post["tool_response"], str)  # no exit code in the payload
    record = _record(session, FAILING)
    assert (record["outcome"], record["tool_failures"]) == ("failed", 1)


def test_the_next_prompt_judges_the_last_turn(session: CodexWorld) -> None:
    corrected = _record(session, RENAME)
    assert (corrected["outcome"], corrected["tools"], corrected["closed_by"]) == ("failed", 0, "next-prompt")
    assert _record(session, SIMPLE)["outcome"] == "success"
    assert _record(session, "no, that's wrong")["outcome"] == "success"


def test_a_secret_in_a_prompt_reaches_no_file(session: CodexWorld) -> None:
    record = _record(session, "#sc:plain use the token")
    assert TOKEN not in record["input"] and record["closed_by"] == "session-end"
    for path in session.data.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


def test_install_exec_uninstall_and_hook_trust(binary: Path, tmp_path: Path) -> None:
    with CodexWorld(tmp_path, binary, SCENARIOS) as world:
        assert "add 6 artibot hooks" in world.install(capture=False)
        assert "already installed" in world.install(capture=False)
        world.exec(SIMPLE, "--skip-git-repo-check")  # not trusted yet: Codex CLI runs none of them
        assert world.experiences() == [] and not world.data.joinpath("sessions").exists()
        world.exec(SIMPLE, "--skip-git-repo-check", *FLAGS)
        [record] = world.wait_for_records(1)
        assert (record["agent"], record["outcome"], record["closed_by"]) == ("codex-cli", "success", "session-end")
        assert record["input"] == SIMPLE and record["routed_to"] == "system1"
        world.artibot("uninstall", "codex-cli")
        assert not world.hooks.exists() and not list(world.codex_home.glob("*artibot*"))
        assert world.refused_in_clear() == [], world.api.refused
