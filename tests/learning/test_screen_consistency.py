"""What the checkpoint screens say agrees with their own numbers: every estimate lies inside
its interval, and every threshold reason's comparison, direction and values match its row."""

from __future__ import annotations

import random
import re

import pytest

from artibot.round import checkpoints as cp
from artibot import learn
from artibot.collector import collect_many
from artibot.store.round import rounds
from artibot.store.home import Home
from tests.factories import mixed, record

# the success objective's words, or the cost objective's (System 1's failure rate is System 2's gain there)
REASON = re.compile(r"(?:System 2's gain|System 1 fails) (-?[\d.]+) ± ([\d.]+) (?:of these turns, which )?"
                    r"(is above|is below|equals) (?:its price|the break-even) (-?[\d.]+) .*"
                    r"→ (?:more System (\d): threshold ([\d.]+) → ([\d.]+)|threshold stays ([\d.]+)"
                    r"(?:: no threshold within reach is surely better)?)"
                    r"(?:; per 100 of its turns: (?:\$[\d.]+ (less|more)|the same bill to the cent), "
                    r"(?:[\d.]+ (fewer|more) redos|the same redos))?$")


def security_fails_above(n: int, seed: int, start: int = 0) -> list[dict]:
    """System 1 fails in security above complexity 0.2; elsewhere both systems do well."""
    rng = random.Random(seed)
    out = []
    for i in range(start, start + n):
        c = round(rng.random(), 3)
        domain = rng.choice(("security", "docs"))
        system = rng.choice(("system1", "system2"))
        p = 0.95 if system == "system2" or domain == "docs" or c < 0.2 else 0.2
        out.append(record(i, domain=domain, complexity=c, routed_to=system,
                          outcome="success" if rng.random() < p else "failed", confidence=0.8))
    return out


def pending_evidence(home: Home) -> list[cp.Evidence]:
    pending = rounds.load_pending(home)
    assert pending is not None
    ev = cp.all_evidence(pending.proposal(), pending.round_id, "en")
    return [ev[1], ev[2], ev[3]]


def check_reason(row: dict) -> None:
    m = REASON.search(row["reason"])
    assert m, row["reason"]
    gain, _sd, side, price, system, old, new, stays, bill, redos = m.groups()
    if redos is not None:  # the cost objective's step in dollars and redos: more System 1, more redos
        assert (redos == "more") == (system == "1"), row["reason"]
        # System 1 first saves where it fails below the break-even: the bill falls on a step that follows it
        assert bill is None or (bill == "less") == ((system == "1") == (side == "is below")), row["reason"]
    shown = {"is above": float(gain) > float(price), "is below": float(gain) < float(price),
             "equals": gain == price}
    assert shown[side], row["reason"]  # the comparison holds for the numbers as printed
    if stays is not None:
        assert f"{row['old']:.2f}" == stays and row["old"] == row["new"], row
        return
    assert (f"{row['old']:.2f}", f"{row['new']:.2f}") == (old, new), row
    assert (system == "2") == (row["new"] < row["old"]), row
    against = (system == "2" and side != "is above") or (system == "1" and side != "is below")
    assert ("yet a " in row["reason"]) == against, row["reason"]


@pytest.mark.parametrize("data", [
    *(("mixed", seed) for seed in range(4)),
    *(("security", seed) for seed in range(3)),
])
def test_every_estimate_in_its_interval_and_every_reason_true(home: Home, data: tuple[str, int]) -> None:
    kind, seed = data
    make = mixed if kind == "mixed" else security_fails_above
    checked = {"intervals": 0, "reasons": 0}
    for round_no in range(3):  # later rounds carry history: their estimates differ from the round's counts
        collect_many(make(160, seed * 10 + round_no, start=round_no * 160))
        assert learn(answers="defer").status.value == "deferred"
        groups, thresholds, _ = pending_evidence(home)
        for row in groups.rows:
            if row.get("interval") is not None:
                lo, hi = row["interval"]
                assert lo <= row["estimate"] <= hi, row
                checked["intervals"] += 1
        for row in thresholds.rows:
            if row.get("reason"):
                check_reason(row)
                checked["reasons"] += 1
        op = thresholds.summary.get("off_policy") or {}
        for side in ("current", "proposed"):
            if isinstance(op.get(side), dict) and op[side].get("interval"):
                lo, hi = op[side]["interval"]
                assert lo - 1e-9 <= op[side]["success"] <= hi + 1e-9, op
        if op.get("interval") and isinstance(op.get("difference"), dict):
            lo, hi = op["interval"]
            assert lo - 1e-9 <= op["difference"]["success"] <= hi + 1e-9, op
        utility = thresholds.summary.get("utility") or {}
        for side in ("current", "proposed", "difference"):
            if isinstance(utility.get(side), dict):
                lo, hi = utility[side]["interval"]
                assert lo - 1e-9 <= utility[side]["value"] <= hi + 1e-9, utility
        from artibot.round.review import answer_pending

        answer_pending(answers=["1=accept", "2=apply", "3=auto"])
    assert checked["intervals"] > 10 and checked["reasons"] >= 3
