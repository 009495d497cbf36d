"""The real Codex CLI, installed from npm at a pinned version, against the scripted fake Responses API.

:class:`CodexWorld` is one temporary machine: a ``CODEX_HOME`` whose ``config.toml``
holds what a user of another provider would have (a model provider with its own key
and ``base_url`` — the fake API — and the project marked trusted), a data home, a
project, and artibot installed with ``artibot install codex-cli``. The proxy variables
catch any other host.

Codex CLI runs a hook it does not manage only once the user has trusted it in
``/hooks``; the tests pass ``--dangerously-bypass-hook-trust``, Codex CLI's switch for
automation, and one test checks that without it artibot's hooks do not run.
Several prompts in one session go through the interactive client on a
pseudo-terminal (:mod:`.terminal`); ``codex exec`` runs one prompt per session.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from tests.e2e.fake_openai import FakeOpenAI
from tests.e2e.gemini_harness import CAPTURE, npm_binary
from tests.e2e.harness import captured
from tests.e2e.terminal import type_session

VERSION = "0.169.0"
"""The Codex CLI release the test pins (the current one on the npm registry on 2026-11-25)."""
MODEL = "gpt-5.1-codex"
CAPTURED_EVENTS = ("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd")
FLAGS = ("--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox")


def codex_binary() -> Path:
    return npm_binary("@openai/codex", VERSION, "codex-cli", "codex")


class CodexWorld:
    """A temporary machine with Codex CLI, artibot and the fake Responses API."""

    def __init__(self, tmp: Path, binary: Path, scenarios, *, cache=None, model: str = MODEL,
                 effort: str | None = None):
        self.tmp, self.binary = tmp, binary
        self.model, self.effort = model, effort
        self.home = tmp / "home"
        self.codex_home = self.home / ".codex"
        self.data = tmp / "artibot-home"
        self.project = tmp / "project"
        self.capture = tmp / "payloads.jsonl"
        self.hooks = self.codex_home / "hooks.json"
        for path in (self.codex_home, self.project):
            path.mkdir(parents=True)
        (self.project / "README.md").write_text("# Demo\n\nA smal project.\n")
        self.api = FakeOpenAI(scenarios, cache=cache)

    def __enter__(self) -> "CodexWorld":
        self.api.__enter__()
        effort = f'model_reasoning_effort = "{self.effort}"\n' if self.effort else ""
        (self.codex_home / "config.toml").write_text(
            f'model = "{self.model}"\n{effort}model_provider = "e2e"\ncheck_for_update_on_startup = false\n\n'
            f'[model_providers.e2e]\nname = "e2e"\nbase_url = "{self.api.url}/v1"\nenv_key = "E2E_OPENAI_KEY"\n'
            f'wire_api = "responses"\n\n[projects."{self.project}"]\ntrust_level = "trusted"\n')
        return self

    def __exit__(self, *exc: object) -> None:
        self.api.__exit__(*exc)

    @property
    def env(self) -> dict[str, str]:
        bindir = str(Path(sys.executable).parent)
        url = self.api.url
        return {
            "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
            # 0 unless a test sets it ("" is the shipped window): a session's records are in the log at its end
            "ARTIBOT_RESUME_WINDOW_MIN": os.environ.get("ARTIBOT_RESUME_WINDOW_MIN", "0"),
            "HOME": str(self.home), "CODEX_HOME": str(self.codex_home), "ARTIBOT_HOME": str(self.data),
            "E2E_CAPTURE": str(self.capture), "E2E_OPENAI_KEY": "sk-e2e-fake",
            "HTTP_PROXY": url, "HTTPS_PROXY": url, "http_proxy": url, "https_proxy": url,
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
            "TERM": "xterm", "LANG": "C.UTF-8",
        }

    def artibot(self, *args: str) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "artibot", *args], env=self.env, cwd=self.project,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def install(self, capture: bool = True, *extra: str) -> str:
        out = self.artibot("install", "codex-cli", *extra).stdout
        if capture:
            doc = json.loads(self.hooks.read_text())
            command = f"{shlex.quote(sys.executable)} -c {shlex.quote(CAPTURE)}"
            for event in CAPTURED_EVENTS:
                doc["hooks"].setdefault(event, []).insert(0, {"hooks": [{"type": "command", "command": command}]})
            self.hooks.write_text(json.dumps(doc, indent=2))
        return out

    def exec(self, prompt: str, *flags: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """One ``codex exec`` run (a session of one prompt)."""
        proc = subprocess.run([str(self.binary), "exec", *flags, prompt], env=self.env, cwd=self.project,
                              capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, f"codex exited {proc.returncode}: {proc.stdout[-800:]} {proc.stderr[-800:]}"
        return proc

    def session(self, *prompts: str, timeout: float = 60) -> str:
        """One interactive session (Codex CLI fires ``SessionStart`` at the first prompt, not at launch)."""
        return type_session([str(self.binary), *FLAGS], env=self.env, cwd=self.project, prompts=prompts,
                            ready=lambda screen: b"state=idle" in screen or "›".encode() in screen,
                            turns=lambda: len(self.payloads("Stop")), timeout=timeout,
                            submitted=lambda: len(self.payloads("UserPromptSubmit")))

    def payloads(self, event: str | None = None) -> list[dict]:
        docs = captured(self.capture)
        return [d for d in docs if event is None or d.get("hook_event_name") == event]

    def experiences(self) -> list[dict]:
        from artibot.store.log.experiences import ExperienceLog
        from artibot.store.home import Home

        return ExperienceLog(Home(self.data)).read()

    def wait_for_records(self, count: int, timeout: float = 15) -> list[dict]:
        end = time.monotonic() + timeout
        while len(records := self.experiences()) < count and time.monotonic() < end:
            time.sleep(0.2)
        return records

    def hook_log(self) -> str:
        path = self.data / "logs" / "hooks.log"
        return path.read_text() if path.exists() else ""

    def refused_in_clear(self) -> list[str]:
        """Requests that reached the fake API for another host (a blocked ``CONNECT`` sends nothing)."""
        return [r for r in self.api.refused if not r.startswith("CONNECT ")]
