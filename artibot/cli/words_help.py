"""``--help`` in Korean: each command's help and each argument's and option's, and the
headings the parser prints around them.

Keyed by the command's path under ``artibot`` ("" for ``artibot`` itself, ``"team learn"``),
then ``" --option"`` (its first name) or ``" ARGUMENT"`` (its parameter name) for a
parameter. Read only when a help screen is shown (:mod:`artibot.cli.help_lang`); a text
with no entry stays as the command defines it.
"""

from __future__ import annotations

import re

from artibot.cli.words_foreign import CLICK_HELP

HELP: dict[str, dict[str, str]] = {"ko": {
    "": "AI 코딩 에이전트의 System 1 / System 2 라우터가 경험에서 배우게 합니다.",
    " --version": "버전을 보여 줍니다.",
    " --home": "데이터 홈 [기본값: $ARTIBOT_HOME, 없으면 ~/.claude/artibot].",
    " --install-completion": "현재 셸에 자동 완성을 설치합니다.",
    " --show-completion": "현재 셸의 자동 완성을 보여 줍니다 (복사하거나 설치를 바꿀 때).",
    "collect": "경험을 추가합니다. 잘못된 레코드가 하나라도 있는 묶음은 아무것도 쓰지 않습니다 (종료 코드 2).",
    "collect --stdin": "JSON 객체 하나, JSON 배열 또는 JSON 줄을 읽습니다.",
    "collect --input": "요청 텍스트 (저장하기 전에 익명화합니다).",
    "collect --complexity": "0부터 1까지.", "collect --routed-to": "`system1` 또는 `system2`.",
    "collect --outcome": "`success`, `escalated` 또는 `failed`.", "collect --confidence": "0부터 1까지.",
    "collect --propensity": "(0, 1] 범위.", "collect --timestamp": "시간대가 있는 ISO 8601 시각.",
    "collect --json": "저장한 레코드를 출력합니다.",
    "route": "현재 임계값과 System 1 캐시로 요청의 점수를 매기고 경로를 정합니다.",
    "route text": "요청 텍스트.", "route --domain": "분류를 건너뛰고 이 도메인을 씁니다.",
    "route --record": "결정을 대기 중으로 보관하고 그 id를 출력합니다.",
    "outcome": "기록된 결정을 완료해 경험으로 만듭니다.",
    "outcome decision_id": "`artibot route --record`가 출력한 id.",
    "outcome outcome": "`success`, `escalated`, `failed` 또는 `interrupted` (경로가 아닌 다른 이유로 끊긴 턴; 보관하되 "
                       "학습하지 않음).",
    "outcome --latency-ms": "기본값: 결정 이후 지난 시간.",
    "learn": "학습 라운드 한 번 (1–6단계), 사람이 답하는 체크포인트 세 개 (3, 4, 5단계 뒤).",
    "learn --yes": "미리 승인: 모든 체크포인트의 기본값을 택합니다.",
    "learn --unattended": "사람 없이: 라운드를 검토용으로 미룹니다 (learning.checkpoints.unattended가 "
                          "\"defaults\"이면 기본값을 택합니다).",
    "learn --dry-run": "모든 것을 보여 주고 아무것도 쓰지 않습니다.",
    "learn --flush": "마지막의 더 작은 배치도 처리합니다.",
    "learn --json": "보고서를 JSON으로 출력합니다 (질문은 stderr로).",
    "learn --quiet": "성공하면 아무것도 출력하지 않습니다 (cron용).",
    "review": "검토를 기다리는 라운드를 보여 주거나 답합니다.",
    "review --json": "열린 질문을 근거, 선택지, 기본값과 함께 나열합니다.",
    "review --answer": "N=선택: 1=accept|reset, 2=apply|revert, 3=auto, 3.PATTERN=auto|promote|demote|hold. "
                       "여러 번 쓸 수 있습니다.",
    "review --prepare": "대기 중인 라운드가 없으면 검토용 라운드를 준비합니다. --json과 함께: 요약으로 "
                        "(에이전트 대화에 맞는 크기).",
    "review --flush": "--prepare와 함께: 마지막의 더 작은 배치도 처리합니다.",
    "review --discard": "대기 중인 라운드를 버립니다 (기록됨; 적용되는 것 없음).",
    "review --interactive": "열린 질문을 하나씩 묻고 답을 stdin에서 읽습니다 (터미널에서는 기본).",
    "review --question": "체크포인트 N의 근거를 모든 행과 함께 보여 줍니다 (--json과 함께: 한 페이지씩, --page).",
    "review --page": "--question과 함께: 몇 번째 페이지인지.",
    "review --pattern": "체크포인트 3의 패턴 하나를 보여 줍니다 (--json과 함께: 모든 필드).",
    "status": "임계값, System 1 캐시, 개수, 마지막 라운드, 대기 중인 검토.",
    "history": "지난 라운드와 롤백, 오래된 순.", "history --limit": "마지막 N개만.",
    "rollback": "ROUND_ID 이전의 학습 상태를 복원합니다 (뒤의 라운드도 되돌립니다).\n\n"
                "터미널에서는 되돌릴 것을 보여 주고 먼저 묻습니다; --yes는 질문을 건너뜁니다.",
    "rollback round_id": "`artibot history`의 라운드 id, 또는 `last`.",
    "rollback --dry-run": "되돌릴 것을 보여 주고 아무것도 바꾸지 않습니다.", "rollback --yes": "확인을 묻지 않습니다.",
    "doctor": "데이터 홈의 모든 파일을 검사합니다.",
    "doctor --repair": "복구할 수 있는 것을 복구합니다; 손상된 사본은 옆으로 옮기고 지우지 않습니다.",
    "turns": "마지막 턴들: 시각, 에이전트, 프롬프트 (익명화), 도메인, 복잡도/임계값, 경로와 이유,\n"
             "게이트웨이의 effort와 모델, 결과, 토큰, 비용.",
    "turns -n": "턴 개수.", "turns --session": "이 세션의 턴만 (id 또는 그 앞부분).",
    "turns --follow": "턴이 들어오는 대로 계속 출력합니다.", "turns --json": "JSON (--follow와 함께: 한 줄에 객체 하나).",
    "config": "적용되는 설정과 그 설정을 가져온 파일을 출력합니다.",
    "config action": "`show` (적용되는 설정) 또는 `path` (사용 중인 파일).",
    "install": "artibot의 훅과 /learn 명령을 등록합니다.",
    "install target": "claude-code, gemini-cli, codex-cli 또는 cursor", "install --scope": "`user`, `project` 또는 `local`.",
    "install --dry-run": "바뀔 내용을 보여 주고 아무것도 쓰지 않습니다.",
    "install --gateway": "Claude Code의 요청을 로컬 게이트웨이로 보내 경로가 턴의 effort(와 모델)를 바꾸게 합니다; "
                         "--no-gateway는 그만둡니다. 기본값: 지금 그대로.",
    "install --port": "게이트웨이의 포트 (기본값: gateway.server.port).",
    "install --model": "gemini-cli: ROUTE=MODEL (`system1` 또는 `system2`), 그 경로의 요청이 쓰는 모델.",
    "uninstall": "`artibot install`이 추가한 것만 정확히 지웁니다.",
    "uninstall target": "claude-code, gemini-cli, codex-cli 또는 cursor", "uninstall --scope": "`user`, `project` 또는 `local`.",
    "schedule": "야간 학습과 주간 드리프트 검사를 위한 사용자 crontab 줄을 관리합니다.",
    "schedule action": "`show`, `install` 또는 `remove`.",
    "hook": "Claude Code 훅의 진입점 (payload는 stdin). 항상 0으로 끝납니다.",
    "hook event": "`session-start`, `user-prompt-submit`, `post-tool-use`, …",
    "demo": "임시 홈에서 생성한 데이터로 하는 독립 실행.",
    "demo --keep": "이 폴더에서 실행하고 남겨 둡니다 (기본은 임시 홈을 지웁니다).",
    "drift": "도메인마다 최근 결과를 이력과 비교합니다 (주간 드리프트 검사).",
    "gateway": "로컬 API 게이트웨이를 띄웁니다: 라우팅된 턴의 요청마다 그 경로의 프로필을 적용합니다.\n\n"
               "Claude Code가 ANTHROPIC_BASE_URL=http://127.0.0.1:PORT 로 이곳을 가리키게 하세요 (또는\n"
               "`artibot install claude-code --gateway`). 헤더나 본문은 기록하거나 저장하지 않습니다;\n"
               "턴의 토큰, 비용, 시간은 그 경험 레코드에 들어갑니다.",
    "gateway --port": "127.0.0.1의 포트 (기본값: gateway.server.port, 41470).",
    "gateway --upstream": "요청을 전달할 API (기본값: gateway.server.upstream).",
    "gateway --quiet": "아무것도 출력하지 않습니다 (훅이 띄울 때처럼).",
    "report": "기록된 턴에 대한 보고서.", "report --out": "페이지를 쓸 곳 [기본값: ./artibot-report.html].",
    "report --open": "웹 브라우저에서 엽니다.",
    "report cost": "경로별, 일별 비용 (게이트웨이를 거친 턴), 모든 턴이 System 2였을 때와 비교.",
    "team": "팀으로 학습: 공유 PostgreSQL에 경험을 모으고, 검토하는 라운드 하나.",
    "team init": "URL이 가리키는 데이터베이스에 팀 스키마를 만들거나 올립니다 (번호 붙은 마이그레이션).",
    "team init url": "postgresql://user@host/db?sslmode=… (비밀번호 없이)",
    "team init --roles": "최소 권한 역할을 만드는 SQL을 출력합니다.",
    "team join": "이 데이터 홈을 멤버로 만듭니다: 레코드를 보내고 팀의 상태를 가져옵니다.",
    "team join url": "팀 데이터베이스 URL (자격 증명: ~/.pgpass, PGPASSWORD 또는 서비스 파일)",
    "team push": "팀 데이터베이스가 아직 받지 않은 레코드를 보냅니다 (레코드 id 기준, 여러 번 해도 같음).",
    "team pull": "팀이 마지막으로 게시한 상태를 캐시합니다; 학습하지 않은 도메인은 거기서 시작합니다.",
    "team show": "마지막 턴에 대해 보낼 내용을 그대로 출력합니다.",
    "team learn": "모인 경험으로 팀 라운드 한 번 (검토자 역할), 체크포인트 세 개와 함께.",
    "team learn --yes": "미리 승인: 모든 체크포인트의 기본값을 택합니다.",
    "team learn --unattended": "라운드를 준비해 `team review`용으로 저장합니다.",
    "team learn --dry-run": "모든 것을 보여 주고 아무것도 쓰지 않습니다.",
    "team learn --flush": "배치보다 적은 레코드로도 학습합니다.",
    "team learn --url": "팀 데이터베이스 [기본값: 가입한 곳].",
    "team review": "검토를 기다리는 팀 라운드를 보여 주고 답합니다.",
    "team review --answer": "N=선택: 1=accept|reset, 2=apply|revert, 3=auto|promote|demote|hold 또는 "
                            "3.HASH=auto|promote|demote|hold. 여러 번 쓸 수 있습니다.",
    "team review --url": "팀 데이터베이스 [기본값: 가입한 곳].",
    "team rollback": "팀이 마지막으로 게시한 상태를 철회합니다; 그 이전 상태가 다시 팀의 상태가 됩니다.",
    "team rollback --yes": "묻지 않습니다.",
    "team retention": "오래된 달의 모인 경험을 지웁니다 (데이터베이스 소유자; 아직 학습하지 않은 행은 지우지 않음).",
    "team retention --months": "이번 달 이전으로 이만큼의 달을 남깁니다 [기본값: 팀의 retention_months].",
    "team retention --dry-run": "지울 것을 말하고 아무것도 지우지 않습니다.", "team retention --yes": "묻지 않습니다.",
    "team leave": "멤버를 그만둡니다; 자신의 임계값, 셀, 레코드는 그대로 남습니다.",
    "team status": "멤버 여부, 전송 대기열, 캐시된 팀 상태의 라운드와 나이.",
    "team status --rounds": "팀의 라운드도 나열합니다 (데이터베이스를 읽음).",
}}



def help_text(lang: str, key: str) -> str | None:
    """The help of ``key`` (a command's path, then a parameter) in ``lang``; None: as defined."""
    return HELP.get(lang, {}).get(key)


def headings(lang: str, text: str) -> str:
    """A rendered help screen with the parser's own words (Usage, Options, [default: …]) in ``lang``."""
    for pattern, replacement in CLICK_HELP.get(lang, ()):
        text = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    return text
