"""What a model does with artibot's ``/learn`` equivalent in the e2e tests (Gemini CLI, Codex CLI).

It finds the JSON of ``artibot review --json --prepare`` in what the client sent (the
expanded custom command, or the output of the command it ran), and answers every open
question with the answer the user typed after the command (``2=revert``), else with the
question's default: one ``artibot review --answer …`` command, as the instructions say.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Callable

ANSWER = re.compile(r"(?<![\w.])([123])=([a-z]+)\b")


def prepared(texts: list[str]) -> dict:
    """The last ``review --json --prepare`` document among ``texts``."""
    doc = None
    for chunk in texts:
        at = chunk.rfind("{", 0, chunk.find('"pending"'))
        if '"pending"' in chunk and at >= 0:
            doc = json.JSONDecoder().raw_decode(chunk[at:])[0]
    assert doc is not None and doc.get("pending"), f"no pending round in what the client sent: {texts!r:.2000}"
    return doc


def answer_command(doc: dict, typed: str, artibot: str = "artibot") -> str:
    asked = {int(n): choice for n, choice in ANSWER.findall(typed)}
    answers = " ".join(f"--answer {q['number']}={asked.get(int(q['number']), q['default'])}"
                       for q in doc["questions"])
    return f"{artibot} review {answers}"


def wait_for_round(data: Path, hook_log: Callable[[], str], timeout: float = 60) -> Path:
    """``pending-review.json`` once the session end's learner has prepared the round."""
    pending = data / "pending-review.json"
    end = time.monotonic() + timeout
    while not (pending.exists() or "learner finished" in hook_log()) and time.monotonic() < end:
        time.sleep(0.2)
    assert pending.exists(), hook_log()
    return pending


def round_pending(world: Any, installed: Path) -> Path:
    """In ``world`` (a client's e2e world), a config with batches of four, the install (which
    puts the ``/learn`` equivalent at ``installed``), a session of four turns, and the round
    the session end's learner prepared: its ``pending-review.json``."""
    world.data.mkdir()
    (world.data / "artibot.config.json").write_text(
        json.dumps({"learning": {"lifelong": {"batchSize": 4, "grpoGroupSize": 2}}}))
    world.install()
    assert installed.is_file()
    world.session(*(f"#sc:plain fix typo number {i} in the docs" for i in range(4)))
    assert len(world.wait_for_records(4)) == 4, world.hook_log()
    return wait_for_round(world.data, world.hook_log)
