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

import pytest

from artibot.store import id_index
from tests.store import hook_power_cuts as hpc
from tests.store import powercut
from tests.store.test_crash_points import env  # noqa: F401  (the scratch folder fixture)

pytestmark = pytest.mark.slow

SAMPLE = {"posix": 6, "ext4": 8, "random": 6}


@pytest.fixture
def boot(env, monkeypatch):  # noqa: F811
    path = env / "boot_id"
    path.write_text("boot-0\n")
    monkeypatch.setattr(id_index, "BOOT_ID", path)
    return path


@pytest.mark.parametrize("name", sorted(hpc.SCENARIOS))
def test_every_turn_is_stored_once_after_a_power_cut_in_a_hook(env, boot, name):  # noqa: F811
    scenario = hpc.SCENARIOS[name]
    tr, ids = hpc.prepare(env, scenario, boot)
    assert any(op.synced for op in tr.ops), f"{name} syncs nothing: it hands no turn to the log"
    for model in powercut.MODELS:
        tally = hpc.check_states(tr, ids, scenario, model, boot, seed=7, sample=SAMPLE[model])
        assert tally.failures == [], f"{name} under {model}: {tally.failures[:5]}"
        assert tally.states == SAMPLE[model] and tally.acknowledged > 0
