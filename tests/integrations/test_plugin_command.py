"""The plugin's hook command (``config/claude-code/hooks/hooks.json``): it finds the interpreter
through the ``artibot`` console script on ``PATH`` and starts it as the installed hooks do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from artibot.config import shipped_config_dir
from artibot.integrations.claude_code.templates import HOOKS, hook_group, plugin_hook_command, plugin_hooks_document

FIXTURES = Path(__file__).parent / "fixtures"
PLUGIN_HOOKS = shipped_config_dir() / "claude-code" / "hooks" / "hooks.json"


def test_the_shipped_plugin_file_is_the_generated_document() -> None:
    assert json.loads(PLUGIN_HOOKS.read_bytes()) == plugin_hooks_document()


def test_the_plugin_registers_the_installed_events_matchers_and_timeouts() -> None:
    hooks = plugin_hooks_document()["hooks"]
    for spec in HOOKS:
        [group] = hooks[spec.event]
        installed = hook_group(spec, "artibot")
        assert {k: v for k, v in group.items() if k != "hooks"} == {k: v for k, v in installed.items() if k != "hooks"}
        [h] = group["hooks"]
        assert h["timeout"] == installed["hooks"][0]["timeout"]
        assert h["command"] == plugin_hook_command(spec.cli_event)
        assert h["command"].endswith(f" hook {spec.cli_event}")


def _run(tmp_path: Path, console_script: str | None) -> subprocess.CompletedProcess[bytes]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    if console_script is not None:
        script = bin_dir / "artibot"
        script.write_text(console_script)
        script.chmod(0o755)
    payload = orjson.loads((FIXTURES / "user_prompt_submit.json").read_bytes())
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "ARTIBOT_HOME": str(tmp_path / "home")}
    env.pop("ARTIBOT_CONFIG", None)
    return subprocess.run(["/bin/sh", "-c", plugin_hook_command("user-prompt-submit")], input=orjson.dumps(payload),
                          env=env, cwd=tmp_path, capture_output=True, timeout=60)


def _routed(proc: subprocess.CompletedProcess[bytes]) -> bool:
    assert proc.returncode == 0, proc.stderr.decode()
    return "artibot router" in orjson.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]


SPACED = pytest.mark.skipif(" " in sys.executable, reason="a shebang cannot name an interpreter whose path holds a "
                            "space (pip then writes a /bin/sh wrapper, tested below)")


@SPACED
def test_the_interpreter_named_by_the_console_script_runs_the_launcher(tmp_path: Path) -> None:
    # A console script that would fail if it ran: the command must only read its first line.
    assert _routed(_run(tmp_path, f"#!{sys.executable}\nraise SystemExit(3)\n"))


@pytest.mark.parametrize("first_line", ["#!/bin/sh", "#!/usr/bin/env python3",
                                        pytest.param(f"#!{sys.executable} -E", marks=SPACED)])
def test_a_first_line_that_is_not_a_plain_interpreter_runs_the_console_script(tmp_path: Path,
                                                                               first_line: str) -> None:
    (tmp_path / "bin").mkdir()
    python3 = tmp_path / "bin" / "python3"  # what env finds first: the test's interpreter
    python3.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python3.chmod(0o755)
    if first_line.startswith("#!/bin/sh"):
        body = f'{first_line}\nexec "{sys.executable}" -m artibot "$@"\n'
    else:
        body = f"{first_line}\nimport sys\nfrom artibot.__main__ import main\nsys.exit(main())\n"
    assert _routed(_run(tmp_path, body))


def test_no_console_script_on_the_path_exits_0_silently(tmp_path: Path) -> None:
    proc = _run(tmp_path, None)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
