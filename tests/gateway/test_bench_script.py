"""``scripts/bench_gateway.py`` runs end to end on a tiny budget and prints its table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_gateway.py"


@pytest.mark.slow  # four processes start (about 2 s of CPU): multi-process
def test_bench_gateway_runs_on_a_tiny_budget() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "--requests", "6", "--seed", "1", "--concurrent", "4",
                           "--rounds", "1", "--body-kb", "4", "--gap-ms", "0.5"], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    table = proc.stdout.decode()
    for row in ("direct", "relay", "unrouted", "routed", "added latency p50, routed (non-streamed)",
                "added time to first byte p50, routed (streamed)", "gateway peak RSS (VmHWM)",
                "CPU per request, relay / gateway (unrouted and routed)"):
        assert row in table
    # the streams arrive whole and in order (a corrupted one makes the script exit non-zero),
    # and every response of the routed turn is recorded on it
    rows = {line.strip().split("  ")[0]: line for line in table.splitlines()}
    assert "4/4" in rows["4 concurrent routed streams x 1: intact, in order"]
    assert "4/4" in rows["... their usage recorded on the turn"]
