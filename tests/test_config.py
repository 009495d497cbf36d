"""Configuration: lookup order, defaults, and an error naming the key path for every mistake."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from artibot.config import (
    CONFIG_NAME,
    default_settings,
    load_config_file,
    load_settings,
    resolve_home,
    settings_from_mapping,
    shipped_config_dir,
)
from artibot.config.validators import cron_problem
from artibot.errors import ConfigError, ExitCode


def nest(path: str, value) -> dict:
    """``nest("a.b.c", 1)`` -> ``{"a": {"b": {"c": 1}}}``."""
    out: dict = {}
    node = out
    *parents, leaf = path.split(".")
    for key in parents:
        node = node.setdefault(key, {})
    node[leaf] = value
    return out


# (key path, bad value, text the message must carry: the allowed range or kind)
INVALID_VALUES = [
    ("lang", "fr", "'en', 'ko'"),
    ("lang", None, "'en', 'ko'"),
    ("cognitive.router.threshold", 1.5, "[0, 1]"),
    ("cognitive.router.threshold", -0.1, "[0, 1]"),
    ("cognitive.router.threshold", "0.4", "[0, 1]"),
    ("cognitive.router.threshold", True, "[0, 1]"),
    ("cognitive.router.threshold", None, "[0, 1]"),
    ("cognitive.router.adaptRate", 0, "(0, 1]"),
    ("cognitive.router.adaptRate", 1.01, "(0, 1]"),
    ("cognitive.router.minThreshold", -1, "[0, 1]"),
    ("cognitive.router.maxThreshold", 2, "[0, 1]"),
    ("cognitive.router.exploration", 0.6, "[0, 0.5]"),
    ("cognitive.router.exploration", [0.1], "[0, 0.5]"),
    ("cognitive.router.domains", ["frontend"], "object mapping"),
    ("cognitive.router.domains", {"Bad Name": ["x"]}, "lower-case"),
    ("cognitive.router.domains", {"infra": "terraform"}, "list of non-empty strings"),
    ("cognitive.system1.minConfidence", 1.2, "[0, 1]"),
    ("cognitive.system1.maxLatency", -5, "[0, 3.6e+06]"),
    ("learning.lifelong.batchSize", 0, "from 2 to 100000"),
    ("learning.lifelong.batchSize", 1, "from 2 to 100000"),
    ("learning.lifelong.batchSize", 50.5, "whole number"),
    ("learning.lifelong.batchSize", 50.0, "whole number"),
    ("learning.lifelong.batchSize", "50", "whole number"),
    ("learning.lifelong.batchSize", True, "whole number"),
    ("learning.lifelong.batchSize", 10**6, "from 2 to 100000"),
    ("learning.lifelong.grpoGroupSize", 1, "from 2 to 10000"),
    ("learning.lifelong.mode", "fast", "'seed', 'evidence'"),
    ("learning.lifelong.mode", None, "'seed', 'evidence'"),
    ("learning.lifelong.system2Cost", 2, "[0, 1]"),
    ("learning.lifelong.targetSystem2Share", -0.5, "[0, 1]"),
    ("learning.knowledgeTransfer.promotionThreshold", 0, "from 1 to 1000"),
    ("learning.knowledgeTransfer.demotionThreshold", 1.5, "whole number"),
    ("learning.knowledgeTransfer.promotionConfidence", 1.2, "[0, 1]"),
    ("learning.checkpoints.unattended", "yes", "'defer', 'defaults'"),
    ("learning.schedule.enabled", "yes", "true or false"),
    ("learning.schedule.enabled", 1, "true or false"),
    ("learning.schedule.nightlyLearner", "every night", "5 fields"),
    ("learning.schedule.nightlyLearner", 3, "string"),
    ("learning.schedule.driftCheck", "61 * * * *", "minute"),
    ("learning.schedule.driftCheck", "0 24 * * *", "hour"),
    ("learning.schedule.driftCheck", "0 0 * 13 *", "month"),
    ("learning.schedule.driftCheck", "0 0 * * mon", "day-of-week"),
    ("learning.schedule.driftCheck", "*/0 * * * *", "step of 0"),
    ("learning.schedule.nightlyLearner", "0 5-1 * * *", "runs backwards"),
]


@pytest.mark.parametrize("path,value,allowed", INVALID_VALUES,
                         ids=[f"{p}={v!r}"[:60] for p, v, _ in INVALID_VALUES])
def test_invalid_value_names_the_key_path_and_what_is_allowed(path, value, allowed):
    with pytest.raises(ConfigError) as info:
        settings_from_mapping(nest(path, value))
    problems = info.value.problems
    assert len(problems) == 1, problems
    assert problems[0].startswith(path), problems
    assert allowed in problems[0]
    assert info.value.exit_code == ExitCode.USAGE


UNKNOWN_KEYS = [
    ("cognitive.router.thresold", "threshold"),
    ("cognitive.system1.minConfidance", "minConfidence"),
    ("cognitive.system3", "router, system1"),
    ("learning.lifelong.batch_size", "batchSize"),
    ("learning.lifelong.groupSize", "grpoGroupSize"),
    ("learning.knowledgeTransfer.promote", "promotionThreshold"),
    ("learning.checkpoints.mode", "unattended"),
    ("learning.schedule.weekly", "driftCheck"),
    ("learning.nightly", "lifelong, knowledgeTransfer"),
]


@pytest.mark.parametrize("path,allowed", UNKNOWN_KEYS, ids=[p for p, _ in UNKNOWN_KEYS])
def test_unknown_key_in_an_artibot_section_is_an_error(path, allowed):
    with pytest.raises(ConfigError) as info:
        settings_from_mapping(nest(path, 1))
    (problem,) = info.value.problems
    assert problem.startswith(f"{path} is not a known key")
    assert allowed in problem


@pytest.mark.parametrize("section", ["cognitive", "learning", "cognitive.router", "learning.lifelong",
                                     "learning.schedule"])
@pytest.mark.parametrize("value", [5, "x", [1]])
def test_a_section_that_is_not_an_object(section, value):
    with pytest.raises(ConfigError, match=f"{section} must be an object"):
        settings_from_mapping(nest(section, value))


@pytest.mark.parametrize("data,message", [
    (nest("cognitive.router", {"minThreshold": 0.9, "maxThreshold": 0.1}), "minThreshold must be below"),
    (nest("cognitive.router", {"minThreshold": 0.5, "maxThreshold": 0.5}), "minThreshold must be below"),
    (nest("cognitive.router.threshold", 0.95), "within [minThreshold, maxThreshold]"),
    (nest("learning.lifelong", {"batchSize": 10, "grpoGroupSize": 20}), "grpoGroupSize must not exceed"),
    (nest("learning.lifelong", {"system2Cost": 0.05, "targetSystem2Share": 0.3}), "not both"),
])
def test_cross_key_constraints(data, message):
    with pytest.raises(ConfigError) as info:
        settings_from_mapping(data)
    assert any(message in p for p in info.value.problems)


@pytest.mark.parametrize("top", [[1, 2], "config", 3, None])
def test_top_level_must_be_an_object(top):
    with pytest.raises(ConfigError, match="top level must be a JSON object"):
        settings_from_mapping(top)


def test_all_problems_are_reported_together():
    data = {"lang": "de", "cognitive": {"router": {"threshold": 7, "bogus": 1}},
            "learning": {"lifelong": {"batchSize": 0, "mode": "x"}}}
    with pytest.raises(ConfigError) as info:
        settings_from_mapping(data)
    text = str(info.value)
    for path in ("lang", "cognitive.router.threshold", "cognitive.router.bogus",
                 "learning.lifelong.batchSize", "learning.lifelong.mode"):
        assert path in text


def test_keys_outside_the_artibot_sections_are_ignored():
    data = {"hooks": {"anything": True}, "memory": {"decay": "fast"}, "evaluations": [1, 2],
            "learning": {"lifelong": {"batchSize": 20}}}
    settings = settings_from_mapping(data)
    assert settings.lifelong.batch_size == 20


def test_shipped_defaults_are_the_spec_values():
    s = default_settings()
    assert s.lang == "en"
    assert (s.router.threshold, s.router.adapt_rate, s.router.min_threshold, s.router.max_threshold,
            s.router.exploration, s.router.domain_exploration) == (0.4, 0.05, 0.1, 0.9, 0.05, 0.01)
    assert (s.system1.min_confidence, s.system1.max_latency) == (0.6, 100)
    # the learner that learns as shipped (the seed's literal rule stays selectable)
    assert (s.lifelong.batch_size, s.lifelong.grpo_group_size, s.lifelong.mode) == (50, 5, "evidence")
    assert (s.transfer.promotion_threshold, s.transfer.demotion_threshold,
            s.transfer.promotion_confidence) == (3, 2, 0.8)
    assert s.checkpoints.unattended == "defer"
    assert (s.schedule.enabled, s.schedule.nightly_learner, s.schedule.drift_check) == (
        False, "3 2 * * *", "7 6 * * 1")
    assert s.source is None
    shipped = json.loads((shipped_config_dir() / CONFIG_NAME).read_text())
    assert settings_from_mapping(shipped) == s


def test_a_partial_config_is_merged_over_the_defaults():
    s = settings_from_mapping({"cognitive": {"router": {"threshold": 0.5}}, "lang": "ko"})
    assert s.router.threshold == 0.5 and s.router.adapt_rate == 0.05 and s.lang == "ko"
    assert s.lifelong.batch_size == 50


def test_settings_are_frozen():
    s = default_settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.lang = "ko"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.router.threshold = 0.9  # type: ignore[misc]


def test_integers_are_accepted_for_numbers():
    s = settings_from_mapping(nest("cognitive.router", {"threshold": 0, "minThreshold": 0, "maxThreshold": 1}))
    assert s.router.threshold == 0.0


def test_domains_extension_is_normalised():
    s = settings_from_mapping(nest("cognitive.router.domains", {"infra": [" Terraform ", "k8s"]}))
    assert s.router.domains == {"infra": ("terraform", "k8s")}


@pytest.mark.parametrize("expr", ["3 2 * * *", "*/15 * * * *", "0 9-17 * * 1-5", "0,30 * 1,15 * 0", "0 0 * * 7"])
def test_valid_cron_expressions(expr):
    assert cron_problem(expr, "learning.schedule.nightlyLearner") is None


# ------------------------------------------------------------------ lookup order
def write_config(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def test_no_config_file_gives_the_defaults(artibot_home):
    assert load_settings() == default_settings()


def test_lookup_order(artibot_home, tmp_path, monkeypatch):
    home_file = write_config(artibot_home / CONFIG_NAME, {"cognitive": {"router": {"threshold": 0.3}}})
    assert load_settings().router.threshold == 0.3
    assert load_settings().source == home_file

    cwd_file = write_config(Path.cwd() / CONFIG_NAME, {"cognitive": {"router": {"threshold": 0.5}}})
    assert load_settings().router.threshold == 0.5
    assert load_settings().source == cwd_file

    env_file = write_config(tmp_path / "elsewhere.json", {"cognitive": {"router": {"threshold": 0.7}}})
    monkeypatch.setenv("ARTIBOT_CONFIG", str(env_file))
    assert load_settings().router.threshold == 0.7
    assert load_settings().source == env_file


def test_an_explicit_home_argument_is_searched(tmp_path):
    other = tmp_path / "other-home"
    write_config(other / CONFIG_NAME, {"lang": "ko"})
    assert load_settings(other).lang == "ko"
    assert resolve_home(other) == other


def test_artibot_config_pointing_nowhere_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("ARTIBOT_CONFIG", str(tmp_path / "missing.json"))
    with pytest.raises(ConfigError, match="ARTIBOT_CONFIG"):
        load_settings()


def test_the_first_file_found_wins_even_when_invalid(artibot_home):
    write_config(artibot_home / CONFIG_NAME, {"lang": "ko"})
    bad = write_config(Path.cwd() / CONFIG_NAME, {"learning": {"lifelong": {"batchSize": 0}}})
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert str(bad) in str(info.value) and "learning.lifelong.batchSize" in str(info.value)


@pytest.mark.parametrize("text", ["{", "", "{'lang': 'en'}", '{"lang": "en",}'])
def test_a_file_that_is_not_json_names_the_file(tmp_path, text):
    path = tmp_path / CONFIG_NAME
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert str(path) in str(info.value) and "not valid JSON" in str(info.value)


def test_resolve_home_uses_the_environment(artibot_home, monkeypatch):
    assert resolve_home() == artibot_home
    monkeypatch.delenv("ARTIBOT_HOME")
    assert resolve_home() == Path("~/.claude/artibot").expanduser()


def test_the_test_fixture_isolates_the_working_directory(artibot_home):
    repo_root = Path(__file__).resolve().parents[1]
    assert Path.cwd() != repo_root and not (Path.cwd() / CONFIG_NAME).exists()
