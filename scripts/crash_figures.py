"""Crash and power-cut figures for the hooks that hand turns to the experience log.

For each hook that writes (``session-end``; ``stop-flush``, a Stop whose queue is full;
``start-resume``, SessionStart resuming the session; ``start-settle``, SessionStart of
another session settling this one, idle for two days), the hook is traced once (every
write, rename, removal, truncation and sync, with the data home before each), then every
disk state each model allows after a crash at any instant is rebuilt, the session's next
hooks run (in a new boot after a power cut), and the record ids in the log and the live
archives are counted. The same for ``collect --stdin`` (its batch must also be stored
whole or not at all), ``learn`` and ``rollback``, each followed by the next command.
Models (``tests/store/powercut.py``):

* ``kill``   the process dies (``kill -9``) after any mutation: the disk is what it wrote
* ``posix``  strict POSIX power cut: only what was synced survives
* ``ext4``   ext4 ``data=ordered`` power cut: metadata in order, unsynced data torn by page
* ``random`` every unsynced change lands or not on its own (seeded)

Columns: ``states`` rebuilt; ``acknowledged`` records checked over all states (those of
the log before the hook plus the turns the hook's synced appends held, per state);
``lost`` and ``duplicated`` among them after recovery (both must be 0); ``spool-lost``:
turns only an unsynced spool rewrite held (0 required but under ``random``). With
``--no-boot-id`` the system does not say which boot it is and the id index is synced as
written instead of rebuilt after a restart. Exit status 1 if any state fails.

    python scripts/crash_figures.py --seed 0                # every state (minutes)
    python scripts/crash_figures.py --seed 0 --sample 20    # 20 states per model and hook
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artibot.store.log import id_index  # noqa: E402
from tests.store import hook_power_cuts as hpc  # noqa: E402
from tests.store import powercut  # noqa: E402

MODELS = ("kill", *powercut.MODELS)
SCENARIOS = {**hpc.SCENARIOS, **hpc.COMMANDS}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0, help="seed of the random model and of --sample")
    ap.add_argument("--sample", type=int, default=None, help="states per model and hook (default: every state)")
    ap.add_argument("--hooks", default=",".join(SCENARIOS), help="comma-separated: " + ", ".join(SCENARIOS))
    ap.add_argument("--models", default=",".join(MODELS), help="comma-separated: " + ", ".join(MODELS))
    ap.add_argument("--no-boot-id", action="store_true", help="as on a system without a boot id")
    args = ap.parse_args(argv)
    shm = Path("/dev/shm")  # the states are about the order of operations: real syncs only cost time
    scratch = Path(tempfile.mkdtemp(dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    os.environ["HOME"] = str(scratch)
    boot = scratch / "boot_id"
    id_index.BOOT_ID = boot
    print(f"seed {args.seed}, {'every state' if args.sample is None else f'{args.sample} states'} per model and "
          f"hook{', no boot id' if args.no_boot_id else ''}\n")
    print("| model | hook | mutations traced | states | acknowledged | lost | duplicated | spool-lost | wall |")
    print("|---|---|---|---|---|---|---|---|---|")
    failures: list[str] = []
    try:
        for name in args.hooks.split(","):
            scenario = SCENARIOS[name]
            tr, ids = hpc.prepare(scratch, scenario, boot, boot_known=not args.no_boot_id)
            for model in args.models.split(","):
                start = time.perf_counter()
                tally = hpc.check_states(tr, ids, scenario, model, boot, seed=args.seed, sample=args.sample)
                print(f"| {model} | {name} | {len(tr.ops)} | {tally.states} | {tally.acknowledged} | {tally.lost} | "
                      f"{tally.duplicated} | {tally.spool_lost} | {time.perf_counter() - start:.0f} s |", flush=True)
                failures += [f"{model} {name}: {f}" for f in tally.failures or []]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for line in failures[:20]:
        print(line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
