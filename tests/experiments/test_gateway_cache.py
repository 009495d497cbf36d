"""The cost study runs end to end on a tiny budget: the real gateway and learner against the cache-faithful fake."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import gateway_cache, report  # noqa: E402


def test_gateway_cache_tiny(tmp_path):
    args = gateway_cache.Args(seeds=(1,), days=1, sessions=2, plots=report.plots_available(), out=str(tmp_path))
    result = gateway_cache.main(args)
    [run] = result["runs"]
    arms = run["arms"]
    none, previous, safe = arms["no gateway"], arms["previous gateway"], arms["cache-safe gateway"]
    assert len({a["turns"] for a in arms.values()}) == 1  # the same sessions every way
    assert none["s2_share"] == 1.0 and none["low"] == 0 and safe["low"] > 0
    assert abs(safe["read_share"] - none["read_share"]) < 0.02  # the cache is read as without the gateway
    assert previous["written"] > 1.2 * none["written"]  # rewriting history writes the conversation again
    assert safe["cost"] < none["cost"]
    # the bill the fake API sent and what the gateway recorded for the same requests agree
    assert run["gateway_recorded_cost"] == pytest.approx(safe["cost"], rel=1e-6)
    assert "| cache-safe gateway |" in (tmp_path / "table.md").read_text()
    if args.plots:
        assert (tmp_path / "gateway_cache.png").stat().st_size > 0
