"""Each Claude Code hook as Claude Code runs it, against bare ``python -c pass`` of the same venv.

Every hook runs the command ``artibot install claude-code`` registers — the install is run
into a temporary ``HOME`` and the command read back from the ``settings.json`` it wrote —
through ``/bin/sh -c``, with its payload on stdin, in a temporary data home and project: the
way Claude Code starts it (``python -S -c '<launcher>' hook EVENT``). The bare interpreter
is timed the same way (``sh -c '<python> -c pass'``), in the same loop, so that both see the
same machine: the table gives medians and their ratio. A session is replayed in order (start, prompt, tool calls, stop, the next prompt
judging the last turn …) so that each hook finds the state it would in a real session.
``python -m artibot hook user-prompt-submit`` is also timed without ``sh``, against
``python -c pass`` without ``sh``.

Each session runs in two data homes, in the same loop: a **fresh** one (no experience
yet) and a **used** one, built first with the product's own calls, seeded: three
learning rounds applied by ``learn`` (learned thresholds, System 1 patterns promoted,
snapshots, a learning log, 3,000 experiences in the archive) and 700 more experiences in
the log. The warm-up sessions write the hooks' caches (router policy, regular
expression programs, round notices), as any earlier session would have.

Then, once each: a 19.5 MB prompt (wall time and peak memory of the hook), and what
reading the tail of a transcript at ``Stop`` would cost (see the README: not done).

Targets (a hook runs on every prompt and tool call, so it must stay near a bare interpreter's
start), on both homes: the prompt hook <= 2.5x, session-start and stop <= 3x, tool hooks <= 2x
the bare interpreter; a prompt of any size in under 1 s.

``--instructions`` also counts the instructions a warm prompt, tool and stop hook execute
against the bare interpreter's (``valgrind --tool=callgrind``, ~30 s): a ratio the other
jobs on the machine do not move, unlike the wall-clock medians.

``--gateway`` runs the same with the gateway on (``ARTIBOT_GATEWAY_PORT`` set, as an
install with ``--gateway`` does): the first hook starts one per home, and every prompt,
tool and session-start hook then asks it whether it serves (a loopback health request).

    python scripts/bench_hooks.py --runs 30 --seed 0 [--instructions] [--gateway]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


PROMPTS = (
    "fix the typo in the README title",
    "rename the variable in utils to snake_case",
    "migrate the user service from REST to gRPC, update the React client and the Postgres schema, "
    "then add integration tests",
    "why does the login endpoint return 500 when the token expired?",
    "no, that's wrong — the title is in docs/index.md",
    "아니, 그게 아니라 다른 파일이야",
    "think harder about the edge cases and add a test",
)
TOOLS = ("Edit", "Read", "Bash", "Grep", "TaskCreate")
TARGETS = {"session-start": 3.0, "user-prompt-submit": 2.5, "post-tool-use": 2.0, "post-tool-use-failure": 2.0,
           "permission-request": 2.0, "stop": 3.0, "python -m artibot hook user-prompt-submit": 3.0}
"""The prompt hook's bound has a margin under the 3x every hook must stay within."""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="measured sessions")
    parser.add_argument("--seed", type=int, default=0, help="seeds the prompts and tools")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured sessions first (page cache, .pyc, caches)")
    parser.add_argument("--no-extras", action="store_true", help="skip the huge prompt and the transcript tail")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions of a warm session's hooks and of the bare interpreter "
                             "(valgrind; not changed by the machine's load)")
    parser.add_argument("--gateway", action="store_true",
                        help="install with --gateway and keep a real gateway per home, so that every prompt, "
                             "tool and session-start hook asks it whether it serves (the health probe)")
    parser.add_argument("--agents", action="store_true",
                        help="then the same for Gemini CLI, Codex CLI and Cursor (scripts/bench_agent_hooks.py)")
    return parser.parse_args()


def run(cmd: list[str], stdin: bytes, env: dict[str, str], cwd: Path) -> tuple[float, int]:
    """(wall ms, peak RSS KB) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env, cwd=cwd)
    try:
        proc.stdin.write(stdin)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} exited {proc.returncode}")
    return elapsed, usage.ru_maxrss


def registered_commands(tmp: Path) -> dict[str, str]:
    """``{cli event: command}`` as Claude Code reads them: ``artibot install claude-code`` is
    run (this interpreter, this checkout) into a temporary ``HOME`` and its ``settings.json`` read back."""
    home = tmp / "home"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    # no ARTIBOT_HOME: a home named at install time is written into the commands, and each measured
    # home here is chosen by the hook's environment
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT))
    env.pop("ARTIBOT_HOME", None)
    subprocess.run([sys.executable, "-m", "artibot", "install", "claude-code"], env=env, cwd=tmp, check=True,
                   stdout=subprocess.DEVNULL)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    out = {}
    for groups in settings["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                out[handler["command"].rsplit(" ", 1)[-1]] = handler["command"]
    assert not any("ARTIBOT_HOME=" in c for c in out.values()), "the commands name a home: the bench's homes would not apply"
    return out


def payload(event: str, sid: str, pid: str, **fields: object) -> bytes:
    doc = {"session_id": sid, "transcript_path": f"/tmp/claude/{sid}.jsonl", "cwd": "/tmp/project",
           "hook_event_name": event, "permission_mode": "default", "prompt_id": pid}
    doc.update(fields)
    return json.dumps(doc).encode()


HOMES = ("fresh", "used")


def build_used_home(data: Path, seed: int) -> None:
    """Three applied learning rounds and 3,700 experiences, through ``collect_many`` and ``learn``."""
    from datetime import datetime, timedelta, timezone

    from artibot.collector import collect_many
    from artibot.round.cycle import learn
    from artibot.hookpath.router.domains import DomainTable
    from artibot.hookpath.router.policy import RoutingPolicy

    rng = random.Random(seed)
    base = datetime(2026, 1, 1, tzinfo=timezone.utc)
    policy = RoutingPolicy(0.4, {}, frozenset(), DomainTable.from_mapping({}), exploration=0.2)
    patterns = (None, "backend:fix:typo", "frontend:add:button", "api:rename:variable")

    def experiences(start: int, n: int) -> list[dict]:
        out = []
        for i in range(start, start + n):
            c, pattern, domain = round(rng.random(), 3), rng.choice(patterns), rng.choice(("api", "frontend", "backend"))
            d = policy.decide_scored(c, domain, pattern, rng)
            ok = rng.random() < (0.9 if d.system == "system2" else 0.95 - 0.8 * c)
            out.append({"id": f"x{i:06d}", "timestamp": (base + timedelta(seconds=i)).isoformat(), "session_id": "s",
                        "input": f"fix the typo in module {i} and rename the variable", "domain": domain,
                        "complexity": c, "routed_to": d.system, "outcome": "success" if ok else "failed",
                        "latency_ms": 5.0, "confidence": d.confidence, "pattern": pattern, "threshold": d.threshold,
                        "propensity": d.propensity})
        return out

    config = data / "artibot.config.json"
    config.write_text('{"learning": {"lifelong": {"batchSize": 1000}, "knowledgeTransfer": {"promotionThreshold": 5}}}')
    for r in range(3):
        collect_many(experiences(r * 1000, 1000), home=data)
        report = learn(home=data, answers="defaults")
        if report.status != "applied":
            raise SystemExit(f"building the used home: round {r + 1} was {report.status} ({report.message})")
    collect_many(experiences(3000, 700), home=data)
    config.write_text('{"learning": {"lifelong": {"batchSize": 100000}, "knowledgeTransfer": {"promotionThreshold": 5}}}')


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop_gateways(envs: dict[str, dict[str, str]]) -> None:
    """Stop the gateways the hooks started for ``--gateway`` (through the product's own call)."""
    from artibot.gateway.launcher import stop_all

    for env in envs.values():
        stop_all(env["ARTIBOT_HOME"])


def bench(args: argparse.Namespace, tmp: Path) -> dict[tuple[str, str], list[float]]:
    """``{(home, row): wall ms}``; the bare interpreter's rows under the home ``""``."""
    rng = random.Random(args.seed)
    commands = registered_commands(tmp)
    project = tmp / "project"
    project.mkdir()
    envs = {}
    for home in HOMES:
        data = tmp / home / "data"
        data.mkdir(parents=True, mode=0o700)
        envs[home] = dict(os.environ, HOME=str(tmp / "home"), ARTIBOT_HOME=str(data),
                          PYTHONPYCACHEPREFIX=str(tmp / "pyc"))
        for name in ("ARTIBOT_CONFIG", "PYTHONDONTWRITEBYTECODE", "CLAUDE_PROJECT_DIR"):
            envs[home].pop(name, None)  # as installed: pip compiled the .pyc files
        if args.gateway:  # what Claude Code passes to its hooks when installed with --gateway
            envs[home]["ARTIBOT_GATEWAY_PORT"] = str(_free_port())
            envs[home]["ARTIBOT_GATEWAY_UPSTREAM"] = "http://127.0.0.1:9"  # never asked: no request is sent
        if home == "used":
            build_used_home(data, args.seed)
        else:
            # No learner during the measurement: it would compete for the CPU (a spawn is timed
            # by tests/integrations/test_hook_e2e.py, not here).
            (data / "artibot.config.json").write_text('{"learning": {"lifelong": {"batchSize": 100000}}}')
    times: dict[tuple[str, str], list[float]] = {}

    def timed(home: str, name: str, cmd: list[str], stdin: bytes, measured: bool) -> None:
        ms, _ = run(cmd, stdin, envs[home or "fresh"], project)
        if measured:
            times.setdefault((home, name), []).append(ms)

    try:
        session_loop(args, rng, commands, envs, project, timed)
    finally:
        if args.gateway:
            stop_gateways(envs)
    if args.instructions:
        instruction_counts(commands, envs, project, times)
    return times


def session_loop(args: argparse.Namespace, rng: random.Random, commands: dict[str, str],
                 envs: dict[str, dict[str, str]], project: Path, timed) -> None:
    """The replayed sessions, interleaved with the bare interpreter's runs."""
    bare_sh = ["/bin/sh", "-c", f"{shlex.quote(sys.executable)} -c pass"]
    for i in range(args.warmup + args.runs):
        measured = i >= args.warmup
        for home in HOMES:
            def hook(event: str, data: bytes, measured: bool = measured, home: str = home) -> None:
                timed(home, event, ["/bin/sh", "-c", commands[event]], data, measured)

            sid = f"bench-{home}-{i}"
            timed("", "python -c pass (sh -c)", bare_sh, b"", measured)
            hook("session-start", payload("SessionStart", sid, "", source="startup"))
            for turn in range(2):
                pid = f"p{i}-{turn}"
                timed("", "python -c pass (sh -c)", bare_sh, b"", measured)
                hook("user-prompt-submit", payload("UserPromptSubmit", sid, pid, prompt=rng.choice(PROMPTS)))
                hook("post-tool-use", payload("PostToolUse", sid, pid, tool_name=rng.choice(TOOLS), tool_input={},
                                              tool_response={"stdout": "ok"}, duration_ms=12))
                hook("post-tool-use-failure", payload("PostToolUseFailure", sid, pid, tool_name="Bash",
                                                      tool_input={}, error="Exit code 1", is_interrupt=False))
                hook("permission-request", payload("PermissionRequest", sid, pid, tool_name="Write", tool_input={}))
                hook("post-tool-use", payload("PostToolUse", sid, pid, tool_name="Write", tool_input={}), False)
                hook("stop", payload("Stop", sid, pid, stop_hook_active=False, last_assistant_message="done"))
            timed("", "python -c pass", [sys.executable, "-c", "pass"], b"", measured)
            timed(home, "python -m artibot hook user-prompt-submit",
                  [sys.executable, "-m", "artibot", "hook", "user-prompt-submit"],
                  payload("UserPromptSubmit", sid, f"p{i}-m", prompt=rng.choice(PROMPTS)), measured)
            hook("session-end", payload("SessionEnd", sid, "", reason="other"))


def instruction_counts(commands: dict[str, str], envs: dict[str, dict[str, str]], project: Path,
                       times: dict[tuple[str, str], list[float]]) -> None:
    """Instructions executed (``valgrind --tool=callgrind``) by one warm session's hooks and by
    the bare interpreter, under the keys ``("ir", home)``: a count the machine's load does not change."""
    import shutil

    if shutil.which("valgrind") is None:
        print("(--instructions: valgrind is not installed; skipped)", file=sys.stderr)
        return

    def count(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                              input=stdin, env=env, cwd=project, capture_output=True, check=True)
        line = next(x for x in proc.stderr.decode().splitlines() if "Collected :" in x)
        return float(line.rsplit(":", 1)[1])

    times[("ir", "")] = [count([sys.executable, "-c", "pass"], b"", envs["fresh"])]
    for home in HOMES:
        sid, pid, env = f"bench-{home}-ir", "p-ir", envs[home]
        run(["/bin/sh", "-c", commands["session-start"]], payload("SessionStart", sid, "", source="startup"), env,
            project)
        for event, data in (
                ("user-prompt-submit", payload("UserPromptSubmit", sid, pid, prompt=PROMPTS[3])),
                ("post-tool-use", payload("PostToolUse", sid, pid, tool_name="Edit", tool_input={},
                                          tool_response={"stdout": "ok"}, duration_ms=12)),
                ("stop", payload("Stop", sid, pid, stop_hook_active=False, last_assistant_message="done"))):
            # valgrind runs the interpreter itself: the command without the shell's `test -x` guard
            command = commands[event].split(" || exit 0; ", 1)[-1]
            times[("ir", f"{home} {event}")] = [count(shlex.split(command), data, env)]


def huge_prompt(tmp: Path) -> tuple[float, int, int]:
    """(ms, peak RSS MB, payload MB) of the prompt hook for a 19.5 MB prompt."""
    commands = registered_commands(tmp / "huge")
    env = dict(os.environ, HOME=str(tmp / "huge" / "home"), ARTIBOT_HOME=str(tmp / "huge" / "data"))
    text = "please review this log: " + ("2026-11-24 ERROR worker-7 retry 3/5 token=abc123 " * 400_000)[:19_500_000]
    data = payload("UserPromptSubmit", "huge", "p1", prompt=text)
    run(["/bin/sh", "-c", commands["user-prompt-submit"]], payload("UserPromptSubmit", "huge", "p0", prompt="warm up"),
        env, tmp)
    ms, rss = run(["/bin/sh", "-c", commands["user-prompt-submit"]], data, env, tmp)
    return ms, rss // 1024, len(data) // 1_000_000


TAIL_READER = """
import os, sys, _json
class C:
    strict = True; object_hook = None; object_pairs_hook = None
    parse_float = float; parse_int = int; parse_constant = float
scan = _json.make_scanner(C)
path, size = sys.argv[1], int(sys.argv[2])
fd = os.open(path, os.O_RDONLY)
end = os.fstat(fd).st_size
os.lseek(fd, max(0, end - size), 0)
data = os.read(fd, size).decode("utf-8", "replace")
refused = 0
for line in data.splitlines()[1:]:
    if '"tool_result"' in line:
        doc = scan(line, 0)[0]
        for block in (doc.get("message") or {}).get("content") or []:
            if isinstance(block, dict) and block.get("is_error") and "permission" in str(block.get("content")):
                refused += 1
"""


def transcript_tail(tmp: Path, runs: int) -> list[tuple[str, float]]:
    """Median ms of a Stop-time transcript reader (a python process) per tail size, and the bare interpreter."""
    line = json.dumps({"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": False, "content": "x" * 2000}]}})
    path = tmp / "transcript.jsonl"
    with path.open("w") as fh:
        for _ in range(30_000_000 // len(line)):
            fh.write(line + "\n")
    sizes = {"64 KB": 64 << 10, "1 MB": 1 << 20, "8 MB": 8 << 20}
    out: dict[str, list[float]] = {}
    env = dict(os.environ)
    for _ in range(runs):
        out.setdefault("python -c pass", []).append(run([sys.executable, "-c", "pass"], b"", env, tmp)[0])
        for label, size in sizes.items():
            out.setdefault(label, []).append(
                run([sys.executable, "-c", TAIL_READER, str(path), str(size)], b"", env, tmp)[0])
    return [(k, statistics.median(v)) for k, v in out.items()]


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="artibot-bench-", ignore_cleanup_errors=True) as name:
        tmp = Path(name)
        times = bench(args, tmp)
        extras = None if args.no_extras else (huge_prompt(tmp), transcript_tail(tmp, max(3, args.runs // 3)))
    print(f"runs={args.runs} seed={args.seed} python={sys.version.split()[0]} "
          + ("gateway=on (each hook probes it) " if args.gateway else "")
          + f"load={os.getloadavg()[0]:.2f} cpus={os.cpu_count()}")
    counts = {key[1]: values[0] for key, values in times.items() if key[0] == "ir"}
    for key in [key for key in times if key[0] == "ir"]:
        del times[key]
    bare_sh_runs = times.pop(("", "python -c pass (sh -c)"))
    bare_runs = times.pop(("", "python -c pass"))
    bare_sh, bare = statistics.median(bare_sh_runs), statistics.median(bare_runs)
    print(f"medians of {args.runs} sessions per home ({len(bare_sh_runs)} bare runs via sh -c, {len(bare_runs)} without), "
          "interleaved in one loop")
    print(f"{'hook (registered command via sh -c)':<44} {'fresh p50':>9} {'p95':>6} {'ratio':>6} "
          f"{'used p50':>9} {'p95':>6} {'ratio':>6}  target")
    print(f"{'python -c pass (sh -c)':<44} {bare_sh:9.1f} {'':>6} {1:5.2f}x")
    rows = list(dict.fromkeys(name for _, name in times))
    for name in rows:
        base = bare if name.startswith("python -m") else bare_sh
        cells, worst = [], 0.0
        for home in HOMES:
            values = sorted(times[(home, name)])
            p50 = statistics.median(values)
            p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
            worst = max(worst, p50 / base)
            cells.append(f"{p50:9.1f} {p95:6.1f} {p50 / base:5.2f}x")
        target = TARGETS.get(name)
        verdict = "" if target is None else (f"<={target:g}x " + ("ok" if worst <= target else "MISSED"))
        print(f"{name:<44} {' '.join(cells)}  {verdict}")
    print(f"(python -m artibot …: no sh, against python -c pass without sh, {bare:.1f} ms)")
    if counts:
        bare_ir = counts.pop("")
        print(f"\nInstructions (valgrind callgrind, one warm run each; not changed by the load): "
              f"python -c pass {bare_ir / 1e6:.1f} M")
        for name, value in counts.items():
            print(f"  {name:<40} {value / 1e6:7.1f} M  {value / bare_ir:5.2f}x")
    if extras is not None:
        (ms, rss, mb), tail = extras
        print(f"\n{mb} MB prompt: user-prompt-submit {ms:.0f} ms, peak RSS {rss} MB (target < 1000 ms)")
        base = dict(tail)["python -c pass"]
        print("Reading the transcript tail at Stop (a python process that reads and scans the last N bytes):")
        for label, value in tail:
            print(f"  {label:<16} {value:7.1f} ms  {value / base:5.2f}x bare")
    if args.agents:
        import bench_agent_hooks

        print()
        bench_agent_hooks.main(argparse.Namespace(runs=args.runs, seed=args.seed, warmup=args.warmup))


if __name__ == "__main__":
    main()
