"""A whole Korean session in a real terminal: every screen a person meets, and the errors
people commonly make, print no English sentence outside proper names, numbers, commands,
paths and config keys."""

from __future__ import annotations

import os
import re
from pathlib import Path

import orjson

from artibot import learn
from artibot.collector import collect_many
from tests.cli.test_korean import ALLOWED, korean_home
from tests.cli.test_pty import Terminal, assert_fits
from tests.factories import mixed

# beyond test_korean's list: paths, options and their metavars, the table rules
MORE = re.compile(r"(?:~|/)[^\s:]*|--?[a-z][a-z-]*(?: [A-Z_]+\b)?|\bDIR\b|\bsystem[12]\b|\bUTC\b"
                  r"|\b[a-z]+(?:\.[A-Za-z0-9]+)+\b")  # a dotted config key


def _keys(doc: object) -> set[str]:
    return {k for k, v in doc.items() for k in (k, *_keys(v))} if isinstance(doc, dict) else set()


# every key of the shipped config (an error lists the allowed ones)
CONFIG_KEYS = re.compile(r"\b(?:%s)\b" % "|".join(sorted(_keys(orjson.loads(
    (Path(__file__).parents[2] / "config" / "artibot.config.json").read_bytes())), key=len, reverse=True)))
# three English words in a row, whatever stands between them but a number or Hangul
SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[^\w가-힣]+[A-Za-z]{2,}){2,}")


def leftover_english(screen: str) -> list[str]:
    """Each run of three or more English words left once the allowed tokens are taken out."""
    found = []
    for line in screen.splitlines():
        rest = ALLOWED.sub(" ", CONFIG_KEYS.sub(" ", MORE.sub(" ", line)))
        found += [m.group() for m in SENTENCE.finditer(rest)]
    return found


def run(argv: list[str], home: Path, answers: int = 0, code: int = 0) -> str:
    term = Terminal(argv, home)
    try:
        for _ in range(answers):
            term.read_until("중 선택".encode(), timeout=60)
            term.answer("")  # Enter: the default
        assert term.finish(timeout=90) == code, term.screen()
    finally:
        term.close()
    return term.screen()


def test_a_korean_session_end_to_end(artibot_home: Path) -> None:
    korean_home(artibot_home)
    assert learn(answers="defaults").status == "applied"
    collect_many(mixed(120, start=1000, seed=5))
    assert learn(answers="defer").status == "deferred"  # a round waits for review
    (Path.cwd() / "artibot.config.json").write_text('{"lang": "ko"}')  # the project's config says ko too

    screens = {
        "status": run(["status"], artibot_home),
        "history": run(["history"], artibot_home),
        "doctor": run(["doctor"], artibot_home, code=0),
        "turns": run(["turns", "-n", "5"], artibot_home),
        "report cost": run(["report", "cost"], artibot_home),
        "review": run(["review"], artibot_home, answers=3),  # the saved round, answered in the terminal
    }
    collect_many(mixed(120, start=3000, seed=6))
    assert learn(answers="defer").status == "deferred"
    screens |= {
        "learn": run(["learn"], artibot_home, answers=3),  # continues the saved round, answered in the terminal
        "demo": run(["demo", "--rounds", "2"], artibot_home),
        "unknown command": run(["stauts"], artibot_home, code=2),
        "option after the command": run(["status", "--home", "x"], artibot_home, code=2),
        "bad value": run(["history", "-n", "abc"], artibot_home, code=2),
        "missing home": run(["--home", str(artibot_home.parent / "typo"), "status"], artibot_home, code=2),
    }
    said = {
        "status": "임계값", "history": "라운드", "doctor": "권한", "turns": "복잡도", "report cost": "경로별 비용",
        "review": "체크포인트 1", "learn": "이어서 진행", "demo": "기본 설정이 학습한 것", "unknown command": "명령이 없습니다",
        "option after the command": "명령 앞에", "bad value": "정수", "missing home": "데이터 홈",
    }
    english = {name: leftover_english(screen) for name, screen in screens.items()}
    assert not any(english.values()), {name: found for name, found in english.items() if found}
    for name, screen in screens.items():
        assert said[name] in screen, (name, screen)
        if name in ("status", "history", "report cost", "review", "learn"):  # an error is one line, however long
            assert_fits(screen)


def test_the_checker_finds_english() -> None:
    """The test above can fail: an English screen is caught, the allowed tokens are not."""
    assert leftover_english("unprocessed experiences: 130 (2 full batch(es) of 50)")
    assert leftover_english("artibot: No such command 'stauts'.") == ["No such command 'stauts"]
    assert leftover_english("미처리 경험: 130개; `artibot review --answer 1=accept` /tmp/pytest-of-me/home") == []


def test_the_common_errors_in_korean(tmp_path: Path) -> None:
    """Each error people commonly meet, as the library words it, said in Korean whole."""
    import errno

    from artibot.cli.words_errors import say
    from artibot.config import settings_from_mapping
    from artibot.errors import ArtibotError, StoreError
    from artibot.store.home import Home

    errors: list[str] = []
    for bad in ({"learning": {"lifelong": {"sytem2Cost": 0.05}}}, {"lang": "fr"},
                {"learning": {"lifelong": {"batchSize": 0}}}, {"cognitive": {"router": {"threshold": "x"}}}):
        try:
            settings_from_mapping(bad, source=tmp_path / "artibot.config.json")
        except ArtibotError as exc:
            errors.append(str(exc))
    try:
        Home(tmp_path / "typo").require()
    except ArtibotError as exc:
        errors.append(str(exc))
    for code in (errno.EROFS, errno.EACCES, errno.ENOSPC):
        errors.append(str(StoreError.from_os(OSError(code, os.strerror(code), str(tmp_path / "x.json")))))
    assert len(errors) == 8
    for message in errors:
        said = say("ko", message)
        assert re.search("[가-힣]", said) and leftover_english(said) == [], (message, said)
    assert "sytem2Cost" in say("ko", errors[0]) and "system2Cost" in say("ko", errors[0])  # keys as typed
