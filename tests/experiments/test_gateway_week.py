"""The gateway week runs end to end on a tiny budget, through the real gateway and learner."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from experiments import gateway_week, report  # noqa: E402


def test_gateway_week_tiny(tmp_path):
    args = gateway_week.Args(seeds=(1,), days=2, sessions=3, turns=3.0, plots=report.plots_available(),
                             out=str(tmp_path))
    result = gateway_week.main(args)
    run = result["runs"][0]
    learned, s2 = run["days"]["learned routes"], run["days"]["all System 2"]
    assert [d["turns"] for d in learned] == [d["turns"] for d in s2]  # the same turns in both arms
    assert all(d["s2_share"] == 1.0 and d["low_effort"] == 0 for d in s2)
    for day in learned:  # every System 1 turn ran at low effort: the gateway's rewrite, recorded on the turn
        assert day["low_effort"] == round((1 - day["s2_share"]) * day["turns"])
    # common random numbers: low effort costs less, never succeeds where full effort fails
    assert sum(d["cost"] for d in learned) <= sum(d["cost"] for d in s2)
    assert all(a["success"] <= b["success"] for a, b in zip(learned, s2))
    assert [n["status"] for n in run["nights"]] and len(run["nights"]) == 2
    assert "| learned routes |" in (tmp_path / "table.md").read_text()
    assert (tmp_path / "results.json").is_file()
    if args.plots:
        assert (tmp_path / "gateway_week.png").stat().st_size > 0
