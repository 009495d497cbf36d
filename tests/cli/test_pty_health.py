"""What a person reads after the usual steps and mistakes, in a real 80-column terminal:
a round rolled back twice, ``status`` after a rollback, the rollback question answered
with something else, ``doctor`` on a plain file, ``learn --flush`` with nothing to learn,
a misspelt client name."""

from __future__ import annotations

from pathlib import Path

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
    from artibot.cli.words_errors import say
    from tests.cli.test_korean import english_sentences

    said = [say("ko", "round r20261203-1-ab was rolled back at 2026-12-03 14:52 UTC (`artibot history` shows it); "
                      "nothing to roll back; no round is applied now"),
            say("ko", "round r2 was rolled back (`artibot history` shows it); nothing to roll back; the applied "
                      "rounds, oldest first: r1, or `last`"),
            say("ko", "round 'r123' is not an applied round; no round is applied now (every applied round was "
                      "rolled back; `artibot history` lists them)"),
            w("ko", "st_last_round", round="r1") + " (적용" + w("ko", "st_rolled_back") + ")"]
    assert english_sentences("\n".join(said)) == [], said
    assert all("r1" in s or "r2" in s or "r123" in s or "r20261203-1-ab" in s for s in said)
