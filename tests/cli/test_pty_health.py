"""What a person reads after the usual steps and mistakes, in a real 80-column terminal:
a round rolled back twice, ``status`` after a rollback, the rollback question answered
with something else, ``doctor`` on a plain file, ``learn --flush`` with nothing to learn,
a misspelt client name."""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot import learn
from artibot.collector import collect_many
from tests.cli.test_pty import Terminal, assert_fits
from tests.factories import mixed


def run(argv: list[str], home: Path, answers: list[tuple[bytes, str]] = ()) -> tuple[int, str]:
    """``argv`` on a terminal: each (prompt, answer) answered in turn; the exit code and the screen."""
    term = Terminal(argv, home)
    try:
        for prompt, answer in answers:
            term.read_until(prompt)
            term.wait_reading()
            term.answer(answer)
        code = term.finish()
    finally:
        term.close()
    screen = term.screen()
    # an error is one line on stderr, never wrapped (as every error of the command line); the rest fits
    assert_fits("\n".join(line for line in screen.splitlines() if not line.startswith("artibot: ")))
    return code, screen


def flat(screen: str) -> str:
    return " ".join(screen.split())


def test_a_round_rolled_back_twice_and_status_after_it(artibot_home: Path, cli) -> None:
    """``rollback R`` of a rolled-back round said "no round has been applied yet", and
    ``status`` still showed it "(applied)" while ``history`` said "rolled back"."""
    collect_many(mixed(100))
    round_id = learn(answers="defaults").round_id
    assert cli("rollback", round_id, "--yes").code == 0

    code, screen = run(["rollback", round_id], artibot_home)
    said = flat(screen)
    assert code != 0 and f"round {round_id} was rolled back at " in said, said
    assert "nothing to roll back; no round is applied now" in said and "no round has been applied yet" not in said

    code, screen = run(["status"], artibot_home)
    assert code == 0 and f"last round: {round_id} (applied, rolled back (`artibot history`))" in flat(screen)
    code, screen = run(["history"], artibot_home)
    assert "applied (rolled back)" in flat(screen)
    assert cli("status", "--json").json()["last_round_rolled_back"] is True


def test_the_rollback_sentences_in_korean() -> None:
    from artibot.cli.words import w
    from artibot.messages import Message, render
    from artibot.round.rollback import _rolled_back_sentence
    from tests.cli.test_korean import english_sentences

    first = _rolled_back_sentence("r20261203-1-ab", "2026-12-03T14:52:10+00:00", [])
    second = _rolled_back_sentence("r2", "", ["r1"])
    third = Message("rollback.not_applied", round="'r123'", choices=Message("rollback.none_now"))
    assert str(first) == ("round r20261203-1-ab was rolled back at 2026-12-03 14:52 UTC (`artibot history` shows it); "
                          "nothing to roll back; no round is applied now")
    assert str(second) == ("round r2 was rolled back (`artibot history` shows it); nothing to roll back; the applied "
                           "rounds, oldest first: r1, or `last`")
    said = [render(m, "ko") for m in (first, second, third)]
    said.append(w("ko", "st_last_round", round="r1") + " (적용" + w("ko", "st_rolled_back") + ")")
    assert english_sentences("\n".join(said)) == [], said
    assert all("r1" in s or "r2" in s or "r123" in s or "r20261203-1-ab" in s for s in said)


def test_the_rollback_question_says_what_it_takes(artibot_home: Path) -> None:
    """"maybe" got a bare ``Error: invalid input``."""
    collect_many(mixed(100))
    round_id = learn(answers="defaults").round_id
    code, screen = run(["rollback", round_id], artibot_home,
                       [(b"Roll back? [y/N]:", "maybe"), (b"Roll back? [y/N]:", "n")])
    said = flat(screen)
    assert "“maybe” is not an answer here: type y (yes) or n (no); Enter alone means no" in said, said
    assert "invalid input" not in said and code == 1 and "nothing changed" in said
    code, screen = run(["rollback", round_id], artibot_home, [(b"Roll back? [y/N]:", "y")])
    assert code == 0 and f"restored the state from before {round_id}" in flat(screen)


def test_doctor_does_not_call_a_plain_file_a_link(artibot_home: Path) -> None:
    artibot_home.parent.mkdir(parents=True, exist_ok=True)
    artibot_home.write_text("notes\n")
    code, screen = run(["doctor"], artibot_home)
    said = flat(screen)
    assert code == 1 and "the data home is a file, not a folder: artibot keeps its data in a folder" in said, said
    assert "link" not in said and artibot_home.read_text() == "notes\n"


def test_learn_flush_with_nothing_to_learn_does_not_suggest_flush(artibot_home: Path) -> None:
    artibot_home.mkdir(parents=True)
    code, screen = run(["learn", "--flush"], artibot_home)
    said = flat(screen)
    assert code == 0 and "no unprocessed experience: nothing to learn yet" in said, said
    assert "--flush processes them anyway" not in said
    collect_many(mixed(3))
    code, screen = run(["learn"], artibot_home)
    assert "3 unprocessed experience(s), fewer than a batch of 50; nothing to learn yet (--flush processes them " \
           "anyway)" in flat(screen)


def test_a_misspelt_client_gets_a_did_you_mean(artibot_home: Path) -> None:
    code, screen = run(["install", "claud-code"], artibot_home)
    assert code == 2 and "unknown target 'claud-code'" in screen and "did you mean 'claude-code'?" in screen, screen
    code, screen = run(["uninstall", "gemni"], artibot_home)
    assert code == 2 and "did you mean 'gemini-cli'?" in screen, screen


def test_the_small_sentences_in_korean() -> None:
    from artibot.cli.cmd_integrate import _run_plan
    from artibot.cli.words import w
    from artibot.errors import InvalidInput
    from artibot.messages import Message, render
    from tests.cli.test_korean import english_sentences

    with pytest.raises(InvalidInput) as refused:
        _run_plan("claud-code", "user", True, install=True)
    assert str(refused.value) == ("unknown target 'claud-code': artibot installs into claude-code, gemini-cli, "
                                  "codex-cli or cursor; did you mean 'claude-code'?")
    assert refused.value.message is not None
    unknown = refused.value.message
    messages = [Message("doctor.home_not_folder", what=Message("doctor.a_file")), Message("doctor.home_not_folder_fix"),
                Message("round.nothing_none"), Message("round.nothing_flush", n=3)]
    said = [w("ko", "yn_again", answer="maybe", default=w("ko", "yn_no")), *(render(m, "ko") for m in messages),
            render(unknown, "ko")]
    names = ("maybe", "claude-code", "gemini-cli", "codex-cli", "cursor", "claud-code")  # the answer, the clients
    text = "\n".join(said)
    for name in names:
        text = text.replace(name, "")
    assert english_sentences(text) == [], said
