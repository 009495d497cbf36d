"""The SWE-bench Verified replay on a tiny budget, and its accounting against the data's own figures."""

from __future__ import annotations

import pytest

from experiments import run_coding
from experiments.args import parse

DATA = run_coding.replay.DATA_DIR / "swebench-verified"
pytestmark = pytest.mark.skipif(not (DATA / "outcomes.csv").is_file(),
                                reason=f"SWE-bench Verified outcomes not found at {DATA}")


def test_the_baselines_match_the_datas_published_pair() -> None:
    # the data's README: GPT-5 mini first, failures re-run on GPT-5, solves 353 for $90 of GPT-5's $140.2
    tasks, a1, a2 = run_coding.load(str(DATA), "GPT-5 mini", "GPT-5 (2025")
    base = run_coding.baselines(tasks)
    assert base["cascade"].solved == 353 and round(base["cascade"].bill) == 90
    assert base["system2"].solved == 325 and base["system2"].bill == pytest.approx(140.2, abs=0.1)
    assert base["oracle"].solved == 353 and base["oracle"].redos == 0
    assert base["cascade"].redos == 500 - 299  # every task mini does not resolve is asked again


def test_the_router_runs_as_shipped_and_its_bill_holds_every_try(tmp_path) -> None:
    args = parse(run_coding.Args, ["--seeds", "1", "--round-every", "100", "--out", str(tmp_path)])
    out = run_coding.job((("GPT-5 mini", "GPT-5 (2025"), 1, args))
    t = out["tally"]
    assert t["tasks"] == 500 and out["rounds"] == 5
    tasks = run_coding.load(str(DATA), "GPT-5 mini", "GPT-5 (2025")[0]
    base = run_coding.baselines(tasks)
    # between the oracle (no wasted try) and the cheap-first-then-dear bill of every task
    assert base["oracle"].bill <= t["bill"] <= sum(x.c1 + x.c2 for x in tasks)
    assert t["solved"] >= base["system2"].solved - 25 and 0 < t["redos"] <= t["system1"]
    rows = run_coding.summarize([out], args, 0.1)
    assert "router" in run_coding.table(rows, 0.1)
