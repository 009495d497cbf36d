"""Measured cost: the arithmetic (hand-computed), the report command, and the learner's price."""

from __future__ import annotations

import math

import orjson
import pytest
from hypothesis import given, settings, strategies as st

from artibot.collector import collect_many
from artibot.config import settings_from_mapping
from artibot.round.cycle import learn
from artibot.errors import ConfigError
from artibot.gateway import profiles as gateway_profiles
from artibot.gateway import price_table
from artibot.learning.route_costs import measured_price, summarize
from artibot.store.home import Home


def _turn(route: str, cost: float | None, ok: bool = True, day: str = "2026-11-20", **extra) -> dict:
    record = {"input": "fix the typo", "domain": "docs", "complexity": 0.1 if route == "system1" else 0.8,
              "routed_to": route, "outcome": "success" if ok else "failed", "latency_ms": 10, "confidence": 0.9,
              "timestamp": f"{day}T10:00:00+00:00", **extra}
    if cost is not None:
        record["usage"] = {"requests": 1, "input_tokens": 10, "output_tokens": 5, "cost_usd": cost, "unpriced": 0}
    return record


def test_the_saving_and_its_interval_by_hand() -> None:
    rows = [("system1", "d", True, c) for c in (0.01, 0.03)] + [("system2", "d", True, c) for c in (0.05, 0.07, 0.09)]
    report = summarize(rows)
    # means 0.02 and 0.07; variances 0.0002 and 0.0004; saving 2 * 0.05 = 0.1
    # se = 2 * sqrt(0.0004/3 + 0.0002/2) = 2 * sqrt(0.000233...) = 0.030551
    saved = report.saved
    assert saved.estimate == pytest.approx(0.1)
    assert (saved.high - saved.estimate) == pytest.approx(1.959964 * 2 * math.sqrt(0.0004 / 3 + 0.0002 / 2), rel=1e-5)
    assert report.all_system2_total == pytest.approx(0.25 + 0.1)


def test_the_saving_as_a_share_of_the_all_system2_bill_by_hand() -> None:
    rows = [("system1", "d", True, c) for c in (0.01, 0.03)] + [("system2", "d", True, c) for c in (0.05, 0.07, 0.09)]
    share = summarize(rows).saved_share
    # saved 0.1 of an all-System-2 bill of 0.25 + 0.1 = 0.35: 28.57%; the interval's ends over the same 0.35
    half = 1.959964 * 2 * math.sqrt(0.0004 / 3 + 0.0002 / 2)
    assert share.estimate == pytest.approx(0.1 / 0.35)
    assert (share.low, share.high) == pytest.approx(((0.1 - half) / 0.35, (0.1 + half) / 0.35), rel=1e-5)
    assert summarize([("system2", "d", True, 0.05)]).saved_share is None


def test_redos_per_100_turns_against_system2_alone_by_hand() -> None:
    # System 1: 80 judged turns, 8 failed and 4 escalated (15%); System 2: 20 judged turns, 2 failed (10%);
    # an interrupted turn of each route counts in neither; the unmeasured ones count (redos need no cost)
    rows = ([("system1", "d", "failed", 0.01)] * 8 + [("system1", "d", "escalated", None)] * 4
            + [("system1", "d", "success", 0.01)] * 68 + [("system1", "d", "interrupted", 0.01)]
            + [("system2", "d", "failed", 0.05)] * 2 + [("system2", "d", "success", None)] * 18
            + [("system2", "d", "interrupted", 0.05)])
    report = summarize(rows)
    got = report.redos
    # routed: 14 redos in 100 turns; System 2 alone: 10 in 100; extra 0.8 * (15 - 10) = 4 per 100
    assert (got.routed, got.system2_alone, got.turns, got.failures) == (14.0, 10.0, (80, 20), (12, 2))
    assert got.extra.estimate == pytest.approx(4.0)
    # Wilson: 12/80 -> (0.087940, 0.244132), 2/20 -> (0.027866, 0.301034); Newcombe:
    # 0.05 - hypot(0.15 - 0.087940, 0.301034 - 0.1) = -0.160395; 0.05 + hypot(0.244132 - 0.15, 0.1 - 0.027866)
    # = 0.168592; times 100 * 80/100
    assert (got.extra.low, got.extra.high) == pytest.approx((-12.8316, 13.4874), abs=1e-3)
    assert report.routes["system1"].failures == 8 and report.routes["system2"].failures == 2  # measured turns
    assert report.to_json()["redos"]["extra_per_100"]["estimate"] == pytest.approx(4.0)
    assert summarize([("system1", "d", "failed", None)]).redos is None


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.data())
def test_the_extra_redos_are_routed_minus_system2_alone_inside_their_interval(n1, n2, data) -> None:
    from artibot.learning.route_costs import redos

    f1, f2 = data.draw(st.integers(0, n1)), data.draw(st.integers(0, n2))
    got = redos(f1, n1, f2, n2)
    assert got.extra.estimate == pytest.approx(got.routed - got.system2_alone, abs=1e-9)
    assert got.extra.low <= got.extra.estimate <= got.extra.high
    assert -100 <= got.extra.low and got.extra.high <= 100


def test_unmeasured_turns_are_counted_not_priced() -> None:
    report = summarize([("system1", "d", True, None), ("system2", "d", True, 0.1), ("system1", "d", False, float("nan"))])
    assert report.unmeasured == 2 and report.routes["system2"].turns == 1 and report.saved is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["system1", "system2"]), st.floats(0, 5)), min_size=1, max_size=40),
       st.floats(0.01, 100))
def test_the_measured_price_is_a_probability_and_grows_with_the_gap(turns, value) -> None:
    report = summarize([(r, "d", True, c) for r, c in turns])
    got = measured_price(report, value_usd=value, min_turns=1)
    if got is None:
        assert min(report.routes[r].turns for r in ("system1", "system2")) == 0
        return
    assert 0.0 <= got.price <= 1.0
    expected = (report.routes["system2"].mean - report.routes["system1"].mean) / value
    assert got.price == pytest.approx(min(max(expected, 0.0), 1.0), abs=1e-9)


def test_no_price_before_enough_turns() -> None:
    report = summarize([("system1", "d", True, 0.01)] * 5 + [("system2", "d", True, 0.05)] * 4)
    assert measured_price(report, value_usd=1.0, min_turns=5) is None
    assert measured_price(report, value_usd=1.0, min_turns=4).price == pytest.approx(0.04)


def test_report_cost_cli(cli, home: Home) -> None:
    collect_many([_turn("system1", 0.01), _turn("system1", 0.03, day="2026-11-21"), _turn("system2", 0.07),
                  _turn("system2", None)], home=home)
    doc = cli("report", "cost", "--json").json()
    assert doc["routes"]["system1"]["turns"] == 2 and doc["routes"]["system2"]["turns"] == 1
    assert doc["saved_usd"]["estimate"] == pytest.approx(2 * (0.07 - 0.02))
    assert sorted(doc["days"]) == ["2026-11-20", "2026-11-21"] and doc["unmeasured_turns"] == 1
    text = cli("report", "cost").out
    assert "Cost per route" in text and "every turn at System 2" in text
    assert "measured cost: System 1 $0.0200/turn" in cli("status").out


def test_report_cost_and_status_lead_with_the_saving_and_the_redos(cli, home: Home) -> None:
    # System 1: 3 turns at 0.01, one failed (1/3); System 2: 2 turns at 0.05, neither failed; one unmeasured
    # System 1 turn, escalated, counts in the redos: System 1 fails 2 of 4, System 2 0 of 2
    collect_many([_turn("system1", 0.01), _turn("system1", 0.01), _turn("system1", 0.01, ok=False),
                  _turn("system2", 0.05), _turn("system2", 0.05),
                  {**_turn("system1", None), "outcome": "escalated"}], home=home)
    doc = cli("report", "cost", "--json").json()
    # saved 3 * 0.04 = 0.12 of 0.13 + 0.12 = 0.25: 48%; no spread, so the interval is the estimate
    assert doc["saved_share"] == {"estimate": 0.48, "low": 0.48, "high": 0.48}
    assert doc["routes"]["system1"]["failures"] == 1 and doc["judged"]["system1"] == {"turns": 4, "failures": 2}
    # routed 2 redos in 6 turns, System 2 alone 0: 33.3 per 100 more (= 4/6 * 50)
    redos = doc["redos"]
    assert redos["routed_per_100"] == pytest.approx(100 / 3, abs=1e-5) and redos["system2_alone_per_100"] == 0
    assert redos["extra_per_100"]["estimate"] == pytest.approx(100 / 3, abs=1e-5)
    lead = cli("report", "cost").out.splitlines()[:2]
    assert lead[0] == ("saved $0.1200 (48.0%) against every turn at System 2 (95% interval $0.1200 to $0.1200, "
                       "48.0% to 48.0%)")
    assert lead[1].startswith("redos per 100 turns: +33.3 against System 2 alone (95% interval ")
    assert lead[1].endswith("; routed 33.3, System 2 alone 0.0)")
    status = cli("status").out
    assert status.startswith(lead[0][:40]) and "redos per 100 turns: +33.3" in status
    costs = cli("status", "--json").json()["costs"]
    assert costs["saved_share"]["estimate"] == 0.48 and costs["redos"] == redos and "saved_usd" in costs


def test_without_the_gateway_the_lead_says_nothing_was_measured(cli, home: Home) -> None:
    collect_many([_turn("system1", None), _turn("system2", None, ok=False)], home=home)
    lead = cli("report", "cost").out.splitlines()[:2]
    assert lead[0] == ("saved: no measured cost yet (the gateway measures each turn's cost: "
                       "`artibot install claude-code --gateway`)")
    assert lead[1].startswith("redos per 100 turns: -50.0 against System 2 alone")
    assert cli("status").out.splitlines()[0] == lead[0]
    doc = cli("report", "cost", "--json").json()
    assert doc["saved_usd"] is None and doc["saved_share"] is None and doc["redos"]["turns"] == [1, 1]


def test_the_learner_takes_the_measured_price_once_enough_turns_have_one(home: Home) -> None:
    turns = [_turn("system1", 0.01, ok=i % 4 != 0) for i in range(30)] + [_turn("system2", 0.05) for _ in range(30)]
    collect_many(turns, home=home)
    base = {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}},
            "learning": {"lifelong": {"batchSize": 50, "minCostTurns": 20}}}
    without = learn(home=home, answers="defaults", dry_run=True, settings=settings_from_mapping(base))
    # the cost objective by default: each route's measured mean shrunk toward the price table's
    # prior ($0.05 and $0.10) by 10 turns: (30*0.01 + 10*0.05)/40 = 0.02, (30*0.05 + 10*0.10)/40 = 0.0625
    price = without.proposal.params.price
    assert price.source == "cost" and price.costs is not None and price.costs.turns == (30, 30)
    assert price.costs.system1_usd == pytest.approx(0.02) and price.costs.system2_usd == pytest.approx(0.0625)
    assert price.value == pytest.approx((0.0625 - 0.02) / (0.0625 + 0.10))  # the redo costs $0.10
    assert without.proposal.params.checks.costs["system2"]["turns"] == 30
    base["learning"]["lifelong"]["successValueUsd"] = 0.5
    report = learn(home=home, answers="defaults", dry_run=True, settings=settings_from_mapping(base))
    params = report.proposal.params
    assert params.price.source == "measured" and params.price.value == pytest.approx(0.04 / 0.5)
    assert params.price.measured_cost["turns"] == [30, 30]


@pytest.mark.parametrize("bad, needle", [
    ({"gateway": {"server": {"port": 0}}}, "gateway.server.port"),
    ({"gateway": {"server": {"upstream": "ftp://x"}}}, "gateway.server.upstream"),
    ({"gateway": {"profiles": {"system1": {"effort": "tiny"}}}}, "gateway.profiles.system1.effort"),
    ({"gateway": {"profiles": {"system3": {}}}}, "gateway.profiles.system3"),
    ({"gateway": {"pricing": {"models": {"m": {"input": 1}}}}}, "gateway.pricing.models.m"),
    ({"learning": {"lifelong": {"successValueUsd": 0}}}, "learning.lifelong.successValueUsd"),
])
def test_gateway_config_errors_name_the_key(bad, needle) -> None:
    with pytest.raises(ConfigError) as info:
        settings_from_mapping(bad)
    assert needle in str(info.value)


def test_gateway_config_overrides() -> None:
    s = settings_from_mapping({"gateway": {"profiles": {"system1": {"effort": "medium", "model": "claude-haiku-4-5"}},
                                           "pricing": {"models": {"my-model": {"input": 1, "output": 2, "cacheWrite": 3,
                                                                               "cacheRead": 4}}}}})
    profiles = gateway_profiles.configured(s.gateway_profiles)
    assert (profiles.system1.effort, profiles.system1.model) == ("medium", "claude-haiku-4-5")
    assert profiles.system2.effort is None
    assert price_table.configured(s.gateway_pricing).row("my-model-2")["output"] == 2
    assert orjson.dumps(s.gateway_server.upstream) == b'"https://api.anthropic.com"'


def test_interrupted_turns_are_archived_with_their_batch_and_scored_by_nobody(cli, home: Home) -> None:
    from artibot.store import archive

    turns = []
    for i in range(55):
        record = _turn("system1" if i % 2 else "system2", None, ok=i % 3 != 0, day=f"2026-11-{1 + i // 10:02d}")
        record["timestamp"] = f"2026-11-01T10:{i:02d}:00+00:00"
        if i % 11 == 5:
            record["outcome"] = "interrupted"
        turns.append(record)
    collect_many(turns, home=home)
    base = {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}
    report = learn(home=home, answers="defaults", settings=settings_from_mapping(base))
    params = report.proposal.params
    assert params.checks.interrupted == 5  # all five lie within the one batch of 50 learnable turns
    archived = list(archive.records(home))
    assert len(archived) == 55 and sum(r["outcome"] == "interrupted" for r in archived) == 5
    groups = report.evidence[1].rows
    assert sum(g["n1"] + g["n2"] for g in groups) == 50
    assert cli("status", "--json").json()["interrupted"] == 5
    assert "interrupted turns: 5" in cli("status").out


def test_cache_rewrites_are_charged_to_system1_so_the_saving_and_the_price_are_net_of_them() -> None:
    # two System 1 turns at 0.02 (one paid 0.01 of rewrite switching in), two System 2 turns at 0.10
    # (one paid 0.04 switching back): without switches every turn would be a System 2 turn at 0.08
    rows = [("system1", "d", True, 0.02, 0.01), ("system1", "d", True, 0.02, 0.0),
            ("system2", "d", True, 0.10, 0.04), ("system2", "d", True, 0.08, 0.0)]
    report = summarize(rows)
    assert report.routes["system2"].mean == pytest.approx((0.06 + 0.08) / 2)  # its own requests only
    assert report.routes["system1"].total == pytest.approx(0.04 + 0.04)
    assert report.total == pytest.approx(0.22)
    # all at System 2 without any switch: 4 x 0.07 = 0.28; the routes cost 0.22: 0.06 saved
    assert report.saved.estimate == pytest.approx(0.06)
    price = measured_price(report, value_usd=1.0, min_turns=2)
    assert price.extra_usd == pytest.approx(0.07 - 0.04)
    assert report.to_json()["rewrites"] == {"turns": 2, "cost_usd": 0.05, "routes": {
        "system1": {"turns": 1, "cost_usd": 0.01}, "system2": {"turns": 1, "cost_usd": 0.04}}}


def test_the_report_counts_switched_turns_their_rewrites_and_the_housekeeping(tmp_path) -> None:
    from artibot.reports.costs import cache_report, cost_report

    h = Home(tmp_path)
    usage = {"requests": 2, "input_tokens": 10, "output_tokens": 5, "cost_usd": 0.05, "unpriced": 0}
    collect_many([
        _turn("system2", None, session_id="s", usage={**usage, "profile": {"effort": None, "model": None}}),
        _turn("system1", None, session_id="s", usage={**usage, "profile": {"effort": "low", "model": None},
                                                     "rewrite_tokens": 1000, "rewrite_cost_usd": 0.004,
                                                     "housekeeping": {"requests": 2, "cost_usd": 0.03}}),
        _turn("system1", None, session_id="s", usage={**usage, "profile": {"effort": "low", "model": None},
                                                     "rewrite_tokens": 500, "rewrite_cost_usd": 0.002,
                                                     "agents": {"requests": 1, "cost_usd": 0.01,
                                                                "models": ["claude-haiku-4-5"]}}),
    ], home=h)
    cache = cache_report(home=h)
    # the third turn did not switch: its rewrite (an expired cache) is not a switch's
    assert cache["switched"] == {"turns": 1, "rewrite_tokens": 1000, "rewrite_cost_usd": 0.004}
    assert cache["housekeeping"] == {"requests": 2, "cost_usd": 0.03}
    assert cache["agents"] == {"requests": 1, "cost_usd": 0.01, "models": ["claude-haiku-4-5"]}
    assert cost_report(home=h).rewrites["system1"] == [1, 0.004]


def test_a_round_prices_from_its_one_read_of_the_log(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    from artibot.reports.costs import cost_report
    from artibot.store.log.experiences import ExperienceLog

    first = [_turn("system1", 0.01 + i / 1000, ok=i % 4 != 0, session_id=f"s{i % 3}")
             for i in range(30)] + [_turn("system2", 0.05, session_id=f"s{i % 3}") for i in range(30)]
    collect_many(first, home=home)
    base = {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}},
            "learning": {"lifelong": {"batchSize": 50, "minCostTurns": 20, "successValueUsd": 0.5}}}
    assert learn(home=home, answers="defaults", settings=settings_from_mapping(base)).status == "applied"
    collect_many([_turn("system2", 0.09), _turn("system1", 0.02, day="2026-11-22"), _turn("system1", None)], home=home)
    expected = cost_report(home=home)  # every turn kept: the archived ones and the unprocessed ones

    def second_read(self: ExperienceLog) -> None:
        raise AssertionError("the round read the log a second time")

    monkeypatch.setattr(ExperienceLog, "stream", second_read)
    report = learn(home=home, answers="defaults", dry_run=True, flush=True, settings=settings_from_mapping(base))
    params = report.proposal.params
    assert params.checks.costs == {r: c.to_json() for r, c in expected.routes.items()}
    assert params.price is not None and params.price.source == "measured"
    assert params.price.measured_cost is not None and params.price.measured_cost["turns"] == [
        expected.routes["system1"].turns, expected.routes["system2"].turns]
