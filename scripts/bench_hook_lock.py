"""Each hook that writes the experience log, run while another process holds the log's lock.

For each of ``session-end``, ``stop`` (with a full queue, so it flushes) and
``session-start`` (which records the turns of idle sessions): a fresh data home, a
session of ``--turns`` turns replayed through ``python -m artibot hook`` (the real entry
point, a subprocess each), then the hook under test run while this process holds the
log's exclusive lock until the hook has ended (a learner, or a wedged process). The table
gives the hook's wall time against the timeout Claude Code is registered with, and
checks, once the lock is free and the next hook has run, that every turn is stored
exactly once.

    python scripts/bench_hook_lock.py --turns 8 --seed 0
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artibot.hookpath.turns import turn as turns  # noqa: E402
from artibot.store.log.experiences import ExperienceLog  # noqa: E402
from artibot.store.fs import FileLock  # noqa: E402
from artibot.store.home import Home  # noqa: E402

TIMEOUTS = {"session-end": 5.0, "stop": 10.0, "session-start": 10.0}
"""What ``artibot install claude-code`` registers (seconds)."""


def hook(home: Home, event: str, payload: dict) -> float:
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "artibot", "hook", event], input=json.dumps(payload).encode(),
                   env={**os.environ, "ARTIBOT_HOME": str(home.root)}, check=True, capture_output=True,
                   cwd=ROOT)
    return time.monotonic() - started


def session(home: Home, sid: str, n: int, rng: random.Random) -> None:
    """``n`` turns, each stopped; the next prompt settles the previous turn into the queue."""
    base = {"session_id": sid, "cwd": str(home.root), "transcript_path": "/dev/null"}
    hook(home, "session-start", {**base, "hook_event_name": "SessionStart", "source": "startup"})
    for i in range(n):
        prompt = rng.choice(["fix the typo in the README title", "rename the helper in utils",
                             "migrate the billing service from REST to gRPC across the backend"])
        hook(home, "user-prompt-submit", {**base, "hook_event_name": "UserPromptSubmit", "prompt": f"{prompt} {i}"})
        hook(home, "stop", {**base, "hook_event_name": "Stop", "stop_hook_active": False})


def stored(home: Home) -> Counter[str]:
    return Counter(r["id"] for r in ExperienceLog(home).read())


def run(event: str, turns_n: int, rng: random.Random) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        home = Home(Path(tmp) / "artibot")
        home.ensure()
        (home.root / "artibot.config.json").write_text('{"cognitive": {"router": {"exploration": 0}}}')
        session(home, "s1", turns_n, rng)
        base = {"session_id": "s1", "cwd": str(home.root), "transcript_path": "/dev/null"}
        payload = {"session-end": {**base, "hook_event_name": "SessionEnd", "reason": "exit"},
                   "stop": {**base, "hook_event_name": "Stop", "stop_hook_active": False},
                   "session-start": {**base, "session_id": "s2", "hook_event_name": "SessionStart",
                                     "source": "startup"}}[event]
        if event == "stop":  # one more prompt, so that the Stop finds FLUSH_AT turns waiting
            hook(home, "user-prompt-submit", {**base, "hook_event_name": "UserPromptSubmit", "prompt": "again"})
        if event == "session-start":  # s1 left idle past the follow-up window: s2's start records it
            spool = home.sessions_dir / "s1.json"
            if spool.exists():
                old = time.time() - turns.FOLLOWUP_WINDOW_MS / 1000 - 60
                os.utime(spool, (old, old))
        before = sum(stored(home).values())
        lock = FileLock(home.experiences_lock, timeout=None)
        lock.acquire()
        try:
            wall = hook(home, event, payload)
        finally:
            lock.release()
        held_log = (home.logs_dir / "hooks.log").read_text() if (home.logs_dir / "hooks.log").exists() else ""
        queued = "stay queued" in held_log
        spool = home.sessions_dir / "s1.json"
        if event != "stop" and spool.exists():  # a SessionStart records an idle session's queue
            old = time.time() - turns.FOLLOWUP_WINDOW_MS / 1000 - 60
            os.utime(spool, (old, old))
        if event == "session-end":
            hook(home, "session-start", {**base, "session_id": "s3", "hook_event_name": "SessionStart",
                                         "source": "startup"})
        else:
            hook(home, event, payload)
        counts = stored(home)
        return {"event": event, "wall": wall, "timeout": TIMEOUTS[event], "before": before,
                "after": sum(counts.values()), "twice": sum(1 for c in counts.values() if c > 1),
                "queued": queued}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=8, help="turns in the session before the locked hook")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'hook':<14} {'wall s':>7} {'timeout s':>9} {'stored before':>13} {'stored after':>12} "
          f"{'stored twice':>12}  logged 'stay queued'")
    for event in TIMEOUTS:
        r = run(event, args.turns if event != "session-start" else min(args.turns, 7), rng)
        print(f"{r['event']:<14} {r['wall']:>7.2f} {r['timeout']:>9.0f} {r['before']:>13} {r['after']:>12} "
              f"{r['twice']:>12}  {'yes' if r['queued'] else 'no'}")


if __name__ == "__main__":
    main()
