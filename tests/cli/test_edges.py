"""The smaller edges a new user runs into, each with the sentence that now answers it."""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot import learn
from artibot.collector import collect_many
from tests.factories import mixed, record


def test_home_after_the_command_says_where_it_goes(cli) -> None:
    result = cli("status", "--home", "/tmp/x")
    assert result.code == 2 and "--home goes before the command: artibot --home DIR status" in result.err


def test_an_empty_request_is_not_routed(cli, artibot_home: Path) -> None:
    for text in ("", "   "):
        result = cli("route", text, "--record")
        assert result.code == 2 and "the request text is empty" in result.err
    assert not (artibot_home / "pending").exists()


def test_a_domain_typo_is_named_with_the_closest_domain(cli) -> None:
    result = cli("route", "fix the api", "--domain", "backnd")
    assert result.code == 0 and "domain 'backnd' is new" in result.err and "did you mean 'backend'?" in result.err
    assert "warning" not in cli("route", "fix the api", "--domain", "backend").err


def test_every_outcome_is_listed(cli) -> None:
    recorded = cli("route", "fix the api", "--record")
    assert "success|escalated|failed|interrupted" in recorded.out
    assert "interrupted" in cli("outcome", "--help").out


@pytest.mark.parametrize("key, hint", [("sytem2Cost", "did you mean 'system2Cost'?"),
                                       ("system2_cost", "did you mean 'system2Cost'? (the config's keys are "
                                                        "camelCase)"),
                                       ("batch_size", "did you mean 'batchSize'?")])
def test_an_unknown_config_key_gets_a_hint(cli, artibot_home: Path, key: str, hint: str) -> None:
    artibot_home.mkdir(parents=True)
    (artibot_home / "artibot.config.json").write_text(f'{{"learning": {{"lifelong": {{"{key}": 0.05}}}}}}')
    result = cli("config", "show")
    assert result.code == 2 and f"learning.lifelong.{key} is not a known key; {hint}" in result.err


def test_json_numbers_are_tidy_and_money_has_its_sign_first(cli) -> None:
    collect_many([record(i, complexity=0.4 + 0.1 + 0.1) for i in range(3)])
    assert "0.6000000000000001" not in cli("turns", "--json").out
    from artibot.cli.cmd_report import _usd

    assert _usd(-0.0092) == "-$0.0092" and _usd(1234.5) == "$1,234.5000"


def test_round_messages_count_and_say_what_changed(cli) -> None:
    collect_many(mixed(51))
    quiet = cli("learn", "--dry-run", "--quiet")
    assert quiet.code == 0 and quiet.out.strip() == "dry run: nothing was written"
    report = learn(answers={1: "accept", 2: "revert", 3: "auto"})
    assert "50 experiences in 1 batch;" in report.message and "thresholds kept (reverted)" in report.message
    one = learn(answers="defaults", flush=True)
    assert "1 experience in 1 batch;" in one.message  # the one left over
    assert ("no threshold changed" in one.message) == all(
        c["old"] == c["new"] for c in one.threshold_changes.values())


def test_rollback_last_and_the_choices_when_the_id_is_wrong(cli) -> None:
    collect_many(mixed(60))
    first = learn(answers="defaults").round_id
    collect_many(mixed(60, start=60))
    second = learn(answers="defaults").round_id
    wrong = cli("rollback", "r2026-typo", "--yes")
    assert wrong.code == 2 and first in wrong.err and second in wrong.err and "`last`" in wrong.err
    dry = cli("rollback", "last", "--dry-run")
    assert dry.code == 0 and second in dry.out and first not in dry.out
    done = cli("rollback", "last", "--yes")
    assert done.code == 0 and f"restored the state from before {second}" in done.out


def test_the_fallback_threshold_has_one_name() -> None:
    from artibot.learning.evidence import reason
    from artibot.hookpath.router.thresholds import DEFAULT_KEY, domain_label

    assert reason(DEFAULT_KEY, 0.2, 0.05, 0.1, "estimated", 0.4, 0.3).startswith("default: ")
    assert domain_label(DEFAULT_KEY) == "default"


@pytest.mark.parametrize("text, secret", [
    ("use sk-ant-abc123456789 for the call", "sk-ant-abc123456789"),
    ("login with password=hunter2 then deploy", "hunter2"),
    ("비밀번호=한글비번123 으로 로그인", "한글비번123"),
    ("비밀번호: 가나다라1234", "가나다라1234"),
])
def test_short_and_korean_secrets_stay_off_disk(cli, artibot_home: Path, text: str, secret: str) -> None:
    assert cli("route", text, "--record").code == 0
    stored = b"".join(p.read_bytes() for p in (artibot_home / "pending").iterdir())
    assert secret.encode() not in stored


def test_prose_after_a_korean_password_word_is_kept() -> None:
    from artibot.hookpath.privacy import anonymize

    assert anonymize("비밀번호: 필수 항목입니다") == "비밀번호: 필수 항목입니다"
    assert anonymize("def f(password=None)") == "def f(password=None)"
