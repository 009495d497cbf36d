"""The real Claude Code CLI, installed from npm at a pinned version, against the scripted fake API.

:func:`claude_binary` installs ``@anthropic-ai/claude-code@VERSION`` into a cache folder
(``<repo>/.cache/claude-code-VERSION``, or ``$ARTIBOT_E2E_CACHE``) once; the package
postinstall copies the native binary for this platform. :class:`World` is one
temporary machine: a ``HOME``, a data home, a project, the fake API, and artibot
installed into Claude Code with ``artibot install claude-code``. Nothing leaves it:
``ANTHROPIC_BASE_URL`` and the proxy variables all point at the fake API, which
refuses any other host.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from experiments.cache_model import PromptCache
from tests.e2e.fake_api import FakeAPI

VERSION = "2.1.331"
"""The Claude Code release the test pins (the current one on the npm registry on 2026-11-24)."""

REPO = Path(__file__).resolve().parents[2]
CAPTURE = """import json, os, sys
data = sys.stdin.buffer.read()
with open(os.environ["E2E_CAPTURE"], "ab") as fh:
    fh.write(json.dumps(json.loads(data)).encode() + b"\\n")
"""
"""A second hook on every event, beside artibot's: records what Claude Code really sends."""

CAPTURED_EVENTS = ("SessionStart", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PostToolUse",
                   "PostToolUseFailure", "PermissionRequest", "Stop", "SubagentStop", "SessionEnd")


def captured(path: Path) -> list[dict]:
    """The hook payloads the capture command appended to ``path``, one JSON line each. A line
    still being written (no newline yet: a large payload is not appended in one piece a
    reader cannot see) is left for the next look."""
    if not path.exists():
        return []
    complete = path.read_text().rpartition("\n")[0]
    return [json.loads(line) for line in complete.splitlines() if line.strip()]


class Unavailable(Exception):
    """The client cannot be installed here (the reason is the message)."""


def claude_binary() -> Path:
    """The ``claude`` executable of the pinned version, installed on first use."""
    for tool in ("npm", "node"):
        if shutil.which(tool) is None:
            raise Unavailable(f"{tool} is not on PATH: the real-client test needs Node.js and npm")
    cache = Path(os.environ.get("ARTIBOT_E2E_CACHE") or REPO / ".cache") / f"claude-code-{VERSION}"
    binary = cache / "node_modules" / ".bin" / "claude"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(["npm", "install", "--prefix", str(cache), "--no-audit", "--no-fund", "--no-save",
                               f"@anthropic-ai/claude-code@{VERSION}"], capture_output=True, text=True, timeout=600)
        if proc.returncode != 0 or not binary.exists():
            raise Unavailable(f"npm could not install @anthropic-ai/claude-code@{VERSION}: "
                              + (proc.stderr.strip().splitlines() or ["no output"])[-1])
    proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ.get("PATH", ""), "HOME": str(cache)})
    if proc.returncode != 0 or VERSION not in proc.stdout:
        raise Unavailable(f"{binary} --version said {proc.stdout.strip() or proc.stderr.strip()!r}")
    return binary


class World:
    """A temporary machine with Claude Code, artibot and the fake API."""

    def __init__(self, tmp: Path, binary: Path, scenarios, cache: PromptCache | None = None):
        self.tmp, self.binary = tmp, binary
        self.home = tmp / "home"
        self.data = tmp / "artibot-home"
        self.project = tmp / "project"
        self.capture = tmp / "payloads.jsonl"
        for path in (self.home, self.project):
            path.mkdir()
        (self.project / "README.md").write_text("# Demo\n\nA smal project.\n")
        self.api = FakeAPI(scenarios, cache=cache)

    def __enter__(self) -> "World":
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
            "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-ant-e2e-fake",
            "HTTP_PROXY": url, "HTTPS_PROXY": url, "http_proxy": url, "https_proxy": url, "NO_PROXY": "",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "TERM": "dumb", "LANG": "C.UTF-8",
        }

    def artibot(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "artibot", *args], env=self.env, cwd=cwd or self.project,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def install(self, scope: str = "user", capture: bool = True) -> str:
        out = self.artibot("install", "claude-code", "--scope", scope).stdout
        if capture:
            self.add_capture_hook()
        return out

    @property
    def capture_command(self) -> str:
        """The capturing hook's command, exactly as written into ``settings.json``."""
        return f"{shlex.quote(sys.executable)} -c {shlex.quote(CAPTURE)}"

    def capture_settings(self) -> dict:
        """``settings.json`` holding the capturing hook alone: what uninstall must leave."""
        group = {"hooks": [{"type": "command", "command": self.capture_command, "timeout": 10}]}
        return {"hooks": {event: [group] for event in CAPTURED_EVENTS}}

    def add_capture_hook(self) -> None:
        """Another tool's hooks beside ours (the installer must keep them; Claude Code runs both)."""
        path = self.home / ".claude" / "settings.json"
        settings = json.loads(path.read_text()) if path.exists() else {}
        command = self.capture_command
        for event in CAPTURED_EVENTS:
            groups = settings.setdefault("hooks", {}).setdefault(event, [])
            if not any(h.get("command") == command for g in groups for h in g.get("hooks", [])):
                groups.insert(0, {"hooks": [{"type": "command", "command": command, "timeout": 10}]})
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2))

    def claude(self, *args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([str(self.binary), *args], env=self.env, cwd=self.project, input=stdin,
                              capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, f"claude {args} exited {proc.returncode}: {proc.stdout[-500:]} {proc.stderr[-500:]}"
        return proc

    def conversation(self, *prompts: str, extra: tuple[str, ...] = (), timeout: float = 120) -> list[dict]:
        """One session, several typed prompts: stream-json in, each sent once the previous turn's result is out."""
        proc = subprocess.Popen([str(self.binary), "-p", "--input-format", "stream-json", "--output-format",
                                 "stream-json", "--verbose", *extra], env=self.env, cwd=self.project,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        events: list[dict] = []
        try:
            for prompt in prompts:
                proc.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n")
                proc.stdin.flush()
                for line in proc.stdout:
                    event = json.loads(line)
                    events.append(event)
                    if event.get("type") == "result":
                        break
            proc.stdin.close()
            proc.wait(timeout=timeout)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 0, proc.stderr.read()[-500:]
        return events

    def payloads(self, event: str | None = None) -> list[dict]:
        docs = captured(self.capture)
        return [d for d in docs if event is None or d.get("hook_event_name") == event]

    def experiences(self) -> list[dict]:
        from artibot.store.log.experiences import ExperienceLog
        from artibot.store.home import Home

        return ExperienceLog(Home(self.data)).read()

    def hook_log(self) -> str:
        path = self.data / "logs" / "hooks.log"
        return path.read_text() if path.exists() else ""
