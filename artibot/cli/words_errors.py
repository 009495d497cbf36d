"""The errors people commonly meet, and the other sentences the library words in English (a
doctor's finding, why a turn took its route), said in the configured language.

The library and the parser word their errors in English (a library error is also an API's
exception text); the command line's one error handler passes each line through :func:`say`,
which rewrites the known sentences into the session's language and keeps the keys, paths,
values and commands they name as they are. A sentence with no entry stays in English.
"""

from __future__ import annotations

import re
from typing import Callable, Union

from artibot.cli.words_doctor import DOCTOR
from artibot.cli.words_sentences import SENTENCES
from artibot.cli.words_team import TEAM

_Replacement = Union[str, Callable[["re.Match[str]"], str]]
_Rule = tuple["re.Pattern[str]", _Replacement]

DOING = {"write": "쓸", "read": "읽을", "access": "접근할", "create": "만들", "open": "열", "remove": "지울",
         "move": "옮길", "lock": "잠글", "replace": "바꿀"}
REASONS = {"Read-only file system": "읽기 전용 파일 시스템", "Permission denied": "권한이 없습니다",
           "No space left on device": "디스크 공간이 없습니다", "Disk quota exceeded": "디스크 할당량 초과",
           "Operation not permitted": "허용되지 않는 작업", "Not a directory": "폴더가 아닙니다",
           "Is a directory": "폴더입니다", "Input/output error": "입출력 오류",
           "No such file or directory": "파일이나 폴더가 없습니다", "Too many open files": "열린 파일이 너무 많습니다",
           "Address already in use": "주소가 이미 사용 중입니다",
           "Cannot assign requested address": "요청한 주소를 쓸 수 없습니다"}
ADVICE = {
    "the disk is full: free some space and run the command again (what was already stored is intact)":
        "디스크가 가득 찼습니다: 공간을 비우고 명령을 다시 실행하세요 (이미 저장된 것은 그대로입니다)",
    "the disk quota is used up: free some space and run the command again":
        "디스크 할당량을 다 썼습니다: 공간을 비우고 명령을 다시 실행하세요",
    "the file system is read-only: point ARTIBOT_HOME at a writable folder, or remount it":
        "파일 시스템이 읽기 전용입니다: ARTIBOT_HOME을 쓸 수 있는 폴더로 지정하거나 다시 마운트하세요",
    "permission denied: check that you own the data home and its files (chmod u+rw)":
        "권한이 없습니다: 데이터 홈과 그 파일의 소유자가 본인인지 확인하세요 (chmod u+rw)",
    "operation not permitted: check that you own the data home and its files":
        "허용되지 않는 작업입니다: 데이터 홈과 그 파일의 소유자가 본인인지 확인하세요",
    "fix the cause and run the command again": "원인을 고친 뒤 명령을 다시 실행하세요",
}


def _os_error(m: re.Match[str]) -> str:
    doing = DOING.get(m["doing"], m["doing"])
    reason = REASONS.get(m["reason"], m["reason"])
    return f"{m['where']}에 {doing} 수 없습니다: {reason}; {ADVICE.get(m['advice'], m['advice'])}"


def _unknown_key(m: re.Match[str]) -> str:
    guess = f"; '{m['guess']}'을(를) 뜻했나요?" if m["guess"] else ""
    camel = " (설정 키는 camelCase입니다)" if m["camel"] else ""
    return f"{m['key']}은(는) 알 수 없는 키입니다{guess}{camel} (허용: {m['allowed']})"


def _first_bad(m: re.Match[str]) -> str:
    """doctor's count of records that break the schema, with the first one's problems said too."""
    line, _, problems = m["f"].partition(": ")
    where = f"{line[5:]}번째 줄: " if line.startswith("line ") and problems else ""
    said = "; ".join(say("ko", p) for p in (problems if where else m["f"]).split("; "))
    return f"레코드 {m['n']}개가 스키마에 맞지 않아 `artibot learn`이 멈춥니다 (첫 번째: {where}{said})"


_KO: list[tuple[str, _Replacement]] = [
    # sentences that hold others (said by this module's own rules)
    (r"^(?P<n>\d+) record\(s\) break the schema, so `artibot learn` stops on them \(first: (?P<f>.+)\)$", _first_bad),
    (r"^the gateway cannot listen on (?P<a>\S+): (?P<why>.+) \(another program uses the port\? try --port\)$",
     lambda m: f"게이트웨이가 {m['a']}에서 들을 수 없습니다: {REASONS.get(m['why'], m['why'])} (다른 프로그램이 그 "
               "포트를 쓰나요? --port를 써 보세요)"),
    # the library
    (r"^invalid configuration in (?P<src>.+?): ", r"설정이 잘못되었습니다 (\g<src>): "),
    (r"^invalid configuration: ", "설정이 잘못되었습니다: "),
    (r"(?P<key>[\w.]+) is not a known key(?:; did you mean '(?P<guess>[^']+)'\?(?P<camel> \(the config's keys are "
     r"camelCase\))?)? \(allowed: (?P<allowed>[^)]*)\)", _unknown_key),
    (r"lang must be one of 'en', 'ko', not (?P<v>\S+)", r"lang은 'en', 'ko' 중 하나여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"(?P<key>[\w.]+) must be a number in (?P<range>[\[(][^\])]*[\])]), not (?P<v>[^;]+)",
     r"\g<key>은(는) \g<range> 범위의 숫자여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"(?P<key>[\w.]+) must be a whole number from (?P<lo>\S+) to (?P<hi>\S+), not (?P<v>[^;]+)",
     r"\g<key>은(는) \g<lo>부터 \g<hi>까지의 정수여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"(?P<key>[\w.]+) must be one of (?P<opts>.+?), not (?P<v>[^;]+)",
     r"\g<key>은(는) \g<opts> 중 하나여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"(?P<key>[\w.]+) must be true or false, not (?P<v>[^;]+)",
     r"\g<key>은(는) true 또는 false여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"(?P<key>[\w.]+) must be an object\b", r"\g<key>은(는) 객체여야 합니다"),
    (r"the top level must be a JSON object", "최상위는 JSON 객체여야 합니다"),
    (r"not valid JSON \((?P<why>.*)\)", r"올바른 JSON이 아닙니다 (\g<why>)"),
    (r"cannot read the file: (?P<why>.+)", lambda m: f"파일을 읽을 수 없습니다: {REASONS.get(m['why'], m['why'])}"),
    (r"^the data home (?P<root>.+?) does not exist: nothing has been recorded there\. Check --home \(it goes before "
     r"the command\) or ARTIBOT_HOME; the first hook or `artibot collect` creates it$",
     r"데이터 홈 \g<root>이(가) 없습니다: 아직 아무것도 기록되지 않았습니다. --home(명령 앞에 씁니다)이나 "
     r"ARTIBOT_HOME을 확인하세요; 첫 훅이나 `artibot collect`가 홈을 만듭니다"),
    (r"^cannot (?P<doing>\w+) (?P<where>.+?): (?P<reason>[^;]+); (?P<advice>.+)$", _os_error),
    (r"^interrupted; nothing half-written was kept$", "중단됨; 반쯤 쓰인 것은 남기지 않았습니다"),
    # doctor's findings
    (r"^(?P<what>folder|file) mode is (?P<have>\d+), expected (?P<want>\d+) \(only you may read artibot's data\)$",
     lambda m: f"{dict(folder='폴더', file='파일')[m['what']]} 권한이 {m['have']}입니다. {m['want']}이어야 합니다 "
               "(artibot의 데이터는 본인만 읽을 수 있어야 합니다)"),
    # why a turn took its route (artibot.reports.turns.route_reason)
    (r"^explored: (?P<why>.+), sent the other way$", r"탐색: \g<why>, 반대 경로로 보냄"),
    (r"complexity (?P<c>[\d.]+) (?P<s>[≥<]) threshold (?P<t>[\d.]+)", r"복잡도 \g<c> \g<s> 임계값 \g<t>"),
    (r"^the request asks for deliberate thinking$", "요청이 깊은 사고를 요구합니다"),
    (r"^pattern (?P<p>\S+) is in the System 1 cache$", r"패턴 \g<p>이(가) System 1 캐시에 있습니다"),
    (r"^no threshold recorded$", "기록된 임계값 없음"),
    # the note under `report cost` (artibot.learning.route_costs)
    ("^" + re.escape("all-System-2 prices each System 1 turn at System 2's mean cost per turn; System 2 turns are "
                     "the harder prompts, so the saving leans high; cache rewrites caused by route switches are "
                     "charged to System 1, so the saving is net of them") + "$",
     "모두 System 2일 때의 비용은 System 1의 각 턴을 System 2의 턴당 평균 비용으로 계산합니다; System 2의 턴은 더 "
     "어려운 프롬프트이므로 절약액은 높게 나오는 편입니다; 경로 전환으로 생긴 캐시 재기록은 System 1에 포함되므로 "
     "절약액은 그만큼을 뺀 값입니다"),
    ("^" + re.escape("a redo is a failed or escalated System 1 turn or a failed System 2 turn; System 2 alone "
                     "applies System 2's failure rate to every turn, but that rate is measured on the harder "
                     "prompts, so the extra redos lean low") + "$",
     "재요청은 실패했거나 상향된 System 1 턴, 또는 실패한 System 2 턴입니다; System 2만 썼을 때는 System 2의 "
     "실패율을 모든 턴에 적용하지만, 그 실패율은 더 어려운 프롬프트에서 측정되므로 추가 재요청은 낮게 나오는 "
     "편입니다"),
    # a round's closing line when nothing was applied (artibot.round.cycle, artibot.round.review)
    (r"^(?P<n>\d+) unprocessed experience\(s\), fewer than a batch of (?P<size>\d+); nothing to learn yet "
     r"\(--flush processes them anyway\)", r"미처리 경험 \g<n>개, 배치 크기 \g<size>개보다 적음; 아직 학습할 것 없음 "
     r"(--flush를 주면 그래도 처리)"),
    (r"^no unprocessed experience: nothing to learn yet \(your agent's next turns add them\)",
     "미처리 경험 없음: 아직 학습할 것 없음 (에이전트의 다음 턴들이 경험을 쌓습니다)"),
    (r"^(?P<n>\d+) unprocessed experience\(s\), too few to learn from even with --flush; nothing to learn yet",
     r"미처리 경험 \g<n>개, --flush로도 학습하기에는 너무 적음; 아직 학습할 것 없음"),
    (r"; rolled back interrupted round\(s\) (?P<r>.+)$", r"; 중단된 라운드를 되돌림: \g<r>"),
    (r"^dry run: nothing was written$", "시험 실행: 아무것도 기록하지 않음"),
    (r"^group data reset: nothing applied; the experiences stay unprocessed$",
     "그룹 데이터 초기화: 적용된 것 없음; 경험은 미처리로 남음"),
    (r"^round (?P<r>\S+) prepared and saved for review \(checkpoint (?P<n>\d) needs a human\): run `artibot "
     r"review` or /learn in Claude Code$", r"라운드 \g<r>을(를) 준비해 검토용으로 저장했습니다 (체크포인트 \g<n>에 "
     r"사람의 답이 필요): `artibot review` 또는 Claude Code의 /learn"),
    (r"^a round is waiting for review$", "라운드 하나가 검토를 기다립니다"),
    (r"^a round is already waiting for review; nothing new was prepared$",
     "라운드 하나가 이미 검토를 기다립니다; 새로 준비한 것 없음"),
    (r"^nothing is waiting for review; (?P<n>\d+) unprocessed experience\(s\), (?P<full>\d+) full batch\(es\) "
     r"ready: `artibot learn` starts a round$", r"검토를 기다리는 라운드 없음; 미처리 경험 \g<n>개, 전체 배치 "
     r"\g<full>개 준비됨: `artibot learn`이 라운드를 시작합니다"),
    (r"^nothing is waiting for review; (?P<n>\d+) unprocessed experience\(s\), (?P<have>\d+) of (?P<size>\d+) "
     r"collected for the next batch$", r"검토를 기다리는 라운드 없음; 미처리 경험 \g<n>개, 다음 배치를 위해 "
     r"\g<size>개 중 \g<have>개 모음"),
    (r"^nothing is waiting for review$", "검토를 기다리는 라운드 없음"),
    (r"^round (?P<r>\S+) discarded; its experiences stay unprocessed$",
     r"라운드 \g<r>을(를) 버렸습니다; 그 경험은 미처리로 남습니다"),
    # `artibot report` without its extra (artibot.cli.report_html)
    (r"^the report draws its charts with matplotlib, which artibot's environment lacks: (?P<c>.+)$",
     r"보고서는 matplotlib로 차트를 그리는데, artibot의 환경에 matplotlib가 없습니다: \g<c>"),
    # the parser (click)
    (r"^No such command '(?P<c>[^']+)'\.", r"'\g<c>' 명령이 없습니다."),
    (r" Did you mean (?P<m>.+)\?", r" \g<m>을(를) 뜻했나요?"),
    (r"^No such option: (?P<o>\S+)", r"\g<o> 옵션이 없습니다"),
    (r"\(Possible options: (?P<o>[^)]+)\)", r"(가능한 옵션: \g<o>)"),
    (r"^Missing argument '(?P<a>[^']+)'\.", r"인자 \g<a>이(가) 빠졌습니다."),
    (r"^Missing option '(?P<o>[^']+)'\.", r"옵션 \g<o>이(가) 빠졌습니다."),
    (r"^Option '(?P<o>[^']+)' requires an argument\.", r"옵션 \g<o>에는 값이 필요합니다."),
    (r"^Got unexpected extra arguments? \((?P<a>[^)]*)\)", r"예상하지 못한 추가 인자 (\g<a>)"),
    (r"^Invalid value for (?P<p>.+?): ", r"\g<p>의 값이 잘못되었습니다: "),
    (r"Input should be a valid (?P<t>integer|number|boolean)(?:, [a-z ]*[a-z])?",
     lambda m: f"{dict(integer='정수', number='숫자', boolean='참/거짓 값')[m['t']]}여야 합니다"),
    (r"Input should be (?P<rel>greater|less) than(?P<eq> or equal to)? (?P<n>\S+)",
     lambda m: f"{m['n']} {'이상' if m['eq'] and m['rel'] == 'greater' else '이하' if m['eq'] else '초과' if m['rel'] == 'greater' else '미만'}이어야 합니다"),
    (r"(?P<v>'[^']*'|\S+) is not a valid (?P<t>integer|float|boolean)\.",
     lambda m: f"{m['v']}은(는) 올바른 {dict(integer='정수', float='숫자', boolean='참/거짓 값')[m['t']]}이(가) "
               "아닙니다."),
    (r"(?P<v>'[^']*') is not one of (?P<opts>.+)\.$", r"\g<v>은(는) \g<opts> 중 하나가 아닙니다."),
    (r"(?P<v>\S+) is not in the range (?P<r>.+)\.$", r"\g<v>은(는) 범위 \g<r> 밖입니다."),
    (r" \(see '(?P<c>[^']+)'\)$", r" ('\g<c>' 참고)"),
    (r"; --home goes before the command: (?P<c>.+)$", r"; --home은 명령 앞에 씁니다: \g<c>"),
]
KO: list[_Rule] = [(re.compile(p), r) for p, r in SENTENCES + TEAM + DOCTOR + _KO]  # the specific sentences first

RULES: dict[str, list[_Rule]] = {"ko": KO}

_PROBLEM_AT = re.compile(r"^(?P<what>record|line) (?P<n>\d+): ")
PROBLEM_AT = {"ko": {"record": "레코드 {n}: ", "line": "{n}번째 줄: "}}
NOTHING_WRITTEN = {"en": " (nothing was written)", "ko": " (아무것도 기록하지 않았습니다)"}


def say(lang: str, message: str) -> str:
    """``message`` (one error line, without the ``artibot:`` prefix) in ``lang``."""
    for pattern, replacement in RULES.get(lang, ()):
        message = pattern.sub(replacement, message)
    return message


def say_problems(lang: str, problems: list[str], where: str | None) -> str:
    """A :class:`~artibot.errors.ValidationError`'s line in ``lang``, said one problem at a time
    (each names its record or line first, as the library words it)."""
    said = []
    for problem in problems:
        m = _PROBLEM_AT.match(problem)
        head = PROBLEM_AT.get(lang, {}).get(m["what"], m.group()).format(n=m["n"]) if m else ""
        said.append(head + say(lang, problem[m.end():] if m else problem))
    return (f"{where}: " if where else "") + "; ".join(said) + NOTHING_WRITTEN.get(lang, NOTHING_WRITTEN["en"])
