"""The hooks that hand turns to the log, and ``collect``, ``learn`` and ``rollback``, traced
and crashed (``tests/store/powercut.py``): shared by ``test_hook_power_cuts.py`` (a seeded
sample of states) and ``scripts/crash_figures.py`` (every state, or a larger sample).

Each scenario builds a session in a home, traces one hook that writes (session-end; a
Stop whose queue is full; SessionStart resuming the session; SessionStart of another
session settling this one, idle for two days), and for every disk state a model allows
after a crash during that hook: rebuilds the state, starts a new boot (after a power
cut), runs what the product runs next (the session's own hooks, which flush whatever its
spool still holds; for a command, the next command), and counts every record id in the
log and the live archives.

A record is *acknowledged* once it is in the log as a synced write left it (those of
the base home, and each turn the traced hook appended and synced before the cut; for a
command, every record the home held before it too). Under ``kill``, ``posix`` and
``ext4`` every turn of the session must end up stored, since the base home
was on disk whole; under ``random`` a turn only an unsynced spool rewrite held may be
lost (counted as ``spool_lost``), never an acknowledged one.
"""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import orjson

from artibot.store import archive
from artibot.hookpath.store import hookio
from artibot.store.home import Home
from artibot.store.log.log_layout import record_on
from tests.store import powercut
from tests.store.forked import run_child
from tests.store.test_crash_points import jsonl
from tests.store.test_hook_crash_points import play

SID = "cut-session"
CLI = {"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PostToolUse": "post-tool-use",
       "Stop": "stop", "SessionEnd": "session-end"}
LOG = "daily-experiences.json"
TWO_DAYS_MS = 2 * 24 * 3600 * 1000


def hook(event: str, sid: str = SID, **fields: object) -> int:
    return run_child(["hook", CLI[event]], stdin=_payload(event, sid, **fields))


def _ids_in(data: bytes) -> set[str]:
    out = set()
    for line in data.split(b"\n"):
        record = record_on(line)
        if record is not None:
            out.add(record["id"])
    return out


def stored(home: Home) -> Counter[str]:
    """Every record id in the log (as a reader sees it) and in the live archives, counted."""
    from artibot.store.log.experiences import ExperienceLog

    found: Counter[str] = Counter(r["id"] for r in ExperienceLog(home).read())
    found.update(archive.ids(home))
    return found


def session_turns(root: Path) -> set[str]:
    doc = hookio.Spool(str(root), SID).read() or {}
    ids = {r["id"] for r in doc.get("queue") or []}
    return ids | {t["id"] for t in (doc.get("turn"), doc.get("done")) if t}


def _config(root: Path) -> None:
    os.environ["ARTIBOT_HOME"] = str(root)
    cfg = root.parent / "cfg" / "artibot.config.json"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    # batchSize: no full batch, so no hook starts the detached learner, which would write
    # into the home while a crash state is being rebuilt there (learn --flush still learns)
    cfg.write_text('{"cognitive": {"router": {"exploration": 0, "domainExploration": 0}},'
                   ' "learning": {"lifelong": {"batchSize": 100000}}}')
    os.environ["ARTIBOT_CONFIG"] = str(cfg)


def build(root: Path, turns: int, *, open_last: bool, idle: bool = False, stored: int = 0) -> set[str]:
    """A session in the home ``root`` (``ARTIBOT_HOME`` set): ``turns`` stopped turns, maybe one
    still open; with ``idle``, last touched two days ago; after ``stored`` records collected
    (600 make the log and its id index span several pages, so that a page can be torn
    between an index's header and its fingerprints). Returns every turn and record id the
    home holds."""
    _config(root)
    if stored:
        collected(root, [f"kept-{i}" for i in range(stored)])
    play(hook, turns, open_last=open_last)
    if idle:
        spool = hookio.Spool(str(root), SID)
        doc = spool.read()
        assert doc is not None
        doc["updated_ms"] -= TWO_DAYS_MS
        Path(spool.path).write_text(hookio.dumps(doc))
        old = time.time() - TWO_DAYS_MS / 1000
        os.utime(spool.path, (old, old))
    ids = session_turns(root) | set(_ids_in(Home(root).experiences.read_bytes()) if Home(root).experiences.exists()
                                    else set())
    assert len(ids) >= turns
    return ids


def _payload(event: str, sid: str = SID, **fields: object) -> bytes:
    return orjson.dumps({"session_id": sid, "hook_event_name": event, "cwd": "/tmp", **fields})


LEARN = ["learn", "--yes", "--flush", "--quiet"]


def collected(root: Path, *batches: list[str], learn_after: bool = False) -> set[str]:
    _config(root)
    for batch in batches:
        assert run_child(["collect", "--stdin"], stdin=jsonl(batch)) == 0
        if learn_after:
            assert run_child(LEARN) == 0
    return {i for batch in batches for i in batch}


def _first_round(root: Path) -> list[str]:
    return ["rollback", sorted(p.name for p in (root / "snapshots").iterdir() if p.is_dir())[0]]


@dataclass(frozen=True)
class Scenario:
    """A home to build (returns the ids it holds), the command to trace on it, and what the
    product runs next."""

    name: str
    build: Callable[[Path], set[str]]
    argv: Callable[[Path], list[str]]
    stdin: bytes
    then: tuple[tuple[list[str], bytes], ...]
    batch: frozenset[str] = frozenset()  # a batch the traced command collects: stored whole or not at all
    acknowledged: bool = False  # every id the home held before was acknowledged (collected, not spooled)


def _hook(event: str, sid: str = SID, **fields: object) -> tuple[list[str], bytes]:
    return ["hook", CLI[event]], _payload(event, sid, **fields)


END = _hook("SessionEnd", reason="other")
NEW = [f"new-{i}" for i in range(5)]
SCENARIOS = {
    "session-end": Scenario("session-end", lambda r: build(r, 3, open_last=True), lambda r: END[0], END[1], (END,)),
    "stop-flush": Scenario("stop-flush", lambda r: build(r, 8, open_last=True, stored=600), lambda r: ["hook", "stop"],
                           _payload("Stop", prompt_id="open"), (END,)),
    "start-resume": Scenario("start-resume", lambda r: build(r, 3, open_last=False, stored=600), lambda r: ["hook", "session-start"],
                             _payload("SessionStart", source="resume"), (END,)),
    "start-settle": Scenario("start-settle", lambda r: build(r, 3, open_last=True, idle=True),
                             lambda r: ["hook", "session-start"],
                             _payload("SessionStart", "next-session", source="startup"), (END,)),
}
"""The hooks that write."""

COMMANDS = {
    "collect": Scenario("collect", lambda r: collected(r, [f"old-{i}" for i in range(3)]),
                        lambda r: ["collect", "--stdin"], jsonl(NEW),
                        ((["collect", "--stdin"], jsonl(["next-0"])),), frozenset(NEW), True),
    "learn": Scenario("learn", lambda r: collected(r, [f"r-{i}" for i in range(30)]), lambda r: LEARN, b"",
                      ((LEARN, b""),), acknowledged=True),
    "rollback": Scenario("rollback", lambda r: collected(r, [f"a-{i}" for i in range(20)],
                                                          [f"b-{i}" for i in range(12)], learn_after=True),
                         _first_round, b"", ((LEARN, b""),), acknowledged=True),
}
"""The commands whose kills ``tests/store/test_crash_points.py`` covers, under the same models."""


@dataclass
class Tally:
    states: int = 0
    acknowledged: int = 0  # acknowledged records checked, summed over states
    lost: int = 0  # acknowledged records missing after recovery
    duplicated: int = 0  # ids stored more than once
    spool_lost: int = 0  # turns only an unsynced spool held, missing after recovery
    failures: list[str] | None = None

    def __post_init__(self) -> None:
        self.failures = []


def prepare(scratch: Path, scenario: Scenario, boot: Path, *, boot_known: bool = True) -> tuple[powercut.Trace, set[str]]:
    """Build the scenario's home and trace its command; the trace and the ids the home held.
    Without ``boot_known`` the system does not say which boot this is (``boot`` is removed):
    the id index is then synced as it is written."""
    base = scratch / "base" / "artibot"
    shutil.rmtree(base.parent, ignore_errors=True)
    boot.write_text("boot-0\n")
    if not boot_known:
        boot.unlink()
    ids = scenario.build(base)
    tr = powercut.trace(base, scenario.argv(base), stdin=scenario.stdin, scratch=scratch)
    assert tr.exit_code == 0 and tr.ops
    return tr, ids


def acknowledged(tr: powercut.Trace, crash: int) -> set[str]:
    """The ids in the log as the base home had it or as a sync of the traced hook left it."""
    out = _ids_in(tr.base.files[LOG][2]) if LOG in tr.base.files else set()
    for op in tr.ops[:crash]:
        if op.synced is not None and op.synced[0] == "file" and LOG in op.before.files \
                and op.before.files[LOG][0] == op.synced[1]:
            out |= _ids_in(op.before.files[LOG][2])
    return out


def check_states(tr: powercut.Trace, ids: set[str], scenario: Scenario, model: str, boot: Path, *,
                 seed: int = 0, sample: int | None = None) -> Tally:
    """Rebuild each state ``model`` allows, recover, count; failures are described in
    ``tally.failures``."""
    tally = Tally()
    every = powercut.states(tr, model, seed=seed, sample=sample)
    crash_of = {id(s): int(s.label.split("@")[1].split("/")[0]) for s in every}
    for n, state in enumerate(every):
        powercut.materialize(state, tr.root)
        if model != "kill" and boot.exists():
            boot.write_text(f"boot-{n + 1}\n")  # the machine came back: a new boot
        for argv, stdin in scenario.then:
            code = run_child(argv, stdin=stdin)
            if code != 0:
                tally.failures.append(f"{state.label}: {' '.join(argv)} exited {code} after the crash")
        found = stored(Home(tr.root))
        must = acknowledged(tr, crash_of[id(state)]) | (ids if scenario.acknowledged else set())
        twice = sorted(i for i, c in found.items() if c > 1)
        lost = sorted(must - set(found))
        spool_lost = sorted(ids - must - set(found))
        tally.states += 1
        tally.acknowledged += len(must)
        tally.duplicated += len(twice)
        tally.lost += len(lost)
        tally.spool_lost += len(spool_lost)
        if twice:
            tally.failures.append(f"{state.label}: stored twice {twice[:3]}")
        if lost:
            tally.failures.append(f"{state.label}: acknowledged records lost {lost[:3]}")
        if spool_lost and model != "random":
            tally.failures.append(f"{state.label}: turns lost {spool_lost[:3]}")
        inside = scenario.batch & set(found)
        if inside not in (set(), scenario.batch):
            tally.failures.append(f"{state.label}: batch cut in half ({len(inside)} of {len(scenario.batch)})")
    return tally
