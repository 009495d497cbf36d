"""The real Gemini CLI, installed from npm at a pinned version, against the scripted fake Gemini API.

:func:`npm_binary` installs a pinned npm package into the e2e cache
(``$ARTIBOT_E2E_CACHE`` or ``<repo>/.cache``, as the Claude Code client) once.
:class:`GeminiWorld` is one temporary machine: a ``HOME`` whose ``~/.gemini/settings.json``
holds what a user would have (API-key auth, no telemetry, no update check), a data
home, a project, the fake API (``GOOGLE_GEMINI_BASE_URL``; the proxy variables catch
any other host) and artibot installed with ``artibot install gemini-cli``.

Gemini CLI runs hooks in its interactive sessions and in ``-p`` runs; several prompts
in one session need the interactive one, which :meth:`GeminiWorld.session` drives
through a pseudo-terminal (:mod:`.terminal`): it types a prompt, waits for that turn's
``AfterAgent``, types the next, then ``/quit``. (Its ``--acp`` mode was tried and is not used: in
0.61.0 it fires no ``SessionStart`` or ``AfterTool`` for the session, and its
``SessionEnd`` names another session id.)
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.e2e.fake_gemini import FakeGemini
from tests.e2e.harness import REPO, Unavailable, captured
from tests.e2e.terminal import type_session

VERSION = "0.61.0"
"""The Gemini CLI release the test pins (the current one on the npm registry on 2026-11-25)."""
MODEL = "gemini-2.5-flash"
"""Named on the command line, so that Gemini CLI does not ask the API which model to use first."""

CAPTURE = """import json, os, sys
data = sys.stdin.buffer.read()
with open(os.environ["E2E_CAPTURE"], "ab") as fh:
    fh.write(json.dumps(json.loads(data)).encode() + b"\\n")
"""
CAPTURED_EVENTS = ("SessionStart", "BeforeAgent", "BeforeModel", "AfterTool", "AfterAgent", "SessionEnd")
USER_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}


def npm_binary(package: str, version: str, folder: str, binary_name: str) -> Path:
    """``node_modules/.bin/<binary_name>`` of ``package@version``, installed on first use."""
    for tool in ("npm", "node"):
        if shutil.which(tool) is None:
            raise Unavailable(f"{tool} is not on PATH: the real-client test needs Node.js and npm")
    cache = Path(os.environ.get("ARTIBOT_E2E_CACHE") or REPO / ".cache") / f"{folder}-{version}"
    binary = cache / "node_modules" / ".bin" / binary_name
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(["npm", "install", "--prefix", str(cache), "--no-audit", "--no-fund", "--no-save",
                               f"{package}@{version}"], capture_output=True, text=True, timeout=900)
        if proc.returncode != 0 or not binary.exists():
            raise Unavailable(f"npm could not install {package}@{version}: "
                              + (proc.stderr.strip().splitlines() or ["no output"])[-1])
    proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ.get("PATH", ""), "HOME": str(cache)})
    if proc.returncode != 0 or version not in proc.stdout:
        raise Unavailable(f"{binary} --version said {proc.stdout.strip() or proc.stderr.strip()!r}")
    return binary


def gemini_binary() -> Path:
    return npm_binary("@google/gemini-cli", VERSION, "gemini-cli", "gemini")


class GeminiWorld:
    """A temporary machine with Gemini CLI, artibot and the fake Gemini API."""

    def __init__(self, tmp: Path, binary: Path, scenarios):
        self.tmp, self.binary = tmp, binary
        self.home = tmp / "home"
        self.data = tmp / "artibot-home"
        self.project = tmp / "project"
        self.capture = tmp / "payloads.jsonl"
        self.settings = self.home / ".gemini" / "settings.json"
        for path in (self.settings.parent, self.project):
            path.mkdir(parents=True)
        self.settings.write_text(json.dumps(USER_SETTINGS, indent=2) + "\n")
        (self.project / "README.md").write_text("# Demo\n\nA smal project.\n")
        self.api = FakeGemini(scenarios)

    def __enter__(self) -> "GeminiWorld":
        self.api.__enter__()
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
            "HOME": str(self.home), "ARTIBOT_HOME": str(self.data), "E2E_CAPTURE": str(self.capture),
            "GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "gemini-e2e-fake",
            "HTTP_PROXY": url, "HTTPS_PROXY": url, "http_proxy": url, "https_proxy": url,
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
            "TERM": "xterm", "COLUMNS": "120", "LINES": "40", "LANG": "C.UTF-8",
        }

    def artibot(self, *args: str) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "artibot", *args], env=self.env, cwd=self.project,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def install(self, capture: bool = True) -> str:
        out = self.artibot("install", "gemini-cli").stdout
        if capture:
            self.add_capture_hook()
        return out

    def add_capture_hook(self) -> None:
        """Another tool's hooks beside ours (the installer keeps them; Gemini CLI runs both)."""
        settings = json.loads(self.settings.read_text())
        command = f"{shlex.quote(sys.executable)} -c {shlex.quote(CAPTURE)}"
        for event in CAPTURED_EVENTS:
            settings.setdefault("hooks", {}).setdefault(event, []).insert(
                0, {"hooks": [{"type": "command", "command": command, "timeout": 10_000}]})
        self.settings.write_text(json.dumps(settings, indent=2))

    def run(self, prompt: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """One ``gemini -p`` run (a session of one prompt)."""
        proc = subprocess.run([str(self.binary), "-m", MODEL, "--yolo", "-o", "json", "-p", prompt], env=self.env,
                              cwd=self.project, capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, f"gemini exited {proc.returncode}: {proc.stdout[-800:]} {proc.stderr[-800:]}"
        return proc

    def session(self, *prompts: str, timeout: float = 60) -> str:
        """One interactive session: each prompt typed once the previous turn's ``AfterAgent`` ran."""
        started = len(self.payloads("SessionStart"))  # an earlier session's do not count
        return type_session([str(self.binary), "-m", MODEL, "--yolo"], env=self.env, cwd=self.project,
                            prompts=prompts, ready=lambda screen: len(self.payloads("SessionStart")) > started,
                            turns=lambda: len(self.payloads("AfterAgent")), timeout=timeout,
                            submitted=lambda: len(self.payloads("BeforeAgent")))

    def payloads(self, event: str | None = None) -> list[dict]:
        docs = captured(self.capture)
        return [d for d in docs if event is None or d.get("hook_event_name") == event]

    def experiences(self) -> list[dict]:
        from artibot.store.log.experiences import ExperienceLog
        from artibot.store.home import Home

        return ExperienceLog(Home(self.data)).read()

    def wait_for_records(self, count: int, timeout: float = 15) -> list[dict]:
        """Gemini CLI does not wait for ``SessionEnd`` hooks: the records land just after it exits."""
        end = time.monotonic() + timeout
        while len(records := self.experiences()) < count and time.monotonic() < end:
            time.sleep(0.2)
        return records

    def hook_log(self) -> str:
        path = self.data / "logs" / "hooks.log"
        return path.read_text() if path.exists() else ""
