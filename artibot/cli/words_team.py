"""The team library's sentences (artibot.team: a push's and a pull's result, a round's report,
the reviewers' lock, retention, the database's refusals), in Korean.

Rules as in :mod:`artibot.cli.words_errors` (a pattern over the English sentence -> its
Korean). A sentence that holds another (a pull that cannot use a state, and why) is said by
its outer rule first; the inner one's rule, not anchored, says the rest. Versions, round ids,
counts, months and commands stay as the sentence names them.
"""

from __future__ import annotations

import re
from typing import Callable, Union

Replacement = Union[str, Callable[["re.Match[str]"], str]]

_PLACES = {"the default database": "기본 데이터베이스", "the local socket": "로컬 소켓"}


def _where(text: str) -> str:
    """``db.where(url)``'s "<database> on <host>" as "<host>의 <database>"."""
    database, on, host = text.rpartition(" on ")
    if not on:
        return text
    return f"{_PLACES.get(host, host)}의 {_PLACES.get(database, database)}"


_AT = r"(?:^|(?<=: ))"  # a sentence on its own, or the reason after another's colon (a push's last attempt)


def say_where(lang: str, text: str) -> str:
    """The team database as ``db.where`` names it (``team init``, ``team status``), in ``lang``."""
    return _where(text) if lang == "ko" else text


def _db(tail: str) -> Callable[["re.Match[str]"], str]:
    return lambda m: f"팀 데이터베이스({_where(m['w'])}){tail.format(**m.groupdict())}"


TEAM: list[tuple[str, Replacement]] = [
    # a push (artibot.team.push) and what it records as the last push
    (r"^nothing to push$", "보낼 것 없음"),
    (r"^(?P<s>\d+) record\(s\) sent, (?P<n>\d+) new to the team \((?P<d>\d+) already there\)(?=$|; )",
     r"레코드 \g<s>개 보냄, 팀에 새로 들어간 것 \g<n>개 (이미 있던 것 \g<d>개)"),
    (r"; (?P<n>\d+) refused by the team's database \(a name outside its alphabet, see (?P<d>\S+)\)$",
     r"; \g<n>개는 팀 데이터베이스가 거부했습니다 (알파벳 밖의 이름, \g<d> 참고)"),
    (r"^(?P<s>\d+) sent, (?P<q>\d+) queued: ", r"보냄 \g<s>개, 대기 \g<q>개: "),
    (r" \((?P<s>\d+) of (?P<n>\d+) record\(s\) sent before it failed\)$",
     r" (실패하기 전에 레코드 \g<n>개 중 \g<s>개를 보냄)"),
    # a pull (artibot.team.member)
    (r"^the team has published no state yet$", "팀이 아직 게시한 상태가 없습니다"),
    (r"^the team's state version (?P<v>\d+) \(round (?P<r>\S+)\) cannot be used \((?P<e>.+)\); this member keeps "
     r"its previous state$",
     r"팀의 상태 버전 \g<v> (라운드 \g<r>)을(를) 쓸 수 없습니다 (\g<e>); 이 멤버는 이전 상태를 유지합니다"),
    (r"^team state version (?P<v>\d+) \(round (?P<r>\S+)\) cached; (?P<n>\d+) domain\(s\) start from the team's "
     r"thresholds(?=$|; )",
     r"팀 상태 버전 \g<v> (라운드 \g<r>)을(를) 캐시했습니다; 도메인 \g<n>개가 팀의 임계값에서 시작합니다"),
    (r"; (?P<n>\d+) domain name\(s\) outside (?P<a>\S+) set aside$",
     r"; \g<a> 밖의 도메인 이름 \g<n>개는 따로 두었습니다"),
    # a published state's problems (artibot.learning.team_pool), inside the sentences above and below
    (r"the team state must be a JSON object, not (?P<t>\w+)", r"팀 상태는 JSON 객체여야 합니다 (\g<t>은(는) 안 됨)"),
    (r"the team state's schema is (?P<s>.+?); this artibot reads (?P<n>\S+?)(?=\)|;|$)",
     r"팀 상태의 스키마가 \g<s>입니다; 이 artibot은 \g<n>을(를) 읽습니다"),
    (r"the team state's cells must be an object of domains", "팀 상태의 cells는 도메인마다의 객체여야 합니다"),
    (r"the team state's cells of (?P<d>'[^']*') are not numbers", r"팀 상태의 \g<d> cells가 숫자가 아닙니다"),
    (r"the team state's cells of (?P<d>'[^']*') must be (?P<b>\d+) rows of n1, k1, n2, k2 with 0 <= k <= n",
     r"팀 상태의 \g<d> cells는 0 <= k <= n인 n1, k1, n2, k2의 행 \g<b>개여야 합니다"),
    (r"the team round's pool has no whole number (?P<k>'[^']*')", r"팀 라운드의 풀에 정수 \g<k>이(가) 없습니다"),
    # a team round (artibot.team.round)
    (r"^another reviewer is running a team round \((?P<h>.+)\); only one round runs at a time: try again when it "
     r"has finished$", r"다른 검토자가 팀 라운드를 진행 중입니다 (\g<h>); 라운드는 한 번에 하나만 진행됩니다: 끝난 뒤 "
     r"다시 시도하세요"),
    (r"\((?P<u>[^()]+), since (?P<t>\d{4}-\d\d-\d\d \d\d:\d\d UTC)\)", r"(\g<u>, \g<t>부터)"),
    (r"^the team database cannot be reached for the round's lock: ", "라운드 잠금을 위해 팀 데이터베이스에 연결할 수 "
     "없습니다: "),
    (r"\(held by another session\)", "(다른 세션이 잡고 있음)"),
    (r"^the team's published state version (?P<v>\d+) \(round (?P<r>\S+)\) cannot be read: (?P<e>.+); "
     r"`artibot team rollback` withdraws it$",
     r"팀이 게시한 상태 버전 \g<v> (라운드 \g<r>)을(를) 읽을 수 없습니다: \g<e>; `artibot team rollback`으로 철회하세요"),
    (r"^team round (?P<r>\S+) is waiting for review: `artibot team review` shows and answers it$",
     r"팀 라운드 \g<r>이(가) 검토를 기다립니다: `artibot team review`로 보고 답하세요"),
    (r"^(?P<n>\d+) new pooled record\(s\), too few to learn from even with --flush; nothing to learn yet$",
     r"새로 모인 레코드 \g<n>개, --flush로도 학습하기에는 너무 적음; 아직 학습할 것 없음"),
    (r"^no new pooled record: nothing to learn yet$", "새로 모인 레코드 없음: 아직 학습할 것 없음"),
    (r"^(?P<n>\d+) new pooled record\(s\), fewer than a batch of (?P<b>\d+); nothing to learn yet \(--flush learns "
     r"them anyway\)$", r"새로 모인 레코드 \g<n>개, 배치 크기 \g<b>개보다 적음; 아직 학습할 것 없음 (--flush를 주면 그래도 "
     r"학습)"),
    (r"^team round (?P<r>\S+) prepared and saved for review \(checkpoint (?P<n>\d) needs a human\): "
     r"`(?P<c>[^`]+)`$", r"팀 라운드 \g<r>을(를) 준비해 검토용으로 저장했습니다 (체크포인트 \g<n>에 사람의 답이 필요): "
     r"`\g<c>`"),
    (r"^team round (?P<r>\S+) reset: nothing published; the records stay unlearned$",
     r"팀 라운드 \g<r> 초기화: 게시한 것 없음; 레코드는 학습되지 않은 채 남습니다"),
    (r"^team round (?P<r>\S+) published as state version (?P<v>\d+): (?P<n>\d+) pooled record\(s\); "
     r"(?P<t>thresholds updated|thresholds kept \(reverted\)); (?P<p>\d+) pattern\(s\) promoted, (?P<d>\d+) demoted$",
     lambda m: f"팀 라운드 {m['r']}을(를) 상태 버전 {m['v']}(으)로 게시했습니다: 모인 레코드 {m['n']}개; "
               f"{'임계값 갱신' if m['t'] == 'thresholds updated' else '임계값 유지(되돌림)'}; "
               f"패턴 {m['p']}개 승격, {m['d']}개 강등"),
    (r"^no team round is waiting for review: `(?P<c>[^`]+)` prepares one$",
     r"검토를 기다리는 팀 라운드가 없습니다: `\g<c>`이 라운드를 준비합니다"),
    (r"^team round (?P<r>\S+)'s saved proposal cannot be read \((?P<e>.+)\)$",
     r"팀 라운드 \g<r>의 저장된 제안을 읽을 수 없습니다 (\g<e>)"),
    (r"^team round (?P<r>\S+) is waiting for review and builds on the latest state: answer it \((?P<a>`[^`]+`)\) "
     r"or reset it \((?P<b>`[^`]+`)\) before rolling back$",
     r"팀 라운드 \g<r>이(가) 검토를 기다리고 있고 최신 상태를 바탕으로 합니다: 롤백하기 전에 답하거나(\g<a>) "
     r"초기화하세요(\g<b>)"),
    (r"^the team has no published state to roll back$", "팀에 롤백할 게시된 상태가 없습니다"),
    # retention (artibot.team.retention): the settings, and each month's line of `team retention`
    (r"^the team's setting retention_months is (?P<v>.+?); it must be a whole number of months \(1 or more\)$",
     r"팀 설정 retention_months가 \g<v>입니다; 1 이상의 정수(개월)여야 합니다"),
    (r"^the team's setting retention_months is (?P<v>.+?); it must be 1 or more$",
     r"팀 설정 retention_months가 \g<v>입니다; 1 이상이어야 합니다"),
    (r"^--months must be 1 or more, not (?P<v>\S+)$", r"--months는 1 이상이어야 합니다 (\g<v>은(는) 안 됨)"),
    (r"^(?P<m>\d{4}-\d\d) \((?P<n>\d+) row\(s\)\): ", r"\g<m> (행 \g<n>개): "),
    (r"(?P<n>\d+) row\(s\) not learned yet by the team's latest state: kept$",
     r"팀의 최신 상태가 아직 학습하지 않은 행 \g<n>개: 유지"),
    (r"(?<=: )would be dropped \(dry run\)$", "지울 예정 (시험 실행)"),
    (r"(?<=: )dropped$", "지움"),
    # the team database (artibot.team.db)
    (r"^another session has held the schema's lock for (?P<s>\d+) s \(another `(?P<c>[^`]+)`\?\): try again when it "
     r"has finished$", r"다른 세션이 스키마 잠금을 \g<s>초 동안 잡고 있습니다 (다른 `\g<c>`?): 끝난 뒤 다시 시도하세요"),
    (r"^the team commands need psycopg 3, which this install lacks: (?P<a>.+) \(or (?P<b>.+)\)$",
     r"팀 명령에는 psycopg 3이 필요한데 이 설치에는 없습니다: \g<a> (또는 \g<b>)"),
    (r"^the team database URL (?P<u>.+) does not parse: ", r"팀 데이터베이스 URL \g<u>을(를) 해석할 수 없습니다: "),
    (r"^the team database URL carries a password; artibot stores no credentials: remove it from the URL and put it "
     r"in (?P<w>.+) or a service file$",
     r"팀 데이터베이스 URL에 비밀번호가 있습니다; artibot은 자격 증명을 저장하지 않습니다: URL에서 빼고 \g<w> 또는 "
     r"서비스 파일에 두세요"),
    (_AT + r"the team database \((?P<w>[^)]+)\) cannot be reached: ", _db("에 연결할 수 없습니다: ")),
    (_AT + r"the team database \((?P<w>[^)]+)\) did not answer within (?P<s>\S+) s", _db("가 {s}초 안에 답하지 않았습니다")),
    (_AT + r"the team database \((?P<w>[^)]+)\) went away: ", _db("와의 연결이 끊겼습니다: ")),
    (r"; records stay queued and are sent later", "; 레코드는 대기열에 남아 나중에 보내집니다"),
    (_AT + r"the team database refused: (?P<e>.+) \(see (?P<d>\S+) for the roles: a member inserts experiences and "
     r"reads states, only a reviewer runs rounds\)",
     r"팀 데이터베이스가 거부했습니다: \g<e> (역할은 \g<d> 참고: 멤버는 경험을 넣고 상태를 읽으며, 라운드는 검토자만 "
     r"진행합니다)"),
    (_AT + r"the team database said: ", "팀 데이터베이스의 응답: "),
    (r"^the team database's schema is version (?P<c>\d+), newer than this artibot knows \((?P<n>\d+)\); upgrade "
     r"artibot$", r"팀 데이터베이스의 스키마 버전 \g<c>은(는) 이 artibot이 아는 버전(\g<n>)보다 새롭습니다; artibot을 "
     r"업그레이드하세요"),
    (r"^(?P<w>.+) has no artibot team schema: run `(?P<c>[^`]+)` first$",
     lambda m: f"{_where(m['w'])}에 artibot 팀 스키마가 없습니다: 먼저 `{m['c']}`을(를) 실행하세요"),
    (r"^the team database's schema is version (?P<v>\d+), this artibot expects (?P<n>\d+): (?:run `(?P<c>[^`]+)` "
     r"to upgrade it|upgrade artibot)$",
     lambda m: f"팀 데이터베이스의 스키마 버전은 {m['v']}이고 이 artibot은 {m['n']}을(를) 기대합니다: "
               + (f"`{m['c']}`로 스키마를 올리세요" if m["c"] else "artibot을 업그레이드하세요")),
]
