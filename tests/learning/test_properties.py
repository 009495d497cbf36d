"""Properties of a round, and agreement with a literal, record-by-record reading of the seed rule (docs/learning.md)."""

from __future__ import annotations

import copy
import random
from datetime import datetime, timedelta, timezone

import orjson
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from artibot.learning import PatternStats, RoundProposal, Thresholds, frame_from_records, propose_round

from tests.factories import BASE, settings

EPS = 1e-12
DOMAINS = ("api", "data", "web", "zeta")


@st.composite
def records(draw, max_size: int = 60) -> list[dict]:
    """Records from a drawn seed (drawing each field through hypothesis is too slow for the budget)."""
    n = draw(st.integers(0, max_size))
    rng = random.Random(draw(st.integers(0, 2**32)))
    spread = draw(st.sampled_from([3, 40, 10_000]))  # few seconds apart: many timestamp ties
    out = []
    for i in range(n):
        tz = timezone(timedelta(hours=rng.choice([0, 0, 9, -5])))
        text = (BASE + timedelta(seconds=rng.randrange(spread))).astimezone(tz).isoformat()
        if text.endswith("+00:00") and rng.random() < 0.5:
            text = text[:-6] + "Z"
        out.append({
            "id": f"r{i}", "timestamp": text, "session_id": None, "input": "x",
            "domain": rng.choice(DOMAINS),
            "complexity": rng.choice([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 1.0, rng.random()]),
            "routed_to": rng.choice(["system1", "system2"]),
            "outcome": rng.choice(["success", "success", "escalated", "failed"]),
            "latency_ms": 1, "confidence": rng.choice([0.3, 0.6, 0.8, 0.85, 0.95, 1.0]),
            "pattern": rng.choice([None, "a", "b", "c"]), "threshold": None, "propensity": None,
        })
    return out


@st.composite
def setups(draw):
    batch = draw(st.integers(2, 12))
    group = draw(st.integers(2, batch))
    rate = draw(st.sampled_from([0.05, 0.3, 1.0]))
    lo = draw(st.sampled_from([0.0, 0.1, 0.3]))
    hi = draw(st.sampled_from([0.6, 0.9, 1.0]))
    s = settings(batch=batch, group=group, rate=rate, lo=lo, hi=hi)
    value = st.floats(lo, hi, allow_nan=False)
    th = Thresholds(draw(value), draw(st.dictionaries(st.sampled_from(DOMAINS), value, max_size=2)))
    patterns = {}
    for key in draw(st.sets(st.sampled_from(["a", "b", "old"]))):
        n = draw(st.integers(0, 5))
        patterns[key] = PatternStats(key, draw(st.sampled_from(["candidate", "active", "demoted"])),
                                     draw(st.integers(0, 4)), draw(st.integers(0, 3)), n, n, 0, 0, 0,
                                     n * draw(st.sampled_from([0.5, 0.9])))
    return s, th, patterns, draw(st.booleans())


# ---------------------------------------------------------------------------
# The reference: the seed rule read literally, one record at a time.


def reference(recs, th: Thresholds, patterns, s, flush):
    B, G = s.lifelong.batch_size, s.lifelong.grpo_group_size
    ordered = sorted(recs, key=lambda r: datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")))
    k = len(ordered) // B * B
    if flush:
        k = len(ordered)
    done = ordered[:k]
    default, domains, steps, groups = th.default, dict(th.domains), [], []

    def move(old, a):
        delta = max(-0.1, min(0.1, s.router.adapt_rate * a))
        return max(s.router.min_threshold, min(s.router.max_threshold, old - delta))

    for b, start in enumerate(range(0, k, B)):
        batch = sorted(done[start:start + B], key=lambda r: (r["domain"], r["complexity"]))
        mine = []
        for dom in sorted({r["domain"] for r in batch}):
            run = [r for r in batch if r["domain"] == dom]
            chunks = [run[i:i + G] for i in range(0, len(run), G)]
            if len(chunks) > 1 and len(chunks[-1]) < 2:
                last = chunks.pop()
                chunks[-1] = chunks[-1] + last
            for chunk in chunks:
                s1 = [r["outcome"] == "success" for r in chunk if r["routed_to"] == "system1"]
                s2 = [r["outcome"] == "success" for r in chunk if r["routed_to"] == "system2"]
                adv = sum(s2) / len(s2) - sum(s1) / len(s1) if s1 and s2 else None
                mine.append((dom, len(chunk), adv))
        groups.append([(d, n) for d, n, _ in mine])
        two = [(d, n, a) for d, n, a in mine if a is not None]
        before = default
        if two:
            default = move(default, sum(n * a for _, n, a in two) / sum(n for _, n, _ in two))
            steps.append((b, "*", default))
        for dom in sorted({d for d, _, _ in two}):
            mine_two = [(n, a) for d, n, a in two if d == dom]
            a_dom = sum(n * a for n, a in mine_two) / sum(n for n, _ in mine_two)
            domains[dom] = move(domains.get(dom, before), a_dom)
            steps.append((b, dom, domains[dom]))

    stats = {key: dict(promo=p.promotion_streak, demo=p.demotion_streak, n=p.n, conf=p.confidence_sum)
             for key, p in patterns.items()}
    for r in done:
        if r["pattern"] is None:
            continue
        st_ = stats.setdefault(r["pattern"], dict(promo=0, demo=0, n=0, conf=0.0))
        st_["n"] += 1
        st_["conf"] += r["confidence"]
        ok = r["outcome"] == "success"
        if r["routed_to"] == "system2":
            st_["promo"] = st_["promo"] + 1 if ok else 0
        else:
            st_["demo"] = 0 if ok else st_["demo"] + 1
    return [r["id"] for r in done], groups, steps, Thresholds(default, domains), stats


@hsettings(max_examples=100, deadline=None)
@given(records(), setups())
def test_agrees_with_the_literal_reference(recs, setup) -> None:
    s, th, patterns, flush = setup
    p = propose_round(frame_from_records(recs), th, patterns, s, flush=flush)
    ids, groups, steps, new, stats = reference(recs, th, patterns, s, flush)
    assert list(p.processed_ids) == ids
    assert [[(g.domain, g.size) for g in b] for b in p.batches] == groups
    assert [(x.batch, x.domain) for x in p.steps] == [(b, d) for b, d, _ in steps]
    assert [x.new for x in p.steps] == pytest.approx([v for _, _, v in steps], abs=EPS)
    assert p.new.default == pytest.approx(new.default, abs=EPS)
    assert p.new.domains == pytest.approx(new.domains, abs=EPS)
    for key, want in stats.items():
        got = p.patterns_after[key]
        assert (got.promotion_streak, got.demotion_streak, got.n) == (want["promo"], want["demo"], want["n"])
        assert got.confidence_sum == pytest.approx(want["conf"], abs=EPS)
    assert set(p.patterns_after) == set(stats)


@hsettings(max_examples=100, deadline=None)
@given(records(), setups())
def test_thresholds_stay_in_bounds_and_steps_stay_small(recs, setup) -> None:
    s, th, patterns, flush = setup
    lo, hi = s.router.min_threshold, s.router.max_threshold
    p = propose_round(frame_from_records(recs), th, patterns, s, flush=flush)
    assert lo <= p.new.default <= hi and all(lo <= v <= hi for v in p.new.domains.values())
    for step in p.steps:
        assert lo <= step.new <= hi and abs(step.delta) <= 0.1
        assert abs(step.new - step.old) <= 0.1 + EPS
    k = len(p.batches)
    for name, (old, new) in p.net_changes().items():
        assert abs(new - old) <= 0.1 * k + EPS
    # per batch, each threshold moves at most 0.1 from where it stood before the batch
    for b in range(k):
        mine = [x for x in p.steps if x.batch == b]
        default_before = next((x.old for x in mine if x.domain == "*"), None)
        for x in mine:
            assert abs(x.new - x.old) <= 0.1 + EPS
            if x.domain != "*" and x.domain not in th.domains and b == min(y.batch for y in p.steps
                                                                          if y.domain == x.domain):
                assert x.old == default_before  # a new domain starts from the default before the step


@hsettings(max_examples=60, deadline=None)
@given(records(), setups())
def test_deterministic_and_inputs_untouched(recs, setup) -> None:
    s, th, patterns, flush = setup
    saved = (copy.deepcopy(recs), copy.deepcopy(th), dict(patterns))
    frame = frame_from_records(recs)
    first = propose_round(frame, th, patterns, s, flush=flush)
    second = propose_round(frame_from_records(list(recs)), th, patterns, s, flush=flush)
    assert first == second and first.to_json() == second.to_json()
    assert (recs, th, patterns) == saved
    assert frame.ids == frame_from_records(recs).ids


@hsettings(max_examples=60, deadline=None)
@given(records(), setups())
def test_json_round_trip(recs, setup) -> None:
    s, th, patterns, flush = setup
    p = propose_round(frame_from_records(recs), th, patterns, s, flush=flush)
    data = orjson.loads(orjson.dumps(p.to_json()))
    back = RoundProposal.from_json(data)
    assert back == p and back.to_json() == p.to_json()
    for d in p.decisions:
        assert type(d).from_json(orjson.loads(orjson.dumps(d.to_json()))) == d
    for stats in p.patterns_after.values():
        assert PatternStats.from_json(orjson.loads(orjson.dumps(stats.to_json()))) == stats
    assert Thresholds.from_json(orjson.loads(orjson.dumps(p.new.to_json()))) == p.new


@hsettings(max_examples=60, deadline=None)
@given(records(), setups())
def test_processed_ids_are_the_first_full_batches_in_time_order(recs, setup) -> None:
    s, th, patterns, flush = setup
    B = s.lifelong.batch_size
    p = propose_round(frame_from_records(recs), th, patterns, s, flush=flush)
    by_time = [r["id"] for _, _, r in sorted(
        (datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")), i, r) for i, r in enumerate(recs))]
    k = len(recs) if flush else len(recs) // B * B
    assert list(p.processed_ids) == by_time[:k]
    assert p.remainder == len(recs) - k
    assert len(p.batches) == -(-k // B)
