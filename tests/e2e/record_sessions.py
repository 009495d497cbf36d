"""Record labelled sessions of the real Claude Code client for the outcome rules' precision.

Each session is one turn of ``claude -p`` (the pinned client, against the scripted fake
API, artibot installed): what the model does is scripted, everything else — which hooks
fire, in which order, with which fields, and the transcript — is the real client's. The
label is what the turn really achieved, written with the scenario, before any rule was
measured on it: a ``grep`` that finds nothing, or ``test -f`` on a missing file, exits 1
and the turn may still be a success.

    ARTIBOT_E2E_CACHE=.cache python -m tests.e2e.record_sessions tests/data/sessions.jsonl

writes one JSON line per session: ``name``, ``label``, ``args``, the payloads in the order
the client sent them, the transcript's lines at the end of the session, and what artibot
recorded live (``outcome``, ``outcome_reason``, ``routed_to``).
:mod:`tests.integrations.test_rule_precision` replays them through the hooks and prints
the table in docs/outcomes.md.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from tests.e2e.fake_api import text, tool
from tests.e2e.harness import World, claude_binary

SIMPLE = "fix the typo in the README title"
HARD = ("migrate the billing service from REST to gRPC across the backend, the React frontend and the "
        "Postgres schema, then add integration tests and a rollback plan")
MISSING = "/nonexistent/CONTRIBUTING.md"

# name: (label, prompt, args, steps)
SESSIONS: dict[str, tuple[str, str, tuple[str, ...], list]] = {
    "answer": ("success", SIMPLE, (), [[text("The title now reads 'A small project'.")]]),
    "edit": ("success", SIMPLE, ("--allowedTools", "Read Edit"),
             [[tool("Read", file_path="README.md")],
              [tool("Edit", file_path="README.md", old_string="smal", new_string="small")], [text("Fixed.")]]),
    "bash-ok": ("success", "run the unit tests", ("--allowedTools", "Bash"),
                [[tool("Bash", command="echo 3 passed", description="tests")], [text("3 passed.")]]),
    "bash-fails": ("failed", "run the unit tests", ("--allowedTools", "Bash"),
                   [[tool("Bash", command="echo 1 failed; exit 1", description="tests")], [text("A test fails.")]]),
    "gives-up": ("failed", "make the build pass", ("--allowedTools", "Bash"),
                 [[tool("Bash", command="echo error: missing module; exit 2", description="build")],
                  [tool("Bash", command="echo error: missing module; exit 2", description="build again")],
                  [text("I could not make the build pass.")]]),
    "retry-recovers": ("success", "run the unit tests", ("--allowedTools", "Bash"),
                       [[tool("Bash", command="echo flaky; exit 1", description="tests")],
                        [tool("Bash", command="echo 3 passed", description="tests again")], [text("Passing now.")]]),
    "read-missing-then-found": ("success", SIMPLE, ("--allowedTools", "Read"),
                                [[tool("Read", file_path=MISSING)], [tool("Read", file_path="README.md")],
                                 [text("Found it in the README.")]]),
    "parallel-one-fails": ("failed", SIMPLE, ("--allowedTools", "Read Grep"),
                           [[tool("Read", file_path=MISSING), tool("Grep", pattern="Demo", path=".")],
                            [text("The file is missing.")]]),
    "batch-one-fails": ("failed", "lint and test", ("--allowedTools", "Bash"),
                        [[tool("Bash", command="echo lint error; exit 3", description="lint"),
                          tool("Bash", command="echo fine", description="tests")], [text("Lint fails.")]]),
    "grep-finds-nothing": ("success", "are there any TODO markers left?", ("--allowedTools", "Bash"),
                           [[tool("Bash", command="grep -rn TODO . --include=*.md", description="search")],
                            [text("No TODO markers are left.")]]),
    "test-f-missing": ("success", "is there a setup.py?", ("--allowedTools", "Bash"),
                       [[tool("Bash", command="test -f setup.py", description="check")],
                        [text("No, there is no setup.py.")]]),
    "refused": ("failed", SIMPLE, (), [[tool("Write", file_path="notes.txt", content="x")],
                                       [text("I could not write it.")]]),
    "unoffered": ("failed", SIMPLE, ("--allowedTools", "Read"),
                  [[tool("Frobnicate", target="README.md")], [text("Done.")]]),
    "unoffered-recovers": ("success", SIMPLE, ("--allowedTools", "Read"),
                           [[tool("Frobnicate", target="README.md")], [tool("Read", file_path="README.md")],
                            [text("Read it.")]]),
    "tasks-simple": ("escalated", SIMPLE, ("--tools", "Bash,TaskCreate,TaskUpdate"),
                     [[tool("TaskCreate", subject="Fix the typo", description="README title",
                            activeForm="Fixing the typo")],
                      [tool("TaskUpdate", taskId="1", status="completed")], [text("Done.")]]),
    "many-simple": ("escalated", SIMPLE, ("--allowedTools", "Bash"),
                    [[tool("Bash", command=f"echo step {i}", description=f"step {i}")] for i in range(10)]
                    + [[text("Done in many steps.")]]),
    "tasks-hard": ("success", HARD, ("--tools", "Bash,TaskCreate,TaskUpdate"),
                   [[tool("TaskCreate", subject="Plan", description="the migration", activeForm="Planning")],
                    [text("Planned.")]]),
    "api-error": ("interrupted", SIMPLE, (), [{"http_error": 400}]),
}


def _message(line: str) -> bool:
    """Whether a transcript line is a message (a prompt, a tool call, a result, an answer):
    the rules read nothing else, and the rest (tool and skill listings) is most of its size."""
    try:
        return json.loads(line).get("type") in ("user", "assistant")
    except ValueError:
        return False


def record(out: Path) -> None:
    binary = claude_binary()
    scenarios = {name: steps for name, (_, _, _, steps) in SESSIONS.items()}
    lines = []
    for name, (label, prompt, args, _steps) in SESSIONS.items():
        with tempfile.TemporaryDirectory() as tmp, World(Path(tmp), binary, scenarios) as world:
            world.install()
            world.data.mkdir(exist_ok=True)
            (world.data / "artibot.config.json").write_text(
                json.dumps({"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}))
            env = {**world.env, "ARTIBOT_RESUME_WINDOW_MIN": "0", "CLAUDE_CODE_MAX_RETRIES": "0"}
            import subprocess

            subprocess.run([str(binary), "-p", f"{prompt} #sc:{name}", *args], env=env, cwd=world.project,
                           capture_output=True, text=True, timeout=180)
            payloads = world.payloads()
            paths = {p.get("transcript_path") for p in payloads if p.get("transcript_path")}
            transcript = []
            for path in paths:
                if path and Path(path).exists():
                    transcript = [line for line in Path(path).read_text().splitlines() if _message(line)]
            [live] = world.experiences()
            lines.append({"name": name, "label": label, "args": list(args), "payloads": payloads,
                          "transcript": transcript, "outcome": live["outcome"],
                          "outcome_reason": live["outcome_reason"], "routed_to": live["routed_to"]})
            print(f"{name:26} label {label:11} live {live['outcome']:11} {live['outcome_reason']}", flush=True)
    out.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))


if __name__ == "__main__":
    os.environ.setdefault("ARTIBOT_RESUME_WINDOW_MIN", "0")
    record(Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/sessions.jsonl"))
