"""The words that come from elsewhere, in Korean: the command-line parser's (click's) errors and
help headings. artibot's own sentences are messages (:mod:`artibot.messages`) or keyed words;
only text artibot does not word itself is matched here, with a pattern over the parser's
English -> its Korean. The team database's own reasons (PostgreSQL's) are quoted as the server
words them, untranslated.
"""

from __future__ import annotations

import re
from typing import Callable, Union

Replacement = Union[str, Callable[["re.Match[str]"], str]]

CLICK_ERRORS: list[tuple[str, Replacement]] = [
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
]
"""A usage error as click words it, part by part (a line may hold several)."""

CLICK_HELP: dict[str, list[tuple[str, str]]] = {"ko": [
    (r"^Usage: ", "사용법: "), (r"\[OPTIONS\]", "[옵션]"), (r"COMMAND \[ARGS\]\.\.\.", "명령 [인자]..."),
    (r"^Arguments:$", "인자:"), (r"^Options:$", "옵션:"), (r"^Commands:$", "명령:"),
    (r"Show this message and exit\.", "이 도움말을 보여 주고 끝냅니다."),
    (r"\[default: (?P<d>[^\]]*)\]", r"[기본값: \g<d>]"), (r"\[required\]", "[필수]"),
    (r"\[env var: (?P<e>[^\]]*)\]", r"[환경 변수: \g<e>]"),
    (r"^Try '(?P<c>[^']+)' for help\.$", r"도움말은 '\g<c>'"),
    # the parameters' types, as typer names them
    (r"<int range>", "<정수 범위>"), (r"<float range>", "<숫자 범위>"), (r"<int>", "<정수>"), (r"<float>", "<숫자>"),
    (r"<str>", "<문자열>"), (r"<list\[str\]>", "<문자열 목록>"), (r"<path>", "<경로>"), (r"<bool>", "<참/거짓>"),
]}
"""A help screen's headings and the parameters' types, as click and typer word them."""
