"""Each outcome rule's precision on recorded real-client sessions (``tests/data/sessions.jsonl``).

The sessions were recorded from Claude Code 2.1.331 by :mod:`tests.e2e.record_sessions`
(the client's own hook payloads, in order, and its transcript; the model scripted), each
labelled with what the turn really achieved. Here every session is replayed through the
hooks in a fresh data home: the outcome must be the one artibot recorded live, and the
table — for each rule, how often it fired and how often the label agrees — is printed by
``python -m tests.integrations.test_rule_precision`` (docs/outcomes.md quotes it).
"""

from __future__ import annotations

import io
import json
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from artibot.hookpath.turns.call import main as run_hook
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home

DATA = Path(__file__).resolve().parents[1] / "data" / "sessions.jsonl"
EVENTS = {"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PostToolUse": "post-tool-use",
          "PostToolUseFailure": "post-tool-use-failure", "PermissionRequest": "permission-request", "Stop": "stop",
          "SessionEnd": "session-end"}
RULES = (  # (rule, its outcome, a phrase of the reason it gives)
    ("a failed tool call in the last batch", "failed", "the last tool call failed"),
    ("a tool call refused permission", "failed", "refused permission"),
    ("a call to a tool not offered", "failed", "a tool it was not offered"),
    ("a planning tool on a System 1 route", "escalated", "System 1 turn used"),
    ("more than 8 tool calls on a System 1 route", "escalated", "tool calls (>"),
    ("no Stop (cut off)", "interrupted", "before the turn's Stop"),
    ("none of the above", "success", "no failed tool call"),
)


def sessions() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def replay(session: dict, root: Path) -> dict:
    """The record the hooks make from ``session``'s payloads, in a fresh data home under ``root``."""
    import os

    home = root / session["name"] / "artibot"
    home.mkdir(parents=True)
    (home / "artibot.config.json").write_text('{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}')
    transcript = root / session["name"] / "transcript.jsonl"
    transcript.write_text("".join(line + "\n" for line in session["transcript"]))
    saved = {name: os.environ.get(name) for name in ("ARTIBOT_HOME", "ARTIBOT_RESUME_WINDOW_MIN")}
    os.environ.update(ARTIBOT_HOME=str(home), ARTIBOT_RESUME_WINDOW_MIN="0")
    stdin, stdout = sys.stdin, sys.stdout
    try:
        for payload in session["payloads"]:
            event = EVENTS.get(payload.get("hook_event_name"))
            if event is None:
                continue  # PreToolUse, UserPromptExpansion …: artibot installs no hook for them
            if payload.get("transcript_path"):
                payload = {**payload, "transcript_path": str(transcript)}
            sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode()))
            sys.stdout = io.StringIO()
            run_hook([event])
    finally:
        sys.stdin, sys.stdout = stdin, stdout
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    [record] = ExperienceLog(Home(home)).read()
    return record


def rule_of(record: dict) -> str:
    for rule, outcome, phrase in RULES:
        if record["outcome"] == outcome and phrase in record["outcome_reason"]:
            return rule
    raise AssertionError(f"no rule gives {record['outcome']!r} for {record['outcome_reason']!r}")


def table(root: Path) -> tuple[list[tuple[str, int, int]], list[str]]:
    """Per rule: (rule, sessions it decided, of which the label agrees); and the disagreements."""
    fired: dict[str, list[bool]] = defaultdict(list)
    wrong = []
    for session in sessions():
        record = replay(session, root)
        agrees = record["outcome"] == session["label"]
        fired[rule_of(record)].append(agrees)
        if not agrees:
            wrong.append(f"{session['name']}: {record['outcome']} ({record['outcome_reason']}), "
                         f"label {session['label']}")
    return [(rule, len(fired[rule]), sum(fired[rule])) for rule, _, _ in RULES], wrong


@pytest.mark.parametrize("session", sessions(), ids=lambda s: s["name"])
def test_the_replay_gives_what_the_real_client_session_recorded(session: dict, tmp_path: Path) -> None:
    record = replay(session, tmp_path)
    assert (record["outcome"], record["outcome_reason"]) == (session["outcome"], session["outcome_reason"])


def test_every_rule_is_measured_and_none_contradicts_its_labels(tmp_path: Path) -> None:
    rows, wrong = table(tmp_path)
    assert all(n for _, n, _ in rows), f"a rule no recorded session exercises: {rows}"
    assert all(agree / n >= 0.8 for _, n, agree in rows), (rows, wrong)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        rows, wrong = table(Path(tmp))
    print("| rule | sessions it decided | label agrees | precision |\n|---|---|---|---|")
    for rule, n, agree in rows:
        print(f"| {rule} | {n} | {agree} | {agree / n:.2f} |" if n else f"| {rule} | 0 | – | – |")
    total = sum(n for _, n, _ in rows)
    print(f"| all | {total} | {sum(a for _, _, a in rows)} | {sum(a for _, _, a in rows) / total:.2f} |")
    for line in wrong:
        print("disagrees:", line)
