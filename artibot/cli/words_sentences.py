"""More sentences the library words in English, in Korean: a record's validation problems,
the config's validators' problems, the team's messages.

Rules as in :mod:`artibot.cli.words_errors` (a pattern over the English sentence -> its
Korean), which reads them before its own, more general ones. Keys, values, paths, ids and
commands stay as the sentence names them.
"""

from __future__ import annotations

import re
from typing import Callable, Union

Replacement = Union[str, Callable[["re.Match[str]"], str]]

_V = r"(?P<v>.+?)"  # a value as the library quotes it, up to the end of the problem


SENTENCES: list[tuple[str, Replacement]] = [
    # a record's validation (artibot.experience), one problem at a time
    (r"(?P<k>[\w.\[\]]+) is required: a number from 0 to 1$", r"\g<k>이(가) 필요합니다: 0부터 1까지의 숫자"),
    (r"(?P<k>[\w.\[\]]+) is required$", r"\g<k>이(가) 필요합니다"),
    (r"(?P<k>[\w.\[\]]+) must be a number (?:from 0 to 1|in \(0, 1\])(?P<null> or null)?, not " + _V + "$",
     lambda m: f"{m['k']}은(는) {'0 초과 1 이하' if 'in (0' in m.group() else '0부터 1까지'}의 숫자"
               f"{'나 null' if m['null'] else ''}여야 합니다 ({m['v']}은(는) 안 됨)"),
    (r"^id must be a non-empty string of at most 200 characters, not " + _V + "$",
     r"id는 200자 이하의 비어 있지 않은 문자열이어야 합니다 (\g<v>은(는) 안 됨)"),
    (r"^timestamp must be (?:an )?ISO 8601 (?:string )?with a timezone(?: \(e\.g\. (?P<e>\S+)\))?, not " + _V + "$",
     lambda m: "timestamp는 시간대가 있는 ISO 8601 시각이어야 합니다" + (f" (예: {m['e']})" if m["e"] else "")
               + f" ({m['v']}은(는) 안 됨)"),
    (r"^session_id must be a string or null, not " + _V + "$",
     r"session_id는 문자열이나 null이어야 합니다 (\g<v>은(는) 안 됨)"),
    (r"^input must be a string, not (?P<t>\w+)$", r"input은 문자열이어야 합니다 (\g<t>은(는) 안 됨)"),
    (r"^domain must be a non-empty string of at most 64 characters \(e\.g\. (?P<e>[^)]+)\), not " + _V + "$",
     r"domain은 64자 이하의 비어 있지 않은 문자열이어야 합니다 (예: \g<e>) (\g<v>은(는) 안 됨)"),
    (r"^latency_ms must be a number >= 0, not " + _V + "$", r"latency_ms는 0 이상의 숫자여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"^pattern must be a non-empty string of at most 200 characters or null, not " + _V + "$",
     r"pattern은 200자 이하의 비어 있지 않은 문자열이나 null이어야 합니다 (\g<v>은(는) 안 됨)"),
    (r"^(?P<k>\S+) must be a finite number, not " + _V + "$", r"\g<k>은(는) 유한한 숫자여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"^(?P<k>\S+) must be an integer that fits in 64 bits, not " + _V + "$",
     r"\g<k>은(는) 64비트에 들어가는 정수여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"^(?P<k>\S+) nests deeper than (?P<n>\d+) levels$", r"\g<k>은(는) \g<n>단계보다 깊게 중첩되어 있습니다"),
    (r"^field name (?P<k>.+) is not a string$", r"필드 이름 \g<k>은(는) 문자열이 아닙니다"),
    (r"^an experience must be a JSON object, not (?P<t>\w+)$", r"경험은 JSON 객체여야 합니다 (\g<t>은(는) 안 됨)"),
    (r"^schema_version (?P<n>\S+) is newer than this artibot understands \((?P<m>\d+)\); upgrade artibot$",
     r"schema_version \g<n>은(는) 이 artibot이 아는 버전(\g<m>)보다 새롭습니다; artibot을 업그레이드하세요"),
    (r"^… and (?P<n>\d+) more$", r"… 외 \g<n>개"),
    # the config's validators (artibot.config.validators), as a key's problem
    (r"(?P<k>\S+) is not a key artibot reads \(known: (?P<n>[^)]*)\); it is ignored",
     r"\g<k>은(는) artibot이 읽는 키가 아닙니다 (알려진 키: \g<n>); 무시합니다"),
    (r"(?P<k>[\w.]+) must be an object with \"effort\" and/or \"model\", not " + _V + "$",
     r'\g<k>은(는) "effort"나 "model"(또는 둘 다)을 가진 객체여야 합니다 (\g<v>은(는) 안 됨)'),
    (r"(?P<k>[\w.]+) must be null \(keep the client's\) or one of (?P<o>.+?), not " + _V + "$",
     lambda m: f"{m['k']}은(는) null(클라이언트의 값 유지)이나 {', '.join(f'`{o}`' for o in m['o'].split(', '))} 중 "
               f"하나여야 합니다 ({m['v']}은(는) 안 됨)"),
    (r"(?P<k>[\w.]+) must be null \(keep the client's\) or a model name, not " + _V + "$",
     r"\g<k>은(는) null(클라이언트의 값 유지)이나 모델 이름이어야 합니다 (\g<v>은(는) 안 됨)"),
    (r"(?P<k>[\w.]+) must have 5 fields \(minute hour day-of-month month day-of-week\)",
     r"\g<k>에는 필드 5개(분 시 일 월 요일)가 있어야 합니다"),
    (r"(?P<k>[\w.]+) must be a string \(got", r"\g<k>은(는) 문자열이어야 합니다 (받은 값:"),
    (r"field (?P<f>\S+) (?P<t>'[^']*') is not a number, range, list, step or \*",
     r"\g<f> 필드의 \g<t>은(는) 숫자, 범위, 목록, 간격 또는 *가 아닙니다"),
    (r"field (?P<f>\S+) value (?P<n>\S+) is outside (?P<r>\S+)", r"\g<f> 필드의 값 \g<n>이(가) \g<r> 범위 밖입니다"),
    (r"field (?P<f>\S+) (?P<t>'[^']*') has a step of 0", r"\g<f> 필드의 \g<t>은(는) 간격이 0입니다"),
    (r"field (?P<f>\S+) (?P<t>'[^']*') has a range that runs backwards", r"\g<f> 필드의 \g<t>은(는) 범위가 거꾸로입니다"),
    (r" \(got (?P<v>.+)\)$", r" (받은 값: \g<v>)"),
]
