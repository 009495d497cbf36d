"""The commands' own refusals, the installer's notes and why a turn took its route, said in
Korean from their messages: each line exactly as it reads, its keys, values, paths and commands
as the English names them (and the English as it always was)."""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot import learn
from artibot.cli.words_errors import said_message, say_error
from artibot.errors import ArtibotError, IntegrationError
from artibot.messages import Message, render
from tests.cli.test_korean import korean_home

NOTHING = " (아무것도 기록하지 않았습니다)"


def _say_in(home: Path, lang: str) -> None:
    from artibot.cli import words

    home.mkdir(parents=True, exist_ok=True)
    (home / "artibot.config.json").write_text(f'{{"lang": "{lang}"}}')
    words._LANG.clear()  # the session's language is read once per data home


@pytest.mark.parametrize(("argv", "stdin", "english", "korean"), [
    (("collect", "--stdin"), b"", "stdin is empty: give one JSON object, a JSON array, or JSON lines (nothing was "
     "written)", "stdin이 비어 있습니다: JSON 객체 하나, JSON 배열 또는 JSON 줄을 주세요" + NOTHING),
    (("collect", "--stdin"), b"5", "stdin holds a JSON int; give an object, an array, or JSON lines (nothing was "
     "written)", "stdin에 JSON int이(가) 있습니다; 객체, 배열 또는 JSON 줄을 주세요" + NOTHING),
    (("collect", "--stdin", "--domain", "docs"), b"", "--domain cannot be combined with --stdin (nothing was written)",
     "--domain은(는) --stdin과 함께 쓸 수 없습니다" + NOTHING),
    (("route", " "), b"", 'the request text is empty: give the text to route, e.g. artibot route "fix the login bug"',
     '요청 텍스트가 비어 있습니다: 라우팅할 텍스트를 주세요. 예: artibot route "로그인 버그 고치기"'),
    (("config", "bogus"), b"", "config takes show or path, not 'bogus'",
     "config에는 show 또는 path만 쓸 수 있습니다 ('bogus'은(는) 안 됨)"),
    (("schedule", "bogus"), b"", "schedule takes show, install or remove, not 'bogus'",
     "schedule에는 show, install 또는 remove만 쓸 수 있습니다 ('bogus'은(는) 안 됨)"),
    (("install", "claude-code", "--model", "system1=x"), b"",
     "--model is for gemini-cli; claude-code takes its models from gateway.profiles",
     "--model은 gemini-cli용입니다; claude-code는 gateway.profiles에서 모델을 정합니다"),
    (("install", "cursor", "--model", "system1=x", "--dry-run"), b"",
     "--model is for gemini-cli; in cursor the route is context only",
     "--model은 gemini-cli용입니다; cursor에서 경로는 맥락으로만 전달됩니다"),
    (("install", "cursor", "--gateway", "--dry-run"), b"",
     "--gateway is for claude-code and codex-cli; cursor takes the route as context only",
     "--gateway는 claude-code와 codex-cli용입니다; cursor은(는) 경로를 맥락으로만 받습니다"),
    (("install", "codex-cli", "--scope", "project", "--gateway", "--dry-run"), b"",
     "--gateway goes with the user scope: the model provider is in $CODEX_HOME/config.toml",
     "--gateway는 user 범위에서만 쓸 수 있습니다: 모델 제공자는 $CODEX_HOME/config.toml에 있습니다"),
    (("install", "claud-code"), b"",
     "unknown target 'claud-code': artibot installs into claude-code, gemini-cli, codex-cli or cursor; did you mean "
     "'claude-code'?",
     "알 수 없는 대상 'claud-code': artibot은 claude-code, gemini-cli, codex-cli, cursor에 설치합니다; 'claude-code'을(를) "
     "뜻했나요?"),
    (("history", "-n", "abc"), b"", None, " ('artibot history --help' 참고)"),
    (("status", "--home", "x"), b"", None, "; --home은 명령 앞에 씁니다: artibot --home DIR status …"),
])
def test_a_commands_refusal_in_korean(cli, artibot_home: Path, argv: tuple[str, ...], stdin: bytes,
                                      english: str | None, korean: str) -> None:
    said = cli(*argv, stdin=stdin)
    assert said.code == 2 and said.err.count("\n") == 1, said
    if english is not None:
        assert said.err == f"artibot: {english}\n"
    _say_in(artibot_home, "ko")
    said = cli(*argv, stdin=stdin)
    assert said.code == 2, said
    if english is not None:
        assert said.err == f"artibot: {korean}\n"
    else:  # the parser's own words, then artibot's
        assert said.err.startswith("artibot: ") and said.err.endswith(korean + "\n"), said.err


def test_a_round_that_was_not_applied_is_said_with_its_status(cli, artibot_home: Path) -> None:
    from artibot.store.home import Home
    from artibot.store.round import snapshots

    korean_home(artibot_home)
    applied = learn(answers="defaults")
    assert applied.status == "applied" and applied.round_id
    snapshots.mark(Home(artibot_home), applied.round_id, "interrupted")
    said = cli("rollback", applied.round_id)
    assert said.err == (f"artibot: 라운드 {applied.round_id}은(는) 적용되지 않았습니다 (상태: 중단됨); 롤백할 것이 "
                        "없습니다\n"), said.err
    _say_in(artibot_home, "en")
    assert cli("rollback", applied.round_id).err == (f"artibot: round {applied.round_id} is interrupted, not applied; "
                                                     "nothing to roll back\n")


def test_the_gateways_port_in_korean(artibot_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from artibot.cli.gateway_main import main

    _say_in(artibot_home, "ko")
    assert main(["--port", "70000"]) == 2
    assert capsys.readouterr().err == "artibot: --port는 1부터 65535까지여야 합니다 (70000은(는) 안 됨)\n"


def test_no_crontab_in_korean() -> None:
    from artibot.integrations.schedule import SystemCrontab

    with pytest.raises(IntegrationError) as missing:
        SystemCrontab("no-such-crontab").read()
    assert str(missing.value) == (
        "the `no-such-crontab` command is not installed, so artibot cannot schedule the nightly learner; install cron "
        "(e.g. the `cron` or `cronie` package) or run `artibot learn --unattended` from another scheduler")
    assert say_error("ko", missing.value) == (
        "`no-such-crontab` 명령이 설치되어 있지 않아 artibot이 야간 학습을 예약할 수 없습니다; cron을 설치하거나 (예: `cron` "
        "또는 `cronie` 패키지) 다른 스케줄러에서 `artibot learn --unattended`을(를) 실행하세요")


def test_the_codex_config_refusals_in_korean(tmp_path: Path) -> None:
    from artibot.integrations.codex_cli import provider

    path = tmp_path / "config.toml"
    cases = [
        (b'model_provider = "corp"\n[model_providers.corp]\nbase_url = "https://x.example"\nenv_key = "K"\n'
         b'wire_api = "chat"\n',
         f"{path}: the provider 'corp' speaks wire_api = 'chat'; the gateway speaks the Responses API only "
         '(wire_api = "responses")',
         f"{path}: 제공자 'corp'은(는) wire_api = 'chat'을(를) 씁니다; 게이트웨이는 Responses API만 지원합니다 "
         '(wire_api = "responses")'),
        (b'model_provider = "elsewhere"\n',
         f"{path}: model_provider 'elsewhere' is not a provider the gateway can forward to (define it under "
         "[model_providers] with base_url and env_key)",
         f"{path}: model_provider 'elsewhere'은(는) 게이트웨이가 전달할 수 있는 제공자가 아닙니다 ([model_providers]에 "
         "base_url과 env_key로 정의하세요)"),
        (b'model_provider = "artibot"\n',
         f"{path}: model_provider is already 'artibot' without artibot's block; set it back to your own provider first",
         f"{path}: artibot의 블록 없이 model_provider가 이미 'artibot'입니다; 먼저 원래 제공자로 되돌리세요"),
        (b"\xff\xfe", f"{path} is not UTF-8 text; artibot left it untouched",
         f"{path}은(는) UTF-8 텍스트가 아닙니다; artibot은 파일을 건드리지 않았습니다"),
    ]
    for content, english, korean in cases:
        path.write_bytes(content)
        with pytest.raises(ArtibotError) as refused:
            provider.change(path, 41470, install=True)
        assert (str(refused.value), say_error("ko", refused.value)) == (english, korean)


def test_the_installers_notes_in_korean(tmp_path: Path) -> None:
    from artibot.cli.install_view import _summary
    from artibot.integrations import json_hooks
    from artibot.integrations.claude_code.installer import apply, plan_install, plan_uninstall
    from artibot.integrations.gemini_cli.installer import hook_file

    user, project = tmp_path / "home" / ".claude", tmp_path / "project"
    user.mkdir(parents=True)
    project.mkdir()
    (user / "settings.json").write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]}}')
    dirs = {"user_dir": user, "project_dir": project}
    plan = plan_install(gateway_port=41470, **dirs)
    assert [c.note for c in plan.changes] == [
        "add 7 artibot hooks (1 other hook kept); Claude Code goes through the artibot gateway: env "
        "ANTHROPIC_BASE_URL=http://127.0.0.1:41470; the file is re-serialised, see the diff", "the /learn command"]
    assert [said_message("ko", c.said) for c in plan.changes if c.said] == [
        "artibot 훅 7개 추가 (다른 훅 1개 유지); Claude Code가 artibot 게이트웨이를 거침: env "
        "ANTHROPIC_BASE_URL=http://127.0.0.1:41470; 파일을 다시 직렬화합니다, diff 참고", "/learn 명령"]
    apply(plan)
    again = plan_install(gateway_port=41473, **dirs)
    assert [said_message("ko", c.said) for c in again.changes if c.said] == [
        "Claude Code의 게이트웨이가 포트 41470에서 포트 41473(으)로 옮겨감: env ANTHROPIC_BASE_URL=http://127.0.0.1:41473",
        "/learn 명령 최신 상태"]
    gone = plan_uninstall(**dirs)
    assert [said_message("ko", c.said) for c in gone.changes if c.said] == [
        "artibot 훅 7개 삭제 (다른 훅 1개 유지); Claude Code가 더 이상 artibot 게이트웨이(포트 41470)를 거치지 않음; "
        "{}에서 바이트 그대로 복원".format("settings.json.artibot-backup"), "/learn 명령"]
    assert gone.changes[0].says("install.claude_gateway_off") and not gone.changes[1].says("install.claude_gateway_off")

    gemini = hook_file(tmp_path / "home" / ".gemini", project)
    fresh = json_hooks.plan(gemini, "user", "artibot", install=True, command="artibot", project_dir=project)
    assert [c.note for c in fresh.changes] == ["add 5 artibot hooks (0 other hooks kept)", "the /learn command"]
    lines = _summary(fresh, "ko")
    assert "artibot 훅 5개 추가 (다른 훅 0개 유지)" in lines[0] and "/learn 명령" in lines[1], lines


@pytest.mark.parametrize(("record", "korean"), [
    ({"routed_to": "system2", "complexity": 0.72, "threshold": 0.4}, "복잡도 0.72 ≥ 임계값 0.40"),
    ({"routed_to": "system1", "complexity": 0.72, "threshold": 0.4, "propensity": 0.05},
     "탐색: 복잡도 0.72 ≥ 임계값 0.40, 반대 경로로 보냄"),
    ({"routed_to": "system2", "route_reason": "forced"}, "요청이 깊은 사고를 요구합니다"),
    ({"routed_to": "system1", "pattern": "docs:fix:typo", "route_reason": "cache"},
     "패턴 docs:fix:typo이(가) System 1 캐시에 있습니다"),
    ({"routed_to": "system1", "pattern": "docs:fix:typo", "route_reason": "team-cache"},
     "패턴 docs:fix:typo이(가) 팀의 System 1 표에 있습니다"),
    ({"routed_to": "system1"}, "기록된 임계값 없음"),
])
def test_why_a_turn_took_its_route_in_korean(record: dict[str, object], korean: str) -> None:
    from artibot.reports.turns import line_of, route_reason, route_said

    said = route_said(record)
    assert render(said, "ko") == korean
    assert line_of(record)["why"] == route_reason(record) == str(said)  # `turns --json` keeps its English


def test_a_snapshots_status_has_a_word_in_each_language() -> None:
    from typing import get_args

    from artibot.round.rollback import UNAPPLIED
    from artibot.store.round.snapshots import SnapshotStatus

    assert set(UNAPPLIED) == set(get_args(SnapshotStatus)) - {"applied", "rolled-back"}  # those are said apart
    assert [render(Message(f"rollback.status.{s}"), "ko") for s in UNAPPLIED] == ["적용 중", "중단됨"]
    assert all(str(Message(f"rollback.status.{s}")) == s for s in UNAPPLIED)
