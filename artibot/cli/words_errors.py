"""The library's errors and results said in the configured language.

An error or result carries a :class:`~artibot.messages.Message`, said from the one catalogue
per language (:func:`say_error`, :func:`said_message`, :func:`say_any`). A plain sentence
passes through :func:`say`, which rewrites only text artibot does not word itself — the
command-line parser's (:mod:`artibot.cli.words_foreign`) — and keeps any other sentence as it
is (an OS's or a server's reason, quoted inside a message).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Union

from artibot.cli.words_foreign import CLICK_ERRORS
from artibot.errors import ArtibotError
from artibot.messages import Message, render

if TYPE_CHECKING:
    from artibot.messages import Param

_Replacement = Union[str, Callable[["re.Match[str]"], str]]
_Rule = tuple["re.Pattern[str]", _Replacement]

RULES: dict[str, list[_Rule]] = {"ko": [(re.compile(p), r) for p, r in CLICK_ERRORS]}
"""Per language, the parser's sentences and their rewriting."""


def said_message(lang: str, message: Message) -> str:
    """A library message in ``lang``; the sentences among its parts that are not messages yet
    (a validator's problem beside a converted one) through :func:`say`."""
    return render(_bridged(lang, message), lang)


def _bridged(lang: str, message: Message) -> Message:
    def one(v: Param) -> Param:
        if isinstance(v, Message):
            return _bridged(lang, v)
        if isinstance(v, tuple):
            return tuple(say(lang, x) if isinstance(x, str) else _bridged(lang, x) for x in v)
        return v

    return Message(message.id, **{k: one(v) for k, v in message.params.items()})


def say_error(lang: str, error: ArtibotError) -> str:
    """An error's line (without ``artibot:``) in ``lang``: its message, else its sentence."""
    if error.message is not None:
        return said_message(lang, error.message)
    return say(lang, str(error))


def say_any(lang: str, text: str | Message) -> str:
    """A library message (:func:`said_message`) or a sentence (:func:`say`) in ``lang``."""
    return said_message(lang, text) if isinstance(text, Message) else say(lang, text)


def say(lang: str, message: str) -> str:
    """``message`` (one error line, without the ``artibot:`` prefix) in ``lang``."""
    for pattern, replacement in RULES.get(lang, ()):
        message = pattern.sub(replacement, message)
    return message
