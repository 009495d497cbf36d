"""A yes/no question on a terminal that says what it takes when the answer is something else.

``typer.confirm`` answers "maybe" with a bare ``Error: invalid input`` and asks again: the
person is not told what is allowed. Here the question is asked the same way
(``Roll back? [y/N]: ``), an answer it does not take is named with the answers it does,
and end of input is an abort, as before (the command line says "interrupted").
"""

from __future__ import annotations

import typer

YES = frozenset({"y", "yes", "예", "네", "ㅇ"})
NO = frozenset({"n", "no", "아니오", "아니요", "ㄴ"})


def confirm(question: str, *, default: bool = False) -> bool:
    """Ask ``question``; Enter gives ``default``."""
    from artibot.cli.words import session_lang, w

    lang = session_lang()
    suffix = " [Y/n]: " if default else " [y/N]: "
    while True:
        try:
            answer = input(question + suffix).strip()
        except EOFError:
            raise typer.Abort() from None
        if not answer:
            return default
        if answer.lower() in YES:
            return True
        if answer.lower() in NO:
            return False
        print(w(lang, "yn_again", answer=answer[:40], default=w(lang, "yn_yes" if default else "yn_no")))
