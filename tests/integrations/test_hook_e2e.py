"""The real hook entry point, ``python -m artibot hook EVENT``, in subprocesses.

A whole session, concurrent tool hooks, the detached learner and the import budget of
the per-prompt and per-tool paths.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from artibot.integrations.claude_code.templates import hook_command, hook_launcher, hook_prefix
from artibot.store import sessions
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests.factories import write_thresholds
from tests.integrations.spools import SpoolView

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures"
SID = "e2e-session-1"
EMAIL = "dana.lee@example.com"
TOKEN = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"
ROUTINE = f"fix the typo in the README title (reported by {EMAIL})"
MIGRATION = (f"migrate the orders service from MySQL to Postgres across the backend API, the React "
             f"frontend and the data pipeline: plan the schema changes, write the migration scripts, "
             f"update the deployment with token {TOKEN}, then add integration tests and a rollback plan")
FORBIDDEN = ("numpy", "scipy", "typer", "rich", "pydantic", "click", "artibot.cli", "artibot.round.cycle",
             "artibot.learning",
             # the team's database is the detached learner's business: no hook imports its driver
             "psycopg", "artibot.team")


def payload(name: str, **changes: object) -> bytes:
    doc = orjson.loads((FIXTURES / f"{name}.json").read_bytes())
    doc.update(session_id=SID)
    doc.update(changes)
    return orjson.dumps(doc)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    out = dict(os.environ, ARTIBOT_HOME=str(tmp_path / "home"))
    out.pop("ARTIBOT_CONFIG", None)
    return out


def home_of(env: dict[str, str]) -> Home:
    return Home(Path(env["ARTIBOT_HOME"]))


def hook(env: dict[str, str], event: str, data: bytes, *extra: str) -> subprocess.CompletedProcess[bytes]:
    proc = subprocess.run([sys.executable, *extra, "-m", "artibot", "hook", event], input=data, env=env,
                          cwd=Path(env["ARTIBOT_HOME"]).parent, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc


def context_of(proc: subprocess.CompletedProcess[bytes], event_name: str) -> str:
    doc = orjson.loads(proc.stdout)
    assert doc["hookSpecificOutput"]["hookEventName"] == event_name
    return doc["hookSpecificOutput"]["additionalContext"]


def test_a_whole_session_records_two_experiences(env: dict[str, str]) -> None:
    home = home_of(env)
    # deterministic routes: no exploration (on by default); the hooks run in this folder
    (home.root.parent / "artibot.config.json").write_text(
        '{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}')
    start = hook(env, "session-start", payload("session_start"))
    assert "Thresholds: default 0.40" in context_of(start, "SessionStart")

    first = hook(env, "user-prompt-submit", payload("user_prompt_submit", prompt=ROUTINE))
    assert "System 1" in context_of(first, "UserPromptSubmit")
    assert hook(env, "post-tool-use", payload("post_tool_use")).stdout == b""
    assert hook(env, "post-tool-use-failure", payload("post_tool_use_failure")).stdout == b""
    assert hook(env, "stop", payload("stop")).stdout == b""

    second = hook(env, "user-prompt-submit", payload("user_prompt_submit", prompt=MIGRATION))
    assert "System 2" in context_of(second, "UserPromptSubmit")
    for tool in ("TodoWrite", "Read", "Edit", "Bash"):
        hook(env, "post-tool-use", payload("post_tool_use", tool_name=tool))
    hook(env, "stop", payload("stop", stop_hook_active=False))
    hook(env, "stop", payload("stop", stop_hook_active=True))  # a second Stop finds no turn
    assert hook(env, "session-end", payload("session_end")).stdout == b""

    records = ExperienceLog(home).read()
    assert [(r["routed_to"], r["outcome"]) for r in records] == [("system1", "failed"), ("system2", "success")]
    assert records[0]["complexity"] < records[1]["complexity"]
    assert [r["tools"] for r in records] == [2, 4] and [r["tool_failures"] for r in records] == [1, 0]
    assert all(r["session_id"] == SID and r["source"] == "claude-code" for r in records)
    assert "<EMAIL>" in records[0]["input"] and "<API_KEY>" in records[1]["input"]
    assert not SpoolView(home, SID).exists()

    for path in home.root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in (EMAIL, TOKEN, "dana.lee"):
                assert secret.encode() not in data, f"{secret} leaked into {path}"
    assert not home.quarantine_dir.exists()


def test_concurrent_tool_hooks_keep_an_exact_count(env: dict[str, str]) -> None:
    home = home_of(env)
    hook(env, "user-prompt-submit", payload("user_prompt_submit"))
    n = 8
    procs = [subprocess.Popen([sys.executable, "-m", "artibot", "hook",
                               "post-tool-use-failure" if i % 4 == 0 else "post-tool-use"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
             for i in range(n)]
    for i, proc in enumerate(procs):
        proc.stdin.write(payload("post_tool_use", tool_name=f"Tool{i}", tool_use_id=f"toolu_{i}"))
        proc.stdin.close()
    for proc in procs:
        assert proc.wait(timeout=60) == 0
        assert proc.stdout.read() == b""
    turn = SpoolView(home, SID).read()["turn"]
    assert turn["tools"] == n and turn["tool_failures"] == 2
    assert sorted(turn["tool_names"]) == sorted(f"Tool{i}" for i in range(n))
    hook(env, "stop", payload("stop"))
    hook(env, "session-end", payload("session_end"))
    [record] = ExperienceLog(home).read()
    assert record["tools"] == n and record["tool_failures"] == 2


def test_session_end_returns_at_once_and_starts_a_detached_learner(env: dict[str, str]) -> None:
    home = home_of(env)
    home.ensure()
    home.config_file.write_text('{"learning": {"lifelong": {"batchSize": 2, "grpoGroupSize": 2}}}')
    for prompt in ("fix the typo in the README", "rename a variable in the parser"):
        hook(env, "user-prompt-submit", payload("user_prompt_submit", prompt=prompt))
        hook(env, "stop", payload("stop"))
    began = time.monotonic()
    hook(env, "session-end", payload("session_end"))
    elapsed = time.monotonic() - began
    stamp = sessions.read_learner_stamp(home)
    assert stamp is not None and stamp["reason"] == "session-end", sessions.hook_log_path(home).read_text()
    pid = stamp["pid"]
    assert f"learner started, pid {pid}" in sessions.hook_log_path(home).read_text()
    # The learner is not waited for by the hook; wait here only so the tmp home outlives it.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    if _alive(pid):  # pragma: no cover - a stuck learner; end the one we started
        os.kill(pid, 15)
    assert "\tlearner\tlearner finished: " in sessions.hook_log_path(home).read_text()  # the child ran and logged
    print(f"session-end hook took {elapsed * 1000:.0f} ms as a whole process")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover
        return True
    try:  # a zombie not yet reaped by init counts as gone
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False


LEAN = ("site", "re", "typing", "pathlib", "dataclasses", "inspect", "orjson", "artibot.hookpath.router", "artibot.hookpath.privacy",
        "artibot.config", "artibot.store.home", "artibot.errors")
"""Not on the tool and stop paths: each costs a share of the interpreter's own start-up."""
ROUTED = ("site", "artibot.config", "artibot.collector", "artibot.learned_router", "artibot.store.log.experiences",
          "orjson", "pickle", "runpy", "dataclasses", "inspect", "typing", "pathlib")
"""Not on the prompt path once the router cache is warm (``site``: the launcher's ``-S``)."""
WARM_PROMPT = ("re", "enum", "functools", "collections", "types", "random", "_pickle", "copyreg", "artibot.errors",
               "hashlib", "bisect", "_bisect")
"""Not on the prompt path either once a prompt hook kept the regular expressions' programs
(``artibot.hookpath.regex``): together about as long as the interpreter's own start."""


@pytest.mark.parametrize("event, fixture, forbidden", [
    ("user-prompt-submit", "user_prompt_submit", ROUTED + WARM_PROMPT),
    ("session-start", "session_start", ROUTED + WARM_PROMPT + ("artibot.hookpath.router", "artibot.hookpath.privacy", "dataclasses")),
    ("post-tool-use", "post_tool_use", LEAN),
    ("post-tool-use-failure", "post_tool_use_failure", LEAN),
    ("permission-request", "permission_request", LEAN),
    ("stop", "stop", LEAN),
])
def test_hook_paths_import_only_what_they_need(env: dict[str, str], event: str, fixture: str,
                                               forbidden: tuple[str, ...]) -> None:
    hook(env, "session-start", payload("session_start"))  # warms the router cache
    hook(env, "user-prompt-submit", payload("user_prompt_submit"))  # an open turn to work on
    proc = subprocess.run([sys.executable, "-X", "importtime", "-S", "-c", hook_launcher(), "hook", event],
                          input=payload(fixture),
                          env=env, cwd=Path(env["ARTIBOT_HOME"]).parent, capture_output=True, timeout=60)
    assert proc.returncode == 0
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines()
                if line.startswith("import time:") and "|" in line}
    assert "artibot.hookpath.turns.call" in imported
    heavy = sorted(m for m in imported if any(m == f or m.startswith(f + ".") for f in FORBIDDEN + forbidden))
    assert heavy == []


def test_the_router_cache_follows_the_state_files(env: dict[str, str]) -> None:
    home = home_of(env)
    first = hook(env, "session-start", payload("session_start"))
    assert "default 0.40" in context_of(first, "SessionStart")
    write_thresholds(home, {"default": 0.25, "domains": {}})
    again = hook(env, "session-start", payload("session_start"))
    assert "default 0.25" in context_of(again, "SessionStart")
    routed = hook(env, "user-prompt-submit", payload("user_prompt_submit", prompt=ROUTINE))
    assert "threshold 0.25" in context_of(routed, "UserPromptSubmit")


def registered(env: dict[str, str], prefix: str, event: str, data: bytes) -> subprocess.CompletedProcess[bytes]:
    """The hook as Claude Code runs it: the registered command through ``sh -c``."""
    proc = subprocess.run(["/bin/sh", "-c", hook_command(prefix, event)], input=data, env=env,
                          cwd=Path(env["ARTIBOT_HOME"]).parent, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc


def test_the_registered_launcher_finds_the_installed_packages_when_a_hook_needs_them(env: dict[str, str]) -> None:
    """``-S`` skips ``site``: a cold session start (the router built through the config,
    ``orjson``) still finds what ``site`` would have put on the path."""
    prefix = hook_prefix(sys.executable)
    assert " -S -c " in prefix
    start = registered(env, prefix, "session-start", payload("session_start"))
    assert "Thresholds: default 0.40" in context_of(start, "SessionStart")
    routed = registered(env, prefix, "user-prompt-submit", payload("user_prompt_submit", prompt=ROUTINE))
    assert "threshold 0.40" in context_of(routed, "UserPromptSubmit")
    log = sessions.hook_log_path(home_of(env))
    assert "Error" not in (log.read_text() if log.exists() else "")  # nothing failed on the way


def test_a_launcher_whose_folder_no_longer_holds_artibot_falls_back_to_site(env: dict[str, str],
                                                                             tmp_path: Path) -> None:
    prefix = hook_prefix(sys.executable, root=str(tmp_path / "moved away"))
    start = registered(env, prefix, "session-start", payload("session_start"))
    assert "Thresholds: default 0.40" in context_of(start, "SessionStart")


@pytest.mark.parametrize("data", [b"", b"not json at all", b"[]"])
def test_real_entry_point_survives_bad_stdin(env: dict[str, str], data: bytes) -> None:
    for event in ("user-prompt-submit", "stop", "no-such-event"):
        proc = hook(env, event, data)
        assert proc.stdout == b"" and proc.stderr == b""
    assert sessions.hook_log_path(home_of(env)).read_text().count("\n") == 3


def test_bench_script_runs_on_a_tiny_budget() -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "bench_hooks.py"
    proc = subprocess.run([sys.executable, str(script), "--runs", "1", "--warmup", "0", "--no-extras"],
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    table = proc.stdout.decode()
    for row in ("python -c pass (sh -c)", "user-prompt-submit", "post-tool-use", "permission-request", "stop",
                "python -m artibot hook user-prompt-submit", "session-end"):
        assert row in table


def test_the_router_cache_survives_sessions(env: dict[str, str]) -> None:
    """The experience log and its sidecars change at every session end; the policy does not."""
    for sid in ("one", "two"):
        hook(env, "session-start", payload("session_start", session_id=sid))
        hook(env, "user-prompt-submit", payload("user_prompt_submit", session_id=sid))
        hook(env, "stop", payload("stop", session_id=sid))
        hook(env, "session-end", payload("session_end", session_id=sid))
    cache = home_of(env).sessions_dir / ".router-cache.marshal"
    before = cache.stat().st_mtime_ns
    hook(env, "session-start", payload("session_start", session_id="three"))
    hook(env, "user-prompt-submit", payload("user_prompt_submit", session_id="three"))
    assert cache.stat().st_mtime_ns == before


@pytest.mark.parametrize("escalation", [True, False])
def test_after_a_failed_system1_turn_the_next_prompt_goes_to_system2_by_escalation(
        env: dict[str, str], escalation: bool) -> None:
    home = home_of(env)
    (home.root.parent / "artibot.config.json").write_text(orjson.dumps(
        {"cognitive": {"router": {"exploration": 0, "domainExploration": 0, "escalation": escalation}}}).decode())
    first = hook(env, "user-prompt-submit", payload("user_prompt_submit", prompt=ROUTINE))
    assert "System 1" in context_of(first, "UserPromptSubmit")
    hook(env, "post-tool-use-failure", payload("post_tool_use_failure"))  # the turn's last tool call fails
    hook(env, "stop", payload("stop"))
    again = hook(env, "user-prompt-submit", payload("user_prompt_submit", prompt="fix the typo in the README title"))
    assert ("System 2" if escalation else "System 1") in context_of(again, "UserPromptSubmit")
    hook(env, "stop", payload("stop"))
    hook(env, "user-prompt-submit", payload("user_prompt_submit", prompt="fix the typo in the docs index"))
    hook(env, "stop", payload("stop"))
    hook(env, "session-end", payload("session_end"))
    records = ExperienceLog(home).read()
    got = [(r["routed_to"], r["outcome"], r["route_reason"], r["propensity"]) for r in records]
    if escalation:  # the retry by the rule (propensity 1); after its success the threshold routes again
        assert got == [("system1", "failed", "threshold", 1.0), ("system2", "success", "escalation", 1.0),
                       ("system1", "success", "threshold", 1.0)]
    else:
        assert [g[:3] for g in got] == [("system1", "failed", "threshold"), ("system1", "success", "threshold"),
                                        ("system1", "success", "threshold")]
