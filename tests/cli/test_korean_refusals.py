"""The rounds', the store's and the config's own refusals, as the library words them: each
said in Korean whole from its message (keys, paths, values and commands as they were), and
the English sentence an API caller reads unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from artibot.cli.words_errors import say_error
from artibot.errors import ArtibotError, ConfigError, CorruptFileError, NotFoundError, ReviewError, StoreError
from tests.cli.test_korean_session import leftover_english


def korean(error: ArtibotError) -> str:
    said = say_error("ko", error)
    assert re.search("[가-힣]", said) and leftover_english(said) == [], said
    return said


def test_review_answers_refused_in_korean() -> None:
    from artibot.round.checkpoints import parse_answers, policy_for
    from artibot.config import settings_from_mapping

    for answers, english, said in (
            (["1=maybe"], "answer 1=maybe: checkpoint 1 takes accept|reset, not 'maybe'",
             "답 1=maybe: 체크포인트 1은(는) accept|reset 중 하나를 받습니다 ('maybe'은(는) 안 됨)"),
            (["accept"], "answer 'accept' must look like N=CHOICE (e.g. 1=accept, 2=apply, 3=auto, 3.PATTERN=hold)",
             "답 'accept'은(는) N=선택 꼴이어야 합니다 (예: 1=accept, 2=apply, 3=auto, 3.PATTERN=hold)"),
            (["4=accept"], "answer 4=accept: the checkpoints are 1, 2 and 3 (or 3.PATTERN)",
             "답 4=accept: 체크포인트는 1, 2, 3 (또는 3.PATTERN)입니다")):
        with pytest.raises(ReviewError) as info:
            parse_answers(answers)
        assert str(info.value) == english
        assert korean(info.value) == said
    with pytest.raises(ReviewError) as info:
        policy_for("always", settings_from_mapping({}))
    assert str(info.value) == "answers must be 'defaults', 'defer', 'unattended' or a mapping, not 'always'"
    korean(info.value)


def test_no_round_to_review_in_korean(artibot_home: Path, cli) -> None:
    artibot_home.mkdir(parents=True)
    (artibot_home / "artibot.config.json").write_text('{"lang": "ko"}')
    result = cli("review", "--question", "1", "--json")
    assert result.code == 2 and "검토를 기다리는 라운드가 없습니다; `artibot learn`이 라운드를 시작합니다" in result.err, result.err
    result = cli("learn", "--yes", "--unattended")
    assert result.code == 2
    assert "--yes와 --unattended는 함께 쓸 수 없습니다: 체크포인트에 누가 답할지 고르세요" in result.err, result.err
    from artibot.round.review import answer_pending, discard_pending

    with pytest.raises(ReviewError) as info:
        answer_pending(home=artibot_home, answers=["1=accept"])
    assert str(info.value) == "no round is waiting for review; `artibot learn` starts one"
    with pytest.raises(ReviewError) as info:
        discard_pending(home=artibot_home)
    assert str(info.value) == "no round is waiting for review"
    assert korean(info.value) == "검토를 기다리는 라운드가 없습니다"


def test_a_missing_snapshot_and_a_bad_manifest_in_korean(artibot_home: Path) -> None:
    from artibot.store.home import Home
    from artibot.store.round import snapshots

    h = Home(artibot_home)
    with pytest.raises(NotFoundError) as info:
        snapshots.read_manifest(h, "r-x")
    assert str(info.value) == (f"no snapshot for round 'r-x' in {h.snapshots_dir}; `artibot history` lists the rounds "
                               "that can be rolled back")
    assert korean(info.value).startswith(f"{h.snapshots_dir}에 라운드 'r-x'의 스냅샷이 없습니다")
    with pytest.raises(CorruptFileError) as bad:
        snapshots.Manifest.from_json({"round_id": "r", "status": "applied", "files": {}, "seq": 0}, Path("m.json"))
    assert bad.value.problem == '"seq" must be a whole number from 1, not 0'
    assert say_error("ko", bad.value).startswith('m.json: "seq"는 1 이상의 정수여야 합니다 (0은(는) 안 됨). 파일은 그대로')


def test_the_store_s_refusals_in_korean(tmp_path: Path, artibot_home: Path) -> None:
    from artibot.store.exports import write_export
    from artibot.store.home import Home
    from artibot.store.round.commit import RoundCommit

    with pytest.raises(StoreError) as info:
        write_export(tmp_path / "nowhere" / "out.json", b"{}")
    assert str(info.value) == (f"cannot write {tmp_path / 'nowhere' / 'out.json'}: the folder {tmp_path / 'nowhere'} "
                               "does not exist")
    assert korean(info.value) == f"{tmp_path / 'nowhere' / 'out.json'}에 쓸 수 없습니다: 폴더 {tmp_path / 'nowhere'}이(가) 없습니다"
    commit = RoundCommit(Home(artibot_home))
    with pytest.raises(StoreError) as outside:
        commit._rel(tmp_path / "x.json")
    assert str(outside.value) == (f"{tmp_path / 'x.json'} is outside the data home {artibot_home}; a round commits "
                                  "only its own files")
    korean(outside.value)


def test_the_config_s_refusals_in_korean(tmp_path: Path, artibot_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from artibot.config import load_settings

    monkeypatch.setenv("ARTIBOT_CONFIG", str(tmp_path / "none.json"))
    with pytest.raises(ConfigError) as info:
        load_settings(artibot_home)
    assert info.value.problems == [f"$ARTIBOT_CONFIG points to {tmp_path / 'none.json'}, which does not exist"]
    assert f"$ARTIBOT_CONFIG이(가) 가리키는 {tmp_path / 'none.json'}이(가) 없습니다" in say_error("ko", info.value)


def test_a_learning_type_s_column_check_in_korean(tmp_path: Path) -> None:
    from artibot.errors import problem_of
    from artibot.learning.columns import check_fields, get_list

    for call, english, said in (
            (lambda: check_fields({"n": "x"}, {"n": "int"}, "round.step"), "round.step.n must be a whole number, not 'x'",
             "round.step.n은(는) 정수여야 합니다 ('x'은(는) 안 됨)"),
            (lambda: check_fields({}, {"n": "float?"}, "round.step"), "round.step: missing field 'n'",
             "round.step: 필드 'n'이(가) 없습니다"),
            (lambda: get_list({}, "groups", "round"), "round.groups must be a list", "round.groups은(는) 목록이어야 합니다")):
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == english
        error = CorruptFileError(tmp_path / "pending-round.json", problem_of(info.value))
        assert error.problem == english
        assert say_error("ko", error).startswith(f"{tmp_path / 'pending-round.json'}: {said}. 파일은 그대로")
