"""More sentences the library words in English, in Korean: ``rollback``'s and ``route``'s
errors, the installer's notes, the team's messages.

Rules as in :mod:`artibot.cli.words_errors` (a pattern over the English sentence -> its
Korean), which reads them before its own, more general ones. Keys, values, paths, ids and
commands stay as the sentence names them.
"""

from __future__ import annotations

import re
from typing import Callable, Union

Replacement = Union[str, Callable[["re.Match[str]"], str]]

SENTENCES: list[tuple[str, Replacement]] = [
    # `artibot collect`
    (r"^stdin is empty: give one JSON object, a JSON array, or JSON lines$",
     "stdin이 비어 있습니다: JSON 객체 하나, JSON 배열 또는 JSON 줄을 주세요"),
    (r"^stdin holds a JSON (?P<t>\w+); give an object, an array, or JSON lines$",
     r"stdin에 JSON \g<t>이(가) 있습니다; 객체, 배열 또는 JSON 줄을 주세요"),
    (r"^(?P<o>--[\w-]+) cannot be combined with --stdin$", r"\g<o>은(는) --stdin과 함께 쓸 수 없습니다"),
    # `artibot route`, `artibot outcome` (artibot.store.round.pending_decisions)
    (r'^the request text is empty: give the text to route, e\.g\. artibot route "fix the login bug"$',
     '요청 텍스트가 비어 있습니다: 라우팅할 텍스트를 주세요. 예: artibot route "로그인 버그 고치기"'),
    # `artibot rollback` (artibot.round.rollback)
    (r"^round (?P<r>\S+) is (?P<s>[\w-]+), not applied; nothing to roll back$",
     lambda m: f"라운드 {m['r']}은(는) 적용되지 않았습니다 (상태: {_value(m['s'])}); 롤백할 것이 없습니다"),
    # commands' arguments
    (r"^(?P<c>config|schedule) takes (?P<a>.+?) or (?P<b>\w+), not (?P<v>'[^']*')$",
     r"\g<c>에는 \g<a> 또는 \g<b>만 쓸 수 있습니다 (\g<v>은(는) 안 됨)"),
    (r"^learning\.schedule\.enabled is false in the config; set it to true first$",
     "설정의 learning.schedule.enabled가 false입니다; 먼저 true로 바꾸세요"),
    (r"^unknown target (?P<t>'[^']*'): artibot installs into (?P<c>.+?)(?:; did you mean (?P<g>'[^']*')\?)?$",
     lambda m: f"알 수 없는 대상 {m['t']}: artibot은 {m['c'].replace(' or ', ', ')}에 설치합니다"
               + (f"; {m['g']}을(를) 뜻했나요?" if m["g"] else "")),
    (r"^--model is for (?P<c>.+?); (?P<x>claude-code) takes its models from (?P<k>\S+)$",
     r"--model은 \g<c>용입니다; \g<x>는 \g<k>에서 모델을 정합니다"),
    (r"^--model is for (?P<c>.+?); in (?P<a>\S+) the route is context only$",
     r"--model은 \g<c>용입니다; \g<a>에서 경로는 맥락으로만 전달됩니다"),
    (r"^--gateway is for claude-code and codex-cli; (?P<a>\S+) takes the route as context only$",
     r"--gateway는 claude-code와 codex-cli용입니다; \g<a>은(는) 경로를 맥락으로만 받습니다"),
    (r"^--gateway goes with the user scope: the model provider is in (?P<f>\S+)$",
     r"--gateway는 user 범위에서만 쓸 수 있습니다: 모델 제공자는 \g<f>에 있습니다"),
    (r"^(?P<f>\S+) is not valid TOML \((?P<e>.+)\); artibot left it untouched$",
     r"\g<f>은(는) 올바른 TOML이 아닙니다 (\g<e>); artibot은 파일을 건드리지 않았습니다"),
    (r"^(?P<f>\S+) is not UTF-8 text; artibot left it untouched$",
     r"\g<f>은(는) UTF-8 텍스트가 아닙니다; artibot은 파일을 건드리지 않았습니다"),
    (r"^(?P<f>\S+): the provider (?P<p>'[^']*') needs base_url and env_key \(the variable that holds its API key\) "
     r"for its requests to go through the gateway$",
     r"\g<f>: 제공자 \g<p>의 요청이 게이트웨이를 거치려면 base_url과 env_key(API 키를 담은 환경 변수)가 필요합니다"),
    (r"^(?P<f>\S+): the provider (?P<p>'[^']*') speaks wire_api = (?P<w>'[^']*'); the gateway speaks the Responses "
     r"API only \(wire_api = \"responses\"\)$",
     r"\g<f>: 제공자 \g<p>은(는) wire_api = \g<w>을(를) 씁니다; 게이트웨이는 Responses API만 지원합니다 "
     r"(wire_api = \"responses\")"),
    (r"^(?P<f>\S+): model_provider (?P<p>'[^']*') is not a provider the gateway can forward to \(define it under "
     r"\[model_providers\] with base_url and env_key\)$",
     r"\g<f>: model_provider \g<p>은(는) 게이트웨이가 전달할 수 있는 제공자가 아닙니다 ([model_providers]에 "
     r"base_url과 env_key로 정의하세요)"),
    (r"^(?P<f>\S+): model_provider is already 'artibot' without artibot's block; set it back to your own provider "
     r"first$", r"\g<f>: artibot의 블록 없이 model_provider가 이미 'artibot'입니다; 먼저 원래 제공자로 되돌리세요"),
    (r"^the `crontab` command is not installed, so artibot cannot schedule the nightly learner; install cron "
     r"\(e\.g\. the `cron` or `cronie` package\) or run `(?P<c>[^`]+)` from another scheduler$",
     r"`crontab` 명령이 설치되어 있지 않아 artibot이 야간 학습을 예약할 수 없습니다; cron을 설치하거나 (예: `cron` "
     r"또는 `cronie` 패키지) 다른 스케줄러에서 `\g<c>`을(를) 실행하세요"),
    # the installer's notes (artibot.integrations: what a change does)
    (r"^add (?P<n>\d+) artibot hooks", r"artibot 훅 \g<n>개 추가"),
    (r"^remove (?P<n>\d+) artibot hooks", r"artibot 훅 \g<n>개 삭제"),
    (r", replacing (?P<n>\d+) from an earlier install", r", 이전 설치의 훅 \g<n>개 교체"),
    (r" \((?P<n>\d+) other hooks? kept\)", r" (다른 훅 \g<n>개 유지)"),
    (r"; the file is re-serialised, see the diff", "; 파일을 다시 직렬화합니다, diff 참고"),
    (r"; restored byte for byte from (?P<f>\S+)$", r"; \g<f>에서 바이트 그대로 복원"),
    (r"; nothing else in it, artibot created it", "; 다른 내용이 없고 artibot이 만든 파일"),
    (r"^artibot hooks already installed$", "artibot 훅이 이미 설치됨"), (r"^no artibot hooks found$", "artibot 훅 없음"),
    (r"^no (?:settings|hook) file$", "설정 파일 없음"),
    (r"^new version of (?:the )?(?P<c>/\S+?)(?: command)?$", r"\g<c> 명령의 새 버전"),
    (r"^(?P<c>/\S+?)(?: command)? up to date$", r"\g<c> 명령 최신 상태"),
    (r"^no (?P<c>/\S+) command$", r"\g<c> 명령 없음"),
    (r"^not artibot's (?P<c>/\S+?)(?: command)?; left alone$", r"artibot의 \g<c> 명령이 아님; 그대로 둠"),
    (r"^the (?P<c>/\S+) command$", r"\g<c> 명령"),
    (r"Claude Code no longer goes through the artibot gateway \(port (?P<p>\d+)\)",
     r"Claude Code가 더 이상 artibot 게이트웨이(포트 \g<p>)를 거치지 않음"),
    (r"Claude Code's gateway moves from port (?P<a>\d+) to port (?P<b>\d+): env (?P<e>\S+)",
     r"Claude Code의 게이트웨이가 포트 \g<a>에서 포트 \g<b>(으)로 옮겨감: env \g<e>"),
    (r"Claude Code goes through the artibot gateway: env (?P<e>\S+)", r"Claude Code가 artibot 게이트웨이를 거침: env \g<e>"),
    (r"Codex CLI no longer goes through the artibot gateway \(port (?P<p>\d+)\)",
     r"Codex CLI가 더 이상 artibot 게이트웨이(포트 \g<p>)를 거치지 않음"),
    (r"^Codex CLI goes through the artibot gateway: model_provider = (?P<m>'[^']*'), base_url (?P<u>\S+), "
     r"forwarding to (?P<t>\S+) with the key in (?P<k>\S+)",
     r"Codex CLI가 artibot 게이트웨이를 거침: model_provider = \g<m>, base_url \g<u>, 키는 \g<k>에 둔 채 "
     r"\g<t>(으)로 전달"),
    (r"^model provider left as it is$", "모델 제공자는 그대로 둠"),
    (r"^the gateway forwards Codex CLI's requests to (?P<u>\S+)$", r"게이트웨이가 Codex CLI의 요청을 \g<u>(으)로 전달"),
    (r"^OpenAI upstream kept already$", "OpenAI 업스트림이 이미 기록됨"),
    (r"^no OpenAI upstream kept$", "기록된 OpenAI 업스트림 없음"),
    (r"^the OpenAI upstream the gateway kept$", "게이트웨이가 기록한 OpenAI 업스트림"),
    (r"^no artibot model provider$", "artibot 모델 제공자 없음"),
    (r"^artibot model provider already installed$", "artibot 모델 제공자가 이미 설치됨"),
    # the gateway
    (r"^--port must be from 1 to 65535, not (?P<v>\S+)$", r"--port는 1부터 65535까지여야 합니다 (\g<v>은(는) 안 됨)"),
    # the team
    (r"^(?P<h>\S+) is not a team member: run `(?P<c>[^`]+)` first$",
     r"\g<h>은(는) 팀 멤버가 아닙니다: 먼저 `\g<c>`을(를) 실행하세요"),
    (r"^--yes and --unattended exclude each other: choose who answers the checkpoints$",
     "--yes와 --unattended는 함께 쓸 수 없습니다: 체크포인트에 누가 답할지 고르세요"),
]

_VALUE = {"deferred": "검토 대기", "reset": "초기화됨", "pending": "대기 중", "discarded": "버려짐",
          "rolled-back": "롤백됨", "dry-run": "시험 실행", "nothing": "없음"}


def _value(word: str) -> str:
    return _VALUE.get(word, word)
