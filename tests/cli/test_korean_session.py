"""A whole Korean session in a real terminal: every screen a person meets, and the errors
people commonly make, print no English sentence outside proper names, numbers, commands,
paths and config keys (a key where it stands as a key: quoted, dotted, or `key=` / `key:`)."""

from __future__ import annotations

import os
import re
import signal
import socket
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


# a key of the shipped config where it stands as a key (an error lists the allowed ones,
# unquoted, as the list of an unknown key's error): in quotes or backticks, before `=` or `:`,
# or in that list -- `mode` in a sentence is a word
_NAMES = "|".join(sorted(_keys(orjson.loads((Path(__file__).parents[2] / "config" / "artibot.config.json")
                                           .read_bytes())), key=len, reverse=True))
CONFIG_KEYS = re.compile(r"(['\"`])(?:{n})\1|\b(?:{n})(?=[=:])|\(허용: [A-Za-z]\w*(?:, [A-Za-z]\w*)*\)".format(n=_NAMES))
# the agents artibot installs into, by the names their commands take
CLIENTS = re.compile(r"\b(?:claude-code|gemini-cli|codex-cli|cursor)\b")
# a placeholder in a usage line or a help (ROUND_ID, N, DIR, {target} and its row under the
# arguments); a value in quotes ('win'); an address (http://127.0.0.1:41470)
PLACEHOLDERS = re.compile(r"\b[A-Z][A-Z_]+\b|'[^'\s]*'|\{[a-z_]+\}|^ +[a-z_]+(?= <)|\bhttps?://\S+")
# a line of a file's unified diff (`install --dry-run`): the file's content, not artibot's words
DIFF_LINE = re.compile(r"^(?:[+-]|@@ )")
# three English words in a row, whatever stands between them but a number or Hangul
SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[^\w가-힣]+[A-Za-z]{2,}){2,}")


def leftover_english(screen: str) -> list[str]:
    """Each run of three or more English words left once the allowed tokens are taken out."""
    found = []
    for line in screen.splitlines():
        if DIFF_LINE.match(line):
            continue
        rest = CONFIG_KEYS.sub(" ", line)
        rest = ALLOWED.sub(" ", MORE.sub(" ", CLIENTS.sub(" ", PLACEHOLDERS.sub(" ", rest))))
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_other_commands_in_korean(artibot_home: Path) -> None:
    """rollback, route, outcome, a record's validation, drift, config, install, the gateway,
    the team and two help screens, in Korean in a real terminal."""
    korean_home(artibot_home)
    assert learn(answers="defaults").status == "applied"
    routed = run(["route", "fix the login bug in auth.py", "--domain", "backnd", "--record"], artibot_home)
    decision = re.search(r"(exp_\w+)", routed)
    assert decision, routed
    collect = Terminal(["collect", "--stdin"], artibot_home)
    try:
        collect.wait_reading()
        collect.answer('{"id": "a", "timestamp": "2026", "domain": "", "complexity": 2, "routed_to": "s", '
                       '"outcome": "w", "latency_ms": -1}')
        collect.answer("\x04")  # Ctrl-D: the end of stdin
        assert collect.finish() == 2, collect.screen()
    finally:
        collect.close()
    port = _free_port()
    gateway = Terminal(["gateway", "--port", str(port)], artibot_home)
    try:
        gateway.read_until("Ctrl-C".encode(), timeout=60)  # it serves
        status = run(["status"], artibot_home)
        gateway.proc.send_signal(signal.SIGINT)
        assert gateway.finish(timeout=30) == 0, gateway.screen()
    finally:
        gateway.close()
    screens = {
        "route": routed,
        "outcome": run(["outcome", decision.group(1), "success"], artibot_home),
        "bad outcome": run(["outcome", decision.group(1), "win"], artibot_home, code=2),
        "bad record": collect.screen(),
        "rollback --dry-run": run(["rollback", "last", "--dry-run"], artibot_home),
        "rollback of no round": run(["rollback", "nope"], artibot_home, code=2),
        "drift": run(["drift"], artibot_home),
        "config show": run(["config", "show"], artibot_home),
        "install --dry-run": run(["install", "claude-code", "--dry-run"], artibot_home),
        "gateway": gateway.screen(), "gateway in status": status,
        "team status": run(["team", "status"], artibot_home),
        "team show": run(["team", "show"], artibot_home, code=1),
        "rollback --help": run(["rollback", "--help"], artibot_home),
        "install --help": run(["install", "--help"], artibot_home),
    }
    said = {
        "route": "복잡도", "outcome": "기록했습니다", "bad outcome": "중 하나여야", "bad record": "레코드 1",
        "rollback --dry-run": "복원합니다", "rollback of no round": "적용된 라운드가 아닙니다", "drift": "드리프트 검사",
        "config show": "찾는 순서", "install --dry-run": "시험 실행", "gateway": "멈춤",
        "gateway in status": f"게이트웨이 (포트 {port}): 실행 중", "team status": "멤버 아님",
        "team show": "팀 멤버가 아닙니다", "rollback --help": "사용법", "install --help": "훅과 /learn 명령을 등록",
    }
    english = {name: leftover_english(screen) for name, screen in screens.items()}
    assert not any(english.values()), {name: found for name, found in english.items() if found}
    for name, screen in screens.items():
        assert said[name] in screen, (name, screen)
    for name in ("rollback --help", "install --help", "drift", "rollback --dry-run"):
        assert_fits(screens[name])


def test_the_checker_finds_english() -> None:
    """The test above can fail: an English screen is caught, the allowed tokens are not."""
    assert leftover_english("unprocessed experiences: 130 (2 full batch(es) of 50)")
    assert leftover_english("artibot: No such command 'stauts'.") == ["No such command"]
    assert leftover_english("미처리 경험: 130개; `artibot review --answer 1=accept` /tmp/pytest-of-me/home") == []
    # a config key is admitted as a key, not as a word of a sentence
    assert leftover_english("learning mode window") == ["learning mode window"]
    assert leftover_english("모드: `mode`, 'window', level=0.9, method: dr, learning.lifelong.mode") == []
    assert leftover_english("batchSize은(는) 알 수 없는 키입니다 (허용: mode, window, batchSize)") == []
    assert leftover_english("(허용: mode, the other window)") == ["mode, the other window"]
    # a unified diff's lines are a file's content
    assert leftover_english('+  "command": "the hook of the agent"') == []
    assert leftover_english("  -h, --help  Show this message and exit.") == ["Show this message and exit"]


def test_the_common_errors_in_korean(tmp_path: Path) -> None:
    """Each error people commonly meet, as the library words it, said in Korean whole."""
    import errno

    from artibot.cli.words_errors import say_error
    from artibot.config import settings_from_mapping
    from artibot.errors import ArtibotError, GatewayError, StoreError, os_reason
    from artibot.messages import Message
    from artibot.store.home import Home

    errors: list[ArtibotError] = []
    for bad in ({"learning": {"lifelong": {"sytem2Cost": 0.05}}}, {"lang": "fr"},
                {"learning": {"lifelong": {"batchSize": 0}}}, {"cognitive": {"router": {"threshold": "x"}}},
                {"learning": {"lifelong": {"batch_size": 5}}},
                {"cognitive": {"router": {"minThreshold": 0.9, "maxThreshold": 0.1}}}, [1],
                {"gateway": {"profiles": {"system1": {"effort": "huge"}}}, "learning": {"checkpoints": {"x": 1}}}):
        try:
            settings_from_mapping(bad, source=tmp_path / "artibot.config.json")
        except ArtibotError as exc:
            errors.append(exc)
    try:
        Home(tmp_path / "typo").require()
    except ArtibotError as exc:
        errors.append(exc)
    for code in (errno.EROFS, errno.EACCES, errno.ENOSPC, errno.EIO):
        errors.append(StoreError.from_os(OSError(code, os.strerror(code), str(tmp_path / "x.json"))))
    errors.append(StoreError.from_os(OSError(errno.EACCES, os.strerror(errno.EACCES)), tmp_path, "create the folder"))
    failed = OSError(errno.EADDRINUSE, os.strerror(errno.EADDRINUSE))
    errors.append(GatewayError(Message("gateway.cannot_listen", address="127.0.0.1:41470", reason=os_reason(failed))))
    assert len(errors) == 15
    for error in errors:
        said = say_error("ko", error)
        assert re.search("[가-힣]", said) and leftover_english(said) == [], (str(error), said)
    assert "sytem2Cost" in say_error("ko", errors[0]) and "system2Cost" in say_error("ko", errors[0])  # as typed
    assert "(받은 값: 0.9, 0.1)" in say_error("ko", errors[5])
    assert str(errors[-1]) == ("the gateway cannot listen on 127.0.0.1:41470: Address already in use (another "
                               "program uses the port? try --port)")
    assert str(errors[9]) == (f"cannot write {tmp_path / 'x.json'}: Read-only file system; the file system is "
                              "read-only: point ARTIBOT_HOME at a writable folder, or remount it")


def test_the_library_sentences_in_korean() -> None:
    """The sentences the library words in English that the session above does not meet:
    doctor's findings, the config's cross-key checks, rollback's refusals, the installer's
    notes -- each said in Korean whole, keys, ids and paths as they were."""
    from artibot.cli.words_errors import say_error, said_message
    from artibot.errors import ValidationError
    from artibot.messages import Message, render

    findings = {  # doctor's, each with its English sentence (the --json output's)
        "move it aside into quarantine/; the System 1 cache starts empty until patterns are promoted again; "
        "no snapshot holds a copy of it":
            Message("doctor.move_aside_lost", lost=Message("doctor.lost_no_copy", lost=Message("doctor.lost.system1"))),
        "was written by a newer artibot (schema_version 9; this one understands 2)":
            Message("doctor.newer", version=9, known=2),
        "move the bad copy to quarantine/ so the next run starts this file fresh: thresholds fall back to the "
        "configured default (cognitive.router.threshold) for every domain; restore from snapshots/r1/ with "
        "`artibot rollback r1`":
            Message("doctor.bad_copy_fix", lost=Message("doctor.lost_restore", lost=Message("doctor.lost.thresholds"),
                                                        round="r1")),
        "cut the torn tail into quarantine/ and restore the closing bracket (the next append does this by itself); "
        "only the interrupted append is lost": Message("doctor.torn_fix"),
        "3 record(s) break the schema, so `artibot learn` stops on them (first: line 4: input is required)":
            Message("doctor.schema_broken", n=3, line=4, problems=(Message("record.required", field="input"),)),
    }
    for sentence, message in findings.items():
        said = said_message("ko", message)
        assert str(message) == sentence and re.search("[가-힣]", said) and leftover_english(said) == [], (sentence, said)
    from artibot.integrations.install_files import kept_note, notes

    note = notes(kept_note(Message("install.add_replacing", n=7, old=7), 2), Message("install.reserialised"))
    assert str(note) == ("add 7 artibot hooks, replacing 7 from an earlier install (2 other hooks kept); the file is "
                         "re-serialised, see the diff")
    assert re.search("[가-힣]", render(note, "ko")) and leftover_english(render(note, "ko")) == [], render(note, "ko")

    choices = Message("rollback.choices_more", rounds="r1, r2", n=3)
    for m in (Message("rollback.not_applied", round="'nope'", choices=choices), Message("rollback.none")):
        assert re.search("[가-힣]", render(m, "ko")) and leftover_english(render(m, "ko")) == [], render(m, "ko")
    assert str(Message("rollback.not_applied", round="'nope'", choices=choices)) == (
        "round 'nope' is not an applied round; the applied rounds, oldest first: r1, r2 (and 3 earlier), or `last`")
    assert "r1, r2" in render(choices, "ko") and "`last`" in render(choices, "ko")
    bad = ValidationError([Message("record.at_record", n=2, problem=Message("record.latency", value="-1")),
                           Message("record.at_line", n=3, problem=Message("json.invalid", reason="x"))], "stdin")
    assert str(bad) == ("stdin: record 2: latency_ms must be a number >= 0, not -1; line 3: not valid JSON (x) "
                        "(nothing was written)")
    line = say_error("ko", bad)
    assert line == ("stdin: 레코드 2: latency_ms는 0 이상의 숫자여야 합니다 (-1은(는) 안 됨); 3번째 줄: 올바른 JSON이 "
                    "아닙니다 (x) (아무것도 기록하지 않았습니다)"), line
    one = ValidationError([Message("record.at_record", n=2, problem=Message("record.required", field="id"))])
    assert say_error("en", one) == "record 2: id is required (nothing was written)"
