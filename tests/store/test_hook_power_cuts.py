"""A power cut at any instant of each hook that writes (session-end, a Stop that flushes,
SessionStart resuming a session, SessionStart settling an idle one), rebuilt under the
strict-POSIX, ext4-like and random persistence models of ``tests/store/powercut.py``:
after a new boot and the session's next hooks, every acknowledged record and every
flushed turn is stored exactly once (see ``tests/store/hook_power_cuts.py``).

The test checks a seeded sample of the states of each model (the whole sweep, a few
thousand states, is ``scripts/crash_figures.py``); the first states of each trace
(the cut before any sync) and the last (after the hook's last write) are always in.
"""

from __future__ import annotations

import orjson
import pytest

from artibot.store.log import id_index
from tests.store import hook_power_cuts as hpc
from tests.store import powercut
from tests.store.test_crash_points import env  # noqa: F401  (the scratch folder fixture)

pytestmark = pytest.mark.slow

SAMPLE = {"posix": 4, "ext4": 6, "random": 4}


@pytest.fixture
def boot(env, monkeypatch):
    path = env / "boot_id"
    path.write_text("boot-0\n")
    monkeypatch.setattr(id_index, "BOOT_ID", path)
    return path


@pytest.mark.parametrize("name", sorted(hpc.SCENARIOS))
def test_every_turn_is_stored_once_after_a_power_cut_in_a_hook(env, boot, name):
    scenario = hpc.SCENARIOS[name]
    tr, ids = hpc.prepare(env, scenario, boot)
    assert any(op.synced for op in tr.ops), f"{name} syncs nothing: it hands no turn to the log"
    for model in powercut.MODELS:
        tally = hpc.check_states(tr, ids, scenario, model, boot, seed=7, sample=SAMPLE[model])
        assert tally.failures == [], f"{name} under {model}: {tally.failures[:5]}"
        assert tally.states == SAMPLE[model] and tally.acknowledged > 0


def test_a_snapshot_is_on_disk_before_its_round_is_marked_applied(env, boot):
    """``learn`` traced: in every state a power cut can leave (strict POSIX and ext4), a round
    whose manifest says ``applied`` has its whole snapshot: a copy of each state file that
    existed, as it was before the round. No command runs: the states are only computed."""
    def build(root):  # a round already applied: the next one has state files to copy
        return hpc.collected(root, [f"a-{i}" for i in range(20)], learn_after=True) | \
            hpc.collected(root, [f"b-{i}" for i in range(20)])

    learn = hpc.Scenario("learn-again", build, lambda root: hpc.LEARN, b"", ())
    tr, _ = hpc.prepare(env, learn, boot)
    checked = applied = copies = 0
    for model in ("posix", "ext4"):
        for state in powercut.states(tr, model, seed=3):
            for rel, (_, data) in state.files.items():
                parts = rel.split("/")
                if len(parts) != 3 or parts[0] != "snapshots" or parts[2] != "manifest.json" or not data:
                    continue
                manifest = orjson.loads(data)
                checked += 1
                if manifest["status"] != "applied":
                    continue
                applied += 1
                for name, existed in manifest["files"].items():
                    copy = state.files.get(f"snapshots/{parts[1]}/{name.replace('/', '__')}")
                    if existed:
                        copies += 1
                        assert copy is not None and copy[1] == tr.base.files[name][2], \
                            f"{state.label}: round {parts[1]} applied, its copy of {name} is not on disk"
    assert applied > 0 and checked > applied and copies > 0  # before and after the round was marked
