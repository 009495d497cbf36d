"""A record's validation problems and the config's checks, as the library words them: each
said in Korean whole from its message (keys, values and the parser's own text as they were),
and the English sentence an API caller reads unchanged."""

from __future__ import annotations

import math
import re

import pytest

from artibot.cli.words_errors import say_error, said_message
from artibot.collector import collect_lines, prepare_many
from artibot.config import settings_from_mapping
from artibot.config.validators import EFFORTS, cron_problem, profile
from artibot.errors import ArtibotError, ConfigError, InvalidInput, ValidationError
from artibot.experience import validate
from artibot.messages import Message, render
from tests.cli.test_korean_session import leftover_english

GOOD = {"input": "fix the typo", "domain": "docs", "complexity": 0.2, "routed_to": "system1", "outcome": "success",
        "latency_ms": 12, "confidence": 0.9}

BAD = [
    ({**GOOD, "complexity": 2}, "complexity must be a number from 0 to 1, not 2",
     "complexity은(는) 0부터 1까지의 숫자여야 합니다 (2은(는) 안 됨)"),
    ({**GOOD, "threshold": "x"}, "threshold must be a number from 0 to 1 or null, not 'x'",
     "threshold은(는) 0부터 1까지의 숫자나 null여야 합니다 ('x'은(는) 안 됨)"),
    ({**GOOD, "propensity": 0}, "propensity must be a number in (0, 1], not 0",
     "propensity은(는) 0 초과 1 이하의 숫자여야 합니다 (0은(는) 안 됨)"),
    ({k: v for k, v in GOOD.items() if k != "confidence"}, "confidence is required: a number from 0 to 1",
     "confidence이(가) 필요합니다: 0부터 1까지의 숫자"),
    ({k: v for k, v in GOOD.items() if k != "domain"}, "domain is required", "domain이(가) 필요합니다"),
    ({**GOOD, "routed_to": "system3"}, "routed_to must be one of 'system1', 'system2', not 'system3'",
     "routed_to은(는) 'system1', 'system2' 중 하나여야 합니다 ('system3'은(는) 안 됨)"),
    ({**GOOD, "timestamp": "yesterday"},
     "timestamp must be ISO 8601 with a timezone (e.g. 2026-01-31T09:30:00+09:00), not 'yesterday'",
     "timestamp는 시간대가 있는 ISO 8601 시각이어야 합니다 (예: 2026-01-31T09:30:00+09:00) ('yesterday'은(는) 안 됨)"),
    ({**GOOD, "extra": math.nan}, "extra must be a finite number, not nan",
     "extra은(는) 유한한 숫자여야 합니다 (nan은(는) 안 됨)"),
    ({**GOOD, "extra": "\ud800"}, "extra must be valid Unicode text (it contains a lone surrogate)",
     "extra은(는) 올바른 유니코드 텍스트여야 합니다 (짝이 없는 서로게이트가 있습니다)"),
    ({**GOOD, "extra": {1: 2}}, "extra has a key 1 that is not a string", "extra에 문자열이 아닌 키 1이(가) 있습니다"),
    ({**GOOD, "extra": object}, "extra must be JSON data (null, true/false, a number, a string, a list or an object), "
     "not type", "extra은(는) JSON 데이터(null, true/false, 숫자, 문자열, 목록 또는 객체)여야 합니다 (type은(는) 안 됨)"),
    ({**GOOD, "schema_version": 0}, "schema_version must be an integer from 1 to 1, not 0",
     "schema_version은 1부터 1까지의 정수여야 합니다 (0은(는) 안 됨)"),
    ({**GOOD, "schema_version": 9}, "schema_version 9 is newer than this artibot understands (1); upgrade artibot",
     "schema_version 9은(는) 이 artibot이 아는 버전(1)보다 새롭습니다; artibot을 업그레이드하세요"),
]


@pytest.mark.parametrize(("record", "english", "korean"), BAD, ids=[b[1][:30] for b in BAD])
def test_a_record_s_problem_in_korean(record: dict, english: str, korean: str) -> None:
    with pytest.raises(ValidationError) as info:
        validate(record)
    assert info.value.problems == [english]
    assert str(info.value) == f"{english} (nothing was written)"
    assert say_error("ko", info.value) == f"{korean} (아무것도 기록하지 않았습니다)"


def test_a_turn_fact_s_problem_in_korean() -> None:
    from artibot.experience import _TURN_FACTS

    for name, (_, allowed) in _TURN_FACTS.items():
        with pytest.raises(ValidationError) as info:
            validate({**GOOD, name: math.inf if allowed != "record.flag_or_null" else 1})
        said = say_error("ko", info.value)
        assert re.search("[가-힣]", said) and leftover_english(said) == [], (str(info.value), said)


def test_a_batch_names_its_records_and_lines_in_korean() -> None:
    with pytest.raises(ValidationError) as info:
        prepare_many([GOOD, {**GOOD, "latency_ms": -1}, {**GOOD, "id": "a"}, {**GOOD, "id": "a"}])
    assert info.value.problems == ["record 2: latency_ms must be a number >= 0, not -1",
                                   "record 4: id 'a' appears twice in this batch"]
    assert say_error("ko", info.value) == ("레코드 2: latency_ms는 0 이상의 숫자여야 합니다 (-1은(는) 안 됨); 레코드 4: "
                                           "id 'a'이(가) 이 배치에 두 번 있습니다 (아무것도 기록하지 않았습니다)")
    import orjson

    lines = [orjson.dumps({**GOOD, "input": 1})] + [b"{"] * 25

    with pytest.raises(ValidationError) as info:
        collect_lines(lambda: lines)
    said = say_error("ko", info.value)
    assert said.startswith("stdin: 1번째 줄: input은 문자열이어야 합니다 (int은(는) 안 됨); 2번째 줄: 올바른 JSON이 아닙니다 (")
    assert said.endswith("; … 외 6개 (아무것도 기록하지 않았습니다)"), said
    assert str(info.value).endswith("; … and 6 more (nothing was written)")


def test_a_record_already_stored_in_korean(artibot_home) -> None:
    from artibot.collector import collect

    collect({**GOOD, "id": "r-1"})
    with pytest.raises(ValidationError) as info:
        collect({**GOOD, "id": "r-1"})
    said = say_error("ko", info.value)
    assert said.startswith("id 'r-1'은(는) 이미 저장되어 있습니다") and leftover_english(said) == [], said


def test_the_config_s_checks_in_korean(tmp_path) -> None:
    cron = cron_problem("x", "learning.schedule.nightlyLearner")
    assert cron is not None and str(cron) == ("learning.schedule.nightlyLearner must have 5 fields (minute hour "
                                              "day-of-month month day-of-week) (got 'x')")
    assert render(cron, "ko") == "learning.schedule.nightlyLearner에는 필드 5개(분 시 일 월 요일)가 있어야 합니다 (받은 값: 'x')"
    for expr in (5, "61 * * * *", "a * * * *", "*/0 * * * *", "5-1 * * * *"):
        said = render(cron_problem(expr, "learning.schedule.driftCheck") or Message("rollback.none"), "ko")
        assert said.startswith("learning.schedule.driftCheck") and "받은 값:" in said, said
    assert render(cron_problem("61 * * * *", "k") or cron, "ko") == "k minute 필드의 값 61이(가) 0-59 범위 밖입니다 (받은 값: '61 * * * *')"
    _, effort = profile("gateway.profiles.system1", {"effort": "huge"})
    assert str(effort) == ("gateway.profiles.system1.effort must be null (keep the client's) or one of low, medium, "
                           "high, max, not 'huge'")
    assert str(Message("config.efforts")) == ", ".join(EFFORTS)
    assert render(effort, "ko") == ("gateway.profiles.system1.effort은(는) null(클라이언트의 값 유지)이나 `low`, `medium`, "
                                    "`high`, `max` 중 하나여야 합니다 ('huge'은(는) 안 됨)")
    for bad in ({"system1": []}, {"system1": {"model": ""}}):
        _, problem = profile("gateway.profiles", bad)
        said = render(problem or cron, "ko")
        assert re.search("[가-힣]", said) and leftover_english(said) == [], said
    settings = settings_from_mapping({"lnag": "ko"})
    assert settings.warnings == ("lnag is not a key artibot reads (known: lang, cognitive, learning, gateway); "
                                 "it is ignored",)
    assert said_message("ko", settings.said_warnings[0]) == ("lnag은(는) artibot이 읽는 키가 아닙니다 (알려진 키: lang, "
                                                             "cognitive, learning, gateway); 무시합니다")
    path = tmp_path / "artibot.config.json"
    path.write_text("{")
    from artibot.config import load_config_file

    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert "not valid JSON (" in str(info.value)
    assert "올바른 JSON이 아닙니다 (" in say_error("ko", info.value)


def test_the_schedule_s_refusal_in_korean() -> None:
    from artibot.config.settings import ScheduleSettings
    from artibot.integrations.schedule import schedule_lines

    with pytest.raises(InvalidInput) as info:
        schedule_lines(ScheduleSettings(nightly_learner="* * *"), "artibot", __import__("pathlib").Path("/tmp"))
    error: ArtibotError = info.value
    assert str(error) == ("learning.schedule.nightlyLearner must have 5 fields (minute hour day-of-month month "
                          "day-of-week) (got '* * *')")
    assert say_error("ko", error) == ("learning.schedule.nightlyLearner에는 필드 5개(분 시 일 월 요일)가 있어야 합니다 "
                                      "(받은 값: '* * *')")


def test_a_routing_policy_s_problems_in_korean() -> None:
    from artibot.hookpath.router.domains import DomainTable
    from artibot.hookpath.router.policy import RoutingPolicy

    with pytest.raises(InvalidInput) as info:
        RoutingPolicy(cache=frozenset(), table=DomainTable.from_mapping({}), default_threshold=2, min_threshold=0.9, max_threshold=0.1, domain_thresholds={"law": -1},
                      exploration=0.9, domain_rates={"law": 0.9}, team_key="xyz")
    english = str(info.value)
    assert english.startswith("invalid routing policy: min_threshold and max_threshold must satisfy 0 <= min < max "
                              "<= 1 (got 0.9 and 0.1); default_threshold must be a number in [0, 1], not 2; the "
                              "threshold of domain 'law' must be a number in [0, 1], not -1; exploration must be a "
                              "number in [0, "), english
    said = say_error("ko", info.value)
    assert said.startswith("라우팅 정책이 잘못되었습니다: min_threshold와 max_threshold는 0 <= min < max <= 1을 만족해야 "
                           "합니다 (받은 값: 0.9, 0.1); default_threshold은(는) [0, 1] 범위의 숫자여야 합니다 (2은(는) 안 됨)")
    assert leftover_english(said) == [], said


def test_a_damaged_file_in_korean(tmp_path) -> None:
    from artibot.errors import CorruptFileError, IntegrationError
    from artibot.integrations.claude_code.settings_merge import parse_settings
    from artibot.store.documents import read_document

    path = tmp_path / "thresholds.json"
    path.write_text("{")
    with pytest.raises(CorruptFileError) as info:
        read_document(path, "thresholds")
    assert str(info.value).startswith(f"{path}: not valid JSON (")
    assert str(info.value).endswith(". The file was left untouched; run `artibot doctor` to see the problem and "
                                    "`artibot doctor --repair` to move the bad copy aside.")
    said = say_error("ko", info.value)
    assert said.startswith(f"{path}: 올바른 JSON이 아닙니다 (") and "파일은 그대로 두었습니다" in said, said
    with pytest.raises(IntegrationError) as refused:
        parse_settings(tmp_path / "settings.json", b"{")
    assert str(refused.value).endswith("; it was left untouched. Fix the file (or move it aside), then run the "
                                       "command again.")
    said = say_error("ko", refused.value)
    assert "settings.json은(는) 올바른 JSON이 아닙니다 (" in said and "artibot은 파일을 건드리지 않았습니다" in said, said


def test_a_stored_record_that_breaks_the_schema_in_korean(tmp_path) -> None:
    import orjson

    from artibot.errors import CorruptFileError
    from artibot.store.log.log_layout import parse_records

    path = tmp_path / "daily-experiences.json"
    for record, english, korean in (
            ({**GOOD, "id": "r-1", "timestamp": "2026-01-31T09:30:00+09:00", "latency_ms": -1},
             "line 2: record 'r-1': latency_ms must be a number >= 0, not -1; learning stops until it is fixed or "
             "moved aside", "2번째 줄: 레코드 'r-1': latency_ms는 0 이상의 숫자여야 합니다 (-1은(는) 안 됨); 고치거나 다른 "
             "곳으로 옮길 때까지 학습이 멈춥니다"),
            ({**GOOD, "timestamp": "2026-01-31T09:30:00+09:00"},
             "line 2: a record: id is required; learning stops until it is fixed or moved aside",
             "2번째 줄: 레코드 하나: id이(가) 필요합니다; 고치거나 다른 곳으로 옮길 때까지 학습이 멈춥니다")):
        with pytest.raises(CorruptFileError) as info:
            parse_records(orjson.dumps([record]), path)
        assert info.value.problem == english
        assert say_error("ko", info.value).startswith(f"{path}: {korean}. 파일은 그대로 두었습니다")


def test_a_state_file_s_value_out_of_its_choices_in_korean(tmp_path) -> None:
    from artibot.errors import CorruptFileError, problem_of
    from artibot.learning.learner_state import state_from_json

    with pytest.raises(ValueError) as info:
        state_from_json("nope", {})
    assert str(info.value) == "learner state: mode must be one of seed, evidence, not 'nope'"
    error = CorruptFileError(tmp_path / "state.json", problem_of(info.value))
    assert error.problem == str(info.value)
    assert say_error("ko", error).startswith(f"{tmp_path / 'state.json'}: learner state: mode은(는) seed, evidence 중 "
                                             "하나여야 합니다 ('nope'은(는) 안 됨). 파일은 그대로 두었습니다")
    assert problem_of(OSError("plain")) == "plain"
