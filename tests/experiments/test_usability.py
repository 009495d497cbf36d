"""A reader reruns the studies: clear refusals, one-line answers, progress."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scripts import run_experiments  # noqa: E402


def test_only_rejects_unknown_names_and_lists_the_valid_ones(capsys):
    with pytest.raises(SystemExit) as exc:
        run_experiments.main(["--quick", "--only", "w1", "w9"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "unknown study w9; the studies are: w1, w2, replay" in err


def test_missing_data_is_one_line(tmp_path):
    env = {**os.environ, "ARTIBOT_ROUTING_DATA": str(tmp_path / "none")}
    proc = subprocess.run([sys.executable, str(ROOT / "experiments" / "run_online.py"), "--seeds", "0",
                           "--datasets", "mt-bench", "--out", str(tmp_path / "out")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'none' / 'mt-bench.csv'} not found: put RouteLLM's routing outcome files "
        "(mmlu-dev.csv, gsm8k.csv, mt-bench.csv) in one folder and set ARTIBOT_ROUTING_DATA to it, "
        "or pass --data-dir"]


def test_progress_is_counted_on_stderr(capsys):
    from experiments.simulate import pool_map

    assert pool_map(abs, [-1, -2, -3, -4], 1) == [1, 2, 3, 4]
    err = capsys.readouterr().err
    assert "4/4 jobs done" in err
