"""Each Gemini CLI, Codex CLI and Cursor hook as that client runs it, against bare ``python -c pass``.

The commands are the ones ``artibot install gemini-cli|codex-cli|cursor`` registers,
run through ``sh -c`` with the client's own payloads (the shapes the e2e tests capture
from Gemini CLI 0.61.0 and Codex CLI 0.169.0; Cursor's documented ones), in a
temporary data home, interleaved with the bare interpreter so that both see the same
machine. A session is replayed in order: start, two turns of (prompt, a tool call, a
failing tool call, end of turn), end. Codex CLI's tool hook reads the exit code from
the session transcript: a 4 MB transcript is there, as after a long session. Claude
Code's own prompt, tool and stop hooks run in the same loop, as the reference.

Targets (as for Claude Code): the prompt hook <= 3x, tool hooks <= 2x the bare interpreter.

    python scripts/bench_agent_hooks.py --runs 20 --seed 0
    python scripts/bench_hooks.py --agents    # Claude Code's table, then this one
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_hooks import PROMPTS, run  # noqa: E402

from artibot.integrations import json_hooks as hook_files  # noqa: E402
from artibot.integrations.claude_code.templates import hook_prefix  # noqa: E402

PROMPT_EVENT = {"gemini-cli": "BeforeAgent", "codex-cli": "UserPromptSubmit", "cursor": "beforeSubmitPrompt",
                "claude-code": "user-prompt-submit"}
TOOL_EVENTS = {"gemini-cli": ("AfterTool",), "codex-cli": ("PostToolUse",), "cursor": ("postToolUse", "postToolUseFailure"),
               "claude-code": ("post-tool-use",)}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="measured sessions per client")
    parser.add_argument("--seed", type=int, default=0, help="seeds the prompts")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured sessions first")
    return parser.parse_args()


def commands(agent: str, tmp: Path) -> dict[str, str]:
    """``{client event: command}`` as ``artibot install <agent>`` writes them."""
    from artibot.cli.cmd_agents import hook_file

    if agent == "claude-code":  # the reference, in the same loop (the full table is bench_hooks.py's)
        prefix = hook_prefix(sys.executable)
        return {e: f"{prefix} hook {e}" for e in ("session-start", "user-prompt-submit", "post-tool-use", "stop",
                                                   "session-end")}
    spec = dataclasses.replace(hook_file(agent, tmp), user_path=tmp / agent / "hooks.json")
    plan = hook_files.plan(spec, "user", hook_prefix(sys.executable), install=True)
    doc = json.loads(plan.changes[0].after)
    out = {}
    for event, entries in doc["hooks"].items():
        for entry in entries:
            for handler in entry.get("hooks", [entry]):
                out[event] = handler["command"]
    return out


def transcript(tmp: Path) -> Path:
    path = tmp / "rollout.jsonl"
    line = json.dumps({"type": "event_msg", "payload": {"type": "agent_message", "message": "x" * 2000}})
    done = json.dumps({"type": "event_msg", "payload": {"type": "item_completed", "item": {
        "type": "CommandExecution", "id": "call_fail", "status": "failed", "exit_code": 1}}})
    with path.open("w") as fh:
        for _ in range(4_000_000 // len(line)):
            fh.write(line + "\n")
        fh.write(done + "\n")
    return path


def moments(agent: str, sid: str, turn: str, prompt: str, rollout: Path) -> list[tuple[str, dict, str]]:
    """``(event, payload, label in the table)`` for one turn of ``agent``."""
    if agent == "claude-code":
        base = {"session_id": sid, "prompt_id": turn, "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp/p"}
        return [("user-prompt-submit", {**base, "prompt": prompt}, "user-prompt-submit"),
                ("post-tool-use", {**base, "tool_name": "Bash", "tool_input": {}, "tool_response": {}}, "post-tool-use"),
                ("stop", {**base, "stop_hook_active": False}, "stop")]
    if agent == "gemini-cli":
        base = {"session_id": sid, "transcript_path": "/tmp/t.json", "cwd": "/tmp/p", "timestamp": "2026-11-25T00:00:00Z"}
        shell = {"tool_name": "run_shell_command", "tool_input": {"command": "make"}}
        return [("BeforeAgent", {**base, "prompt": prompt}, "BeforeAgent"),
                ("AfterTool", {**base, **shell, "tool_response": {"llmContent": "Output: ok"}}, "AfterTool (ok)"),
                ("AfterTool", {**base, **shell, "tool_response": {"llmContent": "Output: x\nExit Code: 1"}},
                 "AfterTool (fails)"),
                ("AfterAgent", {**base, "prompt": prompt, "prompt_response": "done", "stop_hook_active": False},
                 "AfterAgent")]
    if agent == "codex-cli":
        base = {"session_id": sid, "turn_id": turn, "transcript_path": str(rollout), "cwd": "/tmp/p",
                "model": "gpt-5.1-codex", "permission_mode": "default"}
        shell = {"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_response": "x\n"}
        return [("UserPromptSubmit", {**base, "prompt": prompt}, "UserPromptSubmit"),
                ("PostToolUse", {**base, **shell, "tool_use_id": "call_ok"}, "PostToolUse (ok)"),
                ("PostToolUse", {**base, **shell, "tool_use_id": "call_fail"}, "PostToolUse (fails)"),
                ("Stop", {**base, "stop_hook_active": False, "last_assistant_message": "done"}, "Stop")]
    base = {"conversation_id": sid, "generation_id": turn, "workspace_roots": ["/tmp/p"], "cursor_version": "2.0.77"}
    return [("beforeSubmitPrompt", {**base, "prompt": prompt, "attachments": []}, "beforeSubmitPrompt"),
            ("postToolUse", {**base, "tool_name": "Shell", "tool_input": {}, "tool_output": "ok", "duration": 5},
             "postToolUse"),
            ("postToolUseFailure", {**base, "tool_name": "Shell", "tool_input": {}, "error_message": "exit 1",
                                    "failure_type": "error", "duration": 5}, "postToolUseFailure"),
            ("stop", {**base, "status": "completed", "loop_count": 0}, "stop")]


def bench(args: argparse.Namespace, tmp: Path) -> dict[str, dict[str, list[float]]]:
    rng = random.Random(args.seed)
    rollout = transcript(tmp)
    bare = ["sh", "-c", f"{shlex.quote(sys.executable)} -c pass"]
    out: dict[str, dict[str, list[float]]] = {}
    for agent in ("claude-code", "gemini-cli", "codex-cli", "cursor"):
        registered = commands(agent, tmp)
        data = tmp / f"data-{agent}"
        data.mkdir(mode=0o700)
        (data / "artibot.config.json").write_text('{"learning": {"lifelong": {"batchSize": 100000}}}')
        env = dict(os.environ, HOME=str(tmp / "home"), ARTIBOT_HOME=str(data), PYTHONPYCACHEPREFIX=str(tmp / "pyc"))
        for name in ("ARTIBOT_CONFIG", "PYTHONDONTWRITEBYTECODE", "CLAUDE_PROJECT_DIR"):
            env.pop(name, None)  # as installed: pip compiled the .pyc files (as bench_hooks.py does)
        times = out.setdefault(agent, {})
        start_event = next(e for e in registered if e.lower().replace("-", "") == "sessionstart")
        end_event = next(e for e in registered if e.lower().replace("-", "") == "sessionend")
        for i in range(args.warmup + args.runs):
            measured = i >= args.warmup
            sid = f"bench-{agent}-{i}"
            ids = {"session_id": sid, "conversation_id": sid, "cwd": "/tmp/p"}
            run(["sh", "-c", registered[start_event]], json.dumps({**ids, "source": "startup"}).encode(), env, tmp)
            for turn in range(2):
                for event, payload, label in moments(agent, sid, f"t{i}-{turn}", rng.choice(PROMPTS), rollout):
                    ms_bare, _ = run(bare, b"", env, tmp)
                    ms, _ = run(["sh", "-c", registered[event]], json.dumps(payload).encode(), env, tmp)
                    if measured:
                        times.setdefault(label, []).append(ms)
                        times.setdefault("python -c pass (sh -c)", []).append(ms_bare)
            run(["sh", "-c", registered[end_event]], json.dumps({**ids, "reason": "exit"}).encode(), env, tmp)
    return out


def report(out: dict[str, dict[str, list[float]]]) -> list[str]:
    lines = [f"{'client hook (registered command via sh -c)':<44} {'p50 ms':>7} {'ratio':>7} {'target':>10}"]
    for agent, times in out.items():
        base = statistics.median(times.pop("python -c pass (sh -c)"))
        lines.append(f"{agent} — python -c pass (sh -c) {base:.1f} ms")
        for name, values in times.items():
            p50 = statistics.median(values)
            target = 3.0 if name == PROMPT_EVENT[agent] else 2.0 if any(name.startswith(t) for t in TOOL_EVENTS[agent]) \
                else None
            verdict = "" if target is None else f"<={target:g}x " + ("ok" if p50 / base <= target else "MISSED")
            lines.append(f"  {name:<42} {p50:7.1f} {p50 / base:6.2f}x {verdict}")
    return lines


def main(args: argparse.Namespace | None = None) -> None:
    args = args or parse_args()
    with tempfile.TemporaryDirectory(prefix="artibot-bench-agents-", ignore_cleanup_errors=True) as name:
        out = bench(args, Path(name))
    print(f"runs={args.runs} seed={args.seed} load={os.getloadavg()[0]:.2f} cpus={os.cpu_count()}")
    print("\n".join(report(out)))


if __name__ == "__main__":
    main()
