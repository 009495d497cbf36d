"""The Codex CLI cost study runs end to end on a tiny budget: the real gateway's Responses path
against the cache-faithful fake Responses API."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import codex_gateway_cache as study  # noqa: E402


def test_codex_gateway_cache_tiny(tmp_path):
    doc = study.main(study.Args(seeds=(1,), days=1, sessions=2, out=str(tmp_path)))
    [run] = doc["seeds"]
    none, switch, safe = (run[a] for a in study.ARMS)
    assert none["requests"] == switch["requests"] == safe["requests"]  # the same sessions every way
    assert none["low_share"] == 0 and safe["low_share"] == switch["low_share"] > 0
    assert abs(safe["read_share"] - none["read_share"]) < 0.02  # the cache is read as without the gateway
    assert switch["read_share"] < none["read_share"] - 0.05  # a request-level switch loses it
    assert safe["cost"] < none["cost"] and safe["cost"] < switch["cost"]
    # the bill the fake API sent and what the gateway recorded for the same requests agree
    assert run["gateway_recorded_cost"] == pytest.approx(safe["cost"], rel=1e-6)
    assert "| configuration_update gateway |" in (tmp_path / "table.md").read_text()
