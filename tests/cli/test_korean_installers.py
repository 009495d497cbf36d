"""The installers' and the domains table's own refusals, an install plan's warnings and a
client's restart hint, said in Korean from their messages (paths, keys, values and commands as
the English names them), and the English an API caller reads unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from artibot.cli.words_errors import said_message, say_error
from artibot.errors import ArtibotError, IntegrationError, InvalidInput
from tests.cli.test_korean_commands import _say_in
from tests.cli.test_korean_session import leftover_english


@pytest.fixture
def clients(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A user folder (the clients' settings under it) and a project, both empty."""
    user, project = tmp_path / "user", tmp_path / "project"
    (user / ".claude").mkdir(parents=True)
    project.mkdir()
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(user / ".claude"))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return user, project


def korean(said: str) -> bool:
    return bool(re.search("[가-힣]", said)) and leftover_english(said) == []


def test_a_bad_gemini_model_in_korean(cli, artibot_home: Path, clients: tuple[Path, Path]) -> None:
    argv = ("install", "gemini-cli", "--model", "system1", "--dry-run")
    assert cli(*argv).err == "artibot: --model takes ROUTE=MODEL with ROUTE system1 or system2, not 'system1'\n"
    _say_in(artibot_home, "ko")
    said = cli(*argv)
    assert said.code == 2
    assert said.err == "artibot: --model은 ROUTE=MODEL 형식이고 ROUTE는 system1 또는 system2입니다 ('system1'은(는) 안 됨)\n"


def test_a_settings_file_that_is_not_an_object_in_korean(cli, artibot_home: Path,
                                                         clients: tuple[Path, Path]) -> None:
    settings = clients[0] / ".claude" / "settings.json"
    settings.write_text("[]")
    said = cli("install", "claude-code")
    assert said.code == 1 and said.err == f"artibot: {settings}: the top level must be a JSON object; the file was left " \
                                          "untouched\n"
    _say_in(artibot_home, "ko")
    said = cli("install", "claude-code")
    assert said.code == 1 and said.err == f"artibot: {settings}: 최상위는 JSON 객체여야 합니다; 파일은 그대로 두었습니다\n"
    assert settings.read_text() == "[]"


def test_the_restart_hint_and_the_other_scope_warning_in_korean(cli, artibot_home: Path,
                                                                clients: tuple[Path, Path]) -> None:
    said = cli("install", "cursor")
    assert said.code == 0 and said.out.rstrip().endswith(": Cursor reloads hooks.json on save; check Settings > Hooks")
    assert cli("install", "claude-code").code == 0
    said = cli("install", "claude-code", "--scope", "project", "--dry-run")
    user_file = clients[0] / ".claude" / "settings.json"
    assert (f"warning: {user_file} also registers artibot hooks (user scope); experiences may be recorded twice. Run "
            "`artibot uninstall claude-code --scope user` if you want only this one.") in said.out.splitlines()
    _say_in(artibot_home, "ko")
    said = cli("install", "gemini-cli")
    assert said.code == 0
    assert said.out.splitlines()[-1] == ("완료: 훅을 불러오려면 Gemini CLI 세션을 새로 시작하세요 (또는 /hooks panel 실행); "
                                         "/learn으로 라운드를 검토합니다")
    said = cli("install", "claude-code", "--scope", "project", "--dry-run")
    assert (f"경고: {user_file}에도 artibot 훅이 등록되어 있습니다 (user 범위); 경험이 두 번 기록될 수 있습니다. 이 범위만 "
            "쓰려면 `artibot uninstall claude-code --scope user`을(를) 실행하세요.") in said.out.splitlines(), said.out


def test_the_domains_table_s_refusals_in_korean() -> None:
    from artibot.hookpath.router.domains import DomainTable

    with pytest.raises(InvalidInput) as info:
        DomainTable.from_mapping({"Bad Name": ["x"], "docs": "typo", "ops": ["--"]})
    assert str(info.value) == ("invalid domain keywords: domains: domain name 'Bad Name' must be lower-case letters, "
                               "digits, - or _ (at most 40); domains.docs must be a list of keywords; domains.ops: "
                               "keyword '--' has no letters or digits")
    assert say_error("ko", info.value) == (
        "도메인 키워드가 잘못되었습니다: domains: 도메인 이름 'Bad Name'은(는) 소문자, 숫자, - 또는 _여야 합니다 (최대 40자); "
        "domains.docs은(는) 키워드 목록이어야 합니다; domains.ops: 키워드 '--'에 글자나 숫자가 없습니다")
    with pytest.raises(InvalidInput) as info:
        DomainTable.from_json({"schema_version": 2, "domains": {}})
    assert str(info.value) == "domains.json: schema_version must be 1, not 2"
    assert say_error("ko", info.value) == "domains.json: schema_version은 1이어야 합니다 (2은(는) 안 됨)"


def test_the_command_prefix_and_the_crontab_refusals_in_korean(tmp_path: Path) -> None:
    from artibot.config.settings import ScheduleSettings
    from artibot.integrations.claude_code.templates import check_command_prefix
    from artibot.integrations.schedule import plan_schedule, schedule_lines

    refusals: list[tuple[ArtibotError, str]] = []
    for call, english in (
        (lambda: check_command_prefix("/opt/a`b"), "the artibot command prefix '/opt/a`b' contains '`', which cannot "
         "be written into the /learn command file; install artibot at a path without it"),
        (lambda: check_command_prefix(" "), "the artibot command prefix is empty"),
        (lambda: schedule_lines(ScheduleSettings(), "a # artibot:x", tmp_path),
         "the artibot command prefix 'a # artibot:x' cannot go into a crontab line"),
        (lambda: plan_schedule("", ["* * * * * true"]),
         "not an artibot crontab line (it must end in '# artibot:<name>'): '* * * * * true'"),
    ):
        with pytest.raises(ArtibotError) as info:
            call()
        assert str(info.value) == english
        refusals.append((info.value, english))
    for error, english in refusals:
        said = say_error("ko", error)
        assert korean(said) and said != english, said


def test_a_file_changed_since_the_plan_in_korean(tmp_path: Path) -> None:
    from artibot.integrations.claude_code.installer import apply, plan_install

    user, project = tmp_path / ".claude", tmp_path / "project"
    user.mkdir()
    project.mkdir()
    plan = plan_install(user_dir=user, project_dir=project)
    (user / "settings.json").write_text("{}")
    with pytest.raises(IntegrationError) as info:
        apply(plan)
    path = user / "settings.json"
    assert str(info.value) == (f"{path} changed since the plan was made; nothing more was written. Run the command "
                               "again.")
    assert say_error("ko", info.value) == f"계획을 세운 뒤 {path}이(가) 바뀌었습니다; 더 쓰지 않았습니다. 명령을 다시 실행하세요."


def test_every_client_s_restart_hint_has_korean(tmp_path: Path) -> None:
    from artibot.integrations.codex_cli.installer import hook_file as codex
    from artibot.integrations.cursor.installer import hook_file as cursor
    from artibot.integrations.gemini_cli.installer import hook_file as gemini

    for spec in (gemini(tmp_path, tmp_path), codex(tmp_path, tmp_path), cursor(tmp_path, tmp_path)):
        assert spec.restart_hint is not None
        said = said_message("ko", spec.restart_hint)
        assert korean(said) and said != str(spec.restart_hint), said
