"""The team's commands in a Korean session against a real PostgreSQL: each result and refusal
the team library words in English is said in Korean, its versions, round ids and counts kept."""

from __future__ import annotations

import re

from artibot.cli.app import run
from tests.cli.test_korean_session import leftover_english
from tests.team.helpers import records


def test_the_team_commands_in_korean(team_url, artibot_home, capsys) -> None:
    from artibot.collector import collect_many

    artibot_home.mkdir(parents=True)
    (artibot_home / "artibot.config.json").write_text('{"lang": "ko"}')
    collect_many(records(300))
    steps = [(["team", "init", team_url], 0), (["team", "join", team_url], 0), (["team", "push"], 0),
             (["team", "push"], 0), (["team", "learn", "--dry-run"], 0), (["team", "learn", "--unattended"], 0),
             (["team", "learn", "--unattended"], 0), (["team", "rollback", "--yes"], 1),
             (["team", "review", "--answer", "1=reset"], 0), (["team", "review"], 2), (["team", "learn", "--yes"], 0),
             (["team", "pull"], 0), (["team", "status"], 0), (["team", "rollback", "--yes"], 0),
             (["team", "rollback", "--yes"], 1), (["team", "leave"], 0), (["team", "push"], 1)]
    said = []
    for argv, code in steps:
        assert run(argv) == code, (argv, capsys.readouterr())
        out = capsys.readouterr()
        said.append(out.out + out.err)
        assert re.search("[가-힣]", said[-1]) and leftover_english(said[-1]) == [], (argv, said[-1])
    assert "레코드 300개 보냄, 팀에 새로 들어간 것 300개 (이미 있던 것 0개)" in said[2] and "보낼 것 없음" in said[3]
    assert "시험 실행: 아무것도 기록하지 않음" in said[4]
    rid = re.search(r"팀 라운드 (r\S+)을\(를\) 준비해 검토용으로 저장했습니다 \(체크포인트 \d에", said[5])
    assert rid and f"팀 라운드 {rid[1]}이(가) 검토를 기다립니다" in said[6] and rid[1] in said[7]
    assert f"팀 라운드 {rid[1]} 초기화: 게시한 것 없음" in said[8]
    assert "검토를 기다리는 팀 라운드가 없습니다" in said[9]
    assert "상태 버전 1(으)로 게시했습니다: 모인 레코드 300개" in said[10]
    assert "팀 상태 버전 1" in said[11] and "캐시했습니다" in said[11]
    assert "팀에 롤백할 게시된 상태가 없습니다" in said[14]
    assert "팀 멤버가 아닙니다" in said[16]
